/*
 * fe_lower_ints.c: tl_ints variables.
 *
 *     tl_ints shape = TL_SHAPE(b, 4 * n);
 *     tl_tensor *x = tl_zeros(shape, TL_F32, TL_CPU);
 *
 * A tl_ints variable assigned a literal gets one hidden integer variable
 * per element ("shape[0]", "shape[1]"), assigned where the literal is; an
 * argument naming the variable reads them.  So the values are the ones the
 * variable holds when the call runs, through branches and loops, and the
 * interpreter needs nothing new.  A later `shape.v[1] = e` with a constant
 * index assigns one element; anything else that changes the variable (its
 * count, a computed index, its address escaping, a non-literal value)
 * makes it unknown from there on, in source order.
 */
#include "fe_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct fe_ints_var {
    int n;              /* elements; -1 when unknown */
    int *elems;         /* n integer variables */
    const char *reason; /* n == -1: why */
} fe_ints_var;

bool fe_type_is_ints(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind != CXType_Record)
        return false;
    CXString s = clang_getCursorSpelling(clang_getTypeDeclaration(c));
    bool yes = strcmp(clang_getCString(s), "tl_ints") == 0;
    clang_disposeString(s);
    return yes;
}

static fe_ints_var *fe_ints_get(fe_ctx *fx, int var)
{
    return var >= 0 && var < fx->cap_ints ? fx->ints[var] : NULL;
}

static fe_ints_var *fe_ints_entry(fe_ctx *fx, int var)
{
    if (var >= fx->cap_ints) {
        int cap = fx->cap_ints ? fx->cap_ints : 64;
        while (cap <= var)
            cap *= 2;
        fe_ints_var **p = tl_xrealloc(fx->ints, (size_t)cap * sizeof *p);
        memset(p + fx->cap_ints, 0, (size_t)(cap - fx->cap_ints) * sizeof *p);
        fx->ints = p;
        fx->cap_ints = cap;
    }
    if (!fx->ints[var])
        fx->ints[var] = ir_alloc(fx->u, sizeof(fe_ints_var));
    return fx->ints[var];
}

void fe_ints_clobber(fe_ctx *fx, int var, const char *reason)
{
    fe_ints_var *e = fe_ints_entry(fx, var);
    e->n = -1;
    e->reason = reason;
}

/* Make sure var has n element variables (new ones when the count changes). */
static void fe_ints_resize(fe_ctx *fx, fe_ints_var *e, int var, int n)
{
    if (e->elems && e->n == n)
        return;
    e->n = n;
    e->elems = ir_alloc(fx->u, (size_t)n * sizeof *e->elems + 1);
    const ir_var *v = &fx->u->vars[var];
    for (int i = 0; i < n; i++)
        e->elems[i] = ir_var_new(fx->u, ir_strfmt(fx->u, "%s[%d]", v->name, i), IR_VAR_INT,
                                 v->func, v->loc);
}

static void fe_ints_assign_elem(fe_ctx *fx, int elem, ir_loc loc, ir_expr *value)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_ASSIGN_INT, loc);
    s->assign_int.var = elem;
    s->assign_int.value = value;
    fe_push(fx, s);
}

/* The tracked tl_ints variable that c (a variable reference) names, or -1. */
static int fe_ints_var_of(fe_ctx *fx, CXCursor c)
{
    c = fe_strip(c, true);
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return -1;
    CXCursor decl = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if ((k != CXCursor_VarDecl && k != CXCursor_ParmDecl) || !fe_type_is_ints(clang_getCursorType(decl)))
        return -1;
    return fe_var_of_decl(fx, decl);
}

/* var = other, both tracked tl_ints variables. */
static void fe_ints_copy(fe_ctx *fx, int var, int other, ir_loc loc)
{
    const fe_ints_var *src = fe_ints_get(fx, other);
    if (!src || src->n < 0) {
        fe_ints_clobber(fx, var, src ? src->reason : ir_strfmt(fx->u, "tl_ints variable %s",
                                                               fx->u->vars[other].name));
        return;
    }
    int n = src->n, *from = src->elems;
    fe_ints_var *e = fe_ints_entry(fx, var);
    fe_ints_resize(fx, e, var, n);
    for (int i = 0; i < n; i++)
        fe_ints_assign_elem(fx, e->elems[i], loc, ir_expr_var(fx->u, loc, from[i]));
}

void fe_ints_set(fe_ctx *fx, int var, CXCursor value)
{
    ir_loc loc = fe_loc(fx, value);
    CXCursor init = fe_literal_init(value), elems[FE_MAX_ELEMS];
    if (clang_Cursor_isNull(init)) {
        int other = fe_ints_var_of(fx, value);
        if (other >= 0) {
            fe_ints_copy(fx, var, other, loc);
            return;
        }
        fe_lower_effects(fx, value);
        fe_ints_clobber(fx, var, ir_strfmt(fx->u, "tl_ints variable %s set from an expression",
                                           fx->u->vars[var].name));
        return;
    }
    int n_elems;
    const char *reason = NULL;
    int n = fe_literal_parts(fx, init, elems, FE_MAX_ELEMS, &n_elems, &reason);
    if (n < 0) {
        fe_ints_clobber(fx, var, reason);
        return;
    }
    /* evaluate every element before assigning any: s = TL_SHAPE(s.v[1], s.v[0]) */
    ir_expr **values = ir_alloc(fx->u, (size_t)n * sizeof *values + 1);
    for (int i = 0; i < n; i++)
        values[i] = i < n_elems ? fe_lower_int(fx, elems[i]) : ir_expr_const(fx->u, loc, 0);
    fe_ints_var *e = fe_ints_entry(fx, var);
    fe_ints_resize(fx, e, var, n);
    for (int i = 0; i < n; i++)
        fe_ints_assign_elem(fx, e->elems[i], loc, values[i]);
}

bool fe_ints_arg(fe_ctx *fx, CXCursor arg, ir_arg *out)
{
    int var = fe_ints_var_of(fx, arg);
    const fe_ints_var *e = fe_ints_get(fx, var);
    if (!e)
        return false;
    out->n = e->n;
    if (e->n < 0) {
        out->reason = e->reason;
        return true;
    }
    out->exprs = ir_alloc(fx->u, (size_t)e->n * sizeof *out->exprs + 1);
    ir_loc loc = fe_loc(fx, arg);
    for (int i = 0; i < e->n; i++)
        out->exprs[i] = ir_expr_var(fx->u, loc, e->elems[i]);
    return true;
}

/* s.v[k] = rhs with a constant k: assign one element, else forget s. */
static bool fe_ints_store_elem(fe_ctx *fx, CXCursor lhs, CXCursor rhs)
{
    CXCursor kids[2], base;
    if (fe_children(lhs, kids, 2) != 2)
        return false;
    base = fe_strip(kids[0], false);
    if (clang_getCursorKind(base) != CXCursor_MemberRefExpr || fe_children(base, &base, 1) != 1)
        return false;
    int var = fe_ints_var_of(fx, base);
    if (var < 0)
        return false;
    fe_ints_var *e = fe_ints_entry(fx, var);
    int64_t k;
    ir_expr *value = fe_lower_int(fx, rhs);
    if (e->n >= 0 && fe_eval_int(kids[1], &k) && k >= 0 && k < e->n)
        fe_ints_assign_elem(fx, e->elems[k], fe_loc(fx, lhs), value);
    else
        fe_ints_clobber(fx, var, ir_strfmt(fx->u, "tl_ints variable %s changed through a computed index",
                                           fx->u->vars[var].name));
    return true;
}

bool fe_ints_store(fe_ctx *fx, CXCursor lhs, CXCursor rhs)
{
    CXCursor l = fe_strip(lhs, false), base;
    switch (clang_getCursorKind(l)) {
    case CXCursor_ArraySubscriptExpr: return fe_ints_store_elem(fx, l, rhs);
    case CXCursor_MemberRefExpr: {
        if (fe_children(l, &base, 1) != 1)
            return false;
        int var = fe_ints_var_of(fx, base);
        if (var < 0)
            return false;
        fe_lower_effects(fx, rhs);
        fe_ints_clobber(fx, var, ir_strfmt(fx->u, "tl_ints variable %s changed field by field",
                                           fx->u->vars[var].name));
        return true;
    }
    default: return false;
    }
}

void fe_ints_touched(fe_ctx *fx, CXCursor lhs)
{
    CXCursor c = fe_strip(lhs, false), kids[2];
    for (int depth = 0; depth < 4; depth++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_MemberRefExpr)
            break;
        if (fe_children(c, kids, 2) < 1)
            return;
        c = fe_strip(kids[0], false);
    }
    int var = fe_ints_var_of(fx, c);
    if (var >= 0)
        fe_ints_clobber(fx, var, ir_strfmt(fx->u, "tl_ints variable %s updated in place",
                                           fx->u->vars[var].name));
}

ir_expr *fe_ints_read(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[2], base;
    ir_loc loc = fe_loc(fx, c);
    bool elem = clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr;
    if (elem) {
        if (fe_children(c, kids, 2) != 2)
            return NULL;
        base = fe_strip(kids[0], false);
    } else {
        base = c;
    }
    if (clang_getCursorKind(base) != CXCursor_MemberRefExpr || fe_children(base, &base, 1) != 1)
        return NULL;
    const fe_ints_var *e = fe_ints_get(fx, fe_ints_var_of(fx, base));
    int64_t k;
    if (!e || e->n < 0)
        return NULL;
    if (!elem)
        return ir_expr_const(fx->u, loc, e->n); /* s.n */
    if (!fe_eval_int(kids[1], &k) || k < 0 || k >= e->n)
        return NULL;
    return ir_expr_var(fx->u, loc, e->elems[k]);
}
