/*
 * an_loop.c: loops.  A loop whose condition is known runs iteration by
 * iteration (capped by max_iterations); one counted up or down to a bound
 * that is a formula is summarised (steady: the same effect every
 * iteration; growing: a state that is a formula in the counter, proved by
 * induction, arrays filled or emptied as segments, in an_loop_growth.c;
 * stepped by more than one, in an_loop_step.c; with two kinds of
 * iteration, `if (step % K == r)`, in an_loop_class.c); anything else runs
 * its body once, with a note that says why (loops that touch no tensor, and
 * what a loop analysed once wrote: an_loop_once.c; a loop left at a
 * condition not known statically: an_loop_exit.c).  docs/symbolic.md
 * describes it.
 */
#include "an_loop_internal.h"

#include <limits.h>
#include <stdio.h>
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

static bool loc_before(ir_loc a, ir_loc b)
{
    return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* The last place of the loop's header: its keyword, init, condition, step. */
static ir_loc header_end(const ir_stmt *s)
{
    ir_loc at = s->loc;
    const ir_block *parts[] = {s->loop.init, s->loop.cond_pre, s->loop.step};
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)
        for (int k = 0; parts[p] && k < parts[p]->n_stmts; k++)
            if (loc_before(at, parts[p]->stmts[k]->loc))
                at = parts[p]->stmts[k]->loc;
    if (s->loop.cond && loc_before(at, s->loop.cond->loc))
        at = s->loop.cond->loc;
    return at;
}

/* The variables declared in the loop's body (after its header, before its
 * closing brace) end with each iteration (C's scope): what an iteration
 * left in their integers, pointers, arrays and structs (an inner loop's
 * counter, a pointer to the iteration's element, an array of the handles
 * it releases) is no state the next iteration starts from, and is
 * forgotten.  An object that still holds a live tensor is kept, as it was
 * (its loss is for the leak checks). */
static void body_locals_end(an_ctx *cx, const ir_stmt *s)
{
    const ir_block *b = s->loop.body;
    if (!b || b->end.line == 0 || s->loop.kind == IR_LOOP_DO)
        return;
    ir_loc from = header_end(s);
    an_frame *fr = an_top(cx);
    const int *ids = cx->vars.func_vars[fr->func];
    for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
        const ir_var *v = &cx->u->vars[ids[j]];
        if (v->is_global || v->is_param || !loc_before(from, v->loc) || !loc_before(v->loc, b->end))
            continue;
        an_loc whole = {.frame = fr->serial, .var = ids[j]};
        if (an_mem_holds_handles(cx, &whole))
            continue;
        fr->int_known[cx->vars.slot[ids[j]]] = false;
        fr->ints[cx->vars.slot[ids[j]]] = 0;
        for (int k = 0; k < cx->mem.cells.n; k++)
            if (cx->mem.cells.e[k].loc.frame == fr->serial && cx->mem.cells.e[k].loc.var == ids[j])
                an_mem_remove(&cx->mem.cells, &cx->mem.cells.e[k].loc);
    }
}

an_flow an_loop_loop_body(an_ctx *cx, const ir_stmt *s, bool *leave)
{
    an_flow fl = an_exec_block(cx, s->loop.body);
    body_locals_end(cx, s);
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
void an_loop_fr_effect(const an_func_report *fr, sx_int *moved, sx_int *calls)
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
bool an_loop_steady_handles(void *ctx, int a, int b)
{
    const steady_ctx *sc = ctx;
    an_ctx *cx = sc->cx;
    if (a < 0 || b < 0 || a >= sc->then->tens.n_handles)
        return a == b;
    if (a != b) /* one place, another handle each iteration: which one is not known */
        cx->tens.handles[b].ident_unsure = true;
    const an_handle *x = &sc->then->tens.handles[a], *y = &cx->tens.handles[b];
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
bool an_loop_steady_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    if (mine->kind == AN_CELL_PTR)
        return an_cell_same(((const steady_ctx *)ctx)->cx, mine, theirs);
    if (mine->seg || theirs->seg) /* the same run of elements, the same bounds */
        return mine->seg == theirs->seg && mine->ptr == theirs->ptr &&
               (mine->kind == AN_CELL_INT ? mine->known == theirs->known && mine->i == theirs->i
                                          : mine->handle == theirs->handle);
    if (mine->kind == AN_CELL_INT && (mine->known != theirs->known || mine->i != theirs->i)) {
        /* A value of its own each iteration (a random state, a value read
         * back): a run-time value after the loop, as a variable's is
         * (steady_int); what the iterations computed from it is compared
         * with their effects.  One that steps (known, or a formula in the
         * symbols it had) is the growth summary's. */
        const steady_ctx *sc = ctx;
        sx_int xm, xt;
        if (sc->own_from == 0)
            return false;
        bool own = !an_int_get(mine->known, mine->i, &xm) ||
                   !an_int_get(theirs->known, theirs->i, &xt) ||
                   sx_mentions_newer(sx_sub(xm, xt), sc->own_from - 1);
        if (!own)
            return false;
        mine->known = false;
        mine->i = an_unknown_token(sc->cx);
        return true;
    }
    if (mine->kind == AN_CELL_INT)
        return true;
    return an_loop_steady_handles(ctx, theirs->handle, mine->handle);
}

/* An integer place the state after the first probe has no entry for: one
 * written in this iteration at an index that is a run-time value of its
 * own (`buf[len - 1] = '\0'` after a read of len: the next iteration writes
 * another), or one that state reads as a value not known (a buffer of
 * unknown contents, filled in an arm of a branch not known statically).
 * Either holds a run-time value after the loop; the place stays (a later
 * read that may be it reads an unknown value). */
static bool an_loop_steady_extra(void *ctx, const an_loc *l, an_cell *mine)
{
    const steady_ctx *sc = ctx;
    if (sc->own_from == 0 || mine->kind != AN_CELL_INT || mine->seg)
        return false;
    bool own = an_mem_reads_unknown(sc->cx, &sc->then->mem, l);
    for (int k = 0; k < l->n && !own; k++)
        own = an_key_is_sym(l->key[k]) &&
              sx_mentions_newer(an_key_sx(l->key[k]), sc->own_from - 1);
    if (own) {
        mine->known = false;
        mine->i = an_unknown_token(sc->cx);
    }
    return own;
}

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
bool an_loop_steady_state(an_ctx *cx, const snapshot *s0, const snapshot *s1, const snapshot *a,
                         sx_int trips, uint32_t la, uint32_t lb, int counter, bool *first_differs)
{
    if (cx->ctl.depth != a->ctl.depth || cx->ctl.depth != s1->ctl.depth ||
        (s0 && s0->ctl.depth != cx->ctl.depth))
        return false;
    *first_differs = false;
    /* (an integer in memory of its own each iteration: from the first probe's counter on) */
    steady_ctx at_a = {cx, a, sx_symbol_of((sx_int){0, la}) + 1}, at_s1 = {cx, s1, 0};
    for (int k = 0; k < cx->ctl.depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            int sl = cx->vars.slot[ids[j]];
            if (borrowed(cx, ids[j]))
                continue;
            if (!an_loop_steady_handles(&at_a, a->ctl.tensors[k][j], fr->tensor[sl]))
                return false;
            if (!an_loop_steady_handles(&at_s1, s1->ctl.tensors[k][j], fr->tensor[sl]))
                *first_differs = true;
            if (ids[j] != counter)
                steady_int(trips, la, lb, s0 ? &s0->ctl.known[k][j] : NULL,
                           s0 ? &s0->ctl.ints[k][j] : NULL, s1->ctl.known[k][j], s1->ctl.ints[k][j],
                           a->ctl.known[k][j], a->ctl.ints[k][j], &fr->int_known[sl],
                           &fr->ints[sl]);
        }
    }
    for (int g = 0; g < cx->vars.n_globals; g++) {
        if (!an_loop_steady_handles(&at_a, a->ctl.g_tensor[g], cx->ctl.gframe->tensor[g]))
            return false;
        if (!an_loop_steady_handles(&at_s1, s1->ctl.g_tensor[g], cx->ctl.gframe->tensor[g]))
            *first_differs = true;
        if (cx->vars.global_vars[g] != counter)
            steady_int(trips, la, lb, s0 ? &s0->ctl.g_known[g] : NULL,
                       s0 ? &s0->ctl.g_ints[g] : NULL, s1->ctl.g_known[g], s1->ctl.g_ints[g],
                       a->ctl.g_known[g], a->ctl.g_ints[g], &cx->ctl.gframe->int_known[g],
                       &cx->ctl.gframe->ints[g]);
    }
    return an_mem_map_extra(cx, &a->mem, an_loop_steady_cell, an_loop_steady_extra, &at_a);
}

/* `v < E`, `v <= E` (counting up), `v > E`, `v >= E` (counting down), or
 * the same with the sides swapped, on an integer variable v whose trip
 * count is a formula: *var, *v0 (its value now), *trips, *dir (+1 or -1:
 * the probes check that the body steps it so). */
bool an_loop_counted_loop(an_ctx *cx, const ir_stmt *s, int *var, sx_int *v0, sx_int *trips,
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

/* Begin a trial from the state now; an_loop_trial_undo or an_loop_trial_keep ends it. */
void an_loop_trial_begin(an_ctx *cx, loop_trial *t)
{
    *t = (loop_trial){.n_diags = cx->r->n_diags, .n_assumptions = sx_n_assumptions(),
                      .n_facts = sx_n_facts(), .n_values = cx->r->n_values,
                      .n_storages = cx->r->n_storages, .n_events = cx->r->n_events,
                      .n_handles = cx->tens.n_handles, .n_exits = cx->r->n_exits,
                      .n_paths = cx->r->n_paths, .n_rets = an_top(cx)->n_rets,
                      .names = an_symbol_names_mark(cx)};
    an_snap_take(cx, &t->s0);
    t->r0 = an_frs_save(cx);
    t->values0 = an_dup_mem(cx->r->values, sizeof *cx->r->values * (size_t)cx->r->n_values);
}

static void an_loop_trial_keep(an_ctx *cx, loop_trial *t)
{
    an_snap_free(&t->s0);
    an_frs_free(cx, t->r0);
    free(t->values0);
    an_symbol_names_unmark(&t->names);
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
void an_loop_trial_undo(an_ctx *cx, loop_trial *t)
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
    an_ret_drop(cx, an_top(cx), t->n_rets, an_top(cx)->n_rets);
    for (int k = 0; k < cx->u->n_call_sites; k++)
        if (cx->out.site_value[k] >= t->n_values)
            cx->out.site_value[k] = -1;
    while (r->n_values > t->n_values)
        free(r->values[--r->n_values].reason);
    values_restore(cx, t->values0, t->n_values);
    r->n_storages = t->n_storages;
    cx->tens.n_handles = t->n_handles;
    sx_forget_assumptions(t->n_assumptions);
    sx_forget_facts(t->n_facts);
    an_symbol_names_back(cx, &t->names);
}

/* The counter's facts while a probe runs: 1 <= l - v0 < trips.  Returns
 * the mark to forget them at. */
int an_loop_counter_facts(sx_int l, sx_int lo, sx_int hi)
{
    int facts = sx_n_facts();
    sx_fact_push(sx_sub(l, lo));
    sx_fact_push(sx_sub(hi, l));
    return facts;
}

sx_int an_loop_counter_symbol(an_ctx *cx, const ir_stmt *s, int var, sx_int v0, int dir)
{
    /* what nothing decides is decided as in an early iteration */
    return sx_symbol_near(cx->u->vars[var].name, "loop", s->loc.line, s->loc.col,
                          sx_add(v0, (sx_int){dir, 0}));
}

/* Run the body once with the counter l: it must end at l + step. */
bool an_loop_probe_body(an_ctx *cx, const ir_stmt *s, int var, sx_int l, sx_int step)
{
    bool *known;
    int64_t *slot = an_int_slot(cx, var, &known);
    an_int_put(true, l, known, slot);
    bool leave;
    an_flow fl = an_loop_loop_body(cx, s, &leave);
    sx_int after;
    slot = an_int_slot(cx, var, &known);
    return fl == AN_FLOW_NEXT && !leave && !cx->ctl.stopped &&
           an_int_get(*known, *slot, &after) && sx_same(after, sx_add(l, step));
}

/* Run the body once with the counter a fresh symbol l, one of the values
 * it takes in iterations 2..trips (lo <= l <= hi). */
static bool probe(an_ctx *cx, const ir_stmt *s, int var, sx_int v0, int dir, sx_int lo, sx_int hi,
                  uint32_t *sym)
{
    sx_int l = an_loop_counter_symbol(cx, s, var, v0, dir);
    *sym = l.e;
    int facts = an_loop_counter_facts(l, lo, hi);
    bool ok = an_loop_probe_body(cx, s, var, l, (sx_int){dir, 0});
    sx_forget_facts(facts);
    return ok;
}

/* The candidates of fr with the probes' counters a (first) and b (second)
 * resolved: one of the first probe is the second's, renamed; one of the
 * second that grows as the counter goes (coefficients of dir's sign) is
 * largest at the last iteration, whose counter is `last`.  False when some
 * candidate is neither. */
bool an_loop_loop_peaks(const an_func_report *fr, sx_int a, sx_int b, sx_int last, int dir,
                       loop_peak *out)
{
    out->changed = false;
    out->set.n = 0;
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
        out->set.cand[out->set.n] = x; /* (no more than fr has: room for each) */
        out->set.line[out->set.n++] = fr->peak_cand_line[c];
    }
    if (!out->changed)
        return !sx_depends_on(fr->peak_sx, a) && !sx_depends_on(fr->peak_sx, b);
    an_peak_prune(&out->set, false, NULL, NULL); /* drop the candidates another one covers */
    out->peak = an_peak_max(&out->set);
    return out->set.n > 0;
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
bool an_loop_loop_assumptions(int from, sx_int a, sx_int b, sx_int lo, sx_int hi, int line)
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
void an_loop_add_effect(an_func_report *fr, sx_int dm, sx_int dc)
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
        an_loop_add_effect(fr, sum[2 * k], sum[2 * k + 1]);
        if (pk[k].changed)
            an_peak_put(fr, &pk[k].set);
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

bool an_loop_fail(loop_sum *ls, const char *why)
{
    if (!ls->why)
        ls->why = why;
    return false;
}

const char *const LOOP_NOT_FOLLOWED = "an iteration is not followed exactly";
const char *const LOOP_NOT_COUNTED = "not counted";

/* Each value's count now (an_value_runs), to take differences of. */
sx_int *an_loop_runs_take(const an_ctx *cx)
{
    sx_int *r = tl_xmalloc(sizeof *r * ((size_t)cx->r->n_values + 1));
    for (int v = 0; v < cx->r->n_values; v++)
        r[v] = an_value_runs(&cx->r->values[v]);
    return r;
}

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
bool an_loop_sum_effects(an_ctx *cx, loop_sum *ls, int from, bool renamed)
{
    sx_int A = {0, ls->la}, B = {0, ls->lb};
    for (int k = 0; k < ls->n; k++) {
        sx_int *e = &ls->eff[6 * k];
        an_loop_fr_effect(&cx->r->funcs[k], &e[4], &e[5]);
        for (int j = 0; j < 2; j++) { /* one step per iteration, a polynomial in the counter */
            sx_int d1 = sx_sub(e[2 + j], e[j]), d2 = sx_sub(e[4 + j], e[2 * from + j]);
            if (sx_depends_on(d2, A) || (renamed && !sx_same(sx_subst(d1, A, B), d2)))
                return false;
            if (!sx_sum(d2, B, ls->lo, ls->hi, &ls->sum[2 * k + j]))
                return an_loop_fail(ls,
                                    "the bytes an iteration moves are not a polynomial of degree "
                                    "at most 2 in the counter");
            ls->sum[2 * k + j] = sx_sub(ls->sum[2 * k + j], renamed ? sx_add(d1, d2) : d2);
        }
        if (!an_loop_loop_peaks(&cx->r->funcs[k], A, B, ls->dir > 0 ? ls->hi : ls->lo, ls->dir,
                        &ls->pk[k]))
            return an_loop_fail(ls, "its peak neither stays nor grows with the counter");
    }
    return true;
}

/* Nothing the last probe made is on the GPU (the caching allocator is
 * simulated for known counts), nothing became a bound. */
bool an_loop_probe_plain(const an_ctx *cx, loop_sum *ls)
{
    if (cx->acct.n_bound_marks != ls->marks1)
        return an_loop_fail(ls, LOOP_NOT_FOLLOWED);
    for (int st = ls->n_storages1; st < cx->r->n_storages; st++)
        if (cx->r->storages[st].device == TL_CUDA)
            return an_loop_fail(ls, "an iteration allocates on the GPU, whose caching allocator is "
                            "simulated for known counts only");
    return true;
}

/* The second probe from where the first ended: the loop is steady when
 * both have one effect and leave one state (counters aside). */
static bool steady_summary(an_ctx *cx, loop_sum *ls, bool *first_differs)
{
    if (!probe(cx, ls->s, ls->var, ls->v0, ls->dir, ls->lo, ls->hi, &ls->lb) ||
        !an_loop_probe_plain(cx, ls))
        return false;
    sx_int l1 = live_total(ls->s1.acct.live, ls->s1.acct.live_sx);
    if (!sx_same(l1, live_total(ls->a.acct.live, ls->a.acct.live_sx)) ||
        !sx_same(l1, live_total(cx->acct.live, cx->acct.live_sx)))
        return false;
    return an_loop_sum_effects(cx, ls, 1, true) &&
           an_loop_steady_state(cx, NULL, &ls->s1, &ls->a, ls->trips, ls->la, ls->lb, ls->var,
                                first_differs) &&
           an_loop_loop_assumptions(ls->assumptions1, (sx_int){0, ls->la}, (sx_int){0, ls->lb},
                                    ls->lo, ls->hi, ls->s->loc.line);
}


/* Iteration 1 left the loop: how far its counter steps, and so how many
 * times the loop runs, is not known (a loop stepping by 2 up to argc does
 * not run argc - 1 times). */
static const char LOOP_LEAVES[] = "an iteration leaves the loop (break, return or goto)";

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
    if (ls->why == LOOP_LEAVES)
        return tl_xasprintf("the loop's condition is a formula, but %s", LOOP_LEAVES);
    if (ls->why == LOOP_NOT_FOLLOWED && d) {
        char *at = ir_unit_line_text(cx->u, d->line);
        char *s = tl_xasprintf("the loop runs %s times, but an iteration is not followed "
                               "exactly (line %s: %s)", trips, at, d->message);
        free(at);
        return s;
    }
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

/* The summary holds where the loop runs (trips >= 1), else the generic
 * values skip it: assumed when not proved, but for a loop that touches no
 * tensor (an option loop run with no option), analysed once instead. */
static bool loop_runs(an_ctx *cx, const ir_stmt *s, sx_int trips)
{
    bool ge;
    if (an_top(cx)->host_loops > 0) /* (the innermost loop open is this one) */
        return sx_prove(trips, SX_GE, (sx_int){1, 0}, &ge) && ge;
    sx_set_site(s->loc.line);
    return sx_cmp(trips, SX_GE, (sx_int){1, 0});
}

/* What summarise_loop keeps between its steps; sum_free gives back what
 * it owns (the snapshots and per-function arrays of ls, the class). */
typedef struct loop_try {
    const loop_exit *ex;  /* the loop's counted exit, or NULL */
    loop_sum ls;
    loop_class cls;       /* an `if` on the counter's class, when classed */
    loop_trial t;         /* from before iteration 1: the whole loop's */
    bool stepped;         /* its counter steps by a stride (an_loop_stepped_summary) */
    bool classed;         /* two kinds of iteration (an_loop_class_summary) */
    bool steady, first_differs;
    bool taken_s1, taken_a;
    int64_t probe_event;  /* the first probe's first event */
    char **why;
} loop_try;

/* A counted loop that may run: its counter, first value and trip count
 * (the run's, at most the test's, when it is left at a counted exit). */
static bool sum_counted(an_ctx *cx, loop_try *lt)
{
    loop_sum *ls = &lt->ls;
    const loop_exit *ex = lt->ex;
    /* (in an arm of a condition not known statically as anywhere else: the
     * branch joins the arms' summaries as it joins any two arms) */
    if (!an_func_report_of(cx, an_top(cx)->func))
        return false;
    /* (a loop left at its counted exit runs a symbol's times, whatever its test's count) */
    if (!an_loop_counted_loop(cx, ls->s, &ls->var, &ls->v0, &ls->trips, &ls->dir) &&
        !(ex && ls->var >= 0 && ls->trips.e == 0 && ls->trips.c >= 1))
        return false;
    bool ge1;
    if (sx_prove(ls->trips, SX_GE, (sx_int){1, 0}, &ge1) && !ge1)
        return false;
    if (ex) { /* the run's count: at most the test's */
        sx_fact_push(sx_sub(ls->trips, ex->runs));
        ls->trips = ex->runs;
    }
    return true;
}

/* The trial of the whole loop begins; the per-function arrays, the
 * counter's values in iterations 2..trips. */
static void sum_begin(an_ctx *cx, loop_try *lt)
{
    loop_sum *ls = &lt->ls;
    an_loop_trial_begin(cx, &lt->t);
    ls->runs0 = an_loop_runs_take(cx);
    int n = ls->n = cx->r->n_funcs;
    ls->eff = tl_xmalloc(sizeof *ls->eff * 6 * (size_t)(n + 1));
    ls->peak1 = tl_xmalloc(sizeof *ls->peak1 * (size_t)(n + 1));
    ls->sum = tl_xmalloc(sizeof *ls->sum * 2 * (size_t)(n + 1));
    ls->pk = tl_xmalloc(sizeof *ls->pk * (size_t)(n + 1));
    sx_int second = sx_add(ls->v0, (sx_int){ls->dir, 0});
    sx_int last = sx_add(ls->v0, sx_mul((sx_int){ls->dir, 0}, sx_sub(ls->trips, (sx_int){1, 0})));
    ls->lo = ls->dir > 0 ? second : last;
    ls->hi = ls->dir > 0 ? last : second;
}

/* Iteration 1, and what the summary compares the next ones with; false
 * when it left the loop or the counted exit decided it. */
static bool sum_first(an_ctx *cx, loop_try *lt)
{
    loop_sum *ls = &lt->ls;
    bool leave;
    ls->n_diags1 = cx->r->n_diags;
    an_flow fl = an_loop_loop_body(cx, ls->s, &leave);
    if (fl != AN_FLOW_NEXT || leave || cx->ctl.stopped)
        return an_loop_fail(ls, LOOP_LEAVES);
    if (lt->ex && !cx->ctl.counted_exit_met) /* decided there: iterations the analysis can follow */
        return false;
    an_snap_take(cx, &ls->s1);
    lt->taken_s1 = true;
    lt->probe_event = cx->r->n_events;
    ls->marks1 = cx->acct.n_bound_marks;
    ls->assumptions1 = sx_n_assumptions();
    ls->n_storages1 = cx->r->n_storages;
    ls->n_values1 = cx->r->n_values;
    ls->exec1 = tl_xmalloc(sizeof *ls->exec1 * ((size_t)ls->n_values1 + 1));
    for (int v = 0; v < ls->n_values1; v++)
        ls->exec1[v] = cx->r->values[v].n_exec;
    ls->runs1 = an_loop_runs_take(cx);
    for (int k = 0; k < ls->n; k++) {
        an_loop_fr_effect(&cx->r->funcs[k], &ls->eff[6 * k], &ls->eff[6 * k + 1]);
        ls->peak1[k] = cx->r->funcs[k].symbolic ? cx->r->funcs[k].peak_sx
                                                : (sx_int){cx->r->funcs[k].peak_live_bytes, 0};
    }
    ls->step = (sx_int){ls->dir, 0};
    return true;
}

/* Iteration 1 stepped the counter by other than dir: a loop of its own
 * kind (an_loop_stepped_summary), but not at a counted exit (its count is not
 * the run's).  False: not a stride. */
static bool sum_strided(an_ctx *cx, loop_try *lt, bool *ok)
{
    loop_sum *ls = &lt->ls;
    sx_int dist = ls->trips, after;
    bool *counter_known;
    int64_t *counter = an_int_slot(cx, ls->var, &counter_known);
    if (!an_int_get(*counter_known, *counter, &after) || !sx_usable(sx_sub(after, ls->v0)) ||
        sx_same(sx_sub(after, ls->v0), ls->step))
        return false;
    ls->step = sx_sub(after, ls->v0);
    lt->stepped = true;
    *ok = false;
    if (lt->ex)
        return true;
    ls->n_diags1 = cx->r->n_diags;
    *ok = an_loop_stepped_summary(cx, ls, &lt->t, ls->step, &lt->taken_a);
    if (*ok)
        *ok = loop_runs(cx, ls->s, dist);
    return true;
}

/* No steady summary: a growth summary, forward from the probe's state
 * (taken_a), else backward from the state before the loop. */
static bool sum_growth(an_ctx *cx, loop_try *lt, loop_trial *t1)
{
    loop_sum *ls = &lt->ls;
    bool ok = false;
    if (lt->taken_a) { /* forward from the probe's state */
        an_loop_trial_begin(cx, t1);
        ls->n_diags1 = cx->r->n_diags;
        ls->why = NULL; /* the growth summary's reason is the one to give */
        ok = an_loop_growth_summary(cx, ls, &lt->t.s0, false);
        if (ok) {
            an_loop_trial_keep(cx, t1);
        } else {
            free(*lt->why);
            *lt->why = loop_why(cx, ls);
            an_loop_trial_undo(cx, t1);
        }
    }
    if (!ok) { /* backward from the state before the loop */
        ls->n_diags1 = cx->r->n_diags;
        ls->why = NULL;
        ok = an_loop_growth_summary(cx, ls, &lt->t.s0, true);
    }
    return ok;
}

/* The probes from the end of iteration 1: a steady summary (of a loop of
 * two kinds too), else a growth summary. */
static bool sum_probes(an_ctx *cx, loop_try *lt)
{
    loop_sum *ls = &lt->ls;
    const ir_stmt *s = ls->s;
    bool ok = false;
    loop_trial t1;
    an_loop_trial_begin(cx, &t1);
    ls->n_diags1 = cx->r->n_diags;
    /* (two kinds of iteration: the probes run those that do not take the arm) */
    lt->classed = ls->dir > 0 && ls->v0.e == 0 && ls->v0.c >= 0 && ls->v0.c <= INT32_MAX &&
                  an_loop_class_find(s, ls->var, ls->v0.c, &lt->cls);
    cx->ctl.forced_if = lt->classed ? lt->cls.s : NULL;
    if (!probe(cx, s, ls->var, ls->v0, ls->dir, ls->lo, ls->hi, &ls->la))
        an_loop_fail(ls, LOOP_NOT_COUNTED);
    else if (an_loop_probe_plain(cx, ls)) {
        an_snap_take(cx, &ls->a);
        lt->taken_a = true;
        for (int k = 0; k < ls->n; k++)
            an_loop_fr_effect(&cx->r->funcs[k], &ls->eff[6 * k + 2], &ls->eff[6 * k + 3]);
        ls->runsa = an_loop_runs_take(cx);
        ok = lt->steady = steady_summary(cx, ls, &lt->first_differs);
        if (ok && lt->classed)
            ok = lt->steady = an_loop_class_summary(cx, ls, &lt->cls);
    }
    cx->ctl.forced_if = NULL;
    if (ok) {
        an_loop_trial_keep(cx, &t1);
    } else if (lt->classed) {
        an_loop_trial_undo(cx, &t1); /* (no growth summary of a loop of two kinds) */
    } else {
        if (!lt->taken_a)
            *lt->why = loop_why(cx, ls);
        an_loop_trial_undo(cx, &t1); /* back to the end of iteration 1 */
        ok = sum_growth(cx, lt, &t1);
    }
    if (ok)
        ok = loop_runs(cx, s, ls->trips);
    return ok;
}

/* The summary holds: its totals, the counter after the loop, the calls and
 * storages it summarised, the chart's record of it. */
static void sum_commit(an_ctx *cx, loop_try *lt)
{
    loop_sum *ls = &lt->ls;
    free(*lt->why); /* a reason an earlier attempt gave */
    *lt->why = NULL;
    if (!lt->stepped) { /* (a stepped loop's last iteration left the totals and counter) */
        commit_totals(cx, ls->trips, ls->sum, ls->pk, ls->peak1, lt->first_differs);
        commit_runs(cx, ls, lt->steady);
        if (lt->classed)
            an_loop_class_commit(cx, ls, &lt->cls);
    }
    for (int st = ls->n_storages1; st < cx->r->n_storages; st++)
        cx->r->storages[st].summarised = true;
    for (int v = 0; v < cx->r->n_values; v++) /* the call sites the probes ran */
        if (v >= ls->n_values1 || cx->r->values[v].n_exec != ls->exec1[v])
            cx->r->values[v].summarised = true;
    bool *known;
    int64_t *slot = an_int_slot(cx, ls->var, &known);
    if (!lt->stepped)
        an_int_put(true, sx_add(ls->v0, sx_mul((sx_int){ls->dir, 0}, ls->trips)), known, slot);
    /* a steady loop's peak is taken at hi (loop_peaks); a growing one's state at its end */
    if (lt->stepped) { /* the probes' index J at q - 1: the counter v0 + step*(q - 1) */
        sx_int q1 = sx_sub(ls->trips, (sx_int){2, 0});
        record_loop(cx, ls, lt->t.n_events, lt->probe_event, q1,
                    sx_add(ls->v0, sx_mul(ls->step, q1)));
    } else {
        sx_int at = lt->steady || ls->dir > 0 ? ls->hi : ls->lo;
        record_loop(cx, ls, lt->t.n_events, lt->probe_event, at, at);
    }
    if (lt->ex)
        an_loop_forget_after_exit(cx, ls->s, lt->ex->at, &lt->t.s0);
    an_loop_trial_keep(cx, &lt->t);
}

static void sum_free(loop_try *lt)
{
    loop_sum *ls = &lt->ls;
    if (lt->taken_s1)
        an_snap_free(&ls->s1);
    if (lt->taken_a)
        an_snap_free(&ls->a);
    free(ls->eff);
    free(ls->peak1);
    free(ls->sum);
    free(ls->pk);
    free(ls->exec1);
    free(ls->runs0);
    free(ls->runs1);
    free(ls->runsa);
    free(ls->runsb);
    an_loop_class_free(&lt->cls);
}

/* Summarise the loop; false (the state as before the loop's first
 * iteration) when it is not a counted loop with a steady or stepping body:
 * then *why says why when the trip count was a formula (NULL otherwise). */
static bool summarise_loop(an_ctx *cx, const ir_stmt *s, const loop_exit *ex, an_flow *out,
                           char **why)
{
    loop_try lt = {.ex = ex, .ls = {.s = s, .var = -1}, .why = why};
    *why = NULL;
    *out = AN_FLOW_NEXT;
    if (!sum_counted(cx, &lt))
        return false;
    sum_begin(cx, &lt);
    bool ok = false;
    if (sum_first(cx, &lt) && !sum_strided(cx, &lt, &ok))
        ok = sum_probes(cx, &lt);
    if (ok) {
        sum_commit(cx, &lt);
    } else { /* the state, the totals and the report as before the loop */
        if (!*why)
            *why = loop_why(cx, &lt.ls);
        an_loop_trial_undo(cx, &lt.t);
    }
    sum_free(&lt);
    return ok;
}

/* summarise_loop, and what it found of early exits: an unknown branch in
 * an iteration that may leave it makes the summary's totals bounds (said at
 * the branch), or the enclosing summary's when this one is a probe's. */
bool an_loop_summarise_whole(an_ctx *cx, const ir_stmt *s, const loop_exit *ex, an_flow *out,
                        char **why)
{
    int outer = cx->ctl.early_exit_line, facts = sx_n_facts();
    cx->ctl.early_exit_line = 0;
    cx->ctl.summarising++;
    bool ok = summarise_loop(cx, s, ex, out, why);
    if (!ok) /* (the fact that the run's count is at most the test's) */
        sx_forget_facts(facts);
    cx->ctl.summarising--;
    int line = cx->ctl.early_exit_line;
    cx->ctl.early_exit_line = outer;
    if (!ok || !line)
        return ok;
    if (cx->ctl.summarising > 0) {
        if (!cx->ctl.early_exit_line)
            cx->ctl.early_exit_line = line;
        return ok;
    }
    char *at = ir_unit_line_text(cx->u, line);
    an_diag_add(cx, AN_NOTE, "unknown-branch", s->loc.line, s->loc.col,
                "the loop may be left early (line %s: a condition not known statically leaves "
                "it, or the iteration): its totals are those of a run that goes through every "
                "iteration, upper bounds for one that leaves", at);
    free(at);
    an_mark_claim(cx, AN_BOUND_ALL, AN_CLAIM_UPPER);
    return ok;
}

/* for (;;), while (1): a test that never ends the loop. */
static bool loop_test_always(const ir_stmt *s)
{
    const ir_expr *c = s->loop.cond;
    return !c || (c->kind == IR_EXPR_CONST && c->value != 0);
}

/* A loop whose trip count is not known, analysed for one iteration: the
 * note that says why (none for a loop that touches no tensor, whose trip
 * count no total depends on); why is freed. */
static void loop_once_note(an_ctx *cx, const ir_stmt *s, bool host, char *why)
{
    if (!host && why)
        an_diag_add(cx, AN_NOTE, "unknown-trip-count", s->loc.line, s->loc.col,
                    "%s: the body is analysed for one iteration", why);
    else if (!host)
        an_diag_add(cx, AN_NOTE, "unknown-trip-count", s->loc.line, s->loc.col,
                    "loop condition is not known statically: the body is analysed for one "
                    "iteration");
    free(why);
}

/* A loop touching no tensor that may be left early (an arm the analysis
 * cannot decide breaks): the state before it, to forget what it wrote when
 * it was (host_exit_settle); NULL for any other loop. */
static snapshot *host_exit_watch(an_ctx *cx, const ir_stmt *s, bool host)
{
    snapshot *before = NULL;
    if (host && an_loop_body_may_leave(s)) {
        before = tl_xmalloc(sizeof *before);
        an_snap_take(cx, before);
    }
    cx->ctl.host_left_early = false;
    return before;
}

static void host_exit_settle(an_ctx *cx, const ir_stmt *s, snapshot *before, bool outer_left)
{
    if (before && cx->ctl.host_left_early) /* the run may have left it at any iteration */
        an_loop_forget_written(cx, s, before);
    if (before)
        an_snap_free(before);
    free(before);
    cx->ctl.host_left_early = outer_left;
}

an_flow an_exec_loop(an_ctx *cx, const ir_stmt *s)
{
    bool leave = false;
    an_flow fl = AN_FLOW_NEXT;
    int64_t n = 0;
    an_frame *frame = an_top(cx);
    bool upper_loop = cx->ctl.upper_loop, upper_func = cx->ctl.upper_func;
    int64_t clock0 = cx->acct.exec_clock;
    bool host = an_loop_host_only(cx, s);
    loop_exit ex = {.at = host || cx->ctl.loop_depth > 0 ? -1 : an_loop_counted_exit_at(cx, s)};
    const ir_stmt *outer_exit = cx->ctl.counted_exit;
    cx->ctl.loop_depth++;
    frame->loops++;
    frame->host_loops += host;
    an_sym_mark names = host ? an_symbol_names_mark(cx) : (an_sym_mark){0, NULL, NULL};
    bool outer_left = cx->ctl.host_left_early;
    snapshot *before = host_exit_watch(cx, s, host);
    an_exec_block(cx, s->loop.init);
    int64_t runs = an_loop_loop_exit_runs(cx, s, &ex); /* -1: not bound */
    if (runs >= 0)
        cx->ctl.counted_exit = s->loop.body->stmts[ex.at];
    an_loop_skip sk; /* iterations that repeat a period are counted, not run (an_loop_skip.c) */
    if (runs < 0)
        an_loop_skip_begin(cx, s, host, &sk);
    else
        sk = (an_loop_skip){.anchor_n = -1};
    if (s->loop.kind == IR_LOOP_DO) {
        fl = an_loop_loop_body(cx, s, &leave);
        n++;
    }
    while (!leave && fl == AN_FLOW_NEXT && !cx->ctl.stopped) {
        if (runs >= 0 && n >= runs) /* the run left after its count of iterations */
            break;
        int t = loop_test(cx, s);
        if (t == 0)
            break;
        if (t < 0 && runs >= 0) /* it ran, as the count says */
            t = 1;
        char *why = NULL;
        if (n == 0 && ex.at >= 0 && runs < 0 && an_loop_loop_once_only(cx, s)) {
            runs = 1; /* at least once, at most once */
            cx->ctl.counted_exit = s->loop.body->stmts[ex.at];
        }
        if (n == 0 && ex.at >= 0 && runs < 0 && an_loop_summarise_exit(cx, s, &ex, &fl))
            break;
        if (t < 0 && n == 0 && an_loop_summarise_whole(cx, s, NULL, &fl, &why))
            break;
        if (cx->ctl.stopped) { /* a limit ended the summary's trial: its warning says so */
            free(why);
            break;
        }
        int64_t c; /* the summary's try read a variable the test could not: bound by --bind, */
        if (t < 0 && s->loop.cond && an_eval(cx, s->loop.cond, &c)) { /* it is known now */
            free(why);
            if (c == 0)
                break;
            t = 1;
        }
        if (t < 0) {
            loop_once_note(cx, s, host, why);
            fl = an_loop_loop_once(cx, s, host, &leave);
            if (host) /* what it wrote is forgotten: so are the symbols it made */
                an_symbol_names_back(cx, &names);
            break;
        }
        if (an_loop_skip_iteration(cx, &sk, &n))
            break; /* the iterations left repeat a period: counted, not run */
        if (n++ >= cx->opt.max_iterations) {
            an_diag_add(cx, AN_WARNING, "analysis-limit", s->loc.line, s->loc.col,
                        "loop stopped after %lld iterations (--max-iterations); later totals "
                        "are not bounded", (long long)cx->opt.max_iterations);
            an_loop_stop_uncounted(cx, s, clock0);
            break;
        }
        int64_t iteration = cx->r->n_events;
        fl = an_loop_loop_body(cx, s, &leave);
        /* for (;;) { ... if (x) break; } with x not known: only that exit ends it, so the
         * run's count of iterations is not known (iterating on would only reach the limit,
         * each iteration costlier than the last) */
        if (loop_test_always(s) && !host && !leave && fl == AN_FLOW_NEXT &&
            ((cx->ctl.upper_loop && !upper_loop) || (cx->ctl.upper_func && !upper_func))) {
            an_diag_add(cx, AN_NOTE, "unknown-trip-count", s->loc.line, s->loc.col,
                        "the loop ends only where a condition not known statically leaves it: "
                        "its iterations are not counted, and the totals after it are not "
                        "bounded");
            an_loop_record_repeat(cx, s, iteration); /* verify follows the run through any number */
            an_loop_stop_uncounted(cx, s, clock0);
            break;
        }
    }
    an_loop_skip_end(&sk);
    cx->ctl.counted_exit = outer_exit;
    cx->ctl.loop_depth--;
    frame->loops--;
    frame->host_loops -= host;
    an_symbol_names_unmark(&names);
    host_exit_settle(cx, s, before, outer_left);
    cx->ctl.upper_loop = upper_loop; /* an early exit from its iterations ends with it */
    return fl;
}

