#!/usr/bin/env bash
# Diagram benchmark: `tensorlint graph` and `tensorlint lifetimes` on
# programs of about 100,000 executed API calls, next to `tensorlint report
# --format=json` on the same file (parse, analysis and a large JSON).
# Shapes:
#   loop       one loop, 4 calls and 4 releases per iteration (bench/gen_loop.py)
#   nested     50 outer x 1000 inner iterations (2 calls, 2 releases each)
#   leak       100,000 iterations that each leak a storage (100,000 storages)
#   triangle   a triangular nest (iterations differ: not grouped, columns elided)
#   straight   one function of 100,000 calls in straight-line code
#              (bench/gen_program.py 1 100000: the graph draws its first 100)
# Median of 3 runs each, in seconds.  Prints a markdown table.
# usage: bench/diagrams.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_loop.py 100000 >"$work/loop.c"
python3 bench/gen_program.py 1 100000 >"$work/straight.c"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
head = "#include <tensorlint/tensor.h>\nint main(void)\n{\n"
w = "    tl_tensor *w = tl_randn(TL_SHAPE(64, 64), TL_F32, TL_CPU);\n"
open(f"{work}/nested.c", "w").write(head + w + """    for (int i = 0; i < 50; i++) {
        tl_tensor *a = tl_randn(TL_SHAPE(8, 64), TL_F32, TL_CPU);
        for (int j = 0; j < 1000; j++) {
            tl_tensor *h = tl_matmul(a, w);
            tl_tensor *g = tl_relu(h);
            tl_release(h);
            tl_release(g);
        }
        tl_release(a);
    }
    tl_release(w);
    return 0;
}
""")
open(f"{work}/leak.c", "w").write(head + w + """    for (int i = 0; i < 100000; i++) {
        tl_tensor *h = tl_matmul(w, w);
        (void)h;
    }
    return 0;
}
""")
open(f"{work}/triangle.c", "w").write(head + w + """    for (int i = 0; i < 446; i++) {
        tl_tensor *a = tl_randn(TL_SHAPE(8, 64), TL_F32, TL_CPU);
        for (int j = 0; j < i; j++) {
            tl_tensor *h = tl_matmul(a, w);
            tl_release(h);
        }
        tl_release(a);
    }
    tl_release(w);
    return 0;
}
""")
PY
python3 - "$tool" "$work" <<'PY'
import statistics, subprocess, sys, time
tool, work = sys.argv[1], sys.argv[2]

def median(cmd, runs=3):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True)
        times.append(time.perf_counter() - t0)
        if p.returncode not in (0, 1):
            sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode()[:300]}")
    return statistics.median(times), p.stdout.decode(errors="replace")

cmds = [
    ("report json", ["report", "--format=json"]),
    ("lifetimes text", ["lifetimes", "--format=text", "--width=100"]),
    ("lifetimes svg", ["lifetimes", "--format=svg"]),
    ("lifetimes --expand svg", ["lifetimes", "--expand", "--format=svg"]),
    ("graph svg", ["graph", "--format=svg"]),
    ("graph png", ["graph", "--format=png"]),
]
print("| program | calls | " + " | ".join(c[0] for c in cmds) + " | chart |")
print("|---" * (len(cmds) + 3) + "|")
for shape in ("loop", "nested", "leak", "triangle", "straight"):
    src = f"{work}/{shape}.c"
    row, calls, chart = [], "?", ""
    for name, args in cmds:
        t, out = median([tool, *args, src])
        row.append(f"{t:.2f}")
        if name == "lifetimes text":
            first = out.splitlines()[0]
            calls = first.split(": ")[1].split(" calls")[0]
            n_runs = sum(1 for l in out.splitlines() if l.startswith("run: "))
            merged = [l for l in out.splitlines() if "calls are drawn in" in l]
            chart = f"{n_runs} runs grouped" + (", " + merged[0][6:].split(":")[0] if merged else "")
    print(f"| {shape} | {calls} | " + " | ".join(row) + f" | {chart} |")
PY
