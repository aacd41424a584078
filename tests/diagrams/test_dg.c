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

typedef struct bindings {
    int n;
    char names[16][64];
    int64_t values[16][16]; /* [group][name] */
    int n_groups;
    bool bounds;            /* the file expects bounds: its totals are not exact */
} bindings;

/* The "// bind:" names and "// values:" groups of a tests/symbolic program. */
static void read_bindings(const char *path, bindings *b)
{
    char line[1024];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    memset(b, 0, sizeof *b);
    while (fgets(line, sizeof line, f)) {
        char *p, *tok, *save;
        b->bounds |= strncmp(line, "// expect-bounds:", 17) == 0;
        if (strncmp(line, "// bind:", 8) == 0)
            for (tok = strtok_r(line + 8, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
                snprintf(b->names[b->n++], sizeof b->names[0], "%s", tok);
        if (strncmp(line, "// values:", 10) != 0)
            continue;
        int k = 0;
        for (p = line + 10; *p; p++) {
            if (*p == '|') {
                b->n_groups++;
                k = 0;
            } else if (*p >= '0' && *p <= '9') {
                b->values[b->n_groups][k++] = strtoll(p, &p, 10);
                p--;
            }
        }
        b->n_groups++;
    }
    fclose(f);
}

/* sample analysed with the values of group bound (none when group < 0). */
static analysed analyse_bound(const char *sample, const bindings *b, int group)
{
    char path[4096];
    const char *src = getenv("TL_SOURCE_DIR");
    const char *names[16];
    an_options o;
    analysed a = {0};
    an_options_default(&o);
    for (int k = 0; k < b->n; k++)
        names[k] = b->names[k];
    o.n_binds = group >= 0 ? b->n : 0;
    o.bind_names = names;
    o.bind_values = b->values[group >= 0 ? group : 0];
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", sample);
    assert_int_equal(fe_parse_file(path, 0, NULL, &a.unit), FE_OK);
    assert_int_equal(a.unit->n_errors, 0);
    a.report = an_analyze(a.unit, &o);
    a.main = dg_pick_function(a.report, NULL);
    assert_non_null(a.main);
    return a;
}

/* Each column's live total, a formula, evaluated at the group's values. */
static void eval_columns(const dg_timeline *t, const bindings *b, int group, int64_t *want)
{
    int n = sx_n_symbols();
    int64_t *values = calloc((size_t)n + 1, sizeof *values);
    bool *has = calloc((size_t)n + 1, sizeof *has);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < b->n; k++)
            if (strcmp(sx_symbol_name(i), b->names[k]) == 0) {
                values[i] = b->values[group][k];
                has[i] = true;
            }
    for (int c = 0; c < t->n_cols; c++) {
        sx_int x = dg_timeline_live(t, c);
        if (x.e == SX_TOO_BIG || !sx_eval(x, values, has, &want[c]))
            fail_msg("column %d: its live total cannot be evaluated", c);
    }
    free(values);
    free(has);
}

/* A chart over formulas, its totals evaluated at the values a program's
 * test gives, is drawn from the run of the program with those values bound:
 * its columns, in order, are calls of that run (the same call site, the
 * same live total: a loop summarised over run-time sizes is drawn as the
 * iteration its formulas are taken at, the bound chart may draw another),
 * and the largest of its peak columns is the bound peak. */
static void check_formulas(const char *sample)
{
    char path[4096];
    const char *src = getenv("TL_SOURCE_DIR");
    bindings b;
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", sample);
    read_bindings(path, &b);
    assert_true(b.n > 0 && b.n_groups > 0);
    for (int g = 0; g < b.n_groups; g++) {
        analysed a = analyse_bound(sample, &b, -1);
        dg_timeline t;
        dg_timeline_build(&t, a.report, a.main, false);
        assert_true(t.symbolic);
        int n_cols = t.n_cols;
        int64_t *want = calloc((size_t)n_cols + 1, sizeof *want);
        int (*key)[3] = calloc((size_t)n_cols + 1, sizeof *key);
        bool *peak = calloc((size_t)n_cols + 1, sizeof *peak);
        eval_columns(&t, &b, g, want);
        for (int c = 0; c < n_cols; c++) {
            const an_event *e = &t.r->events[t.cols[c].ev];
            key[c][0] = e->line, key[c][1] = e->col, key[c][2] = e->op;
            peak[c] = t.peak_cols[c];
        }
        dg_timeline_free(&t);
        analysed_free(&a);
        analysed bound = analyse_bound(sample, &b, g);
        dg_timeline_build(&t, bound.report, bound.main, true);
        assert_false(t.symbolic);
        int64_t peak_seen = -1;
        for (int c = 0, at = 0; c < n_cols; c++, at++) { /* the first call that fits */
            const an_event *e = NULL;
            for (; at < t.n_cols; at++) {
                e = &t.r->events[t.cols[at].ev];
                if (e->line == key[c][0] && e->col == key[c][1] && (int)e->op == key[c][2] &&
                    e->live_bytes == want[c])
                    break;
            }
            if (at == t.n_cols)
                fail_msg("%s, values %d: column %d (line %d): no later call of the bound run "
                         "leaves %lld B live after it", sample, g, c, key[c][0], (long long)want[c]);
            if (peak[c] && want[c] > peak_seen)
                peak_seen = want[c];
        }
        if (!b.bounds)
            assert_int_equal(peak_seen, bound.main->peak_live_bytes);
        dg_timeline_free(&t);
        analysed_free(&bound);
        free(want);
        free(key);
        free(peak);
    }
}

static void test_formula_totals(void **state)
{
    (void)state;
    static const char *const programs[] = {
        "tests/symbolic/argv_sizes.c",   "tests/symbolic/clamp.c",
        "tests/symbolic/copied_array.c", "tests/symbolic/exported.c",
        "tests/symbolic/fread_config.c", "tests/symbolic/getenv_width.c",
        "tests/symbolic/growing_loop.c", "tests/symbolic/kept_list.c",
        "tests/symbolic/kv_growth.c",    "tests/symbolic/layer_arrays.c",
        "tests/symbolic/layer_loops.c",  "tests/symbolic/reverse_release.c",
        "tests/diagrams/formulas.c",     "samples/checkpoint/decoder_ckpt.c",
        "samples/checkpoint/decoder_layers.c",
    };
    for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++)
        check_formulas(programs[k]);
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
        cmocka_unit_test(test_formula_totals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
