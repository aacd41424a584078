#!/usr/bin/env bash
# The repository's .pre-commit-hooks.yaml, run for real by pre-commit
# (Debian's package): a project that uses the hook, with a file holding an
# error and a clean one.  The hook must fail on the error, pass on the
# clean file, and pass its arguments through.  Exit 77 (ctest: skipped)
# only when pre-commit is not installed.  Run from anywhere:
#   tests/ci/pre_commit.sh TENSORLINT
set -uo pipefail
command -v pre-commit >/dev/null || { echo "pre-commit is not installed: skipped"; exit 77; }
tool=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$root/tests/lib/expect.sh"
export PATH="$(dirname "$tool"):$PATH" PRE_COMMIT_HOME="$work/cache" HOME="$work"
git() { command git -c user.name=t -c user.email=t@t -c init.defaultBranch=main \
          -c commit.gpgsign=false "$@"; }

# the hook's repository: tensorlint's hooks file, as committed at a revision
mkdir "$work/hooks" && cp "$root/.pre-commit-hooks.yaml" "$work/hooks/"
(cd "$work/hooks" && git init -q && git add . && git commit -qm hooks)
rev=$(cd "$work/hooks" && git rev-parse HEAD)

# the project that uses it
mkdir "$work/project" && cd "$work/project" && git init -q
cp "$root/tests/checks/clean_mlp.c" clean.c
cp "$root/tests/checks/errors.c" broken.c
cp "$root/tests/checks/hidden_copy.c" copies.c
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $rev
    hooks:
      - id: tensorlint-check
YAML
git add . && git commit -qm project --no-verify
expect hook_fails_on_error 1 'broken.c:[0-9]+:[0-9]+: error: .*\[shape-mismatch\]' -- \
  pre-commit run tensorlint-check --files broken.c
expect hook_passes_clean 0 'tensorlint check\.+Passed' -- pre-commit run tensorlint-check --files clean.c
expect hook_passes_warnings 0 'tensorlint check\.+Passed' -- pre-commit run tensorlint-check --files copies.c
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $rev
    hooks:
      - id: tensorlint-check
        args: [--warnings-as-errors=hidden-copy]
YAML
expect hook_args 1 'copies.c:[0-9]+:[0-9]+: error: .*\[hidden-copy,-warnings-as-errors\]' -- \
  pre-commit run tensorlint-check --files copies.c
expect_summary "pre-commit hook"
