#!/usr/bin/env python3
"""Golden tests of `tensorlint check` (tests/checks): every sample carries
its expected diagnostics in the dialect of tests/README.md, on the lines
they belong to:

    y = tl_reshape(t, TL_SHAPE(8192)); // expected-warning {{[hidden-copy]}}
    // expected-warning@+1 {{[upcast]}} {{f16}}   (the next line; @-1 the previous)
    ... // expected-note {{text of a note}}

Each expected diagnostic must appear and nothing else that has a check may
(a missing or an unexpected one fails the sample); a note with no check is
checked only where a comment asks for it: an expected-note matches a
note-level diagnostic ([external-call] ...), else a note attached to a
diagnostic on its line.  A line `// CHECK-OPTIONS: --upcast-threshold=1K`
passes options to the command.

Files listed in an expectations file (samples the project keeps elsewhere)
are checked against it instead: lines `path:line: severity check`, `#`
comments.  A listed file with no lines must be silent.

usage: annotated.py checks TENSORLINT [--expect FILE] [--bless] SAMPLE.c...
  --bless   rewrite the expectations file from the current output (review it)
"""
import os
import re
import subprocess
import sys

from dialect import Annotation, SEVERITIES, match_diagnostics, read_file

DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|note): (.*?)(?: \[([a-z-]+)(,-warnings-as-errors)?\])?$")
OPTIONS = re.compile(r"CHECK-OPTIONS:(.*)$")


def run(tool, path, options):
    """(exit status, diagnostics with a check, notes without one, stderr)."""
    proc = subprocess.run([tool, "check", *options, path], capture_output=True, text=True,
                          timeout=300)
    return (proc.returncode, *diagnostics(proc.stderr), proc.stderr)


def diagnostics(text):
    """`check`'s text: (None, line, severity, message, check) for those with a
    check, (None, line, message) for the rest (a diagnostic's notes)."""
    diags, notes = [], []
    for line in text.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        lineno, sev, msg, check = int(m.group(2)), m.group(4), m.group(5), m.group(6)
        if check:
            diags.append((None, lineno, sev, msg, check))
        else:
            notes.append((None, lineno, msg))
    return diags, notes


def annotations(path):
    """The file's expected diagnostics ((None, Annotation) pairs) and options."""
    found, lines = read_file(path)
    options = []
    for text in lines:
        m = OPTIONS.search(text)
        if m:
            options += m.group(1).split()
    return [(None, a) for a in found if a.kind in SEVERITIES], options


def listed(line, sev, check):
    """A line of the expectations file as an annotation."""
    return (None, Annotation(sev, line, line, ["[%s]" % check], None, 1))


def load_expectations(path):
    table = {}
    if not path or not os.path.exists(path):
        return table
    with open(path, encoding="utf-8") as f:
        for raw in f:
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            if text.endswith(":"):
                table.setdefault(text[:-1], [])
                continue
            loc, sev, check = text.split()
            file, line = loc.rstrip(":").rsplit(":", 1)
            table.setdefault(file, []).append(listed(int(line), sev, check))
    return table


def bless(path, table, results):
    header = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            header = [l for l in f.read().splitlines() if l.startswith("#")]
    out = header[:]
    for file in sorted(table):
        got = results.get(file, [])
        out.append(f"{file}:")
        out += [f"{file}:{l}: {s} {c}" for l, s, c in sorted((g[1], g[2], g[4]) for g in got)]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main(argv):
    tool, expect_file, do_bless, samples = argv[1], None, False, []
    args = iter(argv[2:])
    for a in args:
        if a == "--expect":
            expect_file = next(args)
        elif a == "--bless":
            do_bless = True
        else:
            samples.append(a)
    table = load_expectations(expect_file)
    failures, results, passed = [], {}, 0
    for path in samples:
        rel = os.path.relpath(path)
        if rel in table:
            want, options = table[rel], []
        else:
            want, options = annotations(path)
        rc, got, notes, stderr = run(tool, path, options)
        results[rel] = got
        errors = match_diagnostics(want, got, notes, where=f"{rel}:")
        if rc not in (0, 1):  # 2: not analysed; others: a crash or a sanitizer
            errors.append(f"{rel}: tensorlint check failed (exit {rc}):\n{stderr}")
        if errors:
            failures += errors
        else:
            passed += 1
    if do_bless and expect_file:
        for path in samples:  # every sample named joins the table
            table.setdefault(os.path.relpath(path), [])
        bless(expect_file, table, results)
    for e in failures:
        print(e)
    print(f"checks: {passed} samples passed, {len(samples) - passed} failed")
    return 0 if passed == len(samples) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
