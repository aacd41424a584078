/*
 * dg_life_text.c: the storage lifetime chart for a terminal, the same
 * model as the drawn chart (dg_timeline), fitted to a width by merging
 * neighbouring columns (dg_view_bucket).
 *
 *   storage  tensors  size     lines        | 23  24  25  26  27  28  29
 *                                           | ran tra con res to  sli clo
 *   S0       x, a     128 MiB  23 → never   | ▓▓▓ ▓▓▓ ▓▓▓ ▓▓▓ ▓▓▓ ▓▓▓ ▓▓▓
 *   ...
 *   live after the call                     | 128M 128M ...
 *                                                              ^ peak 640 MiB
 *
 * A cell is shaded by the bytes live (░ ▒ ▓ █ by quarters of the largest
 * cell), "·" when the storage is not live.  With one character per column
 * the live total is a bar (▁ … █ up to the peak) instead of a number.
 * When the sizes are formulas, a cell's shade is its share of the peak
 * where the prover decides it, else "▚" (live, the share depends on the
 * sizes); a live total is a number or a label (L1, L2 ...) spelled out in
 * the legend under the chart, and each peak candidate's column is marked.
 * Widths are counted in characters, not bytes (the labels hold UTF-8).
 * The width itself comes from --width, else COLUMNS, else the terminal
 * (dg_terminal_width, as ls(1) decides it), else 100.
 */
#include "dg_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_CELL 5          /* characters per column at most (4 + a space) */
#define MAX_NAMES 24        /* characters of the tensors column at most */
#define N_LABELS 4

static const char *const shades[] = {"░", "▒", "▓", "█"};
static const char *const shade_formula = "▚"; /* live, its share of the peak depends on the sizes */
static const char *const bars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

static int text_width(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* s, cut to w characters (the last one "…" when cut) and padded to w. */
static void put_cell(dg_buf *b, const char *s, int w)
{
    int n = text_width(s);
    if (n <= w) {
        dg_buf_printf(b, "%s%*s", s, w - n, "");
        return;
    }
    int seen = 0;
    for (const char *p = s; *p && seen < w - 1; p++) {
        char c[2] = {*p, '\0'};
        dg_buf_puts(b, c);
        if (((unsigned char)p[1] & 0xc0) != 0x80)
            seen++;
    }
    dg_buf_puts(b, "…");
}

typedef struct text_chart {
    const dg_timeline *t;
    dg_view v;
    int n_labels;       /* rows labelled: the view's rows */
    char **labels;      /* [n_labels][N_LABELS] */
    int w[N_LABELS];    /* label column widths */
    int label_w;        /* all label columns with their gaps */
    int cw;             /* characters per view column */
    dg_legend lg;       /* formulas: the live totals' labels */
} text_chart;

static void row_label_texts(const dg_timeline *t, int m, char **out, int n_hidden)
{
    dg_buf b = {0};
    if (m < 0) {
        dg_buf_printf(&b, "%d more", n_hidden);
        out[0] = dg_buf_take(&b);
        out[1] = tl_xstrdup("");
        out[2] = tl_xstrdup("");
        out[3] = tl_xstrdup("");
        return;
    }
    const dg_row *w = &t->rows[m];
    dg_buf_row_id(&b, t, m);
    out[0] = dg_buf_take(&b);
    dg_buf_row_names(&b, t, m, false);
    out[1] = dg_buf_take(&b);
    if (w->external) {
        dg_buf_puts(&b, "external");
    } else if (t->symbolic) { /* the drawn repetition's, as the cells show */
        if (w->shown_sx.e == SX_TOO_BIG)
            dg_buf_puts(&b, "?");
        else if (w->shown_sx.e == 0)
            dg_buf_bytes(&b, w->shown_sx.c);
        else {
            char *f = sx_strdup(w->shown_sx);
            dg_buf_printf(&b, "%s B", f);
            free(f);
        }
    } else if (w->formula) { /* a size read at run time */
        char *f = sx_strdup(w->nbytes_sx);
        dg_buf_printf(&b, "%s B", f);
        free(f);
    } else {
        dg_buf_bytes(&b, w->nbytes_max);
    }
    out[2] = dg_buf_take(&b);
    dg_buf_line(&b, t->r, w->alloc_line);
    dg_buf_puts(&b, " → ");
    if (w->discarded && w->free_line == 0)
        dg_buf_puts(&b, "arm not kept");
    else if (w->free_line > 0)
        dg_buf_line(&b, t->r, w->free_line);
    else
        dg_buf_puts(&b, "never");
    out[3] = dg_buf_take(&b);
}

static const char *const label_heads[N_LABELS] = {"storage", "tensors", "size", "lines"};

static void measure(text_chart *c, int n_rows)
{
    for (int k = 0; k < N_LABELS; k++)
        c->w[k] = text_width(label_heads[k]);
    for (int r = 0; r < n_rows; r++)
        for (int k = 0; k < N_LABELS; k++) {
            int n = text_width(c->labels[r * N_LABELS + k]);
            c->w[k] = n > c->w[k] ? n : c->w[k];
        }
    c->w[1] = c->w[1] > MAX_NAMES ? MAX_NAMES : c->w[1];
    c->label_w = c->w[0] + c->w[1] + c->w[2] + c->w[3] + 2 * (N_LABELS - 1);
}

/* Rows first, from a view about as wide as the final one; their labels'
 * width decides the columns' room; then the view, with the same rows. */
static void chart_init(text_chart *c, const dg_timeline *t, const dg_life_options *o)
{
    dg_view probe;
    *c = (text_chart){.t = t};
    dg_view_bucket(&probe, t, o->width > 48 ? o->width - 40 : 8, o->max_rows);
    c->n_labels = probe.n_rows;
    c->labels = tl_xcalloc((size_t)c->n_labels * N_LABELS + 1, sizeof *c->labels);
    for (int r = 0; r < c->n_labels; r++)
        row_label_texts(t, probe.rows[r], c->labels + r * N_LABELS, probe.n_hidden_rows);
    measure(c, c->n_labels);
    int room = o->width - c->label_w - 2;
    if (room < 8) { /* too narrow: the tensors column gives way first */
        c->w[1] = 4;
        c->label_w = c->w[0] + c->w[1] + c->w[2] + c->w[3] + 2 * (N_LABELS - 1);
        room = o->width - c->label_w - 2;
    }
    room = room < 8 ? 8 : room;
    dg_view_bucket_like(&c->v, t, room, &probe);
    dg_view_free(&probe);
    c->cw = c->v.n_cols ? room / c->v.n_cols : 1;
    c->cw = c->cw > MAX_CELL ? MAX_CELL : c->cw < 1 ? 1 : c->cw;
    dg_legend_init(&c->lg, t, &c->v);
}

static void chart_free(text_chart *c)
{
    for (int r = 0; r < c->n_labels * N_LABELS; r++)
        free(c->labels[r]);
    free(c->labels);
    dg_legend_free(&c->lg);
    dg_view_free(&c->v);
}

static void put_labels(dg_buf *b, const text_chart *c, char *const *texts)
{
    for (int k = 0; k < N_LABELS; k++) {
        put_cell(b, texts[k], c->w[k]);
        dg_buf_puts(b, k + 1 < N_LABELS ? "  " : " │");
    }
}

static void put_blank_labels(dg_buf *b, const text_chart *c, const char *right)
{
    int pad = c->label_w - text_width(right);
    dg_buf_printf(b, "%*s%s │", pad > 0 ? pad : 0, "", right);
}

/* Labels written left to right at their columns, each where it does not
 * run into the one before; returns the line (without the label part). */
static void put_ruler(dg_buf *b, const text_chart *c, char **texts)
{
    int pos = 0;
    for (int col = 0; col < c->v.n_cols; col++) {
        int at = col * c->cw, n = text_width(texts[col]);
        if (!texts[col][0] || at < pos || at + n > c->v.n_cols * c->cw)
            continue;
        dg_buf_printf(b, "%*s%s", at - pos, "", texts[col]);
        pos = at + n + 1;
        dg_buf_puts(b, " ");
    }
}

static void header_lines(dg_buf *b, const text_chart *c)
{
    char **line = tl_xcalloc((size_t)c->v.n_cols + 1, sizeof *line);
    char **op = tl_xcalloc((size_t)c->v.n_cols + 1, sizeof *op);
    for (int k = 0; k < c->v.n_cols; k++) {
        const an_event *e = &c->t->r->events[c->t->cols[c->v.cols[k].col].ev];
        dg_buf s = {0};
        const ir_unit *u = c->t->r->unit; /* a program's line: its file's own number */
        dg_buf_printf(&s, "%d", u ? ir_unit_line_at(u, e->line) : e->line);
        line[k] = dg_buf_take(&s);
        dg_buf_printf(&s, "%.*s", c->cw - 1, c->cw >= 4 ? mt_ops[e->op].name : "");
        op[k] = dg_buf_take(&s);
    }
    for (int k = 0; k < N_LABELS; k++) {
        put_cell(b, label_heads[k], c->w[k]);
        dg_buf_puts(b, k + 1 < N_LABELS ? "  " : " │");
    }
    put_ruler(b, c, line);
    dg_buf_puts(b, "\n");
    if (c->cw >= 4) {
        put_blank_labels(b, c, "");
        put_ruler(b, c, op);
        dg_buf_puts(b, "\n");
    }
    for (int k = 0; k < c->v.n_cols; k++) {
        free(line[k]);
        free(op[k]);
    }
    free(line);
    free(op);
}

static int span_at(const dg_timeline *t, int depth, int col)
{
    for (int k = 0; k < t->n_spans; k++)
        if (t->spans[k].depth == depth && t->spans[k].col_lo <= col && col < t->spans[k].col_hi)
            return k;
    return -1;
}

/* The words for span k that fit in w characters: all, the count, or none. */
static void span_fit(dg_buf *s, const dg_timeline *t, int k, int w)
{
    dg_buf_span(s, t, &t->spans[k]);
    if (text_width(s->s) <= w)
        return;
    s->len = 0;
    dg_buf_span_count(s, &t->spans[k]);
    if (text_width(s->s) > w)
        s->len = 0;
    dg_buf_puts(s, "");
}

/* [loop at line 18 ×40 ] over the columns of each run at this depth. */
static void span_line(dg_buf *b, const text_chart *c, int depth)
{
    put_blank_labels(b, c, depth == 0 ? "repeated runs, drawn once" : "");
    for (int col = 0; col < c->v.n_cols;) {
        int k = span_at(c->t, depth, c->v.cols[col].col), e = col + 1;
        while (e < c->v.n_cols && span_at(c->t, depth, c->v.cols[e].col) == k)
            e++;
        int w = (e - col) * c->cw - (c->cw > 1 ? 1 : 0);
        if (k < 0 || w < 2) {
            dg_buf_printf(b, "%*s", (e - col) * c->cw, k < 0 ? "" : "|");
        } else {
            dg_buf s = {0};
            span_fit(&s, c->t, k, w - 2);
            dg_buf_puts(b, "[");
            put_cell(b, s.s, w - 2);
            dg_buf_puts(b, "]");
            dg_buf_printf(b, "%*s", (e - col) * c->cw - w, "");
            dg_buf_free(&s);
        }
        col = e;
    }
    dg_buf_puts(b, "\n");
}

/* Each run in words, below the chart (the brackets may hold only its count). */
static void span_notes(dg_buf *b, const dg_timeline *t)
{
    const int max_listed = 8;
    for (int k = 0; k < t->n_spans && k < max_listed; k++) {
        const an_event *first = &t->r->events[t->cols[t->spans[k].col_lo].ev];
        const an_event *last = &t->r->events[t->cols[t->spans[k].col_hi - 1].ev];
        dg_buf_puts(b, "run: ");
        dg_buf_span(b, t, &t->spans[k]);
        dg_buf_puts(b, ", calls at lines ");
        dg_buf_line(b, t->r, first->line);
        dg_buf_puts(b, " to ");
        dg_buf_line(b, t->r, last->line);
        dg_buf_puts(b, ", ");
        dg_buf_span_drawn(b, &t->spans[k]);
        dg_buf_puts(b, " drawn\n");
    }
    if (t->n_spans > max_listed)
        dg_buf_printf(b, "run: and %d more\n", t->n_spans - max_listed);
}

/* A live cell over formulas: its share of the peak, when the sizes decide it. */
static const char *cell_shade_sx(const text_chart *c, int r, int col)
{
    int64_t n_live;
    sx_int x = dg_view_cell_sx(&c->v, r, col, &n_live);
    if (x.e == SX_TOO_BIG)
        return "?";
    if (!c->v.cells_add_up[col])
        return shade_formula;
    int q = dg_share_step(x, c->t->f->peak_sx, 4);
    return q < 0 ? shade_formula : shades[q];
}

static void cells_line(dg_buf *b, const text_chart *c, int r)
{
    put_labels(b, c, c->labels + r * N_LABELS);
    for (int col = 0; col < c->v.n_cols; col++) {
        int64_t n_live, bytes = dg_view_cell(&c->v, r, col, &n_live);
        const char *ch = "·";
        if (n_live > 0 && c->t->symbolic)
            ch = cell_shade_sx(c, r, col);
        else if (n_live > 0 && bytes < 0)
            ch = "?";
        else if (n_live > 0) {
            double t = c->v.max_cell > 0 ? (double)bytes / (double)c->v.max_cell : 0;
            int q = (int)(t * 4 - 1e-9);
            ch = shades[q < 0 ? 0 : q > 3 ? 3 : q];
        }
        for (int k = 0; k < (c->cw > 1 ? c->cw - 1 : 1); k++)
            dg_buf_puts(b, ch);
        if (c->cw > 1)
            dg_buf_puts(b, " ");
    }
    dg_buf_puts(b, "\n");
}

/* The live total over formulas: a label, a number or "?" in a wide column;
 * a bar where the sizes decide its share of the peak, else "▚", in a narrow
 * one (the labels then go on the line below). */
static void totals_sx(dg_buf *b, const text_chart *c, int col)
{
    dg_buf s = {0};
    if (c->cw >= MAX_CELL) {
        dg_buf_live_label(&s, &c->lg, c->t, &c->v, col);
        dg_buf_printf(b, "%*s ", c->cw - 1, s.s);
        dg_buf_free(&s);
        return;
    }
    sx_int x = dg_timeline_live(c->t, c->v.cols[col].col);
    int q = x.e == SX_TOO_BIG ? -2 : dg_share_step(x, c->t->f->peak_sx, 8);
    for (int k = 0; k < (c->cw > 1 ? c->cw - 1 : 1); k++)
        dg_buf_puts(b, q == -2 ? "?" : q < 0 ? shade_formula : bars[q]);
    if (c->cw > 1)
        dg_buf_puts(b, " ");
}

/* Under a narrow chart's bars: the labels, where they fit. */
static void labels_line(dg_buf *b, const text_chart *c)
{
    if (c->cw >= MAX_CELL || c->lg.n_labels == 0)
        return;
    char **texts = tl_xcalloc((size_t)c->v.n_cols + 1, sizeof *texts);
    for (int col = 0; col < c->v.n_cols; col++) {
        dg_buf s = {0};
        if (c->lg.label[col] > 0 && (col == 0 || c->lg.label[col] != c->lg.label[col - 1]))
            dg_buf_printf(&s, "L%d", c->lg.label[col]);
        texts[col] = dg_buf_take(&s);
    }
    put_blank_labels(b, c, "");
    put_ruler(b, c, texts);
    dg_buf_puts(b, "\n");
    for (int col = 0; col < c->v.n_cols; col++)
        free(texts[col]);
    free(texts);
}

static void totals_line(dg_buf *b, const text_chart *c)
{
    put_blank_labels(b, c, "live after the call");
    for (int col = 0; col < c->v.n_cols; col++) {
        int64_t live = c->t->r->events[c->t->cols[c->v.cols[col].col].ev].live_bytes;
        if (c->t->symbolic) {
            totals_sx(b, c, col);
            continue;
        }
        if (c->cw >= MAX_CELL) {
            dg_buf s = {0};
            dg_buf_bytes_short(&s, live);
            dg_buf_printf(b, "%*s ", c->cw - 1, s.s);
            dg_buf_free(&s);
            continue;
        }
        double t = c->t->peak_bytes > 0 ? (double)live / (double)c->t->peak_bytes : 0;
        int q = (int)(t * 8 - 1e-9);
        for (int k = 0; k < (c->cw > 1 ? c->cw - 1 : 1); k++)
            dg_buf_puts(b, bars[q < 0 ? 0 : q > 7 ? 7 : q]);
        if (c->cw > 1)
            dg_buf_puts(b, " ");
    }
    dg_buf_puts(b, "\n");
}

/* Over formulas: "^" under each peak candidate's column, and "peak" after
 * the last or, where it does not fit there, before the first. */
static void peak_line_sx(dg_buf *b, const text_chart *c)
{
    int first = -1, last = -1, pos = 0, room = c->v.n_cols * c->cw;
    int lift = c->cw > 1 ? c->cw - 2 : 0; /* under the total's last character */
    for (int col = 0; col < c->v.n_cols; col++)
        if (c->v.peak[col]) {
            first = first < 0 ? col * c->cw + lift : first;
            last = col * c->cw + lift;
        }
    bool after = last + 6 <= room, before = !after && first >= 5;
    put_blank_labels(b, c, "");
    for (int col = 0; col < c->v.n_cols; col++) {
        int at = col * c->cw + lift;
        if (!c->v.peak[col])
            continue;
        if (before && at == first) {
            dg_buf_printf(b, "%*speak ", at - 5 - pos, "");
            pos = at;
        }
        dg_buf_printf(b, "%*s^", at - pos, "");
        pos = at + 1;
    }
    dg_buf_puts(b, after ? " peak\n" : "\n");
}

static void peak_line(dg_buf *b, const text_chart *c)
{
    if (c->v.peak_vcol >= 0 && c->t->symbolic)
        peak_line_sx(b, c);
    if (c->v.peak_vcol < 0 || c->t->symbolic)
        return;
    dg_buf s = {0};
    dg_buf_puts(&s, "peak ");
    dg_buf_bytes(&s, c->t->peak_bytes);
    int at = c->v.peak_vcol * c->cw, room = c->v.n_cols * c->cw;
    put_blank_labels(b, c, "");
    if (at + 2 + text_width(s.s) <= room || at < text_width(s.s) + 2)
        dg_buf_printf(b, "%*s^ %s\n", at, "", s.s);
    else
        dg_buf_printf(b, "%*s%s ^\n", at - text_width(s.s) - 1, "", s.s);
    dg_buf_free(&s);
}

/* head and text, wrapped at width with the lines after indented as far as
 * head (and one more for a legend entry's continuation). */
static void put_wrapped(dg_buf *b, const char *head, const char *text, int width)
{
    int indent = text_width(head), col = indent;
    bool entry = head[0] == ' '; /* a legend entry: its continuation lines go in further */
    dg_buf_puts(b, head);
    for (const char *p = text; *p;) {
        const char *end = strchr(p, ' ');
        int n = end ? (int)(end - p) : (int)strlen(p);
        if (col + 1 + n > width && col > indent + 1) {
            dg_buf_printf(b, "\n%*s", indent + (entry ? 2 : 0), "");
            col = indent + (entry ? 2 : 0);
        }
        dg_buf_printf(b, " %.*s", n, p);
        col += 1 + text_width(p) - (end ? text_width(end) : 0);
        p = end ? end + 1 : p + n;
    }
    dg_buf_puts(b, "\n");
}

/* "note: " and text, wrapped at width with the lines after indented. */
static void put_note(dg_buf *b, const char *text, int width)
{
    put_wrapped(b, "note:", text, width);
}

static void notes_lines(dg_buf *b, const text_chart *c, int width)
{
    dg_buf s = {0};
    if (c->v.n_cols > 0 && c->v.cols[0].col_hi - c->v.cols[0].col_lo > 1) {
        dg_buf_printf(&s, "%d calls are drawn in %d columns: each shows its heaviest moment.",
                      c->t->n_cols, c->v.n_cols);
        put_note(b, s.s, width);
        s.len = 0;
    }
    dg_view shown = c->v;
    shown.n_hidden_cols = 0; /* said above, in the text chart's words */
    dg_life_notes(&s, c->t, &shown, "\n");
    for (char *line = s.s, *end; line && *line; line = end + 1) {
        end = strchr(line, '\n');
        if (end)
            *end = '\0';
        put_note(b, line, width);
        if (!end)
            break;
    }
    dg_buf_free(&s);
}

/* The legend of a chart over formulas, each entry wrapped at width. */
static void legend_lines(dg_buf *b, const text_chart *c, int width)
{
    dg_buf s = {0};
    dg_legend_lines(&s, &c->lg, c->t, &c->v, "\n", true);
    for (char *line = s.s, *end; line && *line; line = end + 1) {
        end = strchr(line, '\n');
        if (end)
            *end = '\0';
        put_wrapped(b, line == s.s ? "legend:" : "      ", line, width);
        if (!end)
            break;
    }
    dg_buf_free(&s);
}

static void chart_body(dg_buf *b, const dg_timeline *t, const dg_life_options *o)
{
    text_chart c;
    int depth = 0;
    chart_init(&c, t, o);
    for (int k = 0; k < t->n_spans; k++)
        depth = t->spans[k].depth + 1 > depth ? t->spans[k].depth + 1 : depth;
    for (int d = 0; d < depth; d++)
        span_line(b, &c, d);
    header_lines(b, &c);
    for (int k = 0; k < c.v.n_rows; k++)
        cells_line(b, &c, k);
    totals_line(b, &c);
    labels_line(b, &c);
    peak_line(b, &c);
    span_notes(b, t);
    legend_lines(b, &c, o->width);
    notes_lines(b, &c, o->width);
    chart_free(&c);
}

/* Write s line by line without trailing blanks. */
static void put_trimmed(FILE *out, char *s)
{
    for (char *line = s, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        while (n > 0 && line[n - 1] == ' ')
            n--;
        fwrite(line, 1, n, out);
        fputc('\n', out);
        if (!end)
            break;
    }
}

void dg_lifetimes_text(FILE *out, const an_report *r, const an_func_report *f,
                       const dg_life_options *o)
{
    dg_timeline t;
    dg_buf b = {0};
    dg_timeline_build(&t, r, f, o->expand);
    dg_buf_puts(&b, "storage lifetimes of ");
    dg_life_summary(&b, &t);
    dg_buf_puts(&b, "\n");
    if (t.n_cols == 0 || t.n_rows == 0)
        dg_buf_puts(&b, "(no call of this function allocates or uses a storage)\n");
    else
        chart_body(&b, &t, o);
    put_trimmed(out, b.s);
    dg_buf_free(&b);
    dg_timeline_free(&t);
}

void dg_life_options_default(dg_life_options *o)
{
    *o = (dg_life_options){.expand = false, .max_columns = 120, .max_rows = 40, .width = 100};
}

/* As ls(1) does: COLUMNS when it is a positive number, else the terminal's
 * width when out is one, else 100. */
int dg_terminal_width(FILE *out)
{
    const char *env = getenv("COLUMNS");
    char *end;
    long n = env ? strtol(env, &end, 10) : 0;
    if (env && *env && !*end && n > 0 && n < 100000)
        return (int)n;
    struct winsize ws;
    if (out && isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 100;
}
