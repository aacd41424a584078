#!/usr/bin/env bash
# Deep nesting: an else-if chain of N arms on a condition the analysis
# cannot decide (bench/gen_elseif.py; --tensors: each arm makes and
# releases a tensor), `tensorlint report` against `clang-14 -fsyntax-only`
# on the same file (clang's parse is most of ours).  One run per size (the
# large ones take minutes); wall time and peak RSS of each.
# usage: bench/elseif.sh [--tensors] [BUILD_DIR [ARMS...]]   (TOOL=binary overrides the build)
set -euo pipefail
cd "$(dirname "$0")/.."
gen=()
if [ "${1:-}" = --tensors ]; then
  gen=(--tensors)
  shift
fi
build=${1:-build-release}
shift || true
arms=("$@")
[ ${#arms[@]} -gt 0 ] || arms=(2000 5000 20000 50000)
# shellcheck source=lib.sh
source bench/lib.sh
tool=${TOOL:-$(bench_tool "$build")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$tool" "$work" "${gen[@]}" -- "${arms[@]}" <<'PY'
import os, subprocess, sys, time
tool, work = sys.argv[1], sys.argv[2]
split = sys.argv.index("--")
gen, arms = sys.argv[3:split], [int(a) for a in sys.argv[split + 1:]]
inc = os.path.join(os.getcwd(), "runtime", "include")

def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)

print("| arms | clang -fsyntax-only | tensorlint report |")
print("|---|---|---|")
for n in arms:
    path = os.path.join(work, f"chain_{n}.c")
    with open(path, "w") as f:
        subprocess.run([sys.executable, "bench/gen_elseif.py", *gen, str(n)], stdout=f, check=True)
    cells = []
    for cmd in (["clang-14", "-fsyntax-only", "-I", inc, path], [tool, "report", path]):
        sec, mb, rc = run(cmd)
        cells.append(f"{sec:.1f} s, {mb:.0f} MB" + ("" if rc == 0 else f" (exit {rc})"))
    print(f"| {n:,} | {cells[0]} | {cells[1]} |", flush=True)
PY
