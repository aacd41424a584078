"""PyTorch CPU side of bench/run.sh: the same cases as bench_runtime.c,
timed the same way (median of 7 after one warm-up), one JSON line each.
Run with Debian's python3-torch: /usr/bin/python3 bench/bench_torch.py THREADS"""
import json
import sys
import time

import torch

REPS = 7


def median_seconds(fn):
    fn()
    times = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[REPS // 2]


def report(case, sec, moved=None, flops=None):
    rec = {"case": case, "impl": "torch", "ms": round(sec * 1e3, 3)}
    if moved:
        rec["moved_bytes"] = moved
        rec["gbps"] = round(moved / sec / 1e9, 2)
    if flops:
        rec["gflops"] = round(flops / sec / 1e9, 1)
    print(json.dumps(rec), flush=True)


def main():
    torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    torch.manual_seed(0)
    x = torch.randn(16, 1024, 4096, dtype=torch.float16)
    xt = x.transpose(1, 2)
    n = x.numel()
    report("contiguous_transposed_f16", median_seconds(lambda: xt.contiguous()), n * 4)
    report("to_f32_transposed_f16", median_seconds(lambda: xt.to(torch.float32)), n * 6)
    report("to_f32_contiguous_f16", median_seconds(lambda: x.to(torch.float32)), n * 6)
    del x, xt
    a = torch.randn(1024, 1024)
    b = torch.randn(1024, 1024)
    report("matmul_1024_f32", median_seconds(lambda: a @ b), flops=2 * 1024 ** 3)
    m = torch.randn(4096, 4096)
    bias = torch.randn(4096)
    report("add_broadcast_f32", median_seconds(lambda: m + bias), 4096 * 4096 * 8 + 4096 * 4)


if __name__ == "__main__":
    main()
