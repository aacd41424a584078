#!/usr/bin/env bash
# Golden tests of the diagrams.  For every sample (samples/**/*.c; not the
# files of samples/multifile, one program analysed with -p) and every
# input here (tests/diagrams/*.c), three outputs must equal the committed
# files in tests/diagrams/golden/:
#   NAME.graph.dot       tensorlint graph FILE                  (DOT, before layout)
#   NAME.lifetimes.dot   tensorlint lifetimes FILE              (DOT, before layout)
#   NAME.lifetimes.txt   tensorlint lifetimes --format=text --width=100 FILE
# NAME is the path under samples/ or tests/ with "/" as "_".  Each command
# must exit 0 or 1 (1: the program has errors) and print nothing on stderr.
#   tests/diagrams/run.sh TENSORLINT [--bless]
# --bless rewrites the expected files (review the diff before committing).
set -uo pipefail
tool=$(realpath "$1")
bless=${2:-}
cd "$(dirname "$0")/../.."
golden=tests/diagrams/golden
mkdir -p "$golden"
failed=0 n=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT

check() { # check NAME.EXT COMMAND...
  local want=$golden/$1 got rc
  shift
  got=$("$@" 2>"$err")
  rc=$?
  n=$((n + 1))
  if [ $rc -gt 1 ] || [ -s "$err" ]; then
    echo "FAIL: $* exited $rc:"
    head -5 "$err"
    failed=$((failed + 1))
  elif [ "$bless" = "--bless" ]; then
    printf '%s\n' "$got" >"$want"
  elif ! diff -u "$want" <(printf '%s\n' "$got") >"$err.diff"; then
    echo "FAIL: $want differs from $*:"
    head -40 "$err.diff"
    failed=$((failed + 1))
  fi
  rm -f "$err.diff"
}

for input in $(find samples -name '*.c' -not -path 'samples/multifile/*' | sort) tests/diagrams/*.c; do
  [ "$(basename "$input")" = test_dg.c ] && continue
  name=${input#samples/}
  name=${name#tests/}
  name=$(echo "${name%.c}" | tr / _)
  if grep -q 'tl_' "$input"; then
    check "$name.graph.dot" "$tool" graph "$input"
    check "$name.lifetimes.dot" "$tool" lifetimes "$input"
    check "$name.lifetimes.txt" "$tool" lifetimes --format=text --width=100 "$input"
  fi
done
echo "diagrams golden: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
