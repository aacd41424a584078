#!/usr/bin/env bash
# Whole programs: a generated project of N translation units (default 2000):
# main.c drives a chain of layers, layer_K.c each defining one layer with
# its own weights (made on first use, released at the end) and a static
# helper named alike in every unit.  Measures, fastest of 3 runs each:
#  1. `tensorlint report -p` of the whole program (parse, lower, link,
#     analyse; its captures deleted before each run: bench/capture.sh
#     measures them);
#  2. the sum of `tensorlint report FILE` over the units, one by one (what
#     the per-file analysis costs, with every cross-unit call external).
# Prints a markdown table (docs/performance.md takes it).
# usage: bench/multifile.sh [BUILD_DIR] [N]   (default build-release, 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
n=${2:-2000}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_layers.py "$work" "$n"
fastest() { # fastest of 3 runs of "$@", in seconds
  local best=
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N)
    best=$(python3 -c "import sys; a=float(sys.argv[2])-float(sys.argv[1]); b=sys.argv[3]; print(a if not b or a < float(b) else b)" "$t0" "$t1" "$best")
  done
  echo "$best"
}
each() { for f in "$work"/layer_*.c "$work/main.c"; do "$tool" report "$f" >/dev/null; done; }
fresh() { rm -rf "$work/build/tensorlint-capture"; "$tool" report -p "$work/build"; } # parse every run
program=$(fastest fresh)
files=$(fastest each)
echo "| $n units + main.c | fastest of 3, s |"
echo "|---|---|"
echo "| report -p (one program) | $program |"
echo "| report FILE, each unit alone, summed | $files |"
python3 -c "import sys; print('| ratio | %.2fx |' % (float(sys.argv[1]) / float(sys.argv[2])))" "$program" "$files"
