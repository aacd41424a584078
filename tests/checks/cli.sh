#!/usr/bin/env bash
# `tensorlint check` as a command: exit statuses and messages for its
# options, suppression, thresholds, bad input, and compilation databases
# (-p).  Run from anywhere:
#   tests/checks/cli.sh TENSORLINT BUILD_DIR
# BUILD_DIR holds the project's own compile_commands.json (CMake exports
# it); its samples/ entries are analysed with their own flags.
set -uo pipefail
tool=$(realpath "$1")
build=$(realpath "$2")
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
source tests/lib/expect.sh

# refuse NAME PATTERN -- command...: PATTERN must not appear
refuse() {
  local name=$1 pattern=$2
  shift 3
  if timeout 120 "$@" 2>&1 | grep -qE -- "$pattern"; then
    fail=$((fail + 1))
    echo "FAIL $name: '$pattern' appears"
  else
    pass=$((pass + 1))
  fi
}

s=tests/checks
# --- clean runs, findings, errors ---
expect clean 0 '^$|.' -- "$tool" check $s/clean_mlp.c
refuse clean_silent 'warning|error' -- "$tool" check $s/clean_mlp.c
expect warning_exit0 0 'hidden-copy\]' -- "$tool" check $s/hidden_copy.c
expect clang_format 0 '^tests/checks/hidden_copy.c:9:20: warning: tl_reshape silently copies 32 KiB' -- "$tool" check $s/hidden_copy.c
expect symbolic_bytes 0 'symbolic_sizes.c:13:20: warning: tl_reshape silently copies 4\*n\*d B' -- "$tool" check $s/symbolic_sizes.c
expect symbolic_when 0 '2\*n\*d B more.*\(when n\*d >= 262144\) \[upcast\]' -- "$tool" check $s/symbolic_sizes.c
expect error_exit1 1 'error: .*\[shape-mismatch\]' -- "$tool" check $s/errors.c
expect fixit_form 0 'fix-it:"tests/checks/late_release.c":\{8:31-8:31\}:"\\n    tl_release\(a\);"' -- "$tool" check $s/late_release.c
expect several_files 0 'upcast.c.*upcast\]' -- "$tool" check $s/hidden_copy.c $s/upcast.c
# --- --checks and --warnings-as-errors ---
refuse checks_minus 'hidden-copy\]' -- "$tool" check --checks='*,-hidden-copy' $s/hidden_copy.c
expect checks_only 0 'upcast\]' -- "$tool" check --checks='-*,upcast' $s/upcast.c
refuse checks_only_others 'late-release|leaked' -- "$tool" check --checks='-*,upcast' $s/upcast.c
expect errors_stay 1 'invalid-view\]' -- "$tool" check --checks='-*' $s/errors.c
expect wae 1 'error: tl_reshape.*\[hidden-copy,-warnings-as-errors\]' -- "$tool" check --warnings-as-errors='hidden-*' $s/hidden_copy.c
expect wae_other 0 'warning: .*hidden-copy\]' -- "$tool" check --warnings-as-errors=upcast $s/hidden_copy.c
expect unknown_check 2 "unknown check 'hiden-copy'" -- "$tool" check --checks='-*,hiden-copy' $s/hidden_copy.c
expect unknown_wae 2 "unknown check 'nope'" -- "$tool" check --warnings-as-errors=nope $s/hidden_copy.c
expect list 0 '^channels-first-conv +warning' -- "$tool" check --list-checks
# every check of the table has its page, and the index lists it
for name in $("$tool" check --list-checks | awk '{print $1}'); do
  expect "doc_$name" 0 "# $name" -- cat "docs/checks/$name.md"
  expect "doc_index_$name" 0 "\[$name\]\($name.md\)" -- cat docs/checks/README.md
done
expect in_help 0 'check +warn where' -- "$tool" --help
# --- thresholds ---
refuse upcast_default 'upcast.c:23:.*upcast' -- "$tool" check $s/upcast.c
expect upcast_threshold 0 'upcast.c:23:.*\[upcast\]' -- "$tool" check --upcast-threshold=128K $s/upcast.c
expect bad_bytes 2 "not a byte count" -- "$tool" check --upcast-threshold=1MB $s/upcast.c
expect bad_percent 2 "not a percent" -- "$tool" check --late-release-min-percent=150 $s/upcast.c
expect late_percent 0 'late_release.c:14:5: warning' -- "$tool" check --late-release-min-percent=25 $s/late_release.c
refuse late_percent_high 'late_release.c:14:5: warning' -- "$tool" check --late-release-min-percent=26 $s/late_release.c
expect tiny_bytes 0 'tiny_cuda_tensor.c:8:.*\[tiny-cuda-tensor\]' -- "$tool" check $s/tiny_cuda_tensor.c
refuse tiny_bytes_low 'tiny-cuda-tensor' -- "$tool" check --tiny-cuda-max-bytes=2 $s/tiny_cuda_tensor.c
# --- usage ---
expect no_file 2 'no FILE' -- "$tool" check
expect missing_file 2 'nothere.c: no such file' -- "$tool" check $work/nothere.c
expect bad_format 2 "unknown format 'xml'" -- "$tool" check --format=xml $s/upcast.c
expect bad_jobs 2 '-j wants' -- "$tool" check -j 0 $s/upcast.c
expect bad_option 2 'usage: tensorlint check' -- "$tool" check --frobnicate $s/upcast.c
expect help 0 'usage: tensorlint check' -- "$tool" check --help
expect bad_srcroot 2 'not a directory' -- "$tool" check --format=sarif --srcroot=$work/none $s/upcast.c
printf '#include <tensorlint/tensor.h>\nint main(void) { return x; }\n' >"$work/broken.c"
expect parse_failure 2 'broken.c:2:25: error: use of undeclared identifier' -- "$tool" check "$work/broken.c" $s/upcast.c
expect parse_failure_rest 2 'upcast.c:.*\[upcast\]' -- "$tool" check "$work/broken.c" $s/upcast.c
expect output_file 0 '^$|.' -- "$tool" check -o "$work/out.txt" $s/hidden_copy.c
expect output_file_has 0 'hidden-copy' -- cat "$work/out.txt"
expect compiler_args 0 'upcast' -- "$tool" check $s/upcast.c -- -DUNUSED=1
# --- determinism: the same output whatever the number of jobs ---
"$tool" check -j 1 $s/*.c samples/*/*.c >"$work/j1.txt" 2>&1
"$tool" check -j 4 $s/*.c samples/*/*.c >"$work/j4.txt" 2>&1
expect jobs_deterministic 0 '^$' -- diff "$work/j1.txt" "$work/j4.txt"
# --- NOLINT in a file that is not a sample ---
printf '%s\n' '#include <tensorlint/tensor.h>' 'int main(void)' '{' \
  '    tl_tensor *x = tl_randn(TL_SHAPE(64, 64), TL_F32, TL_CPU);' \
  '    tl_tensor *t = tl_t(x);' \
  '    tl_tensor *f = tl_reshape(t, TL_SHAPE(4096)); /* NOLINT(hidden-copy) */' \
  '    (void)f;' '    return 0;' '}' >"$work/nolint.c"
refuse nolint_block_comment 'hidden-copy' -- "$tool" check "$work/nolint.c"
# --- -p: compilation databases ---
mkdir -p "$work/empty" "$work/bad" "$work/notarray" "$work/nofile" "$work/gone"
echo '__global__ void k(void) {}' >"$work/k.cu"
echo '[]' >"$work/empty/compile_commands.json"
echo '[{"directory": "/tmp", "file": ' >"$work/bad/compile_commands.json"
echo '{"directory": "/tmp"}' >"$work/notarray/compile_commands.json"
echo '[{"directory": "/tmp", "command": "cc -c x.c"}]' >"$work/nofile/compile_commands.json"
here=$(pwd)
cat >"$work/gone/compile_commands.json" <<EOF
[{"directory": "$work", "file": "gone.c", "command": "cc -c gone.c"},
 {"directory": "$here", "file": "tests/checks/upcast.c", "command": "cc -c tests/checks/upcast.c"},
 {"directory": "$here", "file": "tests/checks/upcast.c", "command": "cc -DTWICE -c tests/checks/upcast.c"},
 {"directory": "$work", "file": "k.cu", "command": "nvcc -c k.cu"}]
EOF
expect p_no_dir 2 'no such build directory' -- "$tool" check -p "$work/none"
expect p_no_db 2 'compile_commands.json: no such file' -- "$tool" check -p "$work"
expect p_empty 2 'no compile commands' -- "$tool" check -p "$work/empty"
expect p_malformed 2 'compile_commands.json:2:[0-9]+: not a valid compilation database' -- "$tool" check -p "$work/bad"
expect p_not_array 2 'expected a JSON array' -- "$tool" check -p "$work/notarray"
expect p_entry_no_file 2 'entry 1 has no "file"' -- "$tool" check -p "$work/nofile"
expect p_missing_source 2 'gone.c: no such file \(named by the compilation database\)' -- "$tool" check -p "$work/gone"
expect p_rest_analysed 2 'upcast.c:.*\[upcast\]' -- "$tool" check -p "$work/gone"
expect p_cu_skipped 0 'k.cu: CUDA source skipped' -- "$tool" check -p "$work/gone" "$work/k.cu" tests/checks/upcast.c
expect p_not_in_db 2 'hidden_copy.c: not in' -- "$tool" check -p "$work/gone" tests/checks/hidden_copy.c
expect p_conflict 2 'conflict with -p' -- "$tool" check -p "$build" -- -DX
expect p_twice 2 '-p given twice' -- "$tool" check -p "$build" -p "$build"
# the project's own database: its samples, each with its own flags (-DDEVICE=TL_CPU)
expect p_samples 0 'block2.c:28:20: warning: .*\[hidden-copy\]' -- "$tool" check -p "$build" samples/worksheet/block2.c
expect p_all_samples 0 'block1.c:27:20: warning: .*\[copy-then-slice\]' -- "$tool" check -p "$build" -j 2 \
  samples/worksheet/*.c samples/models/*.c samples/labs/*.c
"$tool" check -p "$build" samples/worksheet/*.c samples/models/*.c samples/labs/*.c 2>&1 |
  grep -oE '[a-z0-9_]+\.c:[0-9]+:[0-9]+: (warning|error): .*\[[a-z-]+\]$' | sed 's/: warning: .*\[/ [/' >"$work/p.txt"
"$tool" check samples/worksheet/*.c samples/models/*.c samples/labs/*.c -- -DDEVICE=TL_CPU 2>&1 |
  grep -oE '[a-z0-9_]+\.c:[0-9]+:[0-9]+: (warning|error): .*\[[a-z-]+\]$' | sed 's/: warning: .*\[/ [/' >"$work/direct.txt"
expect p_same_as_direct 0 '^$' -- diff <(sort "$work/p.txt") <(sort "$work/direct.txt")
expect p_sarif 0 '"uri": "samples/worksheet/block3.c"' -- "$tool" check --format=sarif -p "$build" samples/worksheet/block3.c

echo "check cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
