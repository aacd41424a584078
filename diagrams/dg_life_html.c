/*
 * dg_life_html.c: the storage lifetime chart as a Graphviz HTML-like
 * table in a single plaintext node, rendered by gvc like any graph.
 *
 * Layout, top to bottom: a title with the peak; one row per nesting level
 * of repeated runs ("loop at line 18 ×40"); the column headers (line and
 * op of each call, the peak column in red); one row per storage (id, the
 * tensors that live in it, size, lines of allocation and free, then a cell
 * per column: shaded by the bytes live, darker for more, with the name of
 * the tensor a call made in it); the live total after each call; notes
 * that say what was merged or left out.  Everything comes from the view
 * (dg_view), so the chart and the text chart agree.  When the sizes are
 * formulas, a cell is blue by its share of the peak only where the sizes
 * decide that share, else lavender; the live totals are labels whose
 * formulas the notes spell out (dg_legend), and every peak candidate's
 * column is red.
 */
#include "dg_internal.h"

#include <stdlib.h>
#include <string.h>

#define LABEL_COLS 4         /* storage, tensors, size, lines */
#define C_EMPTY "#f6f7f9"
#define C_PEAK "#c0392b"
#define C_SPAN "#fdf2d0"
#define C_HEAD "#e9edf2"
#define C_UNKNOWN "#b0b0b0"
#define C_FORMULA "#d9cdee"  /* live; its share of the peak depends on the sizes */
#define RAMP_LO 0xc6dbefu    /* the smallest storage (Blues) */
#define RAMP_HI 0x08306bu    /* the largest */
#define TOTAL_LO 0xfde0d2u   /* live totals: a little ... */
#define TOTAL_HI 0xd9472bu   /* ... up to the peak */

typedef struct html_ctx {
    dg_buf *b;
    const dg_timeline *t;
    const dg_view *v;
    const dg_legend *lg;
} html_ctx;

static const an_event *col_event(const html_ctx *h, int c)
{
    return &h->t->r->events[h->t->cols[h->v->cols[c].col].ev];
}

static void title(const html_ctx *h)
{
    dg_buf *b = h->b;
    dg_buf s = {0};
    dg_life_summary(&s, h->t);
    dg_buf_printf(b, "<TR><TD COLSPAN=\"%d\" BORDER=\"0\" ALIGN=\"LEFT\" CELLPADDING=\"6\">"
                  "<FONT POINT-SIZE=\"16\"><B>Storage lifetimes</B></FONT>"
                  "<FONT POINT-SIZE=\"12\">  ", LABEL_COLS + h->v->n_cols);
    dg_buf_html(b, h->t->r->unit ? h->t->r->unit->path : "");
    dg_buf_puts(b, "</FONT><BR ALIGN=\"LEFT\"/><FONT POINT-SIZE=\"13\">");
    dg_buf_html(b, s.s);
    dg_buf_puts(b, "</FONT><BR ALIGN=\"LEFT\"/></TD></TR>\n");
    dg_buf_free(&s);
}

static int span_at(const dg_timeline *t, int depth, int col)
{
    for (int k = 0; k < t->n_spans; k++)
        if (t->spans[k].depth == depth && t->spans[k].col_lo <= col && col < t->spans[k].col_hi)
            return k;
    return -1;
}

static void span_row(const html_ctx *h, int depth)
{
    dg_buf *b = h->b;
    dg_buf_printf(b, "<TR><TD COLSPAN=\"%d\" BORDER=\"0\"></TD>", LABEL_COLS);
    for (int c = 0; c < h->v->n_cols;) {
        int k = span_at(h->t, depth, h->v->cols[c].col), e = c + 1;
        while (e < h->v->n_cols && span_at(h->t, depth, h->v->cols[e].col) == k)
            e++;
        if (k < 0) {
            dg_buf_printf(b, "<TD COLSPAN=\"%d\" BORDER=\"0\"></TD>", e - c);
        } else {
            const dg_span *s = &h->t->spans[k];
            dg_buf tx = {0};
            dg_buf_span(&tx, h->t, s);
            dg_buf_printf(b, "<TD COLSPAN=\"%d\" BGCOLOR=\"%s\"><B>", e - c, C_SPAN);
            dg_buf_html(b, tx.s);
            tx.len = 0;
            dg_buf_span_drawn(&tx, s);
            dg_buf_puts(b, "</B><BR/><FONT POINT-SIZE=\"9\">");
            dg_buf_html(b, tx.s);
            dg_buf_puts(b, " shown</FONT></TD>");
            dg_buf_free(&tx);
        }
        c = e;
    }
    dg_buf_puts(b, "</TR>\n");
}

static void header_cell(const html_ctx *h, int c)
{
    dg_buf *b = h->b;
    const dg_vcol *vc = &h->v->cols[c];
    bool peak = h->v->peak[c];
    const an_event *e = col_event(h, c);
    dg_buf_printf(b, "<TD BGCOLOR=\"%s\"><FONT COLOR=\"%s\">", peak ? C_PEAK : C_HEAD,
                  peak ? "white" : "black");
    dg_buf at = {0}; /* "12", in a program "12 of layers.c" */
    if (vc->col_hi - vc->col_lo > 1) {
        dg_buf_printf(b, "<B>…</B><BR/><FONT POINT-SIZE=\"9\">%d calls</FONT>", vc->col_hi - vc->col_lo);
    } else {
        dg_buf_line(&at, h->t->r, e->line);
        dg_buf_puts(b, "<B>");
        dg_buf_html(b, at.s);
        dg_buf_printf(b, "</B><BR/><FONT POINT-SIZE=\"9\">%s</FONT>", mt_ops[e->op].name);
    }
    dg_buf_free(&at);
    if (peak)
        dg_buf_puts(b, "<BR/><B>PEAK</B>");
    dg_buf_puts(b, "</FONT></TD>");
}

static void header_row(const html_ctx *h)
{
    dg_buf *b = h->b;
    static const char *const heads[LABEL_COLS] = {"storage", "tensors in it", "size",
                                                  "allocated → freed (line)"};
    dg_buf_puts(b, "<TR>");
    for (int k = 0; k < LABEL_COLS; k++)
        dg_buf_printf(b, "<TD BGCOLOR=\"%s\" ALIGN=\"LEFT\" VALIGN=\"BOTTOM\"><B>%s</B></TD>",
                      C_HEAD, heads[k]);
    for (int c = 0; c < h->v->n_cols; c++)
        header_cell(h, c);
    dg_buf_puts(b, "</TR>\n");
}

static void put_sx_bytes(dg_buf *b, sx_int x)
{
    if (x.e == SX_TOO_BIG) {
        dg_buf_puts(b, "?");
    } else if (x.e == 0) {
        dg_buf_bytes(b, x.c);
    } else {
        char *f = sx_strdup(x);
        dg_buf_printf(b, "%s B", f);
        free(f);
    }
}

/* Over formulas: the first member's size, and the drawn repetition's when
 * it differs ("4*dim B to 4*steps*dim B"). */
static void row_size_sx(dg_buf *b, const dg_row *w)
{
    put_sx_bytes(b, w->first_sx);
    if (!sx_same(w->first_sx, w->shown_sx)) {
        dg_buf_puts(b, " to ");
        put_sx_bytes(b, w->shown_sx);
    }
    if (w->n_members > 1)
        dg_buf_puts(b, " each");
}

static void row_size(dg_buf *b, const dg_row *w, bool symbolic)
{
    if (w->external) { /* the caller's memory: nothing allocated */
        dg_buf_puts(b, "external, 0 B");
        return;
    }
    if (symbolic) {
        row_size_sx(b, w);
        return;
    }
    if (w->formula) { /* a size read at run time */
        char *f = sx_strdup(w->nbytes_sx);
        dg_buf_html(b, f);
        dg_buf_puts(b, w->n_members > 1 ? " B each" : " B");
        free(f);
        return;
    }
    dg_buf_bytes(b, w->nbytes);
    if (w->nbytes_max != w->nbytes) {
        dg_buf_puts(b, " to ");
        dg_buf_bytes(b, w->nbytes_max);
    }
    if (w->n_members > 1)
        dg_buf_puts(b, " each");
}

static void row_lines(dg_buf *b, const an_report *r, const dg_row *w)
{
    if (w->discarded && w->free_line == 0) {
        dg_buf_line(b, r, w->alloc_line);
        dg_buf_puts(b, " → (arm not kept)");
        return;
    }
    dg_buf_line(b, r, w->alloc_line);
    dg_buf_puts(b, " → ");
    if (w->free_line > 0)
        dg_buf_line(b, r, w->free_line);
    else
        dg_buf_puts(b, "never");
    if (w->n_members > 1 && w->free_count < w->n_members)
        dg_buf_printf(b, " (%lld of %lld freed)", (long long)w->free_count,
                      (long long)w->n_members);
}

/* The four label cells of view row k. */
static void row_labels(const html_ctx *h, int k)
{
    dg_buf *b = h->b, tx = {0};
    int m = h->v->rows[k];
    if (m < 0) {
        dg_buf_printf(b, "<TD ALIGN=\"LEFT\" COLSPAN=\"%d\"><I>%d more storages</I></TD>",
                      LABEL_COLS, h->v->n_hidden_rows);
        return;
    }
    const dg_row *w = &h->t->rows[m];
    dg_buf_row_id(&tx, h->t, m);
    dg_buf_printf(b, "<TD ALIGN=\"LEFT\">%s", w->at_peak ? "<B>" : "");
    dg_buf_html(b, tx.s);
    dg_buf_printf(b, "%s</TD><TD ALIGN=\"LEFT\">", w->at_peak ? "</B>" : "");
    tx.len = 0;
    dg_buf_row_names(&tx, h->t, m, true);
    dg_buf_html(b, tx.s);
    dg_buf_puts(b, "</TD><TD ALIGN=\"RIGHT\">");
    tx.len = 0;
    row_size(&tx, w, h->t->symbolic);
    dg_buf_html(b, tx.s);
    dg_buf_puts(b, "</TD><TD ALIGN=\"LEFT\">");
    tx.len = 0;
    row_lines(&tx, h->t->r, w);
    dg_buf_html(b, tx.s);
    dg_buf_puts(b, "</TD>");
    dg_buf_free(&tx);
}

/* What a live cell says: the tensor its call made here, how many storages of
 * the row are live when more than one, "?" when their size is unknown. */
static void cell_text(dg_buf *text, const html_ctx *h, int k, int c, int64_t bytes,
                      int64_t n_live)
{
    const char *made = NULL;
    if (h->v->rows[k] >= 0 && h->v->cols[c].col_hi - h->v->cols[c].col_lo == 1)
        made = dg_timeline_made_here(h->t, h->v->rows[k], h->t->cols[h->v->cols[c].col].ev);
    if (made)
        dg_buf_html(text, made);
    if (n_live > 1)
        dg_buf_printf(text, "%s×%lld", made ? " " : "", (long long)n_live);
    if (bytes < 0)
        dg_buf_puts(text, "?");
}

/* Over formulas: the cell's shade by its share of the peak where the sizes
 * decide it (*t), lavender where they do not, grey when unknown; *bytes -1
 * when unknown. */
static void fill_sx(const html_ctx *h, int k, int c, char fill[8], double *t, int64_t *bytes)
{
    int64_t n_live;
    sx_int x = dg_view_cell_sx(h->v, k, c, &n_live);
    int q = x.e == SX_TOO_BIG ? -2 : !h->v->cells_add_up[c] ? -1
                                      : dg_share_step(x, h->t->f->peak_sx, 4);
    *t = 0;
    *bytes = x.e == SX_TOO_BIG ? -1 : 0;
    snprintf(fill, 8, "%s", q == -2 ? C_UNKNOWN : C_FORMULA);
    if (q >= 0) {
        *t = (q + 1) / 4.0;
        dg_color_mix(fill, RAMP_LO, RAMP_HI, *t);
    }
}

static void data_cell(const html_ctx *h, int k, int c)
{
    dg_buf *b = h->b, text = {0};
    int64_t n_live, bytes = dg_view_cell(h->v, k, c, &n_live);
    const char *border = h->v->peak[c] ? " COLOR=\"" C_PEAK "\"" : "";
    if (n_live == 0) {
        dg_buf_printf(b, "<TD BGCOLOR=\"%s\"%s> </TD>", C_EMPTY, border);
        return;
    }
    char fill[8] = C_UNKNOWN;
    double t = bytes >= 0 && h->v->max_cell > 0 ? (double)bytes / (double)h->v->max_cell : 0;
    if (h->t->symbolic)
        fill_sx(h, k, c, fill, &t, &bytes);
    else if (bytes >= 0)
        dg_color_mix(fill, RAMP_LO, RAMP_HI, t);
    cell_text(&text, h, k, c, bytes, n_live);
    dg_buf_printf(b, "<TD BGCOLOR=\"%s\"%s>", fill, border);
    if (text.len)
        dg_buf_printf(b, "<FONT COLOR=\"%s\">%s</FONT>", t > 0.45 ? "white" : "black", text.s);
    else
        dg_buf_puts(b, " ");
    dg_buf_puts(b, "</TD>");
    dg_buf_free(&text);
}

static void storage_rows(const html_ctx *h)
{
    for (int k = 0; k < h->v->n_rows; k++) {
        dg_buf_puts(h->b, "<TR>");
        row_labels(h, k);
        for (int c = 0; c < h->v->n_cols; c++)
            data_cell(h, k, c);
        dg_buf_puts(h->b, "</TR>\n");
    }
}

/* Over formulas: a total's label and shade (by eighths of the peak where the
 * sizes decide its share, lavender where they do not, grey when unknown). */
static void total_sx(const html_ctx *h, int c, dg_buf *label, char fill[8], double *t)
{
    sx_int x = dg_timeline_live(h->t, h->v->cols[c].col);
    int q = x.e == SX_TOO_BIG ? -2 : dg_share_step(x, h->t->f->peak_sx, 8);
    dg_buf_live_label(label, h->lg, h->t, h->v, c);
    *t = q >= 0 ? (q + 1) / 8.0 : 0;
    snprintf(fill, 8, "%s", q == -2 ? C_UNKNOWN : C_FORMULA);
    if (q >= 0)
        dg_color_mix(fill, TOTAL_LO, TOTAL_HI, *t);
}

static void totals_row(const html_ctx *h)
{
    dg_buf *b = h->b, label = {0};
    int64_t peak = h->t->peak_bytes;
    dg_buf_printf(b, "<TR><TD COLSPAN=\"%d\" ALIGN=\"RIGHT\"><B>live after the call</B></TD>",
                  LABEL_COLS);
    for (int c = 0; c < h->v->n_cols; c++) {
        int64_t live = col_event(h, c)->live_bytes;
        double t = peak > 0 ? (double)live / (double)peak : 0;
        char fill[8];
        label.len = 0;
        if (h->t->symbolic) {
            total_sx(h, c, &label, fill, &t);
        } else {
            dg_color_mix(fill, TOTAL_LO, TOTAL_HI, t);
            dg_buf_bytes_short(&label, live);
        }
        bool is_peak = h->v->peak[c];
        dg_buf_printf(b, "<TD BGCOLOR=\"%s\"%s><FONT COLOR=\"%s\">%s%s%s</FONT></TD>", fill,
                      is_peak ? " COLOR=\"" C_PEAK "\"" : "", t > 0.6 ? "white" : "black",
                      is_peak ? "<B>" : "", label.s, is_peak ? "</B>" : "");
    }
    dg_buf_free(&label);
    dg_buf_puts(b, "</TR>\n");
}

static void notes_row(const html_ctx *h)
{
    dg_buf *b = h->b, tx = {0};
    dg_buf_puts(&tx, "Columns: the calls in the order they run (line, op). A shaded cell: the "
                     "storage is live after that call, darker for more bytes; a name in it: that "
                     "call made the tensor, in this storage (a view keeps it alive). A bold storage "
                     "is live at the peak.\n");
    dg_life_notes(&tx, h->t, h->v, "\n");
    if (h->t->symbolic) {
        dg_buf_puts(&tx, "\n");
        dg_legend_lines(&tx, h->lg, h->t, h->v, "\n", false);
    }
    int width = 60 + 6 * h->v->n_cols;
    dg_buf_printf(b, "<TR><TD COLSPAN=\"%d\" BORDER=\"0\" ALIGN=\"LEFT\"><FONT POINT-SIZE=\"10\">",
                  LABEL_COLS + h->v->n_cols);
    dg_buf_html_wrapped(b, tx.s, width > 160 ? 160 : width);
    dg_buf_puts(b, "</FONT></TD></TR>\n");
    dg_buf_free(&tx);
}

static char *life_table(const dg_timeline *t, const dg_view *v)
{
    dg_buf b = {0};
    dg_legend lg;
    dg_legend_init(&lg, t, v);
    html_ctx h = {&b, t, v, &lg};
    int depth = 0;
    for (int k = 0; k < t->n_spans; k++)
        depth = t->spans[k].depth + 1 > depth ? t->spans[k].depth + 1 : depth;
    dg_buf_puts(&b, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"4\" "
                    "COLOR=\"#c8ccd2\">\n");
    title(&h);
    for (int d = 0; d < depth; d++)
        span_row(&h, d);
    header_row(&h);
    storage_rows(&h);
    totals_row(&h);
    notes_row(&h);
    dg_buf_puts(&b, "</TABLE>");
    dg_legend_free(&lg);
    return dg_buf_take(&b);
}

static Agraph_t *life_graph(const dg_timeline *t, const dg_view *v)
{
    Agraph_t *g = dg_graph_open("lifetimes");
    dg_declare(g, AGRAPH, "bgcolor", "white");
    dg_declare(g, AGRAPH, "margin", "0.2");
    dg_declare(g, AGNODE, "shape", "plaintext");
    dg_declare(g, AGNODE, "fontname", "Helvetica");
    dg_declare(g, AGNODE, "fontsize", "11");
    dg_declare(g, AGNODE, "margin", "0");
    dg_declare(g, AGNODE, "label", "");
    Agnode_t *n = dg_node(g, "chart");
    char *html = life_table(t, v);
    dg_set_html(g, n, html);
    free(html);
    return g;
}

dg_status dg_lifetimes_render(dg_ctx *c, const an_report *r, const an_func_report *f,
                              const dg_life_options *o, dg_format fmt, char **data, size_t *len)
{
    dg_timeline t;
    dg_view v;
    dg_timeline_build(&t, r, f, o->expand);
    dg_view_elide(&v, &t, o->max_columns, o->max_rows);
    Agraph_t *g = life_graph(&t, &v);
    dg_status st = dg_render_graph(c, g, fmt, data, len);
    agclose(g);
    dg_view_free(&v);
    dg_timeline_free(&t);
    return st;
}
