#!/usr/bin/env python3
"""The runner's own test: annotated.py must fail where a test is wrong or
the analysis disagrees, in every folder, so that a green annotated test
means something.  Each case is one of the project's tests with one change
(a copy, in a scratch folder); the runner's exit status and the message it
prints are checked.
usage: selftest.py TENSORLINT"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
SCHEMA = os.path.join(TESTS, "checks", "sarif-2.1.0-rtm.5.json")

# (name, kind, test (a file, or a folder for multifile and baseline), file changed in it,
#  replace this, with this, append, want exit, want in output)
CASES = [
    ("as-is", "interp", "interp/locals.c", "", "", "", "", 0, "PASS"),
    ("wrong-shape", "interp", "interp/locals.c", "", "expected: t shape=(3, 2)",
     "expected: t shape=(2, 3)", "", 1, "t: shape: expected (2, 3), got (3, 2)"),
    ("wrong-total", "interp", "interp/locals.c", "", "peak=64 end=0", "peak=65 end=0", "", 1,
     "main: peak: expected 65, got 64"),
    ("bound-claimed", "interp", "interp/locals.c", "", "peak=64 end=0", "peak>=64 end=0", "", 1,
     "expected 64 marked as a bound; the report claims it exact"),
    ("missing-note", "interp", "interp/locals.c", "", "{{[copy-then-slice]}}",
     "{{[copy-then-slice]}} // expected-note {{nothing here}}", "", 1,
     "missing expected-note {{nothing here}}"),
    ("unexpected-warning", "interp", "interp/locals.c", "",
     " // expected-warning {{16 B copied for nothing}} {{[copy-then-slice]}}", "", "", 1,
     "unexpected warning"),
    ("wrong-check", "interp", "interp/locals.c", "", "{{[copy-then-slice]}}",
     "{{[hidden-copy]}}", "", 1, "missing expected-warning {{16 B copied for nothing}}"),
    ("count", "interp", "interp/locals.c", "", "expected-warning {{16 B",
     "expected-warning 2 {{16 B", "", 1, "missing expected-warning 2"),
    ("old-dialect", "interp", "interp/locals.c", "", "expected: t shape", "expect: t shape", "",
     1, "'expect:' is not this dialect"),
    ("no-such-value", "interp", "interp/locals.c", "", "expected: r shape", "expected: q shape",
     "", 1, "expected 'q' at line 9"),
    ("xpass", "interp", "interp/locals.c", "", "", "", "// xfail: it passes\n", 1, "XPASS"),
    ("xfail", "interp", "interp/locals.c", "", "expected: t shape=(3, 2)",
     "expected: t shape=(3, 2) kind=new", "// xfail: wrong\n", 1,
     "expectations that the run contradicts"),
    ("bad-key", "interp", "interp/locals.c", "", "expected: t shape",
     "expected: t colour=red shape", "", 1, "unknown key 'colour'"),
    ("wrong-exec", "interp", "interp/locals.c", "", "expected: t shape=(3, 2)",
     "expected: t exec=2 shape=(3, 2)", "", 1, "t: exec: expected 2, got 1"),
    ("exec-bound-claimed", "interp", "interp/locals.c", "", "expected: t shape=(3, 2)",
     "expected: t exec<=1 shape=(3, 2)", "", 1,
     "exec: expected 1 marked as not exact; the report claims it exact"),
    ("exec-formula-no-value", "interp", "interp/locals.c", "", "expected: t shape=(3, 2)",
     "expected: t exec=n shape=(3, 2)", "", 1,
     "no value for symbol 'n' in 'n' (// values: n=N)"),
    # every assumption on the run's path is expected, and exists
    ("unexpected-assumption", "interp", "interp/path_exits.c", "",
     " // expected-assumption {{exit(4)}}", "", "", 1, "unexpected assumption: argc == 3 is false"),
    ("missing-assumption", "interp", "interp/path_exits.c", "", "{{exit(4)}}", "{{exit(5)}}", "",
     1, "missing assumption {{exit(5)}}"),
    # tests/checks: the check is named in {{[...]}}, a text ending the message in {{text [check]}}
    ("checks-as-is", "checks", "checks/hidden_copy.c", "", "", "", "", 0, "1 samples passed"),
    ("checks-wrong-check", "checks", "checks/hidden_copy.c", "",
     "tl_reshape(t, TL_SHAPE(8192)); // expected-warning {{[hidden-copy]}}",
     "tl_reshape(t, TL_SHAPE(8192)); // expected-warning {{[upcast]}}", "", 1,
     "unexpected warning"),
    ("checks-missing-note", "checks", "checks/hidden_copy.c", "", "{{come from tl_transpose here}}",
     "{{come from tl_permute here}}", "", 1, "missing expected-note {{come from tl_permute here}}"),
    ("checks-end", "checks", "checks/late_release_symbolic.c", "", "(saves 1048576*width B) [",
     "(saves 1048576*width) [", "", 1, "missing expected-warning"),
    # tests/symbolic: its directives fail before any run
    ("symbolic-bounds", "symbolic", "symbolic/peak_many.c", "",
     "expected-bounds: peak_live_bytes", "expected-bounds: end_live_bytes", "", 1,
     "the totals marked as bounds are ['peak_live_bytes'], expected ['end_live_bytes']"),
    ("symbolic-symbols", "symbolic", "symbolic/early_stop.c", "",
     "// symbols: steps dim pos.iterations", "// symbols: steps dim", "", 1,
     "the report's symbols are"),
    # tests/multifile: a project's facts, in any of its files
    ("multifile-wrong-peak", "multifile", "multifile/model", "main.c", "peak=8704", "peak=8705", "",
     1, "peak: expected 8705, report says 8704"),
    ("multifile-missing-note", "multifile", "multifile/model", "layers.c", "{{[unsupported]}}",
     "{{[unknown-branch]}}", "", 1, "unexpected note"),
    # tests/baseline: the new diagnostics only
    ("baseline-wrong-check", "baseline", "baseline", "clone.head.c",
     "tl_add(y, y); // expected-warning {{[peak-regression]}}",
     "tl_add(y, y); // expected-warning {{[late-release]}}", "", 1,
     "missing expected-warning {{[late-release]}}"),
]


def command(tool, kind, path):
    runner = [sys.executable, os.path.join(HERE, "annotated.py"), kind, tool]
    if kind == "baseline":
        return runner + [SCHEMA, path]
    return runner + [path]


def main(tool):
    failed = skipped = 0
    try:
        import jsonschema  # noqa: F401  (the baseline's SARIF is validated with it)
    except ImportError:
        jsonschema = None
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, test, inner, old, new, tail, rc, text in CASES:
            if kind == "baseline" and jsonschema is None:
                skipped += 1
                continue
            src = os.path.join(TESTS, test)
            path = os.path.join(tmp, name, os.path.basename(test))
            if os.path.isdir(src):
                shutil.copytree(src, path)
            else:
                os.makedirs(os.path.dirname(path))
                shutil.copy(src, path)
            changed = os.path.join(path, inner) if inner else path
            with open(changed, encoding="utf-8") as f:
                base = f.read()
            if old and old not in base:
                print(f"FAIL {name}: {test} {inner} no longer holds '{old}'")
                failed += 1
                continue
            with open(changed, "w", encoding="utf-8") as f:
                f.write((base.replace(old, new, 1) if old else base) + tail)
            proc = subprocess.run(command(tool, kind, path), capture_output=True, text=True,
                                  timeout=600)
            if proc.returncode != rc or text not in proc.stdout:
                print(f"FAIL {name}: exit {proc.returncode} (want {rc}, '{text}'):\n{proc.stdout}")
                failed += 1
    print(f"annotated runner: {len(CASES) - failed - skipped} passed, {failed} failed"
          f"{f', {skipped} skipped (no jsonschema)' if skipped else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
