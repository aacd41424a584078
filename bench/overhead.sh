#!/usr/bin/env bash
# The fixed cost of one call on small tensors: bench_overhead (tl_add of two
# N-element f32 vectors, allocating; tl_add_ in place; tl_matmul_out of an
# N x N matrix by a vector; the plain C loop of the same arithmetic) and
# PyTorch's torch.add / add_ / matmul(out=) of the same sizes, each the
# median of ROUNDS interleaved rounds of CALLS calls, in the same run; times
# are the calling thread's CPU time (time.thread_time_ns in Python), which
# a shared machine's other processes do not inflate.
# usage: bench/overhead.sh [BUILD_DIR] [N] [CALLS] [ROUNDS] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
n=${2:-288}
calls=${3:-100000}
rounds=${4:-9}
threads=${5:-1}
# shellcheck source=lib.sh
source bench/lib.sh
bench_build "$build" bench_overhead bench/bench_overhead
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $threads thread(s)"
"$build/bench/bench_overhead" "$n" "$calls" "$rounds"
/usr/bin/python3 - "$n" "$calls" "$rounds" "$threads" <<'PY'
import statistics, sys, time
import torch
n, calls, rounds, threads = (int(v) for v in sys.argv[1:])
torch.set_num_threads(threads)
a, b, y = torch.randn(n), torch.randn(n), torch.zeros(n)
w = torch.randn(n, n)
cases = {
    "torch.add (allocating)": lambda: torch.add(a, b),
    "Tensor.add_ (in place)": lambda: y.add_(b),
    "torch.matmul(out=) (N x N) @ (N)": lambda: torch.matmul(w, b, out=y),
}
def once(f, k):
    t0 = time.thread_time_ns()
    for _ in range(k):
        f()
    return (time.thread_time_ns() - t0) / k
for f in cases.values():
    once(f, calls // 10 + 1)
times = {name: [] for name in cases}
for _ in range(rounds):
    for name, f in cases.items():
        times[name].append(once(f, calls // 10 + 1 if "matmul" in name else calls))
print(f"\nPyTorch {torch.__version__}, the same sizes and rounds\n")
print("| case | ns per call |\n|---|---|")
for name, v in times.items():
    print(f"| {name} | {statistics.median(v):.1f} |")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
