#!/usr/bin/env bash
# Bad input to the review commands: a baseline that is not a report, is of
# another schema, is an older report without the fields baselines pair on,
# or names other files; malformed budgets; --baseline where it does not
# apply.  Each is a clear error with exit status 2, and nothing is written
# (no -o file, nothing on stdout).  Run from anywhere:
#   tests/baseline/bad_input.sh TENSORLINT
set -uo pipefail
tool=$(realpath "$1")
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
source tests/lib/expect.sh

# nothing_written NAME -- command... (it writes -o $work/out): exit 2, no file, empty stdout
nothing_written() {
  local name=$1
  shift 2
  rm -f "$work/out"
  local out
  out=$(timeout 120 "$@" 2>/dev/null)
  local rc=$?
  if [ $rc -eq 2 ] && [ ! -e "$work/out" ] && [ -z "$out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $rc (want 2), out file $([ -e "$work/out" ] && echo written || echo absent), stdout '${out:0:200}'"
  fi
}

cp tests/baseline/clone.head.c "$work/clone.c"
cp tests/baseline/rename.head.c "$work/rename.c"
(cd "$work" && "$tool" report --format=json clone.c >good.json)
echo 'not json {' >"$work/garbage.json"
echo '{}' >"$work/empty.json"
echo '{"schema": 4, "functions": [], "diagnostics": []}' >"$work/schema2.json"
"$tool" check --format=sarif tests/checks/hidden_copy.c >"$work/sarif.json" 2>/dev/null
python3 - "$work" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/good.json"))
for x in d["diagnostics"]:
    x.pop("call", None); x.pop("function", None)
json.dump(d, open(sys.argv[1] + "/old.json", "w"))
d = json.load(open(sys.argv[1] + "/good.json"))
d["functions"][0]["peak_live_bytes"] = "n * 4"
json.dump(d, open(sys.argv[1] + "/badfield.json", "w"))
PY

cd "$work"
for cmd in check report; do
  fmt=$([ $cmd = report ] && echo --format=markdown || echo --format=text)
  expect ${cmd}_not_json 2 "garbage.json: is not JSON" -- "$tool" $cmd $fmt --baseline=garbage.json clone.c
  expect ${cmd}_not_report 2 "empty.json: not a tensorlint report" -- "$tool" $cmd $fmt --baseline=empty.json clone.c
  expect ${cmd}_sarif 2 "sarif.json: not a tensorlint report" -- "$tool" $cmd $fmt --baseline=sarif.json clone.c
  expect ${cmd}_schema 2 "schema2.json: a report of another schema \(\"schema\": 4\)" -- "$tool" $cmd $fmt --baseline=schema2.json clone.c
  expect ${cmd}_old 2 "old.json: its diagnostics carry no \"call\"" -- "$tool" $cmd $fmt --baseline=old.json clone.c
  expect ${cmd}_bad_field 2 "peak_live_bytes\" or \"moved_bytes\" is not an integer" -- "$tool" $cmd $fmt --baseline=badfield.json clone.c
  expect ${cmd}_missing 2 "nothere.json: cannot be read" -- "$tool" $cmd $fmt --baseline=nothere.json clone.c
  expect ${cmd}_directory 2 "--baseline=\.: cannot be read \(Is a directory\)" -- "$tool" $cmd $fmt --baseline=. clone.c
  expect ${cmd}_other_files 2 "good.json is the report of other files \(clone.c\)" -- "$tool" $cmd $fmt --baseline=good.json rename.c
  for b in garbage empty sarif schema2 old badfield nothere; do
    nothing_written ${cmd}_${b}_writes_nothing -- "$tool" $cmd $fmt --baseline=$b.json -o "$work/out" clone.c
  done
  nothing_written ${cmd}_other_writes_nothing -- "$tool" $cmd $fmt --baseline=good.json -o "$work/out" rename.c
done
expect check_sarif_format_bad 2 "not a tensorlint report" -- "$tool" check --format=sarif --baseline=empty.json clone.c
expect report_baseline_needs_markdown 2 "go with --format=markdown" -- "$tool" report --baseline=good.json clone.c
expect report_diagrams_needs_markdown 2 "go with --format=markdown" -- "$tool" report --format=json --diagrams=d clone.c
expect budget_no_equals 2 "--budget wants FUNCTION=BYTES" -- "$tool" check --budget=main clone.c
expect budget_bad_bytes 2 "'lots' is not a byte count" -- "$tool" check --budget=main=lots clone.c
expect budget_empty_name 2 "--budget wants FUNCTION=BYTES" -- "$tool" check --budget==5MiB clone.c
expect budget_unknown_function 0 "--budget=mian=...: no function 'mian' with tensor code" -- \
  "$tool" check --budget=mian=1K clone.c
expect regression_bad_bytes 2 "'-1' is not a byte count" -- "$tool" check --baseline=good.json --regression-min-bytes=-1 clone.c
# the good baseline works: nothing new against itself
expect self_baseline 0 "0 new, 2 unchanged \(not shown\), 0 gone since the base" -- "$tool" check --baseline=good.json clone.c
# several files: one the baseline does not name is all new, in text and SARIF
cp "$root/tests/checks/hidden_copy.c" "$work/hidden_copy.c"
expect unnamed_file_new 0 "hidden_copy.c: baseline: no base report names this file: every diagnostic is new" -- \
  "$tool" check --baseline=good.json clone.c hidden_copy.c
expect unnamed_file_counts 0 "baseline good.json: [1-9][0-9]* new, 2 unchanged" -- \
  "$tool" check --baseline=good.json clone.c hidden_copy.c
expect unnamed_file_sarif 0 '"baselineState": "new"' -- \
  "$tool" check --format=sarif --baseline=good.json hidden_copy.c clone.c
expect_summary "baseline bad input"
