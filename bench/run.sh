#!/usr/bin/env bash
# Runtime benchmark: tensorlint's CPU runtime vs PyTorch (Debian's
# python3-torch) vs memcpy, with THREADS threads on both sides
# (OPENBLAS_NUM_THREADS and torch.set_num_threads).  Prints the raw JSON
# lines and a markdown table for docs/performance.md.
# usage: bench/run.sh [BUILD_DIR] [THREADS]   (a Release build is best)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
threads=${2:-$(nproc)}
# shellcheck source=lib.sh
source bench/lib.sh
bench_build "$build" bench_runtime bench/bench_runtime
out=$(mktemp)
export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
"$build/bench/bench_runtime" >"$out"
if /usr/bin/python3 -c "import torch" 2>/dev/null; then
  /usr/bin/python3 bench/bench_torch.py "$threads" >>"$out"
else
  echo "python3-torch is not installed: PyTorch columns left empty" >&2
fi
cat "$out"
/usr/bin/python3 - "$out" "$threads" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
by = {}
for r in rows:
    by.setdefault(r["case"], {})[r["impl"]] = r
print(f"\n{sys.argv[2]} thread(s) on both sides.\n")
print("| case | tensorlint ms | torch ms | torch/tensorlint | tensorlint GB/s | memcpy GB/s (warm / fresh dst) | % of memcpy (warm / fresh) |")
print("|---|---|---|---|---|---|---|")
for case, d in by.items():
    t, p = d.get("tensorlint", {}), d.get("torch", {})
    ratio = f'{p["ms"] / t["ms"]:.2f}x' if t and p else "-"
    gbps = t.get("gbps", "-")
    mem = f'{t["memcpy_gbps"]} / {t["memcpy_fresh_gbps"]}' if "gbps" in t else "-"
    pct = (f'{100 * t["gbps"] / t["memcpy_gbps"]:.0f}% / {100 * t["gbps"] / t["memcpy_fresh_gbps"]:.0f}%'
           if "gbps" in t else "-")
    if "gflops" in t:
        gbps = f'{t["gflops"]} GFLOP/s'
        mem = "-"
    print(f'| {case} | {t.get("ms", "-")} | {p.get("ms", "-")} | {ratio} | {gbps} | {mem} | {pct} |')
PY
rm -f "$out"
