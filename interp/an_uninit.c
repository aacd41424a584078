/*
 * an_uninit.c: the tensor variables a function declares without an
 * initializer and never sets, on any path: every use of one reads an
 * uninitialized pointer (uninitialized-handle, as clang's -Wuninitialized).
 *
 * The scan is syntactic over the IR and errs towards "set": a variable is
 * set by a call's result, an assignment, a load, and by anything that names
 * it as a place (its address passed to a function, a memset, a store
 * through a pointer to it): what a pointer to it may do is not followed, so
 * it is taken as set.  A function with a construct the front end did not
 * lower has no such variable (the construct may set it).  Static locals and
 * globals are zero, NULL, never uninitialized: they are no block's decls.
 */
#include "an_internal.h"

#include <stdlib.h>

typedef struct scan {
    bool *cand;   /* per variable: declared in a block of the function */
    bool *set;    /* per variable: set, or named as a place */
    bool opaque;  /* a construct not lowered: nothing is reported */
} scan;

static void set_var(scan *sc, int var)
{
    if (var >= 0)
        sc->set[var] = true;
}

static void scan_expr(scan *sc, const ir_expr *e);

static void scan_place(scan *sc, const ir_place *p)
{
    if (!p)
        return;
    set_var(sc, p->var);
    for (int k = 0; k < p->n_steps; k++)
        scan_expr(sc, p->steps[k].index);
}

static void scan_ptr(scan *sc, const ir_ptr *p)
{
    if (!p)
        return;
    scan_place(sc, p->place);
    scan_expr(sc, p->offset);
    scan_expr(sc, p->size);
    scan_ptr(sc, p->old);
}

static void scan_expr(scan *sc, const ir_expr *e)
{
    if (!e)
        return;
    scan_place(sc, e->place);
    scan_ptr(sc, e->pa);
    scan_ptr(sc, e->pb);
    scan_expr(sc, e->a);
    scan_expr(sc, e->b);
    scan_expr(sc, e->c);
}

static void scan_block(scan *sc, const ir_block *b);

static void scan_call(scan *sc, const ir_stmt *s)
{
    set_var(sc, s->call.result);
    for (int k = 0; k < s->call.n_args; k++) {
        const ir_arg *a = &s->call.args[k];
        scan_expr(sc, a->expr);
        scan_place(sc, a->place);
        for (int j = 0; a->exprs && j < a->n; j++)
            scan_expr(sc, a->exprs[j]);
    }
}

static void scan_user_call(scan *sc, const ir_stmt *s)
{
    set_var(sc, s->user_call.result);
    for (int k = 0; k < s->user_call.n_args; k++) {
        const ir_uarg *a = &s->user_call.args[k];
        scan_expr(sc, a->expr);
        scan_ptr(sc, a->ptr);
        scan_place(sc, a->place);
    }
    scan_ptr(sc, s->user_call.fn);
    scan_block(sc, s->user_call.ext);
}

static void scan_stmt(scan *sc, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL: scan_call(sc, s); break;
    case IR_ASSIGN_INT: scan_expr(sc, s->assign_int.value); break;
    case IR_ASSIGN_TENSOR: set_var(sc, s->assign_tensor.dst); break;
    case IR_BLOCK: scan_block(sc, s->block); break;
    case IR_IF:
        scan_expr(sc, s->branch.cond);
        scan_block(sc, s->branch.then_blk);
        scan_block(sc, s->branch.else_blk);
        break;
    case IR_LOOP:
        scan_block(sc, s->loop.init);
        scan_block(sc, s->loop.cond_pre);
        scan_expr(sc, s->loop.cond);
        scan_block(sc, s->loop.step);
        scan_block(sc, s->loop.body);
        break;
    case IR_USER_CALL: scan_user_call(sc, s); break;
    case IR_RETURN:
        scan_expr(sc, s->ret.value);
        scan_ptr(sc, s->ret.ptr);
        scan_place(sc, s->ret.place);
        break;
    case IR_EVAL: scan_expr(sc, s->eval.expr); break;
    case IR_LOAD:
        set_var(sc, s->load.dst);
        scan_place(sc, s->load.src);
        break;
    case IR_STORE:
        scan_place(sc, s->store.dst);
        scan_expr(sc, s->store.value);
        scan_ptr(sc, s->store.ptr);
        break;
    case IR_COPY:
        scan_place(sc, s->copy.dst);
        scan_place(sc, s->copy.src);
        break;
    case IR_FILL: scan_place(sc, s->fill.dst); break;
    case IR_UNSUPPORTED: sc->opaque = true; break;
    default: break; /* RELEASE reads; BREAK, CONTINUE, LABEL, GOTO, EXIT set nothing */
    }
}

static void scan_block(scan *sc, const ir_block *b)
{
    if (!b)
        return;
    for (int k = 0; k < b->n_decls; k++)
        if (b->decls[k] >= 0)
            sc->cand[b->decls[k]] = true;
    for (int k = 0; k < b->n_stmts; k++)
        scan_stmt(sc, b->stmts[k]);
}

bool *an_uninit_scan(const ir_unit *u)
{
    bool *never_set = tl_xcalloc((size_t)u->n_vars + 1, sizeof *never_set);
    scan sc = {tl_xcalloc((size_t)u->n_vars + 1, sizeof(bool)),
               tl_xcalloc((size_t)u->n_vars + 1, sizeof(bool)), false};
    for (int f = 0; f < u->n_funcs; f++) {
        sc.opaque = false;
        scan_block(&sc, u->funcs[f]->body);
        for (int v = 0; v < u->n_vars; v++)
            if (sc.cand[v] && u->vars[v].func == f)
                never_set[v] = !sc.set[v] && !sc.opaque && !u->vars[v].is_param &&
                               !u->vars[v].is_global && !u->vars[v].is_temp &&
                               u->vars[v].kind == IR_VAR_TENSOR;
    }
    free(sc.cand);
    free(sc.set);
    return never_set;
}

bool an_uninit_use(an_ctx *cx, const ir_stmt *s, int var)
{
    if (var < 0 || var >= cx->u->n_vars || !cx->never_set || !cx->never_set[var])
        return false;
    const ir_var *v = &cx->u->vars[var];
    const char *use = s->kind == IR_RELEASE ? "tl_release" : mt_ops[s->call.op].name;
    an_diag *d = an_diag_add(cx, AN_ERROR, "uninitialized-handle", s->loc.line, s->loc.col,
                             "%s%s uses '%s', which is never set: it holds no tensor, only an "
                             "uninitialized pointer", s->kind == IR_RELEASE ? "" : "tl_", use,
                             v->name);
    if (d)
        an_diag_note(d, v->loc.line, v->loc.col, "'%s' is declared here without an initializer",
                     v->name);
    return true;
}
