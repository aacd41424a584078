#!/usr/bin/env bash
# The CI set-ups of docs/ci.md, their commands run for real on a
# repository with two commits (the base adds nothing; the change adds a
# clone before the peak): the base's report from a git worktree of the
# base, the check against it as SARIF (validated against the SARIF 2.1.0
# schema, results with baselineState), the pull-request comment with its
# diagrams, and GitLab's code quality report (the fields GitLab reads,
# fingerprints that survive an edit above the issue).  Run from anywhere:
#   tests/ci/workflows.sh TENSORLINT SARIF_SCHEMA
set -uo pipefail
tool=$(realpath "$1")
schema=$(realpath "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$root/tests/lib/expect.sh"
# Graphviz and fontconfig keep caches for the process's life (as tests/diagrams does)
export LSAN_OPTIONS="suppressions=$root/tests/diagrams/lsan.supp:print_suppressions=0"
git() { command git -c user.name=t -c user.email=t@t -c init.defaultBranch=main \
          -c commit.gpgsign=false "$@"; }

mkdir -p "$work/repo/src" && cd "$work/repo" && git init -q
cp "$root/tests/baseline/clone.base.c" src/model.c
git add . && git commit -qm base
base=$(git rev-parse HEAD)
cp "$root/tests/baseline/clone.head.c" src/model.c
git commit -qam change

# GitHub: the base's report from a worktree, the check as SARIF, the comment
git worktree add -q ../base "$base"
(cd ../base && "$tool" report --format=json src/model.c >"$work/base.json")
expect gh_check 0 '^$|.' -- "$tool" check --baseline="$work/base.json" --format=sarif --srcroot=. \
  --doc-url=https://example.invalid/docs/checks/ -o tensorlint.sarif src/model.c
expect gh_comment 0 '▲ \+4 MiB \(was 12 MiB\)' -- "$tool" report --format=markdown \
  --baseline="$work/base.json" --diagrams=diagrams src/model.c
expect gh_comment_links 0 'main` lifetimes: \[diagrams/model.main.lifetimes.svg\]' -- \
  "$tool" report --format=markdown --baseline="$work/base.json" --diagrams=diagrams src/model.c
expect gh_diagrams 0 '<svg' -- head -c 2000 diagrams/model.main.dataflow.svg
expect gh_sarif_valid 0 'valid: 2 new, 1 unchanged, 0 absent' -- /usr/bin/python3 - "$schema" tensorlint.sarif <<'PY'
import json, sys, jsonschema
schema, log = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.validate(log, schema)
states = [r["baselineState"] for r in log["runs"][0]["results"]]
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
assert uris == {"src/model.c"}, uris
print(f"valid: {states.count('new')} new, {states.count('unchanged')} unchanged, {states.count('absent')} absent")
PY

# GitLab: code quality, then the new diagnostics in the log
expect gl_codequality 0 '^$|.' -- "$tool" check --format=codequality --srcroot=. \
  -o gl-code-quality-report.json src/model.c
expect gl_new_only 0 '2 new, 1 unchanged \(not shown\)' -- "$tool" check --baseline="$work/base.json" src/model.c
sed '1i /* a line added above everything */' src/model.c >src/moved.c && cp src/moved.c src/model.c
"$tool" check --format=codequality --srcroot=. -o moved.json src/model.c
expect gl_fields 0 'ok: 2 issues' -- /usr/bin/python3 - gl-code-quality-report.json moved.json <<'PY'
import json, sys
issues, moved = (json.load(open(p)) for p in sys.argv[1:3])
for i in issues:
    assert set(i) == {"description", "check_name", "fingerprint", "severity", "location"}, i
    assert i["severity"] in ("info", "minor", "major", "critical", "blocker"), i
    assert i["location"]["path"] == "src/model.c" and isinstance(i["location"]["lines"]["begin"], int)
assert len({i["fingerprint"] for i in issues}) == len(issues), "fingerprints not unique"
assert sorted(i["fingerprint"] for i in issues) == sorted(i["fingerprint"] for i in moved), \
    "a line added above changed the fingerprints"
assert [i["location"]["lines"]["begin"] + 1 for i in issues] == [i["location"]["lines"]["begin"] for i in moved]
print(f"ok: {len(issues)} issues")
PY
expect_summary "CI set-ups"
