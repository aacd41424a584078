# Shared by the command-line test scripts (source it): each case runs a
# command and checks its exit status and output; `expect_summary NAME`
# prints "NAME: P passed, F failed" and returns non-zero on a failure.
pass=0 fail=0
EXPECT_TIMEOUT=${EXPECT_TIMEOUT:-120}

# expect NAME RC PATTERN -- command...: exit status RC and PATTERN (ERE) in stdout+stderr
expect() {
  local name=$1 rc=$2 pattern=$3
  shift 4
  local out got
  out=$(timeout "$EXPECT_TIMEOUT" "$@" 2>&1)
  got=$?
  if [ "$got" -eq "$rc" ] && grep -qE -- "$pattern" <<<"$out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $got (want $rc, /$pattern/), output:"
    tail -25 <<<"$out"
  fi
}

expect_summary() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
