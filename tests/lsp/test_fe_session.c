/*
 * test_fe_session.c: a file analysed from an editor's text rather than the
 * disk: a kept translation unit reparsed with new unsaved contents
 * (frontend/fe_session.h), and the checks' fix-its and NOLINT comments
 * read from that text (ck_run_text, ck_nolint_scan_text).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an.h"
#include "check.h"
#include "fe_session.h"

static const char v1[] =
    "#include <tensorlint/tensor.h>\n"
    "int main(void)\n"
    "{\n"
    "    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);\n"
    "    tl_tensor *z = tl_clone(tl_clone(x));\n"
    "    tl_release(z);\n"
    "    tl_release(x);\n"
    "    return 0;\n"
    "}\n";

/* The same program one line lower, with a NOLINT on the double copy. */
static const char v2[] =
    "#include <tensorlint/tensor.h>\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);\n"
    "    tl_tensor *z = tl_clone(tl_clone(x)); // NOLINT(double-copy)\n"
    "    tl_release(z);\n"
    "    tl_release(x);\n"
    "    return 0;\n"
    "}\n";

static const an_diag *find(const an_report *r, const char *check)
{
    for (int k = 0; k < r->n_diags; k++)
        if (strcmp(r->diags[k].check, check) == 0)
            return &r->diags[k];
    return NULL;
}

/* The file does not exist: libclang reads only the unsaved text. */
static void test_parse_and_reparse(void **state)
{
    (void)state;
    fe_session *s = fe_session_new("/nonexistent-dir/prog.c", 0, NULL, false);
    assert_non_null(s);
    assert_false(fe_session_is_warm(s));
    ir_unit *u = NULL;
    assert_int_equal(fe_session_parse(s, v1, strlen(v1), &u), FE_OK);
    assert_int_equal(u->n_errors, 0);
    assert_true(fe_session_is_warm(s));
    an_report *r = an_analyze(u, NULL);
    ck_run_text(r, NULL, v1, strlen(v1));
    const an_diag *d = find(r, "double-copy");
    assert_non_null(d);
    assert_int_equal(d->line, 5);
    assert_int_equal(d->n_fixits, 1);
    assert_int_equal(d->fixits[0].line, 5);
    assert_string_equal(d->fixits[0].text, "x");
    an_report_free(r);
    ir_unit_free(u);
    /* the reparse sees the new text: the warning moved a line down */
    assert_int_equal(fe_session_parse(s, v2, strlen(v2), &u), FE_OK);
    r = an_analyze(u, NULL);
    ck_run_text(r, NULL, v2, strlen(v2));
    d = find(r, "double-copy");
    assert_non_null(d);
    assert_int_equal(d->line, 6);
    ck_nolint *nl = ck_nolint_scan_text(u->path, v2, strlen(v2));
    assert_non_null(nl);
    assert_true(ck_nolint_suppresses(nl, d));
    ck_nolint_free(nl);
    nl = ck_nolint_scan_text(u->path, v1, strlen(v1));
    assert_false(ck_nolint_suppresses(nl, d));
    ck_nolint_free(nl);
    an_report_free(r);
    ir_unit_free(u);
    /* a text that does not compile: the errors are in the unit */
    assert_int_equal(fe_session_parse(s, "int main(void) { return x; }\n", 29, &u), FE_OK);
    assert_true(u->n_errors > 0);
    ir_unit_free(u);
    fe_session_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_reparse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
