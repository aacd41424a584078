/*
 * fe_lower_expr.c: tensor-valued expressions, assignments, and expressions
 * evaluated only for their side effects.
 *
 * A tensor value always ends up in a variable: a variable read is that
 * variable; an API call or a user call gets a CALL / USER_CALL into the
 * destination (or a fresh temporary); a conditional `c ? a : b` becomes an
 * IF whose arms assign the same destination.  A handle read from or
 * stored into memory the IR does not model (array elements, struct fields,
 * pointers) becomes IR_UNKNOWN_TENSOR, or an UNSUPPORTED statement through
 * which the stored handle escapes.
 */
#include "fe_internal.h"

#include <string.h>

static void fe_assign_tensor(fe_ctx *fx, ir_loc loc, int dst, int src)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_ASSIGN_TENSOR, loc);
    s->assign_tensor.dst = dst;
    s->assign_tensor.src = src;
    fe_push(fx, s);
}

/* Lower the statements that fe_lower_* puts into b, then restore. */
static ir_block *fe_lower_into(fe_ctx *fx, ir_block *b, CXCursor c, int dst,
                               void (*lower)(fe_ctx *, CXCursor, int))
{
    ir_block *saved = fx->cur;
    fx->cur = b;
    lower(fx, c, dst);
    fx->cur = saved;
    return b;
}

static void fe_tensor_into(fe_ctx *fx, CXCursor c, int dst)
{
    fe_lower_tensor(fx, c, dst);
}

static void fe_effects_into(fe_ctx *fx, CXCursor c, int dst)
{
    (void)dst;
    fe_lower_effects(fx, c);
}

/* c ? a : b, as an IF that assigns dst (a temporary when none). */
static int fe_tensor_conditional(fe_ctx *fx, CXCursor c, int dst)
{
    CXCursor kids[3];
    ir_loc loc = fe_loc(fx, c);
    if (fe_children(c, kids, 3) != 3) {
        fe_unsupported(fx, loc, IR_NO_VAR, "conditional tensor expression");
        return IR_UNKNOWN_TENSOR;
    }
    int target = dst != IR_NO_VAR ? dst : ir_temp_new(fx->u, fx->func, loc);
    ir_stmt *s = ir_stmt_new(fx->u, IR_IF, loc);
    s->branch.cond = fe_lower_int(fx, kids[0]);
    s->branch.then_blk = fe_lower_into(fx, ir_block_new(fx->u), kids[1], target, fe_tensor_into);
    s->branch.else_blk = fe_lower_into(fx, ir_block_new(fx->u), kids[2], target, fe_tensor_into);
    fe_push(fx, s);
    return target;
}

/* A handle that is the value of a variable reference. */
static int fe_tensor_ref(fe_ctx *fx, CXCursor c)
{
    CXCursor decl = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) {
        int var = fe_var_of_decl(fx, decl);
        if (fx->u->vars[var].kind == IR_VAR_TENSOR)
            return var;
    }
    fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR,
                   ir_strfmt(fx->u, "tensor handle from %s, not a tensor variable", fe_spelling(fx, c)));
    return IR_UNKNOWN_TENSOR;
}

static int fe_tensor_call(fe_ctx *fx, CXCursor c, int dst)
{
    fe_callee ce = fe_callee_of(fx, c);
    switch (ce.kind) {
    case FE_CALLEE_OP: return fe_lower_op_call(fx, c, &ce, dst, true);
    case FE_CALLEE_USER:
    case FE_CALLEE_POINTER: return fe_lower_user_call(fx, c, &ce, dst, IR_VAR_TENSOR);
    default: break;
    }
    fe_lower_effects(fx, c);
    fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, ir_strfmt(fx->u, "tensor handle from %s()", ce.name));
    return IR_UNKNOWN_TENSOR;
}

/* The value of c before it is copied into dst (when the lowering did not
 * already put it there). */
static int fe_tensor_value(fe_ctx *fx, CXCursor c, int dst)
{
    CXCursor kids[2];
    int n;
    bool postfix, handled;
    char buf[8];
    const char *text;
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr: return fe_tensor_ref(fx, c);
    case CXCursor_CallExpr: return fe_tensor_call(fx, c, dst);
    case CXCursor_ConditionalOperator: return fe_tensor_conditional(fx, c, dst);
    case CXCursor_GNUNullExpr: return IR_NULL_TENSOR;
    case CXCursor_CStyleCastExpr:
        n = fe_children(c, kids, 2);
        if (n >= 1 && n <= 2 && fe_type_is_tensor(clang_getCursorType(kids[n - 1])))
            return fe_lower_tensor(fx, kids[n - 1], dst);
        if (n >= 1 && n <= 2 && fe_type_is_pointer(clang_getCursorType(kids[n - 1]))) {
            const char *why; /* (tl_tensor *)obj, obj a void *: the handle stored there */
            ir_place *p = fe_lower_place(fx, kids[n - 1], &why);
            if (p)
                return fe_load_tensor(fx, p, fe_loc(fx, c));
        }
        break;
    case CXCursor_BinaryOperator:
        text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
        if (text && n == 2 && strcmp(text, ",") == 0) {
            fe_lower_effects(fx, kids[0]);
            return fe_lower_tensor(fx, kids[1], dst);
        }
        if (text && strcmp(text, "=") == 0) {
            ir_place *stored;
            int var = fe_lower_assign_at(fx, c, &handled, &stored);
            if (var >= 0)
                return var;
            if (stored && fe_type_is_tensor(clang_getCursorType(c)))
                return fe_load_tensor(fx, stored, fe_loc(fx, c)); /* a->m = a->v = NULL */
            if (handled) {
                fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "value of an assignment to memory");
                return IR_UNKNOWN_TENSOR;
            }
        }
        break;
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_UnaryOperator: {
        const char *why;
        ir_place *p = fe_lower_place(fx, c, &why);
        if (p)
            return fe_load_tensor(fx, p, fe_loc(fx, c));
        fe_lower_effects(fx, c);
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR,
                       ir_strfmt(fx->u, "tensor handle read from %s", why));
        return IR_UNKNOWN_TENSOR;
    }
    default: break;
    }
    if (fe_is_null_constant(c))
        return IR_NULL_TENSOR;
    fe_lower_effects(fx, c);
    fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "tensor expression the front end does not follow");
    return IR_UNKNOWN_TENSOR;
}

/* The tensor variable that c reads, through implicit conversions, or
 * IR_NO_VAR.  clang_getCursorReferenced looks through implicit casts to
 * the DeclRefExpr (a call gives its FunctionDecl, a member its FieldDecl),
 * so a VarDecl or ParmDecl answer is exactly a variable read: the most
 * common argument costs no walk over its cast. */
static int fe_tensor_var_read(fe_ctx *fx, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_DeclRefExpr)
        return IR_NO_VAR;
    CXCursor decl = clang_getCursorReferenced(c);
    k = clang_getCursorKind(decl);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return IR_NO_VAR;
    int var = fe_var_lookup(fx, decl);
    if (var == IR_NO_VAR) { /* first use: make a variable only for a handle (not for f in f()) */
        if (fe_type_kind(clang_getCursorType(decl)) != IR_VAR_TENSOR)
            return IR_NO_VAR;
        var = fe_var_of_decl(fx, decl);
    }
    return fx->u->vars[var].kind == IR_VAR_TENSOR ? var : IR_NO_VAR;
}

int fe_lower_tensor(fe_ctx *fx, CXCursor c, int dst)
{
    fx->tensor_code = true;
    int var = fe_tensor_var_read(fx, c);
    if (var == IR_NO_VAR) {
        c = fe_strip(c, false);
        var = fe_tensor_value(fx, c, dst);
    }
    if (dst == IR_NO_VAR || var == dst)
        return var;
    fe_assign_tensor(fx, fe_loc(fx, c), dst, var);
    return dst;
}

/* ---- assignments ---- */

/* lhs = rhs where lhs is not a plain variable: a store into the place. */
/* lhs = rhs with lhs in memory; the place stored to (the value of the
 * assignment is read back from it), or NULL. */
static ir_place *fe_store_to_memory(fe_ctx *fx, CXCursor assign, CXCursor lhs, CXCursor rhs)
{
    const char *why;
    if (fe_ints_store(fx, lhs, rhs))
        return NULL;
    CXType t = clang_getCursorType(lhs);
    ir_place *p = fe_lower_place(fx, lhs, &why);
    if (p) {
        fe_assign_place(fx, fe_loc(fx, assign), p, t, rhs);
        return p;
    }
    fe_lower_effects(fx, lhs);
    if (!fe_type_is_tensor(t)) {
        fe_lower_effects(fx, rhs);
        return NULL;
    }
    int var = fe_lower_tensor(fx, rhs, IR_NO_VAR);
    if (var >= 0)
        fe_unsupported(fx, fe_loc(fx, assign), var,
                       ir_strfmt(fx->u, "tensor handle stored in %s", why));
    return NULL;
}

/* The variable that lhs names, or IR_NO_VAR. */
static int fe_lhs_var(fe_ctx *fx, CXCursor lhs)
{
    CXCursor l = fe_strip(lhs, false);
    if (clang_getCursorKind(l) != CXCursor_DeclRefExpr)
        return IR_NO_VAR;
    CXCursor decl = clang_getCursorReferenced(l);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return IR_NO_VAR;
    return fe_var_of_decl(fx, decl);
}

static void fe_assign_int(fe_ctx *fx, ir_loc loc, int var, ir_expr *value)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_ASSIGN_INT, loc);
    s->assign_int.var = var;
    s->assign_int.value = value;
    fe_push(fx, s);
}

/* lhs = rhs: the variable assigned, or IR_NO_VAR with *updated the place
 * stored to when lhs is in memory or an object variable. */
static int fe_assign_simple(fe_ctx *fx, CXCursor c, CXCursor lhs, CXCursor rhs,
                            ir_place **updated)
{
    int var = fe_lhs_var(fx, lhs);
    if (var == IR_NO_VAR) {
        *updated = fe_store_to_memory(fx, c, lhs, rhs);
        return IR_NO_VAR;
    }
    switch (fx->u->vars[var].kind) {
    case IR_VAR_TENSOR: fe_lower_tensor(fx, rhs, var); return var;
    case IR_VAR_INT: fe_assign_int(fx, fe_loc(fx, c), var, fe_lower_int(fx, rhs)); return var;
    case IR_VAR_OTHER:
        if (fe_type_is_ints(clang_getCursorType(lhs))) {
            fe_ints_set(fx, var, rhs);
            return IR_NO_VAR;
        }
        if (fe_type_is_object(clang_getCursorType(lhs))) {
            *updated = fe_place_of_var(fx, var);
            fe_assign_place(fx, fe_loc(fx, c), *updated, clang_getCursorType(lhs), rhs);
            return IR_NO_VAR;
        }
        break;
    }
    fe_lower_effects(fx, rhs);
    return IR_NO_VAR;
}

/* p op= rhs and ++/-- on an integer place or a pointer: true when handled;
 * *updated: the integer place stored to (NULL for a pointer). */
static bool fe_update_place(fe_ctx *fx, CXCursor c, CXCursor lhs, ir_op op, CXCursor *rhs,
                            ir_place **updated)
{
    const char *why;
    CXType t = clang_getCursorType(lhs);
    bool is_int = fe_type_kind(t) == IR_VAR_INT, is_ptr = fe_type_is_pointer(t);
    if (fe_type_is_ints(clang_getCursorType(fe_strip(lhs, false))) || (!is_int && !is_ptr))
        return false;
    if (is_ptr && op != IR_OP_ADD && op != IR_OP_SUB)
        return false;
    ir_place *p = fe_lower_place(fx, lhs, &why);
    if (!p)
        return false;
    ir_loc loc = fe_loc(fx, c);
    ir_expr *b = rhs ? fe_lower_int(fx, *rhs) : ir_expr_const(fx->u, loc, 1);
    if (rhs && fe_type_is_float(clang_getCursorType(*rhs)))
        b = ir_expr_unknown(fx->u, loc, "float expression");
    if (is_int) {
        fe_store_int(fx, loc, p, fe_fold(fx, ir_expr_binary(fx->u, loc, op, ir_expr_place(fx->u, loc, p), b)));
        *updated = p;
        return true;
    }
    ir_ptr *q = ir_alloc(fx->u, sizeof *q);
    q->kind = IR_PTR_LOAD;
    q->place = p;
    q->offset = op == IR_OP_SUB ? fe_fold(fx, ir_expr_unary(fx->u, loc, IR_OP_NEG, b)) : b;
    fe_store_ptr(fx, loc, p, q);
    return true;
}

/* x op= rhs and ++/-- on an integer variable; anything else: effects. */
static int fe_assign_update(fe_ctx *fx, CXCursor c, CXCursor lhs, ir_op op, CXCursor *rhs,
                            ir_place **updated)
{
    int var = fe_lhs_var(fx, lhs);
    if ((var == IR_NO_VAR || fx->u->vars[var].kind == IR_VAR_OTHER) &&
        fe_update_place(fx, c, lhs, op, rhs, updated))
        return IR_NO_VAR;
    if (var == IR_NO_VAR || fx->u->vars[var].kind != IR_VAR_INT) {
        fe_ints_touched(fx, lhs);
        fe_lower_effects(fx, lhs);
        if (rhs)
            fe_lower_effects(fx, *rhs);
        return var != IR_NO_VAR && fx->u->vars[var].kind == IR_VAR_INT ? var : IR_NO_VAR;
    }
    ir_loc loc = fe_loc(fx, c);
    ir_expr *b = rhs ? fe_lower_int(fx, *rhs) : ir_expr_const(fx->u, loc, 1);
    if (rhs && fe_type_is_float(clang_getCursorType(*rhs)))
        b = ir_expr_unknown(fx->u, loc, "float expression");
    ir_expr *value = fe_fold(fx, ir_expr_binary(fx->u, loc, op, ir_expr_var(fx->u, loc, var), b));
    fe_assign_int(fx, loc, var, value);
    return var;
}

/* An operator whose kind could not be read (inside a macro, where clang's
 * nodes cannot be read): it may assign its first operand, so a variable
 * there becomes unknown, with a note; never dropped in silence. */
static int fe_operator_unread(fe_ctx *fx, CXCursor c, const CXCursor *kids, int n, bool *handled)
{
    ir_loc loc = fe_loc(fx, c);
    const char *why = "an operator inside a macro (its kind could not be read)";
    int var = n >= 1 ? fe_lhs_var(fx, kids[0]) : IR_NO_VAR;
    for (int i = 0; i < n; i++)
        fe_lower_effects(fx, kids[i]);
    *handled = true;
    if (var != IR_NO_VAR && fx->u->vars[var].kind == IR_VAR_INT) {
        fe_assign_int(fx, loc, var, ir_expr_unknown(fx->u, loc, why));
        fe_unsupported(fx, loc, IR_NO_VAR, why);
        return var;
    }
    fe_unsupported(fx, loc, var, why);
    return IR_NO_VAR;
}

int fe_lower_assign(fe_ctx *fx, CXCursor c, bool *handled)
{
    ir_place *updated;
    return fe_lower_assign_at(fx, c, handled, &updated);
}

int fe_lower_assign_at(fe_ctx *fx, CXCursor c, bool *handled, ir_place **updated)
{
    CXCursor kids[2];
    int n;
    bool postfix;
    char buf[8];
    const char *text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
    *handled = false;
    *updated = NULL;
    if (!text)
        return fe_operator_unread(fx, c, kids, n, handled);
    size_t len = strlen(text);
    if (n == 1 && (strcmp(text, "++") == 0 || strcmp(text, "--") == 0)) {
        *handled = true;
        return fe_assign_update(fx, c, kids[0], text[0] == '+' ? IR_OP_ADD : IR_OP_SUB, NULL,
                                updated);
    }
    if (n != 2 || text[len - 1] != '=')
        return IR_NO_VAR;
    if (len == 1) {
        *handled = true;
        return fe_assign_simple(fx, c, kids[0], kids[1], updated);
    }
    char opbuf[8];
    memcpy(opbuf, text, len - 1);
    opbuf[len - 1] = '\0';
    ir_op op = fe_binop_of(opbuf);
    if (op == IR_N_OPS || op == IR_OP_LT || op == IR_OP_GT || strcmp(text, "==") == 0 ||
        strcmp(text, "!=") == 0)
        return IR_NO_VAR;
    *handled = true;
    return fe_assign_update(fx, c, kids[0], op, &kids[1], updated);
}

/* ---- side effects ---- */

static void fe_effects_call(fe_ctx *fx, CXCursor c)
{
    fe_callee ce = fe_callee_of(fx, c);
    ir_stmt *s;
    switch (ce.kind) {
    case FE_CALLEE_OP: fe_lower_op_call(fx, c, &ce, IR_NO_VAR, false); return;
    case FE_CALLEE_QUERY:
        s = ir_stmt_new(fx->u, IR_EVAL, fe_loc(fx, c));
        s->eval.expr = fe_lower_query(fx, c, &ce);
        fe_push(fx, s);
        return;
    case FE_CALLEE_USER:
    case FE_CALLEE_POINTER:
        fe_lower_user_call(fx, c, &ce, IR_NO_VAR, IR_VAR_OTHER);
        if (ce.noreturn) { /* exit(1), abort(): the program ends here */
            s = ir_stmt_new(fx->u, IR_EXIT, fe_loc(fx, c));
            s->text = fe_source_text(fx, c);
            fe_push(fx, s);
        }
        return;
    case FE_CALLEE_API_OTHER: break;
    }
    int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; i++)
        fe_lower_effects(fx, clang_Cursor_getArgument(c, (unsigned)i));
}

/* a && b, a || b: b's effects happen only when a does not decide. */
static void fe_effects_logical(fe_ctx *fx, CXCursor c, CXCursor a, CXCursor b, bool is_and)
{
    ir_loc loc = fe_loc(fx, c);
    ir_expr *cond = fe_lower_int(fx, a);
    ir_block *then_blk = fe_lower_into(fx, ir_block_new(fx->u), b, IR_NO_VAR, fe_effects_into);
    if (!then_blk->n_stmts)
        return;
    ir_stmt *s = ir_stmt_new(fx->u, IR_IF, loc);
    s->branch.cond = is_and ? cond : ir_expr_unary(fx->u, loc, IR_OP_NOT, cond);
    s->branch.then_blk = then_blk;
    const char *text = fe_source_text(fx, a);
    s->text = !text || is_and ? text : ir_strfmt(fx->u, "!(%s)", text);
    fe_push(fx, s);
}

static void fe_effects_operator(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[2];
    int n;
    bool postfix, handled;
    char buf[8];
    const char *text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
    if (text && n == 2 && (strcmp(text, "&&") == 0 || strcmp(text, "||") == 0)) {
        fe_effects_logical(fx, c, kids[0], kids[1], text[0] == '&');
        return;
    }
    if (text)
        fe_lower_assign(fx, c, &handled);
    else
        handled = false;
    if (handled)
        return;
    for (int i = 0; i < n && i < 2; i++)
        fe_lower_effects(fx, kids[i]);
}

static void fe_effects_conditional(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[3];
    if (fe_children(c, kids, 3) != 3)
        return;
    ir_stmt *s = ir_stmt_new(fx->u, IR_IF, fe_loc(fx, c));
    s->branch.cond = fe_lower_int(fx, kids[0]);
    s->text = fe_source_text(fx, kids[0]);
    s->branch.then_blk = fe_lower_into(fx, ir_block_new(fx->u), kids[1], IR_NO_VAR, fe_effects_into);
    s->branch.else_blk = fe_lower_into(fx, ir_block_new(fx->u), kids[2], IR_NO_VAR, fe_effects_into);
    if (s->branch.then_blk->n_stmts || s->branch.else_blk->n_stmts)
        fe_push(fx, s);
}

static enum CXChildVisitResult fe_effects_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_isExpression(clang_getCursorKind(c)))
        fe_lower_effects(data, c);
    return CXChildVisit_Continue;
}

void fe_lower_effects(fe_ctx *fx, CXCursor c)
{
    c = fe_strip(c, false);
    switch (clang_getCursorKind(c)) {
    case CXCursor_CallExpr: fe_effects_call(fx, c); return;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_UnaryOperator: fe_effects_operator(fx, c); return;
    case CXCursor_ConditionalOperator: fe_effects_conditional(fx, c); return;
    case CXCursor_DeclRefExpr:
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_StringLiteral:
    case CXCursor_GNUNullExpr:
    case CXCursor_UnaryExpr: return;
    case CXCursor_StmtExpr:
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "statement expression");
        return;
    default: break;
    }
    clang_visitChildren(c, fe_effects_visit, fx);
}
