#!/usr/bin/env bash
# Analyzer benchmark: `tensorlint report` (text, and JSON) against `clang-14 -fsyntax-only`
# on the same files (the samples, and generated programs of 1k, 10k, 20k
# and 100k API calls), plus the interpreter alone on loops executing 1k,
# 10k, 100k and 1M calls.  Median of 5 runs each.  Prints a markdown table.
# usage: bench/analyzer.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
if [ ! -x "$build/tools/tensorlint" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target tensorlint_cli >/dev/null
fi
tool=$build/tools/tensorlint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_program.py 10 100 >"$work/calls_1k.c"
python3 bench/gen_program.py 100 100 >"$work/calls_10k.c"
python3 bench/gen_program.py 200 100 >"$work/calls_20k.c"
python3 bench/gen_program.py 1000 100 >"$work/calls_100k.c"
for n in 1000 10000 100000 1000000; do python3 bench/gen_loop.py $n >"$work/loop_$n.c"; done
python3 - "$tool" "$work" <<'PY'
import glob, os, statistics, subprocess, sys, time
tool, work = sys.argv[1], sys.argv[2]
inc = os.path.join(os.getcwd(), "runtime", "include")

def median_time(cmd, runs=5):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)

rows = []
files = sorted(glob.glob("samples/*/*.c")) + [os.path.join(work, f"calls_{k}.c") for k in ("1k", "10k", "20k", "100k")]
print("| file | clang -fsyntax-only ms | tensorlint report ms (text) | ratio | --format=json ms | ratio |")
print("|---|---|---|---|---|---|")
for f in files:
    parse = median_time(["clang-14", "-fsyntax-only", "-I", inc, f])
    text = median_time([tool, "report", f])
    js = median_time([tool, "report", "--format=json", f])
    print(f"| {os.path.basename(f)} | {parse*1e3:.1f} | {text*1e3:.1f} | {text/parse:.2f}x | "
          f"{js*1e3:.1f} | {js/parse:.2f}x |")
print()
print("| executed API calls (loop) | tensorlint report ms | us per call |")
print("|---|---|---|")
for n in (1000, 10000, 100000, 1000000):
    t = median_time([tool, "report", "--format=json", os.path.join(work, f"loop_{n}.c")], runs=3)
    print(f"| {n} | {t*1e3:.1f} | {t/n*1e6:.2f} |")
PY
