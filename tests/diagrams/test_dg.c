/*
 * test_dg.c: the diagrams' model (diagrams/dg_*.c) on hand-made event logs
 * and on the worksheet's Block 1.
 *
 * A hand-made report is a log of calls and releases: call sites are values
 * (value id = line), a call may allocate a storage, a release frees one.
 * The tests check what the charts are drawn from: which calls become
 * columns, which runs are grouped and how often they repeat, which
 * repetition is drawn, the peak, the rows and their cells, and the views
 * that fit the model to a width.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dg_internal.h"
#include "frontend.h"
#include "../lib/analysed.h"

#define MAX_SITES 64
#define KiB INT64_C(1024)
#define MiB (INT64_C(1) << 20)

/* ---- a hand-made report ---- */

typedef struct fake {
    an_report r;
    an_func_report f;
    int64_t live;
    int64_t cap_events;
    int cap_storages;
} fake;

static void fake_init(fake *k)
{
    memset(k, 0, sizeof *k);
    k->r.n_values = MAX_SITES;
    k->r.values = calloc(MAX_SITES, sizeof *k->r.values);
    for (int v = 0; v < MAX_SITES; v++)
        k->r.values[v] = (an_value){.line = v, .col = 5, .op = MT_OP_relu, .executed = true,
                                    .storage = -1, .view_of = -1};
    k->f = (an_func_report){.name = "main", .is_root = true, .executed = true};
    k->r.funcs = &k->f;
    k->r.n_funcs = 1;
}

static void fake_free(fake *k)
{
    free(k->r.values);
    free(k->r.events);
    free(k->r.storages);
}

static an_event *push(fake *k, an_event_kind kind, int line)
{
    if (k->r.n_events == k->cap_events) {
        k->cap_events = k->cap_events ? 2 * k->cap_events : 64;
        k->r.events = realloc(k->r.events, sizeof *k->r.events * (size_t)k->cap_events);
    }
    an_event *e = &k->r.events[k->r.n_events++];
    *e = (an_event){.kind = kind, .line = line, .col = 5, .op = MT_OP_relu, .value = -1,
                    .storage = -1, .handle_value = -1, .var = -1};
    for (int j = 0; j < AN_EV_MAX_IN; j++)
        e->in_value[j] = e->in_storage[j] = -1;
    return e;
}

/* A call at line that allocates nbytes (0: allocates nothing); its storage id. */
static int call(fake *k, int line, int64_t nbytes)
{
    int s = -1;
    if (nbytes > 0) {
        if (k->r.n_storages == k->cap_storages) {
            k->cap_storages = k->cap_storages ? 2 * k->cap_storages : 16;
            k->r.storages = realloc(k->r.storages, sizeof *k->r.storages * (size_t)k->cap_storages);
        }
        s = k->r.n_storages++;
        k->r.storages[s] = (an_storage){.id = s, .nbytes = nbytes, .value = line,
                                        .alloc_line = line, .alloc_event = k->r.n_events,
                                        .free_event = -1, .retire_event = -1, .free_func = -1};
        if (k->r.values[line].storage < 0)
            k->r.values[line].storage = s;
        k->live += nbytes;
    }
    an_event *e = push(k, AN_EV_CALL, line);
    e->value = line;
    e->storage = s;
    e->live_bytes = k->live;
    k->f.n_calls++;
    return s;
}

static void release(fake *k, int line, int s)
{
    k->r.storages[s].free_event = k->r.n_events;
    k->r.storages[s].free_line = line;
    k->live -= k->r.storages[s].nbytes;
    an_event *e = push(k, AN_EV_RELEASE, line);
    e->storage = s;
    e->freed = true;
    e->live_bytes = k->live;
}

static int col_line(const dg_timeline *t, int c)
{
    return t->r->events[t->cols[c].ev].line;
}

/* ---- formats and words ---- */

static void test_formats(void **state)
{
    (void)state;
    dg_format f;
    assert_true(dg_format_parse("svg", &f) && f == DG_FORMAT_SVG);
    assert_true(dg_format_parse("PNG", &f) && f == DG_FORMAT_PNG);
    assert_true(dg_format_parse("gv", &f) && f == DG_FORMAT_DOT);
    assert_false(dg_format_parse("gif", &f));
    assert_true(dg_format_of_path("out/graph.pdf", &f) && f == DG_FORMAT_PDF);
    assert_true(dg_format_of_path("a.b/graph.dot", &f) && f == DG_FORMAT_DOT);
    assert_false(dg_format_of_path("a.svg/graph", &f));
    assert_false(dg_format_of_path("graph.", &f));
    assert_false(dg_format_of_path("graph.jpeg", &f));
    assert_string_equal(dg_format_name(DG_FORMAT_SVG), "svg");
}

static void check_short(int64_t bytes, const char *want)
{
    dg_buf b = {0};
    dg_buf_bytes_short(&b, bytes);
    assert_string_equal(b.s, want);
    dg_buf_free(&b);
}

static void test_bytes_short(void **state)
{
    (void)state;
    check_short(0, "0B");
    check_short(96, "96B");
    check_short(1536, "1.5K");
    check_short(640 * MiB, "640M");
    check_short(1536 * MiB, "1.5G");
    check_short(-1, "?");
}

static void test_html_escaped(void **state)
{
    (void)state;
    dg_buf b = {0};
    dg_buf_html(&b, "a<b & \"c\">");
    assert_string_equal(b.s, "a&lt;b &amp; &quot;c&quot;&gt;");
    b.len = 0;
    dg_buf_html_wrapped(&b, "one two three", 7);
    assert_string_equal(b.s, "one two<BR ALIGN=\"LEFT\"/>three<BR ALIGN=\"LEFT\"/>");
    dg_buf_free(&b);
}

/* ---- columns and repeated runs ---- */

/* line 1, then 5 x (lines 2, 3 and a release of line 2's storage), then line 4 */
static void loop_log(fake *k)
{
    fake_init(k);
    call(k, 1, 100);
    for (int i = 0; i < 5; i++) {
        int s = call(k, 2, 10);
        call(k, 3, 0);
        release(k, 3, s);
    }
    call(k, 4, 0);
}

static void test_loop_grouped(void **state)
{
    (void)state;
    fake k;
    dg_timeline t;
    loop_log(&k);
    dg_timeline_build(&t, &k.r, &k.f, false);
    assert_int_equal(t.n_calls, 12);
    assert_int_equal(t.n_cols, 4);
    assert_int_equal(col_line(&t, 0), 1);
    assert_int_equal(col_line(&t, 1), 2);
    assert_int_equal(col_line(&t, 3), 4);
    assert_int_equal(t.n_spans, 1);
    assert_int_equal(t.spans[0].col_lo, 1);
    assert_int_equal(t.spans[0].col_hi, 3);
    assert_int_equal(t.spans[0].n_iter, 5);
    assert_int_equal(t.cols[1].n_calls, 5);
    /* rows: the storage of line 1, and one row for line 2's five storages */
    assert_int_equal(t.n_rows, 2);
    assert_int_equal(t.rows[1].n_members, 5);
    assert_int_equal(t.rows[1].free_count, 5);
    dg_timeline_free(&t);
    fake_free(&k);
}

static void test_loop_expanded(void **state)
{
    (void)state;
    fake k;
    dg_timeline t;
    loop_log(&k);
    dg_timeline_build(&t, &k.r, &k.f, true);
    assert_int_equal(t.n_cols, 12);
    assert_int_equal(t.n_spans, 0);
    assert_int_equal(t.n_rows, 6);
    dg_timeline_free(&t);
    fake_free(&k);
}

static void test_nested_loops(void **state)
{
    (void)state;
    fake k;
    dg_timeline t;
    fake_init(&k);
    for (int i = 0; i < 4; i++) {
        call(&k, 1, 0);
        for (int j = 0; j < 3; j++)
            call(&k, 2, 0);
    }
    dg_timeline_build(&t, &k.r, &k.f, false);
    assert_int_equal(t.n_cols, 2);
    assert_int_equal(t.n_spans, 2);
    assert_int_equal(t.spans[0].n_iter, 4);
    assert_int_equal(t.spans[0].depth, 0);
    assert_int_equal(t.spans[1].n_iter, 3);
    assert_int_equal(t.spans[1].depth, 1);
    assert_int_equal(t.cols[1].n_calls, 12);
    dg_timeline_free(&t);
    fake_free(&k);
}

/* A leak in a loop: each repetition is heavier, so the last one is drawn
 * and holds the peak; the leaked storages share one row. */
static void test_heaviest_drawn(void **state)
{
    (void)state;
    fake k;
    dg_timeline t;
    int64_t n_live;
    fake_init(&k);
    for (int i = 0; i < 6; i++)
        call(&k, 7, KiB);
    dg_timeline_build(&t, &k.r, &k.f, false);
    assert_int_equal(t.n_cols, 1);
    assert_int_equal(t.spans[0].shown, 5);
    assert_int_equal(t.peak_col, 0);
    assert_int_equal(t.peak_bytes, 6 * KiB);
    assert_int_equal(t.n_rows, 1);
    assert_int_equal(dg_timeline_cell(&t, 0, t.cols[0].ev, &n_live), 6 * KiB);
    assert_int_equal(n_live, 6);
    dg_timeline_free(&t);
    fake_free(&k);
}

/* 300 calls (drawn expanded, one column each); call 200's storage is the
 * only one not released, so the peak is right after it, at call 201. */
static void long_log(fake *k)
{
    fake_init(k);
    for (int i = 0; i < 300; i++) {
        int s = call(k, 1 + i % 60, i == 200 ? 64 * KiB : KiB);
        if (i != 200)
            release(k, 1 + i % 60, s);
    }
}

static void test_view_elide(void **state)
{
    (void)state;
    fake k;
    dg_timeline t;
    dg_view v;
    long_log(&k);
    dg_timeline_build(&t, &k.r, &k.f, true);
    assert_int_equal(t.n_cols, 300);
    assert_int_equal(t.peak_col, 201);
    dg_view_elide(&v, &t, 32, 10);
    assert_true(v.n_cols <= 32);
    assert_true(v.n_hidden_cols > 0);
    assert_true(v.peak_vcol >= 0);
    assert_int_equal(v.cols[v.peak_vcol].col, 201);
    assert_int_equal(v.n_rows, 10);
    assert_int_equal(v.rows[9], -1); /* the merged rest */
    assert_int_equal(v.n_hidden_rows, t.n_rows - 9);
    dg_view_free(&v);
    dg_view_bucket(&v, &t, 50, 500);
    assert_true(v.n_cols <= 50);
    assert_int_equal(v.cols[v.peak_vcol].col, 201);
    assert_int_equal(v.n_hidden_rows, 0);
    dg_view_free(&v);
    dg_timeline_free(&t);
    fake_free(&k);
}

/* ---- the worksheet's Block 1, through the analyzer ---- */

static void test_block1_lifetimes(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/block1.c");
    dg_timeline t;
    int64_t n_live;
    dg_timeline_build(&t, a.report, a.main, false);
    assert_int_equal(t.n_cols, 7);
    assert_int_equal(t.n_rows, 4);
    assert_int_equal(t.peak_col, 6);
    assert_int_equal(t.peak_bytes, 640 * MiB);
    /* d's storage (256 MiB) is live from line 27 (column 4) on; e keeps it alive */
    assert_int_equal(dg_timeline_cell(&t, 2, t.cols[3].ev, &n_live), 0);
    assert_int_equal(dg_timeline_cell(&t, 2, t.cols[4].ev, &n_live), 256 * MiB);
    assert_string_equal(dg_timeline_made_here(&t, 2, t.cols[5].ev), "e");
    for (int k = 0; k < 4; k++)
        assert_true(t.rows[k].at_peak);
    dg_buf b = {0};
    dg_buf_row_names(&b, &t, 2, true);
    assert_string_equal(b.s, "d; views: e");
    dg_buf_free(&b);
    dg_timeline_free(&t);
    analysed_free(&a);
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_block1_graph_dot(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/block1.c");
    dg_ctx *c = dg_ctx_new();
    char *dot = NULL;
    size_t len = 0;
    dg_graph_options o;
    dg_graph_options_default(&o);
    assert_int_equal(dg_graph_render(c, a.report, a.main, &o, DG_FORMAT_DOT, &dot, &len), DG_OK);
    assert_int_equal(count(dot, "subgraph cluster_s"), 4);
    assert_int_equal(count(dot, "label=<<TABLE"), 7);      /* one node per value */
    assert_int_equal(count(dot, "style=dashed"), 3);       /* a, c, e: views */
    assert_int_equal(count(dot, "style=bold"), 2);         /* b, f: copies */
    assert_int_equal(count(dot, "cast f16 → f32"), 1);     /* d */
    assert_int_equal(count(dot, "<B>live at the peak</B>"), 4);
    assert_non_null(strstr(dot, "peak 640 MiB after line 29"));
    free(dot);
    o.max_nodes = 3; /* x, a, b drawn; c, d, e, f not, and the title says so */
    assert_int_equal(dg_graph_render(c, a.report, a.main, &o, DG_FORMAT_DOT, &dot, &len), DG_OK);
    assert_int_equal(count(dot, "label=<<TABLE"), 3);
    assert_non_null(strstr(dot, "only the first 3 tensors are drawn: 4 more, from line 26 on"));
    free(dot);
    dg_ctx_free(c);
    analysed_free(&a);
}

/* ---- sizes that are formulas ---- */

/* The log the chart is drawn from: each call's live bytes as a formula
 * (argv_sizes: the peak's at line 24), and a loop summarised over the
 * number of steps, whose probe iteration is taken at its last counter
 * value, so that its calls reach the peak candidates exactly. */
static void test_log_formulas(void **state)
{
    (void)state;
    char text[256];
    analysed a = analyse("tests/symbolic/argv_sizes.c");
    bool seen = false;
    for (int64_t i = a.main->first_event; i < a.main->end_event; i++) {
        const an_event *e = &a.report->events[i];
        if (e->kind == AN_EV_CALL && e->line == 24) {
            assert_true(sx_same(e->live_sx, a.main->peak_sx));
            seen = true;
        }
    }
    assert_true(seen);
    assert_int_equal(a.report->n_summed_loops, 0);
    analysed_free(&a);
    a = analyse("tests/symbolic/kv_growth.c");
    assert_int_equal(a.report->n_summed_loops, 1);
    const an_summed_loop *l = &a.report->summed_loops[0];
    assert_int_equal(l->line, 36);
    assert_string_equal(l->counter, "t");
    assert_string_equal(sx_str(l->trips, text, sizeof text), "steps");
    assert_string_equal(sx_str(l->probe_at, text, sizeof text), "steps - 1");
    assert_true(l->first_event < l->probe_event && l->probe_event < l->end_event);
    int reached = 0;
    for (int64_t i = l->probe_event; i < l->end_event; i++)
        for (int k = 0; k < a.main->n_peak_cands; k++)
            reached += a.report->events[i].kind == AN_EV_CALL &&
                       sx_same(a.report->events[i].live_sx, a.main->peak_cand[k]);
    assert_int_equal(a.main->n_peak_cands, 2);
    assert_true(reached >= 2);
    /* the cache of iteration 1 is held by the state at the probe's counter from then on */
    for (int s = 0; s < a.report->n_storages; s++)
        if (a.report->storages[s].retire_event >= 0)
            assert_int_equal(a.report->storages[s].retire_event, l->probe_event);
    analysed_free(&a);
}

static void test_unknown_function(void **state)
{
    (void)state;
    analysed a = analyse("samples/worksheet/block1.c");
    assert_null(dg_pick_function(a.report, "nosuch"));
    assert_int_equal(dg_pick_status(a.report, "nosuch"), DG_NO_FUNCTION);
    assert_int_equal(dg_pick_status(a.report, NULL), DG_OK);
    analysed_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats),          cmocka_unit_test(test_bytes_short),
        cmocka_unit_test(test_html_escaped),     cmocka_unit_test(test_loop_grouped),
        cmocka_unit_test(test_loop_expanded),    cmocka_unit_test(test_nested_loops),
        cmocka_unit_test(test_heaviest_drawn),   cmocka_unit_test(test_view_elide),
        cmocka_unit_test(test_block1_lifetimes), cmocka_unit_test(test_block1_graph_dot),
        cmocka_unit_test(test_unknown_function), cmocka_unit_test(test_log_formulas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
