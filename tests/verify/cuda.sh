#!/usr/bin/env bash
# verify on CUDA: every sample and every CUDA program of tests/checks agrees
# fully, allocator blocks and peaks included.  Without a GPU, verify runs
# them on the emulated device by itself and says so; with one, on the GPU.
# The emulated kernels run as host code (slow in a sanitized debug build),
# so each program gets ten minutes.   tests/verify/cuda.sh TENSORLINT
set -uo pipefail
tool=$1
cd "$(dirname "$0")/../.."

# shellcheck source=../lib/expect.sh
EXPECT_TIMEOUT=660
source tests/lib/expect.sh

agree="verify: .* 0 disagreements(, [0-9]+ totals? not compared \\(not bounded\\))?(, [0-9]+ bounds? on the side claimed)?(, [0-9]+ execution counts? not compared \\(not exact\\))?$"
gpu_usable() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }
cuda_run() {
  local name=$1 rc=$2 pattern=$3
  shift 4
  local out got
  out=$(timeout "$EXPECT_TIMEOUT" "$@" 2>&1)
  got=$?
  if [ "$got" -eq "$rc" ] && grep -qE -- "$pattern" <<<"$out" &&
     grep -q "^  CUDA allocated peak: " <<<"$out" &&
     { gpu_usable || grep -qx "CUDA emulated on the host: allocator bytes compared, kernel times not" <<<"$out"; }; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL cuda $name: exit $got (want $rc, /$pattern/, the CUDA lines), output:"
    tail -25 <<<"$out"
  fi
}
for f in samples/worksheet/*.c samples/models/*.c tests/checks/channels_first_conv.c \
         tests/checks/clean_conv_nhwc.c tests/checks/clean_mixed_precision.c \
         tests/checks/tiny_cuda_tensor.c; do
  args=()
  case $f in
    */block3.c) set -- -DSEQ=64 -DVOCAB=2000 -DHIDDEN=512 ;;
    *) set -- ;;
  esac
  cuda_run "$f" 0 "$agree" -- "$tool" verify --timeout=600 "${args[@]}" "$f" -- -DDEVICE=TL_CUDA "$@"
done
# the branch's arms on the caching allocator: the run that takes the arm the
# analysis kept, and the one that takes the other
cuda_run "branch.c (scaled)" 0 "$agree" -- \
  "$tool" verify --timeout=600 --arg=scaled samples/models/branch.c -- -DDEVICE=TL_CUDA
cuda_run "branch.c (other arm)" 0 "$agree" -- \
  "$tool" verify --timeout=600 samples/models/branch.c -- -DDEVICE=TL_CUDA

# Without emulation and without a GPU, a CUDA program fails with the clear error.
if ! gpu_usable; then
  TL_CUDA_EMULATION=0 expect no-emulation 1 "a TL_CUDA tensor needs a CUDA device, and none is usable" -- \
    "$tool" verify samples/worksheet/block2.c
fi

expect_summary "verify on CUDA"
