/*
 * an_loop_skip.c: a loop counted to a constant whose iterations come back
 * to a state they were in some iterations earlier (an_exec_loop calls it
 * before each iteration).
 *
 * The iterations run as any do; before each, the state is compared with
 * the state at an anchor iteration (Brent's cycle search: the anchor moves
 * to iterations 1, 2, 4, 8 ... so a period P is found about P iterations
 * after the state starts repeating).  When the two are the same (every
 * variable, memory cell, live storage and handle, with the handles and
 * storages made since taken one for one; every function's peak, every call
 * site's first execution, the diagnostics, assumptions and symbols as they
 * were; only the counter moved, by P steps), the iterations from the anchor
 * to now are what every P iterations from now on do: the whole periods the
 * count leaves are accounted at once (bytes moved, calls, each call site's
 * executions, the counter and the iteration number), and the last
 * iterations run as any do, from the state now.  What the report lists of
 * each iteration (the peak and its live set, the storages) comes from
 * iterations that ran: the skipped ones add to the counts only, and their
 * storages are not listed.
 *
 * The counter's value is the one integer that differs from a period to the
 * next, so what reads it must not tell one period from another: the body
 * (and the functions it passes the counter to) may read it only as
 * `counter % K`, K a constant that divides the counter's move over a
 * period.  Anything else, a body that may leave the loop early (a branch
 * not known statically), a state that does not repeat within
 * LP_SKIP_MAX_PERIOD iterations: the loop iterates to its end as before.
 * While the event log (which the checks and the charts read) has room, the
 * loop iterates too: the log then holds what iterating gives, and the
 * periods are counted only once iterating would merely count them.
 *
 * TENSORLINT_LOOP_SKIP=0 turns this off (the tests compare reports made
 * both ways); =N takes it for loops with at least N iterations to go
 * (default LP_SKIP_MIN_TRIPS).
 */
#include "an_loop_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define LP_SKIP_MIN_TRIPS 64   /* iterations to go before a loop is watched */
#define LP_SKIP_MAX_PERIOD 512 /* the longest period looked for */
#define LP_SKIP_MAX_MOD (1 << 20)

/* ---- what reads the counter ---- */

typedef struct use_walk {
    const ir_unit *u;
    int var;
    int64_t mod;  /* lcm of the K of `counter % K` */
    int depth;    /* user functions entered */
    bool addr;    /* only look for the counter's address taken */
} use_walk;

static bool block_ok(use_walk *w, const ir_block *b);

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static bool expr_ok(use_walk *w, const ir_expr *e);

static bool place_ok(use_walk *w, const ir_place *p)
{
    if (!p)
        return true;
    if (p->var == w->var && !w->addr)
        return false;
    for (int k = 0; k < p->n_steps; k++)
        if (!expr_ok(w, p->steps[k].index))
            return false;
    return true;
}

static bool ptr_ok(use_walk *w, const ir_ptr *p)
{
    if (!p)
        return true;
    if (p->kind == IR_PTR_ADDR && p->place && p->place->var == w->var)
        return false;
    return place_ok(w, p->place) && expr_ok(w, p->offset) && ptr_ok(w, p->old) &&
           expr_ok(w, p->size);
}

static bool expr_ok(use_walk *w, const ir_expr *e)
{
    if (!e)
        return true;
    if (!w->addr && e->kind == IR_EXPR_BINARY && e->op == IR_OP_REM && e->a->kind == IR_EXPR_VAR &&
        e->a->var == w->var && e->b->kind == IR_EXPR_CONST && e->b->value > 0) {
        int64_t k = e->b->value; /* (v % K): the same every K steps of v */
        w->mod = w->mod / gcd64(w->mod, k) * k;
        return w->mod <= LP_SKIP_MAX_MOD;
    }
    if (e->kind == IR_EXPR_VAR && e->var == w->var && !w->addr)
        return false;
    if (e->kind == IR_EXPR_PLACE && !place_ok(w, e->place))
        return false;
    if (e->kind == IR_EXPR_PTR_CMP && (!ptr_ok(w, e->pa) || !ptr_ok(w, e->pb)))
        return false;
    return expr_ok(w, e->a) && expr_ok(w, e->b) && expr_ok(w, e->c);
}

/* A user function's parameter given the counter: read as the body may. */
static bool param_ok(use_walk *w, int callee, int j)
{
    if (callee < 0) /* not analysed: nothing the analysis follows reads it */
        return true;
    const ir_func *f = w->u->funcs[callee];
    if (j >= f->n_params || w->depth >= 4)
        return false;
    use_walk inner = {w->u, f->params[j], w->mod, w->depth + 1, false};
    if (!block_ok(&inner, f->body))
        return false;
    w->mod = inner.mod;
    return true;
}

static bool user_call_ok(use_walk *w, const ir_stmt *s)
{
    for (int j = 0; j < s->user_call.n_args; j++) {
        const ir_uarg *a = &s->user_call.args[j];
        const ir_expr *e = a->expr;
        if (e && e->kind == IR_EXPR_VAR && e->var == w->var && !w->addr) {
            if (s->user_call.fn || !param_ok(w, s->user_call.callee, j))
                return false;
        } else if (!expr_ok(w, e)) {
            return false;
        }
        if (!ptr_ok(w, a->ptr) || !place_ok(w, a->place))
            return false;
    }
    return s->user_call.result != w->var && ptr_ok(w, s->user_call.fn) &&
           block_ok(w, s->user_call.ext);
}

static bool call_ok(use_walk *w, const ir_stmt *s)
{
    for (int j = 0; j < s->call.n_args; j++) {
        const ir_arg *a = &s->call.args[j];
        for (int k = 0; a->kind == IR_ARG_INTS && k < a->n; k++)
            if (!expr_ok(w, a->exprs[k]))
                return false;
        if (!expr_ok(w, a->expr) || !place_ok(w, a->place))
            return false;
    }
    return true;
}

static bool stmt_ok(use_walk *w, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL:
        return call_ok(w, s);
    case IR_ASSIGN_INT:
        return (s->assign_int.var != w->var || w->addr) && expr_ok(w, s->assign_int.value);
    case IR_BLOCK:
        return block_ok(w, s->block);
    case IR_IF:
        return expr_ok(w, s->branch.cond) && block_ok(w, s->branch.then_blk) &&
               block_ok(w, s->branch.else_blk);
    case IR_LOOP:
        return block_ok(w, s->loop.init) && block_ok(w, s->loop.cond_pre) &&
               expr_ok(w, s->loop.cond) && block_ok(w, s->loop.step) && block_ok(w, s->loop.body);
    case IR_USER_CALL:
        return user_call_ok(w, s);
    case IR_RETURN:
        return expr_ok(w, s->ret.value) && ptr_ok(w, s->ret.ptr) && place_ok(w, s->ret.place);
    case IR_EVAL:
        return expr_ok(w, s->eval.expr);
    case IR_LOAD:
        return place_ok(w, s->load.src);
    case IR_STORE:
        return place_ok(w, s->store.dst) && expr_ok(w, s->store.value) && ptr_ok(w, s->store.ptr);
    case IR_COPY:
        return place_ok(w, s->copy.dst) && place_ok(w, s->copy.src);
    case IR_FILL:
        return place_ok(w, s->fill.dst);
    case IR_UNSUPPORTED: /* not followed: what it does with the counter is not known */
        return w->addr;
    default:
        return true;
    }
}

static bool block_ok(use_walk *w, const ir_block *b)
{
    for (int k = 0; b && k < b->n_stmts; k++)
        if (!stmt_ok(w, b->stmts[k]))
            return false;
    return true;
}

/* ---- integers no size, branch or bound depends on ----
 *
 * A loader's position that steps through a buffer and wraps to its start
 * (`if (l->pos + BT + 1 > l->n) l->pos = 0; ... l->pos += BT;`) takes a
 * value of its own in each iteration of a long cycle, yet nothing the
 * analysis counts reads it: the field is read only to compute what is
 * stored back into that field (a store's value, the condition of an `if`
 * whose arms only store it), and its address is never taken.  Such a
 * field of a struct variable (its key, the field's bit offset, on every
 * path that reads it) may differ from a period to the next; after the
 * skip it is not known. */

#define LP_INERT_MAX 64

typedef struct inert_walk {
    int64_t key[LP_INERT_MAX];
    const char *name[LP_INERT_MAX];
    bool bad[LP_INERT_MAX], stored[LP_INERT_MAX];
    int n;
    bool full;        /* more fields than LP_INERT_MAX: none is taken */
    uint8_t *shape;   /* per variable: 1 a path begins with a field, 2 with anything else */
    an_loop_skip *k;       /* its variables' fields (k->roots) */
} inert_walk;

/* A field by its offset and name (two struct types may share both: they
 * are taken as one, and inert only if both are). */
static int inert_slot(inert_walk *w, int64_t key, const char *name)
{
    name = name ? name : "";
    for (int j = 0; j < w->n; j++)
        if (w->key[j] == key && !strcmp(w->name[j], name))
            return j;
    if (w->n == LP_INERT_MAX) {
        w->full = true;
        return -1;
    }
    w->key[w->n] = key;
    w->name[w->n] = name;
    w->bad[w->n] = w->stored[w->n] = false;
    return w->n++;
}

/* The field key p ends with, or -1. */
static int64_t last_field(const ir_place *p)
{
    return p && p->n_steps && p->steps[p->n_steps - 1].kind == IR_STEP_FIELD
               ? p->steps[p->n_steps - 1].key
               : -1;
}

static const char *last_name(const ir_place *p)
{
    return last_field(p) >= 0 ? p->steps[p->n_steps - 1].name : NULL;
}

static void iw_expr(inert_walk *w, const ir_expr *e, int64_t allowed);

/* Variable var's field at key is named name (its places say). */
static void k_root(inert_walk *w, int var, int64_t key, const char *name)
{
    an_loop_skip *k = w->k;
    for (int j = 0; j < k->n_roots; j++)
        if (k->roots[j].var == var && k->roots[j].key == key)
            return;
    if (k->n_roots == k->cap_roots) {
        k->cap_roots = k->cap_roots ? 2 * k->cap_roots : 64;
        k->roots = tl_xrealloc(k->roots, sizeof *k->roots * (size_t)k->cap_roots);
    }
    k->roots[k->n_roots++] = (an_loop_field){var, key, name ? name : ""};
}

static void iw_place(inert_walk *w, const ir_place *p, bool read, int64_t allowed)
{
    if (!p)
        return;
    if (p->var >= 0)
        w->shape[p->var] |= p->n_steps == 0 ? 0 : p->steps[0].kind == IR_STEP_FIELD ? 1 : 2;
    if (p->var >= 0 && p->n_steps >= 1 && p->steps[0].kind == IR_STEP_FIELD)
        k_root(w, p->var, p->steps[0].key, p->steps[0].name);
    int64_t key = last_field(p);
    int j = key >= 0 ? inert_slot(w, key, last_name(p)) : -1;
    if (j >= 0 && read && key != allowed)
        w->bad[j] = true;
    for (int k = 0; k < p->n_steps; k++)
        iw_expr(w, p->steps[k].index, -1);
}

static void iw_ptr(inert_walk *w, const ir_ptr *p)
{
    if (!p)
        return;
    iw_place(w, p->place, p->kind == IR_PTR_ADDR || p->kind == IR_PTR_LOAD, -1);
    iw_expr(w, p->offset, -1);
    iw_ptr(w, p->old);
    iw_expr(w, p->size, -1);
}

static void iw_expr(inert_walk *w, const ir_expr *e, int64_t allowed)
{
    if (!e)
        return;
    if (e->kind == IR_EXPR_PLACE)
        iw_place(w, e->place, true, allowed);
    if (e->kind == IR_EXPR_PTR_CMP) {
        iw_ptr(w, e->pa);
        iw_ptr(w, e->pb);
    }
    iw_expr(w, e->a, allowed);
    iw_expr(w, e->b, allowed);
    iw_expr(w, e->c, allowed);
}

/* The field every statement of b stores an integer into, or -1. */
static int64_t stores_only(const ir_block *b)
{
    int64_t key = -2;
    for (int k = 0; b && k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        if (s->kind != IR_STORE || s->store.kind != IR_VAR_INT || last_field(s->store.dst) < 0 ||
            (key != -2 && key != last_field(s->store.dst)))
            return -1;
        key = last_field(s->store.dst);
    }
    return key;
}

static void iw_block(inert_walk *w, const ir_block *b);

static void iw_stmt(inert_walk *w, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_STORE: {
        int64_t key = s->store.kind == IR_VAR_INT ? last_field(s->store.dst) : -1;
        int j = key >= 0 ? inert_slot(w, key, last_name(s->store.dst)) : -1;
        if (j >= 0)
            w->stored[j] = true;
        iw_place(w, s->store.dst, false, -1);
        iw_expr(w, s->store.value, key);
        iw_ptr(w, s->store.ptr);
        return;
    }
    case IR_IF: {
        int64_t a = stores_only(s->branch.then_blk), b = stores_only(s->branch.else_blk);
        iw_expr(w, s->branch.cond, a >= 0 && (b == a || b == -2) ? a : -1);
        iw_block(w, s->branch.then_blk);
        iw_block(w, s->branch.else_blk);
        return;
    }
    default:
        break;
    }
    /* everything else reads what it reads for any purpose: as use_walk sees it */
    if (s->kind == IR_BLOCK)
        iw_block(w, s->block);
    else if (s->kind == IR_LOOP) {
        iw_block(w, s->loop.init);
        iw_block(w, s->loop.cond_pre);
        iw_expr(w, s->loop.cond, -1);
        iw_block(w, s->loop.step);
        iw_block(w, s->loop.body);
    } else if (s->kind == IR_CALL) {
        for (int j = 0; j < s->call.n_args; j++) {
            const ir_arg *a = &s->call.args[j];
            for (int k = 0; a->kind == IR_ARG_INTS && k < a->n; k++)
                iw_expr(w, a->exprs[k], -1);
            iw_expr(w, a->expr, -1);
            iw_place(w, a->place, true, -1);
            if (a->place) { /* a tl_ints object's fields n and v are read */
                int jn = inert_slot(w, a->key_n, "n"), jv = inert_slot(w, a->key_v, "v");
                if (jn >= 0)
                    w->bad[jn] = true;
                if (jv >= 0)
                    w->bad[jv] = true;
            }
        }
    } else if (s->kind == IR_USER_CALL) {
        for (int j = 0; j < s->user_call.n_args; j++) {
            iw_expr(w, s->user_call.args[j].expr, -1);
            iw_ptr(w, s->user_call.args[j].ptr);
            iw_place(w, s->user_call.args[j].place, true, -1);
        }
        iw_ptr(w, s->user_call.fn);
        iw_block(w, s->user_call.ext);
    } else if (s->kind == IR_ASSIGN_INT) {
        iw_expr(w, s->assign_int.value, -1);
    } else if (s->kind == IR_RETURN) {
        iw_expr(w, s->ret.value, -1);
        iw_ptr(w, s->ret.ptr);
        iw_place(w, s->ret.place, true, -1);
    } else if (s->kind == IR_EVAL) {
        iw_expr(w, s->eval.expr, -1);
    } else if (s->kind == IR_LOAD) {
        iw_place(w, s->load.src, true, -1);
    } else if (s->kind == IR_COPY) {
        iw_place(w, s->copy.dst, false, -1);
        iw_place(w, s->copy.src, true, -1);
    } else if (s->kind == IR_FILL) {
        iw_place(w, s->fill.dst, false, -1);
    } else if (s->kind == IR_UNSUPPORTED) {
        w->full = true; /* not followed: what it reads is not known */
    }
}

static void iw_block(inert_walk *w, const ir_block *b)
{
    for (int k = 0; b && k < b->n_stmts; k++)
        iw_stmt(w, b->stmts[k]);
}

/* The unit's inert fields (k->inert) and struct variables (k->is_struct). */
static void inert_fields(const ir_unit *u, an_loop_skip *k)
{
    inert_walk *w = tl_xmalloc(sizeof *w);
    memset(w, 0, sizeof *w);
    w->k = k;
    w->shape = tl_xmalloc((size_t)u->n_vars + 1);
    memset(w->shape, 0, (size_t)u->n_vars + 1);
    for (int f = 0; f < u->n_funcs; f++)
        iw_block(w, u->funcs[f]->body);
    k->n_inert = 0;
    for (int j = 0; j < w->n && !w->full; j++)
        if (!w->bad[j] && w->stored[j] && k->n_inert < LP_SKIP_INERT) {
            k->inert_name[k->n_inert] = w->name[j];
            k->inert[k->n_inert++] = w->key[j];
        }
    k->is_struct = w->shape; /* 1: every path from the variable begins with a field */
    free(w);
}

/* ---- the loop: its counter, its step, what is left ---- */

/* `v OP E` with E free of v, the step `v = v + c`: the loop's shape. */
static bool counted(an_ctx *cx, const ir_stmt *s, an_loop_skip *k)
{
    const ir_expr *c = s->loop.cond;
    const ir_block *st = s->loop.step;
    if (s->loop.kind != IR_LOOP_FOR || !c || c->kind != IR_EXPR_BINARY ||
        c->a->kind != IR_EXPR_VAR || (s->loop.cond_pre && s->loop.cond_pre->n_stmts) || !st ||
        st->n_stmts != 1 || st->stmts[0]->kind != IR_ASSIGN_INT)
        return false;
    int v = c->a->var;
    const ir_expr *e = st->stmts[0]->assign_int.value;
    if (st->stmts[0]->assign_int.var != v || cx->u->vars[v].kind != IR_VAR_INT ||
        cx->u->vars[v].wrap_bits || cx->u->vars[v].is_global ||
        /* (any function may read it) */ e->kind != IR_EXPR_BINARY ||
        (e->op != IR_OP_ADD && e->op != IR_OP_SUB) || e->a->kind != IR_EXPR_VAR || e->a->var != v ||
        e->b->kind != IR_EXPR_CONST || e->b->value == 0 || e->b->value > INT32_MAX ||
        e->b->value < -INT32_MAX)
        return false;
    k->step = e->op == IR_OP_ADD ? e->b->value : -e->b->value;
    k->op = c->op;
    k->bound = c->b;
    k->var = v;
    bool up = c->op == IR_OP_LT || c->op == IR_OP_LE, down = c->op == IR_OP_GT || c->op == IR_OP_GE;
    use_walk bw = {cx->u, v, 1, 0, false}, cw = bw;
    if (!(up && k->step > 0) && !(down && k->step < 0))
        return false;
    if (!expr_ok(&cw, c->b) || !block_ok(&bw, s->loop.body))
        return false;
    k->mod = bw.mod;
    use_walk aw = {cx->u, v, 1, 0, true}; /* no pointer to it: every read is seen above */
    return block_ok(&aw, cx->u->funcs[an_top(cx)->func]->body);
}

/* Iterations left, this one included: the test holds for v, v + step ...;
 * -1 when the counter or the bound is not a known number. */
static int64_t trips_left(an_ctx *cx, const an_loop_skip *k)
{
    bool *known;
    int64_t *v = an_int_slot(cx, k->var, &known), e;
    if (!*known || !an_eval(cx, k->bound, &e) || *v > INT32_MAX * INT64_C(4) ||
        *v < -INT32_MAX * INT64_C(4) || e > INT32_MAX * INT64_C(4) || e < -INT32_MAX * INT64_C(4))
        return -1;
    int64_t c = k->step > 0 ? k->step : -k->step, d = k->step > 0 ? e - *v : *v - e;
    if (k->op == IR_OP_LT || k->op == IR_OP_GT)
        return d > 0 ? (d + c - 1) / c : 0;
    return d >= 0 ? d / c + 1 : 0;
}

bool an_loop_skip_begin(an_ctx *cx, const ir_stmt *s, bool host, an_loop_skip *k)
{
    memset(k, 0, sizeof *k);
    k->anchor_n = -1;
    const char *env = getenv("TENSORLINT_LOOP_SKIP");
    int64_t min = env && *env ? strtoll(env, NULL, 10) : LP_SKIP_MIN_TRIPS;
    if (min <= 0 || host || cx->ctl.loop_depth > 1 || cx->ctl.summarising > 0 ||
        cx->ctl.if_depth > 0 || cx->ctl.stopped || !counted(cx, s, k))
        return false;
    int64_t left = trips_left(cx, k);
    k->on = left >= min && left >= 2;
    if (k->on)
        inert_fields(cx->u, k);
    k->gap = 1;
    return k->on;
}

/* ---- the state at the anchor and now ---- */

/* What a period must leave as it was (same) and what it adds to (add). */
static void skip_counts(an_ctx *cx, int64_t *same, int64_t *add)
{
    const an_report *r = cx->r;
    int64_t s[LP_SKIP_N_SAME] = {r->n_values,
                                 r->n_diags,
                                 r->n_alts,
                                 r->n_exits,
                                 r->n_repeats,
                                 r->n_paths,
                                 r->n_summed_loops,
                                 r->n_indirect,
                                 r->n_slayouts,
                                 sx_n_facts(),
                                 sx_n_assumptions(),
                                 sx_n_symbols(),
                                 cx->acct.n_bound_marks,
                                 cx->mem.n_segs,
                                 cx->mem.n_fills,
                                 cx->sym.n_unknown_tokens,
                                 cx->sym.n_names,
                                 cx->ctl.upper_loop,
                                 cx->ctl.upper_func,
                                 cx->ctl.runs_unknown,
                                 cx->ctl.stopped,
                                 cx->acct.live,
                                 cx->acct.arm_peak,
                                 cx->ctl.depth,
                                 cx->acct.live_sx.e,
                                 cx->acct.live_sx.c,
                                 r->n_alt_events};
    int64_t a[LP_SKIP_N_ADD] = {cx->acct.exec_clock, cx->acct.moved_total, cx->acct.sym_events,
                                cx->ctl.n_gotos,     r->n_events_dropped,  r->n_events};
    memcpy(same, s, sizeof s);
    memcpy(add, a, sizeof a);
}

static void anchor_free(an_loop_skip *k)
{
    if (k->anchor_n < 0)
        return;
    an_snap_free(&k->sn);
    free(k->fr0);
    free(k->v0);
    free(k->fs0);
    k->anchor_n = -1;
}

static void anchor_take(an_ctx *cx, an_loop_skip *k, int64_t n)
{
    anchor_free(k);
    an_snap_take(cx, &k->sn);
    k->n_fr = cx->r->n_funcs;
    k->fr0 = an_dup_mem(cx->r->funcs, sizeof *k->fr0 * (size_t)k->n_fr);
    k->n_v0 = cx->r->n_values;
    k->v0 = an_dup_mem(cx->r->values, sizeof *k->v0 * (size_t)k->n_v0);
    k->fs0 = an_dup_mem(cx->acct.fs, sizeof *k->fs0 * (size_t)cx->u->n_funcs);
    bool *known;
    k->counter0 = *an_int_slot(cx, k->var, &known);
    k->n_storages0 = cx->r->n_storages;
    skip_counts(cx, k->same0, k->add0);
    k->anchor_n = n;
    if (!k->starts)
        k->starts = tl_xmalloc(sizeof(int64_t) * 2 * LP_SKIP_MAX_PERIOD);
    k->starts[0] = cx->acct.exec_clock;
}

/* The handles and storages of the anchor's state and of now, one for one. */
typedef struct skip_map {
    an_ctx *cx;
    const snapshot *sn;
    int *hf, *hb, *sf, *sb; /* forth (anchor's to now's) and back; -1: not yet met */
} skip_map;

static bool same_storage(skip_map *m, int a, int b)
{
    if (a < 0 || b < 0)
        return a == b;
    if (a >= m->sn->tens.n_storages)
        return false;
    if (m->sf[a] >= 0 || m->sb[b] >= 0)
        return m->sf[a] == b && m->sb[b] == a;
    m->sf[a] = b;
    m->sb[b] = a;
    const an_storage *x = &m->sn->tens.storages[a], *y = &m->cx->r->storages[b];
    return m->sn->tens.refs[a] == m->cx->tens.refs[b] &&
        m->sn->tens.live_storage[a] == m->cx->tens.live_storage[b] && x->nbytes == y->nbytes &&
        x->device == y->device && x->external == y->external && x->symbolic == y->symbolic &&
        sx_same(x->nbytes_sx, y->nbytes_sx) && x->value == y->value &&
        x->made_nbytes == y->made_nbytes && x->summarised == y->summarised &&
        x->discarded == y->discarded && x->block_bytes == y->block_bytes &&
        x->alloc_bytes == y->alloc_bytes;
}

static bool same_handle(skip_map *m, int a, int b)
{
    if (a < 0 || b < 0)
        return a == b;
    if (a >= m->sn->tens.n_handles)
        return false;
    if (m->hf[a] >= 0 || m->hb[b] >= 0)
        return m->hf[a] == b && m->hb[b] == a;
    m->hf[a] = b;
    m->hb[b] = a;
    const an_handle *x = &m->sn->tens.handles[a], *y = &m->cx->tens.handles[b];
    return x->known == y->known && x->released == y->released && x->poison == y->poison &&
           x->offset_unknown == y->offset_unknown && (!x->known || an_same_layout(&x->l, &y->l)) &&
           x->value == y->value && x->sl == y->sl && x->seg_elem == y->seg_elem &&
           x->seg_place == y->seg_place && x->ident_unsure == y->ident_unsure &&
           same_storage(m, x->storage, y->storage);
}

/* an_mem_map's test of a cell now (mine) against the anchor's (theirs). */
static bool same_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    skip_map *m = ctx;
    if (mine->seg != theirs->seg || mine->place != theirs->place)
        return false;
    if (mine->kind == AN_CELL_PTR)
        return an_cell_same(m->cx, mine, theirs);
    if (mine->kind == AN_CELL_INT)
        return mine->known == theirs->known && mine->i == theirs->i && mine->ptr == theirs->ptr;
    return mine->ptr == theirs->ptr && same_handle(m, theirs->handle, mine->handle);
}

static bool same_frame_vars(skip_map *m, const an_loop_skip *k)
{
    an_ctx *cx = m->cx;
    const snapshot *sn = m->sn;
    for (int d = 0; d < cx->ctl.depth; d++) {
        const an_frame *fr = cx->ctl.stack[d];
        if (fr->func != sn->ctl.frames[d].func || fr->serial != sn->ctl.frames[d].serial)
            return false;
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            int sl = cx->vars.slot[ids[j]];
            if (!same_handle(m, sn->ctl.tensors[d][j], fr->tensor[sl]))
                return false;
            if (ids[j] != k->var &&
                (fr->int_known[sl] != sn->ctl.known[d][j] || fr->ints[sl] != sn->ctl.ints[d][j]))
                return false;
        }
    }
    for (int g = 0; g < cx->vars.n_globals; g++)
        if (!same_handle(m, sn->ctl.g_tensor[g], cx->ctl.gframe->tensor[g]) ||
            (cx->vars.global_vars[g] != k->var &&
             (cx->ctl.gframe->int_known[g] != sn->ctl.g_known[g] ||
              cx->ctl.gframe->ints[g] != sn->ctl.g_ints[g])))
            return false;
    return true;
}

/* An integer field of a struct variable that only its own stores read. */
static bool inert_loc(const an_loop_skip *k, const an_loc *l)
{
    if (l->n != 1 || l->frame < 0 || l->var < 0 || !k->is_struct || k->is_struct[l->var] != 1)
        return false;
    const char *name = NULL;
    for (int j = 0; j < k->n_roots && !name; j++)
        if (k->roots[j].var == l->var && k->roots[j].key == l->key[0])
            name = k->roots[j].name;
    for (int j = 0; name && j < k->n_inert; j++)
        if (k->inert[j] == l->key[0] && !strcmp(k->inert_name[j], name))
            return true;
    return false;
}

/* Every memory cell now against the anchor's: the same, or an inert field. */
static bool same_mem(skip_map *m, an_loop_skip *k)
{
    const an_mem *now = &m->cx->mem.cells, *then = &m->sn->mem;
    int live = 0, live_then = 0;
    k->inert_moved = false;
    for (int j = 0; j < now->n; j++) {
        an_entry *e = &now->e[j];
        if (e->loc.frame == INT_MIN) /* (removed) */
            continue;
        live++;
        int t = an_mem_find(then, &e->loc);
        if (t < 0 || then->e[t].cell.kind != e->cell.kind)
            return false;
        const an_cell *c = &then->e[t].cell;
        bool ok = e->cell.kind == AN_CELL_INT || e->cell.kind == AN_CELL_TENSOR ||
                          e->cell.kind == AN_CELL_PTR
                      ? same_cell(m, &e->cell, c)
                      : an_cell_same(m->cx, &e->cell, c);
        if (!ok && e->cell.kind == AN_CELL_INT && e->cell.known && c->known && !e->cell.seg &&
            !c->seg && inert_loc(k, &e->loc))
            ok = k->inert_moved = true;
        if (!ok)
            return false;
    }
    for (int j = 0; j < then->n; j++)
        live_then += then->e[j].loc.frame != INT_MIN;
    return live == live_then;
}

static bool same_state(an_ctx *cx, an_loop_skip *k)
{
    const snapshot *sn = &k->sn;
    skip_map m = {cx, sn, tl_xmalloc(sizeof(int) * (size_t)(sn->tens.n_handles + 1)),
                  tl_xmalloc(sizeof(int) * (size_t)(cx->tens.n_handles + 1)),
                  tl_xmalloc(sizeof(int) * (size_t)(sn->tens.n_storages + 1)),
                  tl_xmalloc(sizeof(int) * (size_t)(cx->r->n_storages + 1))};
    memset(m.hf, -1, sizeof(int) * (size_t)(sn->tens.n_handles + 1));
    memset(m.hb, -1, sizeof(int) * (size_t)(cx->tens.n_handles + 1));
    memset(m.sf, -1, sizeof(int) * (size_t)(sn->tens.n_storages + 1));
    memset(m.sb, -1, sizeof(int) * (size_t)(cx->r->n_storages + 1));
    bool ok = same_frame_vars(&m, k) && same_mem(&m, k);
    free(m.hf);
    free(m.hb);
    free(m.sf);
    free(m.sb);
    return ok;
}

/* Every function's totals but the ones a period adds to, as they were. */
static bool same_reports(const an_ctx *cx, const an_loop_skip *k)
{
    for (int f = 0; f < k->n_fr; f++) {
        const an_func_report *x = &k->fr0[f], *y = &cx->r->funcs[f];
        if (x->peak_live_bytes != y->peak_live_bytes || x->peak_line != y->peak_line ||
            x->n_peak_storages != y->n_peak_storages || x->end_live_bytes != y->end_live_bytes ||
            memcmp(x->claim, y->claim, sizeof x->claim) || x->sizes_unknown != y->sizes_unknown ||
            x->executed != y->executed || x->symbolic != y->symbolic || x->symbolic ||
            x->cuda_allocated_peak != y->cuda_allocated_peak ||
            x->cuda_reserved_peak != y->cuda_reserved_peak ||
            x->cuda_reserved_end != y->cuda_reserved_end || x->n_peak_cands != y->n_peak_cands)
            return false;
    }
    for (int f = 0; f < cx->u->n_funcs; f++)
        if (k->fs0[f].active != cx->acct.fs[f].active ||
            k->fs0[f].done_first != cx->acct.fs[f].done_first ||
            k->fs0[f].peak_dirty != cx->acct.fs[f].peak_dirty)
            return false;
    return true;
}

/* Every call site's first execution and the marks of its count, as they were. */
static bool same_values(const an_ctx *cx, const an_loop_skip *k)
{
    for (int v = 0; v < k->n_v0; v++) {
        const an_value *x = &k->v0[v], *y = &cx->r->values[v];
        if (x->executed != y->executed || x->known != y->known || x->error != y->error ||
            x->storage != y->storage || x->view_of != y->view_of || x->sl != y->sl ||
            x->summarised != y->summarised || !sx_same(x->runs_sx, y->runs_sx) ||
            x->runs_at_most != y->runs_at_most || x->runs_unknown != y->runs_unknown ||
            x->runs_root != y->runs_root || x->runs_roots != y->runs_roots ||
            x->bytes_moved != y->bytes_moved || x->reason != y->reason)
            return false;
    }
    for (int s = k->n_storages0; s < cx->r->n_storages; s++)
        if (cx->r->storages[s].device != TL_CPU) /* (the caching allocator is not compared) */
            return false;
    return true;
}

/* ---- skipping whole periods ---- */

static bool mul_add(int64_t *x, int64_t k, int64_t d)
{
    int64_t p;
    return !__builtin_mul_overflow(k, d, &p) && !__builtin_add_overflow(*x, p, x);
}

/* The period [anchor, now) is found: what it adds to each count. */
static void period_found(an_ctx *cx, an_loop_skip *k, int64_t n)
{
    int64_t same[LP_SKIP_N_SAME], add[LP_SKIP_N_ADD];
    skip_counts(cx, same, add);
    for (int j = 0; j < LP_SKIP_N_ADD; j++)
        k->dadd[j] = add[j] - k->add0[j];
    k->dfr = tl_xmalloc(sizeof(int64_t) * 2 * (size_t)(k->n_fr + 1));
    for (int f = 0; f < k->n_fr; f++) {
        k->dfr[2 * f] = cx->r->funcs[f].moved_bytes - k->fr0[f].moved_bytes;
        k->dfr[2 * f + 1] = cx->r->funcs[f].n_calls - k->fr0[f].n_calls;
    }
    k->dv = tl_xmalloc(sizeof(int64_t) * (size_t)(k->n_v0 + 1));
    for (int v = 0; v < k->n_v0; v++)
        k->dv[v] = cx->r->values[v].n_exec - k->v0[v].n_exec;
    k->period = n - k->anchor_n;
}

/* Periods more of every count; the last period's events are from `from`
 * on, its executions after clock `clock`. */
static bool skip_add(an_ctx *cx, const an_loop_skip *k, int64_t periods, int64_t clock)
{
    an_report *r = cx->r;
    bool ok = true;
    for (int f = 0; f < k->n_fr; f++)
        ok = ok && mul_add(&r->funcs[f].moved_bytes, periods, k->dfr[2 * f]) &&
             mul_add(&r->funcs[f].n_calls, periods, k->dfr[2 * f + 1]);
    for (int v = 0; v < k->n_v0; v++) {
        an_value *x = &r->values[v];
        ok = ok && mul_add(&x->n_exec, periods, k->dv[v]);
        if (x->runs_stamp > clock) /* ran in the last period: its last run is periods later */
            ok = ok && mul_add(&x->runs_stamp, periods, k->dadd[0]);
    }
    return ok && mul_add(&cx->acct.exec_clock, periods, k->dadd[0]) &&
           mul_add(&cx->acct.moved_total, periods, k->dadd[1]) &&
           mul_add(&cx->acct.sym_events, periods, k->dadd[2]) &&
           mul_add(&cx->ctl.n_gotos, periods, k->dadd[3]);
}

/* Once the iterations left are whole periods and the event log is full:
 * skip them all, the loop is done (true).  The log then holds what it holds
 * after iterating, and verify compares the run with it as with any log
 * whose later events were dropped. */
static bool skip_rest(an_ctx *cx, an_loop_skip *k, int64_t *n)
{
    bool *known;
    int64_t *v = an_int_slot(cx, k->var, &known), left = trips_left(cx, k), P = k->period;
    if (left < 0 || *n + left > cx->opt.max_iterations) { /* it stops there, as before */
        k->on = false;
        return false;
    }
    an_report *r = cx->r;
    int64_t events = k->dadd[4] + k->dadd[5], total; /* a period's, logged or dropped */
    if (left % P != 0 || __builtin_mul_overflow(left / P, events, &total))
        return false;
    /* while the event log the checks and the charts read has room, iterate:
     * what it holds is then what iterating gives, every call drawn where the
     * charts draw them; once it is full, iterating only counts */
    if (cx->out.log_events && r->n_events < cx->opt.max_events && total > 0)
        return false;
    int64_t last = *v + (left - 1) * k->step, at = *n - P - k->anchor_n;
    if ((k->mod > 1 && (*v < 0 || last < 0)) || at < 0) { /* (C's % of a negative) */
        k->on = false;
        return false;
    }
    if (!skip_add(cx, k, left / P, k->starts[at]))
        tl_out_of_memory(0); /* (counts past int64_t: not reachable with int counters) */
    if (cx->out.log_events) /* (full: as a run of every iteration drops them) */
        r->n_events_dropped += total;
    for (int j = 0; k->inert_moved && j < cx->mem.cells.n; j++) { /* where they stop: not known */
        an_entry *e = &cx->mem.cells.e[j];
        if (e->loc.frame != INT_MIN && e->cell.kind == AN_CELL_INT && inert_loc(k, &e->loc)) {
            e->cell.known = false;
            e->cell.i = 0;
        }
    }
    *v += left * k->step;
    *n += left;
    k->on = false;
    return true;
}

/* The state now against the anchor's; a new anchor at 1, 2, 4 ... */
static void look_for_period(an_ctx *cx, an_loop_skip *k, int64_t n)
{
    if (k->anchor_n >= 0 && n > k->anchor_n) {
        int64_t same[LP_SKIP_N_SAME], add[LP_SKIP_N_ADD];
        skip_counts(cx, same, add);
        bool *known;
        int64_t move = *an_int_slot(cx, k->var, &known) - k->counter0;
        if (!memcmp(same, k->same0, sizeof same) && move == (n - k->anchor_n) * k->step &&
            move % k->mod == 0 && same_reports(cx, k) && same_values(cx, k) &&
            same_state(cx, k)) {
            period_found(cx, k, n);
            return;
        }
    }
    if (k->anchor_n < 0 || n - k->anchor_n >= k->gap) {
        if (k->anchor_n >= 0)
            k->gap *= 2;
        if (k->gap > LP_SKIP_MAX_PERIOD) {
            k->on = false;
            return;
        }
        anchor_take(cx, k, n);
    }
}

bool an_loop_skip_iteration(an_ctx *cx, an_loop_skip *k, int64_t *n)
{
    if (!k->on)
        return false;
    if (k->anchor_n >= 0 && *n - k->anchor_n < 2 * LP_SKIP_MAX_PERIOD)
        k->starts[*n - k->anchor_n] = cx->acct.exec_clock; /* when iteration n begins */
    if (k->period == 0)
        look_for_period(cx, k, *n);
    return k->on && k->period > 0 && skip_rest(cx, k, n);
}

void an_loop_skip_end(an_loop_skip *k)
{
    anchor_free(k);
    free(k->dfr);
    free(k->dv);
    free(k->starts);
    free(k->is_struct);
    free(k->roots);
    k->dfr = k->dv = k->starts = NULL;
    k->is_struct = NULL;
    k->roots = NULL;
    k->on = false;
}
