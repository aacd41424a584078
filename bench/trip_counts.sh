#!/usr/bin/env bash
# Whole programs whatever their trip counts (issue 25): `tensorlint report`
# on the training sample with its loop over the steps counted to 10, 1,000
# and 100,000 (#define STEPS), against `clang-14 -fsyntax-only` of the same
# file, and against the report that runs every iteration
# (TENSORLINT_LOOP_SKIP=0; the loop over 100,000 steps stops there at the
# call budget, --max-calls, its totals lower bounds).  ROUNDS rounds of each
# command in turn; medians of wall and CPU time; the peak each report gives,
# its claim and the calls it counts; the load average before and after (the
# machine may be shared).
# usage: bench/trip_counts.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
rounds=${2:-3}
# shellcheck source=lib.sh
source bench/lib.sh
tool=$(bench_tool "$build")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in 10 1000 100000; do
  sed "s/^#define STEPS 10$/#define STEPS $n/" samples/train/train_gpt2.c >"$work/train_$n.c"
  grep -q "^#define STEPS $n$" "$work/train_$n.c"
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tool" "$work" "$rounds" <<'PY'
import json, os, statistics, subprocess, sys, time
tool, work, n_rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
inc = os.path.join(os.getcwd(), "runtime", "include")

def run(cmd, env=None):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"failed: {' '.join(cmd)}")
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime

def main_totals(f, env):
    rep = json.loads(subprocess.run([tool, "report", "--format=json", f], env=env,
                                    capture_output=True, text=True).stdout)
    m = next(x for x in rep["functions"] if x["name"] == "main")
    claim = m["bounds"].get("peak_live_bytes", "exact") if m["bounds"] else "exact"
    return m["peak_live_bytes"], claim, m["calls"]

skip = dict(os.environ)
skip.pop("TENSORLINT_LOOP_SKIP", None)
every = dict(os.environ, TENSORLINT_LOOP_SKIP="0")
print("| STEPS | clang -fsyntax-only ms (CPU) | report ms (CPU) | ratio, CPU | peak B, calls | every iteration run ms (CPU) | its peak B, calls |")
print("|---|---|---|---|---|---|---|")
for n in (10, 1000, 100000):
    f = os.path.join(work, f"train_{n}.c")
    cmds = [(["clang-14", "-fsyntax-only", "-I", inc, f], None), ([tool, "report", f], skip)]
    got = [[] for _ in cmds]
    for _ in range(n_rounds):
        for k, (c, env) in enumerate(cmds):
            got[k].append(run(c, env))
    (pw, pc), (tw, tc) = [(statistics.median(w for w, _ in g), statistics.median(c for _, c in g))
                          for g in got]
    ew, ec = run([tool, "report", f], every)  # (once: it takes seconds)
    pk, claim, calls = main_totals(f, skip)
    epk, eclaim, ecalls = main_totals(f, every)
    print(f"| {n:,} | {pw*1e3:.0f} ({pc*1e3:.0f}) | {tw*1e3:.0f} ({tc*1e3:.0f}) | {tc/pc:.2f}x | "
          f"{pk:,} {claim}, {calls:,} | {ew*1e3:.0f} ({ec*1e3:.0f}) | {epk:,} {eclaim}, {ecalls:,} |")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
