#!/usr/bin/env bash
# llama2.c's run.c against the project's port of it (samples/llama2/run.c),
# on the same random checkpoint of stories15M's sizes (dim 288, FFN 768,
# 6 layers, 6 heads, 6 KV heads, vocabulary 32000, 256 positions; written
# by samples/llama2/make_model.py, with its tokenizer).  run.c is never part
# of the repository: give a copy of llama2.c (a directory holding run.c, or
# a git directory whose HEAD has it) as the argument or in LLAMA2C.  It is
# built as its Makefile's runomp (-Ofast -march=native -fopenmp); the port
# against the runtime in a Release build.  The two run alternately, ROUNDS
# times each, THREADS threads each, the same options and seed; each round's
# texts must be equal.  Prints both programs' "achieved tok/s" (their own
# measure: every token after the first) as median, min and max, their
# ratio, and the load average before and after (the machine is shared).
# usage: bench/llama2c.sh LLAMA2C_DIR [BUILD_DIR] [THREADS] [ROUNDS] [STEPS]
#   env: LLAMA2C (instead of the first argument), LLAMA2C_ARGS (options of
#   both programs; default "-t 1.0 -p 0.9 -s 42")
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-${LLAMA2C:-}}
build=${2:-build-release}
threads=${3:-2}
rounds=${4:-9}
steps=${5:-256}
opts=${LLAMA2C_ARGS:--t 1.0 -p 0.9 -s 42}
if [ -z "$src" ]; then
  echo "usage: bench/llama2c.sh LLAMA2C_DIR [BUILD_DIR] [THREADS] [ROUNDS] [STEPS]" >&2
  exit 2
fi
# shellcheck source=lib.sh
source bench/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -f "$src/run.c" ]; then
  cp "$src/run.c" "$work/run.c"
elif ! git --git-dir="$src" show HEAD:run.c >"$work/run.c" 2>/dev/null; then
  echo "llama2c.sh: no run.c in $src (a llama2.c checkout or its git directory)" >&2
  exit 2
fi
${CC:-cc} -Ofast -fopenmp -march=native "$work/run.c" -lm -o "$work/runomp"
bench_build "$build" sample_llama2_run samples/sample_llama2_run
port=$(realpath "$build/samples/sample_llama2_run")
# the checkpoint (61 MB) is kept in the build directory: writing it takes a while
model="$build/bench-llama2"
mkdir -p "$model"
if [ ! -f "$model/stories15M-random.bin" ] || [ samples/llama2/make_model.py -nt "$model/stories15M-random.bin" ]; then
  python3 samples/llama2/make_model.py "$model/stories15M-random.bin" "$model/tokenizer.bin"
fi
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads
# shellcheck disable=SC2086
python3 - "$work/runomp" "$port" "$model/stories15M-random.bin" "$model/tokenizer.bin" \
  "$rounds" "$steps" "$threads" $opts <<'PY'
import os, re, statistics, subprocess, sys
runc, port, ckpt, tok, rounds, steps, threads, *opts = sys.argv[1:]
rounds = int(rounds)

def once(prog):
    p = subprocess.run([prog, ckpt, "-z", tok, "-n", steps, *opts], capture_output=True, check=True)
    m = re.search(rb"achieved tok/s: ([0-9.]+)", p.stderr)
    return float(m.group(1)), p.stdout

load0 = os.getloadavg()
once(runc), once(port)  # warm-up: the page cache
speed = {"run.c": [], "port": []}
texts = {"run.c": set(), "port": set()}
for r in range(rounds):
    for name, prog in (("run.c", runc), ("port", port)) if r % 2 == 0 else (("port", port), ("run.c", runc)):
        s, out = once(prog)
        speed[name].append(s)
        texts[name].add(out)
load1 = os.getloadavg()
print(f"\nllama2.c run.c (runomp) vs samples/llama2/run.c: {steps} steps, {threads} thread(s), "
      f"options {' '.join(opts)}, {rounds} alternating rounds; load average "
      f"{load0[0]:.2f} before, {load1[0]:.2f} after\n")
print("| program | median tok/s | min | max |")
print("|---|---|---|---|")
for name, v in speed.items():
    print(f"| {name} | {statistics.median(v):.1f} | {min(v):.1f} | {max(v):.1f} |")
ratio = statistics.median(speed["port"]) / statistics.median(speed["run.c"])
same = len(texts["run.c"] | texts["port"]) == 1
print(f"\nport / run.c: {ratio:.2f}x; generated text {'identical in every run' if same else 'DIFFERS'}", end="")
a, b = next(iter(texts["run.c"])), next(iter(texts["port"]))
if same:
    print(f" ({len(a)} bytes)")
else:
    first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    print(f": first at byte {first} of {len(a)} (run.c) / {len(b)} (port); "
          f"{len(texts['run.c'])} and {len(texts['port'])} distinct texts over the runs")
sys.exit(0 if same else 1)
PY
