#!/usr/bin/env bash
# Decoder benchmark: the llama2.c-style samples/checkpoint/decoder_ckpt.c,
# built against the CPU runtime in Release, on a checkpoint of a larger
# configuration (llama2.c's stories15M sizes by default: dim 288, FFN 768,
# 6 layers, 6 heads, vocabulary 32000, 256 positions; weights from
# make_checkpoint.py), next to `tensorlint report`'s analysis time of the
# same file.  Prints the tokens per second (median of 3 runs of STEPS
# tokens, the checkpoint's loading included, as a user pays it) and the
# median wall time of 3 runs of `tensorlint report` (the symbolic report,
# no --bind), as a markdown table.
# usage: bench/decoder.sh [BUILD_DIR] [THREADS] [STEPS]
#   env: DECODER_CONFIG="DIM HIDDEN LAYERS HEADS VOCAB SEQ" to change the sizes
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
threads=${2:-$(nproc)}
steps=${3:-256}
config=${DECODER_CONFIG:-288 768 6 6 32000 256}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
bench_build "$build" sample_checkpoint_decoder_ckpt samples/sample_checkpoint_decoder_ckpt
prog=$(realpath "$build/samples/sample_checkpoint_decoder_ckpt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086
python3 samples/checkpoint/make_checkpoint.py "$work/model.bin" $config
export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
python3 - "$prog" "$work/model.bin" "$steps" "$tool" "$threads" "$config" <<'PY'
import os, statistics, subprocess, sys, time
prog, ckpt, steps, tool, threads, config = sys.argv[1:]
dim, hidden, layers, heads, vocab, seq = (int(v) for v in config.split())
steps = min(int(steps), seq)

def wall(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0

wall([prog, ckpt, str(steps)])  # warm-up: the page cache, the first touch
run = statistics.median(wall([prog, ckpt, str(steps)]) for _ in range(3))
report = statistics.median(wall([tool, "report", "samples/checkpoint/decoder_ckpt.c"]) for _ in range(3))
params = vocab * dim + 4 * layers * dim * dim + 3 * layers * hidden * dim
print(f"\ndecoder_ckpt.c: dim {dim}, FFN {hidden}, {layers} layers, {heads} heads, vocabulary {vocab}, "
      f"{params / 1e6:.1f}M parameters, {steps} tokens, {threads} thread(s)\n")
print("| program | run ms | tokens/s | `tensorlint report` ms |")
print("|---|---|---|---|")
print(f"| decoder_ckpt.c | {run * 1e3:.0f} | {steps / run:.1f} | {report * 1e3:.0f} |")
PY
