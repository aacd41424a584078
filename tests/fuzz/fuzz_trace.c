/*
 * fuzz_trace.c: the trace reader of `tensorlint verify` (verify/vf_verify.c)
 * on arbitrary bytes, against a report of a small fixed program.
 *
 * The input is the trace file (JSON lines, seeded with the traces of real
 * runs in tests/fuzz/corpus/trace/).  A trace that cannot be read is a
 * normal outcome (vf_verify returns false with a reason); a crash, a
 * sanitizer report or a leak is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an.h"
#include "vf_verify.h"
#include "frontend.h"

static const char program[] =
    "#include <tensorlint/tensor.h>\n"
    "int main(void)\n"
    "{\n"
    "    tl_tensor *x = tl_zeros(TL_SHAPE(4, 6), TL_F32, TL_CPU);\n"
    "    tl_tensor *y = tl_transpose(x, 0, 1);\n"
    "    tl_tensor *z = tl_contiguous(y);\n"
    "    tl_release(y);\n"
    "    tl_tensor *w = tl_add(z, z);\n"
    "    tl_release(x);\n"
    "    return 0;\n"
    "}\n";

static char dir[64];
static char src[96], trace[96];
static ir_unit *unit;
static an_report *report;

static void cleanup(void)
{
    an_report_free(report);
    ir_unit_free(unit);
    unlink(src);
    unlink(trace);
    rmdir(dir);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tl-fuzz-trace-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(src, sizeof src, "%s/prog.c", dir);
    snprintf(trace, sizeof trace, "%s/trace.jsonl", dir);
    FILE *f = fopen(src, "w");
    if (!f || fputs(program, f) < 0 || fclose(f) != 0)
        abort();
    an_options o;
    an_options_default(&o);
    if (fe_parse_file(src, 0, NULL, &unit) != FE_OK || unit->n_errors || !(report = an_analyze(unit, &o)))
        abort();
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!report)
        setup();
    FILE *f = fopen(trace, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    vf_options opt;
    memset(&opt, 0, sizeof opt);
    opt.function = "main";
    vf_summary sum;
    char *error = NULL;
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    vf_verify(report, trace, &opt, null, &sum, &error);
    fclose(null);
    free(error);
    return 0;
}
