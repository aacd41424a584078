/*
 * test_json_emit.c: the report's JSON writer (report/rp_json_emit.c).  Its
 * text must be what Jansson printed before the writer replaced it: each
 * case is written twice, to text and to a Jansson tree, and the text must
 * equal the tree dumped with JSON_COMPACT (and, for the cases spelled out
 * here, the expected bytes).  Strings from the user's files must come out
 * as the report's former repair made them (ref_user_str below, the code
 * the writer replaced), and rp_json_utf8_valid must agree with
 * json_string on what is UTF-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "rp_json_emit.h"

/* Writes one document to both sinks; the text (allocated), checked to be
 * the tree's compact dump. */
static char *both(void (*write)(rp_jw *w, const void *arg), const void *arg)
{
    rp_textbuf text = {0};
    rp_jw w = rp_jw_text(&text, NULL);
    write(&w, arg);
    rp_tb_mem(&text, "", 1);
    rp_jw t = rp_jw_tree();
    write(&t, arg);
    json_t *tree = rp_jw_tree_take(&t);
    assert_non_null(tree);
    char *dumped = json_dumps(tree, JSON_COMPACT | JSON_PRESERVE_ORDER);
    assert_non_null(dumped);
    assert_string_equal(text.buf, dumped);
    free(dumped);
    json_decref(tree);
    return text.buf;
}

/* ["s"] through rp_jw_str. */
static void write_str(rp_jw *w, const void *s)
{
    rp_jw_array(w, NULL);
    rp_jw_str(w, NULL, s);
    rp_jw_end(w);
}

static void expect_str(const char *s, const char *want)
{
    char *got = both(write_str, s);
    assert_string_equal(got, want);
    free(got);
}

static void strings_escaped(void **state)
{
    (void)state;
    expect_str("plain text", "[\"plain text\"]");
    expect_str("", "[\"\"]");
    expect_str("q\"uote back\\slash /slash", "[\"q\\\"uote back\\\\slash /slash\"]");
    expect_str("\b\f\n\r\t", "[\"\\b\\f\\n\\r\\t\"]");
    expect_str("\x01\x0b\x1f\x7f", "[\"\\u0001\\u000B\\u001F\x7f\"]");
    expect_str("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
               "[\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"]");
    char *null = both(write_str, NULL);
    assert_string_equal(null, "[null]");
    free(null);
    /* every control character, and every other ASCII byte as it is */
    char all[128];
    for (int c = 1; c < 128; c++)
        all[c - 1] = (char)c;
    all[127] = '\0';
    free(both(write_str, all));
}

static void strings_repaired(void **state)
{
    (void)state;
    /* a byte that starts no whole sequence: U+FFFD */
    expect_str("bad \xff byte", "[\"bad \xef\xbf\xbd byte\"]");
    expect_str("\x80\xbf", "[\"\xef\xbf\xbd\xef\xbf\xbd\"]");
    expect_str("cut \xe2\x82", "[\"cut \xef\xbf\xbd\xef\xbf\xbd\"]");
    expect_str("\xf5 lone", "[\"\xef\xbf\xbd lone\"]");
    expect_str("\xc3\"", "[\"\xef\xbf\xbd\\\"\"]");
    /* a whole sequence that is not valid: the string is replaced */
    expect_str("over \xc0\xaf long", "[\"(a name that is not UTF-8)\"]");
    expect_str("sur \xed\xa0\x80 gate", "[\"(a name that is not UTF-8)\"]");
    expect_str("big \xf4\x90\x80\x80", "[\"(a name that is not UTF-8)\"]");
    expect_str("\xff then \xe0\x80\x80", "[\"(a name that is not UTF-8)\"]");
}

/* ---- the repair the report made before the writer (report/rp_json.c) ---- */

static int ref_utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] >> 5) == 6 ? 2 : (s[0] >> 4) == 14 ? 3
          : (s[0] >> 3) == 30 ? 4 : 0;
    for (int k = 1; k < n; k++)
        if ((s[k] >> 6) != 2)
            return 0;
    return n;
}

static json_t *ref_user_str(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    size_t len = strlen(s), k = 0;
    char *buf = malloc(3 * len + 1);
    assert_non_null(buf);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = ref_utf8_len(p);
        if (n == 0) {
            memcpy(buf + k, "\xEF\xBF\xBD", 3);
            k += 3, p++;
        } else {
            memcpy(buf + k, p, (size_t)n);
            k += (size_t)n, p += n;
        }
    }
    buf[k] = '\0';
    j = json_string(buf);
    free(buf);
    return j ? j : json_string("(a name that is not UTF-8)");
}

/* s through the writer and through the former repair: the same text. */
static void expect_as_before(const char *s)
{
    json_t *a = json_array();
    json_array_append_new(a, ref_user_str(s));
    char *want = json_dumps(a, JSON_COMPACT);
    char *got = both(write_str, s);
    assert_string_equal(got, want);
    free(got);
    free(want);
    json_decref(a);
}

/* Bytes around the edges of UTF-8: boundaries of continuation bytes, lead
 * bytes of every length, the ends of the ranges. */
static const unsigned char edges[] = {0x01, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x8f, 0x90, 0x9f,
                                      0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef,
                                      0xf0, 0xf4, 0xf5, 0xf7, 0xf8, 0xff};
enum { N_EDGES = sizeof edges };

static void strings_as_before(void **state)
{
    (void)state;
    char s[5] = {0};
    for (int a = 1; a < 256; a++)
        for (int b = 1; b < 256; b++) {
            s[0] = (char)a, s[1] = (char)b, s[2] = '\0';
            expect_as_before(s);
        }
    for (int a = 0; a < N_EDGES; a++)
        for (int b = 0; b < N_EDGES; b++)
            for (int c = 0; c < N_EDGES; c++)
                for (int d = 0; d < N_EDGES; d++) {
                    s[0] = (char)edges[a], s[1] = (char)edges[b];
                    s[2] = (char)edges[c], s[3] = (char)edges[d];
                    expect_as_before(s);
                }
}

static void utf8_valid_as_jansson(void **state)
{
    (void)state;
    char s[5] = {0};
    for (int a = 1; a < 256; a++)
        for (int b = 0; b < 256; b++) {
            s[0] = (char)a, s[1] = (char)b;
            json_t *j = json_string(s);
            assert_int_equal(rp_json_utf8_valid(s, strlen(s)), j != NULL);
            json_decref(j);
        }
    for (int a = 0; a < N_EDGES; a++)
        for (int b = 0; b < N_EDGES; b++)
            for (int c = 0; c < N_EDGES; c++)
                for (int d = 0; d < N_EDGES; d++) {
                    s[0] = (char)edges[a], s[1] = (char)edges[b];
                    s[2] = (char)edges[c], s[3] = (char)edges[d];
                    json_t *j = json_string(s);
                    assert_int_equal(rp_json_utf8_valid(s, 4), j != NULL);
                    json_decref(j);
                }
    assert_true(rp_json_utf8_valid("", 0));
    assert_false(rp_json_utf8_valid("\xe2\x82\xac", 2)); /* a sequence cut by the length */
}

/* ---- integers, literals, containers ---- */

static const int64_t numbers[] = {0, 1, -1, 9, 10, -10, 99, 100, 4194304, -4096,
                                  INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1,
                                  INT64_C(1) << 61, INT64_MAX, INT64_MIN, INT64_MIN + 1};

static void write_numbers(rp_jw *w, const void *arg)
{
    (void)arg;
    rp_jw_array(w, NULL);
    for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++)
        rp_jw_int(w, NULL, numbers[k]);
    rp_jw_end(w);
}

static void integers_in_decimal(void **state)
{
    (void)state;
    char *got = both(write_numbers, NULL);
    assert_string_equal(got, "[0,1,-1,9,10,-10,99,100,4194304,-4096,2147483647,-2147483648,"
                             "2147483648,2305843009213693952,9223372036854775807,"
                             "-9223372036854775808,-9223372036854775807]");
    free(got);
}

static void write_nested(rp_jw *w, const void *arg)
{
    (void)arg;
    rp_jw_object(w, NULL);
    rp_jw_int(w, "schema", 2);
    rp_jw_array(w, "empty");
    rp_jw_end(w);
    rp_jw_object(w, "none");
    rp_jw_end(w);
    rp_jw_array(w, "values");
    rp_jw_object(w, NULL);
    rp_jw_str(w, "name", "x");
    rp_jw_null(w, "shape");
    rp_jw_bool(w, "contiguous", true);
    rp_jw_bool(w, "root", false);
    rp_jw_array(w, "strides");
    rp_jw_int(w, NULL, 4096);
    rp_jw_int(w, NULL, 1);
    rp_jw_end(w);
    rp_jw_end(w);
    rp_jw_null(w, NULL);
    rp_jw_array(w, NULL);
    rp_jw_array(w, NULL);
    rp_jw_end(w);
    rp_jw_end(w);
    rp_jw_end(w);
    rp_jw_str(w, "last", "end");
    rp_jw_end(w);
}

static void containers_compact(void **state)
{
    (void)state;
    char *got = both(write_nested, NULL);
    assert_string_equal(got, "{\"schema\":2,\"empty\":[],\"none\":{},\"values\":[{\"name\":\"x\","
                             "\"shape\":null,\"contiguous\":true,\"root\":false,\"strides\":"
                             "[4096,1]},null,[[]]],\"last\":\"end\"}");
    free(got);
}

/* The text sink appends to what the buffer holds, as the report streams
 * its envelope and elements; a tree with nothing written is NULL. */
static void text_appends(void **state)
{
    (void)state;
    rp_textbuf text = {0};
    rp_tb_str(&text, "head:");
    rp_jw w = rp_jw_text(&text, NULL);
    write_numbers(&w, NULL);
    rp_tb_mem(&text, "", 1);
    assert_int_equal(strncmp(text.buf, "head:[0,1,-1,", 13), 0);
    assert_string_equal(text.buf + strlen(text.buf) - 22, ",-9223372036854775807]");
    rp_tb_free(&text);
    rp_jw t = rp_jw_tree();
    assert_null(rp_jw_tree_take(&t));
}

/* [[0,1,...,99],[100,...],...]: n_rows rows of 100. */
static void write_rows(rp_jw *w, const void *arg)
{
    int n_rows = *(const int *)arg;
    rp_jw_array(w, NULL);
    for (int k = 0; k < n_rows; k++) {
        rp_jw_array(w, NULL);
        for (int j = 0; j < 100; j++)
            rp_jw_int(w, NULL, (int64_t)k * 100 + j);
        rp_jw_end(w);
    }
    rp_jw_end(w);
}

/* With a file, the text goes out in pieces as containers close (the
 * buffer stays near RP_TB_FLUSH_AT), and the file gets the same bytes. */
static void text_streams(void **state)
{
    (void)state;
    int n_rows = 5000; /* about 3 MB */
    char *want = both(write_rows, &n_rows);
    FILE *f = tmpfile();
    assert_non_null(f);
    rp_textbuf text = {0};
    rp_jw w = rp_jw_text(&text, f);
    write_rows(&w, &n_rows);
    assert_true(text.cap <= 2 * RP_TB_FLUSH_AT);
    rp_tb_flush(&text, f);
    rp_tb_free(&text);
    long size = ftell(f);
    assert_int_equal(size, (long)strlen(want));
    char *got = malloc((size_t)size + 1);
    assert_non_null(got);
    rewind(f);
    assert_int_equal(fread(got, 1, (size_t)size, f), (size_t)size);
    got[size] = '\0';
    assert_string_equal(got, want);
    free(got);
    free(want);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strings_escaped),
        cmocka_unit_test(strings_repaired),
        cmocka_unit_test(strings_as_before),
        cmocka_unit_test(utf8_valid_as_jansson),
        cmocka_unit_test(integers_in_decimal),
        cmocka_unit_test(containers_compact),
        cmocka_unit_test(text_appends),
        cmocka_unit_test(text_streams),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
