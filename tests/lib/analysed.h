/*
 * analysed.h: a sample program parsed and analysed, for the C tests that
 * check the analyzer's answers on it (include after cmocka.h).
 */
#ifndef TL_TEST_ANALYSED_H
#define TL_TEST_ANALYSED_H

#include <stdio.h>
#include <stdlib.h>

#include "an.h"
#include "frontend.h"

typedef struct analysed {
    ir_unit *unit;
    an_report *report;
    const an_func_report *main; /* the report of main() */
} analysed;

/* sample (a path under TL_SOURCE_DIR, default ".") compiles and is analysed. */
static analysed analyse(const char *sample)
{
    char path[4096];
    const char *src = getenv("TL_SOURCE_DIR");
    analysed a = {0};
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", sample);
    assert_int_equal(fe_parse_file(path, 0, NULL, &a.unit), FE_OK);
    assert_int_equal(a.unit->n_errors, 0);
    a.report = an_analyze(a.unit, NULL);
    assert_non_null(a.report);
    a.main = an_report_func(a.report, "main");
    assert_non_null(a.main);
    return a;
}

static void analysed_free(analysed *a)
{
    an_report_free(a->report);
    ir_unit_free(a->unit);
}

#endif /* TL_TEST_ANALYSED_H */
