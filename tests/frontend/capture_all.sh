#!/bin/sh
# Every C file of the interpreter's and symbolic tests and of the samples is
# captured as a build captures it (tensorlint capture -p), and the capture
# must then be read, not the unit parsed again, by `report -p` (a debug
# build also reads each IR back before writing it: one that does not read
# back is an internal error there, and in a release build a capture that
# is parsed again every time).  tests/multifile/model/layers.c keeps the
# case that once failed (a comparison of handles whose operand the front
# end does not follow).
# usage: capture_all.sh TOOL SOURCE_DIR
tool=$1
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ls "$src"/tests/interp/*.c "$src"/tests/symbolic/*.c "$src"/samples/*/*.c >"$work/units"
python3 - "$work" "$src" <<'PY'
import json, sys
work, src = sys.argv[1], sys.argv[2]
flags = ["-I" + src + "/runtime/include"]
units = open(work + "/units").read().split()
json.dump([{"directory": work, "file": f, "arguments": ["cc", *flags, "-c", f]} for f in units],
          open(work + "/compile_commands.json", "w"))
PY
n=0 bad=0
while read -r f; do
  "$tool" capture -q -p "$work" "$f" >/dev/null 2>"$work/err"
  rc=$?
  n=$((n + 1))
  # 0: captured; 1: the unit has errors clang reports (some tests are meant to)
  if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
    echo "FAIL $f: capture exits $rc: $(head -c 300 "$work/err")"
    bad=$((bad + 1))
  elif [ $rc -eq 0 ]; then
    TENSORLINT_CAPTURE_STATS=1 "$tool" report -p "$work" "$f" >/dev/null 2>"$work/err"
    if ! grep -q 'captures: 1 unit read, 0 parsed' "$work/err"; then
      echo "FAIL $f: the capture is not read back: $(head -c 300 "$work/err")"
      bad=$((bad + 1))
    fi
  fi
done <"$work/units"
echo "$n units captured, $bad failed"
[ $bad -eq 0 ] && [ $n -gt 100 ]
