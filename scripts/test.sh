#!/usr/bin/env bash
# Install what is needed, build everything with AddressSanitizer and
# UndefinedBehaviorSanitizer and run every test; then, where the CUDA
# toolkit is installed, build again with the CUDA runtime (sanitizers and
# the CUDA driver do not mix) and run the runtime's tests there too: GPU
# tests report Skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# the language server's Node client (tests/lsp/vscode), pinned by its package-lock.json
npm ci --prefix tests/lsp/vscode --no-audit --no-fund --loglevel=error
# the memory page's browser test (tests/browser): puppeteer-core, pinned, driving
# the system's chromium (it downloads no browser of its own)
PUPPETEER_SKIP_DOWNLOAD=1 npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTL_SANITIZE=ON >/dev/null
cmake --build build-asan
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan --output-on-failure -j 2
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "== the CUDA build (nvcc found)"
  cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTL_ENABLE_CUDA=ON >/dev/null
  cmake --build build-cuda
  # The analyzer does not depend on the build's CUDA option: its tests ran
  # above. Here, every test that runs the runtime (unit, verify, samples,
  # the emulated device, GPU tests where a GPU is usable).
  ctest --test-dir build-cuda --output-on-failure -j 2 \
    -LE '^(interp|checks|diagrams|lsp|browser|install|golden|fuzz|frontend|soundness|multifile|cli|bad-input)$'
fi
