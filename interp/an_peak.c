/*
 * an_peak.c: a peak of formulas.  Live bytes over run-time sizes are not
 * ordered: 32*n and 4*m*m may each be the larger.  The peak is then the
 * maximum of candidates none of which provably covers another, each with
 * the line where it is reached; the interpreter, the loop summaries and the
 * checks keep them with these functions alone.
 *
 * Invariant: no candidate provably covers another (of two that are equal,
 * the earlier stays: where they tie, the run reaches the earlier line
 * first).  Room is AN_PEAK_CANDS candidates; one that finds none is not
 * kept, and an_peak_add says so: the maximum of the others is then a lower
 * bound of the peak, which the caller marks and says.
 */
#include "an.h"

/* x covers y: provably x >= y. */
static bool covers(sx_int x, sx_int y)
{
    bool ge;
    return sx_same(x, y) || (sx_prove(x, SX_GE, y, &ge) && ge);
}

/* Provably x > y. */
static bool exceeds(sx_int x, sx_int y)
{
    bool gt;
    return sx_prove(x, SX_GT, y, &gt) && gt;
}

an_peak_result an_peak_add(an_peak *p, sx_int t, int line)
{
    for (int k = 0; k < p->n; k++)
        if (covers(p->cand[k], t))
            return AN_PEAK_COVERED;
    int n = 0; /* the candidates t does not exceed (one it may only equal stays) */
    for (int k = 0; k < p->n; k++)
        if (!exceeds(t, p->cand[k])) {
            p->cand[n] = p->cand[k];
            p->line[n++] = p->line[k];
        }
    p->n = n;
    if (n == AN_PEAK_CANDS)
        return AN_PEAK_FULL;
    p->cand[n] = t;
    p->line[n] = line;
    p->n = n + 1;
    return AN_PEAK_ADDED;
}

void an_peak_prune(an_peak *p, bool refine, bool (*keep)(const void *ctx, sx_int x),
                   const void *ctx)
{
    bool gone[AN_PEAK_CANDS] = {false};
    for (int c = 0; c < p->n; c++) {
        if (keep && keep(ctx, p->cand[c]))
            continue;
        sx_int x = refine ? sx_refine(p->cand[c]) : p->cand[c];
        for (int d = 0; d < p->n && !gone[c]; d++) {
            if (d == c || gone[d])
                continue;
            sx_int y = refine ? sx_refine(p->cand[d]) : p->cand[d];
            gone[c] = sx_same(x, y) ? d < c : covers(y, x);
        }
    }
    int kept = 0;
    for (int c = 0; c < p->n; c++)
        if (!gone[c]) {
            p->cand[kept] = p->cand[c];
            p->line[kept++] = p->line[c];
        }
    p->n = kept;
}

sx_int an_peak_max(const an_peak *p) { return sx_max_of(p->cand, p->n); }

void an_peak_of(const an_func_report *fr, an_peak *p)
{
    p->n = fr->n_peak_cands;
    for (int k = 0; k < fr->n_peak_cands; k++) {
        p->cand[k] = fr->peak_cand[k];
        p->line[k] = fr->peak_cand_line[k];
    }
}

void an_peak_put(an_func_report *fr, const an_peak *p)
{
    fr->n_peak_cands = p->n;
    for (int k = 0; k < p->n; k++) {
        fr->peak_cand[k] = p->cand[k];
        fr->peak_cand_line[k] = p->line[k];
    }
    fr->peak_sx = an_peak_max(p);
}
