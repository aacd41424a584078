#!/usr/bin/env bash
# Bad input to the diagram commands gets a clear message and exit 2, never a
# crash: outputs that cannot be written, unknown formats and extensions, a
# function that does not exist, a program with no tensor code, a missing
# file, bad option values.  A program with errors is still drawn (exit 1).
# A program of 100,000 calls is drawn in reasonable time, and says that it
# summarised its loop.
#   tests/diagrams/bad_input.sh TENSORLINT
set -uo pipefail
tool=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
source "$here/../lib/expect.sh"

ok=$here/loops.c
for cmd in graph lifetimes; do
  expect $cmd.unwritable_dir 2 "cannot write $work/nodir/out.svg: No such file" -- \
    "$tool" $cmd "$ok" -o "$work/nodir/out.svg"
  expect $cmd.output_is_dir 2 "cannot tell the format of '$work'" -- "$tool" $cmd "$ok" -o "$work"
  expect $cmd.unknown_format 2 "unknown format 'gif'" -- "$tool" $cmd --format=gif "$ok"
  expect $cmd.unknown_extension 2 "cannot tell the format of 'out.jpeg'" -- \
    "$tool" $cmd "$ok" -o out.jpeg
  expect $cmd.no_function 2 "no function 'nosuch' with tensor code" -- \
    "$tool" $cmd --function=nosuch "$ok"
  expect $cmd.no_tensor_code 2 "plain.c has no tensor code" -- "$tool" $cmd "$here/plain.c"
  expect $cmd.missing_file 2 "no such file" -- "$tool" $cmd "$work/missing.c"
  expect $cmd.no_file 2 "expected one FILE.c, got 0" -- "$tool" $cmd
  expect $cmd.two_files 2 "expected one FILE.c, got 2" -- "$tool" $cmd "$ok" "$ok"
  expect $cmd.unknown_option 2 "usage: tensorlint $cmd" -- "$tool" $cmd --frobnicate "$ok"
  expect $cmd.help 0 "usage: tensorlint $cmd" -- "$tool" $cmd --help
  expect $cmd.errors_drawn 1 "error \[invalid-view\]|digraph" -- "$tool" $cmd "$here/diags.c"
  expect $cmd.option_after_file 0 "<svg" -- "$tool" $cmd "$ok" --format=svg
  expect $cmd.compiler_args 0 "digraph" -- "$tool" $cmd "$ok" -- -DUNUSED=1
done
# the text chart goes through the same checks
expect lifetimes.text_unwritable 2 "cannot write" -- \
  "$tool" lifetimes --format=text "$ok" -o "$work/nodir/out.txt"
expect lifetimes.bad_columns 2 "out of range" -- "$tool" lifetimes --max-columns=3 "$ok"
expect lifetimes.bad_rows 2 "not a non-negative whole number" -- "$tool" lifetimes --max-rows=x "$ok"
expect lifetimes.bad_width 2 "out of range" -- "$tool" lifetimes --format=text --width=5 "$ok"
expect graph.bad_nodes 2 "out of range" -- "$tool" graph --max-nodes=0 "$ok"
expect graph.checks_drawn 0 "warning \[late-release\]" -- "$tool" graph "$root/samples/worksheet/block1.c"
if "$tool" graph --no-checks "$root/samples/worksheet/block1.c" | grep -q "warning \["; then
  fail=$((fail + 1)); echo "FAIL graph.no_checks: warnings drawn"
else
  pass=$((pass + 1))
fi
expect graph.diag_on_node 1 "error \[invalid-view\]: tl_view" -- "$tool" graph "$here/diags.c"
expect graph.diag_in_title 1 "line 16: error \[double-release\]" -- "$tool" graph "$here/diags.c"
expect report.lifetimes 0 "storage lifetimes of main\(\)" -- "$tool" report --lifetimes "$ok"
expect report.lifetimes_width 0 "peak 10 KiB" -- "$tool" report --lifetimes --width=40 "$ok"
expect report.bad_width 2 "not a non-negative whole number" -- "$tool" report --lifetimes --width=wide "$ok"
expect lifetimes.columns_env 0 "\[loop at line 19 ×3" -- env COLUMNS=120 "$tool" lifetimes --format=text "$ok"

# 100,000 calls: drawn quickly, the loop summarised (and said so)
python3 - "$work/big.c" <<'PY'
import sys
open(sys.argv[1], "w").write("""#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *w = tl_randn(TL_SHAPE(64, 64), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(8, 64), TL_F32, TL_CPU);
    for (int i = 0; i < 50000; i++) {
        tl_tensor *h = tl_matmul(x, w);
        tl_tensor *y = tl_relu(h);
        tl_release(h);
        tl_release(x);
        x = y;
    }
    tl_release(x);
    tl_release(w);
    return 0;
}
""")
PY
expect big.lifetimes_text 0 "loop at line 6 ×50000" -- "$tool" lifetimes --format=text --width=100 "$work/big.c"
expect big.lifetimes_svg 0 "" -- "$tool" lifetimes "$work/big.c" -o "$work/big.svg"
expect big.expanded 0 "100002 columns are merged" -- "$tool" lifetimes --expand "$work/big.c"
expect big.graph 0 "" -- "$tool" graph "$work/big.c" -o "$work/big-graph.svg"

echo "diagrams bad input: $pass passed, $fail failed"
[ $fail -eq 0 ]
