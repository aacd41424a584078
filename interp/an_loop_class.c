/*
 * an_loop_class.c: loops with two kinds of iteration (an_loop.c calls it
 * from summarise_loop).
 *
 * `if (step % 10 == 0) evaluate();` in a loop over the steps: the iterations
 * whose counter meets the condition run the arm, the others do not.  The
 * probes run the iterations that do not (the arm's condition decided so);
 * then, from where they left the state, one iteration of each kind runs
 * with the counter a fresh symbol.  The loop is summarised when both leave
 * the same state, and what the arm adds (bytes moved, calls, the times each
 * call site runs) does not depend on the counter: the totals are the other
 * kind's summed over every iteration, plus the arm's times the iterations
 * that run it, counted exactly (floor division); the arm's peak joins the
 * loop's candidates.
 */
#include "an_loop_internal.h"

#include <stdlib.h>
#include <string.h>

/* The counter, or the counter plus or minus a constant: its shift. */
static bool counter_shifted(const ir_expr *e, int var, int64_t *shift)
{
    if (e->kind == IR_EXPR_VAR && e->var == var) {
        *shift = 0;
        return true;
    }
    if (e->kind != IR_EXPR_BINARY || (e->op != IR_OP_ADD && e->op != IR_OP_SUB))
        return false;
    const ir_expr *v = e->a, *c = e->b;
    if (e->op == IR_OP_ADD && v->kind == IR_EXPR_CONST) {
        v = e->b;
        c = e->a;
    }
    if (v->kind != IR_EXPR_VAR || v->var != var || c->kind != IR_EXPR_CONST ||
        c->value > INT32_MAX || c->value < -INT32_MAX)
        return false;
    *shift = e->op == IR_OP_ADD ? c->value : -c->value;
    return true;
}

/* `(v + c) % K == r`, `!= r` (either side; c may be 0 or negative), K > 1
 * and 0 <= r < K constants: v's class (r - c) mod K.  *shift: c (C's % of
 * a negative v + c is not its class: the caller needs v + c >= 0). */
static bool class_cond(const ir_expr *c, int var, loop_class *out, int64_t *shift)
{
    if (!c || c->kind != IR_EXPR_BINARY || (c->op != IR_OP_EQ && c->op != IR_OP_NE))
        return false;
    const ir_expr *m = c->a, *k = c->b;
    if (m->kind != IR_EXPR_BINARY) {
        m = c->b;
        k = c->a;
    }
    if (m->kind != IR_EXPR_BINARY || m->op != IR_OP_REM || k->kind != IR_EXPR_CONST ||
        !counter_shifted(m->a, var, shift) || m->b->kind != IR_EXPR_CONST ||
        m->b->value <= 1 || m->b->value > INT32_MAX || k->value < 0 || k->value >= m->b->value)
        return false;
    int64_t K = m->b->value, r = ((k->value - *shift) % K + K) % K;
    *out = (loop_class){.k = K, .r = r, .eq = c->op == IR_OP_EQ};
    return true;
}

/* The body's one `if` at its top level on the counter's class, with no
 * else if (its arms may be anything else). */
bool an_loop_class_find(const ir_stmt *s, int var, int64_t v0, loop_class *out)
{
    const ir_block *b = s->loop.body;
    int found = 0;
    for (int k = 0; b && k < b->n_stmts; k++) {
        loop_class c;
        int64_t shift;
        if (b->stmts[k]->kind == IR_IF && class_cond(b->stmts[k]->branch.cond, var, &c, &shift) &&
            v0 + shift >= 0) { /* (the counter counts up from v0) */
            c.s = b->stmts[k];
            *out = c;
            found++;
        }
    }
    return found == 1;
}

/* How many counters in lo..hi (lo a number >= 1) run the then arm. */
static sx_int class_count(const loop_sum *ls, const loop_class *c)
{
    sx_int K = {c->k, 0};
    sx_int upto_hi = sx_div(sx_add(ls->hi, (sx_int){c->k - c->r, 0}), K);
    int64_t below = (ls->lo.c - 1 - c->r + c->k) / c->k; /* (>= 0: lo >= 1) */
    sx_int members = sx_sub(upto_hi, (sx_int){below, 0});
    return c->eq ? members : sx_sub(sx_add(sx_sub(ls->hi, ls->lo), (sx_int){1, 0}), members);
}

/* The state now is the snapshot's: the same live bytes, every variable and
 * memory cell with the same value or layout. */
static bool same_state(an_ctx *cx, const snapshot *d)
{
    if (cx->ctl.depth != d->ctl.depth || !sx_same(live_total(cx->acct.live, cx->acct.live_sx),
                                                  live_total(d->acct.live, d->acct.live_sx)))
        return false;
    steady_ctx at = {cx, d};
    for (int k = 0; k < cx->ctl.depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            int sl = cx->vars.slot[ids[j]];
            if (borrowed(cx, ids[j]))
                continue;
            if (!an_loop_steady_handles(&at, d->ctl.tensors[k][j], fr->tensor[sl]) ||
                d->ctl.known[k][j] != fr->int_known[sl] ||
                (fr->int_known[sl] && d->ctl.ints[k][j] != fr->ints[sl]))
                return false;
        }
    }
    for (int g = 0; g < cx->vars.n_globals; g++)
        if (!an_loop_steady_handles(&at, d->ctl.g_tensor[g], cx->ctl.gframe->tensor[g]) ||
            d->ctl.g_known[g] != cx->ctl.gframe->int_known[g] ||
            (d->ctl.g_known[g] && d->ctl.g_ints[g] != cx->ctl.gframe->ints[g]))
            return false;
    return an_mem_map(cx, &d->mem, an_loop_steady_cell, &at);
}

/* A candidate of the steady probes' (the loop's candidates stand for it). */
static bool class_probes(const loop_sum *ls, sx_int x)
{
    return sx_depends_on(x, (sx_int){0, ls->la}) || sx_depends_on(x, (sx_int){0, ls->lb});
}

/* The peak's candidates of fr (one, a number, where it is no formula). */
static void class_peak_of(const an_func_report *fr, an_peak *p)
{
    if (fr->symbolic)
        an_peak_of(fr, p);
    else
        *p = (an_peak){1, {{fr->peak_live_bytes, 0}}, {fr->peak_line}};
}

/* Keep in p the candidates that pre lacks (the iteration's own): each must
 * be one formula for every iteration of its kind, free of the counters. */
static bool class_new_peaks(an_peak *p, const an_peak *pre, sx_int l, const loop_sum *ls)
{
    int kept = 0;
    for (int j = 0; j < p->n; j++) {
        sx_int x = p->cand[j];
        bool old = false;
        for (int i = 0; i < pre->n && !old; i++)
            old = sx_same(pre->cand[i], x);
        if (old)
            continue;
        if (!sx_usable(x) || sx_depends_on(x, l) || class_probes(ls, x))
            return false;
        p->cand[kept] = x;
        p->line[kept++] = p->line[j];
    }
    p->n = kept;
    return true;
}

/* One iteration of the kind `then` from the state now, counter l, in a
 * trial that is undone: its end state (when it is to be taken), the totals
 * (e: moved, calls per function), the counts, the peaks; false when it
 * does not run plainly or makes a call site of its own. */
static bool class_iteration(an_ctx *cx, loop_sum *ls, const loop_class *c, sx_int l, bool then,
                            snapshot *end, const snapshot *other, sx_int *e, sx_int **runs)
{
    loop_trial t;
    int values0 = cx->r->n_values;
    an_loop_trial_begin(cx, &t);
    cx->ctl.forced_then = then;
    bool ok = an_loop_probe_body(cx, ls->s, ls->var, l, ls->step) && an_loop_probe_plain(cx, ls) &&
              cx->r->n_values == values0 && (!other || same_state(cx, other));
    cx->ctl.forced_then = false;
    if (ok) {
        if (end)
            an_snap_take(cx, end);
        for (int k = 0; k < ls->n; k++) {
            an_func_report *fr = &cx->r->funcs[k];
            an_loop_fr_effect(fr, &e[2 * k], &e[2 * k + 1]);
            class_peak_of(fr, &c->pk[k]);
        }
        *runs = an_loop_runs_take(cx);
    }
    an_loop_trial_undo(cx, &t);
    return ok;
}

/* An integer at the start of the iteration whose counter is l: x1 after
 * iteration 1 (the start of the one at lo), xa one iteration later. */
static bool class_int_at(const loop_sum *ls, sx_int l, bool k1, int64_t v1, bool *ka,
                         int64_t *va)
{
    sx_int x1, xa;
    if (k1 == *ka && v1 == *va)
        return true;
    if (!an_int_get(k1, v1, &x1) || !an_int_get(*ka, *va, &xa))
        return false;
    sx_int d = sx_sub(xa, x1);
    if (!sx_usable(d) || class_probes(ls, d) || class_probes(ls, x1))
        return false;
    an_int_put(true, sx_add(x1, sx_mul(sx_sub(l, ls->lo), d)), ka, va);
    return true;
}

/* The state at the start of the iteration whose counter is l, from the
 * probe's start: each integer that steps at its value there (the tensors
 * and memory are the same at every iteration of a steady loop). */
static bool class_start(an_ctx *cx, const loop_sum *ls, sx_int l)
{
    const snapshot *s1 = &ls->s1;
    if (s1->ctl.depth != cx->ctl.depth)
        return false;
    for (int k = 0; k < cx->ctl.depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            int sl = cx->vars.slot[ids[j]];
            if (ids[j] != ls->var && !borrowed(cx, ids[j]) &&
                !class_int_at(ls, l, s1->ctl.known[k][j], s1->ctl.ints[k][j], &fr->int_known[sl],
                              &fr->ints[sl]))
                return false;
        }
    }
    for (int g = 0; g < cx->vars.n_globals; g++)
        if (cx->vars.global_vars[g] != ls->var &&
            !class_int_at(ls, l, s1->ctl.g_known[g], s1->ctl.g_ints[g],
                          &cx->ctl.gframe->int_known[g], &cx->ctl.gframe->ints[g]))
            return false;
    return true;
}

/* After the steady summary (the state where its last probe left it): what
 * an iteration that runs the arm adds to one that does not. */
bool an_loop_class_summary(an_ctx *cx, loop_sum *ls, loop_class *c)
{
    c->count = class_count(ls, c);
    if (!sx_usable(c->count))
        return false;
    int n = ls->n;
    sx_int *e = tl_xcalloc(4 * ((size_t)n + 1), sizeof *e), *runs_d = NULL, *runs_c = NULL;
    c->pk = tl_xcalloc((size_t)n + 1, sizeof *c->pk);
    sx_int l = an_loop_counter_symbol(cx, ls->s, ls->var, ls->v0, ls->dir);
    int facts = an_loop_counter_facts(l, ls->lo, ls->hi);
    snapshot d, now;
    an_peak *pre = tl_xcalloc((size_t)n + 1, sizeof *pre); /* the candidates before */
    for (int k = 0; k < n; k++)
        class_peak_of(&cx->r->funcs[k], &pre[k]);
    an_snap_take(cx, &now); /* (the state after the loop: its counters stepped to the end) */
    an_snap_restore(cx, &ls->a); /* where the second probe began: an iteration's start */
    bool ok = class_start(cx, ls, l) && class_iteration(cx, ls, c, l, false, &d, NULL, e, &runs_d);
    if (ok) {
        ok = class_iteration(cx, ls, c, l, true, NULL, &d, &e[2 * n], &runs_c);
        an_snap_free(&d);
    }
    an_snap_restore(cx, &now);
    an_snap_free(&now);
    sx_forget_facts(facts);
    c->dm = tl_xcalloc(2 * ((size_t)n + 1), sizeof *c->dm);
    for (int k = 0; ok && k < 2 * n; k++) {
        sx_int delta = sx_sub(e[2 * n + k], e[k]);
        ok = sx_usable(delta) && !sx_depends_on(delta, l) && !class_probes(ls, delta);
        c->dm[k] = sx_mul(c->count, delta);
    }
    for (int k = 0; ok && k < n; k++)
        ok = class_new_peaks(&c->pk[k], &pre[k], l, ls);
    free(pre);
    c->druns = ok ? tl_xcalloc((size_t)cx->r->n_values + 1, sizeof *c->druns) : NULL;
    for (int v = 0; ok && v < cx->r->n_values; v++) {
        sx_int dr = sx_sub(runs_c[v], runs_d[v]);
        /* (a call site only the arm's kind runs: the first iteration has its layout) */
        ok = sx_usable(dr) && !sx_depends_on(dr, l) && !class_probes(ls, dr) &&
             (sx_zero(dr) || cx->r->values[v].n_exec > 0);
        c->druns[v] = sx_mul(c->count, dr);
    }
    free(e);
    free(runs_d);
    free(runs_c);
    return ok || an_loop_fail(ls, "its iterations of the two kinds (the condition on the counter's "
                             "class) leave different states, or the arm makes calls no earlier "
                             "iteration made");
}

/* The arm's totals, counts and peaks, into the report. */
void an_loop_class_commit(an_ctx *cx, const loop_sum *ls, const loop_class *c)
{
    bool added = false;
    for (int k = 0; k < ls->n; k++) {
        an_func_report *fr = &cx->r->funcs[k];
        an_loop_add_effect(fr, c->dm[2 * k], c->dm[2 * k + 1]);
        sx_int now = fr->symbolic ? fr->peak_sx : (sx_int){fr->peak_live_bytes, 0};
        bool ge, more = false;
        for (int j = 0; j < c->pk[k].n; j++)
            more |= !class_probes(ls, c->pk[k].cand[j]) &&
                    !(sx_prove(now, SX_GE, c->pk[k].cand[j], &ge) && ge);
        if (!more)
            continue;
        an_fr_symbolic(fr);
        an_peak p;
        an_peak_of(fr, &p);
        for (int j = 0; j < c->pk[k].n; j++) {
            sx_int x = c->pk[k].cand[j];
            if (class_probes(ls, x))
                continue; /* (the probes': the loop's candidates stand for them) */
            an_peak_result res = an_peak_add(&p, x, c->pk[k].line[j]);
            added |= res == AN_PEAK_ADDED;
            if (res == AN_PEAK_FULL) {
                an_diag_add(cx, AN_NOTE, "analysis-limit", c->s->loc.line, c->s->loc.col,
                            "the peak of the iterations that run this arm is one candidate too "
                            "many to keep: the peak is a lower bound");
                an_mark_claim(cx, AN_BOUND_PEAK, AN_CLAIM_LOWER);
            }
        }
        an_peak_put(fr, &p);
    }
    for (int v = 0; v < cx->r->n_values && c->druns; v++)
        if (!sx_zero(c->druns[v]))
            cx->r->values[v].runs_sx = sx_add(cx->r->values[v].runs_sx, c->druns[v]);
    if (added) { /* a peak of an iteration that runs the arm: there is one */
        sx_set_site(c->s->loc.line);
        (void)sx_cmp(c->count, SX_GE, (sx_int){1, 0});
    }
}

void an_loop_class_free(loop_class *c)
{
    free(c->dm);
    free(c->druns);
    free(c->pk);
}
