#!/usr/bin/env bash
# The cost of code review against a baseline: a generated file of FUNCS
# functions with five hidden copies each (5 x FUNCS warnings), timed as
# `check`, `report --format=json` (the baseline's writer) and `check
# --baseline` against its own report (every warning unchanged: the most
# pairing there can be).  CPU seconds (user + sys), fastest of 5 (the least
# disturbed on a shared machine).  Prints a markdown table (docs/performance.md).
# usage: bench/baseline.sh [BUILD_DIR]   (default build-release, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen() {
  python3 - "$1" <<'PY'
import sys
print("#include <tensorlint/tensor.h>\n")
for k in range(int(sys.argv[1])):
    print(f"void f{k}(void)\n{{")
    print("    tl_tensor *w = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CPU);")
    print("    tl_tensor *p = tl_t(w);")
    for j in range(5):
        print(f"    tl_tensor *r{j} = tl_reshape(p, TL_SHAPE(8192));")
        print(f"    tl_release(r{j});")
    print("    tl_release(p);\n    tl_release(w);\n}\n")
PY
}
cpu() { # fastest of 5 runs of the command, CPU seconds
  local best=""
  for _ in 1 2 3 4 5; do
    local t
    /usr/bin/time -o "$work/time" -f "%U %S" "$@" >/dev/null 2>&1 || true
    t=$(awk '{print $1 + $2}' "$work/time")
    best=$(python3 -c "import sys; a=[float(x) for x in sys.argv[1:] if x]; print(f'{min(a):.2f}')" $best $t)
  done
  echo "$best"
}
echo "| functions | warnings | check s | report --format=json s | check --baseline s |"
echo "|---|---|---|---|---|"
for n in 200 2000; do
  gen $n >"$work/f$n.c"
  "$tool" report --format=json "$work/f$n.c" >"$work/f$n.json"
  warnings=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['diagnostics']))" "$work/f$n.json")
  echo "| $n | $warnings | $(cpu "$tool" check -j1 "$work/f$n.c") | $(cpu "$tool" report --format=json "$work/f$n.c") | $(cpu "$tool" check -j1 --baseline="$work/f$n.json" "$work/f$n.c") |"
done
