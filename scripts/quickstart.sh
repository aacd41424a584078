#!/usr/bin/env bash
# Quick start: install what is needed, build, and run the main job on the
# bundled sample: the memory accounting of the seed worksheet's Block 1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
build/tools/tensorlint report samples/worksheet/block1.c
