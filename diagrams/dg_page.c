/*
 * dg_page.c: the memory page, `tensorlint report --format=html`.
 *
 * One self-contained HTML file: the style and the script (dg_page_assets,
 * generated at build time from page/page.css and page/page.js) inline, and
 * the data inside <script type="application/json">.  The script draws
 * everything from that data; nothing is fetched, so the page works from
 * file:// and as a CI artifact.
 *
 * The data, one JSON object:
 *  - "file", "source": the file as given and its text (null when it cannot
 *    be read);
 *  - "report": the JSON report (docs/formats.md), whole;
 *  - "binds": the --bind values, which prefill the symbols' inputs (the
 *    report itself is analysed without them, so that its formulas stay and
 *    the page can evaluate them at any values);
 *  - "roots": per executed root function, its lifetime model as the charts
 *    see it (dg_timeline, fitted by dg_view_elide): columns (the calls, with
 *    the event's line, op, value id and storage), rows (the storages, with
 *    their ids and bytes), the bytes of each cell and the live total after
 *    each column (an integer, a formula string, or null when unknown), the
 *    repeated runs, the notes of what the chart merged, and the dataflow
 *    graph as Graphviz SVG.
 *
 * Safety: the page is opened from pull requests.  Every text taken from the
 * source reaches the browser inside the JSON, where '<', '>' and '&' are
 * written \u003c, \u003e, \u0026 (so no "</script>" can end the element), and
 * every other non-ASCII character \uXXXX; the script inserts text only as text nodes, and
 * imports the SVG through a parser that drops scripts, event handlers and
 * links.
 */
#include "dg_internal.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "rp_json_emit.h"
#include "rp_report.h"
#include "dg_page_assets.h"
#include "meta.h"
#include "sym.h"

enum {
    PAGE_MAX_COLUMNS = 600, /* bars drawn per root before the middle is elided (it says so) */
    PAGE_MAX_ROWS = 48,     /* storages coloured apart before the smallest merge (it says so) */
};

/* Bytes as a JSON string: invalid UTF-8 (a source in Latin-1) repaired byte
 * by byte to U+FFFD, so that no text is lost whole for one bad byte. */
static json_t *text_json(const char *s, size_t n)
{
    if (rp_json_utf8_valid(s, n))
        return json_stringn(s, n);
    dg_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        size_t k = 1;
        while (k < 4 && i + k < n && ((unsigned char)s[i + k] & 0xc0) == 0x80)
            k++;
        if (rp_json_utf8_valid(s + i, k)) {
            char *one = tl_xstrndup(s + i, k);
            dg_buf_puts(&b, one);
            free(one);
            i += k - 1;
        } else {
            dg_buf_puts(&b, "\xef\xbf\xbd");
        }
    }
    json_t *j = json_stringn(b.s ? b.s : "", b.len);
    dg_buf_free(&b);
    return j;
}

/* A number, a formula string, or null when unknown ({0, SX_TOO_BIG}). */
static json_t *sx_json(sx_int a)
{
    if (a.e == 0)
        return json_integer(a.c);
    if (a.e == SX_TOO_BIG)
        return json_null();
    char *s = sx_strdup(a);
    json_t *j = json_string(s);
    free(s);
    return j ? j : json_null();
}

static json_t *buf_json(dg_buf *b)
{
    json_t *j = json_string(b->s ? b->s : "");
    dg_buf_free(b);
    return j ? j : json_string("");
}

/* One bar: the call (or release) after which the cells are shown. */
static json_t *column_json(const dg_timeline *t, const dg_view *v, int c)
{
    const dg_vcol *vc = &v->cols[c];
    const dg_col *mc = &t->cols[vc->col];
    const an_event *e = &t->r->events[mc->ev];
    json_t *j = json_object();
    static const char *const kinds[] = {"call", "release", "lost"};
    json_object_set_new(j, "event", json_string(kinds[e->kind]));
    json_object_set_new(j, "line", json_integer(e->line));
    json_object_set_new(j, "op", e->kind == AN_EV_CALL ? json_string(mt_ops[e->op].name)
                                                       : json_null());
    json_object_set_new(j, "value", e->kind == AN_EV_CALL && e->value >= 0
                                        ? json_integer(e->value) : json_null());
    json_object_set_new(j, "storage", e->storage >= 0 ? json_integer(e->storage) : json_null());
    json_object_set_new(j, "calls", json_integer(mc->n_calls));
    json_object_set_new(j, "merged", json_integer(vc->col_hi - vc->col_lo));
    json_object_set_new(j, "peak", json_boolean(v->peak[c]));
    json_object_set_new(j, "live", sx_json(dg_timeline_live(t, vc->col)));
    if (e->kind == AN_EV_LOST && e->lost_why)
        json_object_set_new(j, "lost", json_string(e->lost_why));
    return j;
}

/* One coloured series: a storage, or a call site's storages in a repeated run. */
static json_t *row_json(const dg_timeline *t, const dg_view *v, int k)
{
    json_t *j = json_object(), *ids = json_array();
    int row = v->rows[k];
    if (row < 0) {
        json_object_set_new(j, "label", json_string("others"));
        json_object_set_new(j, "names", json_string(""));
        json_object_set_new(j, "rows", json_integer(v->n_hidden_rows));
        json_object_set_new(j, "storages", ids);
        return j;
    }
    const dg_row *rw = &t->rows[row];
    dg_buf id = {0}, names = {0};
    dg_buf_row_id(&id, t, row);
    dg_buf_row_names(&names, t, row, true);
    json_object_set_new(j, "label", buf_json(&id));
    json_object_set_new(j, "names", buf_json(&names));
    for (int64_t m = t->member_start[row]; m < t->member_start[row + 1]; m++)
        json_array_append_new(ids, json_integer(t->members[m]));
    json_object_set_new(j, "storages", ids);
    json_object_set_new(j, "bytes", rw->formula ? sx_json(rw->first_sx)
                                                : rw->nbytes < 0 ? json_null()
                                                                 : json_integer(rw->nbytes));
    json_object_set_new(j, "alloc_line", json_integer(rw->alloc_line));
    json_object_set_new(j, "free_line", json_integer(rw->free_line));
    json_object_set_new(j, "at_peak", json_boolean(rw->at_peak));
    json_object_set_new(j, "discarded", json_boolean(rw->discarded));
    json_object_set_new(j, "external", json_boolean(rw->external));
    return j;
}

/* cells[k][c]: bytes of view row k live after view column c. */
static json_t *cells_json(const dg_timeline *t, const dg_view *v)
{
    json_t *rows = json_array();
    for (int k = 0; k < v->n_rows; k++) {
        json_t *r = json_array();
        for (int c = 0; c < v->n_cols; c++) {
            int64_t n;
            if (t->symbolic) {
                json_array_append_new(r, sx_json(dg_view_cell_sx(v, k, c, &n)));
            } else {
                int64_t b = dg_view_cell(v, k, c, &n);
                json_array_append_new(r, b < 0 ? json_null() : json_integer(b));
            }
        }
        json_array_append_new(rows, r);
    }
    return rows;
}

/* The repeated runs, in view columns: [first, last] and their words. */
static json_t *spans_json(const dg_timeline *t, const dg_view *v)
{
    json_t *a = json_array();
    for (int k = 0; k < t->n_spans; k++) {
        const dg_span *s = &t->spans[k];
        int lo = -1, hi = -1;
        for (int c = 0; c < v->n_cols; c++)
            if (v->cols[c].col_lo < s->col_hi && v->cols[c].col_hi > s->col_lo) {
                lo = lo < 0 ? c : lo;
                hi = c;
            }
        if (lo < 0)
            continue;
        dg_buf words = {0}, drawn = {0};
        dg_buf_span(&words, t, s);
        dg_buf_span_drawn(&drawn, s);
        json_t *j = json_object();
        json_object_set_new(j, "first", json_integer(lo));
        json_object_set_new(j, "last", json_integer(hi));
        json_object_set_new(j, "depth", json_integer(s->depth));
        json_object_set_new(j, "label", buf_json(&words));
        json_object_set_new(j, "drawn", buf_json(&drawn));
        json_array_append_new(a, j);
    }
    return a;
}

/* The dataflow graph's SVG, or null with why in "graph_error". */
static void graph_json(json_t *j, dg_ctx *c, const an_report *r, const an_func_report *f)
{
    dg_graph_options go;
    dg_graph_options_default(&go);
    char *svg = NULL;
    size_t len = 0;
    dg_status st = dg_graph_render(c, r, f, &go, DG_FORMAT_SVG, &svg, &len);
    if (st == DG_OK && svg) {
        json_object_set_new(j, "svg", text_json(svg, len));
    } else {
        json_object_set_new(j, "svg", json_null());
        json_object_set_new(j, "graph_error", json_string(dg_ctx_error(c)));
    }
    free(svg);
}

static json_t *root_json(dg_ctx *c, const an_report *r, const an_func_report *f)
{
    dg_timeline t;
    dg_view v;
    dg_timeline_build(&t, r, f, false);
    dg_view_elide(&v, &t, PAGE_MAX_COLUMNS, PAGE_MAX_ROWS);
    json_t *j = json_object(), *cols = json_array(), *rows = json_array();
    json_object_set_new(j, "name", json_string(f->name));
    dg_buf summary = {0}, notes = {0};
    dg_life_summary(&summary, &t);
    dg_life_notes(&notes, &t, &v, "\n");
    json_object_set_new(j, "summary", buf_json(&summary));
    json_object_set_new(j, "notes", buf_json(&notes));
    json_object_set_new(j, "symbolic", json_boolean(t.symbolic));
    for (int k = 0; k < v.n_cols; k++)
        json_array_append_new(cols, column_json(&t, &v, k));
    for (int k = 0; k < v.n_rows; k++)
        json_array_append_new(rows, row_json(&t, &v, k));
    json_object_set_new(j, "columns", cols);
    json_object_set_new(j, "rows", rows);
    json_object_set_new(j, "cells", cells_json(&t, &v));
    json_object_set_new(j, "spans", spans_json(&t, &v));
    dg_view_free(&v);
    dg_timeline_free(&t);
    graph_json(j, c, r, f);
    return j;
}

/* fixits[k]: the fix-its of the report's diagnostic k (the JSON report has none). */
static json_t *fixits_json(const an_report *r)
{
    json_t *all = json_array();
    for (int k = 0; k < r->n_diags; k++) {
        json_t *a = json_array();
        for (int i = 0; i < r->diags[k].n_fixits; i++) {
            const an_fixit *x = &r->diags[k].fixits[i];
            const char *text = x->text ? x->text : "";
            json_array_append_new(a, json_pack("{s:i,s:i,s:i,s:i,s:o}", "line", x->line, "column",
                                               x->col, "end_line", x->end_line, "end_column",
                                               x->end_col, "text",
                                               text_json(text, strlen(text))));
        }
        json_array_append_new(all, a);
    }
    return all;
}

static json_t *page_json(dg_ctx *c, const an_report *r, const dg_page_options *o)
{
    json_t *j = json_object(), *roots = json_array(), *binds = json_object();
    const char *path = r->unit ? r->unit->path : "";
    json_object_set_new(j, "file", text_json(path, strlen(path)));
    rp_source *src = rp_source_load(path);
    json_object_set_new(j, "source", src ? text_json(src->text, src->size) : json_null());
    rp_source_free(src);
    json_object_set_new(j, "report", rp_report_json(r));
    json_object_set_new(j, "fixits", fixits_json(r));
    for (int k = 0; o && k < o->n_binds; k++)
        json_object_set_new(binds, o->bind_names[k], json_integer(o->bind_values[k]));
    json_object_set_new(j, "binds", binds);
    for (int k = 0; k < r->n_funcs; k++)
        if (r->funcs[k].is_root && r->funcs[k].executed)
            json_array_append_new(roots, root_json(c, r, &r->funcs[k]));
    json_object_set_new(j, "roots", roots);
    return j;
}

/* JSON text (ASCII: JSON_ENSURE_ASCII) with the characters that could end
 * or confuse the <script> element escaped; they only occur inside JSON
 * strings, where \uXXXX means the same. */
static void put_json_escaped(dg_buf *b, const char *s)
{
    const char *run = s;
    for (const char *p = s;; p++) {
        if (*p != '<' && *p != '>' && *p != '&' && *p != 0)
            continue;
        char *part = tl_xstrndup(run, (size_t)(p - run));
        dg_buf_puts(b, part);
        free(part);
        if (*p == 0)
            return;
        dg_buf_printf(b, "\\u%04x", (unsigned)(unsigned char)*p);
        run = p + 1;
    }
}

static void put_title(dg_buf *b, const char *path)
{
    dg_buf_puts(b, "<title>Memory of ");
    dg_buf_html(b, path);
    dg_buf_puts(b, " (tensorlint)</title>\n");
}

dg_status dg_page_render(dg_ctx *c, const an_report *r, const dg_page_options *o, char **data,
                         size_t *len)
{
    json_t *j = page_json(c, r, o);
    char *text = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(j);
    if (!text)
        tl_out_of_memory(0);
    dg_buf b = {0};
    dg_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n");
    put_title(&b, r->unit ? r->unit->path : "");
    dg_buf_puts(&b, "<style>\n");
    dg_buf_puts(&b, dg_page_css);
    dg_buf_puts(&b, "</style>\n</head>\n<body>\n<noscript>This page draws the memory "
                    "report with JavaScript; `tensorlint report` prints it as text.</noscript>\n"
                    "<script type=\"application/json\" id=\"tl-data\">");
    put_json_escaped(&b, text);
    free(text);
    dg_buf_puts(&b, "</script>\n<script>\n");
    dg_buf_puts(&b, dg_page_js);
    dg_buf_puts(&b, "</script>\n</body>\n</html>\n");
    *len = b.len;
    *data = dg_buf_take(&b);
    return DG_OK;
}
