#!/usr/bin/env bash
# verify: every sample agrees fully on the CPU runtime (tests/verify/cuda.sh:
# on CUDA); a perturbed
# prediction is caught; and bad programs get clear messages and exit codes
# (does not build, crashes, loops forever, prints garbage, truncates its
# trace, a missing compiler).   tests/verify/run.sh TENSORLINT
set -uo pipefail
tool=$1
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
EXPECT_TIMEOUT=300
source tests/lib/expect.sh

agree="verify: .* 0 disagreements(, [0-9]+ totals? not compared \\(not bounded\\))?(, [0-9]+ bounds? on the side claimed)?(, [0-9]+ execution counts? not compared \\(not exact\\))?$"
for f in samples/worksheet/*.c samples/labs/*.c samples/models/*.c; do
  args=()
  case $f in
    */block3.c) set -- -DSEQ=64 -DVOCAB=2000 -DHIDDEN=512 ;;
    *) set -- ;;
  esac
  case $f in */branch.c) args=(--arg=scaled) ;; esac
  expect "$f" 0 "$agree" -- "$tool" verify "${args[@]}" "$f" -- -DDEVICE=TL_CPU "$@"
done
# the training samples, their token files written in the scratch folder
for f in samples/train/*.c; do
  expect "$f" 0 "$agree" -- "$tool" verify "--arg=$work/$(basename "$f" .c).tokens" "$f" -- -DDEVICE=TL_CPU
done
# a run that takes the arm of an unknown branch the analysis did not keep is
# compared with that arm, not called a divergence
expect other-arm 0 "the run took the other arm" -- "$tool" verify samples/models/branch.c -- -DDEVICE=TL_CPU
expect other-arm-agrees 0 "$agree" -- "$tool" verify samples/models/branch.c -- -DDEVICE=TL_CPU
# a bound is compared on its side: a run beyond it disagrees (the test hook
# puts the peak's bound, at most, one byte below the run)
expect bound-wrong-side 1 "peak: at most .* predicted \(line 21\), .* measured  MISMATCH" -- \
  "$tool" verify --test-perturb-line=21 samples/models/branch.c -- -DDEVICE=TL_CPU
expect bound-right-side 0 "peak: at most .* predicted \(line 21\), .* measured  \(a bound the run keeps to\)" -- \
  "$tool" verify samples/models/branch.c -- -DDEVICE=TL_CPU
expect perturbed 1 "live bytes +predicted 671088641, measured 671088640" -- \
  "$tool" verify --test-perturb-line=29 samples/worksheet/block1.c -- -DDEVICE=TL_CPU
# the times each call site ran are compared with the run's count
expect perturbed-executions 1 "executions  line 29 tl_clone: 2 predicted, 1 measured  MISMATCH" -- \
  "$tool" verify --test-perturb-line=29 samples/worksheet/block1.c -- -DDEVICE=TL_CPU
expect executions-bound 0 "executions  line 21 tl_relu: at most 1 predicted, 0 measured  \(a bound: not compared\)" -- \
  "$tool" verify samples/models/branch.c -- -DDEVICE=TL_CPU
# sizes and counts read off the run where no --bind gives them: compared with
# numbers, a loop of 5 iterations walked past the same call site after it
expect run-values 0 "the run's value: d = 6 \(dim 0 of tl_ones at line 19, read off the run\)" -- \
  "$tool" verify --arg=5 --arg=6 tests/verify/run_sizes.c
expect run-values-count 0 "the run's value: n = 5 \(the times tl_relu at line 22 ran, read off the run\)" -- \
  "$tool" verify --arg=5 --arg=6 tests/verify/run_sizes.c
expect run-values-agree 0 "^verify: 18 calls and 3 call sites compared, [0-9]+ fields, 0 disagreements$" -- \
  "$tool" verify --arg=5 --arg=6 tests/verify/run_sizes.c
expect run-values-peak 0 "^  peak: 48 B predicted \(line 21\), 48 B measured$" -- \
  "$tool" verify --arg=5 --arg=6 tests/verify/run_sizes.c

cat >"$work/nobuild.c" <<'C'
#include <tensorlint/tensor.h>
int main(void) { return undefined_function(); }
C
cat >"$work/crash.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    volatile int *p = 0;
    *p = 1;
    tl_release(x);
    return 0;
}
C
cat >"$work/forever.c" <<'C'
#include <tensorlint/tensor.h>
int main(int argc, char **argv)
{
    (void)argv;
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    volatile int n = argc;
    while (n > 0)
        n = n + 1 - 1;
    tl_release(x);
    return 0;
}
C
cat >"$work/garbage.c" <<'C'
#include <stdio.h>
#include <tensorlint/tensor.h>
int main(void)
{
    for (int i = 0; i < 1000; i++)
        printf("{\"ev\":\"call\", not json %d\n", i);
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_release(x);
    return 0;
}
C
cat >"$work/truncated.c" <<'C'
#include <unistd.h>
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_release(x);
    _exit(0); /* skips the runtime's exit: the trace is never finished */
}
C
cat >"$work/runtime_error.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU);
    tl_tensor *t = tl_t(x);
    tl_tensor *v = tl_view(t, TL_SHAPE(16));
    return 0;
}
C
# Calls in one full expression: C leaves their order unspecified (gcc
# evaluates these arguments right to left), so they match as a set.  The
# sizes differ, so the live bytes in between depend on the order.
cat >"$work/one_expression.c" <<'C'
#include <stdio.h>
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *a = tl_ones(TL_SHAPE(2, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    printf("%f %f\n", tl_get(a, TL_SHAPE(0, 1)), tl_get(b, TL_SHAPE(2)));
    tl_tensor *r = tl_relu(a), *e = tl_zeros(TL_SHAPE(5, 2, 3), TL_F32, TL_CPU);
    tl_tensor *c = tl_mul(tl_relu(a), tl_zeros(TL_SHAPE(5, 2, 3), TL_F64, TL_CPU));
    printf("%f %f\n", tl_get(tl_sum(c, 0, false), TL_SHAPE(1, 1)), tl_get(tl_t(r), TL_SHAPE(2, 1)));
    tl_release(c);
    tl_release(e);
    tl_release(r);
    tl_release(a);
    tl_release(b);
    return 0;
}
C
expect one-expression 0 "$agree" -- "$tool" verify "$work/one_expression.c"
expect one-expression-reordered 0 "line 9: the run made these 3 calls in another order" -- \
  "$tool" verify "$work/one_expression.c"
# ... also when the line is a loop body, each execution its own set
cat >"$work/one_line_loop.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *a = tl_ones(TL_SHAPE(2, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_ones(TL_SHAPE(3), TL_F32, TL_CPU);
    for (int i = 0; i < 30; i++) { tl_tensor *y = tl_add(tl_mul(a, b), tl_exp(b)); tl_release(y); }
    tl_release(a);
    tl_release(b);
    return 0;
}
C
expect one-line-loop 0 "verify: 92 calls .* 0 disagreements$" -- "$tool" verify "$work/one_line_loop.c"
# ... and a wrong prediction on such a line is still caught (after its last call)
expect one-expression-perturbed 1 "live bytes +predicted 689, measured 688" -- \
  "$tool" verify --test-perturb-line=9 "$work/one_expression.c"

# A prediction the analysis could not make is "not compared", never "ok",
# and the summary counts it; totals not bounded (either way) are not compared.
cat >"$work/unknown.c" <<'C'
#include <tensorlint/tensor.h>
union slot {
    tl_tensor *t;
    void *p;
};
int main(void)
{
    tl_tensor *x = tl_ones(TL_SHAPE(4), TL_F32, TL_CPU);
    union slot s;
    s.p = x;
    tl_tensor *y = tl_relu(s.t);
    tl_release(y);
    tl_release(x);
    return 0;
}
C
expect not-compared-row 0 "11 +relu +not compared \(prediction unknown\)" -- \
  "$tool" verify "$work/unknown.c"
expect not-compared-summary 0 "0 disagreements, 1 call site not compared \(prediction unknown\)" -- \
  "$tool" verify "$work/unknown.c"
expect not-compared-totals 0 "peak: .*, 32 B measured  \(not bounded: not compared\)" -- \
  "$tool" verify "$work/unknown.c"

# A run that leaves where the report assumes it does not (an error path on
# a condition the analysis cannot decide) is compared up to there: said, not
# a disagreement, and its non-zero exit status is no crash.
exits=tests/interp/path_exits.c
left="0 disagreements, the run left at line"
expect path-goes-on 0 "$agree" -- "$tool" verify "$exits"
expect path-usage 0 "$left 20, where the report assumes it does not \(argc > 4 is false\)" -- \
  "$tool" verify --arg=1 --arg=2 --arg=3 --arg=4 "$exits"
expect path-goto 0 "28 +zeros +ok" -- "$tool" verify --arg=1 "$exits"
expect path-goto-left 0 "$left 32, .*\(argc == 2 is false\): 0 calls after it" -- \
  "$tool" verify --arg=1 "$exits"
expect path-exit 0 "$left 37 \(or at another line listed above\)" -- \
  "$tool" verify --arg=1 --arg=2 "$exits"
expect path-exit-lines 0 "at line 37, .*; or at line 39: argc == 4 is false \(line 38\)" -- \
  "$tool" verify --arg=1 --arg=2 "$exits"
expect path-totals 0 "peak: 320 B predicted, 320 B measured  \(not compared: the run left" -- \
  "$tool" verify --arg=1 --arg=2 --arg=3 "$exits"
cat >"$work/missing_file.c" <<'C'
#include <stdio.h>
#include <tensorlint/tensor.h>
static tl_tensor *load(const char *path)
{
    tl_tensor *w = tl_zeros(TL_SHAPE(8, 8), TL_F32, TL_CPU);
    FILE *f = fopen(path, "rb");
    if (!f) {
        tl_tensor *msg = tl_ones(TL_SHAPE(2), TL_F32, TL_CPU);
        tl_release(msg);
        tl_release(w);
        return NULL;
    }
    fclose(f);
    return w;
}
int main(int argc, char **argv)
{
    tl_tensor *w = load(argc > 1 ? argv[1] : "/nonexistent/weights.bin");
    if (!w)
        return 1;
    tl_tensor *y = tl_relu(w);
    tl_release(y);
    tl_release(w);
    return 0;
}
C
# a helper's early return: its own calls on the way out are compared
expect path-helper 0 "8 +ones +ok" -- "$tool" verify "$work/missing_file.c"
expect path-helper-left 0 "$left 11, .*\(!f is false\): 0 calls after it" -- \
  "$tool" verify "$work/missing_file.c"
expect path-helper-goes-on 0 "$agree" -- "$tool" verify --arg="$work/missing_file.c" "$work/missing_file.c"
cat >"$work/no_call.c" <<'C'
#include <stdio.h>
#include <tensorlint/tensor.h>
int main(int argc, char **argv)
{
    (void)argv;
    if (argc < 2) {
        fprintf(stderr, "usage: no_call N\n");
        return 2;
    }
    tl_tensor *x = tl_ones(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_release(x);
    return 0;
}
C
# leaving before the first call: no trace is written, and none is needed
expect path-no-trace 0 "made no tensorlint call \(it wrote no trace\)" -- \
  "$tool" verify "$work/no_call.c"
expect path-no-trace-left 0 "$left 8, .*\(argc < 2 is false\)" -- "$tool" verify "$work/no_call.c"

expect does-not-build 2 "does not build" -- "$tool" verify "$work/nobuild.c"
expect crash 2 "crashed|not at a tensorlint error" -- "$tool" verify "$work/crash.c"
expect timeout 2 "did not finish within 2 s" -- "$tool" verify --timeout=2 "$work/forever.c"
expect garbage-stdout 0 "$agree" -- "$tool" verify "$work/garbage.c"
expect truncated-trace 2 "trace is truncated" -- "$tool" verify "$work/truncated.c"
expect predicted-error 0 "error, as predicted" -- "$tool" verify "$work/runtime_error.c"
expect missing-compiler 2 "does not build with /nonexistent/cc" -- \
  "$tool" verify --cc=/nonexistent/cc "$work/garbage.c"
expect no-file 2 "no such file" -- "$tool" verify "$work/none.c"

# a program that ends where the analysis says, with a non-zero status of its
# own (a failed check of its results): compared in full, no crash
cat >"$work/own_status.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_tensor *y = tl_exp(x);
    int bad = tl_numel(y) != 5;
    tl_release(y);
    tl_release(x);
    return bad ? 3 : 0;
}
C
expect own-status 0 "$agree" -- "$tool" verify "$work/own_status.c"
expect own-status-counts 0 "executions of 2 call sites compared: as predicted" -- \
  "$tool" verify "$work/own_status.c"
# a predicted error that the default handler ends the run at, with calls
# after it in the report (which goes on, as under a handler of the program's
# own): the totals are not compared, no disagreement
cat >"$work/error_then_more.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *a = tl_zeros(TL_SHAPE(3, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_zeros(TL_SHAPE(3, 6), TL_F32, TL_CPU);
    tl_tensor *c = tl_cat(TL_LIST(a, b), 0);
    tl_tensor *d = tl_zeros(TL_SHAPE(100), TL_F32, TL_CPU);
    tl_release(d);
    tl_release(c);
    tl_release(b);
    tl_release(a);
    return 0;
}
C
expect error-then-more 0 "not compared: the run ended at its error" -- \
  "$tool" verify "$work/error_then_more.c"
# the same with only releases after the error: the report's end (all
# released) is not the run's (ended with a and b live), so not compared
cat >"$work/error_then_releases.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *a = tl_zeros(TL_SHAPE(3, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_zeros(TL_SHAPE(3, 6), TL_F32, TL_CPU);
    tl_tensor *c = tl_cat(TL_LIST(a, b), 0);
    tl_release(b);
    tl_release(a);
    return c != 0;
}
C
expect error-then-releases 0 "verify: .* 0 disagreements, 2 totals not compared \(the run ended at its error\)" -- \
  "$tool" verify "$work/error_then_releases.c"
# nothing after the error: the run's totals are the report's, compared
cat >"$work/error_last.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *a = tl_zeros(TL_SHAPE(3, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_zeros(TL_SHAPE(3, 6), TL_F32, TL_CPU);
    tl_tensor *c = tl_cat(TL_LIST(a, b), 0);
    return c != 0;
}
C
expect error-last 0 "end of main: live 108 B predicted, 108 B measured" -- \
  "$tool" verify "$work/error_last.c"
# tl_from_blob over a size read at run time: the caller's bytes are the
# formula (were 0), and the run agrees once the size is bound
cat >"$work/blob_runtime_size.c" <<'C'
#include <stdlib.h>
#include <tensorlint/tensor.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    float *buf = calloc((size_t)n, sizeof *buf);
    tl_tensor *t = tl_from_blob(buf, TL_SHAPE(n), TL_F32);
    tl_tensor *u = tl_relu(t);
    tl_release(u);
    tl_release(t);
    free(buf);
    return 0;
}
C
expect blob-formula-json 0 '"external":true,"external_nbytes":"4\*n"' -- \
  "$tool" report --format=json "$work/blob_runtime_size.c"
expect blob-formula-text 0 "the caller's 4\*n B, never allocated" -- \
  "$tool" report "$work/blob_runtime_size.c"
expect blob-bound 0 "$agree" -- "$tool" verify --bind n=5 --arg=5 "$work/blob_runtime_size.c"
# a program that removes or replaces its own trace file: the run cannot be
# compared (exit 2), never "no tensorlint call"
cat >"$work/trace_removed.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_release(x);
    return remove(getenv("TL_TRACE")) != 0;
}
C
cat >"$work/trace_replaced.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_release(x);
    const char *path = getenv("TL_TRACE");
    char other[4096];
    snprintf(other, sizeof other, "%s.new", path);
    FILE *f = fopen(other, "w");
    if (!f)
        return 1;
    fputs("{\"ev\":\"exit\",\"live_bytes\":0,\"peak_bytes\":0,\"n_live\":0}\n", f);
    fclose(f);
    return rename(other, path) != 0;
}
C
expect trace-removed 2 "the trace is gone \(the program removed or replaced its trace file" -- \
  "$tool" verify "$work/trace_removed.c"
expect trace-replaced 2 "the trace is gone" -- "$tool" verify "$work/trace_replaced.c"
expect_summary "verify tests"
