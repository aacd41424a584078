#!/usr/bin/env bash
# Golden tests: `tensorlint report` (text and JSON) of every sample, and of
# the programs in tests/golden/, must equal the committed output in tests/golden/.  Run from anywhere:
#   tests/golden/run.sh TENSORLINT_BINARY [--bless]
# --bless rewrites the expected files (review the diff before committing).
set -uo pipefail
tool=$(realpath "$1")
bless=${2:-}
cd "$(dirname "$0")/../.."
failed=0 n=0
for sample in samples/worksheet/*.c samples/labs/*.c samples/models/*.c tests/golden/*.c; do
  base=tests/golden/$(echo "${sample#samples/}" | tr / _)
  [ "${sample#tests/golden/}" != "$sample" ] && base=$sample # (the tests' own programs)
  base=${base%.c}
  fmts="text json"
  [ "$base" = "${sample%.c}" ] && fmts="text json markdown" # (the tests' own programs)
  for fmt in $fmts; do
    ext=$(case $fmt in text) echo txt ;; json) echo json ;; *) echo md ;; esac)
    if [ $fmt = json ]; then # compact on the wire; indented here so diffs are readable
      got=$("$tool" report --format=json "$sample" 2>&1 | python3 -m json.tool)
    else
      got=$("$tool" report --format=$fmt "$sample" 2>&1)
    fi
    n=$((n + 1))
    if [ "$bless" = "--bless" ]; then
      printf '%s\n' "$got" >"$base.$ext"
    elif ! diff -u "$base.$ext" <(printf '%s\n' "$got") >/tmp/golden.diff.$$; then
      echo "FAIL: $sample ($fmt)"
      head -40 /tmp/golden.diff.$$
      failed=$((failed + 1))
    fi
  done
done
rm -f /tmp/golden.diff.$$
echo "golden: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
