#!/usr/bin/env bash
# An else-if chain on a condition the analysis cannot decide, analysed with
# a small stack: the interpreter runs the chain in a loop (exec_if), so the
# stack it needs does not grow with the arms.  Code that recursed once per
# arm died here by SIGSEGV (2,000 arms need some 1.5 MiB of stack that way
# in a debug build, more under the sanitizers); the parse has its own deep
# thread, whose stack the limit does not touch, and the analysis one whose
# size the test chooses (TENSORLINT_TEST_ANALYSIS_STACK_KIB).  dump-ir prints the chain
# in a loop as well.
#   tests/bad-input/else_if_chain.sh TENSORLINT ARMS STACK_KIB
set -uo pipefail
tool=$1 arms=$2 stack=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=../lib/expect.sh
source "$here/../lib/expect.sh"

python3 "$here/../../bench/gen_elseif.py" "$arms" >"$work/chain.c" || exit 2
ulimit -s "$stack"
# the analysis runs on a deep stack of its own (common/deep.h): as small a one
# here, plus 512 KiB for the thread-local storage a thread's stack holds
export TENSORLINT_TEST_ANALYSIS_STACK_KIB=$((stack + 512))
# k is 0..ARMS after the chain: a size known at run time, not a number
expect "else-if chain of $arms arms, $stack KiB of stack" 0 "ones +\(k \+ 1, 4\)" -- \
  "$tool" report "$work/chain.c"
# the IR printed in a loop too (its last arm, at line 3 * ARMS + 3)
expect "dump-ir of $arms arms, $stack KiB of stack" 0 \
  "^ +$((3 * arms + 3)):10 if \(argc#0 == $((arms - 1))\)" -- "$tool" dump-ir "$work/chain.c"
expect_summary else_if_chain
