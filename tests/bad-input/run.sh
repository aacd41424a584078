#!/usr/bin/env bash
# The bad-input catalogue (README.md): every input gets its exit code and
# its message, never a crash, a hang or a wrong number.  First the files of
# cases/ (each names its command, exit code and messages in its first
# lines), then what only a command line can say: missing and unreadable
# files, unknown options and commands, output files (written whole or not
# at all), a full disk.  ctest runs it on the sanitizer build.
#   tests/bad-input/run.sh TENSORLINT
set -uo pipefail
tool=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'chmod -R u+rwx "$work"; rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
source "$here/../lib/expect.sh"

# A case file: "// bad-input: ARGS" ({} is the file), then "// exit: N"
# and one "// message: ERE" per message that must appear; a file may hold
# several runs, each starting at its own "// bad-input:" line.
run_one() { # NAME FILE ARGS RC PATTERN...
  local name=$1 file=$2 args=$3 rc=$4
  shift 4
  local -a argv
  read -r -a argv <<<"${args//\{\}/$file}"
  if [ -z "$rc" ] || [ $# -eq 0 ]; then
    fail=$((fail + 1))
    echo "FAIL $name: '// bad-input: $args' has no '// exit:' or no '// message:' line"
    return
  fi
  for pattern in "$@"; do
    expect "$name: $args" "$rc" "$pattern" -- "$tool" "${argv[@]}"
  done
}
run_case() {
  local file=$1 name args="" rc="" line
  local -a patterns=()
  name=$(basename "$file" .c)
  while IFS= read -r line; do
    case $line in
      "// bad-input: "*)
        [ -n "$args" ] && run_one "$name" "$file" "$args" "$rc" "${patterns[@]}"
        args=${line#// bad-input: } rc="" patterns=() ;;
      "// exit: "*) rc=${line#// exit: } ;;
      "// message: "*) patterns+=("${line#// message: }") ;;
    esac
  done < <(grep -a '^// \(bad-input\|exit\|message\): ' "$file")
  if [ -z "$args" ]; then
    fail=$((fail + 1))
    echo "FAIL $name: no '// bad-input:' line"
    return
  fi
  run_one "$name" "$file" "$args" "$rc" "${patterns[@]}"
}

for f in "$here"/cases/*.c; do
  run_case "$f"
done

python3 - "$work/deep.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <tensorlint/tensor.h>\nint main(int argc, char **argv)\n{\n")
    f.write("    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);\n")
    f.write("".join("if (argc > %d) {\n" % i for i in range(200)))
    f.write("tl_tensor *y = tl_clone(x);\ntl_release(y);\n" + "}\n" * 200 + "return 0;\n}\n")
PY
# an else-if chain: parsed on a deep stack and lowered in a loop (clang's
# parser recurses once per arm); sized to take seconds under the sanitizers
python3 - "$work/chain.c" 400 <<'PY'
import sys
n = int(sys.argv[2])
with open(sys.argv[1], "w") as f:
    f.write("#include <tensorlint/tensor.h>\nint main(int argc, char **argv)\n{\n")
    f.write("    (void)argv;\n    int k = 0;\n    if (argc == 0)\n        k = 1;\n")
    f.write("".join("    else if (argc == %d)\n        k = %d;\n" % (i, i + 1) for i in range(1, n)))
    f.write("    tl_tensor *t = tl_ones(TL_SHAPE(k + 1, 4), TL_F32, TL_CPU);\n")
    f.write("    tl_release(t);\n    return 0;\n}\n")
PY
printf '#include <tensorlint/tensor.h>\nint main(void) { return 0; }\n' >"$work/empty.c"
expect missing-file 2 "no such file" -- "$tool" report "$work/none.c"
expect directory 2 "is a directory, not a C file" -- "$tool" report "$work"
expect unknown-option 2 "unrecognized option" -- "$tool" report --bogus "$work/empty.c"
expect option-after-file 2 "unrecognized option" -- "$tool" report "$work/empty.c" --bogus
expect unknown-command 2 "unknown command" -- "$tool" frobnicate
expect mistyped-command 2 "unknown command 'reprot'; did you mean 'report'\\?" -- "$tool" reprot "$work/empty.c"
expect version-short 0 "^tensorlint [0-9]+\\.[0-9]+" -- "$tool" -V
expect version-command 0 "^tensorlint [0-9]+\\.[0-9]+" -- "$tool" version
expect no-command 2 "usage" -- "$tool"
expect unknown-format 2 "unknown format" -- "$tool" report --format=xml "$work/empty.c"
expect bad-count 2 "not a non-negative whole number" -- "$tool" report --max-calls=-3 "$work/empty.c"
expect two-files 2 "expected one FILE" -- "$tool" report "$work/empty.c" "$work/empty.c"
expect deep-nesting 0 "peak: at most 32 B" -- "$tool" report "$work/deep.c"
expect else-if-chain 0 "804:10 if \(argc#0 == 399\)" -- "$tool" dump-ir "$work/chain.c"
expect else-if-chain-report 0 "ones +\(k \+ 1, 4\)" -- "$tool" report "$work/chain.c"
expect unwritable-output 2 "cannot write" -- "$tool" report -o /nonexistent/dir/out.txt "$work/empty.c"
# a full disk is an error, not silence (stdout on /dev/full)
full=(bash -c '"$@" >/dev/full' full)
expect full-disk-text 2 "report: cannot write to stdout: No space left" -- "${full[@]}" "$tool" report "$work/deep.c"
expect full-disk-json 2 "report: cannot write to stdout" -- "${full[@]}" "$tool" report --format=json "$work/deep.c"
expect full-disk-file 2 "report: cannot write /dev/full" -- "$tool" report -o /dev/full "$work/deep.c"
expect full-disk-sarif 2 "check: cannot write to stdout" -- "${full[@]}" "$tool" check --format=sarif "$work/deep.c"
expect full-disk-ir 2 "dump-ir: cannot write to stdout" -- "${full[@]}" "$tool" dump-ir "$work/deep.c"
expect unknown-function 2 "no function 'nope'" -- "$tool" report --function=nope "$here/cases/overflow_zeros.c"

# -o FILE is written whole or not at all: a late usage error, a failed
# parse or a failed write leaves an existing FILE as it was, and no
# temporary file behind.
# expect_file NAME FILE ERE: FILE's contents match
expect_file() {
  if grep -qE -- "$3" "$2" 2>/dev/null; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1: $2 does not match /$3/:"
    head -5 "$2" 2>&1
  fi
}
no_temp_left() {
  if compgen -G "$work/out/*.tmp-*" >/dev/null; then
    fail=$((fail + 1))
    echo "FAIL $1: temporary files left: $(ls "$work/out")"
  else
    pass=$((pass + 1))
  fi
}
mkdir -p "$work/out"
out=$work/out/report.txt
cases=$here/cases
for cmd in "report --function=nope" "report --format=json --function=nope" "check --checks=bogus-[" \
           "graph --format=dot --function=nope" "lifetimes --format=dot --function=nope"; do
  echo precious >"$out"
  read -r -a argv <<<"$cmd"
  expect "late-usage-error/$cmd" 2 "nope|bogus|no function" -- "$tool" "${argv[@]}" -o "$out" "$cases/use_after_release.c"
  expect_file "late-usage-error/$cmd/kept" "$out" "^precious$"
done
for cmd in report dump-ir "graph --format=dot" "lifetimes --format=dot"; do
  echo precious >"$out"
  read -r -a argv <<<"$cmd"
  expect "parse-error/$cmd" 2 "error: expected ';'" -- "$tool" "${argv[@]}" -o "$out" "$cases/syntax.c"
  expect_file "parse-error/$cmd/kept" "$out" "^precious$"
done
# check's output is its diagnostics: a file that fails to parse is one of them
expect parse-error/check 2 "^$" -- "$tool" check -o "$out" "$cases/syntax.c"
expect_file parse-error/check/written "$out" "error: expected ';'"
no_temp_left after-errors
echo precious >"$out"
expect output-replaced 1 "^$" -- "$tool" report -o "$out" "$cases/use_after_release.c"
expect_file output-replaced/contents "$out" "^function main"
expect output-json 1 "^$" -- "$tool" report --format=json -o "$work/out/r.json" "$cases/use_after_release.c"
expect_file output-json/contents "$work/out/r.json" '"check":"use-after-release"'
expect dump-ir-output 0 "^$" -- "$tool" dump-ir -o "$work/out/ir.txt" "$work/deep.c"
expect_file dump-ir-output/contents "$work/out/ir.txt" "main"
expect check-sarif-output 1 "^$" -- "$tool" check --format=sarif -o "$work/out/c.sarif" "$cases/use_after_release.c"
expect_file check-sarif-output/contents "$work/out/c.sarif" '"version"'
expect graph-output 0 "" -- "$tool" graph -o "$work/out/g.dot" "$work/deep.c"
expect_file graph-output/contents "$work/out/g.dot" "^digraph"
(umask 022 && "$tool" report -o "$work/out/mode.txt" "$work/deep.c" >/dev/null 2>&1)
expect output-mode 0 "^-rw-r--r--" -- ls -l "$work/out/mode.txt"
ln -s report.txt "$work/out/link.txt"
expect output-through-link 1 "" -- "$tool" report -o "$work/out/link.txt" "$cases/use_after_release.c"
expect output-link-kept 0 "link.txt -> report.txt" -- ls -l "$work/out/link.txt"
expect_file output-link-target "$out" "^function main"
# a write that fails half way (a file size limit: EFBIG) leaves the old file
echo precious >"$out"
expect half-written 2 "report: cannot write .*report.txt: File too large" -- \
  bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' limit "$tool" report --format=json -o "$out" "$work/deep.c"
expect_file half-written/kept "$out" "^precious$"
no_temp_left after-success
expect output-is-directory 2 "cannot write .*: Is a directory" -- "$tool" report -o "$work/out" "$work/empty.c"

# an unknown compiler flag in compile_commands.json is an error, as in clang
mkdir -p "$work/cdb"
cp "$work/empty.c" "$work/cdb/prog.c"
printf '[{"directory": "%s", "file": "prog.c", "arguments": ["cc", "-fbogus-flag", "-c", "prog.c"]}]\n' \
  "$work/cdb" >"$work/cdb/compile_commands.json"
expect compdb-unknown-flag 2 "error: unknown argument: '-fbogus-flag'" -- "$tool" check -p "$work/cdb"
# every command says a bad flag or a malformed database the same way: the
# database, the entry (from 1) and its file, exit 2
for cmd in check report verify "check --program"; do
  read -r -a argv <<<"$cmd"
  expect "compdb-flag-entry/$cmd" 2 "cdb/compile_commands.json: entry 1 \(.*cdb/prog.c\): error: unknown argument: '-fbogus-flag'" -- "$tool" "${argv[@]}" -p "$work/cdb"
done
mkdir -p "$work/cdb2"
cp "$work/empty.c" "$work/cdb2/a.c"
printf 'int helper(void) { return 1; }\n' >"$work/cdb2/b.c"
printf '[{"directory": "%s", "file": "a.c", "arguments": ["cc", "-c", "a.c"]},\n {"directory": "%s", "file": "b.c", "arguments": ["cc", "-fno-such-thing", "-c", "b.c"]}]\n' \
  "$work/cdb2" "$work/cdb2" >"$work/cdb2/compile_commands.json"
for cmd in report "check --program" check; do
  read -r -a argv <<<"$cmd"
  expect "compdb-flag-second-entry/$cmd" 2 "cdb2/compile_commands.json: entry 2 \(.*cdb2/b.c\): error: unknown argument: '-fno-such-thing'" -- "$tool" "${argv[@]}" -p "$work/cdb2"
done
mkdir -p "$work/cdb3" "$work/cdb4" "$work/cdb5"
printf '[{"directory": "/tmp", "file": "a.c", "command": "cc -c a.c"},\n {"directory": "/tmp", "file": "b.c"}]\n' >"$work/cdb3/compile_commands.json"
printf '[{"directory": "/tmp", "file": ' >"$work/cdb4/compile_commands.json"
printf '[{"directory": "%s", "file": "gone.c", "command": "cc -c gone.c"}]\n' "$work/cdb5" >"$work/cdb5/compile_commands.json"
for cmd in check report verify; do
  expect "compdb-entry-shape/$cmd" 2 "tensorlint $cmd: error: .*cdb3/compile_commands.json: entry 2 \(b.c\) has neither a \"command\"" -- "$tool" $cmd -p "$work/cdb3"
  expect "compdb-not-json/$cmd" 2 "tensorlint $cmd: error: .*cdb4/compile_commands.json:1:[0-9]+: not a valid compilation database" -- "$tool" $cmd -p "$work/cdb4"
  expect "compdb-missing-source/$cmd" 2 "gone.c: no such file \(named by the compilation database\): .*cdb5/compile_commands.json, entry 1" -- "$tool" $cmd -p "$work/cdb5"
done

# files that exist but cannot be read say why
ln -s loop-b.c "$work/loop-a.c"
ln -s loop-a.c "$work/loop-b.c"
expect link-loop 2 "loop-a.c: cannot be read \(a loop of symbolic links" -- "$tool" report "$work/loop-a.c"
if [ "$(id -u)" -ne 0 ]; then # root reads every file
  cp "$work/empty.c" "$work/secret.c"
  chmod 000 "$work/secret.c"
  expect no-permission 2 "secret.c: cannot be read: permission denied" -- "$tool" report "$work/secret.c"
fi
# a file name that is not UTF-8 is still named in the JSON report
bad=$(printf '%s/bad\377name.c' "$work")
cp "$cases/use_after_release.c" "$bad"
expect json-non-utf8-name 1 '"file":"[^"]*bad.name.c","line"' -- "$tool" report --format=json "$bad"
# verify: its limits and the program's failures name the file
expect verify-timeout-0 2 "verify: --timeout=0: the program needs at least 1 second" -- "$tool" verify --timeout=0 "$work/empty.c"
expect verify-timeout-huge 0 "0 disagreements" -- "$tool" verify --timeout=9223372036854775807 "$cases/extreme_slice.c"
cat >"$work/aborts.c" <<'C'
#include <stdlib.h>
#include <tensorlint/tensor.h>
int main(void) { abort(); }
C
expect verify-crash-names-file 2 "verify: .*aborts.c: the program crashed: Aborted" -- "$tool" verify "$work/aborts.c"
cat >"$work/spins.c" <<'C'
#include <tensorlint/tensor.h>
int main(void) { for (volatile int i = 0;; i = 0) {} }
C
expect verify-timeout-names-file 2 "verify: .*spins.c: the program did not finish within 1 s" -- "$tool" verify --timeout=1 "$work/spins.c"

expect help 0 "usage: tensorlint report" -- "$tool" report --help

# one option parser for every command (tools/cli_opt.c): GNU syntax, a
# suggestion for a mistyped option, - as standard input and output, colours
uar=$here/cases/use_after_release.c
stdin_from=(bash -c 'f=$1; shift; exec "$@" <"$f"' stdin_from) # FILE command...
refuse() { # NAME ERE -- command...: the output does not match
  local name=$1 pattern=$2
  shift 3
  if "$@" 2>&1 | grep -qE -- "$pattern"; then
    fail=$((fail + 1)); echo "FAIL $name: /$pattern/ in the output"
  else
    pass=$((pass + 1))
  fi
}
expect option-suggestion 2 "unrecognized option '--fromat=json'; did you mean '--format'\?" -- "$tool" report --fromat=json "$uar"
expect option-suggestion-check 2 "did you mean '--checks'\?" -- "$tool" check --chekcs=upcast "$uar"
expect option-suggestion-usage 2 "usage: tensorlint check" -- "$tool" check --chekcs=upcast "$uar"
refuse option-no-suggestion "did you mean" -- "$tool" report --frobnicate "$uar"
expect option-ambiguous 2 "option '--max' is ambiguous" -- "$tool" report --max=3 "$uar"
expect option-prefix 1 '"check":"use-after-release"' -- "$tool" report --form=json "$uar"
expect option-separate-value 1 '"check":"use-after-release"' -- "$tool" report --format json "$uar"
expect option-missing-value 2 "option '--format' requires an argument" -- "$tool" report "$uar" --format
expect option-value-before-dashes 2 "option '-o' requires an argument" -- "$tool" report "$uar" -o -- -DX
expect option-flag-value 2 "option '--no-checks' takes no value" -- "$tool" report --no-checks=yes "$uar"
expect option-after-file-check 1 '"version": "2.1.0"' -- "$tool" check "$uar" --format=sarif
expect option-after-file-dump 0 "call x#" -- "$tool" dump-ir "$uar" -o -
expect option-not-this-command 2 "unrecognized option '--checks=x'" -- "$tool" report --checks=x "$uar"
expect dashes-end-options 2 "error: unsupported option '--format=json'" -- "$tool" report "$uar" -- --format=json
expect help-generated 0 "--max-calls=N +stop after N executed API calls per root \(default 2000000\)" -- "$tool" check --help
expect help-defaults-per-command 0 "--max-events=N .*\(default 1000000\)" -- "$tool" graph --help
expect help-anywhere 0 "usage: tensorlint lifetimes" -- "$tool" lifetimes "$uar" --help
expect stdin-report 1 "<stdin>:[0-9]+:[0-9]+: error: .*\[use-after-release\]" -- "${stdin_from[@]}" "$uar" "$tool" report -
expect stdin-json 1 '"file":"<stdin>"' -- "${stdin_from[@]}" "$uar" "$tool" report --format=json -
expect stdin-clang-error 2 "<stdin>:[0-9]+:[0-9]+: error: expected ';'" -- "${stdin_from[@]}" "$cases/syntax.c" "$tool" dump-ir -
expect stdin-graph 1 "^digraph" -- "${stdin_from[@]}" "$uar" "$tool" graph -o - -
expect stdin-check 1 "<stdin>:[0-9]+:[0-9]+: error: .*\[use-after-release\]" -- "${stdin_from[@]}" "$uar" "$tool" check -
expect stdin-check-sarif 1 '"uri": "file://%3Cstdin%3E"' -- "${stdin_from[@]}" "$uar" "$tool" check --format=sarif -
printf '%s\n' '#include <tensorlint/tensor.h>' 'int main(void)' '{' \
  '    tl_tensor *x = tl_randn(TL_SHAPE(64, 64), TL_F32, TL_CPU);' \
  '    tl_tensor *t = tl_t(x);' \
  '    tl_tensor *f = tl_reshape(t, TL_SHAPE(4096)); // NOLINT(hidden-copy)' \
  '    (void)f;' '    return 0;' '}' >"$work/nolint.c"
expect stdin-check-nolint-seen 0 "hidden-copy" -- bash -c 'sed "s|// NOLINT.*||" "$1" | "$2" check -' nolint "$work/nolint.c" "$tool"
refuse stdin-check-nolint "hidden-copy" -- "${stdin_from[@]}" "$work/nolint.c" "$tool" check -
expect stdin-check-once 2 "check: - \(standard input\) is read once" -- "$tool" check - -
expect stdin-verify-refused 2 "verify: - \(standard input\)" -- "$tool" verify -
expect stdout-dash 1 '"check":"use-after-release"' -- "$tool" report --format=json -o - "$uar"
expect stdout-dash-no-file 1 "" -- test -e ./-
esc=$'\033'
expect color-always 1 "${esc}\\[1;31merror${esc}\\[0m: tl_clone uses 'x' after" -- "$tool" check --color=always "$uar"
expect color-always-warning 0 "${esc}\\[1;35mwarning${esc}\\[0m: " -- "$tool" check --color=always --upcast-threshold=128K "$here/../checks/upcast.c"
refuse color-never "$esc" -- "$tool" check --color=never "$uar"
refuse color-auto-pipe "$esc" -- "$tool" check "$uar"
refuse color-no-color "$esc" -- env NO_COLOR=1 "$tool" check --color=auto "$uar"
if command -v script >/dev/null; then # a terminal: auto colours, unless NO_COLOR
  expect color-auto-tty 1 "${esc}\\[1;31merror" -- script -qec "'$tool' check '$uar'" /dev/null
  refuse color-auto-tty-no-color "$esc" -- env NO_COLOR=1 script -qec "'$tool' check '$uar'" /dev/null
fi
expect color-bad 2 "check: --color=sometimes: auto, always or never" -- "$tool" check --color=sometimes "$uar"
# the phase times bench/checks.sh reads
expect time-report 0 "time: parse [0-9.]+ ms, lower [0-9.]+ ms, analyse [0-9.]+ ms, checks [0-9.]+ ms, write [0-9.]+ ms" -- "$tool" report --time-report "$work/deep.c"

expect_summary bad-input
