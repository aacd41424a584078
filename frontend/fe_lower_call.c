/*
 * fe_lower_call.c: calls.  Which function a call reaches, and the IR for
 * API ops (arguments classified by the op's signature in ops.def), API
 * queries, and calls of user functions.
 *
 * A call is an API call when its callee is declared in the tensorlint
 * header (the expansion location of the FunctionDecl is a file ending in
 * tensorlint/tensor.h), never by name alone: an implicitly declared
 * tl_foo() is a user call.  tl_X_at(file, line, ...) from the call-site
 * macros and the plain (tl_X)(...) both reach op X; the first two
 * arguments of the _at form are skipped.
 *
 * Arguments are lowered left to right, so nested calls become CALLs into
 * temporaries that precede the outer CALL in the block.
 */
#include "fe_internal.h"

#include <string.h>

static const struct {
    const char *name;
    ir_query query;
} fe_queries[] = {
    {"tl_ndim", IR_Q_NDIM},
    {"tl_size", IR_Q_SIZE},
    {"tl_stride", IR_Q_STRIDE},
    {"tl_numel", IR_Q_NUMEL},
    {"tl_nbytes", IR_Q_NBYTES},
    {"tl_storage_offset", IR_Q_STORAGE_OFFSET},
    {"tl_storage_nbytes", IR_Q_STORAGE_NBYTES},
    {"tl_is_contiguous", IR_Q_IS_CONTIGUOUS},
    {"tl_is_contiguous_format", IR_Q_IS_CONTIGUOUS_FORMAT},
    {"tl_dtype_of", IR_Q_DTYPE_OF},
    {"tl_device_of", IR_Q_DEVICE_OF},
    {"tl_shares_storage", IR_Q_SHARES_STORAGE},
    {"tl_print", IR_Q_PRINT},
    {"tl_element_size", IR_Q_ELEMENT_SIZE},
};
_Static_assert(sizeof fe_queries / sizeof fe_queries[0] == IR_N_QUERIES, "one entry per query");

bool fe_is_api_decl(fe_ctx *fx, CXCursor decl)
{
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(decl), &f, NULL, NULL, NULL);
    if (!f)
        return false;
    if (fx->api_file)
        return clang_File_isEqual(f, fx->api_file);
    CXString name = clang_getFileName(f);
    const char *s = clang_getCString(name);
    size_t n = s ? strlen(s) : 0, k = strlen("tensorlint/tensor.h");
    bool yes = n >= k && strcmp(s + n - k, "tensorlint/tensor.h") == 0 &&
               (n == k || s[n - k - 1] == '/' || s[n - k - 1] == '\\');
    clang_disposeString(name);
    if (yes)
        fx->api_file = f;
    return yes;
}

/* An attribute of a declaration: does it say the function does not return
 * (C11's _Noreturn, [[noreturn]])?  libclang exposes it only as tokens. */
static enum CXChildVisitResult fe_noreturn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (!clang_isAttribute(clang_getCursorKind(c)))
        return CXChildVisit_Continue;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    for (unsigned k = 0; k < n && !*(bool *)data; k++) {
        CXString t = clang_getTokenSpelling(tu, toks[k]);
        const char *w = clang_getCString(t);
        *(bool *)data = w && (strcmp(w, "_Noreturn") == 0 || strcmp(w, "noreturn") == 0 ||
                              strcmp(w, "__noreturn__") == 0);
        clang_disposeString(t);
    }
    if (toks)
        clang_disposeTokens(tu, toks, n);
    return *(bool *)data ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A function declared not to return: its type says so (GNU's
 * __attribute__((noreturn)), as the C library declares exit and abort) or
 * an attribute does (_Noreturn).  longjmp does not return either, but the
 * program goes on at its setjmp: it is not an end. */
static bool fe_decl_noreturn(CXCursor decl, const char *name)
{
    static const char *const jumps[] = {"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"};
    for (size_t k = 0; k < sizeof jumps / sizeof jumps[0]; k++)
        if (strcmp(name, jumps[k]) == 0)
            return false;
    CXString t = clang_getTypeSpelling(clang_getCursorType(decl));
    const char *ts = clang_getCString(t);
    bool yes = ts && strstr(ts, "noreturn") != NULL;
    clang_disposeString(t);
    if (!yes)
        clang_visitChildren(decl, fe_noreturn_visit, &yes);
    return yes;
}

bool fe_call_noreturn(CXCursor call)
{
    call = fe_strip(call, true);
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return false;
    CXCursor decl = clang_getCursorReferenced(call);
    if (clang_getCursorKind(decl) != CXCursor_FunctionDecl)
        return false;
    CXString name = clang_getCursorSpelling(decl);
    const char *n = clang_getCString(name);
    bool yes = fe_decl_noreturn(decl, n ? n : "");
    clang_disposeString(name);
    return yes;
}

/* What a function declaration is, worked out from scratch. */
static fe_callee fe_callee_of_decl(fe_ctx *fx, CXCursor decl)
{
    fe_callee ce = {.kind = FE_CALLEE_USER, .op = MT_N_OPS, .name = fe_spelling(fx, decl)};
    if (!fe_is_api_decl(fx, decl)) {
        ce.noreturn = fe_decl_noreturn(decl, ce.name);
        return ce;
    }
    ce.op = mt_op_lookup(ce.name);
    if (ce.op != MT_N_OPS) {
        ce.kind = FE_CALLEE_OP;
        ce.skip = strlen(ce.name) == strlen(mt_ops[ce.op].name) + 6 ? 2 : 0; /* "tl_" + "_at" */
        return ce;
    }
    ce.kind = FE_CALLEE_API_OTHER;
    for (int q = 0; q < IR_N_QUERIES; q++)
        if (strcmp(fe_queries[q].name, ce.name) == 0) {
            ce.kind = FE_CALLEE_QUERY;
            ce.query = fe_queries[q].query;
        }
    return ce;
}

fe_callee fe_callee_of(fe_ctx *fx, CXCursor call)
{
    /* the callee expression: a function's name (in parentheses too: (tl_add)(a,
     * b)) calls it; anything else (p->forward, ops[k], get_op(k)) is a call
     * through a pointer, whatever function libclang says the call refers to */
    CXCursor callee, decl = clang_getCursorReferenced(call);
    if (fe_children(call, &callee, 1) >= 1) {
        callee = fe_strip(callee, false);
        decl = clang_getCursorKind(callee) == CXCursor_DeclRefExpr
                   ? clang_getCursorReferenced(callee)
                   : clang_getNullCursor();
    }
    if (clang_getCursorKind(decl) != CXCursor_FunctionDecl) {
        fe_callee ce = {.kind = FE_CALLEE_POINTER, .op = MT_N_OPS};
        CXString s = clang_getCursorSpelling(call);
        const char *p = clang_getCString(s);
        ce.name = ir_strdup(fx->u, p && *p ? p : "(function pointer)");
        clang_disposeString(s);
        return ce;
    }
    /* keyed by the declaration the call refers to (the latest one seen), not
     * the canonical first one: a user's own prototype of tl_relu_at before
     * the header must not make the header's calls user calls */
    int id = fe_map_get(&fx->callee_ids, decl);
    if (id >= 0)
        return fx->callees[id];
    tl_xgrow(fx->callees, &fx->cap_callees, (size_t)fx->n_callees + 1, 32);
    id = fx->n_callees++;
    fx->callees[id] = fe_callee_of_decl(fx, decl);
    fe_map_put(&fx->callee_ids, decl, id);
    return fx->callees[id];
}

/* ---- API op arguments ---- */

CXCursor fe_literal_init(CXCursor arg)
{
    CXCursor c = fe_strip(arg, false), kids[2];
    if (clang_getCursorKind(c) != CXCursor_CompoundLiteralExpr)
        return clang_getNullCursor();
    int n = fe_children(c, kids, 2);
    if (n < 1 || n > 2 || clang_getCursorKind(kids[n - 1]) != CXCursor_InitListExpr)
        return clang_getNullCursor();
    return kids[n - 1];
}

/* Why a tl_ints / tl_list argument is not a literal (its effects hoisted). */
static const char *fe_not_literal(fe_ctx *fx, CXCursor arg, const char *what)
{
    CXCursor c = fe_strip(arg, true);
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
        return ir_strfmt(fx->u, "%s variable %s", what, fe_spelling(fx, c));
    fe_lower_effects(fx, arg);
    return ir_strfmt(fx->u, "%s expression", what);
}

int fe_literal_parts(fe_ctx *fx, CXCursor init, CXCursor *elems, int max, int *n_elems,
                            const char **reason)
{
    CXCursor parts[3];
    int n_parts = fe_children(init, parts, 3);
    int64_t n;
    *n_elems = 0;
    if (n_parts < 1 || n_parts > 2 || !fe_eval_int(parts[0], &n) || n < 0) {
        fe_lower_effects(fx, init);
        *reason = "count not constant";
        return -1;
    }
    if (n_parts == 2 && clang_getCursorKind(parts[1]) == CXCursor_InitListExpr)
        *n_elems = fe_children(parts[1], elems, max);
    if (n > max || *n_elems > max) {
        fe_lower_effects(fx, init);
        *reason = ir_strfmt(fx->u, "more than %d elements", max);
        return -1;
    }
    return (int)n;
}

/* A tl_ints held in memory (a struct field, a parameter, an array
 * element): its count and values are read when the call runs. */
static bool fe_ints_in_place(fe_ctx *fx, CXCursor arg, ir_arg *out)
{
    const char *why;
    CXType t = clang_getCanonicalType(clang_getCursorType(arg));
    ir_place *p = fe_lower_place(fx, arg, &why);
    if (!p)
        return false;
    out->n = IR_INTS_IN_PLACE;
    out->place = p;
    out->key_n = clang_Type_getOffsetOf(t, "n");
    out->key_v = clang_Type_getOffsetOf(t, "v");
    return out->key_n >= 0 && out->key_v >= 0;
}

static void fe_arg_ints(fe_ctx *fx, CXCursor arg, ir_arg *out)
{
    CXCursor init = fe_literal_init(arg), elems[FE_MAX_ELEMS];
    if (clang_Cursor_isNull(init)) {
        if (!fe_ints_arg(fx, arg, out) && !fe_ints_in_place(fx, arg, out)) {
            out->n = -1;
            out->reason = fe_not_literal(fx, arg, "tl_ints");
        }
        return;
    }
    int n_elems;
    out->n = fe_literal_parts(fx, init, elems, FE_MAX_ELEMS, &n_elems, &out->reason);
    if (out->n < 0)
        return;
    out->exprs = ir_alloc(fx->u, (size_t)out->n * sizeof *out->exprs + 1);
    for (int i = 0; i < out->n; i++)
        out->exprs[i] = i < n_elems ? fe_lower_int(fx, elems[i])
                                    : ir_expr_const(fx->u, fe_loc(fx, arg), 0); /* {2, {5}} */
    for (int i = out->n; i < n_elems; i++)
        fe_lower_effects(fx, elems[i]);
}

static void fe_arg_list(fe_ctx *fx, CXCursor arg, ir_arg *out)
{
    CXCursor init = fe_literal_init(arg), elems[FE_MAX_ELEMS];
    if (clang_Cursor_isNull(init)) {
        out->n = -1;
        out->reason = fe_not_literal(fx, arg, "tl_list");
        return;
    }
    int n_elems;
    out->n = fe_literal_parts(fx, init, elems, FE_MAX_ELEMS, &n_elems, &out->reason);
    if (out->n < 0)
        return;
    out->vars = ir_alloc(fx->u, (size_t)out->n * sizeof *out->vars + 1);
    for (int i = 0; i < out->n; i++)
        out->vars[i] = i < n_elems ? fe_lower_tensor(fx, elems[i], IR_NO_VAR) : IR_NULL_TENSOR;
}

static void fe_arg_double(fe_ctx *fx, CXCursor arg, ir_arg *out)
{
    out->known = fe_eval_double(arg, &out->value);
    if (out->known)
        return;
    fe_lower_effects(fx, arg);
    out->reason = "not a constant";
}

static void fe_arg_lower(fe_ctx *fx, char kind, CXCursor arg, ir_arg *out)
{
    out->kind = (ir_arg_kind)kind;
    out->var = IR_NO_VAR;
    switch (kind) {
    case 't': out->var = fe_lower_tensor(fx, arg, IR_NO_VAR); break;
    case 'S': fe_arg_ints(fx, arg, out); break;
    case 'L': fe_arg_list(fx, arg, out); break;
    case 'f': fe_arg_double(fx, arg, out); break;
    case 'p': fe_lower_effects(fx, arg); break;
    default: out->expr = fe_lower_int(fx, arg); break;
    }
}

static bool fe_op_returns_tensor(mt_op op)
{
    switch (mt_ops[op].family) {
    case MT_INPLACE:
    case MT_ACCESS:
    case MT_RELEASE: return false;
    default: return true;
    }
}

/* Lower the arguments of a call for their effects only. */
static void fe_args_effects(fe_ctx *fx, CXCursor call, int from)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = from; i < n; i++)
        fe_lower_effects(fx, clang_Cursor_getArgument(call, (unsigned)i));
}

int fe_lower_op_call(fe_ctx *fx, CXCursor call, const fe_callee *ce, int dst, bool want_value)
{
    ir_loc loc = fe_loc(fx, call);
    const char *sig = mt_ops[ce->op].signature;
    int n = (int)strlen(sig);
    bool returns = fe_op_returns_tensor(ce->op);
    fx->tensor_code = true;
    if (clang_Cursor_getNumArguments(call) - ce->skip != n) {
        fe_args_effects(fx, call, 0);
        fe_unsupported(fx, loc, IR_NO_VAR, ir_strfmt(fx->u, "wrong number of arguments to tl_%s",
                                                     mt_ops[ce->op].name));
        return returns && (want_value || dst != IR_NO_VAR) ? IR_UNKNOWN_TENSOR : IR_NO_VAR;
    }
    if (mt_ops[ce->op].family == MT_RELEASE) {
        ir_stmt *s = ir_stmt_new(fx->u, IR_RELEASE, loc);
        s->release.var = fe_lower_tensor(fx, clang_Cursor_getArgument(call, (unsigned)ce->skip), IR_NO_VAR);
        fe_push(fx, s);
        return IR_NO_VAR;
    }
    ir_arg *args = ir_alloc(fx->u, (size_t)n * sizeof *args + 1);
    for (int i = 0; i < n; i++)
        fe_arg_lower(fx, sig[i], clang_Cursor_getArgument(call, (unsigned)(i + ce->skip)), &args[i]);
    ir_stmt *s = ir_stmt_new(fx->u, IR_CALL, loc);
    s->call.op = ce->op;
    s->call.n_args = n;
    s->call.args = args;
    if (returns)
        s->call.result = dst != IR_NO_VAR ? dst : want_value ? ir_temp_new(fx->u, fx->func, loc) : IR_NO_VAR;
    fe_push(fx, s);
    /* host memory an access op writes (tl_copy_to_host): its old contents
     * are gone, and what is there now are a tensor's elements, not sizes */
    for (int i = 0; i < n && mt_ops[ce->op].family == MT_ACCESS; i++) {
        if (sig[i] != 'p')
            continue;
        ir_block *b = fx->cur;
        int before = b->n_stmts;
        fe_external_pointer_arg(fx, call, ir_strfmt(fx->u, "tl_%s", mt_ops[ce->op].name),
                                i + ce->skip,
                                clang_Cursor_getArgument(call, (unsigned)(i + ce->skip)));
        for (int k = before; k < b->n_stmts; k++)
            if (b->stmts[k]->kind == IR_FILL)
                b->stmts[k]->fill.data = true;
    }
    return s->call.result;
}

/* ---- queries ---- */

ir_expr *fe_lower_query(fe_ctx *fx, CXCursor call, const fe_callee *ce)
{
    ir_loc loc = fe_loc(fx, call);
    int n = clang_Cursor_getNumArguments(call);
    int var = IR_NO_VAR, var2 = IR_NO_VAR;
    ir_expr *a = NULL;
    if (ce->query == IR_Q_ELEMENT_SIZE) {
        if (n != 1) {
            fe_args_effects(fx, call, 0);
            return ir_expr_unknown(fx->u, loc, "tl_element_size with wrong arguments");
        }
        a = fe_lower_int(fx, clang_Cursor_getArgument(call, 0));
        return ir_expr_query(fx->u, loc, ce->query, var, var2, a);
    }
    fx->tensor_code = true;
    int want = ce->query == IR_Q_SIZE || ce->query == IR_Q_STRIDE ||
                       ce->query == IR_Q_IS_CONTIGUOUS_FORMAT || ce->query == IR_Q_SHARES_STORAGE
                   ? 2
                   : 1;
    if (n != want) {
        fe_args_effects(fx, call, 0);
        return ir_expr_unknown(fx->u, loc, ir_strfmt(fx->u, "%s with wrong arguments", ce->name));
    }
    var = fe_lower_tensor(fx, clang_Cursor_getArgument(call, 0), IR_NO_VAR);
    if (ce->query == IR_Q_SHARES_STORAGE)
        var2 = fe_lower_tensor(fx, clang_Cursor_getArgument(call, 1), IR_NO_VAR);
    else if (want == 2)
        a = fe_lower_int(fx, clang_Cursor_getArgument(call, 1));
    return ir_expr_query(fx->u, loc, ce->query, var, var2, a);
}

/* ---- user calls ---- */

/* Does the call pass or return a handle (or the address of one)? */
static bool fe_call_has_tensors(CXCursor call)
{
    if (fe_type_is_tensor(clang_getCursorType(call)))
        return true;
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        CXType t = clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i));
        if (fe_type_is_tensor(t) || fe_type_is_tensor_ptr(t))
            return true;
    }
    return false;
}

/* Is arg a tl_ints variable whose elements the front end tracks? */
static bool fe_ints_arg_var(fe_ctx *fx, CXCursor arg)
{
    ir_arg probe;
    return fe_ints_arg(fx, arg, &probe) && probe.n >= 0;
}

/* A place of a temporary object plus one field step (and an index). */
static ir_place *fe_temp_field(fe_ctx *fx, int tmp, int64_t key, const char *name, ir_expr *index)
{
    ir_place *p = ir_alloc(fx->u, sizeof *p);
    p->var = tmp;
    p->n_steps = index ? 2 : 1;
    p->steps = ir_alloc(fx->u, sizeof *p->steps * 2);
    p->steps[0] = (ir_step){.kind = IR_STEP_FIELD, .key = key, .name = name};
    if (index)
        p->steps[1] = (ir_step){.kind = IR_STEP_INDEX, .index = index};
    p->text = name;
    return p;
}

/* A struct value that is no place (a compound literal such as TL_SHAPE(2, 3),
 * a tracked tl_ints variable): a temporary object holding it, passed by value. */
static ir_place *fe_record_temp(fe_ctx *fx, CXCursor arg)
{
    ir_loc loc = fe_loc(fx, arg);
    int tmp = ir_var_new(fx->u, "<tmp>", IR_VAR_OTHER, fx->func, loc);
    fx->u->vars[tmp].is_temp = true;
    ir_place *p = fe_place_of_var(fx, tmp);
    CXType t = clang_getCanonicalType(clang_getCursorType(arg));
    ir_arg elems;
    if (!fe_type_is_ints(t) || !fe_ints_arg(fx, arg, &elems) || elems.n < 0) {
        fe_init_place(fx, p, clang_getCursorType(arg), arg);
        return p;
    }
    int64_t key_n = clang_Type_getOffsetOf(t, "n"), key_v = clang_Type_getOffsetOf(t, "v");
    fe_fill(fx, loc, p, true, NULL);
    fe_store_int(fx, loc, fe_temp_field(fx, tmp, key_n, "n", NULL), ir_expr_const(fx->u, loc, elems.n));
    for (int k = 0; k < elems.n; k++)
        fe_store_int(fx, loc, fe_temp_field(fx, tmp, key_v, "v", ir_expr_const(fx->u, loc, k)),
                     elems.exprs[k]);
    return p;
}

static void fe_uarg_lower(fe_ctx *fx, CXCursor arg, ir_uarg *out)
{
    const char *why;
    CXType t = clang_getCursorType(arg);
    out->kind = fe_type_kind(t);
    out->var = IR_NO_VAR;
    if (out->kind == IR_VAR_TENSOR)
        out->var = fe_lower_tensor(fx, arg, IR_NO_VAR);
    else if (out->kind == IR_VAR_INT)
        out->expr = fe_lower_int(fx, arg);
    else if (fe_type_is_pointer(t) || fe_expr_is_array(arg))
        out->ptr = fe_lower_ptr(fx, arg);
    else if (fe_type_is_record(t) && !(fe_type_is_ints(t) && fe_ints_arg_var(fx, arg)) &&
             (out->place = fe_lower_place(fx, arg, &why)))
        ;
    else if (fe_type_is_record(t))
        out->place = fe_record_temp(fx, arg);
    else
        fe_lower_effects(fx, arg);
}

/* The result variable of a user call whose value the caller wants. */
static int fe_user_result(fe_ctx *fx, CXCursor call, int dst, ir_var_kind want, ir_loc loc)
{
    ir_var_kind ret = fe_type_kind(clang_getCursorType(call));
    if (ret == IR_VAR_TENSOR)
        return dst != IR_NO_VAR ? dst : want == IR_VAR_TENSOR ? ir_temp_new(fx->u, fx->func, loc) : IR_NO_VAR;
    if (ret == IR_VAR_OTHER && want == IR_VAR_OTHER && dst != IR_NO_VAR &&
        fx->u->vars[dst].kind == IR_VAR_OTHER && fe_type_is_object(clang_getCursorType(call)))
        return dst;
    if (ret == IR_VAR_INT && want == IR_VAR_INT) {
        int var = ir_var_new(fx->u, "<tmp>", IR_VAR_INT, fx->func, loc);
        fx->u->vars[var].is_temp = true;
        return var;
    }
    return IR_NO_VAR;
}

/* The pointer a call goes through: the value of its callee expression
 * (*text: its C spelling).  A pointer returned by a call of a user
 * function (get_op(k)(x)) goes through a temporary. */
static ir_ptr *fe_callee_ptr(fe_ctx *fx, CXCursor call, const char **text)
{
    CXCursor callee;
    ir_loc loc = fe_loc(fx, call);
    if (fe_children(call, &callee, 1) < 1) {
        ir_ptr *p = ir_alloc(fx->u, sizeof *p);
        p->kind = IR_PTR_UNKNOWN;
        p->reason = "a call with no callee expression";
        *text = "(function pointer)";
        return p;
    }
    *text = fe_text(fx, callee);
    CXCursor c = fe_strip(callee, true), kids[2];
    int n;
    bool postfix;
    char buf[8];
    const char *op;
    while (clang_getCursorKind(c) == CXCursor_UnaryOperator && fe_type_is_function(clang_getCursorType(c)) &&
           (op = fe_operator(fx, c, kids, &n, &postfix, buf, sizeof buf)) && n == 1 &&
           strcmp(op, "*") == 0)
        c = fe_strip(kids[0], true); /* (*get_op(k))(x): the function is the pointer's */
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        fe_callee ce = fe_callee_of(fx, c);
        if (ce.kind == FE_CALLEE_USER || ce.kind == FE_CALLEE_POINTER) {
            int tmp = ir_var_new(fx->u, "<tmp>", IR_VAR_OTHER, fx->func, loc);
            fx->u->vars[tmp].is_temp = true;
            fe_lower_user_call(fx, c, &ce, tmp, IR_VAR_OTHER);
            ir_ptr *p = ir_alloc(fx->u, sizeof *p);
            p->kind = IR_PTR_LOAD;
            p->place = fe_place_of_var(fx, tmp);
            return p;
        }
    }
    return fe_lower_ptr(fx, callee);
}

int fe_lower_user_call(fe_ctx *fx, CXCursor call, const fe_callee *ce, int dst, ir_var_kind want)
{
    if (ce->kind == FE_CALLEE_POINTER) {
        /* the callee is the function the pointer names when the call runs:
         * one of the file's (run as a direct call), one not defined here (as
         * a call of it), or one the analysis cannot tell */
        ir_loc loc = fe_loc(fx, call);
        const char *text;
        ir_ptr *fn = fe_callee_ptr(fx, call, &text);
        int n = clang_Cursor_getNumArguments(call);
        ir_uarg *args = ir_alloc(fx->u, (size_t)n * sizeof *args + 1);
        for (int i = 0; i < n; i++)
            fe_uarg_lower(fx, clang_Cursor_getArgument(call, (unsigned)i), &args[i]);
        ir_stmt *s = ir_stmt_new(fx->u, IR_USER_CALL, loc);
        s->user_call.callee = -1;
        s->user_call.fn = fn;
        s->user_call.name = text;
        s->user_call.n_args = n;
        s->user_call.args = args;
        s->user_call.result = fe_user_result(fx, call, dst, want, loc);
        s->user_call.ext = ir_block_new(fx->u);
        fe_push(fx, s);
        ir_block *saved = fx->cur;
        fx->cur = s->user_call.ext;
        for (int i = 0; i < n; i++)
            fe_external_pointer_arg(fx, call, text, i, clang_Cursor_getArgument(call, (unsigned)i));
        fx->cur = saved;
        if (fe_call_has_tensors(call))
            fx->tensor_code = true;
        return s->user_call.result;
    }
    int callee = fe_func_lookup(fx, ce->name);
    bool linked = fe_func_elsewhere(fx, ce->name, call); /* the program's link resolves it */
    int n = clang_Cursor_getNumArguments(call);
    if (callee < 0 && !linked && !fe_call_has_tensors(call)) {
        /* a library function (printf): its arguments' effects, and what it
         * may write through the pointers it gets */
        for (int i = 0; i < n; i++)
            fe_lower_effects(fx, clang_Cursor_getArgument(call, (unsigned)i));
        for (int i = 0; i < n; i++)
            fe_external_pointer_arg(fx, call, ce->name, i, clang_Cursor_getArgument(call, (unsigned)i));
        if (dst != IR_NO_VAR && fx->u->vars[dst].kind == IR_VAR_OTHER)
            fe_fill(fx, fe_loc(fx, call), fe_place_of_var(fx, dst), false,
                    ir_strfmt(fx->u, "value returned by %s()", ce->name));
        return IR_NO_VAR;
    }
    ir_loc loc = fe_loc(fx, call);
    ir_uarg *args = ir_alloc(fx->u, (size_t)n * sizeof *args + 1);
    for (int i = 0; i < n; i++)
        fe_uarg_lower(fx, clang_Cursor_getArgument(call, (unsigned)i), &args[i]);
    ir_stmt *s = ir_stmt_new(fx->u, IR_USER_CALL, loc);
    s->user_call.callee = callee;
    s->user_call.name = ce->name;
    s->user_call.n_args = n;
    s->user_call.args = args;
    s->user_call.result = fe_user_result(fx, call, dst, want, loc);
    fe_push(fx, s);
    for (int i = 0; callee < 0 && !linked && i < n; i++)
        fe_external_pointer_arg(fx, call, ce->name, i, clang_Cursor_getArgument(call, (unsigned)i));
    if (fe_call_has_tensors(call))
        fx->tensor_code = true;
    return s->user_call.result;
}
