/*
 * dg_graph.c: the dataflow graph of one function's execution.
 *
 * Nodes: one per value (call site, as its first execution saw it): the
 * function's own values, and every value its calls used or made (for a
 * root, the whole run from it, callees included).  Clusters: one per
 * storage of a drawn value, labelled with its id, size, device and the
 * lines that allocate and free it; the storages live at the peak are drawn
 * in red.  Edges: from each CALL event's operands (in_value) to its value,
 * once per pair, in order of first occurrence, styled by what the call did
 * to that operand:
 *   view     dashed, no bytes (the result shares the operand's storage)
 *   copy     bold, labelled with the bytes the call moved
 *   cast     orange, labelled with both dtypes and the bytes moved
 *   compute  plain
 * Diagnostics are marked on the node at their line and column (else the
 * first node on their line): its border takes the severity's colour and
 * the label gains the message.  Diagnostics of the function that match no
 * node are listed under the graph's title.  Nothing here depends on which
 * checks exist.
 *
 * Size: dot's layout time grows fast with long edges across many ranks
 * (0.1 s at 100 nodes of a straight-line program, about 1 s at 150, several
 * at 200), so past max_nodes
 * only the first values in program order are drawn, and the title says how
 * many are not.
 *
 * Determinism: nodes are created in value id order ("v<id>"), clusters in
 * storage id order ("cluster_s<id>"), edges in log order; attributes are
 * declared up front in one order.
 */
#include "dg_internal.h"

#include <stdlib.h>
#include <string.h>


#define C_PEAK "#c0392b"
#define C_CAST "#d35400"
#define C_VIEW "#2e6da4"
#define C_WARN "#e67e22"
#define C_ERROR "#c0392b"
#define C_NOTE "#2e6da4"

typedef enum edge_kind { EDGE_COMPUTE, EDGE_VIEW, EDGE_COPY, EDGE_CAST } edge_kind;

typedef struct graph_build {
    const an_report *r;
    const an_func_report *f;
    int n_shown, n_cut;   /* values drawn, values left out past max_nodes */
    int cut_first;        /* the first value left out, -1 */
    dg_range range;
    Agraph_t *g;
    bool *shown;          /* per value */
    Agnode_t **node;      /* per value */
    Agraph_t **cluster;   /* per storage */
    bool *at_peak;        /* per storage */
    int *diag_value;      /* per diagnostic: the value it is marked on, -1 */
} graph_build;

/* ---- what is drawn ---- */

static void mark_values(graph_build *b)
{
    const an_report *r = b->r;
    b->shown = tl_xcalloc((size_t)r->n_values + 1, sizeof *b->shown);
    for (int k = 0; k < b->f->n_values; k++)
        b->shown[b->f->values[k]] = true;
    for (int64_t i = 0; i < b->range.n; i++) {
        const an_event *e = &r->events[b->range.ev[i]];
        if (e->kind != AN_EV_CALL)
            continue;
        if (e->value >= 0)
            b->shown[e->value] = true;
        for (int k = 0; k < e->n_in && k < AN_EV_MAX_IN; k++)
            if (e->in_value[k] >= 0)
                b->shown[e->in_value[k]] = true;
    }
}

/* Past max_nodes values, the later ones (by id: program order) are not drawn. */
static void cap_values(graph_build *b, int max_nodes)
{
    b->cut_first = -1;
    for (int v = 0; v < b->r->n_values; v++) {
        if (!b->shown[v])
            continue;
        if (b->n_shown < max_nodes) {
            b->n_shown++;
            continue;
        }
        b->shown[v] = false;
        if (b->n_cut++ == 0)
            b->cut_first = v;
    }
}

static bool in_function(const an_report *r, int func, int line)
{
    const ir_unit *u = r->unit;
    if (!u || func < 0 || func >= u->n_funcs)
        return false;
    return line >= u->funcs[func]->loc.line && line <= u->funcs[func]->end.line;
}

static const an_report *sort_report; /* for cmp_site: qsort has no user pointer */

static int cmp_site(const void *a, const void *b)
{
    const an_value *x = &sort_report->values[*(const int *)a];
    const an_value *y = &sort_report->values[*(const int *)b];
    return x->line != y->line ? x->line - y->line : x->col - y->col;
}

/* The drawn value at the diagnostic's line and column, else the first on its line, -1. */
static int diag_target(const graph_build *b, const int *by_site, int n, const an_diag *d)
{
    int lo = 0, hi = n;
    while (lo < hi) { /* the first drawn value on a line >= d->line */
        int mid = lo + (hi - lo) / 2;
        if (b->r->values[by_site[mid]].line < d->line)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int k = lo; k < n && b->r->values[by_site[k]].line == d->line; k++)
        if (b->r->values[by_site[k]].col == d->col)
            return by_site[k];
    return lo < n && b->r->values[by_site[lo]].line == d->line ? by_site[lo] : -1;
}

static void match_diags(graph_build *b)
{
    int *by_site = tl_xcalloc((size_t)b->r->n_values + 1, sizeof *by_site), n = 0;
    for (int v = 0; v < b->r->n_values; v++)
        if (b->shown[v])
            by_site[n++] = v;
    sort_report = b->r;
    qsort(by_site, (size_t)n, sizeof *by_site, cmp_site);
    b->diag_value = tl_xcalloc((size_t)b->r->n_diags + 1, sizeof *b->diag_value);
    for (int d = 0; d < b->r->n_diags; d++)
        b->diag_value[d] = diag_target(b, by_site, n, &b->r->diags[d]);
    free(by_site);
}

static void mark_peak(graph_build *b)
{
    b->at_peak = tl_xcalloc((size_t)b->r->n_storages + 1, sizeof *b->at_peak);
    for (int k = 0; k < b->f->n_peak_storages; k++)
        b->at_peak[b->f->peak_storages[k]] = true;
}

/* ---- attributes, in one order ---- */

static void declare_attrs(Agraph_t *g)
{
    static const char *const graph_attrs[][2] = {
        {"label", ""},      {"labelloc", "t"},     {"labeljust", "l"}, {"fontname", "Helvetica"},
        {"fontsize", "14"}, {"rankdir", "TB"},     {"nodesep", "0.3"}, {"ranksep", "0.5"},
        {"newrank", "true"}, {"remincross", "false"}, {"rank", ""},
        {"style", ""},      {"color", ""},         {"fillcolor", ""},  {"penwidth", ""},
        {"margin", "0.2"},  {"bgcolor", "white"}};
    static const char *const node_attrs[][2] = {
        {"shape", "box"},   {"style", "rounded,filled"}, {"fillcolor", "white"},
        {"color", "#44505c"}, {"penwidth", "1"}, {"fontname", "Helvetica"},
        {"fontsize", "12"}, {"margin", "0.08,0.04"}, {"label", ""}};
    static const char *const edge_attrs[][2] = {
        {"style", "solid"}, {"color", "#44505c"}, {"penwidth", "1"}, {"label", ""},
        {"fontname", "Helvetica"}, {"fontsize", "11"}, {"fontcolor", "#44505c"},
        {"headport", ""}};
    for (size_t k = 0; k < sizeof graph_attrs / sizeof *graph_attrs; k++)
        dg_declare(g, AGRAPH, graph_attrs[k][0], graph_attrs[k][1]);
    for (size_t k = 0; k < sizeof node_attrs / sizeof *node_attrs; k++)
        dg_declare(g, AGNODE, node_attrs[k][0], node_attrs[k][1]);
    for (size_t k = 0; k < sizeof edge_attrs / sizeof *edge_attrs; k++)
        dg_declare(g, AGEDGE, edge_attrs[k][0], edge_attrs[k][1]);
}

/* ---- clusters ---- */

static void storage_label(dg_buf *h, const graph_build *b, const an_storage *s)
{
    const an_report *r = b->r;
    dg_buf_printf(h, "<B>S%d</B> · ", s->id);
    dg_buf storage = {0};
    dg_buf_storage_bytes(&storage, s);
    dg_buf_html(h, storage.s);
    dg_buf_free(&storage);
    dg_buf_printf(h, " · %s<BR/>allocated line ", mt_device_name(s->device));
    dg_buf_line(h, r, s->alloc_line);
    if (s->value >= 0 && r->values[s->value].name) {
        dg_buf_puts(h, " (");
        dg_buf_html(h, r->values[s->value].name);
        dg_buf_puts(h, ")");
    }
    if (s->free_line > 0)
    {
        dg_buf_puts(h, "<BR/>freed line ");
        dg_buf_line(h, r, s->free_line);
    }
    else if (s->discarded)
        dg_buf_puts(h, "<BR/>on a branch arm not kept");
    else
        dg_buf_puts(h, "<BR/>never freed");
    if (b->at_peak[s->id])
        dg_buf_puts(h, "<BR/><FONT COLOR=\"" C_PEAK "\"><B>live at the peak</B></FONT>");
}

static void make_cluster(graph_build *b, int s)
{
    const an_storage *st = &b->r->storages[s];
    dg_buf name = {0}, h = {0};
    dg_buf_printf(&name, "cluster_s%d", s);
    Agraph_t *c = dg_subgraph(b->g, name.s);
    storage_label(&h, b, st);
    dg_set_html(b->g, c, h.s);
    dg_set(c, "style", st->discarded ? "rounded,dashed" : "rounded,filled");
    dg_set(c, "fillcolor", b->at_peak[s] ? "#fdf0ee" : "#f1f4f8");
    dg_set(c, "color", b->at_peak[s] ? C_PEAK : "#9aa5b1");
    dg_set(c, "penwidth", b->at_peak[s] ? "2.5" : "1");
    dg_set(c, "labeljust", "r"); /* edges come in on the left: see make_edges */
    b->cluster[s] = c;
    name.len = 0; /* its tensors side by side: a storage reads as one row */
    dg_buf_printf(&name, "row_s%d", s);
    dg_set(dg_subgraph(c, name.s), "rank", "same");
    dg_buf_free(&name);
    dg_buf_free(&h);
}

static void make_clusters(graph_build *b)
{
    const an_report *r = b->r;
    bool *used = tl_xcalloc((size_t)r->n_storages + 1, sizeof *used);
    b->cluster = tl_xcalloc((size_t)r->n_storages + 1, sizeof *b->cluster);
    for (int v = 0; v < r->n_values; v++)
        if (b->shown[v] && r->values[v].executed && r->values[v].storage >= 0)
            used[r->values[v].storage] = true;
    for (int s = 0; s < r->n_storages; s++)
        if (used[s])
            make_cluster(b, s);
    free(used);
}

/* ---- nodes ---- */

static const char *severity_color(an_severity s)
{
    return s == AN_ERROR ? C_ERROR : s == AN_WARNING ? C_WARN : C_NOTE;
}

/* The most severe diagnostic on value v, -1. */
static int worst_diag(const graph_build *b, int v)
{
    int worst = -1;
    for (int d = 0; d < b->r->n_diags; d++)
        if (b->diag_value[d] == v &&
            (worst < 0 || b->r->diags[d].severity > b->r->diags[worst].severity))
            worst = d;
    return worst;
}

static void diag_rows(dg_buf *h, const graph_build *b, int v)
{
    for (int d = 0; d < b->r->n_diags; d++) {
        const an_diag *x = &b->r->diags[d];
        if (b->diag_value[d] != v)
            continue;
        dg_buf text = {0};
        dg_buf_printf(&text, "%s [%s]: %s", an_severity_name(x->severity), x->check, x->message);
        dg_buf_printf(h, "<TR><TD ALIGN=\"LEFT\" COLSPAN=\"2\"><FONT COLOR=\"%s\" "
                      "POINT-SIZE=\"11\">", severity_color(x->severity));
        dg_buf_html_wrapped(h, text.s, 44);
        dg_buf_puts(h, "</FONT></TD></TR>");
        dg_buf_free(&text);
    }
}

static void node_label(dg_buf *h, const graph_build *b, int v)
{
    const an_value *x = &b->r->values[v];
    const ir_unit *u = b->r->unit;
    dg_buf_puts(h, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">"
                   "<TR><TD ALIGN=\"LEFT\"><B>");
    dg_buf_html(h, x->name ? x->name : "(temporary)");
    dg_buf_puts(h, "</B> = ");
    dg_buf_html(h, mt_ops[x->op].name);
    dg_buf_puts(h, "</TD><TD ALIGN=\"RIGHT\"><FONT COLOR=\"#6b7785\">  line ");
    dg_buf_line(h, b->r, x->line);
    dg_buf_puts(h, "</FONT></TD></TR><TR><TD ALIGN=\"LEFT\" COLSPAN=\"2\">");
    dg_buf shape = {0};
    dg_buf_shape(&shape, b->r, x);
    dg_buf_html(h, x->executed ? shape.s : "not run");
    dg_buf_free(&shape);
    dg_buf_puts(h, "</TD></TR>");
    sx_int runs = an_value_runs(x); /* the program's count: a formula over run-time sizes */
    bool many = runs.e != 0 || runs.c > 1;
    if (x->func != b->f->func || many) {
        dg_buf_puts(h, "<TR><TD ALIGN=\"LEFT\" COLSPAN=\"2\"><FONT COLOR=\"#6b7785\">");
        if (x->func != b->f->func && u && x->func >= 0 && x->func < u->n_funcs)
            dg_buf_printf(h, "in %s() ", u->funcs[x->func]->name);
        if (many) {
            char t[224];
            dg_buf_puts(h, "ran ");
            dg_buf_html(h, an_value_runs_text(x, t, sizeof t));
            dg_buf_puts(h, ", first shown");
        }
        dg_buf_puts(h, "</FONT></TD></TR>");
    }
    diag_rows(h, b, v);
    dg_buf_puts(h, "</TABLE>");
}

static void node_style(const graph_build *b, Agnode_t *n, int v)
{
    const an_value *x = &b->r->values[v];
    int d = worst_diag(b, v);
    bool view = x->executed && x->kind == MT_KIND_VIEW;
    dg_set(n, "style", !x->executed ? "rounded,dotted" : view ? "rounded,filled,dashed"
                                                              : "rounded,filled");
    dg_set(n, "fillcolor", x->error ? "#fdecea" : view ? "#f7fbff" : "white");
    if (d >= 0) {
        dg_set(n, "color", severity_color(b->r->diags[d].severity));
        dg_set(n, "penwidth", "3");
    }
}

static void make_node(graph_build *b, int v)
{
    const an_value *x = &b->r->values[v];
    dg_buf name = {0}, h = {0};
    Agraph_t *home = b->g;
    if (x->executed && x->storage >= 0 && b->cluster[x->storage]) {
        dg_buf_printf(&name, "row_s%d", x->storage);
        home = dg_subgraph(b->cluster[x->storage], name.s);
        name.len = 0;
    }
    dg_buf_printf(&name, "v%d", v);
    Agnode_t *n = dg_node(home, name.s);
    node_label(&h, b, v);
    dg_set_html(b->g, n, h.s);
    node_style(b, n, v);
    b->node[v] = n;
    dg_buf_free(&name);
    dg_buf_free(&h);
}

/* ---- edges ---- */

static edge_kind kind_of_edge(const an_report *r, int src, int dst, int k)
{
    const an_value *d = &r->values[dst], *s = &r->values[src];
    mt_family fam = mt_ops[d->op].family;
    if (!d->executed || d->error)
        return EDGE_COMPUTE;
    if (d->kind == MT_KIND_VIEW)
        return k == 0 || d->view_of == src ? EDGE_VIEW : EDGE_COMPUTE;
    if (fam != MT_COPY && fam != MT_VIEW_OR_COPY)
        return EDGE_COMPUTE;
    if (k > 0 && d->op != MT_OP_cat)
        return EDGE_COMPUTE; /* the index operand of index / gather */
    if (s->executed && s->known && d->known && s->l.dtype != d->l.dtype)
        return EDGE_CAST;
    return EDGE_COPY;
}

static void edge_style(const graph_build *b, Agedge_t *e, int src, int dst, int k)
{
    const an_value *d = &b->r->values[dst], *s = &b->r->values[src];
    dg_buf label = {0};
    switch (kind_of_edge(b->r, src, dst, k)) {
    case EDGE_VIEW:
        dg_set(e, "style", "dashed");
        dg_set(e, "color", C_VIEW);
        break;
    case EDGE_COPY:
        dg_set(e, "style", "bold");
        dg_set(e, "penwidth", "2.5");
        if (k == 0) {
            dg_buf_puts(&label, "copy, ");
            dg_buf_bytes(&label, d->bytes_moved);
            dg_buf_puts(&label, " moved");
        }
        break;
    case EDGE_CAST:
        dg_set(e, "color", C_CAST);
        dg_set(e, "fontcolor", C_CAST);
        dg_set(e, "penwidth", "2.5");
        dg_buf_printf(&label, "cast %s → %s\n", mt_dtype_name(s->l.dtype),
                      mt_dtype_name(d->l.dtype));
        dg_buf_bytes(&label, d->bytes_moved);
        dg_buf_puts(&label, " moved");
        break;
    case EDGE_COMPUTE: break;
    }
    if (label.len)
        dg_set(e, "label", label.s);
    if (!d->executed || d->kind != MT_KIND_VIEW)
        dg_set(e, "headport", "w"); /* into a storage from its left, clear of its label */
    dg_buf_free(&label);
}

typedef struct pair_set {
    int64_t cap, n;
    int64_t *keys; /* src * n_values + dst + 1; 0 = empty */
} pair_set;

static bool pair_insert(pair_set *p, int64_t key)
{
    if (2 * (p->n + 1) > p->cap) {
        pair_set big = {.cap = p->cap ? 2 * p->cap : 64};
        big.keys = tl_xcalloc((size_t)big.cap, sizeof *big.keys);
        for (int64_t k = 0; k < p->cap; k++)
            if (p->keys[k])
                pair_insert(&big, p->keys[k] - 1);
        free(p->keys);
        *p = big;
    }
    uint64_t h = (uint64_t)(key + 1) * 0x9E3779B97F4A7C15ull;
    for (int64_t k = (int64_t)(h & (uint64_t)(p->cap - 1));; k = (k + 1) & (p->cap - 1)) {
        if (p->keys[k] == key + 1)
            return false;
        if (!p->keys[k]) {
            p->keys[k] = key + 1;
            p->n++;
            return true;
        }
    }
}

static void make_edges(graph_build *b)
{
    const an_report *r = b->r;
    pair_set seen = {0};
    for (int64_t i = 0; i < b->range.n; i++) {
        const an_event *e = &r->events[b->range.ev[i]];
        if (e->kind != AN_EV_CALL || e->value < 0)
            continue;
        for (int k = 0; k < e->n_in && k < AN_EV_MAX_IN; k++) {
            int src = e->in_value[k];
            if (src < 0 || !b->shown[src] || !b->shown[e->value] ||
                !pair_insert(&seen, (int64_t)src * r->n_values + e->value))
                continue;
            Agedge_t *ed = agedge(b->g, b->node[src], b->node[e->value], NULL, 1);
            edge_style(b, ed, src, e->value, k);
        }
    }
    free(seen.keys);
}

/* ---- the title ---- */

static void title_peak(dg_buf *h, const graph_build *b)
{
    const an_func_report *f = b->f;
    const an_report *r = b->r;
    dg_buf_puts(h, "peak ");
    dg_buf_total(h, f, 'p', true);
    if (f->symbolic && f->n_peak_cands > 1) { /* where depends on the sizes */
        dg_buf_puts(h, "<BR ALIGN=\"LEFT\"/>");
        return;
    }
    dg_buf_puts(h, " after line ");
    dg_buf_line(h, r, f->peak_line);
    dg_buf_puts(h, "; live there: ");
    for (int k = 0; k < f->n_peak_storages; k++) {
        const an_storage *s = &r->storages[f->peak_storages[k]];
        dg_buf_printf(h, "%sS%d", k ? ", " : "", s->id);
        if (s->value >= 0 && r->values[s->value].name) {
            dg_buf_puts(h, " (");
            dg_buf_html(h, r->values[s->value].name);
            dg_buf_puts(h, ")");
        }
    }
    if (f->n_peak_storages == 0)
        dg_buf_puts(h, "nothing");
    dg_buf_puts(h, "<BR ALIGN=\"LEFT\"/>");
}

static void title_unmatched(dg_buf *h, const graph_build *b)
{
    for (int d = 0; d < b->r->n_diags; d++) {
        const an_diag *x = &b->r->diags[d];
        if (b->diag_value[d] >= 0 || !in_function(b->r, b->f->func, x->line))
            continue;
        dg_buf_printf(h, "<FONT COLOR=\"%s\">line ", severity_color(x->severity));
        dg_buf_line(h, b->r, x->line);
        dg_buf_printf(h, ": %s [", an_severity_name(x->severity));
        dg_buf_html(h, x->check);
        dg_buf_puts(h, "]: ");
        dg_buf_html(h, x->message);
        dg_buf_puts(h, "</FONT><BR ALIGN=\"LEFT\"/>");
    }
}

static void make_title(graph_build *b)
{
    dg_buf h = {0};
    const an_func_report *f = b->f;
    dg_buf_printf(&h, "<FONT POINT-SIZE=\"18\"><B>Dataflow of %s()</B></FONT>  ", f->name);
    const ir_unit *u = b->r->unit; /* the function's file (a program's first file is not) */
    dg_buf_html(&h, u ? ir_unit_path_at(u, u->funcs[f->func]->loc.line) : "");
    dg_buf_puts(&h, "<BR ALIGN=\"LEFT\"/>");
    title_peak(&h, b);
    if (f->is_root) {
        dg_buf_puts(&h, "live at the end ");
        dg_buf_total(&h, f, 'e', true);
        dg_buf_puts(&h, "; ");
    }
    dg_buf_puts(&h, "bytes moved ");
    dg_buf_total(&h, f, 'm', true);
    dg_buf_puts(&h, " in ");
    dg_buf_total(&h, f, 'c', true);
    dg_buf_puts(&h, " calls<BR ALIGN=\"LEFT\"/>");
    dg_buf_puts(&h, "<FONT POINT-SIZE=\"11\" COLOR=\"#44505c\">boxes: storages (red: live at the "
                    "peak) · edges: <FONT COLOR=\"" C_VIEW "\">dashed = view (no bytes)</FONT> · "
                    "bold = copy (bytes moved) · <FONT COLOR=\"" C_CAST "\">orange = cast</FONT> "
                    "· thin = compute</FONT><BR ALIGN=\"LEFT\"/>");
    if (b->n_cut) {
        dg_buf_printf(&h, "<FONT COLOR=\"" C_PEAK "\">only the first %d tensors are drawn: %d "
                      "more, from line ", b->n_shown, b->n_cut);
        dg_buf_line(&h, b->r, b->r->values[b->cut_first].line);
        dg_buf_puts(&h, " on, are not (--max-nodes)</FONT><BR ALIGN=\"LEFT\"/>");
    }
    title_unmatched(&h, b);
    dg_set_html(b->g, b->g, h.s);
    dg_buf_free(&h);
}

static void graph_free(graph_build *b)
{
    dg_range_free(&b->range);
    free(b->shown);
    free(b->node);
    free(b->cluster);
    free(b->at_peak);
    free(b->diag_value);
}

void dg_graph_options_default(dg_graph_options *o)
{
    *o = (dg_graph_options){.max_nodes = 100};
}

dg_status dg_graph_render(dg_ctx *c, const an_report *r, const an_func_report *f,
                          const dg_graph_options *o, dg_format fmt, char **data, size_t *len)
{
    graph_build b = {.r = r, .f = f};
    dg_range_init_all(&b.range, r, f);
    mark_values(&b);
    cap_values(&b, o->max_nodes);
    mark_peak(&b);
    match_diags(&b);
    b.g = dg_graph_open("dataflow");
    declare_attrs(b.g);
    make_title(&b);
    make_clusters(&b);
    b.node = tl_xcalloc((size_t)r->n_values + 1, sizeof *b.node);
    for (int v = 0; v < r->n_values; v++)
        if (b.shown[v])
            make_node(&b, v);
    make_edges(&b);
    dg_status st = dg_render_graph(c, b.g, fmt, data, len);
    agclose(b.g);
    graph_free(&b);
    return st;
}
