#!/usr/bin/env python3
"""The checks on formulas, checked against the checks on numbers.

A sample whose sizes are read at run time names them on a `// bind:` line
and gives sets of values on a `// values:` line, as tests/symbolic/ does:

    // bind: n d
    // values: 1 1 | 5 64 | 64 128

`tensorlint check` on the sample (with its CHECK-OPTIONS) gives diagnostics
over formulas: one that holds for every value of the sizes, or one whose
message ends in "(when CONDITION)".  At each set of values, `check --bind
NAME=VALUE ...` must give exactly the diagnostics (line, check) that hold
there: the first kind always, the second when its condition does.  So a
check on formulas says no more and no less than the same check on the
numbers, wherever the values meet the report's assumptions (the test
requires that they do).

A sample without a `// bind:` line is left out, so the golden samples can
all be passed.

usage: formulas.py TENSORLINT SAMPLE.c...
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from folder_symbolic import holds  # noqa: E402  (the report's condition syntax, evaluated)

DIAG = re.compile(r"^.*?:(\d+):\d+: (warning|error): (.*) \[([a-z-]+)\]$")
WHEN = re.compile(r" \(when (.*)\)$")
OPTIONS = re.compile(r"CHECK-OPTIONS:(.*)$", re.M)


def diagnostics(tool, path, options):
    proc = subprocess.run([tool, "check", *options, path], capture_output=True, text=True,
                          timeout=300)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{path}: check failed ({proc.returncode}): {proc.stderr[-500:]}")
    out = []
    for line in proc.stderr.splitlines():
        m = DIAG.match(line)
        if m:
            out.append((int(m.group(1)), m.group(4), m.group(3)))
    return out


def check_sample(tool, path):
    text = open(path, encoding="utf-8").read()
    binds = re.search(r"^// bind: (.*)$", text, re.M).group(1).split()
    groups = [g.split() for g in re.search(r"^// values: (.*)$", text, re.M).group(1).split("|")]
    options = [o for m in OPTIONS.finditer(text) for o in m.group(1).split()]
    proc = subprocess.run([tool, "report", "--format=json", path], capture_output=True, text=True)
    if proc.returncode not in (0, 1):  # 1: the program has errors (over-budget is one)
        return 0, [f"{path}: report failed ({proc.returncode}): {proc.stderr[-500:]}"]
    rep = json.loads(proc.stdout)
    formulas = diagnostics(tool, path, options)
    errors, checked = [], 0
    if not formulas:
        errors.append(f"{path}: no diagnostic over formulas")
    for group in groups:
        values = {b: int(v) for b, v in zip(binds, group)}
        for a in rep["assumptions"]:
            if a.get("kind") == "path":  # the run's path, not a condition over sizes
                continue
            if not holds(a["condition"], values):
                errors.append(f"{path}: the values {values} break the assumption "
                              f"{a['condition']!r} (line {a['line']})")
        want = set()
        for line, check, msg in formulas:
            m = WHEN.search(msg)
            if not m or holds(m.group(1), values):
                want.add((line, check))
        got = {(line, check) for line, check, _ in
               diagnostics(tool, path, options + [f"--bind={k}={v}" for k, v in values.items()])}
        checked += 1
        for line, check in sorted(want - got):
            errors.append(f"{path}:{line}: [{check}] holds at {values} by its formula, but the "
                          f"check on those numbers is silent")
        for line, check in sorted(got - want):
            errors.append(f"{path}:{line}: [{check}] fires on the numbers {values}, but not by "
                          f"its formula")
    return checked, errors


def main(argv):
    tool = os.path.abspath(argv[1])
    samples = [p for p in argv[2:] if re.search(r"^// bind: ", open(p, encoding="utf-8").read(),
                                                  re.M)]
    checked, failures = 0, []
    for path in samples:
        n, errors = check_sample(tool, path)
        checked += n
        failures += errors
    for e in failures:
        print(e)
    print(f"formulas: {len(samples)} samples, {checked} sets of values, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
