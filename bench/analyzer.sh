#!/usr/bin/env bash
# Analyzer benchmark: `tensorlint report` (text, and JSON) against `clang-14 -fsyntax-only`
# on the same files (the samples, and generated programs of 1k, 10k, 20k
# and 100k API calls), plus the interpreter alone on loops executing 1k,
# 10k, 100k and 1M calls, with handles in locals (gen_loop.py) and in struct
# arrays reached through pointers (gen_structs.py).  The three commands of a file run in turn, 9
# rounds (3 for the largest), so a disturbance of a shared machine hits
# them alike; each gets its median wall time, and the ratio of CPU time
# (user + system) is shown too.  Prints markdown tables.
# usage: bench/analyzer.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_program.py 10 100 >"$work/calls_1k.c"
python3 bench/gen_program.py 100 100 >"$work/calls_10k.c"
python3 bench/gen_program.py 200 100 >"$work/calls_20k.c"
python3 bench/gen_program.py 1000 100 >"$work/calls_100k.c"
for n in 1000 10000 100000 1000000; do
  python3 bench/gen_loop.py $n >"$work/loop_$n.c"
  python3 bench/gen_structs.py $n >"$work/structs_$n.c"
done
python3 - "$tool" "$work" <<'PY'
import glob, os, statistics, subprocess, sys, time
tool, work = sys.argv[1], sys.argv[2]
inc = os.path.join(os.getcwd(), "runtime", "include")

def run(cmd):
    """Wall seconds and CPU seconds (user + system) of one run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return wall, ru.ru_utime + ru.ru_stime

def rounds(cmds, n):
    """Runs the commands in turn, n rounds (so a disturbance hits all of
    them alike); the median wall and CPU seconds of each."""
    got = [[] for _ in cmds]
    for _ in range(n):
        for k, c in enumerate(cmds):
            got[k].append(run(c))
    return [(statistics.median(w for w, _ in g), statistics.median(c for _, c in g)) for g in got]

files = sorted(glob.glob("samples/*/*.c")) + [os.path.join(work, f"calls_{k}.c") for k in ("1k", "10k", "20k", "100k")]
print("| file | clang -fsyntax-only ms | report (text) ms | ratio | ratio, CPU time | --format=json ms | ratio | ratio, CPU time |")
print("|---|---|---|---|---|---|---|---|")
for f in files:
    n = 3 if "100k" in f else 9
    (pw, pc), (tw, tc), (jw, jc) = rounds([["clang-14", "-fsyntax-only", "-I", inc, f],
                                           [tool, "report", f],
                                           [tool, "report", "--format=json", f]], n)
    print(f"| {os.path.basename(f)} | {pw*1e3:.1f} | {tw*1e3:.1f} | {tw/pw:.2f}x | {tc/pc:.2f}x | "
          f"{jw*1e3:.1f} | {jw/pw:.2f}x | {jc/pc:.2f}x |")
print()
print("| executed API calls | locals (one loop) ms | us per call | struct arrays through pointers ms | us per call |")
print("|---|---|---|---|---|")
for n in (1000, 10000, 100000, 1000000):
    (t, _), (u, _) = rounds([[tool, "report", "--format=json", os.path.join(work, f"loop_{n}.c")],
                             [tool, "report", "--format=json", os.path.join(work, f"structs_{n}.c")]], 3)
    print(f"| {n} | {t*1e3:.1f} | {t/n*1e6:.2f} | {u*1e3:.1f} | {u/n*1e6:.2f} |")
PY
