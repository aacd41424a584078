#!/usr/bin/env bash
# The cost of the checks.
#  1. `tensorlint report --time-report` on the samples and on generated
#     programs of 1k to 100k API calls and loops executing up to 1M calls:
#     the checks' time against report's analysis time (parse and lower +
#     interpreter) and against the interpreter alone; fastest of 7 runs
#     per phase (the least disturbed on a shared machine).
#  2. `tensorlint check -p` on a compilation database of 200 generated
#     files, with -j 1 and -j 2 (fastest of 5): the speed-up, next to a
#     calibration of what two CPU-bound processes get on this machine.
# Prints markdown tables (docs/performance.md takes them).
# usage: bench/checks.sh [BUILD_DIR]   (default build-release, built if missing)
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
python3 bench/gen_program.py 1000 100 >"$work/calls_100k.c"
for n in 10000 100000 1000000; do python3 bench/gen_loop.py $n >"$work/loop_$n.c"; done
# 200 files for -p: each a small model with its own -D flags
mkdir -p "$work/db"
python3 - "$work/db" "$(pwd)/runtime/include" <<'PY'
import json, os, sys
out, inc = sys.argv[1], sys.argv[2]
entries = []
for k in range(200):
    path = os.path.join(out, f"layer_{k:03d}.c")
    with open(path, "w") as f:
        f.write(f"""#include <tensorlint/tensor.h>
#ifndef WIDTH
#define WIDTH 64
#endif
static tl_tensor *block_{k}(tl_tensor *x, tl_tensor *w)
{{
    tl_tensor *h = tl_matmul(x, w);
    tl_tensor *t = tl_transpose(h, 0, 1);
    tl_tensor *c = tl_contiguous(t);
    tl_release(t);
    tl_release(h);
    tl_tensor *y = tl_relu(c);
    tl_release(c);
    return y;
}}

int main(void)
{{
    tl_tensor *w = tl_randn(TL_SHAPE(WIDTH, WIDTH), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(WIDTH, WIDTH), TL_F32, TL_CPU);
    for (int i = 0; i < {4 + k % 8}; i++) {{
        tl_tensor *y = block_{k}(x, w);
        tl_release(x);
        x = y;
    }}
    tl_release(x);
    tl_release(w);
    return 0;
}}
""")
    entries.append({"directory": out, "file": os.path.basename(path),
                    "command": f"cc -I{inc} -DWIDTH={32 + k % 64} -O2 -c {os.path.basename(path)} -o {k}.o"})
with open(os.path.join(out, "compile_commands.json"), "w") as f:
    json.dump(entries, f, indent=1)
PY
python3 - "$tool" "$work" <<'PY'
import glob, os, re, subprocess, sys, time
tool, work = sys.argv[1], sys.argv[2]

def phases(f, runs=7):
    """The fastest of runs of each phase of `report --time-report`, in ms."""
    best = None
    for _ in range(runs):
        err = subprocess.run([tool, "report", "--format=json", "--time-report", f],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
        m = re.search(r"parse ([\d.]+) ms, lower ([\d.]+) ms, analyse ([\d.]+) ms, checks ([\d.]+) ms", err)
        parse, lower, analyse, checks = (float(x) for x in m.groups())
        t = (parse + lower, analyse, checks)
        best = t if best is None else tuple(min(a, b) for a, b in zip(best, t))
    return best

def wall(cmd, runs):
    """The fastest of runs, in seconds (the machine may be shared: the minimum is the least disturbed)."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    return best

files = sorted(glob.glob("samples/*/*.c")) + [os.path.join(work, f) for f in (
    "calls_1k.c", "calls_10k.c", "calls_100k.c", "loop_10000.c", "loop_100000.c", "loop_1000000.c")]
print("| file | parse ms | interpreter ms | checks ms | checks / (parse + interpreter) | checks / interpreter |")
print("|---|---|---|---|---|---|")
worst = 0.0
for f in files:
    p, a, c = phases(f)
    share = 100 * c / (p + a) if p + a > 0 else 0
    worst = max(worst, share)
    print(f"| {os.path.basename(f)} | {p:.1f} | {a:.1f} | {c:.1f} | {share:.1f}% | "
          f"{100 * c / a if a >= 0.05 else 0:.1f}% |")
print(f"\nworst share of report's analysis time: {worst:.1f}%\n")
spin = ("import time\nt=time.perf_counter()\nx=0\nfor i in range(3000000): x+=i\n")
print("| tensorlint check -p (200 files) | fastest of 5, s | speed-up |")
print("|---|---|---|")
db = os.path.join(work, "db")
t1 = wall([tool, "check", "-p", db, "-j", "1"], 5)
t2 = wall([tool, "check", "-p", db, "-j", "2"], 5)
print(f"| -j 1 | {t1:.2f} | 1.00x |")
print(f"| -j 2 | {t2:.2f} | {t1 / t2:.2f}x |")
one = wall(["python3", "-c", spin], 3)
two = wall(["sh", "-c", f"python3 -c '{spin}' & python3 -c '{spin}' & wait"], 3)
print(f"\ncores: {os.cpu_count()}; calibration, two CPU-bound processes at once vs one: "
      f"{2 * one / two:.2f}x (2.00x on two idle cores)")
PY
