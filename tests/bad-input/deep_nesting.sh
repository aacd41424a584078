#!/usr/bin/env bash
# Statements nested deeper than a thread's usual stack holds: the analysis
# runs on a deep stack of its own (common/deep.h), and where even that
# would run out it stops with an analysis-limit warning and lower bounds,
# never a signal.  TENSORLINT_TEST_ANALYSIS_STACK_KIB gives the analysis a
# small stack to reach that limit in a second (a stack smaller than the
# thread-local storage cannot be made: the analysis then runs on the
# caller's thread, with the same limit).  Nested loops of unknown
# trip count cost a power of their depth (each level tries its body more
# than once): --max-steps stops them, said the same way.
#   tests/bad-input/deep_nesting.sh TENSORLINT
set -uo pipefail
tool=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
source "$here/../lib/expect.sh"

# N nested `if (argc > 1)` around `n = n + 1`, then a tensor of n floats
nest() {
  python3 - "$1" "$2" >"$3" <<'PY'
import sys
d, kind = int(sys.argv[1]), sys.argv[2]
head = {"if": "if (argc > 1) ", "while": "while (argc > 5) ", "block": "{"}[kind]
tail = "}" * d if kind == "block" else ""
print("#include <tensorlint/tensor.h>\nint main(int argc, char **argv)\n{\n    long n = 3;")
print("    " + head * d + " n = n + 1; " + tail)
print("    tl_tensor *t = tl_zeros(TL_SHAPE(n), TL_F32, TL_CPU);\n    tl_release(t);")
print("    (void)argv;\n    return 0;\n}")
PY
}

nest 5000 if "$work/ifs.c"
# the whole nesting followed on the analysis's own deep stack, whatever the caller's
ulimit -S -s 1024
expect "5,000 nested ifs, 1 MiB of stack for main" 0 "^peak: 4\*n B at line 6" -- \
  "$tool" report "$work/ifs.c"
ulimit -S -s 8192
nest 3000 block "$work/blocks.c"
expect "3,000 nested blocks" 0 "^peak: 16 B at line 6" -- \
  "$tool" report "$work/blocks.c" -- -fbracket-depth=4000
# a stack too small for the nesting (1 MiB, of which the thread-local storage
# takes a part): stopped where the stack runs low, said so, a lower bound
export TENSORLINT_TEST_ANALYSIS_STACK_KIB=1024
expect "3,000 nested blocks on 1 MiB" 0 \
  "nested deeper than the analysis follows.*\[analysis-limit\]" -- \
  "$tool" report "$work/blocks.c" -- -fbracket-depth=4000
expect "3,000 nested blocks on 1 MiB: a lower bound" 0 "^peak: at least 0 B" -- \
  "$tool" report "$work/blocks.c" -- -fbracket-depth=4000
unset TENSORLINT_TEST_ANALYSIS_STACK_KIB

nest 24 while "$work/loops.c"
expect "24 nested loops of unknown trip count, --max-steps" 0 \
  "stopped after 100000 statements \(--max-steps\).*\[analysis-limit\]" -- \
  "$tool" report --max-steps=100000 "$work/loops.c"
# the limit reached inside a loop's trial (a summary tried, then undone):
# its warning and its bound are kept, not the note of a failed summary
cat >"$work/calls.c" <<'C'
#include <tensorlint/tensor.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    for (int i = 0; i < n; i++) {
        tl_tensor *t = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
        tl_tensor *u = tl_relu(t);
        tl_release(t);
        tl_release(u);
    }
    tl_tensor *z = tl_zeros(TL_SHAPE(100), TL_F32, TL_CPU);
    tl_release(z);
    return 0;
}
C
expect "--max-calls met in a loop's trial: the warning" 0 \
  "stopped after 3 API calls \(--max-calls\).*\[analysis-limit\]" -- \
  "$tool" report --max-calls=3 "$work/calls.c"
expect "--max-calls met in a loop's trial: a lower bound" 0 "^peak: at least [0-9]+ B" -- \
  "$tool" report --max-calls=3 "$work/calls.c"
expect_summary deep_nesting
