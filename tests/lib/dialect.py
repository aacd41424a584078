"""The annotated C tests' one dialect (tests/README.md), read by the one
runner (annotated.py) for every folder: the facts a file claims, in //
comments on the lines they describe, in the manner of clang's -verify.

    // expected-warning {{[hidden-copy]}}               a warning of that check on this line
    // expected-warning@+1 2 {{[upcast]}} {{f16}}        two on the next line, each saying f16
    // expected-note {{not analysed}}                   a note saying that (@-N: N lines above)
    // expected: t shape=(3, 2) kind=view               the facts of the value made on this line
    // expected-func: peak=64 end=0                     the totals of the function named here

One rule matches a diagnostic: every `{{...}}` of the annotation is a
substring of the diagnostic as `tensorlint check` prints it, its message
followed by ` [check]` when it has a check: so `{{[upcast]}}` names the
check, `{{text}}` asks for text in the message, and `{{text [check]}}` for
a message that ends with text.  Severities: error, warning, note, remark;
an optional count N before the first `{{` asks for N of them.

Other kinds take `{{...}}` alike (`expected-assumption`,
`expected-link-error`); the facts of values and totals take key=value
words (`expected:`, `expected-func:`, `expected-bounds:`); file-level
directives are `// NAME: ...` lines (values:, no-verify:, xfail:, ...),
read by the runner of each folder.
"""
import re
from collections import namedtuple

SEVERITIES = ("error", "warning", "note", "remark")
REL = r"(?:@([+-]\d+))?"
# a {{...}} kind: the severities, then expected-assumption and expected-link-error
BRACED = re.compile(r"expected-(error|warning|note|remark|assumption|link-error)" + REL +
                    r"(?:\s+(\d+))?((?:\s*\{\{.*?\}\})+)")
# a key=value kind: expected: (a value), expected-func: (totals), expected-bounds:
FACTS = re.compile(r"expected(-func|-bounds)?" + REL + r":(.*?)(?=//|expected[-:@]|$)")
CONTENT = re.compile(r"\{\{(.*?)\}\}")
# what an annotation looks like that this dialect does not read (the old
# dialects: expect:, expect-warning {{text}} [check]): an error, never ignored
STRAY = re.compile(r"\bexpect(?:-[a-z]+)?(?:@[+-]\d+)?\s*(?::|\{\{)|"
                   r"expected-[a-z-]+(?:@[+-]\d+)?(?:\s+\d+)?\s*\{\{[^}]*\}\}\s*\[|"
                   r"expected-(?:error|warning|note|remark|assumption|link-error)"
                   r"(?:@[+-]\d+)?(?!\s*(?:\d+\s*)?\{\{|[\w@-])")

# kind: "value", "func", "bounds", or a braced kind ("warning", "assumption" ...);
# line: the line it describes (@+N applied); at: the line it is written on;
# contents: the {{...}} texts; text: a key=value kind's words; count: how many
Annotation = namedtuple("Annotation", "kind line at contents text count")


class BadAnnotation(Exception):
    """An annotation that cannot be read."""


def comment_of(text):
    """The // comment of a source line ('' when it has none)."""
    k = text.find("//")
    return text[k:] if k >= 0 else ""


def read_line(comment, n):
    """The annotations of one line's comment, in the order written."""
    found = []
    for m in BRACED.finditer(comment):
        kind, rel, count, braced = m.groups()
        found.append((m.start(), Annotation(kind, n + int(rel) if rel else n, n,
                                            CONTENT.findall(braced), None,
                                            int(count) if count else 1)))
    for m in FACTS.finditer(comment):
        kind = {"": "value", "-func": "func", "-bounds": "bounds"}[m.group(1) or ""]
        found.append((m.start(), Annotation(kind, n + int(m.group(2)) if m.group(2) else n, n,
                                            [], m.group(3).strip(), 1)))
    if STRAY.search(comment):
        raise BadAnnotation(f"line {n}: '{STRAY.search(comment).group(0).strip()}' is not this "
                            f"dialect (tests/README.md): expected-KIND {{{{...}}}}, "
                            f"the check as {{{{[check]}}}}")
    return [a for _, a in sorted(found, key=lambda p: p[0])]


def read_file(path):
    """(annotations, lines) of a file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    for n, text in enumerate(lines, 1):
        comment = comment_of(text)
        if "expect" in comment:
            out += read_line(comment, n)
    return out, lines


def printed(message, check):
    """A diagnostic as `tensorlint check` prints it: its message, then [check]."""
    return message + (f" [{check}]" if check else "")


def says(contents, message, check):
    """The one rule: every {{...}} is a substring of the diagnostic as printed."""
    text = printed(message, check)
    return all(c in text for c in contents)


def show(a):
    """An annotation as written, for a failure's message."""
    if a.kind in ("value", "func", "bounds"):
        return f"expected{'' if a.kind == 'value' else '-' + a.kind}: {a.text}"
    count = f" {a.count}" if a.count != 1 else ""
    return f"expected-{a.kind}{count} " + " ".join("{{" + c + "}}" for c in a.contents)


def match_diagnostics(want, got, attached=(), where=""):
    """want: the annotations of severities ((file, Annotation) pairs: file
    None for one file); got: the diagnostics ((file, line, severity, message,
    check)); attached: notes attached to them ((file, line, message)), which
    an expected-note may match when no diagnostic does.  Every expected one
    must be there, N times for a count N, and nothing else may be: the
    failures, as text."""
    errors, pending = [], list(got)
    # those that say more first, so that a bare {{[check]}} takes what is left
    for file, a in sorted(want, key=lambda w: -sum(len(c) for c in w[1].contents)):
        for _ in range(a.count):
            hit = next((g for g in pending if g[:3] == (file, a.line, a.kind) and
                        says(a.contents, g[3], g[4])), None)
            if hit:
                pending.remove(hit)
            elif a.kind == "note" and any((f, ln) == (file, a.line) and says(a.contents, msg, None)
                                          for f, ln, msg in attached):
                pass
            else:
                errors.append(f"{file + ':' if file else where}{a.line}: missing {show(a)}")
                break
    for f, line, sev, msg, check in pending:
        errors.append(f"{f + ':' if f else where}{line}: unexpected {sev}: {printed(msg, check)}")
    return errors
