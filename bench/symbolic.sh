#!/usr/bin/env bash
# Symbolic sizes: `tensorlint report` on programs whose sizes are read at
# run time, against `clang-14 -fsyntax-only` on the same file, and against
# the same report with every symbol bound (--bind: the concrete analysis).
# Files: the checkpoint decoders (samples/checkpoint/decoder_ckpt.c: sizes
# from an fread header, loops over steps and layers summarised;
# decoder_layers.c: the same with per-layer arrays filled and emptied in
# loops, summarised as segments) and 100 and
# 1,000 chained reshapes of run-time sizes (bench/gen_reshapes.py), with the
# longest formula of each report, to show the expressions stay bounded;
# and two whole programs, the llama2.c-style inference sample and the
# llm.c-style training sample (issue: at most 1.5x the parse).
# 9 rounds, the commands in turn; medians of wall and CPU time.
# usage: bench/symbolic.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_reshapes.py 100 >"$work/reshapes_100.c"
python3 bench/gen_reshapes.py 1000 >"$work/reshapes_1000.c"
python3 - "$tool" "$work" <<'PY'
import json, os, statistics, subprocess, sys, time
tool, work = sys.argv[1], sys.argv[2]
inc = os.path.join(os.getcwd(), "runtime", "include")

def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime

def rounds(cmds, n=9):
    got = [[] for _ in cmds]
    for _ in range(n):
        for k, c in enumerate(cmds):
            got[k].append(run(c))
    return [(statistics.median(w for w, _ in g), statistics.median(c for _, c in g)) for g in got]

def longest(f):
    rep = json.loads(subprocess.run([tool, "report", "--format=json", f], check=True,
                                    capture_output=True, text=True).stdout)
    strings = []
    def walk(x):
        if isinstance(x, str):
            strings.append(x)
        elif isinstance(x, list):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for k, y in x.items():
                if k not in ("name", "file", "message", "op", "why", "condition", "origin", "check"):
                    walk(y)
    walk(rep["functions"])
    return max((len(s) for s in strings), default=0), len(rep["assumptions"])

cases = [
    ("samples/checkpoint/decoder_ckpt.c",
     ["config.dim=64", "config.hidden_dim=176", "config.n_layers=2", "config.n_heads=4",
      "config.vocab_size=128", "config.seq_len=32", "steps=12"]),
    ("samples/checkpoint/decoder_layers.c",
     ["config.dim=64", "config.hidden_dim=176", "config.n_layers=2",
      "config.vocab_size=128", "config.seq_len=32", "steps=12"]),
    (os.path.join(work, "reshapes_100.c"), ["B=3", "S=5", "d=7"]),
    (os.path.join(work, "reshapes_1000.c"), ["B=3", "S=5", "d=7"]),
    # whole programs (no --bind column: their sizes are the checkpoint's, or concrete)
    ("samples/llama2/run.c", None),
    ("samples/train/train_gpt2.c", None),
]
print("| file | clang -fsyntax-only ms | report ms | ratio | ratio, CPU | all bound (--bind) ms | longest formula, chars | assumptions |")
print("|---|---|---|---|---|---|---|---|")
for f, binds in cases:
    cmds = [["clang-14", "-fsyntax-only", "-I", inc, f], [tool, "report", f]]
    if binds is not None:
        cmds.append([tool, "report"] + ["--bind=" + b for b in binds] + [f])
    (pw, pc), (tw, tc), *bound = rounds(cmds)
    chars, n_assume = longest(f)
    bw = f"{bound[0][0]*1e3:.1f}" if bound else "-"
    print(f"| {os.path.basename(f)} | {pw*1e3:.1f} | {tw*1e3:.1f} | {tw/pw:.2f}x | {tc/pc:.2f}x | "
          f"{bw} | {chars} | {n_assume} |")
PY
