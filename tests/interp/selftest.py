#!/usr/bin/env python3
"""The runner's own test: run.py must fail where a test is wrong or the
analysis disagrees, so that a green tests/interp means something.  Each case
is tests/interp/locals.c (or the file a case names) with one change; the
runner's exit status and the message it prints are checked.
usage: selftest.py TENSORLINT"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "locals.c")

# (name, replace this, with this, append, want exit, want in output)
CASES = [
    ("as-is", "", "", "", 0, "PASS"),
    ("wrong-shape", "expect: t shape=(3, 2)", "expect: t shape=(2, 3)", "", 1,
     "t: shape: expected (2, 3), got (3, 2)"),
    ("wrong-total", "peak=64 end=0", "peak=65 end=0", "", 1, "main: peak: expected 65, got 64"),
    ("bound-claimed", "peak=64 end=0", "peak>=64 end=0", "", 1,
     "expected 64 marked as a bound; the report claims it exact"),
    ("missing-warning", "[copy-then-slice]", "[copy-then-slice] // expect-note {{nothing here}}",
     "", 1, "missing note {{nothing here}}"),
    ("unexpected-warning", " // expect-warning {{16 B copied for nothing}} [copy-then-slice]", "",
     "", 1, "unexpected warning"),
    ("no-such-value", "expect: r shape", "expect: q shape", "", 1, "expected 'q' at line 9"),
    ("xpass", "", "", "// xfail: it passes\n", 1, "XPASS"),
    ("xfail", "expect: t shape=(3, 2)", "expect: t shape=(3, 2) kind=new", "// xfail: wrong\n",
     1, "expectations that the run contradicts"),
    ("bad-key", "expect: t shape", "expect: t colour=red shape", "", 1, "unknown key 'colour'"),
    ("wrong-exec", "expect: t shape=(3, 2)", "expect: t exec=2 shape=(3, 2)", "", 1,
     "t: exec: expected 2, got 1"),
    ("exec-bound-claimed", "expect: t shape=(3, 2)", "expect: t exec<=1 shape=(3, 2)", "", 1,
     "exec: expected 1 marked as not exact; the report claims it exact"),
    ("exec-formula-no-value", "expect: t shape=(3, 2)", "expect: t exec=n shape=(3, 2)", "", 1,
     "no value for symbol 'n' in 'n' (// values: n=N)"),
    # on path_exits.c: every assumption on the run's path is expected, and exists
    ("unexpected-assumption", " // expect-assumption {{exit(4)}}", "", "", 1,
     "unexpected assumption: argc == 3 is false", "path_exits.c"),
    ("missing-assumption", "{{exit(4)}}", "{{exit(5)}}", "", 1, "missing assumption {{exit(5)}}",
     "path_exits.c"),
]


def main(tool):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, old, new, tail, rc, text, *on in CASES:
            with open(os.path.join(HERE, on[0]) if on else BASE, encoding="utf-8") as f:
                base = f.read()
            if old and old not in base:
                print(f"FAIL {name}: {on[0] if on else 'locals.c'} no longer holds '{old}'")
                failed += 1
                continue
            path = os.path.join(tmp, f"{name}.c")
            with open(path, "w", encoding="utf-8") as f:
                f.write((base.replace(old, new, 1) if old else base) + tail)
            proc = subprocess.run([sys.executable, os.path.join(HERE, "run.py"), tool, path],
                                  capture_output=True, text=True, timeout=600)
            if proc.returncode != rc or text not in proc.stdout:
                print(f"FAIL {name}: exit {proc.returncode} (want {rc}, '{text}'):\n{proc.stdout}")
                failed += 1
    print(f"interp runner: {len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
