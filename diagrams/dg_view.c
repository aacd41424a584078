/*
 * dg_view.c: fitting the lifetime model to a page or a terminal.
 *
 * A view column stands for a range of model columns and shows one moment
 * of it: the call after which the most bytes are live, so a column that
 * holds the peak shows the peak.  Two ways to fit:
 *  - elide (the drawn chart): the first, the last and the columns around
 *    the peak keep a column each; every gap between them becomes one
 *    column that says how many calls it stands for;
 *  - bucket (the text chart): neighbouring columns are merged evenly.
 * Rows past max_rows: the rows that matter least (not live at the peak,
 * fewest bytes in the drawn columns) are merged into one last row, which
 * says how many.
 * The cells (bytes and storages live) are computed once, for the view;
 * over formulas, as formulas too, and a merged column shows a peak column
 * when it holds one, else a moment no other provably exceeds.
 * The notes that say what a view merged or left out are worded here, for
 * both charts.
 */
#include "dg_internal.h"

#include <stdlib.h>
#include <string.h>

static int heaviest_col_sx(const dg_timeline *t, int lo, int hi)
{
    int best = lo;
    for (int c = lo; c < hi; c++)
        if (t->peak_cols[c])
            return c;
    for (int c = lo + 1; c < hi; c++) {
        bool gt;
        if (sx_prove(dg_timeline_live(t, c), SX_GT, dg_timeline_live(t, best), &gt) && gt)
            best = c;
    }
    return best;
}

static int heaviest_col(const dg_timeline *t, int lo, int hi)
{
    if (t->symbolic)
        return heaviest_col_sx(t, lo, hi);
    int best = lo;
    for (int c = lo + 1; c < hi; c++)
        if (t->r->events[t->cols[c].ev].live_bytes > t->r->events[t->cols[best].ev].live_bytes)
            best = c;
    if (t->peak_col >= lo && t->peak_col < hi)
        best = t->peak_col;
    return best;
}

static void vcol_push(dg_view *v, const dg_timeline *t, int lo, int hi)
{
    v->cols[v->n_cols++] = (dg_vcol){.col_lo = lo, .col_hi = hi, .col = heaviest_col(t, lo, hi)};
    if (hi - lo > 1)
        v->n_hidden_cols += hi - lo;
    for (int c = lo; c < hi; c++)
        v->peak[v->n_cols - 1] |= t->peak_cols[c];
    if (v->peak[v->n_cols - 1] && v->peak_vcol < 0)
        v->peak_vcol = v->n_cols - 1;
}

/* A view of n model columns, before its columns are pushed. */
static void view_open(dg_view *v, int n)
{
    *v = (dg_view){.peak_vcol = -1};
    v->cols = tl_xcalloc((size_t)n + 1, sizeof *v->cols);
    v->peak = tl_xcalloc((size_t)n + 1, sizeof *v->peak);
}

static void keep_range(bool *keep, int n, int lo, int hi)
{
    for (int c = lo < 0 ? 0 : lo; c < hi && c < n; c++)
        keep[c] = true;
}

static bool row_has_formula(const dg_timeline *t, int k)
{
    for (int64_t j = t->member_start[k]; j < t->member_start[k + 1]; j++)
        if (t->r->storages[t->members[j]].symbolic)
            return true;
    return false;
}

/* Each row's weight in view v: live at the peak first, then the most bytes
 * it holds in a drawn column (a row live in no drawn column weighs least;
 * over formulas, a formula weighs more than any number). */
static int64_t *row_weights(const dg_view *v, const dg_timeline *t)
{
    int64_t *w = tl_xcalloc((size_t)t->n_rows + 1, sizeof *w);
    for (int k = 0; k < t->n_rows; k++) {
        for (int c = 0; c < v->n_cols; c++) {
            int64_t n, b = dg_timeline_cell(t, k, t->cols[v->cols[c].col].ev, &n);
            if (t->symbolic && b < 0 && n > 0 && row_has_formula(t, k))
                b = INT64_MAX / 8;
            b = b < 0 && n > 0 ? 1 : b;
            w[k] = b > w[k] ? b : w[k];
        }
        w[k] = w[k] / 2 + (t->rows[k].at_peak ? INT64_MAX / 2 : 0);
    }
    return w;
}

static int pick_row(const int64_t *w, int n, const bool *taken)
{
    int best = -1;
    for (int k = 0; k < n; k++)
        if (!taken[k] && (best < 0 || w[k] > w[best]))
            best = k;
    return best;
}

/* v->rows: all rows, or the max_rows - 1 that weigh most, in order, and -1
 * for the rest merged into one. */
static void choose_rows(dg_view *v, const dg_timeline *t, int max_rows)
{
    int keep = t->n_rows <= max_rows ? t->n_rows : (max_rows > 1 ? max_rows - 1 : 1);
    bool *shown = tl_xcalloc((size_t)t->n_rows + 1, sizeof *shown);
    int64_t *w = row_weights(v, t);
    for (int k = 0; k < keep; k++)
        shown[pick_row(w, t->n_rows, shown)] = true;
    v->rows = tl_xcalloc((size_t)keep + 2, sizeof *v->rows);
    for (int k = 0; k < t->n_rows; k++) {
        if (shown[k])
            v->rows[v->n_rows++] = k;
        else
            v->n_hidden_rows++;
    }
    if (v->n_hidden_rows)
        v->rows[v->n_rows++] = -1;
    free(w);
    free(shown);
}

/* The view row that model row k is drawn in. */
static int view_row_of(const dg_view *v, const int *slot, int k)
{
    return slot[k] >= 0 ? slot[k] : v->n_rows - 1; /* -1: the merged rest */
}

static void add_cell(dg_view *v, int out, int c, int64_t bytes, int64_t count)
{
    int64_t i = (int64_t)out * v->n_cols + c;
    v->bytes[i] = v->bytes[i] < 0 || bytes < 0 ? -1 : v->bytes[i] + bytes;
    v->count[i] += count;
}

/* The known cells of view column c, summed (an unknown size counts 0 in
 * the live totals too); slot: each model row's view row. */
static sx_int known_sum(const dg_view *v, const dg_timeline *t, int c, const int *slot)
{
    int64_t ev = t->cols[v->cols[c].col].ev, n;
    sx_int sum = {0, 0};
    for (int k = 0; k < v->n_rows; k++) {
        sx_int x = v->bytes_sx[(int64_t)k * v->n_cols + c];
        if (x.e != SX_TOO_BIG) {
            sum = sx_add(sum, x);
            continue;
        }
        for (int m = 0; m < t->n_rows; m++) { /* the cell's model rows, one by one */
            x = view_row_of(v, slot, m) == k ? dg_timeline_cell_sx(t, m, ev, &n)
                                            : (sx_int){0, SX_TOO_BIG};
            sum = x.e == SX_TOO_BIG ? sum : sx_add(sum, x);
        }
    }
    return sum;
}

/* Over formulas: whether each column's known cells add up to its live total.
 * A storage that a summarised loop grows (an array's segment) has its final
 * bytes, not those of the iteration drawn: a column where that shows is
 * shaded as undecided.  (A function that is not a root counts its callers'
 * storages in its totals, which have no rows: its columns are not checked.) */
static void check_sums(dg_view *v, const dg_timeline *t, const int *slot)
{
    v->cells_add_up = tl_xcalloc((size_t)v->n_cols + 1, sizeof *v->cells_add_up);
    for (int c = 0; c < v->n_cols; c++)
        v->cells_add_up[c] = t->range.own_only || sx_same(known_sum(v, t, c, slot),
                                                          dg_timeline_live(t, v->cols[c].col));
}

/* The cells of the rows in v->rows (rows not in it add to the merged rest). */
static void fill_cells(dg_view *v, const dg_timeline *t)
{
    int *slot = tl_xcalloc((size_t)t->n_rows + 1, sizeof *slot);
    for (int k = 0; k < t->n_rows; k++)
        slot[k] = -1;
    for (int j = 0; j < v->n_rows; j++)
        if (v->rows[j] >= 0)
            slot[v->rows[j]] = j;
    v->bytes = tl_xcalloc((size_t)v->n_rows * (size_t)v->n_cols + 1, sizeof *v->bytes);
    v->count = tl_xcalloc((size_t)v->n_rows * (size_t)v->n_cols + 1, sizeof *v->count);
    if (t->symbolic)
        v->bytes_sx = tl_xcalloc((size_t)v->n_rows * (size_t)v->n_cols + 1, sizeof *v->bytes_sx);
    for (int k = 0; k < t->n_rows; k++) {
        int out = view_row_of(v, slot, k);
        for (int c = 0; c < v->n_cols; c++) {
            int64_t n, b = dg_timeline_cell(t, k, t->cols[v->cols[c].col].ev, &n);
            add_cell(v, out, c, b, n);
            if (t->symbolic) {
                sx_int *x = &v->bytes_sx[(int64_t)out * v->n_cols + c];
                *x = sx_add(*x, dg_timeline_cell_sx(t, k, t->cols[v->cols[c].col].ev, &n));
            }
        }
    }
    for (int64_t i = 0; i < (int64_t)v->n_rows * v->n_cols; i++)
        v->max_cell = v->bytes[i] > v->max_cell ? v->bytes[i] : v->max_cell;
    if (t->symbolic)
        check_sums(v, t, slot);
    free(slot);
}

static void make_rows(dg_view *v, const dg_timeline *t, int max_rows)
{
    choose_rows(v, t, max_rows < 1 ? 1 : max_rows);
    fill_cells(v, t);
}

void dg_view_elide(dg_view *v, const dg_timeline *t, int max_columns, int max_rows)
{
    int n = t->n_cols, k = (max_columns - 2) / 3, n_peaks = 0;
    view_open(v, n);
    bool *keep = tl_xcalloc((size_t)n + 1, sizeof *keep);
    for (int c = 0; c < n; c++)
        n_peaks += t->peak_cols[c];
    if (n <= max_columns || k < 1) {
        keep_range(keep, n, 0, n);
    } else if (n_peaks <= 1) {
        int p = t->peak_col >= 0 ? t->peak_col : n / 2;
        keep_range(keep, n, 0, k);
        keep_range(keep, n, n - k, n);
        keep_range(keep, n, p - k / 2, p - k / 2 + k);
    } else { /* the peak candidates share the middle third */
        int around = k / n_peaks > 1 ? k / n_peaks : 1;
        keep_range(keep, n, 0, k);
        keep_range(keep, n, n - k, n);
        for (int c = 0; c < n; c++)
            if (t->peak_cols[c])
                keep_range(keep, n, c - around / 2, c - around / 2 + around);
    }
    for (int c = 0; c < n;) {
        int e = c + 1;
        while (e < n && !keep[c] && !keep[e])
            e++;
        vcol_push(v, t, c, e);
        c = e;
    }
    free(keep);
    make_rows(v, t, max_rows);
}

void dg_view_bucket(dg_view *v, const dg_timeline *t, int max_columns, int max_rows)
{
    int n = t->n_cols, m = max_columns < 1 ? 1 : max_columns;
    int per = n <= m ? 1 : (n + m - 1) / m;
    view_open(v, n);
    for (int c = 0; c < n; c += per)
        vcol_push(v, t, c, c + per < n ? c + per : n);
    make_rows(v, t, max_rows);
}

void dg_view_bucket_like(dg_view *v, const dg_timeline *t, int max_columns, const dg_view *rows_of)
{
    int n = t->n_cols, m = max_columns < 1 ? 1 : max_columns;
    int per = n <= m ? 1 : (n + m - 1) / m;
    view_open(v, n);
    v->n_hidden_rows = rows_of->n_hidden_rows;
    for (int c = 0; c < n; c += per)
        vcol_push(v, t, c, c + per < n ? c + per : n);
    v->rows = tl_xcalloc((size_t)rows_of->n_rows + 1, sizeof *v->rows);
    memcpy(v->rows, rows_of->rows, sizeof *v->rows * (size_t)rows_of->n_rows);
    v->n_rows = rows_of->n_rows;
    fill_cells(v, t);
}

void dg_view_free(dg_view *v)
{
    free(v->cols);
    free(v->peak);
    free(v->rows);
    free(v->bytes);
    free(v->bytes_sx);
    free(v->cells_add_up);
    free(v->count);
    *v = (dg_view){0};
}

int64_t dg_view_cell(const dg_view *v, int k, int c, int64_t *n_live)
{
    int64_t i = (int64_t)k * v->n_cols + c;
    *n_live = v->count[i];
    return v->bytes[i];
}

sx_int dg_view_cell_sx(const dg_view *v, int k, int c, int64_t *n_live)
{
    int64_t i = (int64_t)k * v->n_cols + c;
    *n_live = v->count[i];
    return v->bytes_sx[i];
}

/* "main(): 7 calls, peak 640 MiB after line 29 (clone f)" */
void dg_life_summary(dg_buf *b, const dg_timeline *t)
{
    if (t->f->symbolic) { /* the sizes are formulas: so are the totals */
        dg_buf_printf(b, "%s(): ", t->f->name);
        dg_buf_total(b, t->f, 'c', false);
        dg_buf_puts(b, " calls, peak ");
        dg_buf_total(b, t->f, 'p', false);
        if (t->f->is_root) {
            dg_buf_puts(b, ", live at the end ");
            dg_buf_total(b, t->f, 'e', false);
        }
        return;
    }
    dg_buf_printf(b, "%s(): %lld call%s", t->f->name, (long long)t->n_calls,
                  t->n_calls == 1 ? "" : "s");
    if (t->peak_col < 0)
        return;
    const an_event *e = &t->r->events[t->cols[t->peak_col].ev];
    dg_buf_puts(b, ", peak ");
    dg_buf_bytes(b, t->peak_bytes);
    dg_buf_puts(b, " after line ");
    dg_buf_line(b, t->r, e->line);
    dg_buf_printf(b, " (%s", mt_ops[e->op].name);
    if (e->value >= 0 && t->r->values[e->value].name)
        dg_buf_printf(b, " %s", t->r->values[e->value].name);
    dg_buf_puts(b, ")");
    if (t->f->is_root) {
        dg_buf_puts(b, ", live at the end ");
        dg_buf_bytes(b, t->f->end_live_bytes);
    }
}

static void note(dg_buf *b, const char *sep, int *n)
{
    if ((*n)++)
        dg_buf_puts(b, sep);
}

/* Notes on the columns: grouped runs, the search's limit, merged columns. */
static void column_notes(dg_buf *b, const dg_timeline *t, const dg_view *v, const char *sep,
                         int *n)
{
    if (t->n_spans && t->symbolic) {
        note(b, sep, n);
        dg_buf_puts(b, "A run of calls that repeats back to back (a loop's iterations, a "
                       "function called again and again) is drawn once with its count: the last "
                       "repetition that reaches a peak candidate, else the last; a loop over "
                       "run-time sizes is analysed for its first iteration and the ones that "
                       "stand for the others, taken at the counter the run: line names; "
                       "--expand draws every call.");
    } else if (t->n_spans) {
        note(b, sep, n);
        dg_buf_puts(b, "A run of calls that repeats back to back (a loop's iterations, a "
                       "function called again and again) is drawn once with its count: the "
                       "heaviest repetition, which holds the peak when the run does; --expand "
                       "draws every call.");
    }
    if (t->grouping_cut) {
        note(b, sep, n);
        dg_buf_puts(b, "The search for repeated runs stopped at its work limit: later calls are "
                       "not grouped.");
    }
    if (v->n_hidden_cols) {
        note(b, sep, n);
        dg_buf_printf(b, "%lld of %d columns are merged into columns marked … (each shows "
                      "its heaviest moment); --max-columns draws more.",
                      (long long)v->n_hidden_cols, t->n_cols);
    }
}

/* Notes on the rows: merged rows, storages of branch arms not kept, cells
 * that do not add up. */
static void row_notes(dg_buf *b, const dg_timeline *t, const dg_view *v, const char *sep, int *n)
{
    bool add_up = true;
    for (int c = 0; t->symbolic && c < v->n_cols; c++)
        add_up = add_up && v->cells_add_up[c];
    if (!add_up) {
        note(b, sep, n);
        dg_buf_puts(b, "In an iteration a summarised loop stands for, a storage the loop grows "
                       "(an array's elements kept together) is drawn with its size after the "
                       "loop: where the cells do not add up to the live total, none is shaded "
                       "by its share of the peak.");
    }
    if (v->n_hidden_rows) {
        note(b, sep, n);
        dg_buf_printf(b, "%d smaller storage rows are summed in the last row; --max-rows draws more.",
                      v->n_hidden_rows);
    }
    if (t->n_discarded) {
        note(b, sep, n);
        dg_buf_printf(b, "%d row%s: made on the arm of an unknown branch that the analysis did not "
                      "keep (live only until that arm ends).", t->n_discarded,
                      t->n_discarded == 1 ? "" : "s");
    }
    if (t->n_discarded_hidden) {
        const an_storage *st = &t->r->storages[t->discarded_example];
        note(b, sep, n);
        dg_buf_printf(b, "Not drawn: %d storage%s made on the arm of an unknown branch that the "
                      "analysis did not keep (S%d, line ", t->n_discarded_hidden,
                      t->n_discarded_hidden == 1 ? "" : "s", st->id);
        dg_buf_line(b, t->r, st->alloc_line);
        dg_buf_printf(b, "%s).", t->n_discarded_hidden > 1 ? ", ..." : "");
    }
}

/* What the chart leaves out or merges, one sentence each, joined by sep. */
void dg_life_notes(dg_buf *b, const dg_timeline *t, const dg_view *v, const char *sep)
{
    int n = 0;
    column_notes(b, t, v, sep, &n);
    row_notes(b, t, v, sep, &n);
    if (!an_func_exact(t->f, AN_TOTAL_PEAK) || !an_func_exact(t->f, AN_TOTAL_END)) {
        an_claim peak = t->f->claim[AN_TOTAL_PEAK], end = t->f->claim[AN_TOTAL_END];
        note(b, sep, &n);
        static const char *const what[] = {"exact", "an upper bound", "a lower bound",
                                           "not bounded (either way)"};
        dg_buf_printf(b, "Not exact: the peak is %s, the live bytes at the end %s%s; they "
                         "depend on what the analysis could not follow exactly (see the notes).",
                      what[peak], what[end],
                      t->f->sizes_unknown ? " (some storage sizes are unknown (?), counted as 0)"
                                          : "");
    }
    if (t->range.own_only) {
        note(b, sep, &n);
        dg_buf_puts(b, "Only this function's own calls are columns; the live totals count the "
                       "whole program.");
    }
    if (t->r->n_events_dropped) {
        note(b, sep, &n);
        dg_buf_printf(b, "The event log is full: %lld later events are not drawn (--max-events).",
                      (long long)t->r->n_events_dropped);
    }
}
