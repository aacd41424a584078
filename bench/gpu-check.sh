#!/usr/bin/env bash
# bench/gpu-check.sh: everything that needs a GPU, in one run (docs/cuda.md).
#
#   bench/gpu-check.sh [--build-dir DIR] [RESULT]     run the check
#   bench/gpu-check.sh [--build-dir DIR] --prepare    build only (no GPU needed)
#
# 1. Build Release with CUDA (DIR, default build-gpu) and gather a bundle
#    (DIR/bundle: the GPU test programs, the worksheet samples built for
#    TL_CUDA, the bandwidth program, libtensorlint and the libraries it needs
#    beyond the system's), unless DIR/bundle already exists: a machine lent
#    for GPU work may lack the project's build dependencies (libclang,
#    graphviz, cmocka ...), so the bundle can be built here and carried.
# 2. The gpu-labelled tests: every op against the CPU, the caching allocator
#    against the policy, the worksheet blocks at full size against the
#    analyzer's predictions (ctest -L gpu in a native build, else the bundle's
#    programs; exit 77 is "skipped").
# 3. The worksheet samples on CUDA with the allocation trace (TL_TRACE): the
#    trace's live/peak bytes and the caching allocator's peaks against
#    tests/golden/worksheet_*.json.
# 4. Copy and cast bandwidth on the device (bench/gpu_bandwidth.c).
# 5. If python3 has torch with CUDA: PyTorch's own caching allocator on the
#    worksheet blocks, to compare with tensorlint's policy (reference only).
# Everything is printed and written to RESULT (default $OUT/gpu-check.txt,
# or ./gpu-check.txt when OUT is unset).  Exit status: 0 when every check
# passed or skipped, 1 otherwise.  Budget: well under five minutes on an H200
# once built (the build takes about a minute on 16 cores).
#
# On this workplace's lent machine:
#   here:    bench/gpu-check.sh --prepare
#   device:  run(command="bench/gpu-check.sh", carry=["build-gpu/bundle"], timeout_s=400)
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build-gpu
PREPARE=0
RESULT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prepare) PREPARE=1 ;;
    --build-dir) BUILD=$(realpath -m "$2"); shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -*) echo "gpu-check: unknown option $1" >&2; exit 2 ;;
    *) RESULT=$1 ;;
  esac
  shift
done
BUNDLE=$BUILD/bundle
RESULT=${RESULT:-${OUT:-.}/gpu-check.txt}
TESTS="test_gpu_ops test_gpu_alloc test_gpu_worksheet"
SAMPLES="block1 block1_release block2 block3 stretch"

# ---- build and bundle ----

build() {
  local targets="tensorlint gpu_bandwidth $TESTS"
  for s in $SAMPLES; do targets="$targets sample_cuda_worksheet_$s"; done
  mkdir -p "$BUILD"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTL_ENABLE_CUDA=ON \
    -DTL_SANITIZE=OFF >"$BUILD/configure.log" 2>&1 \
    || { tail -20 "$BUILD/configure.log"; echo "gpu-check: configure failed" >&2; return 1; }
  grep -q '^TL_HAVE_CUDA:INTERNAL=ON' "$BUILD/CMakeCache.txt" \
    || { echo "gpu-check: CMake found no CUDA compiler" >&2; return 1; }
  cmake --build "$BUILD" --target $targets || return 1
}

# Libraries a binary needs that are not the C runtime, CUDA's, or the GPU driver's.
extra_libs() {
  ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda[^/]*|libnvidia[^/]*)\.so' |
    grep -v '/usr/local/cuda' || true
}

bundle() {
  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/bin" "$BUNDLE/lib"
  for t in $TESTS gpu_bandwidth; do cp "$BUILD/tests/$t" "$BUNDLE/bin/"; done
  for s in $SAMPLES; do cp "$BUILD/tests/sample_cuda_worksheet_$s" "$BUNDLE/bin/"; done
  cp -P "$BUILD"/runtime/libtensorlint.so* "$BUNDLE/lib/"
  for lib in $(extra_libs "$BUNDLE"/bin/* "$BUILD/runtime/libtensorlint.so"); do
    case "$lib" in *libtensorlint*) continue ;; esac
    cp -L "$lib" "$BUNDLE/lib/"
  done
  echo "gpu-check: bundle in $BUNDLE ($(du -sh "$BUNDLE" | cut -f1))"
}

if [ "$PREPARE" = 1 ]; then
  build && bundle
  exit $?
fi

NATIVE=0
if [ ! -x "$BUNDLE/bin/test_gpu_ops" ]; then
  echo "gpu-check: no bundle in $BUNDLE: building here"
  build && bundle || exit 1
  NATIVE=1
fi
# The bundle's libraries first; CUDA's own (cudart, and cuBLAS, which
# libtensorlint opens at the first matmul) from the toolkit when it is there.
CUDA_LIB=""
[ -d /usr/local/cuda/lib64 ] && CUDA_LIB=/usr/local/cuda/lib64
export LD_LIBRARY_PATH="$BUNDLE/lib${CUDA_LIB:+:$CUDA_LIB}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TL_SOURCE_DIR="$ROOT" OPENBLAS_NUM_THREADS=1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FAILED=0
NO_GPU=0
"$BUNDLE/bin/gpu_bandwidth" --probe >"$WORK/probe.log" 2>&1 || NO_GPU=1

# ---- the checks ----

section_machine() {
  echo "# tensorlint GPU check, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
       "$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo '(with local changes)')"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory \
    --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /' || echo "gpu: nvidia-smi not available"
  echo "bundle: $BUNDLE (native build: $NATIVE)"
  echo "device: $(cat "$WORK/probe.log")"
  echo
}

section_tests() {
  echo "## GPU tests"
  echo
  if [ "$NATIVE" = 1 ] && [ -f "$BUILD/CTestTestfile.cmake" ]; then
    timeout 600 ctest --test-dir "$BUILD" -L gpu -V || FAILED=1
    echo
    return
  fi
  echo "| test | result | seconds |"
  echo "|---|---|---:|"
  for t in $TESTS; do
    local start=$SECONDS rc
    timeout 300 "$BUNDLE/bin/$t" >"$WORK/$t.log" 2>&1
    rc=$?
    case $rc in
      0) r=passed ;; 77) r=skipped ;; 124) r="TIMEOUT"; FAILED=1 ;;
      *) r="FAILED ($rc)"; FAILED=1 ;;
    esac
    echo "| $t | $r | $((SECONDS - start)) |"
  done
  for t in $TESTS; do
    echo; echo "### $t"; echo; echo '```'; tail -40 "$WORK/$t.log"; echo '```'
  done
  echo
}

section_samples() {
  echo "## Worksheet samples on CUDA, with the allocation trace"
  echo
  if [ "$NO_GPU" = 1 ]; then
    echo "skipped: no usable CUDA device"; echo
    return
  fi
  for s in $SAMPLES; do
    TL_TRACE="$WORK/trace_$s.jsonl" timeout 120 "$BUNDLE/bin/sample_cuda_worksheet_$s" \
      >"$WORK/sample_$s.log" 2>&1 || { echo "sample $s failed:"; cat "$WORK/sample_$s.log"; FAILED=1; }
  done
  python3 - "$ROOT" "$WORK" $SAMPLES <<'EOF' || FAILED=1
import json, sys
root, work, samples = sys.argv[1], sys.argv[2], sys.argv[3:]
keys = [("peak_live_bytes", "peak_bytes"), ("end_live_bytes", "live_bytes"),
        ("cuda_allocated_peak_bytes", "cuda_allocated_peak"),
        ("cuda_reserved_peak_bytes", "cuda_reserved_peak")]
print("| sample | what | predicted | measured | |")
print("|---|---|---:|---:|---|")
bad = 0
for s in samples:
    try:
        recs = [json.loads(l) for l in open(f"{work}/trace_{s}.jsonl")]
    except OSError:
        print(f"| {s} | no trace | | | FAIL |"); bad += 1; continue
    ex = [r for r in recs if r.get("ev") == "exit"]
    allocs = [r for r in recs if r.get("ev") == "alloc" and r.get("device") == "cuda"]
    want = json.load(open(f"{root}/tests/golden/worksheet_{s}.json"))["functions"][0]
    if not ex:
        print(f"| {s} | no exit record | | | FAIL |"); bad += 1; continue
    for pk, tk in keys:
        ok = want[pk] == ex[0][tk]
        bad += not ok
        print(f"| {s} | {pk} | {want[pk]} | {ex[0][tk]} | {'ok' if ok else 'DIFFERS'} |")
    segs = sorted({a["segment"] for a in allocs if a["segment"]})
    print(f"| {s} | allocs / segments used | | {len(allocs)} / {len(segs)} | |")
sys.exit(1 if bad else 0)
EOF
  echo
}

section_bandwidth() {
  echo "## Copy and cast bandwidth"
  echo
  timeout 120 "$BUNDLE/bin/gpu_bandwidth"
  case $? in 0|77) ;; *) FAILED=1 ;; esac
  echo
}

section_torch() {
  echo "## PyTorch's caching allocator on the worksheet blocks (reference)"
  echo
  if [ "$NO_GPU" = 1 ]; then
    echo "skipped: no usable CUDA device"; echo
    return
  fi
  timeout 120 python3 - 2>"$WORK/torch.err" <<'EOF' \
    || echo "skipped: torch with CUDA not usable ($(tail -1 "$WORK/torch.err"))"
import torch
assert torch.cuda.is_available()
def stats(fn):
    torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    keep = fn(); torch.cuda.synchronize()
    s = torch.cuda.memory_stats()
    del keep
    return s["allocated_bytes.all.peak"], s["reserved_bytes.all.peak"]
def block1():
    x = torch.randn(16, 1024, 4096, dtype=torch.float16, device="cuda")
    b = x.transpose(1, 2).contiguous(); d = b.reshape(16 * 4096, 1024).to(torch.float32)
    return x, b, d, d[:, :512].clone()
def block1_release():
    x = torch.randn(16, 1024, 4096, dtype=torch.float16, device="cuda")
    b = x.transpose(1, 2).contiguous(); del x
    d = b.reshape(16 * 4096, 1024).to(torch.float32)
    return b, d, d[:, :512].clone()
def stretch():
    x = torch.randn(16, 1024, 4096, dtype=torch.float16, device="cuda")
    f = x.transpose(1, 2)[:, :, :512].contiguous(); del x
    return None
def block2():
    w = torch.randn(4096, 4096, dtype=torch.bfloat16, device="cuda")
    h = torch.randn(8, 4096, dtype=torch.bfloat16, device="cuda")
    y = h @ w.t(); q = y.view(2, 4, 4096).permute(1, 0, 2).reshape(4, 8192)
    return w, h, y, q
def block3():
    ids = torch.randint(0, 32000, (4, 2048), device="cuda")
    emb = torch.randn(32000, 4096, dtype=torch.bfloat16, device="cuda")
    hidden = emb[ids].float()
    w_out = torch.randn(4096, 32000, dtype=torch.float32, device="cuda")
    return ids, emb, hidden, w_out, hidden @ w_out
print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
print()
print("| block | allocated peak | reserved peak |")
print("|---|---:|---:|")
for fn in (block1, block1_release, block2, block3, stretch):
    a, r = stats(fn)
    print(f"| {fn.__name__} | {a} | {r} |")
print()
print("(matmul blocks include cuBLAS's workspace, which PyTorch takes from its allocator)")
EOF
  echo
}

# The sections run in this shell (FAILED must survive them); tee copies to RESULT.
exec 3>&1
exec > >(tee "$RESULT" >&3) 2>&1
TEE=$!
section_machine
section_tests
section_samples
section_bandwidth
section_torch
echo "gpu-check: $([ $FAILED = 0 ] && echo 'all checks passed or skipped' || echo 'SOME CHECKS FAILED')"
exec >&3 2>&3
wait $TEE 2>/dev/null
exit $FAILED
