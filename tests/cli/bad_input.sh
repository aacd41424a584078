#!/usr/bin/env bash
# Bad input gets a clear message and the right exit code, never a crash or a
# hang: malformed C, a wrong argument count, a missing file, unknown options
# and commands, a shape whose bytes overflow 64 bits, a loop with a huge trip
# count, deep nesting, use after release, an unwritable output.
#   tests/cli/bad_input.sh TENSORLINT
set -uo pipefail
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
source "$(dirname "$0")/../lib/expect.sh"

cat >"$work/syntax.c" <<'C'
#include <tensorlint/tensor.h>
int main(void) { tl_tensor *x = tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU) return 0; }
C
cat >"$work/arity.c" <<'C'
#include <tensorlint/tensor.h>
int main(void) { tl_tensor *x = tl_zeros(TL_SHAPE(2), TL_F32); return 0; }
C
cat >"$work/overflow.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(1LL << 40, 1LL << 30), TL_F32, TL_CPU);
    tl_tensor *y = tl_add(x, x);
    return 0;
}
C
cat >"$work/hugeloop.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *w = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    for (long i = 0; i < 1000000000000L; i++) {
        tl_tensor *y = tl_add(w, w);
        tl_release(y);
    }
    return 0;
}
C
cat >"$work/uar.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU);
    tl_release(x);
    tl_tensor *y = tl_clone(x);
    tl_release(x);
    return 0;
}
C
python3 - "$work/deep.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <tensorlint/tensor.h>\nint main(int argc, char **argv)\n{\n")
    f.write("    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);\n")
    f.write("".join("if (argc > %d) {\n" % i for i in range(200)))
    f.write("tl_tensor *y = tl_clone(x);\ntl_release(y);\n" + "}\n" * 200 + "return 0;\n}\n")
PY
printf '#include <tensorlint/tensor.h>\nint main(void) { return 0; }\n' >"$work/empty.c"
cat >"$work/negdim.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(-3, 4), TL_F32, TL_CPU);
    return 0;
}
C
cat >"$work/ninedims.c" <<'C'
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1), TL_F32, TL_CPU);
    return 0;
}
C

expect syntax 2 "syntax.c:2:[0-9]+: error: expected ';'" -- "$tool" report "$work/syntax.c"
expect arity 2 "too few arguments" -- "$tool" report "$work/arity.c"
expect missing-file 2 "no such file" -- "$tool" report "$work/none.c"
expect directory 2 "is a directory, not a C file" -- "$tool" report "$work"
expect unknown-option 2 "unrecognized option" -- "$tool" report --bogus "$work/empty.c"
expect option-after-file 2 "unrecognized option" -- "$tool" report "$work/empty.c" --bogus
expect unknown-command 2 "unknown command" -- "$tool" frobnicate
expect no-command 2 "usage" -- "$tool"
expect unknown-format 2 "unknown format" -- "$tool" report --format=xml "$work/empty.c"
expect bad-count 2 "not a non-negative whole number" -- "$tool" report --max-calls=-3 "$work/empty.c"
expect two-files 2 "expected one FILE" -- "$tool" report "$work/empty.c" "$work/empty.c"
expect overflow 1 "Storage size calculation overflowed with sizes=\[1099511627776, 1073741824\] \[byte-overflow\]" -- "$tool" report "$work/overflow.c"
expect huge-loop 0 "loop stopped after 1000000 iterations" -- "$tool" report "$work/hugeloop.c"
expect deep-nesting 0 "peak: 32 B" -- "$tool" report "$work/deep.c"
expect use-after-release 1 "uses 'x' after it was released \[use-after-release\]" -- "$tool" report "$work/uar.c"
expect double-release 1 "released twice \[double-release\]" -- "$tool" report "$work/uar.c"
expect unwritable-output 2 "cannot write" -- "$tool" report -o /nonexistent/dir/out.txt "$work/empty.c"
# a full disk is an error, not silence (stdout on /dev/full)
full=(bash -c '"$@" >/dev/full' full)
expect full-disk-text 2 "report: cannot write to stdout: No space left" -- "${full[@]}" "$tool" report "$work/deep.c"
expect full-disk-json 2 "report: cannot write to stdout" -- "${full[@]}" "$tool" report --format=json "$work/deep.c"
expect full-disk-file 2 "report: cannot write /dev/full" -- "$tool" report -o /dev/full "$work/deep.c"
expect full-disk-sarif 2 "check: cannot write to stdout" -- "${full[@]}" "$tool" check --format=sarif "$work/deep.c"
expect full-disk-ir 2 "dump-ir: cannot write to stdout" -- "${full[@]}" "$tool" dump-ir "$work/deep.c"
expect unknown-function 2 "no function 'nope'" -- "$tool" report --function=nope "$work/overflow.c"
expect help 0 "usage: tensorlint report" -- "$tool" report --help
# the phase times bench/checks.sh reads
expect time-report 0 "time: parse [0-9.]+ ms, lower [0-9.]+ ms, analyse [0-9.]+ ms, checks [0-9.]+ ms, write [0-9.]+ ms" -- "$tool" report --time-report "$work/deep.c"
expect no-tensor-code 0 "no function uses the tensor API" -- "$tool" report "$work/empty.c"
expect nine-dims 1 "a tl_ints holds 0 to 8 values, not 9 \[invalid-argument\]" -- "$tool" report "$work/ninedims.c"
expect negative-dim 1 "negative dimension -3" -- "$tool" report "$work/negdim.c"

expect_summary bad-input
