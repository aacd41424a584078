#!/usr/bin/env python3
"""The documentation's examples as cram tests (tests/docs/README.md).

Every `$ command` line of README.md and docs/*.md, in an indented or a
fenced code block, is an example: its continuation lines (`> `, as cram
writes them) and the output lines under it, up to a blank line,
the end of the block or the next `$`, become one cram test in
tests/docs/<page>.t.  The output is compared as cram compares it: line by
line, a line ending in ` (re)` is a regular expression, ` (glob)` a glob
(`*`, `?`); what the page leaves out it leaves out with the command (a
`| tail -3`, a `| grep`), never silently.

Two rewrites make a page's command run from the test: `build/tools/tensorlint`
is `tensorlint` (setup.sh puts the tool built here first on PATH, and runs
in the source root), and `-p build` is `-p "$TL_BUILD_DIR"` (the build
tree whose compile_commands.json the page uses).

    extract.py SOURCE_DIR            write tests/docs/*.t
    extract.py SOURCE_DIR --check    fail when a .t differs from its page
"""
import pathlib
import re
import sys

PROMPT = re.compile(r"^(\s*)\$ (.*)$")
HEADER = """Generated from {page} by tests/docs/extract.py: do not edit; edit the
page and run `tests/docs/extract.py .` (ctest's docs.examples runs this file
with cram and fails when it no longer matches the page).

  $ . "$TESTDIR/setup.sh"
"""


def rewrite(command):
    command = command.replace("build/tools/tensorlint", "tensorlint")
    return re.sub(r"(^|\s)-p build(\s|$)", r'\1-p "$TL_BUILD_DIR"\2', command)


def examples(text):
    """(command lines, output lines) of every example of a page."""
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        m = PROMPT.match(lines[k])
        if not m or (not m.group(1) and not in_fence(lines, k)):
            k += 1
            continue
        indent = m.group(1)
        command = [m.group(2)]
        k += 1
        while k < len(lines) and lines[k].startswith(indent + "> "):
            command.append(lines[k][len(indent) + 2:])
            k += 1
        output = []
        while (k < len(lines) and lines[k].startswith(indent) and lines[k].strip()
               and not lines[k].startswith("```") and not PROMPT.match(lines[k])):
            output.append(lines[k][len(indent):])
            k += 1
        yield command, output


def in_fence(lines, k):
    return sum(1 for line in lines[:k] if line.startswith("```")) % 2 == 1


def cram_text(page, text):
    out = [HEADER.format(page=page)]
    for command, output in examples(text):
        out.append("  $ " + rewrite(command[0]))
        out.extend("  > " + rewrite(c) for c in command[1:])
        out.extend("  " + line for line in output)
    return "\n".join(out) + "\n"


def main(argv):
    root = pathlib.Path(argv[1])
    check = "--check" in argv[2:]
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    stale = []
    for page in pages:
        rel = page.relative_to(root).as_posix()
        text = page.read_text(encoding="utf-8")
        target = root / "tests" / "docs" / (page.stem + ".t")
        if not any(True for _ in examples(text)):
            if target.exists():
                stale.append(f"{target}: {rel} has no example any more")
            continue
        want = cram_text(rel, text)
        if check:
            if not target.exists() or target.read_text(encoding="utf-8") != want:
                stale.append(f"{target}: out of date with {rel} (run tests/docs/extract.py .)")
        else:
            target.write_text(want, encoding="utf-8")
    for s in stale:
        print(s, file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
