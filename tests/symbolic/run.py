#!/usr/bin/env python3
"""Symbolic sizes, checked against runs.

For each tests/symbolic/*.c: `report --format=json` gives the peak and the
live bytes at the end of main as formulas over the program's run-time
symbols.  For each set of values on the file's `// values:` line (the
symbols named on `// bind:`, passed to the program as its arguments):

  1. the formulas, evaluated at those values (`/` is floor division), must
     equal the totals of `report --bind NAME=VALUE ...` (integers only);
  2. `verify --bind ... --arg=VALUE ...` runs the program with the values
     and must agree on every call, the end bytes and the peak.

So formula(values) == bound report == measured run.  A file may also say
`// env: NAME` to pass the first value through the environment instead.
usage: run.py TENSORLINT
"""
import json
import os
import re
import subprocess
import sys

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|->)[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*(?:#\d+)?")


def evaluate(expr, values):
    """The report's expression syntax, evaluated with Python integers."""
    if isinstance(expr, int):
        return expr

    def sub(m):
        name = m.group(0)
        if name in ("max", "min"):
            return name
        if name not in values:
            raise KeyError("no value for symbol %r in %r" % (name, expr))
        return "(%d)" % values[name]

    return eval(NAME.sub(sub, expr).replace("/", "//"), {"max": max, "min": min})


def main():
    tool = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    failed = checked = 0
    for name in sorted(os.listdir(here)):
        if not name.endswith(".c"):
            continue
        path = os.path.join(here, name)
        text = open(path).read()
        binds = re.search(r"^// bind: (.*)$", text, re.M).group(1).split()
        groups = [g.split() for g in re.search(r"^// values: (.*)$", text, re.M).group(1).split("|")]
        env = re.search(r"^// env: (\S+)$", text, re.M)
        rep = json.loads(subprocess.run([tool, "report", "--format=json", path], check=True,
                                        capture_output=True, text=True).stdout)
        main_f = [f for f in rep["functions"] if f["name"] == "main"][0]
        symbols = {s["name"] for s in rep["symbols"]}
        if not set(binds) <= symbols | {b for b in binds if b.startswith("-")}:
            print("FAIL %s: symbols %s, the test binds %s" % (name, sorted(symbols), binds))
            failed += 1
            continue
        if isinstance(main_f["peak_live_bytes"], int):
            print("FAIL %s: the peak is not a formula: %r" % (name, main_f["peak_live_bytes"]))
            failed += 1
            continue
        for group in groups:
            values = {b: int(v) for b, v in zip(binds, group)}
            bind_args = ["--bind=%s=%d" % kv for kv in values.items()]
            bound = json.loads(subprocess.run([tool, "report", "--format=json", path] + bind_args,
                                              check=True, capture_output=True, text=True).stdout)
            bf = [f for f in bound["functions"] if f["name"] == "main"][0]
            for key in ("peak_live_bytes", "end_live_bytes", "moved_bytes"):
                got = evaluate(main_f[key], values)
                checked += 1
                if got != bf[key]:
                    print("FAIL %s %s: %s = %r at %s, the bound report says %r"
                          % (name, key, main_f[key], got, values, bf[key]))
                    failed += 1
            run_env = dict(os.environ)
            run_args = ["--arg=%s" % v for v in group]
            if env:
                run_env[env.group(1)] = group[0]
                run_args = ["--arg=%s" % v for v in group[1:]]
            v = subprocess.run([tool, "verify"] + bind_args + run_args + [path, "--", "-DDEVICE=TL_CPU"],
                               capture_output=True, text=True, env=run_env)
            checked += 1
            last = (v.stdout.strip().splitlines() or ["(no output)"])[-1]
            if v.returncode != 0 or "0 disagreements" not in last or "not compared" in last:
                print("FAIL %s verify at %s: exit %d: %s %s" % (name, values, v.returncode, last,
                                                                 v.stderr.strip()[-300:]))
                failed += 1
    print("symbolic: %d checks, %d failed" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
