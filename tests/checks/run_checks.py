#!/usr/bin/env python3
"""Golden tests of `tensorlint check`: every sample carries its expected
diagnostics as comments on the lines they belong to, clang's -verify style:

    y = tl_reshape(t, TL_SHAPE(8192)); // expected-warning {{hidden-copy}}
    // expected-warning@+1 {{upcast}}          (the next line; @-1 the previous)
    ... // expected-note {{text of a note}}     (optional: notes are only checked
                                                 where a comment asks for them)

A diagnostic is (line, severity, check); each expected one must appear and
nothing else may (a missing or an unexpected diagnostic fails the sample).
`{{check: text}}` also asks that its message contain text (as clang's
-verify does); a text ending in `$` must end the message:

    ... // expected-warning {{late-release: (saves 4*n*d B) (when n*d >= 262144)$}}

An `// expected-note {{name}}` whose name is a check matches a note-level
diagnostic of that check ([external-call] ...); otherwise it matches the
text of a note attached to a diagnostic on that line.  A line
`// CHECK-OPTIONS: --upcast-threshold=1K` passes options to the command.

Files listed in an expectations file (samples the project keeps elsewhere)
are checked against it instead: lines `path:line: severity check`, `#`
comments.  A listed file with no lines must be silent.

usage: run_checks.py TENSORLINT [--expect FILE] [--bless] SAMPLE.c...
  --bless   rewrite the expectations file from the current output (review it)
"""
import os
import re
import subprocess
import sys

DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|note): (.*?)(?: \[([a-z-]+)(,-warnings-as-errors)?\])?$")
EXPECT = re.compile(r"expected-(warning|error|note)(@[+-]\d+)?\s*\{\{(.*?)\}\}")
OPTIONS = re.compile(r"CHECK-OPTIONS:(.*)$")


def run(tool, path, options):
    proc = subprocess.run([tool, "check", *options, path], capture_output=True, text=True,
                          timeout=300)
    diags, notes = [], []
    for line in proc.stderr.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        lineno, sev, msg, check = int(m.group(2)), m.group(4), m.group(5), m.group(6)
        if check:
            diags.append((lineno, sev, check, msg))
        else:
            notes.append((lineno, msg))
    return proc.returncode, diags, notes, proc.stderr


def annotations(path):
    want, want_notes, options = [], [], []
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            m = OPTIONS.search(text)
            if m:
                options += m.group(1).split()
            for sev, rel, what in EXPECT.findall(text):
                line = n + int(rel[1:]) if rel else n
                if sev == "note" and not re.fullmatch(r"[a-z-]+", what):
                    want_notes.append((line, what))
                else:
                    check, _, text = what.partition(":")
                    want.append((line, sev, check.strip(), text.strip() or None))
    return want, want_notes, options


def says(msg, text):
    """Whether the message holds text (at its end when text ends in '$')."""
    if text is None:
        return True
    return msg.endswith(text[:-1]) if text.endswith("$") else text in msg


def compare(name, want, got, want_notes, notes):
    errors = []
    pending = list(got)
    for w in sorted(want, key=lambda w: w[3] is None):  # those with a text first
        match = next((g for g in pending if g[:3] == w[:3] and says(g[3], w[3])), None)
        if match:
            pending.remove(match)
        elif w[3] is not None and any(g[:3] == w[:3] for g in pending):
            other = next(g for g in pending if g[:3] == w[:3])
            pending.remove(other)
            errors.append(f"{name}:{w[0]}: {w[1]} [{w[2]}] does not say '{w[3]}': {other[3]}")
        else:
            errors.append(f"{name}:{w[0]}: missing {w[1]} [{w[2]}]")
    errors += [f"{name}:{g[0]}: unexpected {g[1]} [{g[2]}]" for g in pending]
    for line, text in want_notes:
        if not any(n == line and text in msg for n, msg in notes):
            errors.append(f"{name}:{line}: missing note containing '{text}'")
    return errors


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
            table.setdefault(file, []).append((int(line), sev, check, None))
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
        out += [f"{file}:{l}: {s} {c}" for l, s, c, _ in sorted(got)]
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
            want, want_notes, options = table[rel], [], []
        else:
            want, want_notes, options = annotations(path)
        rc, got, notes, stderr = run(tool, path, options)
        results[rel] = got
        errors = compare(rel, want, got, want_notes, notes)
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
