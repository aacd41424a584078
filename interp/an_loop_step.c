/*
 * an_loop_step.c: the summary of a counted loop whose counter steps by more
 * than one (a chunk, the last one shorter).  an_loop.c runs the trial and the
 * probes; the growth summary's induction check is an_loop_growth.c's.
 */
#include "an_loop_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
    int facts = an_loop_counter_facts(J, one, sx_sub(sc->q, one));
    sx_fact_push(sx_sub(sx_sub(sc->dist, one), sx_mul(sc->m, sx_add(J, one))));
    bool ok = an_loop_probe_body(cx, ls->s, ls->var, sx_add(ls->v0, sx_mul(sc->step, J)), sc->step);
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
        an_loop_fr_effect(&cx->r->funcs[k], &e[4], &e[5]);
        an_loop_fr_effect(&before[k].fr, &e0[0], &e0[1]);
        for (int j = 0; j < 2; j++) {
            sx_int d1 = sx_sub(e[2 + j], e[j]), d2 = sx_sub(e[4 + j], e[2 + j]);
            sx_int first = sx_sub(e[j], e0[j]), sum, target;
            if (sx_depends_on(d2, A) || !sx_same(sx_subst(d1, A, B), d2))
                return an_loop_fail(ls, "an iteration's effect is not the next one's");
            int facts = facts_q(sc, true);
            bool from_zero = same_refined(first, sx_subst(d2, B, zero));
            sx_forget_facts(facts);
            if (!sx_sum(d2, B, from_zero ? zero : one, last, &sum))
                return an_loop_fail(ls,
                                    "the bytes an iteration moves are not a polynomial of degree "
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
    ls->runsb = an_loop_runs_take(cx);
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

/* Whether x is a candidate of the peak iteration 1 left (ctx: its report). */
static bool cand_in(const void *ctx, sx_int x)
{
    const an_func_report *fr = ctx;
    for (int c = 0; c < fr->n_peak_cands; c++)
        if (sx_same(fr->peak_cand[c], x))
            return true;
    return false;
}

/* Function report k's peak after the last iteration: the probes' counters
 * resolved (loop_peaks), and a candidate only iterations after the first
 * make dropped where another covers it whenever there are such (q >= 1). */
static bool step_peaks(an_ctx *cx, loop_sum *ls, const step_ctx *sc, const an_fr_saved *at_s1,
                       int k)
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
            return an_loop_fail(
                ls, "its peak in the first iteration is not the others' at its counter");
    }
    if (!an_loop_loop_peaks(fr, A, B, sx_sub(sc->q, one), 1, &pk))
        return an_loop_fail(ls, "its peak neither stays nor grows with the counter");
    if (!pk.changed) {
        if (!fr->symbolic || fr->n_peak_cands == 0)
            return true;
        an_peak_of(fr, &pk.set);
    }
    int facts = facts_q(sc, true); /* (iteration 1's candidates stay) */
    an_peak_prune(&pk.set, true, cand_in, &at_s1[k].fr);
    sx_forget_facts(facts);
    an_peak_put(fr, &pk.set);
    fr->symbolic = true;
    return true;
}

/* At q = 0 (one iteration), do the totals and the state come out as
 * iteration 1 left them? */
static bool step_exact_at_zero(an_ctx *cx, loop_sum *ls, const step_ctx *sc,
                               const an_fr_saved *at_s1)
{
    sx_int zero = {0, 0};
    if (!sx_same(sx_subst(sc->q, sc->q, zero), zero)) /* q is no one atom to put 0 for */
        return false;
    int facts = facts_q(sc, false);
    bool same = true;
    for (int k = 0; k < ls->n && same; k++) {
        const an_func_report *fr = &cx->r->funcs[k], *f1 = &at_s1[k].fr;
        sx_int now[2], then[2];
        an_loop_fr_effect(fr, &now[0], &now[1]);
        an_loop_fr_effect(f1, &then[0], &then[1]);
        sx_int peak = fr->symbolic ? fr->peak_sx : (sx_int){fr->peak_live_bytes, 0};
        same = same_at_zero(now[0], then[0], sc->q) && same_at_zero(now[1], then[1], sc->q) &&
               same_at_zero(peak, ls->peak1[k], sc->q);
    }
    for (int v = 0; v < cx->r->n_values && same; v++) { /* each call site's count too */
        sx_int now = an_value_runs(&cx->r->values[v]);
        same = sx_same(now, ls->runs1[v]) || same_at_zero(now, ls->runs1[v], sc->q);
    }
    ind_ctx z = {cx, &ls->s1, sc->q, zero, true};
    same = same && an_loop_induction_holds(cx, &z);
    sx_forget_facts(facts);
    return same;
}

/* From s1: the summary of a loop whose counter steps by `step` (not +-1). */
bool an_loop_stepped_summary(an_ctx *cx, loop_sum *ls, const loop_trial *t, sx_int step,
                            bool *taken_a)
{
    step_ctx sc = {.step = step};
    sx_int one = {1, 0};
    bool pos, first_differs;
    if (!sx_prove(step, SX_GT, (sx_int){0, 0}, &pos) || pos != (ls->dir > 0))
        return an_loop_fail(ls, LOOP_NOT_COUNTED);
    sc.m = ls->dir > 0 ? step : sx_neg(step);
    sc.dist = ls->trips;
    sc.q = sx_div(sx_sub(sc.dist, one), sc.m);
    if (!sx_usable(sc.q))
        return an_loop_fail(ls, LOOP_NOT_COUNTED);
    ls->trips = sx_add(sc.q, one);
    sx_int mq = sx_mul(sc.m, sc.q);
    int facts = fact_mark(sx_sub(sx_sub(sc.dist, one), mq)); /* the last iteration runs, */
    sx_fact_push(sx_sub(sx_add(mq, sc.m), sc.dist));         /* and the next does not */
    an_fr_saved *at_s1 = an_frs_save(cx);
    sx_int *delta = tl_xmalloc(sizeof *delta * 2 * (size_t)(ls->n + 1));
    bool ok = false;
    if (!step_probe(cx, ls, &sc, &ls->la)) {
        an_loop_fail(ls, LOOP_NOT_COUNTED);
        goto out;
    }
    if (!an_loop_probe_plain(cx, ls))
        goto out;
    an_snap_take(cx, &ls->a);
    *taken_a = true;
    for (int k = 0; k < ls->n; k++)
        an_loop_fr_effect(&cx->r->funcs[k], &ls->eff[6 * k + 2], &ls->eff[6 * k + 3]);
    ls->runsa = an_loop_runs_take(cx);
    if (!step_probe(cx, ls, &sc, &ls->lb)) {
        an_loop_fail(ls, LOOP_NOT_COUNTED);
        goto out;
    }
    if (!an_loop_probe_plain(cx, ls))
        goto out;
    sx_int l1 = live_total(ls->s1.acct.live, ls->s1.acct.live_sx);
    if (!sx_same(l1, live_total(ls->a.acct.live, ls->a.acct.live_sx)) ||
        !sx_same(l1, live_total(cx->acct.live, cx->acct.live_sx))) {
        an_loop_fail(ls, "its live bytes change from one iteration to the next");
        goto out;
    }
    if (!step_middle_totals(cx, ls, &sc, t->r0, delta))
        goto out;
    step_runs(cx, ls, &sc);
    int fq = facts_q(&sc, true); /* integers stepped in iteration 1 as in the others */
    bool steady = an_loop_steady_state(cx, &t->s0, &ls->s1, &ls->a, sc.q, ls->la, ls->lb, ls->var,
                               &first_differs);
    sx_forget_facts(fq);
    if (!steady) {
        an_loop_fail(ls, "its state changes from one iteration to the next");
        goto out;
    }
    if (!an_loop_loop_assumptions(ls->assumptions1, (sx_int){0, ls->la}, (sx_int){0, ls->lb}, one,
                          sx_sub(sc.q, one), ls->s->loc.line)) {
        an_loop_fail(ls, "a condition an iteration relies on does not hold for every iteration");
        goto out;
    }
    /* the last iteration, from the state the others leave */
    if (!an_loop_probe_body(cx, ls->s, ls->var, sx_add(ls->v0, sx_mul(step, sc.q)), step)) {
        an_loop_fail(ls, LOOP_NOT_COUNTED);
        goto out;
    }
    if (!an_loop_probe_plain(cx, ls))
        goto out;
    for (int k = 0; k < ls->n; k++) {
        an_func_report *fr = &cx->r->funcs[k];
        an_loop_add_effect(fr, delta[2 * k], delta[2 * k + 1]);
        if (!step_peaks(cx, ls, &sc, at_s1, k))
            goto out;
    }
    ok = true;
    if (!step_exact_at_zero(cx, ls, &sc, at_s1)) { /* else: assumed more than one iteration */
        sx_set_site(ls->s->loc.line);
        ok = sx_cmp(sc.dist, SX_GT, sc.m); /* (not when the generic values say one) */
        if (!ok)
            an_loop_fail(ls, "its first iteration may be its last, and then ends otherwise");
    }
out:
    sx_forget_facts(facts);
    an_frs_free(cx, at_s1);
    free(delta);
    return ok;
}
