/*
 * an_loop.c: loops.  A loop whose condition is known runs iteration by
 * iteration (capped by max_iterations); one counted up or down to a bound
 * that is a formula is summarised (steady: the same effect every
 * iteration; growing: a state that is a formula in the counter, proved by
 * induction, arrays filled or emptied as segments); anything else runs its
 * body once, with a note that says why.  docs/symbolic.md describes it.
 */
#include "an_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- loops ---- */

/* 1: run the body, 0: leave, -1: unknown. */
static int loop_test(an_ctx *cx, const ir_stmt *s)
{
    int64_t c;
    an_exec_block(cx, s->loop.cond_pre);
    if (!s->loop.cond)
        return 1;
    return an_eval(cx, s->loop.cond, &c) ? c != 0 : -1;
}

static an_flow loop_body(an_ctx *cx, const ir_stmt *s, bool *leave)
{
    an_flow fl = an_exec_block(cx, s->loop.body);
    *leave = fl == AN_FLOW_BREAK || fl == AN_FLOW_RETURN || fl == AN_FLOW_STOP ||
             fl == AN_FLOW_GOTO || fl == AN_FLOW_EXIT;
    if (fl == AN_FLOW_RETURN || fl == AN_FLOW_STOP || fl == AN_FLOW_GOTO || fl == AN_FLOW_EXIT)
        return fl;
    if (!*leave)
        an_exec_block(cx, s->loop.step);
    return AN_FLOW_NEXT;
}

/* ---- loops whose trip count is a symbol ----
 *
 * `for (l = 0; l < p->n_layers; l++)` runs T = n_layers times, T a symbol.
 * The loop is summarised, not unrolled: iteration 1 runs as any iteration
 * does; then two probe iterations run with the counter a fresh symbol each
 * (the facts 1 <= l < T hold while they run), so that nothing in them can
 * depend on which iteration it is without showing.  When both probes have
 * the same effect (the same bytes moved and calls made, live bytes back to
 * where iteration 1 left them, every variable and memory cell with the same
 * layout or value, or a value that grows by the same step), iterations 2..T
 * are that effect T - 1 times: the totals get formulas in T, counters their
 * final values.  Anything else (a probe that makes a total a bound, records
 * an assumption, grows the live bytes, or depends on the counter) undoes
 * the trial and the loop is analysed as one with an unknown trip count. */

/* Bytes moved and calls made so far by function report k, as sx_ints. */
static void fr_effect(const an_func_report *fr, sx_int *moved, sx_int *calls)
{
    moved[0] = sx_add(fr->moved_sx, (sx_int){fr->moved_bytes, 0});
    calls[0] = sx_add(fr->calls_sx, (sx_int){fr->n_calls, 0});
}

static bool mentions(sx_int a, uint32_t sym_a, uint32_t sym_b)
{
    if (a.e == 0)
        return false;
    if (a.e == SX_TOO_BIG)
        return true;
    return sx_depends_on(a, (sx_int){0, sym_a}) || sx_depends_on(a, (sx_int){0, sym_b});
}

/* Handle a as the snapshot `then` held it and handle b now stand for tensors
 * of one layout (known or symbolic). */
typedef struct steady_ctx {
    an_ctx *cx;
    const snapshot *then;
} steady_ctx;

static bool steady_handles(void *ctx, int a, int b)
{
    const steady_ctx *sc = ctx;
    an_ctx *cx = sc->cx;
    if (a < 0 || b < 0 || a >= sc->then->n_handles)
        return a == b;
    const an_handle *x = &sc->then->handles[a], *y = &cx->handles[b];
    if (x->released != y->released)
        return false;
    if (x->released)
        return true; /* dead: its layout no longer matters */
    if (x->known != y->known)
        return false;
    if (x->known)
        return an_same_layout(&x->l, &y->l) && x->offset_unknown == y->offset_unknown;
    if (x->sl == 0 || y->sl == 0)
        return x->sl == y->sl && a == b;
    const an_slayout *p = &cx->r->slayouts[x->sl - 1], *q = &cx->r->slayouts[y->sl - 1];
    if (p->ndim != q->ndim || p->dtype != q->dtype || p->device != q->device ||
        p->offset.e != q->offset.e || p->offset.c != q->offset.c)
        return false;
    for (int d = 0; d < p->ndim; d++)
        if (p->shape[d].e != q->shape[d].e || p->shape[d].c != q->shape[d].c ||
            p->strides[d].e != q->strides[d].e || p->strides[d].c != q->strides[d].c)
            return false;
    return true;
}

/* A memory cell now and as `then` held it: the same integer, the same
 * segment, or handles of one layout. */
static bool steady_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    if (mine->kind == AN_CELL_PTR)
        return an_cell_same(((const steady_ctx *)ctx)->cx, mine, theirs);
    if (mine->seg || theirs->seg) /* the same run of elements, the same bounds */
        return mine->seg == theirs->seg && mine->ptr == theirs->ptr &&
               (mine->kind == AN_CELL_INT ? mine->known == theirs->known && mine->i == theirs->i
                                          : mine->handle == theirs->handle);
    if (mine->kind == AN_CELL_INT)
        return mine->known == theirs->known && mine->i == theirs->i;
    return steady_handles(ctx, theirs->handle, mine->handle);
}

static sx_int live_total(int64_t live, sx_int live_sx) { return sx_add(live_sx, (sx_int){live, 0}); }

/* A temporary that borrowed a handle a place holds, for the one statement
 * that used it: what it holds after that is no part of the state. */
static bool borrowed(const an_ctx *cx, int var) { return cx->u->vars[var].is_borrow; }

/* One integer slot across the trial: s1 after iteration 1, a after the
 * first probe, c (updated) after the second.  An integer that steps by d
 * per iteration gets its final value v1 + (trips - 1)*d (or v0 + trips*d
 * from its value before the loop, k0/v0 when given), one that depends on
 * the counter becomes unknown. */
static void steady_int(sx_int trips, uint32_t la, uint32_t lb, const bool *k0, const int64_t *v0,
                       bool k1, int64_t v1, bool ka, int64_t va, bool *kc, int64_t *vc)
{
    sx_int x0, x1, xa, xc;
    if (ka == *kc && va == *vc)
        return;
    if (an_int_get(k1, v1, &x1) && an_int_get(ka, va, &xa) && an_int_get(*kc, *vc, &xc)) {
        sx_int d1 = sx_sub(xa, x1), d2 = sx_sub(xc, xa);
        if (sx_same(d1, d2) && !mentions(d1, la, lb) && !mentions(x1, la, lb)) {
            /* k0, v0: the value before the loop, when iteration 1 (a first
             * chunk, min(s, n) long) stepped it as the others do (stepped loops) */
            if (k0 && an_int_get(*k0, *v0, &x0) &&
                sx_same(sx_refine(sx_sub(x1, x0)), sx_refine(d1)))
                an_int_put(true, sx_add(x0, sx_mul(trips, d1)), kc, vc);
            else
                an_int_put(true, sx_add(x1, sx_mul(sx_sub(trips, (sx_int){1, 0}), d1)), kc, vc);
            return;
        }
    }
    *kc = false; /* depends on the iteration: unknown after the loop */
    *vc = 0;
}

/* The state now (after the second probe) against a (after the first) and
 * s1 (after iteration 1): handles of one layout; integers equal, stepping
 * or made unknown.  *first_differs: iteration 1 left another layout. */
static bool steady_state(an_ctx *cx, const snapshot *s0, const snapshot *s1, const snapshot *a,
                         sx_int trips, uint32_t la, uint32_t lb, int counter, bool *first_differs)
{
    if (cx->depth != a->depth || cx->depth != s1->depth || (s0 && s0->depth != cx->depth))
        return false;
    *first_differs = false;
    steady_ctx at_a = {cx, a}, at_s1 = {cx, s1};
    for (int k = 0; k < cx->depth; k++) {
        an_frame *fr = cx->stack[k];
        const int *ids = cx->func_vars[fr->func];
        for (int j = 0; j < cx->n_func_vars[fr->func]; j++) {
            int sl = cx->slot[ids[j]];
            if (borrowed(cx, ids[j]))
                continue;
            if (!steady_handles(&at_a, a->tensors[k][j], fr->tensor[sl]))
                return false;
            if (!steady_handles(&at_s1, s1->tensors[k][j], fr->tensor[sl]))
                *first_differs = true;
            if (ids[j] != counter)
                steady_int(trips, la, lb, s0 ? &s0->known[k][j] : NULL,
                           s0 ? &s0->ints[k][j] : NULL, s1->known[k][j], s1->ints[k][j],
                           a->known[k][j], a->ints[k][j], &fr->int_known[sl], &fr->ints[sl]);
        }
    }
    for (int g = 0; g < cx->n_globals; g++) {
        if (!steady_handles(&at_a, a->g_tensor[g], cx->gframe->tensor[g]))
            return false;
        if (!steady_handles(&at_s1, s1->g_tensor[g], cx->gframe->tensor[g]))
            *first_differs = true;
        if (cx->global_vars[g] != counter)
            steady_int(trips, la, lb, s0 ? &s0->g_known[g] : NULL, s0 ? &s0->g_ints[g] : NULL,
                       s1->g_known[g], s1->g_ints[g], a->g_known[g], a->g_ints[g],
                       &cx->gframe->int_known[g], &cx->gframe->ints[g]);
    }
    return an_mem_map(cx, &a->mem, steady_cell, &at_a);
}

/* `v < E`, `v <= E` (counting up), `v > E`, `v >= E` (counting down), or
 * the same with the sides swapped, on an integer variable v whose trip
 * count is a formula: *var, *v0 (its value now), *trips, *dir (+1 or -1:
 * the probes check that the body steps it so). */
static bool counted_loop(an_ctx *cx, const ir_stmt *s, int *var, sx_int *v0, sx_int *trips,
                         int *dir)
{
    const ir_expr *c = s->loop.cond;
    if (!c || c->kind != IR_EXPR_BINARY || s->loop.kind == IR_LOOP_DO)
        return false;
    const ir_expr *v = c->a, *e = c->b;
    ir_op op = c->op;
    static const ir_op swapped[] = {[IR_OP_LT] = IR_OP_GT, [IR_OP_LE] = IR_OP_GE,
                                    [IR_OP_GT] = IR_OP_LT, [IR_OP_GE] = IR_OP_LE};
    if (op != IR_OP_LT && op != IR_OP_LE && op != IR_OP_GT && op != IR_OP_GE)
        return false;
    if (v->kind != IR_EXPR_VAR) {
        v = c->b;
        e = c->a;
        op = swapped[op];
    }
    if (v->kind != IR_EXPR_VAR || cx->u->vars[v->var].kind != IR_VAR_INT)
        return false;
    sx_int end;
    if (!an_eval_sx(cx, v, v0) || !an_eval_sx(cx, e, &end))
        return false;
    *dir = op == IR_OP_LT || op == IR_OP_LE ? 1 : -1;
    *trips = *dir > 0 ? sx_sub(end, *v0) : sx_sub(*v0, end);
    if (op == IR_OP_LE || op == IR_OP_GE)
        *trips = sx_add(*trips, (sx_int){1, 0});
    *var = v->var;
    return trips->e != 0 && trips->e != SX_TOO_BIG;
}

typedef struct loop_trial {
    snapshot s0;        /* before iteration 1, to undo */
    an_fr_saved *r0;
    an_value *values0;  /* the values (their first executions and counts), to undo */
    int n_diags, n_assumptions, n_facts, n_values, n_storages, n_exits, n_paths;
    int64_t n_events, n_handles;
} loop_trial;

/* Begin a trial from the state now; trial_undo or trial_keep ends it. */
static void trial_begin(an_ctx *cx, loop_trial *t)
{
    *t = (loop_trial){.n_diags = cx->r->n_diags, .n_assumptions = sx_n_assumptions(),
                      .n_facts = sx_n_facts(), .n_values = cx->r->n_values,
                      .n_storages = cx->r->n_storages, .n_events = cx->r->n_events,
                      .n_handles = cx->n_handles, .n_exits = cx->r->n_exits,
                      .n_paths = cx->r->n_paths};
    an_snap_take(cx, &t->s0);
    t->r0 = an_frs_save(cx);
    t->values0 = an_dup_mem(cx->r->values, sizeof *cx->r->values * (size_t)cx->r->n_values);
}

static void trial_keep(an_ctx *cx, loop_trial *t)
{
    an_snap_free(&t->s0);
    an_frs_free(cx, t->r0);
    free(t->values0);
}

/* The values as they were when the trial began: the call sites its
 * iterations ran have run no more times than before it, and one it ran
 * first has not run (the reason it recorded is freed). */
static void values_restore(an_ctx *cx, an_value *saved, int n)
{
    an_value *v = cx->r->values;
    for (int k = 0; k < n; k++)
        if (v[k].reason != saved[k].reason)
            free(v[k].reason);
    an_put_mem(v, saved, sizeof *v * (size_t)n);
    free(saved);
}

/* Undo a trial: the state, the totals, and whatever it added to the report. */
static void trial_undo(an_ctx *cx, loop_trial *t)
{
    an_report *r = cx->r;
    an_snap_restore(cx, &t->s0);
    an_snap_free(&t->s0);
    an_frs_restore(cx, t->r0);
    while (r->n_diags > t->n_diags)
        an_diag_free(&r->diags[--r->n_diags]);
    if (r->n_exits > t->n_exits) /* (the dropped events below would leave some at their start) */
        r->n_exits = t->n_exits;
    while (r->n_paths > t->n_paths) {
        r->n_paths--;
        free(r->paths[r->n_paths].condition);
        free(r->paths[r->n_paths].leave);
    }
    an_drop_events(cx, t->n_events, r->n_events);
    for (int k = 0; k < cx->u->n_call_sites; k++)
        if (cx->site_value[k] >= t->n_values)
            cx->site_value[k] = -1;
    while (r->n_values > t->n_values)
        free(r->values[--r->n_values].reason);
    values_restore(cx, t->values0, t->n_values);
    r->n_storages = t->n_storages;
    cx->n_handles = t->n_handles;
    sx_forget_assumptions(t->n_assumptions);
    sx_forget_facts(t->n_facts);
}

/* The counter's facts while a probe runs: 1 <= l - v0 < trips.  Returns
 * the mark to forget them at. */
static int counter_facts(sx_int l, sx_int lo, sx_int hi)
{
    int facts = sx_n_facts();
    sx_fact_push(sx_sub(l, lo));
    sx_fact_push(sx_sub(hi, l));
    return facts;
}

static sx_int counter_symbol(an_ctx *cx, const ir_stmt *s, int var, sx_int v0, int dir)
{
    /* what nothing decides is decided as in an early iteration */
    return sx_symbol_near(cx->u->vars[var].name, "loop", s->loc.line, s->loc.col,
                          sx_add(v0, (sx_int){dir, 0}));
}

/* Run the body once with the counter l: it must end at l + step. */
static bool probe_body(an_ctx *cx, const ir_stmt *s, int var, sx_int l, sx_int step)
{
    bool *known;
    int64_t *slot = an_int_slot(cx, var, &known);
    an_int_put(true, l, known, slot);
    bool leave;
    an_flow fl = loop_body(cx, s, &leave);
    sx_int after;
    slot = an_int_slot(cx, var, &known);
    return fl == AN_FLOW_NEXT && !leave && !cx->stopped &&
           an_int_get(*known, *slot, &after) && sx_same(after, sx_add(l, step));
}

/* Run the body once with the counter a fresh symbol l, one of the values
 * it takes in iterations 2..trips (lo <= l <= hi). */
static bool probe(an_ctx *cx, const ir_stmt *s, int var, sx_int v0, int dir, sx_int lo, sx_int hi,
                  uint32_t *sym)
{
    sx_int l = counter_symbol(cx, s, var, v0, dir);
    *sym = l.e;
    int facts = counter_facts(l, lo, hi);
    bool ok = probe_body(cx, s, var, l, (sx_int){dir, 0});
    sx_forget_facts(facts);
    return ok;
}

/* A function's peak candidates after the probes, for the whole loop. */
typedef struct loop_peak {
    bool changed;
    int n;
    sx_int cand[8];
    int line[8];
    sx_int peak;
} loop_peak;

/* The candidates of fr with the probes' counters a (first) and b (second)
 * resolved: one of the first probe is the second's, renamed; one of the
 * second that grows as the counter goes (coefficients of dir's sign) is
 * largest at the last iteration, whose counter is `last`.  False when some
 * candidate is neither. */
static bool loop_peaks(const an_func_report *fr, sx_int a, sx_int b, sx_int last, int dir,
                       loop_peak *out)
{
    out->changed = false;
    out->n = 0;
    for (int c = 0; c < fr->n_peak_cands; c++) {
        sx_int x = fr->peak_cand[c];
        if (sx_depends_on(x, a)) {
            sx_int renamed = sx_subst(x, a, b);
            bool found = false;
            for (int d = 0; d < fr->n_peak_cands && !found; d++)
                found = sx_same(renamed, fr->peak_cand[d]);
            if (!found)
                return false;
            out->changed = true;
            continue;
        }
        if (sx_depends_on(x, b)) {
            sx_int c1, c2;
            bool ge1, ge2;
            sx_rel grows = dir > 0 ? SX_GE : SX_LE;
            if (!sx_poly_coeffs(x, b, &c1, &c2) || !sx_prove(c1, grows, (sx_int){0, 0}, &ge1) ||
                !ge1 || !sx_prove(c2, grows, (sx_int){0, 0}, &ge2) || !ge2)
                return false;
            x = sx_subst(x, b, last);
            out->changed = true;
        }
        out->cand[out->n] = x;
        out->line[out->n++] = fr->peak_cand_line[c];
    }
    if (!out->changed)
        return !sx_depends_on(fr->peak_sx, a) && !sx_depends_on(fr->peak_sx, b);
    int kept = 0; /* drop the candidates another one covers */
    for (int c = 0; c < out->n; c++) {
        bool covered = false;
        for (int d = 0; d < out->n && !covered; d++) {
            bool ge;
            covered = d != c && sx_prove(out->cand[d], SX_GE, out->cand[c], &ge) && ge &&
                      (!sx_same(out->cand[d], out->cand[c]) || d < c);
        }
        if (!covered) {
            out->cand[kept] = out->cand[c];
            out->line[kept++] = out->line[c];
        }
    }
    out->n = kept;
    out->peak = sx_max_of(out->cand, kept);
    return kept > 0;
}

static bool holds(int64_t c, const char *op)
{
    switch (op[0]) {
    case '<': return op[1] ? c <= 0 : c < 0;
    case '>': return op[1] ? c >= 0 : c > 0;
    default: return c == 0;
    }
}

/* The assumptions the probes recorded (from index `from` on), made to hold
 * for every iteration lo..hi: one of the first probe's counter a is the
 * second's renamed; one linear in the second's counter b holds for the
 * range when it holds at both ends.  False when some assumption is neither. */
static bool loop_assumptions(int from, sx_int a, sx_int b, sx_int lo, sx_int hi, int line)
{
    int total = sx_n_assumptions(), n = 0;
    if (total == from)
        return true;
    sx_int *d = tl_xmalloc(sizeof *d * 2 * (size_t)(total - from));
    const char **op = tl_xmalloc(sizeof *op * 2 * (size_t)(total - from));
    bool ok = true;
    for (int i = from; i < total && ok; i++) {
        sx_int x, y;
        const char *o, *oy;
        sx_assumption_get(i, &x, &o);
        if (sx_depends_on(x, a)) {
            sx_int renamed = sx_subst(x, a, b);
            ok = false;
            for (int j = from; j < total && !ok; j++) {
                sx_assumption_get(j, &y, &oy);
                ok = sx_same(renamed, y) && strcmp(o, oy) == 0;
            }
            continue;
        }
        if (!sx_depends_on(x, b)) {
            d[n] = x;
            op[n++] = o;
            continue;
        }
        sx_int c1, c2, ends[2] = {sx_subst(x, b, lo), sx_subst(x, b, hi)};
        if (!sx_poly_coeffs(x, b, &c1, &c2) || !sx_same(c2, (sx_int){0, 0})) {
            ok = false;
            continue;
        }
        if (o[0] == '=') /* c0 + c1*b == 0 throughout: c1 == 0 and c0 + c1*lo == 0 */
            ends[1] = c1;
        for (int e = 0; e < 2 && ok; e++) {
            if (ends[e].e == 0) {
                ok = holds(ends[e].c, o);
            } else {
                d[n] = ends[e];
                op[n++] = o;
            }
        }
    }
    if (ok) {
        sx_forget_assumptions(from);
        sx_set_site(line);
        for (int i = 0; i < n && ok; i++) { /* what the sizes decide needs no assumption */
            static const char *const rel_ops[] = {"==", "!=", "<", "<=", ">", ">="};
            int rel = 0;
            while (rel < 6 && strcmp(rel_ops[rel], op[i]) != 0)
                rel++;
            bool r;
            if (rel < 6 && sx_prove(d[i], (sx_rel)rel, (sx_int){0, 0}, &r))
                ok = r;
            else
                sx_assume(d[i], op[i]);
        }
    }
    free(d);
    free(op);
    return ok;
}

/* Bytes moved dm and calls dc more in function report fr's totals. */
static void add_effect(an_func_report *fr, sx_int dm, sx_int dc)
{
    if (dm.e || dm.c || dc.e || dc.c) {
        an_fr_symbolic(fr); /* (its peak so far stays a candidate of the peak) */
        fr->moved_sx = sx_add(fr->moved_sx, dm);
        fr->calls_sx = sx_add(fr->calls_sx, dc);
    }
}

/* The summary's totals: iterations 2..trips are the sums (less the two
 * probes counted already) and the peaks at the last iteration where they
 * grow.  A peak the probes raised must also hold for one trip (checked
 * where the trip count is one atom), or it is assumed the loop runs twice. */
static void commit_totals(an_ctx *cx, sx_int trips, const sx_int *sum, const loop_peak *pk,
                          const sx_int *peak1, bool first_differs)
{
    bool peak_moved = false;
    for (int k = 0; k < cx->r->n_funcs; k++) {
        an_func_report *fr = &cx->r->funcs[k];
        add_effect(fr, sum[2 * k], sum[2 * k + 1]);
        if (pk[k].changed) {
            fr->n_peak_cands = pk[k].n;
            memcpy(fr->peak_cand, pk[k].cand, sizeof pk[k].cand);
            memcpy(fr->peak_cand_line, pk[k].line, sizeof pk[k].line);
            fr->peak_sx = pk[k].peak;
        }
        sx_int now = fr->symbolic ? fr->peak_sx : (sx_int){fr->peak_live_bytes, 0};
        bool ge;
        sx_int at1 = sx_subst(now, trips, (sx_int){1, 0});
        if (!sx_same(peak1[k], now) &&
            !(sx_depends_on(now, trips) && sx_prove(peak1[k], SX_GE, at1, &ge) && ge))
            peak_moved = true;
    }
    if (first_differs || peak_moved)
        (void)sx_cmp(trips, SX_GE, (sx_int){2, 0});
}

/* What summarising one loop keeps between its phases. */
typedef struct loop_sum {
    const ir_stmt *s;
    int var;                /* the counter */
    int dir;                /* +1: it counts up; -1: down */
    sx_int v0, trips;       /* its first value, the trip count */
    sx_int lo, hi;          /* the counter's values in iterations 2..trips */
    int n;                  /* function reports */
    snapshot s1, a;         /* after iteration 1, after the first probe */
    uint32_t la, lb;        /* the probes' counters */
    int n_storages1, assumptions1;
    int n_values1;
    int64_t *exec1;         /* per value: its executions after iteration 1 */
    sx_int *runs0, *runs1;  /* per value: its count (an_value_runs) before the loop, after
                               iteration 1, */
    sx_int *runsa, *runsb;  /* after the first probe (or before a growing loop's probe),
                               after the second (stepped loops) */
    int64_t marks1;
    sx_int *eff;            /* per function: moved, calls at s1, at a, now */
    sx_int *peak1;          /* per function: the peak at s1 */
    sx_int *sum;            /* per function: moved, calls to add */
    loop_peak *pk;
    sx_int step;            /* what an iteration adds to the counter (dir, or a stride) */
    const char *why;        /* why it is not summarised (the first reason found) */
    int64_t n_diags1;       /* diagnostics before the probes: a probe's own say what it lost */
} loop_sum;

static bool fail(loop_sum *ls, const char *why)
{
    if (!ls->why)
        ls->why = why;
    return false;
}

static const char *const LOOP_NOT_FOLLOWED = "an iteration is not followed exactly";
static const char *const LOOP_NOT_COUNTED = "not counted";

/* Each value's count now (an_value_runs), to take differences of. */
static sx_int *runs_take(const an_ctx *cx)
{
    sx_int *r = tl_xmalloc(sizeof *r * ((size_t)cx->r->n_values + 1));
    for (int v = 0; v < cx->r->n_values; v++)
        r[v] = an_value_runs(&cx->r->values[v]);
    return r;
}

static bool sx_zero(sx_int x) { return x.e == 0 && x.c == 0; }

/* A count that no formula follows: the one analysed, marked as not known. */
static void runs_lost(an_value *x) { x->runs_unknown = true; }

/* Each value's count, as sum_effects has the calls: what the last probe ran
 * (from runsa on) summed over the iterations 2..trips, less what the probes
 * counted already.  renamed: the first probe (runs1 to runsa) ran the same,
 * with la for lb.  A count no formula follows is marked not known. */
static void commit_runs(an_ctx *cx, const loop_sum *ls, bool renamed)
{
    sx_int A = {0, ls->la}, B = {0, ls->lb}, sum;
    for (int v = 0; v < cx->r->n_values; v++) {
        an_value *x = &cx->r->values[v];
        sx_int e4 = an_value_runs(x);
        sx_int d1 = sx_sub(ls->runsa[v], ls->runs1[v]), d2 = sx_sub(e4, ls->runsa[v]);
        if (sx_zero(d2) && (!renamed || sx_zero(d1)))
            continue;
        if (d1.e == SX_TOO_BIG || d2.e == SX_TOO_BIG || sx_depends_on(d2, A) ||
            (renamed && !sx_same(sx_subst(d1, A, B), d2)) || !sx_sum(d2, B, ls->lo, ls->hi, &sum)) {
            runs_lost(x);
            continue;
        }
        x->runs_sx = sx_add(x->runs_sx, sx_sub(sum, renamed ? sx_add(d1, d2) : d2));
        if (x->runs_sx.e == SX_TOO_BIG)
            runs_lost(x);
    }
}

/* The effect of the last probe (from eff[2*from] to now) summed over the
 * iterations 2..trips, less what the probes counted already (counted: the
 * probes' own effects), and the peaks at the last iteration.  `renamed`:
 * the first probe's effect (eff[2..3] - eff[0..1]) must be the last's with
 * la for lb. */
static bool sum_effects(an_ctx *cx, loop_sum *ls, int from, bool renamed)
{
    sx_int A = {0, ls->la}, B = {0, ls->lb};
    for (int k = 0; k < ls->n; k++) {
        sx_int *e = &ls->eff[6 * k];
        fr_effect(&cx->r->funcs[k], &e[4], &e[5]);
        for (int j = 0; j < 2; j++) { /* one step per iteration, a polynomial in the counter */
            sx_int d1 = sx_sub(e[2 + j], e[j]), d2 = sx_sub(e[4 + j], e[2 * from + j]);
            if (sx_depends_on(d2, A) || (renamed && !sx_same(sx_subst(d1, A, B), d2)))
                return false;
            if (!sx_sum(d2, B, ls->lo, ls->hi, &ls->sum[2 * k + j]))
                return fail(ls, "the bytes an iteration moves are not a polynomial of degree "
                                "at most 2 in the counter");
            ls->sum[2 * k + j] = sx_sub(ls->sum[2 * k + j], renamed ? sx_add(d1, d2) : d2);
        }
        if (!loop_peaks(&cx->r->funcs[k], A, B, ls->dir > 0 ? ls->hi : ls->lo, ls->dir,
                        &ls->pk[k]))
            return fail(ls, "its peak neither stays nor grows with the counter");
    }
    return true;
}

/* Nothing the last probe made is on the GPU (the caching allocator is
 * simulated for known counts), nothing became a bound. */
static bool probe_plain(const an_ctx *cx, loop_sum *ls)
{
    if (cx->n_bound_marks != ls->marks1)
        return fail(ls, LOOP_NOT_FOLLOWED);
    for (int st = ls->n_storages1; st < cx->r->n_storages; st++)
        if (cx->r->storages[st].device == TL_CUDA)
            return fail(ls, "an iteration allocates on the GPU, whose caching allocator is "
                            "simulated for known counts only");
    return true;
}

/* The second probe from where the first ended: the loop is steady when
 * both have one effect and leave one state (counters aside). */
static bool steady_summary(an_ctx *cx, loop_sum *ls, bool *first_differs)
{
    if (!probe(cx, ls->s, ls->var, ls->v0, ls->dir, ls->lo, ls->hi, &ls->lb) ||
        !probe_plain(cx, ls))
        return false;
    sx_int l1 = live_total(ls->s1.live, ls->s1.live_sx);
    if (!sx_same(l1, live_total(ls->a.live, ls->a.live_sx)) ||
        !sx_same(l1, live_total(cx->live, cx->live_sx)))
        return false;
    return sum_effects(cx, ls, 1, true) &&
           steady_state(cx, NULL, &ls->s1, &ls->a, ls->trips, ls->la, ls->lb, ls->var,
                        first_differs) &&
           loop_assumptions(ls->assumptions1, (sx_int){0, ls->la}, (sx_int){0, ls->lb}, ls->lo,
                            ls->hi, ls->s->loc.line);
}

/* ---- growth: a loop whose state steps from one iteration to the next ----
 *
 * A running concatenation (a cache lengthened every step), a view whose
 * offset walks along a buffer, a counter the body steps, an array filled
 * or emptied one element per iteration: no one iteration stands for the
 * others, but the state at the start of the iteration whose counter is l
 * is a formula S(l).  Iteration 1 ends in S(v0 + 1) (s1).  S(l) is read off
 * two states:
 *
 *  - forward: the first probe, counter la, ends in S(la + 1) (a).  A value
 *    becomes, at l: x1 where the two agree; x1 + (l - v0 - 1)*(xa - x1)
 *    where it steps by a constant; xa with la := l - 1 where it is the
 *    counter's function.  An array element the probe wrote at the counter
 *    (w[la]) beside the one iteration 1 wrote (w[v0]) makes a segment: the
 *    elements v0 .. l - 1, alike, with one storage for all of them.
 *  - backward (when the probe cannot run from s1: it releases w[la] while
 *    iteration 1 left w[v0 + 1] first): the state before the loop, s0, is
 *    S(v0); a value becomes x1 + (l - v0 - 1)*(x1 - x0).
 *
 * A tensor whose layout changes gets a handle of the layout at l and, where
 * it held a storage of its own, a storage of the bytes at l in place of
 * iteration 1's.  The state is rebuilt that way at l = lb, a fresh counter,
 * and one probe from it must end in S(lb + 1) (the element it wrote at lb
 * joins the segment): by induction that is every iteration 2..trips.  The
 * totals sum that probe's effect over the iterations; the state after the
 * loop is its end at lb = hi. */

typedef struct gen_ctx {
    an_ctx *cx;
    const snapshot *o;      /* the other state: a (forward) or s0 (backward) */
    bool back;
    sx_int A, L, k, lm1;    /* la (forward), lb, lb - v0 - 1, lb - 1 */
    int n_storages_new;     /* storages from this index on were made by the iteration that ends in
                               the later state (a forward, s1 backward) */
    int *map;               /* per handle of s1: the handle standing for it at lb, or -1 */
    int n_map;
    int *made, *replaced;   /* storages made for the state at lb, iteration 1's they replace */
    int n_made, cap_made;
    bool ok;
} gen_ctx;

static bool sx_usable(sx_int x) { return x.e != SX_TOO_BIG; }

/* x (x1 at s1, xo in the other state) at the start of iteration lb. */
static bool gen_value(const gen_ctx *g, sx_int x1, sx_int xo, sx_int *out)
{
    if (!sx_usable(x1) || !sx_usable(xo))
        return false;
    if (sx_same(x1, xo))
        *out = x1;
    else if (g->back)
        *out = sx_add(x1, sx_mul(g->k, sx_sub(x1, xo)));
    else if (sx_depends_on(xo, g->A))
        *out = sx_subst(xo, g->A, g->lm1);
    else
        *out = sx_add(x1, sx_mul(g->k, sx_sub(xo, x1)));
    return sx_usable(*out);
}

static bool gen_int(const gen_ctx *g, bool *k1, int64_t *v1, bool ko, int64_t vo)
{
    sx_int x1, xo, x;
    if (*k1 == ko && *v1 == vo)
        return true;
    if (!an_int_get(*k1, *v1, &x1) || !an_int_get(ko, vo, &xo) || !gen_value(g, x1, xo, &x))
        return false;
    an_int_put(true, x, k1, v1);
    return true;
}

/* A handle's layout over symbols; false when it has none. */
static bool sl_form(const an_ctx *cx, const an_handle *h, an_slayout *out)
{
    if (h->known)
        an_sl_of_layout(&h->l, out);
    else if (h->sl > 0)
        *out = cx->r->slayouts[h->sl - 1];
    else
        return false;
    return true;
}

static bool storage_bytes(const an_storage *st, sx_int *out)
{
    if (st->external || (!st->symbolic && st->nbytes < 0))
        return false;
    *out = st->symbolic ? st->nbytes_sx : (sx_int){st->nbytes, 0};
    return true;
}

/* Storage st's bytes become b (live when it is). */
static void set_storage_bytes(an_ctx *cx, int st, sx_int b)
{
    an_storage *s = &cx->r->storages[st];
    sx_int old;
    if (!storage_bytes(s, &old))
        return;
    if (cx->live_storage[st]) {
        cx->live_sx = sx_add(cx->live_sx, sx_sub(b, old));
        cx->sym_events++;
    }
    s->symbolic = true;
    s->nbytes = s->block_bytes = s->alloc_bytes = s->made_nbytes = -1;
    s->nbytes_sx = b;
}

/* Storage st leaves the live set: the state at lb holds another in its
 * place (or a segment's storage holds its bytes). */
static void retire_storage(an_ctx *cx, int st)
{
    an_storage *s = &cx->r->storages[st];
    cx->refs[st] = 0;
    cx->live_storage[st] = false;
    s->retire_event = cx->r->n_events;
    if (s->symbolic)
        cx->live_sx = sx_sub(cx->live_sx, s->nbytes_sx);
    else
        cx->live -= s->nbytes;
}

static void made_push(gen_ctx *g, int made, int replaced)
{
    if (g->n_made == g->cap_made) {
        g->cap_made = g->cap_made ? 2 * g->cap_made : 8;
        g->made = tl_xrealloc(g->made, sizeof *g->made * (size_t)g->cap_made);
        g->replaced = tl_xrealloc(g->replaced, sizeof *g->replaced * (size_t)g->cap_made);
    }
    g->made[g->n_made] = made;
    g->replaced[g->n_made++] = replaced;
}

/* A storage for what st (now, in s1) and so (the other state) stand for at lb:
 * each iteration makes one, the next releases it. */
static int gen_storage(gen_ctx *g, int st, int so)
{
    an_ctx *cx = g->cx;
    const snapshot *o = g->o;
    sx_int b1, bo, bg;
    int fresh = g->back ? st : so; /* the one the later iteration made */
    if (fresh < g->n_storages_new || so >= o->n_storages || cx->refs[st] != 1 ||
        o->refs[so] != 1 || !storage_bytes(&cx->r->storages[st], &b1) ||
        !storage_bytes(&o->storages[so], &bo) || !gen_value(g, b1, bo, &bg))
        return -1;
    const an_storage *sy = g->back ? &cx->r->storages[st] : &o->storages[so];
    retire_storage(cx, st);
    int made = an_storage_new_sx(cx, sy->func, sy->value, sy->alloc_line, sy->alloc_col,
                                 sy->device, bg);
    cx->r->storages[made].summarised = true;
    cx->refs[made] = 0;
    made_push(g, made, st);
    return made;
}

/* Pointer targets px (s1) and py (the other state) at lb: the same place
 * but for keys that are the counter's formulas (layers[0].wq, layers[la].wq). */
static bool gen_place(gen_ctx *g, int px, int py, int *out)
{
    an_loc a = g->cx->ptrs[px], b = g->cx->ptrs[py];
    if (a.frame != b.frame || a.var != b.var || a.n != b.n || a.elem != b.elem)
        return false;
    for (int j = 0; j < a.n; j++) {
        sx_int v;
        if (a.key[j] != b.key[j] &&
            (a.key[j] == AN_KEY_SEG || b.key[j] == AN_KEY_SEG ||
             !gen_value(g, an_key_sx(a.key[j]), an_key_sx(b.key[j]), &v) ||
             !an_key_of(v, &a.key[j])))
            return false;
    }
    *out = an_ptr_intern(g->cx, &a);
    return true;
}

/* Handle h1 (s1) and ho (the other state) of one place: the handle at lb. */
static int gen_handle(gen_ctx *g, int h1, int ho)
{
    an_ctx *cx = g->cx;
    steady_ctx sc = {cx, g->o};
    if (h1 < 0 || ho < 0 || steady_handles(&sc, ho, h1)) {
        g->ok &= h1 >= 0 || h1 == ho;
        return h1;
    }
    if (h1 < g->n_map && g->map[h1] >= 0)
        return g->map[h1];
    const an_handle *x = &cx->handles[h1], *y = &g->o->handles[ho];
    an_slayout X, Y, G;
    if (h1 >= g->n_map || x->released || y->released || x->poison || y->poison ||
        x->seg_elem != y->seg_elem || (x->seg_elem && x->storage != y->storage) ||
        x->offset_unknown || y->offset_unknown ||
        !sl_form(cx, x, &X) || !sl_form(cx, y, &Y) || X.ndim != Y.ndim || X.dtype != Y.dtype ||
        X.device != Y.device || X.device == TL_CUDA || x->storage < 0 || y->storage < 0) {
        g->ok = false;
        return h1;
    }
    G = X;
    G.contiguous = g->back ? X.contiguous : Y.contiguous;
    bool ok = gen_value(g, X.offset, Y.offset, &G.offset) &&
              gen_value(g, X.storage_nbytes, Y.storage_nbytes, &G.storage_nbytes);
    for (int d = 0; d < X.ndim && ok; d++)
        ok = gen_value(g, X.shape[d], Y.shape[d], &G.shape[d]) &&
             gen_value(g, X.strides[d], Y.strides[d], &G.strides[d]);
    an_handle nh = *x;
    nh.known = false;
    nh.sl = an_slayout_add(cx, &G);
    if (ok && x->seg_elem) /* an element read from an array: the element read at lb */
        ok = gen_place(g, x->seg_place, y->seg_place, &nh.seg_place);
    if (ok && y->storage != x->storage) /* its own storage, made again each iteration */
        ok = (nh.storage = gen_storage(g, x->storage, y->storage)) >= 0;
    if (!ok) {
        g->ok = false;
        return h1;
    }
    cx->refs[nh.storage]++;
    int h = an_handle_new(cx, &nh);
    cx->handles[h1].released = true; /* what it stood for is the new handle's */
    if (x->storage == nh.storage)
        cx->refs[nh.storage]--;
    g->map[h1] = h;
    return h;
}

/* A segment's cell (mine: s1's, theirs: the other state's) at lb. */
static bool gen_seg(gen_ctx *g, an_cell *mine, const an_cell *theirs)
{
    an_ctx *cx = g->cx;
    if (!theirs->seg || mine->handle != theirs->handle || mine->i != theirs->i ||
        mine->known != theirs->known)
        return false;
    an_seg s1 = cx->segs[mine->ptr], so = cx->segs[theirs->ptr], sg = s1;
    if (!sx_same(s1.elem_bytes, so.elem_bytes) || s1.storage != so.storage ||
        !gen_value(g, s1.lo, so.lo, &sg.lo) || !gen_value(g, s1.hi, so.hi, &sg.hi) ||
        !gen_value(g, s1.full_bytes, so.full_bytes, &sg.full_bytes))
        return false;
    mine->ptr = an_seg_add(cx, &sg);
    return true;
}

static bool gen_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    gen_ctx *g = ctx;
    if (mine->kind == AN_CELL_PTR) { /* p = &layers[l]: the place at lb */
        if (an_cell_same(g->cx, mine, theirs))
            return true;
        return mine->known && theirs->known && mine->ptr >= 0 && theirs->ptr >= 0 &&
               gen_place(g, mine->ptr, theirs->ptr, &mine->ptr);
    }
    if (mine->seg || theirs->seg)
        return mine->seg && gen_seg(g, mine, theirs);
    if (mine->kind == AN_CELL_INT)
        return gen_int(g, &mine->known, &mine->i, theirs->known, theirs->i);
    mine->handle = gen_handle(g, mine->handle, theirs->handle);
    return g->ok;
}

/* How many places (variables, memory) hold handle h in the state now. */
static int holders(an_ctx *cx, int h)
{
    int n = 0;
    for (int k = 0; k < cx->depth; k++) {
        an_frame *fr = cx->stack[k];
        for (int j = 0; j < cx->n_func_vars[fr->func]; j++)
            n += !borrowed(cx, cx->func_vars[fr->func][j]) &&
                 fr->tensor[cx->slot[cx->func_vars[fr->func][j]]] == h;
    }
    for (int v = 0; v < cx->n_globals; v++)
        n += cx->gframe->tensor[v] == h;
    for (int k = 0; k < cx->mem.n; k++)
        n += cx->mem.e[k].loc.frame != INT_MIN && cx->mem.e[k].cell.kind == AN_CELL_TENSOR &&
             cx->mem.e[k].cell.handle == h;
    return n;
}

/* An element e (now, in cx->mem) that the iteration wrote and that becomes
 * one more element of a segment: an integer of the segment's value, or a
 * tensor of its layout, held only there, whose storage is its own (bytes
 * *elem; 0 for a view of the segment's storage). */
static bool seg_element(an_ctx *cx, const an_cell *c, const an_cell *tmpl, sx_int *elem,
                        int *storage)
{
    if (c->seg || c->kind != tmpl->kind)
        return false;
    if (c->kind == AN_CELL_INT)
        return c->known == tmpl->known && c->i == tmpl->i && (c->known || c->i > 0);
    if (c->kind != AN_CELL_TENSOR || c->handle < 0 || tmpl->handle < 0)
        return false;
    const an_handle *h = &cx->handles[c->handle];
    an_slayout X, Y;
    if (h->released || h->poison || h->seg_elem || h->offset_unknown || h->storage < 0 ||
        !sl_form(cx, h, &X) || !sl_form(cx, &cx->handles[tmpl->handle], &Y) ||
        X.ndim != Y.ndim || X.dtype != Y.dtype || X.device != Y.device || X.device == TL_CUDA ||
        !sx_same(X.offset, Y.offset) || holders(cx, c->handle) != 1)
        return false;
    for (int d = 0; d < X.ndim; d++)
        if (!sx_same(X.shape[d], Y.shape[d]) || !sx_same(X.strides[d], Y.strides[d]))
            return false;
    *storage = h->storage;
    if (cx->refs[h->storage] != 1 || cx->r->storages[h->storage].device == TL_CUDA)
        return false;
    return storage_bytes(&cx->r->storages[h->storage], elem);
}

/* Handle x views storage y_storage with layout Y but for the offset. */
static bool view_like(an_ctx *cx, const an_handle *x, const an_slayout *Y, int y_storage)
{
    an_slayout X;
    if (x->released || x->poison || x->seg_elem || x->offset_unknown || x->storage < 0 ||
        x->storage != y_storage || !sl_form(cx, x, &X) || X.ndim != Y->ndim ||
        X.dtype != Y->dtype || X.device != Y->device || X.device == TL_CUDA)
        return false;
    for (int d = 0; d < X.ndim; d++)
        if (!sx_same(X.shape[d], Y->shape[d]) || !sx_same(X.strides[d], Y->strides[d]))
            return false;
    return true;
}

/* Is cell c (held only there) the view a segment of views (its cell's
 * handle `tmpl`) has at index k? */
static bool view_element(an_ctx *cx, const an_cell *c, int tmpl, const an_seg *sg, sx_int k)
{
    an_slayout T, X;
    if (c->seg || c->kind != AN_CELL_TENSOR || c->handle < 0 || tmpl < 0 ||
        !sl_form(cx, &cx->handles[tmpl], &T))
        return false;
    T.offset = sx_subst(T.offset, sg->idx, k);
    const an_handle *h = &cx->handles[c->handle];
    return view_like(cx, h, &T, sg->storage) && sl_form(cx, h, &X) &&
           sx_same(X.offset, T.offset) && holders(cx, c->handle) == 1;
}

/* The place p with its key at j replaced by k (another element of the array). */
static an_loc loc_with_key(const an_loc *p, int j, int64_t k)
{
    an_loc l = *p;
    l.key[j] = k;
    return l;
}

/* The position of the one key of l that is a formula in sym (w[l], or
 * layers[l].wq: an index, then maybe fields); -1 when none, -2 when more. */
static int key_pos(const an_loc *l, sx_int sym)
{
    int at = -1;
    for (int j = 0; j < l->n; j++)
        if (an_key_is_sym(l->key[j]) && sx_depends_on(an_key_sx(l->key[j]), sym))
            at = at == -1 ? j : -2;
    return at;
}

/* The position of l's segment key, or -1. */
static int seg_pos(const an_loc *l)
{
    for (int j = 0; j < l->n; j++)
        if (l->key[j] == AN_KEY_SEG)
            return j;
    return -1;
}

/* Forward: an element the probe wrote at its counter (w[la + d]) next to
 * the one iteration 1 wrote (w[v0 + d]) makes the segment v0 + d .. lb + d
 * - 1 in the state now (s1), and in *other (a copy of a's memory, to walk
 * beside it).  False when the probe wrote some element at its counter that
 * does not fit. */
/* Forward, views (rows[l] = tl_select(w, 0, l)): iteration 1's element c1
 * (at k1 = v0 + d, under `first`) and the probe's (handle ho of state o, at
 * la + d, under at_o) view one storage at offsets one formula in the index
 * gives: the segment k1 .. lb + d - 1 of such views, under `seg`. */
static bool form_view_segment(gen_ctx *g, an_mem *other, const an_loc *first, const an_loc *seg,
                              const an_loc *at_o, an_cell c1, int ho, sx_int k1, sx_int d,
                              sx_int lo, sx_int hi, int line)
{
    an_ctx *cx = g->cx;
    const an_handle *y = &g->o->handles[ho];
    an_slayout Y, X1;
    if (y->released || y->poison || y->seg_elem || y->offset_unknown || !sl_form(cx, y, &Y) ||
        !view_like(cx, &cx->handles[c1.handle], &Y, y->storage) ||
        holders(cx, c1.handle) != 1 || !sl_form(cx, &cx->handles[c1.handle], &X1))
        return false;
    sx_int idx = sx_symbol_near("index", "loop", line, 0, k1);
    sx_int at = sx_subst(Y.offset, g->A, sx_sub(idx, d)); /* the offset at index idx */
    if (!sx_usable(at) || !sx_same(sx_subst(at, idx, k1), X1.offset))
        return false;
    an_handle rep = cx->handles[c1.handle];
    X1.offset = at;
    rep.known = false;
    rep.sl = an_slayout_add(cx, &X1);
    an_seg sg = {.lo = lo, .hi = hi, .elem_bytes = {0, 0}, .idx = idx,
                 .storage = rep.storage, .first = -1, .full_bytes = {0, 0}};
    an_cell sc = c1; /* its reference to the storage is the segment's */
    sc.seg = true;
    cx->handles[c1.handle].released = true;
    sc.handle = an_handle_new(cx, &rep);
    sc.ptr = an_seg_add(cx, &sg);
    an_mem_remove(&cx->mem, first);
    an_mem_put(&cx->mem, seg, &sc);
    an_mem_remove(other, first);
    an_mem_remove(other, at_o);
    an_mem_put(other, seg, &sc);
    return true;
}

static bool form_segments(gen_ctx *g, an_mem *other, sx_int v0, int dir, int line)
{
    an_ctx *cx = g->cx;
    const an_mem *am = &g->o->mem;
    for (int k = 0; k < am->n; k++) {
        const an_entry *e = &am->e[k];
        int at = e->loc.frame == INT_MIN ? -1 : key_pos(&e->loc, g->A);
        if (at == -1)
            continue; /* not written at the counter */
        if (at < 0)
            return false;
        sx_int key = an_key_sx(e->loc.key[at]), d = sx_sub(key, g->A);
        int64_t k1, kseg = AN_KEY_SEG;
        if (sx_depends_on(d, g->A) || !an_key_of(sx_add(v0, d), &k1))
            return false;
        /* the elements written so far: v0 + d .. lb + d - 1 up, lb + d + 1 .. v0 + d down */
        sx_int one = {1, 0};
        sx_int lo = dir > 0 ? sx_add(v0, d) : sx_add(sx_add(g->L, one), d);
        sx_int hi = dir > 0 ? sx_add(g->L, d) : sx_add(sx_add(v0, one), d);
        an_loc first = loc_with_key(&e->loc, at, k1), seg = loc_with_key(&e->loc, at, kseg);
        int f = an_mem_find(&cx->mem, &first);
        if (f < 0 || an_mem_find(&cx->mem, &seg) >= 0)
            return false;
        an_cell c1 = cx->mem.e[f].cell;
        sx_int elem = {0, 0}, elem_o = {0, 0};
        int st = -1, st_o = -1;
        if (c1.kind == AN_CELL_TENSOR && e->cell.kind == AN_CELL_TENSOR && !c1.seg &&
            c1.handle >= 0 && e->cell.handle >= 0 && cx->handles[c1.handle].storage >= 0 &&
            cx->handles[c1.handle].storage == g->o->handles[e->cell.handle].storage) {
            an_loc at_o = e->loc;
            if (!form_view_segment(g, other, &first, &seg, &at_o, c1, e->cell.handle,
                                   sx_add(v0, d), d, lo, hi, line))
                return false;
            continue;
        }
        if (!seg_element(cx, &c1, &c1, &elem, &st))
            return false;
        if (c1.kind == AN_CELL_TENSOR) { /* a's element: the same layout, a storage as large */
            const an_handle *ho = &g->o->handles[e->cell.handle], *h1 = &cx->handles[c1.handle];
            steady_ctx sc = {cx, g->o};
            if (e->cell.kind != AN_CELL_TENSOR || e->cell.handle < 0 || ho->released ||
                !steady_handles(&sc, e->cell.handle, c1.handle) ||
                (st_o = ho->storage) < g->n_storages_new || st_o >= g->o->n_storages ||
                g->o->refs[st_o] != 1 || !storage_bytes(&g->o->storages[st_o], &elem_o) ||
                !sx_same(elem, elem_o) || h1->storage < 0)
                return false;
        } else if (e->cell.kind != AN_CELL_INT || e->cell.known != c1.known ||
                   e->cell.i != c1.i) {
            return false;
        }
        an_seg sg = {.lo = lo, .hi = hi, .elem_bytes = elem,
                     .storage = -1, .first = c1.kind == AN_CELL_TENSOR ? st : -1,
                     .full_bytes = sx_mul(sx_sub(hi, lo), elem)};
        an_cell sc1 = c1;
        sc1.seg = true;
        if (c1.kind == AN_CELL_TENSOR) { /* one handle, one storage for the elements so far */
            an_handle rep = cx->handles[c1.handle];
            const an_storage first_st = cx->r->storages[st];
            retire_storage(cx, st);
            sg.storage = rep.storage =
                an_storage_new_sx(cx, first_st.func, rep.value, first_st.alloc_line,
                                  first_st.alloc_col, first_st.device,
                                  sx_mul(sx_sub(sg.hi, sg.lo), elem));
            cx->r->storages[sg.storage].summarised = true;
            cx->refs[sg.storage] = 1;
            made_push(g, sg.storage, st);
            cx->handles[c1.handle].released = true;
            sc1.handle = an_handle_new(cx, &rep);
        }
        sc1.ptr = an_seg_add(cx, &sg);
        an_mem_remove(&cx->mem, &first);
        an_mem_put(&cx->mem, &seg, &sc1);
        an_mem_remove(other, &first);
        an_mem_remove(other, &e->loc);
        an_mem_put(other, &seg, &sc1);
    }
    return true;
}

/* After the probe: an element written next to a segment (past its end
 * counting up, before its start counting down) joins it. */
static void absorb_segments(an_ctx *cx, int dir)
{
    for (int k = 0; k < cx->mem.n; k++) {
        an_entry *e = &cx->mem.e[k];
        if (e->loc.frame == INT_MIN || !e->cell.seg)
            continue;
        an_seg sg = cx->segs[e->cell.ptr];
        int64_t kh;
        int at = seg_pos(&e->loc);
        sx_int next_k = dir > 0 ? sg.hi : sx_sub(sg.lo, (sx_int){1, 0});
        if (at < 0 || !an_key_of(next_k, &kh))
            continue;
        an_loc next = loc_with_key(&e->loc, at, kh);
        int j = an_mem_find(&cx->mem, &next);
        sx_int elem;
        int st = -1;
        an_cell tmpl = e->cell;
        if (sg.idx.e != 0) { /* views: the one at hi, its reference the segment's */
            if (j < 0 || !view_element(cx, &cx->mem.e[j].cell, tmpl.handle, &sg, next_k))
                continue;
            cx->handles[cx->mem.e[j].cell.handle].released = true;
            cx->refs[sg.storage]--;
        } else if (j < 0 || !seg_element(cx, &cx->mem.e[j].cell, &tmpl, &elem, &st) ||
                   (tmpl.kind == AN_CELL_TENSOR && !sx_same(elem, sg.elem_bytes))) {
            continue;
        } else if (tmpl.kind == AN_CELL_TENSOR) {
            cx->handles[cx->mem.e[j].cell.handle].released = true;
            retire_storage(cx, st);
            an_storage *ss = &cx->r->storages[sg.storage];
            ss->nbytes_sx = sx_add(ss->nbytes_sx, elem);
            cx->live_sx = sx_add(cx->live_sx, elem);
        }
        if (tmpl.kind == AN_CELL_TENSOR && sg.idx.e == 0)
            sg.full_bytes = sx_add(sg.full_bytes, elem);
        if (dir > 0)
            sg.hi = sx_add(sg.hi, (sx_int){1, 0});
        else
            sg.lo = next_k;
        an_mem_remove(&cx->mem, &next); /* e stays where it is: removal only marks */
        e->cell.ptr = an_seg_add(cx, &sg);
    }
}

/* The state now (s1) rebuilt as the state at the start of iteration lb. */
static bool generalise(an_ctx *cx, loop_sum *ls, gen_ctx *g)
{
    const snapshot *o = g->o;
    if (cx->depth != o->depth)
        return false;
    for (int k = 0; k < cx->depth && g->ok; k++) {
        an_frame *fr = cx->stack[k];
        const int *ids = cx->func_vars[fr->func];
        for (int j = 0; j < cx->n_func_vars[fr->func] && g->ok; j++) {
            int sl = cx->slot[ids[j]];
            if (borrowed(cx, ids[j]))
                continue;
            fr->tensor[sl] = gen_handle(g, fr->tensor[sl], o->tensors[k][j]);
            if (ids[j] != ls->var)
                g->ok &= gen_int(g, &fr->int_known[sl], &fr->ints[sl], o->known[k][j],
                                 o->ints[k][j]);
        }
    }
    an_frame *gf = cx->gframe;
    for (int v = 0; v < cx->n_globals && g->ok; v++) {
        gf->tensor[v] = gen_handle(g, gf->tensor[v], o->g_tensor[v]);
        if (cx->global_vars[v] != ls->var)
            g->ok &= gen_int(g, &gf->int_known[v], &gf->ints[v], o->g_known[v], o->g_ints[v]);
    }
    if (!g->ok)
        return false;
    an_mem other = {0};
    an_mem_copy_into(&other, &o->mem);
    bool ok = (g->back || form_segments(g, &other, ls->v0, ls->dir, ls->s->loc.line)) &&
              an_mem_map(cx, &other, gen_cell, g);
    an_mem_free(&other);
    /* storages both states hold whose bytes step (a segment's, as it empties) */
    int n = ls->s1.n_storages < o->n_storages ? ls->s1.n_storages : o->n_storages;
    for (int st = 0; st < n && ok; st++) {
        sx_int b1, bo, bg;
        if (!cx->live_storage[st] || !o->live_storage[st] ||
            !storage_bytes(&cx->r->storages[st], &b1) || !storage_bytes(&o->storages[st], &bo) ||
            sx_same(b1, bo))
            continue;
        ok = gen_value(g, b1, bo, &bg);
        if (ok)
            set_storage_bytes(cx, st, bg);
    }
    return ok && g->ok;
}

/* Does the state now (the end of the probe) equal `start` at the next
 * iteration's counter (lb := lb + dir)? */
typedef struct ind_ctx {
    an_ctx *cx;
    const snapshot *start;
    sx_int L, L1;
    bool at_zero; /* (stepped loops) the end with L := 0 is the start, both refined */
} ind_ctx;

static bool ind_same(const ind_ctx *c, sx_int start, sx_int end)
{
    if (c->at_zero) /* (L is a quantity: where it stands in start, it is 0 too) */
        return sx_same(sx_refine(sx_subst(end, c->L, (sx_int){0, 0})),
                       sx_refine(sx_subst(start, c->L, (sx_int){0, 0})));
    return sx_same(end, sx_subst(start, c->L, c->L1));
}

static bool ind_int(const ind_ctx *c, bool ks, int64_t vs, bool ke, int64_t ve)
{
    sx_int xs, xe;
    if (!an_int_get(ks, vs, &xs) || !an_int_get(ke, ve, &xe))
        return ks == ke && vs == ve;
    return ind_same(c, xs, xe);
}

static bool ind_handle(const ind_ctx *c, int hs, int he)
{
    if (hs < 0 || he < 0)
        return hs == he;
    if (hs >= c->start->n_handles)
        return false;
    const an_handle *x = &c->start->handles[hs], *y = &c->cx->handles[he];
    an_slayout X, Y;
    if (x->released || y->released)
        return x->released == y->released;
    if (x->offset_unknown || y->offset_unknown || !sl_form(c->cx, x, &X) ||
        !sl_form(c->cx, y, &Y) || X.ndim != Y.ndim || X.dtype != Y.dtype ||
        X.device != Y.device)
        return false;
    bool same = ind_same(c, X.offset, Y.offset);
    for (int d = 0; d < X.ndim && same; d++)
        same = ind_same(c, X.shape[d], Y.shape[d]) && ind_same(c, X.strides[d], Y.strides[d]);
    return same;
}

/* A pointer at the start (to a place whose keys are formulas in the
 * counter) and at the end: the same place at the next iteration. */
static bool ind_ptr(const ind_ctx *c, const an_cell *start, const an_cell *end)
{
    if (start->known != end->known || !start->known || start->ptr < 0 || end->ptr < 0)
        return an_cell_same(c->cx, start, end);
    an_loc a = c->cx->ptrs[start->ptr], b = c->cx->ptrs[end->ptr];
    if (a.frame != b.frame || a.var != b.var || a.n != b.n || a.elem != b.elem)
        return false;
    for (int j = 0; j < a.n; j++) {
        if (a.key[j] == AN_KEY_SEG || b.key[j] == AN_KEY_SEG) {
            if (a.key[j] != b.key[j])
                return false;
        } else if (!ind_same(c, an_key_sx(a.key[j]), an_key_sx(b.key[j]))) {
            return false;
        }
    }
    return true;
}

static bool ind_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    const ind_ctx *c = ctx;
    if (mine->kind == AN_CELL_PTR)
        return ind_ptr(c, theirs, mine);
    if (mine->seg || theirs->seg) {
        if (!mine->seg || !theirs->seg || mine->handle != theirs->handle ||
            mine->known != theirs->known || mine->i != theirs->i)
            return false;
        const an_seg *se = &c->cx->segs[mine->ptr], *ss = &c->cx->segs[theirs->ptr];
        return ind_same(c, ss->lo, se->lo) && ind_same(c, ss->hi, se->hi) &&
               ind_same(c, ss->full_bytes, se->full_bytes) &&
               sx_same(ss->elem_bytes, se->elem_bytes) && ss->storage == se->storage;
    }
    if (mine->kind == AN_CELL_INT)
        return ind_int(c, theirs->known, theirs->i, mine->known, mine->i);
    return ind_handle(c, theirs->handle, mine->handle);
}

static bool induction_holds(an_ctx *cx, const ind_ctx *c)
{
    const snapshot *st = c->start;
    if (cx->depth != st->depth ||
        !ind_same(c, live_total(st->live, st->live_sx), live_total(cx->live, cx->live_sx)))
        return false;
    for (int k = 0; k < cx->depth; k++) {
        an_frame *fr = cx->stack[k];
        const int *ids = cx->func_vars[fr->func];
        for (int j = 0; j < cx->n_func_vars[fr->func]; j++) {
            int sl = cx->slot[ids[j]];
            if (borrowed(cx, ids[j]))
                continue;
            if (!ind_handle(c, st->tensors[k][j], fr->tensor[sl]) ||
                !ind_int(c, st->known[k][j], st->ints[k][j], fr->int_known[sl], fr->ints[sl]))
                return false;
        }
    }
    an_frame *gf = cx->gframe;
    for (int v = 0; v < cx->n_globals; v++)
        if (!ind_handle(c, st->g_tensor[v], gf->tensor[v]) ||
            !ind_int(c, st->g_known[v], st->g_ints[v], gf->int_known[v], gf->ints[v]))
            return false;
    for (int s = 0; s < st->n_storages; s++) { /* what both hold has its bytes at lb + 1 */
        sx_int bs, be;
        if (st->live_storage[s] != cx->live_storage[s])
            continue; /* freed or made: the live bytes say whether that balances */
        if (st->live_storage[s] && storage_bytes(&st->storages[s], &bs) &&
            storage_bytes(&cx->r->storages[s], &be) && !ind_same(c, bs, be))
            return false;
    }
    return an_mem_map(cx, &st->mem, ind_cell, (void *)c);
}

/* After the loop: the probe's end with lb := hi, the last iteration's. */
typedef struct final_ctx {
    an_ctx *cx;
    sx_int L, hi;
    int64_t n_handles0;
} final_ctx;

static void final_int(const final_ctx *c, bool *known, int64_t *v)
{
    sx_int x;
    if (an_int_get(*known, *v, &x) && sx_depends_on(x, c->L))
        an_int_put(true, sx_subst(x, c->L, c->hi), known, v);
}

static bool final_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    const final_ctx *c = ctx;
    (void)theirs;
    if (mine->kind == AN_CELL_PTR && mine->known && mine->ptr >= 0) { /* the last place */
        an_loc l = c->cx->ptrs[mine->ptr];
        bool changed = false;
        for (int j = 0; j < l.n; j++) {
            int64_t k;
            sx_int x = an_key_sx(l.key[j]);
            if (an_key_is_sym(l.key[j]) && sx_depends_on(x, c->L) &&
                an_key_of(sx_subst(x, c->L, c->hi), &k)) {
                l.key[j] = k;
                changed = true;
            }
        }
        if (changed)
            mine->ptr = an_ptr_intern(c->cx, &l);
        return true;
    }
    if (mine->seg) {
        an_seg sg = c->cx->segs[mine->ptr];
        sg.lo = sx_subst(sg.lo, c->L, c->hi);
        sg.hi = sx_subst(sg.hi, c->L, c->hi);
        sg.full_bytes = sx_subst(sg.full_bytes, c->L, c->hi);
        mine->ptr = an_seg_add(c->cx, &sg);
    }
    if (mine->kind == AN_CELL_INT)
        final_int(c, &mine->known, &mine->i);
    return true;
}

static void finish_state(an_ctx *cx, const final_ctx *c)
{
    for (int k = 0; k < cx->depth; k++) {
        an_frame *fr = cx->stack[k];
        const int *ids = cx->func_vars[fr->func];
        for (int j = 0; j < cx->n_func_vars[fr->func]; j++) {
            int sl = cx->slot[ids[j]];
            final_int(c, &fr->int_known[sl], &fr->ints[sl]);
        }
    }
    for (int v = 0; v < cx->n_globals; v++)
        final_int(c, &cx->gframe->int_known[v], &cx->gframe->ints[v]);
    an_mem_map(cx, NULL, final_cell, (void *)c);
    for (int64_t h = c->n_handles0; h < cx->n_handles; h++) {
        an_handle *hd = &cx->handles[h];
        if (hd->known || hd->sl <= 0)
            continue;
        an_slayout l = cx->r->slayouts[hd->sl - 1];
        l.offset = sx_subst(l.offset, c->L, c->hi);
        l.storage_nbytes = sx_subst(l.storage_nbytes, c->L, c->hi);
        for (int d = 0; d < l.ndim; d++) {
            l.shape[d] = sx_subst(l.shape[d], c->L, c->hi);
            l.strides[d] = sx_subst(l.strides[d], c->L, c->hi);
        }
        hd->sl = an_slayout_add(cx, &l);
    }
    for (int st = 0; st < cx->r->n_storages; st++) {
        an_storage *s = &cx->r->storages[st];
        if (s->symbolic)
            s->nbytes_sx = sx_subst(s->nbytes_sx, c->L, c->hi);
    }
    cx->live_sx = sx_subst(cx->live_sx, c->L, c->hi);
    an_seg_collect(cx); /* a loop that released every element */
}

/* From s1 (the state is there again): the growth summary, forward from
 * the first probe's state a or backward from the state before the loop. */
static bool growth_summary(an_ctx *cx, loop_sum *ls, const snapshot *s0, bool back)
{
    sx_int L = counter_symbol(cx, ls->s, ls->var, ls->v0, ls->dir);
    ls->lb = L.e;
    ls->marks1 = cx->n_bound_marks; /* an undone probe's marks do not count */
    int facts = counter_facts(L, ls->lo, ls->hi);
    int64_t n_handles0 = cx->n_handles;
    gen_ctx g = {.cx = cx, .o = back ? s0 : &ls->a, .back = back,
                 .A = {0, back ? 0 : ls->la}, .L = L,
                 /* iterations since the second: (L - v0 - dir)/dir */
                 .k = sx_mul((sx_int){ls->dir, 0}, sx_sub(L, sx_add(ls->v0, (sx_int){ls->dir, 0}))),
                 .lm1 = sx_sub(L, (sx_int){ls->dir, 0}),
                 .n_storages_new = back ? s0->n_storages : ls->n_storages1,
                 .n_map = (int)cx->n_handles, .ok = true};
    g.map = tl_xmalloc(sizeof *g.map * (size_t)(g.n_map + 1));
    for (int h = 0; h < g.n_map; h++)
        g.map[h] = -1;
    bool ok = false, taken = false;
    snapshot start;
    if (!generalise(cx, ls, &g)) {
        fail(ls, "its state changes from one iteration to the next in a way no formula in the "
                 "counter follows");
        goto out;
    }
    bool *known;
    int64_t *slot = an_int_slot(cx, ls->var, &known);
    an_int_put(true, L, known, slot);
    an_snap_take(cx, &start);
    taken = true;
    for (int k = 0; k < ls->n; k++)
        fr_effect(&cx->r->funcs[k], &ls->eff[6 * k + 2], &ls->eff[6 * k + 3]);
    free(ls->runsa);
    ls->runsa = runs_take(cx);
    if (!probe_body(cx, ls->s, ls->var, L, (sx_int){ls->dir, 0}) || !probe_plain(cx, ls))
        goto out;
    absorb_segments(cx, ls->dir);
    ind_ctx ic = {cx, &start, L, sx_add(L, (sx_int){ls->dir, 0}), false}; /* the next one's */
    if (!induction_holds(cx, &ic)) {
        fail(ls, "its state changes from one iteration to the next in a way no formula in the "
                 "counter follows");
        goto out;
    }
    if (!sum_effects(cx, ls, 1, false))
        goto out;
    for (int m = 0; m < g.n_made; m++) { /* each stood for a storage the probe freed */
        const an_storage *made = &cx->r->storages[g.made[m]];
        bool seg = false;
        for (int k = 0; k < cx->mem.n && !seg; k++)
            seg = cx->mem.e[k].loc.frame != INT_MIN && cx->mem.e[k].cell.seg &&
                  cx->segs[cx->mem.e[k].cell.ptr].storage == g.made[m];
        if (seg)
            continue; /* a segment's: it lives on */
        if (made->free_line == 0) {
            fail(ls, "a tensor an iteration replaces is not released");
            goto out;
        }
        an_storage *first = &cx->r->storages[g.replaced[m]];
        first->free_line = made->free_line;
        first->free_col = made->free_col;
        first->free_func = made->free_func;
        first->free_event = made->free_event;
    }
    sx_forget_facts(facts);
    facts = -1;
    if (!loop_assumptions(ls->assumptions1, g.A, L, ls->lo, ls->hi, ls->s->loc.line)) {
        fail(ls, "a condition an iteration relies on does not hold for every iteration");
        goto out;
    }
    /* the state after the loop: the end of its last iteration's */
    finish_state(cx, &(final_ctx){cx, L, ls->dir > 0 ? ls->hi : ls->lo, n_handles0});
    ok = true;
out:
    if (facts >= 0)
        sx_forget_facts(facts);
    if (taken)
        an_snap_free(&start);
    free(g.map);
    free(g.made);
    free(g.replaced);
    return ok;
}

/* ---- loops stepped by more than one ----
 *
 * `for (i = v0; i < E; i += s)`, s a formula other than 1 (a chunk, a
 * stride): the counter takes v0 + s*j for j = 0..q, q = floor((E - v0 -
 * 1)/s), and every iteration but the last runs with the next one to come
 * (i + s < E, a whole chunk), the last with what is left (E - i <= s).
 * Iteration 1 runs as any does.  Two probes run with j a fresh symbol J,
 * 1 <= J <= q - 1, the facts saying that the next iteration runs: they
 * must have one effect and leave one state, as a steady loop's do.  Then
 * the last iteration runs once with j = q.  The totals are those before the
 * loop with the probe's effect summed over j = 0..q-1 (iteration 1's effect
 * is the probe's at J = 0 when q >= 1, checked; else iteration 1's and the
 * sum over 1..q-1), and the last iteration's; the state after the loop is
 * where the last iteration leaves it.  That is the run for q >= 1.  For
 * q = 0 the first iteration is the last: every total and the state, at q
 * = 0, must come out as iteration 1 left them, or "more than one
 * iteration" becomes an assumption. */

typedef struct step_ctx {
    sx_int step;  /* s, signed */
    sx_int m;     /* |s| */
    sx_int dist;  /* how many values of the counter the condition admits from v0 on */
    sx_int q;     /* the last iteration's j */
} step_ctx;

/* A fact "x >= 0" while f runs: push, and return the mark to forget it at. */
static int fact_mark(sx_int x)
{
    int facts = sx_n_facts();
    sx_fact_push(x);
    return facts;
}

/* Facts of q >= 1 (more than one iteration) or q == 0 (one). */
static int facts_q(const step_ctx *sc, bool more)
{
    sx_int one = {1, 0};
    if (more)
        return fact_mark(sx_sub(sx_sub(sc->dist, one), sc->m));
    int facts = fact_mark(sx_sub(sc->dist, one));
    sx_fact_push(sx_sub(sc->m, sc->dist));
    return facts;
}

/* Iteration J (a fresh symbol) of the middle: 1 <= J <= q - 1, and the next
 * iteration runs (i + s < E). */
static bool step_probe(an_ctx *cx, loop_sum *ls, const step_ctx *sc, uint32_t *sym)
{
    sx_int one = {1, 0};
    sx_int J = sx_symbol_near(cx->u->vars[ls->var].name, "loop", ls->s->loc.line,
                              ls->s->loc.col, one);
    *sym = J.e;
    int facts = counter_facts(J, one, sx_sub(sc->q, one));
    sx_fact_push(sx_sub(sx_sub(sc->dist, one), sx_mul(sc->m, sx_add(J, one))));
    bool ok = probe_body(cx, ls->s, ls->var, sx_add(ls->v0, sx_mul(sc->step, J)), sc->step);
    sx_forget_facts(facts);
    return ok;
}

static bool same_refined(sx_int a, sx_int b) { return sx_same(sx_refine(a), sx_refine(b)); }

/* a and b equal where q = 0 (q, a loop's last index, may stand in both: the
 * totals before the loop can hold an earlier summary of the same loop). */
static bool same_at_zero(sx_int a, sx_int b, sx_int q)
{
    sx_int zero = {0, 0};
    return same_refined(sx_subst(a, q, zero), sx_subst(b, q, zero));
}

/* The totals of the iterations before the last, in place of what the run
 * so far counted (iteration 1 and the two probes): per function report k,
 * moved and calls. */
static bool step_middle_totals(an_ctx *cx, loop_sum *ls, const step_ctx *sc,
                               const an_fr_saved *before, sx_int *delta)
{
    sx_int A = {0, ls->la}, B = {0, ls->lb}, zero = {0, 0}, one = {1, 0};
    sx_int last = sx_sub(sc->q, one);
    for (int k = 0; k < ls->n; k++) {
        sx_int *e = &ls->eff[6 * k], e0[2];
        fr_effect(&cx->r->funcs[k], &e[4], &e[5]);
        fr_effect(&before[k].fr, &e0[0], &e0[1]);
        for (int j = 0; j < 2; j++) {
            sx_int d1 = sx_sub(e[2 + j], e[j]), d2 = sx_sub(e[4 + j], e[2 + j]);
            sx_int first = sx_sub(e[j], e0[j]), sum, target;
            if (sx_depends_on(d2, A) || !sx_same(sx_subst(d1, A, B), d2))
                return fail(ls, "an iteration's effect is not the next one's");
            int facts = facts_q(sc, true);
            bool from_zero = same_refined(first, sx_subst(d2, B, zero));
            sx_forget_facts(facts);
            if (!sx_sum(d2, B, from_zero ? zero : one, last, &sum))
                return fail(ls, "the bytes an iteration moves are not a polynomial of degree "
                                "at most 2 in the counter");
            target = sx_add(from_zero ? e0[j] : e[j], sum);
            delta[2 * k + j] = sx_sub(target, e[4 + j]);
        }
    }
    return true;
}

/* Each value's count over the iterations before the last, as
 * step_middle_totals has the calls: in place of what iteration 1 and the two
 * probes counted (now), the probe's count summed over j = 0..q-1 from before
 * the loop when iteration 1 ran as the probe at j = 0, else iteration 1's and
 * the sum over 1..q-1.  (The last iteration adds its own as it runs.) */
static void step_runs(an_ctx *cx, loop_sum *ls, const step_ctx *sc)
{
    sx_int A = {0, ls->la}, B = {0, ls->lb}, zero = {0, 0}, one = {1, 0}, sum;
    sx_int last = sx_sub(sc->q, one);
    ls->runsb = runs_take(cx);
    for (int v = 0; v < cx->r->n_values; v++) {
        an_value *x = &cx->r->values[v];
        sx_int e0 = ls->runs0[v], e1 = ls->runs1[v], e4 = ls->runsb[v];
        sx_int first = sx_sub(e1, e0), d1 = sx_sub(ls->runsa[v], e1);
        sx_int d2 = sx_sub(e4, ls->runsa[v]);
        if (sx_zero(first) && sx_zero(d1) && sx_zero(d2))
            continue;
        if (first.e == SX_TOO_BIG || d1.e == SX_TOO_BIG || d2.e == SX_TOO_BIG ||
            sx_depends_on(d2, A) || !sx_same(sx_subst(d1, A, B), d2)) {
            runs_lost(x);
            continue;
        }
        int facts = facts_q(sc, true);
        bool from_zero = same_refined(first, sx_subst(d2, B, zero));
        sx_forget_facts(facts);
        if (!sx_sum(d2, B, from_zero ? zero : one, last, &sum)) {
            runs_lost(x);
            continue;
        }
        x->runs_sx = sx_add(x->runs_sx, sx_sub(sx_add(from_zero ? e0 : e1, sum), e4));
        if (x->runs_sx.e == SX_TOO_BIG)
            runs_lost(x);
    }
}

static bool cand_in(const an_func_report *fr, sx_int x)
{
    for (int c = 0; c < fr->n_peak_cands; c++)
        if (sx_same(fr->peak_cand[c], x))
            return true;
    return false;
}

/* Function report k's peak after the last iteration: the probes' counters
 * resolved (loop_peaks), and a candidate only iterations after the first
 * make dropped where another covers it whenever there are such (q >= 1). */
static bool step_peaks(an_ctx *cx, loop_sum *ls, const step_ctx *sc, const an_fr_saved *at_s1, int k)
{
    an_func_report *fr = &cx->r->funcs[k];
    sx_int A = {0, ls->la}, B = {0, ls->lb}, one = {1, 0};
    loop_peak pk;
    for (int c = 0; c < fr->n_peak_cands; c++) { /* one growing in J: at J = 0 iteration 1's */
        sx_int x = fr->peak_cand[c];
        bool le;
        if (!sx_depends_on(x, B))
            continue;
        int facts = facts_q(sc, true);
        bool ok = sx_prove(sx_refine(sx_subst(x, B, (sx_int){0, 0})), SX_LE,
                           sx_refine(ls->peak1[k]), &le) && le;
        sx_forget_facts(facts);
        if (!ok)
            return fail(ls, "its peak in the first iteration is not the others' at its counter");
    }
    if (!loop_peaks(fr, A, B, sx_sub(sc->q, one), 1, &pk))
        return fail(ls, "its peak neither stays nor grows with the counter");
    if (!pk.changed) {
        if (!fr->symbolic || fr->n_peak_cands == 0)
            return true;
        pk.n = fr->n_peak_cands;
        memcpy(pk.cand, fr->peak_cand, sizeof pk.cand);
        memcpy(pk.line, fr->peak_cand_line, sizeof pk.line);
    }
    const an_func_report *f1 = &at_s1[k].fr;
    bool dropped[8] = {false};
    int kept = 0, facts = facts_q(sc, true);
    for (int c = 0; c < pk.n; c++) {
        sx_int x = sx_refine(pk.cand[c]);
        for (int d = 0; d < pk.n && !dropped[c] && !cand_in(f1, pk.cand[c]); d++) {
            bool ge;
            dropped[c] = d != c && !dropped[d] &&
                         sx_prove(sx_refine(pk.cand[d]), SX_GE, x, &ge) && ge;
        }
    }
    for (int c = 0; c < pk.n; c++) {
        if (!dropped[c]) {
            pk.cand[kept] = pk.cand[c];
            pk.line[kept++] = pk.line[c];
        }
    }
    sx_forget_facts(facts);
    fr->n_peak_cands = kept;
    memcpy(fr->peak_cand, pk.cand, sizeof pk.cand);
    memcpy(fr->peak_cand_line, pk.line, sizeof pk.line);
    fr->peak_sx = sx_max_of(pk.cand, kept);
    fr->symbolic = true;
    return true;
}

/* At q = 0 (one iteration), do the totals and the state come out as
 * iteration 1 left them? */
static bool step_exact_at_zero(an_ctx *cx, loop_sum *ls, const step_ctx *sc, const an_fr_saved *at_s1)
{
    sx_int zero = {0, 0};
    if (!sx_same(sx_subst(sc->q, sc->q, zero), zero)) /* q is no one atom to put 0 for */
        return false;
    int facts = facts_q(sc, false);
    bool same = true;
    for (int k = 0; k < ls->n && same; k++) {
        const an_func_report *fr = &cx->r->funcs[k], *f1 = &at_s1[k].fr;
        sx_int now[2], then[2];
        fr_effect(fr, &now[0], &now[1]);
        fr_effect(f1, &then[0], &then[1]);
        sx_int peak = fr->symbolic ? fr->peak_sx : (sx_int){fr->peak_live_bytes, 0};
        same = same_at_zero(now[0], then[0], sc->q) && same_at_zero(now[1], then[1], sc->q) &&
               same_at_zero(peak, ls->peak1[k], sc->q);
    }
    for (int v = 0; v < cx->r->n_values && same; v++) { /* each call site's count too */
        sx_int now = an_value_runs(&cx->r->values[v]);
        same = sx_same(now, ls->runs1[v]) || same_at_zero(now, ls->runs1[v], sc->q);
    }
    ind_ctx z = {cx, &ls->s1, sc->q, zero, true};
    same = same && induction_holds(cx, &z);
    sx_forget_facts(facts);
    return same;
}

/* From s1: the summary of a loop whose counter steps by `step` (not +-1). */
static bool stepped_summary(an_ctx *cx, loop_sum *ls, const loop_trial *t, sx_int step,
                            bool *taken_a)
{
    step_ctx sc = {.step = step};
    sx_int one = {1, 0};
    bool pos, first_differs;
    if (!sx_prove(step, SX_GT, (sx_int){0, 0}, &pos) || pos != (ls->dir > 0))
        return fail(ls, LOOP_NOT_COUNTED);
    sc.m = ls->dir > 0 ? step : sx_neg(step);
    sc.dist = ls->trips;
    sc.q = sx_div(sx_sub(sc.dist, one), sc.m);
    if (!sx_usable(sc.q))
        return fail(ls, LOOP_NOT_COUNTED);
    ls->trips = sx_add(sc.q, one);
    sx_int mq = sx_mul(sc.m, sc.q);
    int facts = fact_mark(sx_sub(sx_sub(sc.dist, one), mq)); /* the last iteration runs, */
    sx_fact_push(sx_sub(sx_add(mq, sc.m), sc.dist));         /* and the next does not */
    an_fr_saved *at_s1 = an_frs_save(cx);
    sx_int *delta = tl_xmalloc(sizeof *delta * 2 * (size_t)(ls->n + 1));
    bool ok = false;
    if (!step_probe(cx, ls, &sc, &ls->la)) {
        fail(ls, LOOP_NOT_COUNTED);
        goto out;
    }
    if (!probe_plain(cx, ls))
        goto out;
    an_snap_take(cx, &ls->a);
    *taken_a = true;
    for (int k = 0; k < ls->n; k++)
        fr_effect(&cx->r->funcs[k], &ls->eff[6 * k + 2], &ls->eff[6 * k + 3]);
    ls->runsa = runs_take(cx);
    if (!step_probe(cx, ls, &sc, &ls->lb)) {
        fail(ls, LOOP_NOT_COUNTED);
        goto out;
    }
    if (!probe_plain(cx, ls))
        goto out;
    sx_int l1 = live_total(ls->s1.live, ls->s1.live_sx);
    if (!sx_same(l1, live_total(ls->a.live, ls->a.live_sx)) ||
        !sx_same(l1, live_total(cx->live, cx->live_sx))) {
        fail(ls, "its live bytes change from one iteration to the next");
        goto out;
    }
    if (!step_middle_totals(cx, ls, &sc, t->r0, delta))
        goto out;
    step_runs(cx, ls, &sc);
    int fq = facts_q(&sc, true); /* integers stepped in iteration 1 as in the others */
    bool steady = steady_state(cx, &t->s0, &ls->s1, &ls->a, sc.q, ls->la, ls->lb, ls->var,
                               &first_differs);
    sx_forget_facts(fq);
    if (!steady) {
        fail(ls, "its state changes from one iteration to the next");
        goto out;
    }
    if (!loop_assumptions(ls->assumptions1, (sx_int){0, ls->la}, (sx_int){0, ls->lb}, one,
                          sx_sub(sc.q, one), ls->s->loc.line)) {
        fail(ls, "a condition an iteration relies on does not hold for every iteration");
        goto out;
    }
    /* the last iteration, from the state the others leave */
    if (!probe_body(cx, ls->s, ls->var, sx_add(ls->v0, sx_mul(step, sc.q)), step)) {
        fail(ls, LOOP_NOT_COUNTED);
        goto out;
    }
    if (!probe_plain(cx, ls))
        goto out;
    for (int k = 0; k < ls->n; k++) {
        an_func_report *fr = &cx->r->funcs[k];
        add_effect(fr, delta[2 * k], delta[2 * k + 1]);
        if (!step_peaks(cx, ls, &sc, at_s1, k))
            goto out;
    }
    if (!step_exact_at_zero(cx, ls, &sc, at_s1)) { /* else: assumed more than one iteration */
        sx_set_site(ls->s->loc.line);
        (void)sx_cmp(sc.dist, SX_GT, sc.m);
    }
    ok = true;
out:
    sx_forget_facts(facts);
    an_frs_free(cx, at_s1);
    free(delta);
    return ok;
}

/* Why a probe failed, for the loop's note: the reason, and what the
 * probe could not follow (its own last note) when that was the reason. */
static char *loop_why(an_ctx *cx, const loop_sum *ls)
{
    char trips[160];
    sx_str(ls->trips, trips, sizeof trips);
    const an_diag *d = cx->r->n_diags > ls->n_diags1 ? &cx->r->diags[cx->r->n_diags - 1] : NULL;
    const ir_block *body = ls->s->loop.body;
    int last = body && body->end.line > 0 ? body->end.line
               : body && body->n_stmts > 0 ? body->stmts[body->n_stmts - 1]->loc.line
               : ls->s->loc.line;
    for (int k = cx->r->n_diags - 1; !d && k >= 0; k--) /* said in iteration 1 already */
        if (cx->r->diags[k].line >= ls->s->loc.line && cx->r->diags[k].line <= last &&
            strcmp(cx->r->diags[k].check, "unsupported") == 0)
            d = &cx->r->diags[k];
    if (ls->why == LOOP_NOT_COUNTED && sx_same(ls->step, (sx_int){ls->dir, 0}))
        return tl_xasprintf("the loop's condition is a formula, but an iteration steps '%s' by "
                            "other than %s or leaves the loop", cx->u->vars[ls->var].name,
                            ls->dir > 0 ? "+1" : "-1");
    if (ls->why == LOOP_NOT_COUNTED) { /* a stride */
        char step[96];
        sx_str(ls->step, step, sizeof step);
        return tl_xasprintf("the loop's condition is a formula, but an iteration steps '%s' by "
                            "other than the first one did (%s%s), or by a step whose sign is "
                            "not known, or leaves the loop", cx->u->vars[ls->var].name,
                            ls->step.e == 0 && ls->step.c > 0 ? "+" : "", step);
    }
    if (ls->why == LOOP_NOT_FOLLOWED && d)
        return tl_xasprintf("the loop runs %s times, but an iteration is not followed exactly "
                            "(line %d: %s)", trips, d->line, d->message);
    return tl_xasprintf("the loop runs %s times, but %s", trips,
                        ls->why ? ls->why : "its iterations could not be summarised");
}

/* x with the last probe's counter (lb) at v and the one before it (la, in
 * the iteration before) at v - dir; 0: that probe did not run. */
static sx_int at_counter(sx_int x, const loop_sum *ls, sx_int v)
{
    uint32_t sym[2] = {ls->lb, ls->la};
    int dir = sx_same(ls->step, (sx_int){ls->dir, 0}) ? ls->dir : 1; /* (a stride's: its index) */
    sx_int at[2] = {v, sx_sub(v, (sx_int){dir, 0})};
    for (int k = 0; k < 2; k++)
        if (sym[k] && x.e && sx_depends_on(x, (sx_int){0, sym[k]}))
            x = sx_subst(x, (sx_int){0, sym[k]}, at[k]);
    return x;
}

/* The loop, summarised, for the lifetime chart: the events of its probe
 * iterations (from first_event on, after iteration 1's, which depend on no
 * counter) and the storages they made stand for the iteration whose counter
 * is at, as the state after a growing loop does (finish_state); so do the
 * loops summarised inside them. */
static void record_loop(an_ctx *cx, const loop_sum *ls, int64_t first_event,
                        int64_t probe_event, sx_int at, sx_int counter_at)
{
    an_report *r = cx->r;
    if (first_event >= r->n_events)
        return; /* no call logged */
    for (int64_t i = first_event; i < r->n_events; i++)
        r->events[i].live_sx = at_counter(r->events[i].live_sx, ls, at);
    for (int st = ls->n_storages1; st < r->n_storages; st++)
        if (r->storages[st].symbolic)
            r->storages[st].nbytes_sx = at_counter(r->storages[st].nbytes_sx, ls, at);
    for (int k = 0; k < r->n_summed_loops; k++) {
        an_summed_loop *in = &r->summed_loops[k];
        if (in->first_event >= first_event) {
            in->trips = at_counter(in->trips, ls, at);
            in->probe_at = at_counter(in->probe_at, ls, at);
        }
    }
    an_summed_loop_add(cx, &(an_summed_loop){.func = an_top(cx)->func, .line = ls->s->loc.line,
                                             .col = ls->s->loc.col, .trips = ls->trips,
                                             .counter = cx->u->vars[ls->var].name,
                                             .first_at = ls->v0, .probe_at = counter_at,
                                             .first_event = first_event,
                                             .probe_event = probe_event,
                                             .end_event = r->n_events});
}

/* Summarise the loop; false (the state as before the loop's first
 * iteration) when it is not a counted loop with a steady or stepping body:
 * then *why says why when the trip count was a formula (NULL otherwise). */
static bool summarise_loop(an_ctx *cx, const ir_stmt *s, an_flow *out, char **why)
{
    loop_sum ls = {.s = s};
    bool stepped = false;
    *why = NULL;
    an_func_report *top = an_func_report_of(cx, an_top(cx)->func);
    *out = AN_FLOW_NEXT;
    if (!top || cx->if_depth > 0 || !counted_loop(cx, s, &ls.var, &ls.v0, &ls.trips, &ls.dir))
        return false;
    bool ge1;
    if (sx_prove(ls.trips, SX_GE, (sx_int){1, 0}, &ge1) && !ge1)
        return false;
    loop_trial t = {.n_diags = cx->r->n_diags, .n_assumptions = sx_n_assumptions(),
                    .n_facts = sx_n_facts(), .n_values = cx->r->n_values,
                    .n_storages = cx->r->n_storages, .n_events = cx->r->n_events,
                    .n_handles = cx->n_handles, .n_exits = cx->r->n_exits,
                    .n_paths = cx->r->n_paths};
    an_snap_take(cx, &t.s0);
    t.r0 = an_frs_save(cx);
    t.values0 = an_dup_mem(cx->r->values, sizeof *cx->r->values * (size_t)cx->r->n_values);
    ls.runs0 = runs_take(cx);
    int n = ls.n = cx->r->n_funcs;
    ls.eff = tl_xmalloc(sizeof *ls.eff * 6 * (size_t)(n + 1));
    ls.peak1 = tl_xmalloc(sizeof *ls.peak1 * (size_t)(n + 1));
    ls.sum = tl_xmalloc(sizeof *ls.sum * 2 * (size_t)(n + 1));
    ls.pk = tl_xmalloc(sizeof *ls.pk * (size_t)(n + 1));
    /* the counter's values in iterations 2..trips */
    sx_int second = sx_add(ls.v0, (sx_int){ls.dir, 0});
    sx_int last = sx_add(ls.v0, sx_mul((sx_int){ls.dir, 0}, sx_sub(ls.trips, (sx_int){1, 0})));
    ls.lo = ls.dir > 0 ? second : last;
    ls.hi = ls.dir > 0 ? last : second;
    bool ok = false, taken_s1 = false, taken_a = false, first_differs = false, steady = false;
    int64_t probe_event = 0; /* the first probe's first event */
    bool leave;
    ls.n_diags1 = cx->r->n_diags;
    an_flow fl = loop_body(cx, s, &leave); /* iteration 1 */
    if (fl != AN_FLOW_NEXT || leave || cx->stopped) {
        fail(&ls, "an iteration leaves the loop (break, return or goto)");
        goto undo;
    }
    an_snap_take(cx, &ls.s1);
    taken_s1 = true;
    probe_event = cx->r->n_events;
    ls.marks1 = cx->n_bound_marks;
    ls.assumptions1 = sx_n_assumptions();
    ls.n_storages1 = cx->r->n_storages;
    ls.n_values1 = cx->r->n_values;
    ls.exec1 = tl_xmalloc(sizeof *ls.exec1 * ((size_t)ls.n_values1 + 1));
    for (int v = 0; v < ls.n_values1; v++)
        ls.exec1[v] = cx->r->values[v].n_exec;
    ls.runs1 = runs_take(cx);
    for (int k = 0; k < n; k++) {
        fr_effect(&cx->r->funcs[k], &ls.eff[6 * k], &ls.eff[6 * k + 1]);
        ls.peak1[k] = cx->r->funcs[k].symbolic ? cx->r->funcs[k].peak_sx
                                               : (sx_int){cx->r->funcs[k].peak_live_bytes, 0};
    }
    ls.step = (sx_int){ls.dir, 0};
    sx_int dist = ls.trips, after;
    bool *counter_known;
    int64_t *counter = an_int_slot(cx, ls.var, &counter_known);
    if (an_int_get(*counter_known, *counter, &after) && sx_usable(sx_sub(after, ls.v0)) &&
        !sx_same(sx_sub(after, ls.v0), ls.step)) { /* a stride: a loop of its own kind */
        ls.step = sx_sub(after, ls.v0);
        stepped = true;
        ls.n_diags1 = cx->r->n_diags;
        ok = stepped_summary(cx, &ls, &t, ls.step, &taken_a);
        if (ok) {
            sx_set_site(s->loc.line);
            ok = sx_cmp(dist, SX_GE, (sx_int){1, 0}); /* else the generic values skip it */
        }
        goto undo;
    }
    loop_trial t1;
    trial_begin(cx, &t1);
    ls.n_diags1 = cx->r->n_diags;
    if (!probe(cx, s, ls.var, ls.v0, ls.dir, ls.lo, ls.hi, &ls.la))
        fail(&ls, LOOP_NOT_COUNTED);
    else if (probe_plain(cx, &ls)) {
        an_snap_take(cx, &ls.a);
        taken_a = true;
        for (int k = 0; k < n; k++)
            fr_effect(&cx->r->funcs[k], &ls.eff[6 * k + 2], &ls.eff[6 * k + 3]);
        ls.runsa = runs_take(cx);
        ok = steady = steady_summary(cx, &ls, &first_differs);
    }
    if (ok) {
        trial_keep(cx, &t1);
    } else {
        if (!taken_a)
            *why = loop_why(cx, &ls);
        trial_undo(cx, &t1); /* back to the end of iteration 1 */
        if (taken_a) { /* forward from the probe's state */
            trial_begin(cx, &t1);
            ls.n_diags1 = cx->r->n_diags;
            ls.why = NULL; /* the growth summary's reason is the one to give */
            ok = growth_summary(cx, &ls, &t.s0, false);
            if (ok) {
                trial_keep(cx, &t1);
            } else {
                free(*why);
                *why = loop_why(cx, &ls);
                trial_undo(cx, &t1);
            }
        }
        if (!ok) { /* backward from the state before the loop */
            ls.n_diags1 = cx->r->n_diags;
            ls.why = NULL;
            ok = growth_summary(cx, &ls, &t.s0, true);
        }
    }
    if (ok) {
        sx_set_site(s->loc.line);
        ok = sx_cmp(ls.trips, SX_GE, (sx_int){1, 0}); /* else the generic values skip the loop */
    }
undo:
    if (!ok) {
        if (!*why)
            *why = loop_why(cx, &ls);
        trial_undo(cx, &t);
    } else {
        free(*why); /* a reason an earlier attempt gave */
        *why = NULL;
        if (!stepped) { /* (a stepped loop's last iteration left the totals and counter) */
            commit_totals(cx, ls.trips, ls.sum, ls.pk, ls.peak1, first_differs);
            commit_runs(cx, &ls, steady);
        }
        for (int st = ls.n_storages1; st < cx->r->n_storages; st++)
            cx->r->storages[st].summarised = true;
        for (int v = 0; v < cx->r->n_values; v++) /* the call sites the probes ran */
            if (v >= ls.n_values1 || cx->r->values[v].n_exec != ls.exec1[v])
                cx->r->values[v].summarised = true;
        bool *known;
        int64_t *slot = an_int_slot(cx, ls.var, &known);
        if (!stepped)
            an_int_put(true, sx_add(ls.v0, sx_mul((sx_int){ls.dir, 0}, ls.trips)), known, slot);
        /* a steady loop's peak is taken at hi (loop_peaks); a growing one's state at its end */
        if (stepped) { /* the probes' index J at q - 1: the counter v0 + step*(q - 1) */
            sx_int q1 = sx_sub(ls.trips, (sx_int){2, 0});
            record_loop(cx, &ls, t.n_events, probe_event, q1,
                        sx_add(ls.v0, sx_mul(ls.step, q1)));
        } else {
            sx_int at = steady || ls.dir > 0 ? ls.hi : ls.lo;
            record_loop(cx, &ls, t.n_events, probe_event, at, at);
        }
        an_snap_free(&t.s0);
        an_frs_free(cx, t.r0);
        free(t.values0);
    }
    if (taken_s1)
        an_snap_free(&ls.s1);
    if (taken_a)
        an_snap_free(&ls.a);
    free(ls.eff);
    free(ls.peak1);
    free(ls.sum);
    free(ls.pk);
    free(ls.exec1);
    free(ls.runs0);
    free(ls.runs1);
    free(ls.runsa);
    free(ls.runsb);
    return ok;
}

/* summarise_loop, and what it found of early exits: an unknown branch in
 * an iteration that may leave it makes the summary's totals bounds (said at
 * the branch), or the enclosing summary's when this one is a probe's. */
static bool summarise_whole(an_ctx *cx, const ir_stmt *s, an_flow *out, char **why)
{
    int outer = cx->early_exit_line;
    cx->early_exit_line = 0;
    cx->summarising++;
    bool ok = summarise_loop(cx, s, out, why);
    cx->summarising--;
    int line = cx->early_exit_line;
    cx->early_exit_line = outer;
    if (!ok || !line)
        return ok;
    if (cx->summarising > 0) {
        if (!cx->early_exit_line)
            cx->early_exit_line = line;
        return ok;
    }
    an_diag_add(cx, AN_NOTE, "unknown-branch", s->loc.line, s->loc.col,
                "the loop may be left early (line %d: a condition not known statically leaves "
                "it, or the iteration): its totals are those of a run that goes through every "
                "iteration, upper bounds for one that leaves", line);
    an_mark_bound_of(cx, AN_BOUND_ALL);
    return ok;
}

/* The body of loop s, analysed once for a trip count not known, made
 * events[first, now): verify may meet it any number of times. */
static void record_repeat(an_ctx *cx, const ir_stmt *s, int64_t first)
{
    an_report *r = cx->r;
    if (cx->summarising > 0 || !cx->log_events || r->n_events_dropped || r->n_events == first)
        return;
    r->repeats = tl_xrealloc(r->repeats, sizeof *r->repeats * (size_t)(r->n_repeats + 1));
    r->repeats[r->n_repeats++] = (an_repeat){first, r->n_events, s->loc.line};
}

an_flow an_exec_loop(an_ctx *cx, const ir_stmt *s)
{
    bool leave = false;
    an_flow fl = AN_FLOW_NEXT;
    int64_t n = 0;
    an_frame *frame = an_top(cx);
    bool upper_loop = cx->upper_loop;
    int64_t clock0 = cx->exec_clock;
    cx->loop_depth++;
    frame->loops++;
    an_exec_block(cx, s->loop.init);
    if (s->loop.kind == IR_LOOP_DO) {
        fl = loop_body(cx, s, &leave);
        n++;
    }
    while (!leave && fl == AN_FLOW_NEXT && !cx->stopped) {
        int t = loop_test(cx, s);
        if (t == 0)
            break;
        char *why = NULL;
        if (t < 0 && n == 0 && summarise_whole(cx, s, &fl, &why))
            break;
        int64_t c; /* the summary's try read a variable the test could not: bound by --bind, */
        if (t < 0 && s->loop.cond && an_eval(cx, s->loop.cond, &c)) { /* it is known now */
            free(why);
            if (c == 0)
                break;
            t = 1;
        }
        if (t < 0 && why) {
            an_diag_add(cx, AN_NOTE, "unknown-trip-count", s->loc.line, s->loc.col,
                        "%s: the body is analysed for one iteration", why);
            free(why);
        } else if (t < 0) {
            an_diag_add(cx, AN_NOTE, "unknown-trip-count", s->loc.line, s->loc.col,
                        "loop condition is not known statically: the body is analysed for one "
                        "iteration");
        }
        if (t < 0) {
            an_mark_bound(cx);
            cx->runs_unknown++; /* one iteration of how many: the counts are not known */
            int64_t first = cx->r->n_events;
            fl = loop_body(cx, s, &leave);
            record_repeat(cx, s, first);
            cx->runs_unknown--;
            break;
        }
        if (n++ >= cx->opt.max_iterations) {
            an_diag_add(cx, AN_WARNING, "analysis-limit", s->loc.line, s->loc.col,
                        "loop stopped after %lld iterations (--max-iterations); later totals "
                        "are lower bounds", (long long)cx->opt.max_iterations);
            an_mark_bound(cx);
            for (int v = 0; v < cx->r->n_values; v++) /* the calls it ran run more */
                if (cx->r->values[v].runs_stamp > clock0)
                    cx->r->values[v].runs_unknown = true;
            break;
        }
        fl = loop_body(cx, s, &leave);
    }
    cx->loop_depth--;
    frame->loops--;
    cx->upper_loop = upper_loop; /* an early exit from its iterations ends with it */
    return fl;
}

