#!/usr/bin/env python3
"""Every fix-it `tensorlint check` offers must do what it says: applied to a
copy of the sample (clang's parseable form, `fix-it:"file":{l:c-l:c}:"text"`),
the copy must still compile, introduce no error (a release moved above a
use would be use-after-release), and lose exactly the diagnostics that
carried the fix-its.

usage: fixits.py TENSORLINT SAMPLE.c...
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

FIXIT = re.compile(r'^fix-it:"((?:[^"\\]|\\.)*)":\{(\d+):(\d+)-(\d+):(\d+)\}:"((?:[^"\\]|\\.)*)"$')
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|note): .*\[([a-z-]+)(,-warnings-as-errors)?\]$")
OPTIONS = re.compile(r"CHECK-OPTIONS:(.*)$")


def unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n in "01234567":
                out.append(chr(int(s[i + 1:i + 4], 8)))
                i += 4
                continue
            out.append({"n": "\n", "t": "\t"}.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def check(tool, path, options):
    proc = subprocess.run([tool, "check", *options, path], capture_output=True, text=True,
                          timeout=300)
    diags, fixes, current = [], [], None
    for line in proc.stderr.splitlines():
        m = DIAG.match(line)
        if m:
            current = (m.group(4), m.group(5))
            diags.append(current)
            continue
        m = FIXIT.match(line)
        if m and current:
            fixes.append((current[1], int(m.group(2)), int(m.group(3)), int(m.group(4)),
                          int(m.group(5)), unescape(m.group(6))))
    return proc.returncode, diags, fixes


def apply(text, fixes):
    lines = text.split("\n")
    starts = [0]
    for l in lines:
        starts.append(starts[-1] + len(l) + 1)
    def offset(line, col):
        return starts[line - 1] + col - 1
    edits = sorted(((offset(l, c), offset(el, ec), t) for _, l, c, el, ec, t in fixes),
                   reverse=True)
    for b, e, t in edits:
        text = text[:b] + t + text[e:]
    return text


def options_of(source):
    options = []
    for line in source.splitlines():
        m = OPTIONS.search(line)
        if m:
            options += m.group(1).split()
    return options


def verify(tool, path):
    """The problems of applying path's fix-its, and how many there were."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    options = options_of(source)
    _, before, fixes = check(tool, path, options)
    if not fixes:
        return [], 0
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        with open(copy, "w", encoding="utf-8") as f:
            f.write(apply(source, fixes))
        rc, after, _ = check(tool, copy, options)
    problems = []
    count_b, count_a = collections.Counter(before), collections.Counter(after)
    fixed = {c for c, *_ in fixes}
    if rc not in (0, 1):
        problems.append(f"{path}: the fixed copy is not analysed (exit {rc})")
    for key in count_a:
        if count_a[key] > count_b[key]:
            problems.append(f"{path}: the fix-its add {key[0]} [{key[1]}]")
    for key in count_b:
        if key[1] in fixed and count_a[key] >= count_b[key]:
            problems.append(f"{path}: the fix-its for [{key[1]}] leave it firing")
    return problems, len(fixes)


def main(argv):
    tool, problems, n_fixes = argv[1], [], 0
    for path in argv[2:]:
        p, n = verify(tool, path)
        problems += p
        n_fixes += n
    for p in problems:
        print(p)
    print(f"fixits: {n_fixes} fix-its applied, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
