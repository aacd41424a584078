#!/usr/bin/env python3
"""compare_losses.py: runs a training sample and compares the losses it
prints ("step S loss L", and "val S loss L" for an evaluation) with its
PyTorch twin's, recorded in a fixture: every line must be there and agree
to 1e-5 relative.

usage: compare_losses.py PROGRAM EXPECTED WORK_DIR [ARGS...]
"""
import os
import re
import subprocess
import sys

REL = 1e-5


def losses(text):
    return {(m.group(1), int(m.group(2))): float(m.group(3))
            for m in re.finditer(r"^(step|val) (\d+) loss (\S+)$", text, re.M)}


def main():
    program, expected, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    run = subprocess.run([program] + sys.argv[4:], cwd=work, capture_output=True, text=True)
    if run.returncode != 0:
        print("%s exited with %d:\n%s" % (program, run.returncode, run.stderr[-2000:]))
        return 1
    want, got = losses(open(expected).read()), losses(run.stdout)
    if not want:
        print("%s holds no losses" % expected)
        return 1
    bad = 0
    for step in sorted(want):
        if step not in got:
            print("%s %d: no loss printed" % step)
            bad += 1
            continue
        rel = abs(got[step] - want[step]) / abs(want[step])
        mark = "ok" if rel <= REL else "FAIL"
        bad += mark == "FAIL"
        print("%s %2d: %.9g (PyTorch %.9g, relative %.1e) %s" % (step + (got[step], want[step], rel, mark)))
    print("losses: %d lines, %d outside %g relative" % (len(want), bad, REL))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
