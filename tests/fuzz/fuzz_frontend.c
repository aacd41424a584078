/*
 * fuzz_frontend.c: C source through the whole analyzer: libclang and the
 * front end (frontend/), the abstract interpreter (interp/), every check
 * (checks/) and both report writers (report/).
 *
 * The input is the text of a C file (seeded with samples/ and
 * tests/bad-input/cases/, with tensor.h's names in fuzz.dict).  It is
 * written to a temporary file and parsed as `tensorlint check` would, with
 * smaller limits so that one input stays fast (100,000 calls, 1,000 loop
 * iterations); a file that does not compile is a normal outcome.  Any
 * crash, sanitizer report or leak is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an.h"
#include "rp_report.h"
#include "check.h"
#include "frontend.h"

static char path[64];

static void remove_file(void) { unlink(path); }

static const char *source_file(void)
{
    if (!path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/tl-fuzz-XXXXXX.c", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
        int fd = mkstemps(path, 2);
        if (fd < 0)
            abort();
        close(fd);
        atexit(remove_file);
    }
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *src = source_file();
    FILE *f = fopen(src, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    ir_unit *u = NULL;
    if (fe_parse_file(src, 0, NULL, &u) != FE_OK || !u)
        return 0;
    if (u->n_errors == 0) {
        an_options o;
        an_options_default(&o);
        o.max_calls = 100000;
        o.max_iterations = 1000;
        an_report *r = an_analyze(u, &o);
        if (!r)
            abort();
        ck_run(r, NULL);
        FILE *null = fopen("/dev/null", "w");
        if (!null)
            abort();
        rp_report_write_json(null, r);
        rp_text_options t = {NULL, false};
        rp_report_write_text(null, r, &t);
        fclose(null);
        an_report_free(r);
    }
    ir_unit_free(u);
    return 0;
}
