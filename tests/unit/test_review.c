/*
 * test_review.c: the pieces code review rests on, apart from the command:
 * the call text a diagnostic is paired on (report/rp_locate.c), the
 * pairing of two reports (report/rp_compare.c) and budget byte counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rp_compare.h"
#include "rp_report.h"
#include "check.h"

static void expect_call(const char *src, int line, int col, const char *want)
{
    rp_source *s = rp_source_of(src, strlen(src));
    char *got = rp_source_call_text(s, line, col);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    rp_source_free(s);
}

static void call_text_normalised(void **state)
{
    (void)state;
    const char *a = "    y = tl_reshape( p,\n        TL_SHAPE(4,  8192) );\n";
    expect_call(a, 1, 9, "tl_reshape(p, TL_SHAPE(4, 8192))");
    const char *b = "x = tl_to(h, /* wide ) */ TL_F32); // done (\n";
    expect_call(b, 1, 5, "tl_to(h, TL_F32)");
    const char *c = "f(\"a ) b\", ')', g(1, (2)))  + 3;\n";
    expect_call(c, 1, 1, "f(\"a ) b\", ')', g(1, (2)))");
    expect_call("  }\nint main(void)\n", 1, 3, "}");
    expect_call("  return x ;\n", 1, 3, "return x");
    rp_source *s = rp_source_of("a\n", 2);
    assert_null(rp_source_call_text(s, 5, 1));
    assert_null(rp_source_call_text(s, 1, 9));
    assert_null(rp_source_call_text(NULL, 1, 1));
    rp_source_free(s);
}

static void call_text_long_is_cut(void **state)
{
    (void)state;
    char src[1200] = "f(";
    for (int k = 0; k < 300; k++)
        strcat(src, "a,");
    strcat(src, "b);\n");
    rp_source *s = rp_source_of(src, strlen(src));
    char *got = rp_source_call_text(s, 1, 1);
    assert_int_equal(strlen(got), 240);
    assert_string_equal(got + 237, "...");
    free(got);
    rp_source_free(s);
}

static json_t *report(const char *text)
{
    json_error_t e;
    json_t *r = json_loads(text, 0, &e);
    assert_non_null(r);
    return r;
}

#define FN(name, ops) "{\"name\":\"" name "\",\"file\":\"a.c\",\"values\":[" ops "],\"storages\":[]," \
                      "\"peak_live_bytes\":0,\"moved_bytes\":0}"
#define VAL(op, var) "{\"op\":\"" op "\",\"name\":\"" var "\"}"
#define DIAG(check, fn, call) "{\"file\":\"a.c\",\"line\":1,\"check\":\"" check "\",\"function\":\"" \
                              fn "\",\"call\":\"" call "\"}"

static void compare_pairs_functions_and_diags(void **state)
{
    (void)state;
    json_t *base = report("{\"schema\":1,\"functions\":[" FN("prep", VAL("randn", "t") "," VAL("t", "p"))
                          "," FN("gone", VAL("zeros", "g")) "," FN("main", VAL("randn", "x")) "],"
                          "\"diagnostics\":[" DIAG("hidden-copy", "prep", "tl_reshape(p)") ","
                          DIAG("hidden-copy", "prep", "tl_reshape(p)") ","
                          DIAG("upcast", "main", "tl_to(x, TL_F32)") "]}");
    json_t *head = report("{\"schema\":1,\"functions\":[" FN("main", VAL("randn", "x")) ","
                          FN("load", VAL("randn", "t") "," VAL("t", "p")) "," FN("fresh", VAL("ones", "o"))
                          "],\"diagnostics\":[" DIAG("hidden-copy", "load", "tl_reshape(p)") ","
                          DIAG("upcast", "main", "tl_to(x,TL_F32)") ","
                          DIAG("hidden-copy", "load", "tl_reshape(p)") ","
                          DIAG("hidden-copy", "load", "tl_reshape(p)") "]}");
    rp_comparison *c = rp_compare(base, head, "./a.c");
    assert_int_equal(c->n_pairs, 4);
    assert_int_equal(c->pairs[0].change, RP_FN_SAME);
    assert_int_equal(c->pairs[1].change, RP_FN_RENAMED);
    assert_string_equal(rp_json_str(c->pairs[1].base, "name"), "prep");
    assert_int_equal(c->pairs[2].change, RP_FN_ADDED);
    assert_int_equal(c->pairs[3].change, RP_FN_REMOVED);
    assert_string_equal(rp_compare_base_name(c, "load"), "prep");
    /* two of the three identical copies pair, in order; the upcast's text differs */
    assert_int_equal(c->head_match[0], 0);
    assert_int_equal(c->head_match[1], -1);
    assert_int_equal(c->head_match[2], 1);
    assert_int_equal(c->head_match[3], -1);
    assert_false(c->base_matched[2]);
    rp_comparison_free(c);
    json_decref(base);
    json_decref(head);
}

static void report_names_file(void **state)
{
    (void)state;
    json_t *r = report("{\"schema\":1,\"functions\":[" FN("main", "") "],\"diagnostics\":[]}");
    assert_true(rp_report_names_file(r, "a.c"));
    assert_true(rp_report_names_file(r, "./a.c"));
    assert_true(rp_report_names_file(r, "/src/repo/a.c"));
    assert_false(rp_report_names_file(r, "/src/repo/ba.c"));
    assert_false(rp_report_names_file(r, "b.c"));
    json_decref(r);
}

static void budget_bytes(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_true(ck_parse_bytes("512MiB", &v));
    assert_int_equal(v, INT64_C(512) << 20);
    assert_true(ck_parse_bytes("10 MiB", &v));
    assert_int_equal(v, INT64_C(10) << 20);
    assert_true(ck_parse_bytes("3G", &v));
    assert_int_equal(v, INT64_C(3) << 30);
    assert_true(ck_parse_bytes("4096", &v));
    assert_int_equal(v, 4096);
    assert_false(ck_parse_bytes("5 MB", &v));
    assert_false(ck_parse_bytes("-1", &v));
    assert_false(ck_parse_bytes("MiB", &v));
    assert_false(ck_parse_bytes("99999999999GiB", &v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(call_text_normalised),
        cmocka_unit_test(call_text_long_is_cut),
        cmocka_unit_test(compare_pairs_functions_and_diags),
        cmocka_unit_test(report_names_file),
        cmocka_unit_test(budget_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
