#!/usr/bin/env python3
"""Loops counted a period at a time report what iterating reports.

Runs `tensorlint report --format=json` on each program twice: with
TENSORLINT_LOOP_SKIP=2 (every counted loop of 2 iterations or more is
watched for a period) and with TENSORLINT_LOOP_SKIP=0 (every iteration
runs), and compares the two reports whole, but for what names storages:
the iterations counted without running make none, so the storages listed
and their numbers differ (docs/performance.md).  Every function's totals,
claims and peak line, the peak's live set (sizes, lines, names), every call
site's facts and executions, the diagnostics, symbols and assumptions must
be the same, and so must the output of `tensorlint check` where a loop was
taken the short way (elsewhere the two runs log the same events, and the
report's diagnostics are the checks' already).  The programs of tests/interp/loop_skip_*.c must be taken the
short way (fewer storages listed), but loop_skip_break.c and
loop_skip_counter.c.  ctest runs it
over tests/interp and the samples whose loops are taken so.

A loop is counted rather than run only once the event log the checks and
the charts read is full (before, iterating fills it with what it holds):
both runs keep a log of EVENTS events, so that the loops here reach that
point early.

usage: skip_same.py TENSORLINT FILE.c...
"""
import json
import os
import re
import subprocess
import sys

EVENTS = ["--max-events=64"]


def report(tool, path, skip):
    env = dict(os.environ, TENSORLINT_LOOP_SKIP=skip)
    out = subprocess.run([tool, "report", "--format=json", *EVENTS, path], env=env,
                         capture_output=True, text=True, timeout=300)
    if out.returncode not in (0, 1):
        sys.exit("%s: report exited %d: %s" % (path, out.returncode, out.stderr[-400:]))
    return json.loads(out.stdout)


def check(tool, path, skip):
    env = dict(os.environ, TENSORLINT_LOOP_SKIP=skip)
    out = subprocess.run([tool, "check", *EVENTS, path], env=env, capture_output=True, text=True,
                         timeout=300)
    return out.returncode, re.sub(r"\bS\d+\b", "S#", out.stdout)


def storages_listed(rep):
    return sum(len(f.get("storages", [])) for f in rep["functions"])


def normal(rep):
    for f in rep["functions"]:
        f.pop("storages", None)
        f.pop("peak_storages", None)
        for p in f.get("peak_live", []):
            p.pop("storage", None)
        for v in f.get("values", []):
            v.pop("storage", None)
    for d in rep.get("diagnostics", []):
        for k in ("message",):
            if k in d:
                d[k] = re.sub(r"\bS\d+\b", "S#", d[k])
    return rep


def main():
    tool, files = sys.argv[1], sys.argv[2:]
    bad = 0
    for path in files:
        on, off = report(tool, path, "2"), report(tool, path, "0")
        short = storages_listed(on) < storages_listed(off)
        if normal(on) != normal(off):
            a = json.dumps(on, indent=1, sort_keys=True).splitlines()
            b = json.dumps(off, indent=1, sort_keys=True).splitlines()
            diff = [(x, y) for x, y in zip(a, b) if x != y][:5]
            print("FAIL %s: the reports differ: %s" % (path, diff))
            bad += 1
        # (the checks read the event log; it differs only where periods were counted)
        if short and check(tool, path, "2") != check(tool, path, "0"):
            print("FAIL %s: the checks differ" % path)
            bad += 1
        name = os.path.basename(path)
        iterate = ("loop_skip_break.c", "loop_skip_counter.c")  # (must not be skipped)
        if name.startswith("loop_skip_") and short != (name not in iterate):
            print("FAIL %s: the loop was %s" % (path, "skipped" if short else "not skipped"))
            bad += 1
        elif short:
            print("skipped periods: %s" % path)
    print("%d programs, %d differ" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
