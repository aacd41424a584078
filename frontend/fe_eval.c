/*
 * fe_eval.c: integer values of C expressions (shapes, dims, bounds).
 *
 * Approach: ask clang's constant folder first (clang_Cursor_Evaluate folds
 * enums, sizeof, macros, casts and const-qualified locals); when it cannot,
 * build a tree over integer variables and constants, folding as it goes,
 * and leave an UNKNOWN leaf with a short reason for anything else (a call
 * of an unknown function, a non-const global, a float).  Side effects met
 * on the way (assignments, API calls, user calls) are hoisted into the
 * current block by the lowering functions this file calls.
 *
 * An operator's kind is clang's (fe_opcode.c), so an expression written
 * in a macro is lowered as the same expression written out.  Where that
 * reader is unavailable (another clang's layout) the operator is read from
 * the main file's bytes between the operands' extents; an operand that is
 * a macro's token makes those bytes meaningless, and the value is UNKNOWN
 * ("operator inside a macro").
 */
#include "fe_internal.h"

#include <string.h>

bool fe_eval_int(CXCursor c, int64_t *out)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *out = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                                 : (int64_t)clang_EvalResult_getAsLongLong(r);
    clang_EvalResult_dispose(r);
    return ok;
}

bool fe_eval_double(CXCursor c, double *out)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return false;
    bool ok = true;
    switch (clang_EvalResult_getKind(r)) {
    case CXEval_Float: *out = clang_EvalResult_getAsDouble(r); break;
    case CXEval_Int:
        *out = clang_EvalResult_isUnsignedInt(r) ? (double)clang_EvalResult_getAsUnsigned(r)
                                                 : (double)clang_EvalResult_getAsLongLong(r);
        break;
    default: ok = false; break;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

/* ---- operator spellings ---- */

/* Skip blanks and comments from p; returns the first other byte. */
static const char *fe_skip_blank(const char *p, const char *end)
{
    while (p < end) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') {
            p++;
        } else if (*p == '\\' && p + 1 < end && p[1] == '\n') {
            p += 2;
        } else if (*p == '/' && p + 1 < end && p[1] == '*') {
            const char *q = strstr(p + 2, "*/");
            p = q && q < end ? q + 2 : end;
        } else if (*p == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else {
            break;
        }
    }
    return p;
}

const char *fe_op_between(fe_ctx *fx, long from, long to, char *buf, size_t size)
{
    if (from < 0 || to < from || (size_t)to > fx->src_len)
        return NULL;
    const char *p = fe_skip_blank(fx->src + from, fx->src + to);
    size_t n = 0;
    while (p < fx->src + to && *p && strchr("+-*/%<>=!&|^~,", *p) && n + 1 < size)
        buf[n++] = *p++;
    buf[n] = '\0';
    if (!n || fe_skip_blank(p, fx->src + to) != fx->src + to)
        return NULL;
    return buf;
}

static const struct {
    const char *text;
    ir_op op;
} fe_binops[] = {
    {"+", IR_OP_ADD}, {"-", IR_OP_SUB},   {"*", IR_OP_MUL},   {"/", IR_OP_DIV},
    {"%", IR_OP_REM}, {"<<", IR_OP_SHL},  {">>", IR_OP_SHR},  {"<", IR_OP_LT},
    {"<=", IR_OP_LE}, {">", IR_OP_GT},    {">=", IR_OP_GE},   {"==", IR_OP_EQ},
    {"!=", IR_OP_NE}, {"&&", IR_OP_LAND}, {"||", IR_OP_LOR},  {"&", IR_OP_AND},
    {"|", IR_OP_OR},  {"^", IR_OP_XOR},
};

/* The binary operator spelled text, or IR_N_OPS. */
ir_op fe_binop_of(const char *text)
{
    for (size_t i = 0; i < sizeof fe_binops / sizeof fe_binops[0]; i++)
        if (strcmp(fe_binops[i].text, text) == 0)
            return fe_binops[i].op;
    return IR_N_OPS;
}

/* Does l stand for a token of a macro argument (written in the file at
 * one place, expanded at another)? */
static bool fe_loc_in_macro_arg(CXSourceLocation l)
{
    unsigned at, expanded;
    clang_getFileLocation(l, NULL, NULL, NULL, &at);
    clang_getExpansionLocation(l, NULL, NULL, NULL, &expanded);
    return at != expanded;
}

/* Any end of c or of its operands a macro argument's token?  Then the
 * bytes between them in the file are not what clang parsed. */
static bool fe_operands_in_macro(CXCursor c, const CXCursor *kids, int n)
{
    CXSourceRange r = clang_getCursorExtent(c);
    if (fe_loc_in_macro_arg(clang_getRangeStart(r)) || fe_loc_in_macro_arg(clang_getRangeEnd(r)))
        return true;
    for (int i = 0; i < n; i++) {
        r = clang_getCursorExtent(kids[i]);
        if (fe_loc_in_macro_arg(clang_getRangeStart(r)) || fe_loc_in_macro_arg(clang_getRangeEnd(r)))
            return true;
    }
    return false;
}

/* The operator read from the file's bytes (where fe_ast_operator cannot
 * answer): between the operands, or before or after the one operand. */
static const char *fe_operator_text(fe_ctx *fx, CXCursor c, const CXCursor *kids, int n,
                                    bool *postfix, char *buf, size_t size)
{
    if (fe_operands_in_macro(c, kids, n))
        return NULL;
    CXSourceRange first = clang_getCursorExtent(kids[0]);
    if (n == 2)
        return fe_op_between(fx, fe_offset(fx, clang_getRangeEnd(first)),
                             fe_offset(fx, clang_getRangeStart(clang_getCursorExtent(kids[1]))), buf,
                             size);
    CXSourceRange outer = clang_getCursorExtent(c);
    long os = fe_offset(fx, clang_getRangeStart(outer));
    long is = fe_offset(fx, clang_getRangeStart(first));
    *postfix = os >= 0 && os == is;
    if (*postfix)
        return fe_op_between(fx, fe_offset(fx, clang_getRangeEnd(first)),
                             fe_offset(fx, clang_getRangeEnd(outer)), buf, size);
    return fe_op_between(fx, os, is, buf, size);
}

const char *fe_operator(fe_ctx *fx, CXCursor c, CXCursor *kids, int *n, bool *postfix,
                        char *buf, size_t size)
{
    *n = fe_children(c, kids, 2);
    *postfix = false;
    if (*n < 1 || *n > 2)
        return NULL;
    const char *ast = fe_ast_operator(c, postfix);
    if (ast && strlen(ast) < size) {
        strcpy(buf, ast);
        return buf;
    }
    return fe_operator_text(fx, c, kids, *n, postfix, buf, size);
}

/* ---- folding ---- */

ir_expr *fe_fold(fe_ctx *fx, ir_expr *e)
{
    int64_t v;
    switch (e->kind) {
    case IR_EXPR_UNARY:
    case IR_EXPR_BINARY:
        if (e->a->kind == IR_EXPR_CONST && (!e->b || e->b->kind == IR_EXPR_CONST) &&
            ir_expr_eval(e, NULL, &v))
            return ir_expr_const(fx->u, e->loc, v);
        return e;
    case IR_EXPR_COND:
        if (e->a->kind == IR_EXPR_CONST)
            return e->a->value ? e->b : e->c;
        return e;
    default: return e;
    }
}

/* ---- building the tree ---- */

static ir_expr *fe_int_tree(fe_ctx *fx, CXCursor c);
static ir_expr *fe_place_read(fe_ctx *fx, CXCursor c, const char *what);

static ir_expr *fe_unknown(fe_ctx *fx, CXCursor c, const char *reason)
{
    return ir_expr_unknown(fx->u, fe_loc(fx, c), reason);
}

/* Side effects of c hoisted, then an UNKNOWN. */
static ir_expr *fe_unknown_effects(fe_ctx *fx, CXCursor c, const char *reason)
{
    fe_lower_effects(fx, c);
    return fe_unknown(fx, c, reason);
}

/* A handle used as an integer (a condition): 1 when not null. */
static ir_expr *fe_handle_truth(fe_ctx *fx, CXCursor c)
{
    ir_loc loc = fe_loc(fx, c);
    int var = fe_lower_tensor(fx, c, IR_NO_VAR);
    return ir_expr_unary(fx->u, loc, IR_OP_NOT, ir_expr_tensor_null(fx->u, loc, var));
}

/* A read of the variable declared by decl. */
static ir_expr *fe_var_read(fe_ctx *fx, CXCursor ref, CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_EnumConstantDecl)
        return ir_expr_const(fx->u, fe_loc(fx, ref), clang_getEnumConstantDeclValue(decl));
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return fe_unknown(fx, ref, ir_strfmt(fx->u, "value of %s", fe_spelling(fx, decl)));
    int var = fe_var_of_decl(fx, decl);
    const ir_var *v = &fx->u->vars[var];
    if (v->kind == IR_VAR_TENSOR)
        return fe_handle_truth(fx, ref);
    if (v->kind == IR_VAR_OTHER)
        return fe_unknown(fx, ref,
                          fe_type_is_float(clang_getCursorType(decl))
                              ? "float expression"
                              : ir_strfmt(fx->u, "value of %s", v->name));
    return ir_expr_var(fx->u, fe_loc(fx, ref), var);
}

/* A conversion (implicit or written): look through it unless it starts
 * from a float or a pointer. */
static ir_expr *fe_conversion(fe_ctx *fx, CXCursor inner)
{
    CXType t = clang_getCursorType(inner);
    if (fe_type_is_float(t))
        return fe_unknown_effects(fx, inner, "float expression");
    if (fe_type_is_tensor(t))
        return fe_handle_truth(fx, inner);
    if (fe_type_is_pointer(t)) { /* p as a condition: p != NULL */
        ir_ptr *null = ir_alloc(fx->u, sizeof *null);
        null->kind = IR_PTR_NULL;
        return ir_expr_ptr_cmp(fx->u, fe_loc(fx, inner), IR_OP_NE, fe_lower_ptr(fx, inner), null);
    }
    if (fe_type_kind(t) != IR_VAR_INT && clang_getCanonicalType(t).kind != CXType_Invalid)
        return fe_unknown_effects(fx, inner, "pointer value");
    /* the conversion did not fold, so neither does its operand */
    return fe_int_tree(fx, inner);
}

/* a == b or a != b where one side is a handle. */
static ir_expr *fe_handle_compare(fe_ctx *fx, CXCursor c, CXCursor a, CXCursor b, ir_op op)
{
    ir_loc loc = fe_loc(fx, c);
    if (fe_is_null_constant(a) || fe_is_null_constant(b)) {
        int var = fe_lower_tensor(fx, fe_is_null_constant(a) ? b : a, IR_NO_VAR);
        ir_expr *isnull = ir_expr_tensor_null(fx->u, loc, var);
        return op == IR_OP_EQ ? isnull : ir_expr_unary(fx->u, loc, IR_OP_NOT, isnull);
    }
    /* two handles: the interpreter knows whether they are one */
    int va = fe_lower_tensor(fx, a, IR_NO_VAR), vb = fe_lower_tensor(fx, b, IR_NO_VAR);
    if (va == IR_NO_VAR || vb == IR_NO_VAR)
        return ir_expr_unknown(fx->u, loc, "comparison of handles");
    ir_expr *same = ir_expr_same_handle(fx->u, loc, va, vb);
    return op == IR_OP_EQ ? same : ir_expr_unary(fx->u, loc, IR_OP_NOT, same);
}

static ir_expr *fe_binary(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[2];
    int n;
    bool postfix;
    char buf[8];
    const char *text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
    if (!text || n != 2)
        return fe_unknown_effects(fx, c, text ? "malformed expression" : "operator inside a macro");
    if (strcmp(text, ",") == 0) {
        fe_lower_effects(fx, kids[0]);
        return fe_lower_int(fx, kids[1]);
    }
    ir_op op = fe_binop_of(text);
    if (op == IR_N_OPS) {
        bool handled = false;
        ir_place *stored;
        int var = fe_lower_assign_at(fx, c, &handled, &stored);
        if (var >= 0 && fx->u->vars[var].kind == IR_VAR_INT)
            return ir_expr_var(fx->u, fe_loc(fx, c), var);
        if (var < 0 && stored && fe_type_kind(clang_getCursorType(c)) == IR_VAR_INT)
            return ir_expr_place(fx->u, fe_loc(fx, c), stored); /* s->a = s->b = n */
        return handled ? fe_unknown(fx, c, "value of an assignment")
                       : fe_unknown_effects(fx, c, "value of an assignment");
    }
    bool ta = fe_type_is_tensor(clang_getCursorType(kids[0]));
    bool tb = fe_type_is_tensor(clang_getCursorType(kids[1]));
    if ((ta || tb) && (op == IR_OP_EQ || op == IR_OP_NE))
        return fe_handle_compare(fx, c, kids[0], kids[1], op);
    bool pa = fe_type_is_pointer(clang_getCursorType(kids[0])) || fe_expr_is_array(kids[0]);
    bool pb = fe_type_is_pointer(clang_getCursorType(kids[1])) || fe_expr_is_array(kids[1]);
    if ((pa || pb) && op >= IR_OP_LT && op <= IR_OP_NE)
        return ir_expr_ptr_cmp(fx->u, fe_loc(fx, c), op, fe_lower_ptr(fx, kids[0]),
                               fe_lower_ptr(fx, kids[1]));
    if (fe_type_is_float(clang_getCursorType(kids[0])) ||
        fe_type_is_float(clang_getCursorType(kids[1])))
        return fe_unknown_effects(fx, c, "float expression");
    ir_expr *a = fe_lower_int(fx, kids[0]);
    ir_expr *b = fe_lower_int(fx, kids[1]);
    return fe_fold(fx, ir_expr_binary(fx->u, fe_loc(fx, c), op, a, b));
}

/* ++x, x++, --x, x-- as values (x a variable or a place: a->n++): the
 * assignment is hoisted, the value read back after it. */
static ir_expr *fe_incdec_value(fe_ctx *fx, CXCursor c, bool postfix, bool inc)
{
    bool handled = false;
    ir_place *updated;
    int var = fe_lower_assign_at(fx, c, &handled, &updated);
    ir_loc loc = fe_loc(fx, c);
    if (var < 0 && updated) {
        ir_expr *now = ir_expr_place(fx->u, loc, updated);
        if (!postfix)
            return now;
        return ir_expr_binary(fx->u, loc, inc ? IR_OP_SUB : IR_OP_ADD, now,
                              ir_expr_const(fx->u, loc, 1));
    }
    if (var < 0 || fx->u->vars[var].kind != IR_VAR_INT)
        return handled ? fe_unknown(fx, c, "value of an increment")
                       : fe_unknown_effects(fx, c, "value of an increment");
    ir_expr *now = ir_expr_var(fx->u, loc, var);
    if (!postfix)
        return now;
    ir_expr *old = ir_expr_binary(fx->u, loc, inc ? IR_OP_SUB : IR_OP_ADD, now,
                                  ir_expr_const(fx->u, loc, 1));
    unsigned bits = fx->u->vars[var].wrap_bits;
    if (bits == 0 || bits >= 64)
        return old;
    /* an unsigned variable wrapped by the update (0-- is UINT_MAX): its old
     * value is the new one stepped back modulo 2^bits, so that `i-- > 0`
     * reads 0 and not 2^32 when i was 0 */
    return ir_expr_binary(fx->u, loc, IR_OP_AND, old,
                          ir_expr_const(fx->u, loc, (int64_t)((UINT64_C(1) << bits) - 1)));
}

static ir_expr *fe_unary(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[2];
    int n;
    bool postfix;
    char buf[8];
    const char *text = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf);
    if (!text || n != 1)
        return fe_unknown_effects(fx, c, text ? "malformed expression" : "operator inside a macro");
    CXCursor kid = kids[0];
    if (strcmp(text, "++") == 0 || strcmp(text, "--") == 0)
        return fe_incdec_value(fx, c, postfix, text[0] == '+');
    if (strcmp(text, "!") == 0 && fe_type_is_tensor(clang_getCursorType(kid))) {
        int var = fe_lower_tensor(fx, kid, IR_NO_VAR);
        return ir_expr_tensor_null(fx->u, fe_loc(fx, c), var);
    }
    if (strcmp(text, "+") == 0)
        return fe_lower_int(fx, kid);
    ir_op op = strcmp(text, "-") == 0   ? IR_OP_NEG
               : strcmp(text, "!") == 0 ? IR_OP_NOT
               : strcmp(text, "~") == 0 ? IR_OP_BITNOT
                                        : IR_N_OPS;
    if (op == IR_N_OPS && text[0] == '*')
        return fe_place_read(fx, c, "pointer dereference");
    if (op == IR_N_OPS)
        return fe_unknown_effects(fx, c, "address");
    if (fe_type_is_float(clang_getCursorType(kid)))
        return fe_unknown_effects(fx, c, "float expression");
    return fe_fold(fx, ir_expr_unary(fx->u, fe_loc(fx, c), op, fe_lower_int(fx, kid)));
}

static ir_expr *fe_conditional(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[3];
    if (fe_children(c, kids, 3) != 3)
        return fe_unknown_effects(fx, c, "malformed expression");
    ir_expr *a = fe_lower_int(fx, kids[0]);
    ir_expr *b = fe_lower_int(fx, kids[1]);
    ir_expr *e = fe_lower_int(fx, kids[2]);
    return fe_fold(fx, ir_expr_cond(fx->u, fe_loc(fx, c), a, b, e));
}

/* The C library's abs, labs, llabs of an integer: max(x, -x), a formula in x
 * (a function of the same value is the same value wherever it is taken, and
 * of a size, the size itself); NULL for any other call.  Their names are
 * reserved to the library (C11 7.1.3), so no program's own function is
 * taken for them. */
static ir_expr *fe_abs_value(fe_ctx *fx, CXCursor c, const fe_callee *ce)
{
    if (ce->kind != FE_CALLEE_USER || !ce->name ||
        (strcmp(ce->name, "abs") != 0 && strcmp(ce->name, "labs") != 0 &&
         strcmp(ce->name, "llabs") != 0) ||
        clang_Cursor_getNumArguments(c) != 1)
        return NULL;
    CXCursor arg = clang_Cursor_getArgument(c, 0);
    if (fe_type_is_float(clang_getCursorType(arg)))
        return NULL;
    ir_loc loc = fe_loc(fx, c);
    ir_expr *x = fe_lower_int(fx, arg); /* lowered once: its effects happen once */
    ir_expr *neg = ir_expr_unary(fx->u, loc, IR_OP_NEG, x);
    return fe_fold(fx, ir_expr_cond(fx->u, loc, ir_expr_binary(fx->u, loc, IR_OP_LT, x, neg),
                                    neg, x));
}

static ir_expr *fe_call_value(fe_ctx *fx, CXCursor c)
{
    fe_callee ce = fe_callee_of(fx, c);
    ir_expr *abs_x = fe_abs_value(fx, c, &ce);
    if (abs_x)
        return abs_x;
    switch (ce.kind) {
    case FE_CALLEE_QUERY: return fe_lower_query(fx, c, &ce);
    case FE_CALLEE_OP:
        if (fe_type_is_tensor(clang_getCursorType(c)))
            return fe_handle_truth(fx, c);
        fe_lower_op_call(fx, c, &ce, IR_NO_VAR, false);
        return fe_unknown(fx, c, ir_strfmt(fx->u, "value of tl_%s()", mt_ops[ce.op].name));
    case FE_CALLEE_USER:
    case FE_CALLEE_POINTER: {
        int var = fe_lower_user_call(fx, c, &ce, IR_NO_VAR, IR_VAR_INT);
        if (var >= 0)
            return ir_expr_var(fx->u, fe_loc(fx, c), var);
        return fe_unknown(fx, c, ce.kind == FE_CALLEE_POINTER ? "call through a function pointer"
                                                               : ir_strfmt(fx->u, "call of %s()", ce.name));
    }
    case FE_CALLEE_API_OTHER: break;
    }
    return fe_unknown_effects(fx, c, ir_strfmt(fx->u, "call of %s()", ce.name));
}

/* The integer held in the place c names. */
static ir_expr *fe_place_read(fe_ctx *fx, CXCursor c, const char *what)
{
    const char *why;
    if (fe_type_kind(clang_getCursorType(c)) != IR_VAR_INT)
        return fe_unknown_effects(fx, c, what);
    ir_place *p = fe_lower_place(fx, c, &why);
    if (!p)
        return fe_unknown_effects(fx, c, why ? why : what);
    return ir_expr_place(fx->u, fe_loc(fx, c), p);
}

/* The tree for an expression clang could not fold. */
static ir_expr *fe_int_tree(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[2];
    ir_expr *e;
    int n;
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
        if (fe_children(c, kids, 2) != 1)
            return fe_unknown_effects(fx, c, "expression");
        return fe_conversion(fx, kids[0]);
    case CXCursor_CStyleCastExpr:
        n = fe_children(c, kids, 2);
        if (n < 1 || n > 2)
            return fe_unknown_effects(fx, c, "cast");
        return fe_conversion(fx, kids[n - 1]);
    case CXCursor_DeclRefExpr: return fe_var_read(fx, c, clang_getCursorReferenced(c));
    case CXCursor_FloatingLiteral: return fe_unknown(fx, c, "float expression");
    case CXCursor_BinaryOperator: return fe_binary(fx, c);
    case CXCursor_CompoundAssignOperator: return fe_binary(fx, c);
    case CXCursor_UnaryOperator: return fe_unary(fx, c);
    case CXCursor_ConditionalOperator: return fe_conditional(fx, c);
    case CXCursor_CallExpr: return fe_call_value(fx, c);
    case CXCursor_UnaryExpr: return fe_unknown_effects(fx, c, "sizeof of a variable-length array");
    case CXCursor_ArraySubscriptExpr:
        if ((e = fe_ints_read(fx, c)))
            return e;
        return fe_place_read(fx, c, "array element");
    case CXCursor_MemberRefExpr:
        if ((e = fe_ints_read(fx, c)))
            return e;
        return fe_place_read(fx, c, ir_strfmt(fx->u, "struct field %s", fe_spelling(fx, c)));
    default: break;
    }
    CXString k = clang_getCursorKindSpelling(clang_getCursorKind(c));
    const char *reason = ir_strfmt(fx->u, "%s", clang_getCString(k));
    clang_disposeString(k);
    return fe_unknown_effects(fx, c, reason);
}

/* Can clang's folder give c a value?  False only where it surely cannot:
 * a read of a variable that is not const-qualified. */
static bool fe_may_fold(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return true;
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(d);
    return (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) ||
           clang_isConstQualifiedType(clang_getCursorType(d));
}

ir_expr *fe_lower_int(fe_ctx *fx, CXCursor c)
{
    int64_t v;
    if (fe_may_fold(c) && fe_eval_int(c, &v))
        return ir_expr_const(fx->u, fe_loc(fx, c), v);
    return fe_int_tree(fx, c);
}
