#!/usr/bin/env bash
# Regenerate the diagrams shown in README.md and docs/diagrams.md
# (docs/images/*.svg) from the samples, with the built tensorlint.
#   scripts/render-docs-images.sh [TENSORLINT]   (default: build/tools/tensorlint)
# Run it after a change to the diagrams or to the samples they show, and
# commit the SVGs with that change.  Paths in the pictures are relative to
# the repository root, so it runs from there.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$(realpath "${1:-build/tools/tensorlint}")
out=docs/images
mkdir -p "$out"

render() { # render KIND SAMPLE NAME [options]
  local kind=$1 sample=$2 name=$3
  shift 3
  "$tool" "$kind" "$sample" -o "$out/$name.svg" "$@"
  echo "$out/$name.svg"
}

render graph samples/worksheet/block1.c block1-dataflow --no-checks
render graph samples/worksheet/block1.c block1-dataflow-checks
render lifetimes samples/worksheet/block1.c block1-lifetimes
render lifetimes samples/worksheet/block1_release.c block1-release-lifetimes
render lifetimes samples/models/layers40.c layers40-lifetimes
render graph samples/models/attention.c attention-dataflow
render lifetimes samples/models/decoder.c decoder-lifetimes --max-rows=24 --max-columns=40
render graph samples/models/gpt2_block.c gpt2-block-dataflow
render graph tests/diagrams/diags.c diagnostics-dataflow || [ $? -eq 1 ] # it has errors: exit 1
