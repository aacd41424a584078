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

agree="verify: .* 0 disagreements$"
for f in samples/worksheet/*.c samples/labs/*.c samples/models/*.c; do
  args=()
  case $f in
    */block3.c) set -- -DSEQ=64 -DVOCAB=2000 -DHIDDEN=512 ;;
    *) set -- ;;
  esac
  case $f in */branch.c) args=(--arg=scaled) ;; esac
  expect "$f" 0 "$agree" -- "$tool" verify "${args[@]}" "$f" -- -DDEVICE=TL_CPU "$@"
done
expect perturbed 1 "live bytes +predicted 671088641, measured 671088640" -- \
  "$tool" verify --test-perturb-line=29 samples/worksheet/block1.c -- -DDEVICE=TL_CPU

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
expect does-not-build 2 "does not build" -- "$tool" verify "$work/nobuild.c"
expect crash 2 "crashed|not at a tensorlint error" -- "$tool" verify "$work/crash.c"
expect timeout 2 "did not finish within 2 s" -- "$tool" verify --timeout=2 "$work/forever.c"
expect garbage-stdout 0 "$agree" -- "$tool" verify "$work/garbage.c"
expect truncated-trace 2 "trace is truncated" -- "$tool" verify "$work/truncated.c"
expect predicted-error 0 "error, as predicted" -- "$tool" verify "$work/runtime_error.c"
expect missing-compiler 2 "does not build with /nonexistent/cc" -- \
  "$tool" verify --cc=/nonexistent/cc "$work/garbage.c"
expect no-file 2 "no such file" -- "$tool" verify "$work/none.c"

expect_summary "verify tests"
