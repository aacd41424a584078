#!/usr/bin/env bash
# Captures (docs/ci.md): a generated project of N translation units (default
# 2000; the program of bench/multifile.sh: main.c drives a chain of layers,
# layer_K.c each defining one).  Measures, in seconds:
#  1. `tensorlint capture -p` of every unit, as a build runs it (xargs, 20
#     units per process), with 1 job and with 2 jobs (captures deleted
#     before each run; fastest of 2);
#  2. `report -p` of the captured program (every unit read, none parsed;
#     fastest of 3), against the sum of `report FILE` over the units one by
#     one (one run);
#  3. after an edit of one unit, `report -p` again: the units it parsed
#     (TENSORLINT_CAPTURE_STATS), and its time.
# Prints a markdown table (docs/performance.md takes it) and the load
# average before and after (the machine may be shared).  The 1-job and
# JOBS-job captures alternate, so that a change of load hits both.
# usage: bench/capture.sh [BUILD_DIR] [N] [JOBS]   (default build-release, 2000, 2)
#   env: CAPTURE_ONLY=1 measures the captures (1.) alone: the sum of
#   one-file reports (2.) takes the longest.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
n=${2:-2000}
jobs=${3:-2}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_layers.py "$work" "$n"
secs() { # seconds "$@" takes, its output dropped
  local t0 t1
  t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
  python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1"
}
min() { python3 -c "import sys; print(min(sys.argv[1:], key=float))" "$@"; }
capture_all() { # capture every unit with $1 jobs, from nothing
  rm -rf "$work/build/tensorlint-capture"
  xargs -a "$work/units" -n 20 -P "$1" "$tool" capture -q -p "$work/build"
}
each() { while read -r f; do "$tool" report "$f" >/dev/null; done < "$work/units"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
load0=$(load)
one_a=$(secs capture_all 1); par_a=$(secs capture_all "$jobs")
one_b=$(secs capture_all 1); par_b=$(secs capture_all "$jobs")
one=$(min "$one_a" "$one_b"); par=$(min "$par_a" "$par_b")
ratio() { python3 -c "import sys; print('%.2fx' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }
if [ "${CAPTURE_ONLY:-0}" = 1 ]; then
  echo "| $n units + main.c, $(nproc) cores | s |"
  echo "|---|---|"
  echo "| capture -p, every unit, 1 job | $one |"
  echo "| capture -p, every unit, $jobs jobs | $par ($(ratio "$one" "$par") faster) |"
  echo "load average: $load0 before, $(load) after"
  exit 0
fi
stats=$(TENSORLINT_CAPTURE_STATS=1 "$tool" report -p "$work/build" 2>&1 >/dev/null | grep captures)
program=$(min "$(secs "$tool" report -p "$work/build")" "$(secs "$tool" report -p "$work/build")" \
              "$(secs "$tool" report -p "$work/build")")
files=$(secs each)
echo "/* edited */" >> "$work/layer_7.c"
t0=$(date +%s.%N)
edit=$(TENSORLINT_CAPTURE_STATS=1 "$tool" report -p "$work/build" 2>&1 >/dev/null | grep captures)
t1=$(date +%s.%N)
again=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1")
echo "| $n units + main.c, $(nproc) cores | s |"
echo "|---|---|"
echo "| capture -p, every unit, 1 job | $one |"
echo "| capture -p, every unit, $jobs jobs | $par ($(ratio "$one" "$par") faster) |"
echo "| report -p of the captured program (${stats#*captures: }) | $program |"
echo "| report FILE, each unit alone, summed | $files (the program: $(ratio "$program" "$files") of it) |"
echo "| report -p after an edit of layer_7.c (${edit#*captures: }) | $again |"
echo "load average: $load0 before, $(load) after"
