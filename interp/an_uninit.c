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

/* What is left to scan: an explicit stack, not recursion, so that a nesting
 * of statements or an expression as deep as the input (an else-if chain of
 * 50,000 arms, a sum of 200,000 terms) costs heap, not stack.  The scan
 * only collects (a variable declared, a variable set): the order in which
 * it visits does not matter. */
typedef enum work_kind { W_BLOCK, W_EXPR, W_PTR, W_PLACE } work_kind;

typedef struct work {
    work_kind kind;
    const void *p;
} work;

typedef struct scan {
    bool *cand;   /* per variable: declared in a block of the function */
    bool *set;    /* per variable: set, or named as a place */
    bool opaque;  /* a construct not lowered: nothing is reported */
    work *todo;
    size_t n, cap;
} scan;

static void push(scan *sc, work_kind kind, const void *p)
{
    if (!p)
        return;
    tl_xgrow(sc->todo, &sc->cap, sc->n + 1, 64);
    sc->todo[sc->n++] = (work){kind, p};
}

static void set_var(scan *sc, int var)
{
    if (var >= 0)
        sc->set[var] = true;
}

static void scan_place(scan *sc, const ir_place *p)
{
    set_var(sc, p->var);
    for (int k = 0; k < p->n_steps; k++)
        push(sc, W_EXPR, p->steps[k].index);
}

static void scan_ptr(scan *sc, const ir_ptr *p)
{
    push(sc, W_PLACE, p->place);
    push(sc, W_EXPR, p->offset);
    push(sc, W_EXPR, p->size);
    push(sc, W_PTR, p->old);
}

static void scan_expr(scan *sc, const ir_expr *e)
{
    push(sc, W_PLACE, e->place);
    push(sc, W_PTR, e->pa);
    push(sc, W_PTR, e->pb);
    push(sc, W_EXPR, e->a);
    push(sc, W_EXPR, e->b);
    push(sc, W_EXPR, e->c);
}

static void scan_call(scan *sc, const ir_stmt *s)
{
    set_var(sc, s->call.result);
    for (int k = 0; k < s->call.n_args; k++) {
        const ir_arg *a = &s->call.args[k];
        push(sc, W_EXPR, a->expr);
        push(sc, W_PLACE, a->place);
        for (int j = 0; a->exprs && j < a->n; j++)
            push(sc, W_EXPR, a->exprs[j]);
    }
}

static void scan_user_call(scan *sc, const ir_stmt *s)
{
    set_var(sc, s->user_call.result);
    for (int k = 0; k < s->user_call.n_args; k++) {
        const ir_uarg *a = &s->user_call.args[k];
        push(sc, W_EXPR, a->expr);
        push(sc, W_PTR, a->ptr);
        push(sc, W_PLACE, a->place);
    }
    push(sc, W_PTR, s->user_call.fn);
    push(sc, W_BLOCK, s->user_call.ext);
}

static void scan_stmt(scan *sc, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL: scan_call(sc, s); break;
    case IR_ASSIGN_INT: push(sc, W_EXPR, s->assign_int.value); break;
    case IR_ASSIGN_TENSOR: set_var(sc, s->assign_tensor.dst); break;
    case IR_BLOCK: push(sc, W_BLOCK, s->block); break;
    case IR_IF:
        push(sc, W_EXPR, s->branch.cond);
        push(sc, W_BLOCK, s->branch.then_blk);
        push(sc, W_BLOCK, s->branch.else_blk);
        break;
    case IR_LOOP:
        push(sc, W_BLOCK, s->loop.init);
        push(sc, W_BLOCK, s->loop.cond_pre);
        push(sc, W_EXPR, s->loop.cond);
        push(sc, W_BLOCK, s->loop.step);
        push(sc, W_BLOCK, s->loop.body);
        break;
    case IR_USER_CALL: scan_user_call(sc, s); break;
    case IR_RETURN:
        push(sc, W_EXPR, s->ret.value);
        push(sc, W_PTR, s->ret.ptr);
        push(sc, W_PLACE, s->ret.place);
        break;
    case IR_EVAL: push(sc, W_EXPR, s->eval.expr); break;
    case IR_LOAD:
        set_var(sc, s->load.dst);
        push(sc, W_PLACE, s->load.src);
        break;
    case IR_STORE:
        push(sc, W_PLACE, s->store.dst);
        push(sc, W_EXPR, s->store.value);
        push(sc, W_PTR, s->store.ptr);
        break;
    case IR_COPY:
        push(sc, W_PLACE, s->copy.dst);
        push(sc, W_PLACE, s->copy.src);
        break;
    case IR_FILL: push(sc, W_PLACE, s->fill.dst); break;
    case IR_UNSUPPORTED: sc->opaque = true; break;
    default: break; /* RELEASE reads; BREAK, CONTINUE, LABEL, GOTO, EXIT set nothing */
    }
}

static void scan_block(scan *sc, const ir_block *b)
{
    for (int k = 0; k < b->n_decls; k++)
        if (b->decls[k] >= 0)
            sc->cand[b->decls[k]] = true;
    for (int k = 0; k < b->n_stmts; k++)
        scan_stmt(sc, b->stmts[k]);
}

/* Everything reachable from the function's body, until nothing is left. */
static void scan_function(scan *sc, const ir_block *body)
{
    push(sc, W_BLOCK, body);
    while (sc->n > 0) {
        work w = sc->todo[--sc->n];
        switch (w.kind) {
        case W_BLOCK: scan_block(sc, w.p); break;
        case W_EXPR: scan_expr(sc, w.p); break;
        case W_PTR: scan_ptr(sc, w.p); break;
        case W_PLACE: scan_place(sc, w.p); break;
        }
    }
}

bool *an_uninit_scan(const ir_unit *u)
{
    bool *never_set = tl_xcalloc((size_t)u->n_vars + 1, sizeof *never_set);
    scan sc = {tl_xcalloc((size_t)u->n_vars + 1, sizeof(bool)),
               tl_xcalloc((size_t)u->n_vars + 1, sizeof(bool)), false, NULL, 0, 0};
    for (int f = 0; f < u->n_funcs; f++) {
        sc.opaque = false;
        scan_function(&sc, u->funcs[f]->body);
        for (int v = 0; v < u->n_vars; v++)
            if (sc.cand[v] && u->vars[v].func == f)
                never_set[v] = !sc.set[v] && !sc.opaque && !u->vars[v].is_param &&
                               !u->vars[v].is_global && !u->vars[v].is_temp &&
                               u->vars[v].kind == IR_VAR_TENSOR;
    }
    free(sc.cand);
    free(sc.set);
    free(sc.todo);
    return never_set;
}

bool an_uninit_use(an_ctx *cx, const ir_stmt *s, int var)
{
    if (var < 0 || var >= cx->u->n_vars || !cx->vars.never_set || !cx->vars.never_set[var])
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
