/*
 * dg_legend.c: the live totals of a function whose sizes are formulas,
 * for both lifetime charts.
 *
 * A column's live total is a number, a formula of the run-time sizes, or
 * unknown (the analysis could not write it).  A chart column is a few
 * characters wide, so a formula gets a label, L1, L2 ..., in the order the
 * columns show them, equal formulas one label; the legend under the chart
 * spells each out once, says which are peak candidates (the report's
 * peak_cand: the peak is their max), and what the shades mean: a cell is
 * shaded by its share of the peak only where the prover decides that share
 * for every value of the sizes (dg_share_step), else it has a shade of its
 * own that says "live, its share depends on the sizes".  A number is never
 * shown for a formula, and nothing unknown is shaded as known.
 */
#include "dg_internal.h"

#include <stdlib.h>

static int find_label(const dg_legend *lg, sx_int x)
{
    for (int k = 1; k <= lg->n_labels; k++)
        if (sx_same(lg->formula[k], x))
            return k;
    return 0;
}

/* Whether x is one of f's peak candidates; *line its line. */
static bool is_candidate(const an_func_report *f, sx_int x, int *line)
{
    for (int k = 0; k < f->n_peak_cands; k++)
        if (sx_same(f->peak_cand[k], x)) {
            *line = f->peak_cand_line[k];
            return true;
        }
    return false;
}

void dg_legend_init(dg_legend *lg, const dg_timeline *t, const dg_view *v)
{
    *lg = (dg_legend){0};
    lg->label = tl_xcalloc((size_t)v->n_cols + 1, sizeof *lg->label);
    lg->formula = tl_xcalloc((size_t)v->n_cols + 2, sizeof *lg->formula);
    lg->first_col = tl_xcalloc((size_t)v->n_cols + 2, sizeof *lg->first_col);
    for (int c = 0; t->symbolic && c < v->n_cols; c++) {
        sx_int x = dg_timeline_live(t, v->cols[c].col);
        if (x.e == 0 || x.e == SX_TOO_BIG)
            continue; /* a number, or unknown: said in the column */
        int k = find_label(lg, x);
        if (k == 0) {
            k = ++lg->n_labels;
            lg->formula[k] = x;
            lg->first_col[k] = c;
        }
        lg->label[c] = k;
    }
}

void dg_legend_free(dg_legend *lg)
{
    free(lg->label);
    free(lg->formula);
    free(lg->first_col);
    *lg = (dg_legend){0};
}

void dg_buf_live_label(dg_buf *b, const dg_legend *lg, const dg_timeline *t, const dg_view *v,
                       int c)
{
    sx_int x = dg_timeline_live(t, v->cols[c].col);
    if (lg->label[c] > 0)
        dg_buf_printf(b, "L%d", lg->label[c]);
    else if (x.e == SX_TOO_BIG)
        dg_buf_puts(b, "?");
    else
        dg_buf_bytes_short(b, x.c);
}

static void put_formula(dg_buf *b, sx_int x)
{
    char *text = sx_strdup(x);
    dg_buf_puts(b, text);
    free(text);
}

/* How many of f's candidates have a label. */
static int find_drawn(const dg_legend *lg, const an_func_report *f)
{
    int n = 0;
    for (int j = 0; j < f->n_peak_cands; j++)
        n += find_label(lg, f->peak_cand[j]) > 0;
    return n;
}

/* "L7 = 12*steps*dim + 4*dim B, a peak candidate (line 41)" */
static void label_line(dg_buf *b, const dg_legend *lg, const dg_timeline *t, const dg_view *v,
                       int k)
{
    int line = 0;
    const an_event *e = &t->r->events[t->cols[v->cols[lg->first_col[k]].col].ev];
    dg_buf_printf(b, "L%d = ", k);
    put_formula(b, lg->formula[k]);
    dg_buf_puts(b, " B after line ");
    dg_buf_line(b, t->r, e->line);
    dg_buf_printf(b, " (%s)", mt_ops[e->op].name);
    if (is_candidate(t->f, lg->formula[k], &line)) {
        dg_buf_puts(b, ", a peak candidate (the report's line ");
        dg_buf_line(b, t->r, line);
        dg_buf_puts(b, ")");
    }
}

/* "peak = max(L4, L8) B": the candidates by their labels in order, then
 * those no label stands for, spelled out. */
static void peak_words(dg_buf *b, const dg_legend *lg, const dg_timeline *t)
{
    const an_func_report *f = t->f;
    int n = 0;
    dg_buf_puts(b, f->n_peak_cands > 1 ? "peak = max(" : "peak = ");
    for (int k = 1; k <= lg->n_labels; k++)
        for (int j = 0; j < f->n_peak_cands; j++)
            if (sx_same(lg->formula[k], f->peak_cand[j])) {
                dg_buf_printf(b, "%sL%d", n++ ? ", " : "", k);
                break;
            }
    for (int j = 0; j < f->n_peak_cands; j++) {
        if (find_label(lg, f->peak_cand[j]) > 0)
            continue;
        dg_buf_puts(b, n++ ? ", " : "");
        if (f->peak_cand[j].e == 0)
            dg_buf_printf(b, "%lld", (long long)f->peak_cand[j].c);
        else
            put_formula(b, f->peak_cand[j]);
    }
    dg_buf_puts(b, f->n_peak_cands > 1 ? ") B" : " B");
    if (!an_func_exact(f, AN_TOTAL_PEAK))
        dg_buf_printf(b, " (%s)", an_claim_words(f->claim[AN_TOTAL_PEAK]));
    if (n > 0 && n - find_drawn(lg, f) > 0)
        dg_buf_printf(b, "; no column drawn shows %s: it is reached in a repetition not drawn "
                      "(--expand draws every call), between merged columns, or on an arm of "
                      "a branch the analysis did not keep",
                      f->n_peak_cands > 1 ? "a formula spelled out here" : "it");
}

void dg_legend_lines(dg_buf *b, const dg_legend *lg, const dg_timeline *t, const dg_view *v,
                     const char *sep, bool text)
{
    if (!t->symbolic)
        return;
    if (text)
        dg_buf_puts(b, "░ ▒ ▓ █ a live storage's share of the peak, by quarters, where the "
                       "run-time sizes decide it; ▚ live, its share depends on them; ? size "
                       "unknown. Live totals: a number, ? unknown, or a formula:");
    else
        dg_buf_puts(b, "Over run-time sizes: a blue cell is a live storage, darker for a larger "
                       "share of the peak, where the sizes decide it; a lavender one is live, its "
                       "share depends on them; a grey one's size is unknown. Live totals: a "
                       "number, ? unknown, or a formula:");
    for (int k = 1; k <= lg->n_labels; k++) {
        dg_buf_puts(b, sep);
        label_line(b, lg, t, v, k);
    }
    if (t->f->n_peak_cands > 0) {
        dg_buf_puts(b, sep);
        peak_words(b, lg, t);
    }
}
