"""PyTorch CPU side of bench/run.sh: the same cases as bench_runtime.c,
timed the same way (median of 7 after one warm-up; the elementwise section
in 15 interleaved rounds, the median over them), one JSON line each.
Run with Debian's python3-torch: /usr/bin/python3 bench/bench_torch.py THREADS"""
import json
import sys
import time

import torch

REPS = 7
ROUNDS = 15  # the elementwise section's rounds


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
    c = torch.empty(1024, 1024)
    report("matmul_out_1024_f32", median_seconds(lambda: torch.matmul(a, b, out=c)),
           flops=2 * 1024 ** 3)
    # elementwise ops and activations on 4096x4096 f32, contiguous and
    # transposed (x.t(); binary ops take x.t() and y.t()), as bench_runtime.c
    e = 4096 * 4096
    x0 = torch.randn(4096, 4096)
    y0 = torch.randn(4096, 4096)
    pos = x0.abs() * 0.5 + 0.5
    F = torch.nn.functional
    ew = [("add", torch.add, 2), ("mul", torch.mul, 2), ("mul_scalar", lambda t: t * 1.5, 1),
          ("exp", torch.exp, 1), ("silu", F.silu, 1), ("gelu", F.gelu, 1),
          ("sigmoid", torch.sigmoid, 1), ("tanh", torch.tanh, 1), ("rsqrt", torch.rsqrt, 1)]
    bias = torch.randn(4096)
    cases = [("add_broadcast_f32", lambda: x0 + bias, e * 8 + 4096 * 4)]
    for layout in ("contiguous", "transposed"):
        for name, fn, arity in ew:
            u = pos if name == "rsqrt" else x0
            v = y0
            if layout == "transposed":
                u, v = u.t(), v.t()
            call = (lambda f=fn, u=u, v=v: f(u, v)) if arity == 2 else (lambda f=fn, u=u: f(u))
            cases.append((f"{name}_{layout}_f32", call, (arity + 1) * e * 4))
    # in interleaved rounds, as bench_runtime.c times them
    for _, call, _ in cases:
        call()
    times = [[] for _ in cases]
    for _ in range(ROUNDS):
        for k, (_, call, _) in enumerate(cases):
            t0 = time.perf_counter()
            call()
            times[k].append(time.perf_counter() - t0)
    for (case, _, moved), t in zip(cases, times):
        t.sort()
        report(case, t[ROUNDS // 2], moved)

if __name__ == "__main__":
    main()
