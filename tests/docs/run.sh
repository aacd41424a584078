#!/usr/bin/env bash
# The pages' examples (README.md): the .t files must be those extract.py
# writes from the pages, then cram runs them all.
#   tests/docs/run.sh CRAM TENSORLINT SOURCE_DIR BUILD_DIR
set -euo pipefail
cram=$1 tool=$2 src=$3 build=$4
python3 "$src/tests/docs/extract.py" "$src" --check
export TL_TOOL=$tool TL_BUILD_DIR=$build
# the examples' output is the tool's own: no colour, the C locale's messages
export NO_COLOR=1 LC_ALL=C
exec "$cram" --shell=/bin/bash "$src"/tests/docs/*.t
