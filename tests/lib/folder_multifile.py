#!/usr/bin/env python3
"""Multi-file programs analysed as one (tensorlint -p BUILD_DIR).

Each folder under tests/multifile/ is a small C project: every *.c in it is
a translation unit of one program.  The runner writes the project's
compile_commands.json into a fresh build folder (each entry runs in the
project's folder and names its file relatively, as CMake's and bear's do),
then checks, with the facts written beside the lines they describe:

  1. `tensorlint report -p BUILD --format=json`: every annotation below, and
     every diagnostic of the report (notes included, each at its own file and
     line) must be expected; so a call of a function the program defines that
     the analysis did not follow (external-call) fails the test;
  2. `tensorlint check -p BUILD --program`: the same diagnostics, each in
     its file (its notes too), as the annotations say;
  2b. `graph -p BUILD` and `lifetimes -p BUILD` draw main of the program,
     with the calls the report counts; the graph, the lifetimes (text, and
     the SVG's table as dot), the text report, the markdown summary and
     verify's messages name the file of every line they name;
  3. `tensorlint verify -p BUILD`: the program is built from all its units
     against the runtime and run, and every prediction must agree;
  4. captures (docs/ci.md): on a copy of the project, the report from
     captures (made alone by `capture -p`, or by a report, and read back)
     is the report from parsing, byte for byte; after one unit is edited
     only it is parsed again; damaged captures are parsed again.

Annotations, in the dialect of tests/README.md, in any file of the project:

  // expected: [NAME] key=value ...     the tensor-returning call on this line
        op=relu shape=(2, 3) strides=(3, 1) bytes=N kind=new|view exec=N
        freed=FILE:LINE (the release that frees its storage; freed=? never)
  // expected-func: peak=N end=N moved=N calls=N   on the line naming the function
        (exact numbers: the report must not mark them as bounds)
  // expected-error {{text}} {{[check]}}  a diagnostic here (expected-warning,
  // expected-note {{text}}              expected-note likewise; a note is one of
                                         any diagnostic's notes, and every one
                                         of them must be expected)
  // expected-link-error {{text}}        the program does not link: report exits
                                         2 and says text, naming this file:line
  // no-verify: REASON                   the program is not run

usage: annotated.py multifile TENSORLINT PROJECT_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dialect import SEVERITIES, match_diagnostics, read_file  # noqa: E402


def fail(msg):
    print("FAIL: " + msg)
    return 1


def read_annotations(project):
    """[(file, Annotation)] and the no-verify reason (or None)."""
    out, no_verify = [], None
    for name in sorted(os.listdir(project)):
        if not name.endswith(('.c', '.h')):
            continue
        found, lines = read_file(os.path.join(project, name))
        out += [(name, a) for a in found]
        for text in lines:
            if 'no-verify:' in text:
                no_verify = text.split('no-verify:', 1)[1].strip()
    return out, no_verify


def write_database(project, build):
    units = sorted(n for n in os.listdir(project) if n.endswith('.c'))
    entries = [{"directory": os.path.abspath(project), "file": n,
                "arguments": ["cc", "-std=gnu11", "-c", n, "-o", n + ".o"]} for n in units]
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


def parse_kv(body):
    name, kv = None, {}
    for tok in re.findall(r'\S+=\([^)]*\)|\S+', body):
        if '=' in tok:
            k, v = tok.split('=', 1)
            kv[k] = v
        elif name is None:
            name = tok
    return name, kv


def where(obj, file_key="file", line_key="line"):
    return (os.path.basename(obj.get(file_key) or ""), obj.get(line_key))


def check_value(rep, storages, file, line, body):
    name, kv = parse_kv(body)
    cands = [v for f in rep["functions"] for v in f["values"]
             if where(v) == (file, line) and (name is None or v["name"] == name or
                                              (name == '-' and v["name"] is None))]
    if 'op' in kv:
        cands = [v for v in cands if v["op"] == kv["op"]]
    uniq = {v["id"]: v for v in cands}
    if len(uniq) != 1:
        return ["%s:%d: expect %s: %d values match" % (file, line, body, len(uniq))]
    v = list(uniq.values())[0]
    errs = []
    st = storages.get(v["storage"])
    for k, want in kv.items():
        if k == 'op':
            continue
        if k in ('shape', 'strides'):
            got = v[k]
            got = None if got is None else "(" + ", ".join(str(x) for x in got) + ("," if len(got) == 1 else "") + ")"
        elif k == 'bytes':
            got = None if st is None else str(st["nbytes"])
        elif k == 'kind':
            got = v["kind"]
        elif k == 'exec':
            got = str(v["executions"])
        elif k == 'freed':
            got = '?' if st is None or st.get("free_line") is None else \
                "%s:%d" % (os.path.basename(st["free_file"]), st["free_line"])
        else:
            errs.append("%s:%d: unknown key %s" % (file, line, k))
            continue
        if str(got) != want:
            errs.append("%s:%d: %s: expected %s, report says %s" % (file, line, k, want, got))
    return errs


def check_func(rep, file, line, body):
    _, kv = parse_kv(body)
    fs = [f for f in rep["functions"] if os.path.basename(f["file"]) == file]
    # the function whose name is on this line
    with open(os.path.join(PROJECT, file)) as src:
        text = src.read().splitlines()[line - 1]
    fs = [f for f in fs if re.search(r'\b%s\s*\(' % re.escape(f["name"]), text)]
    if len(fs) != 1:
        return ["%s:%d: expect-func: %d functions match" % (file, line, len(fs))]
    f, errs = fs[0], []
    keys = {'peak': 'peak_live_bytes', 'end': 'end_live_bytes', 'moved': 'moved_bytes',
            'calls': 'calls'}
    for k, want in kv.items():
        if k not in keys:
            errs.append("%s:%d: unknown key %s" % (file, line, k))
            continue
        if str(f[keys[k]]) != want:
            errs.append("%s:%d: %s: expected %s, report says %s" % (file, line, k, want, f[keys[k]]))
        if keys[k] in f.get("not_exact", []):
            errs.append("%s:%d: %s is marked as a bound" % (file, line, k))
    return errs


def report_diags(rep):
    got = []
    for d in rep["diagnostics"]:
        got.append((os.path.basename(d["file"]), d["line"], d["severity"], d["message"], d["check"]))
        for n in d.get("notes", []):
            got.append((os.path.basename(n.get("file") or d["file"]), n["line"], "note",
                        n["message"], None))
    return got


CHECK_LINE = re.compile(r'^(\S+?):(\d+):\d+: (error|warning|note): (.*?)(?: \[([\w-]+)\])?$')


def check_output_diags(text):
    """`check`'s text: file:line:col: severity: message [check], then its notes."""
    got = []
    for line in text.splitlines():
        m = CHECK_LINE.match(line)
        if m:
            got.append((os.path.basename(m.group(1)), int(m.group(2)), m.group(3),
                        m.group(4), m.group(5)))
    return got


def check_diags(got, annots, who):
    """Every expected diagnostic is there; every one there is expected."""
    want = [(file, a) for file, a in annots if a.kind in SEVERITIES]
    return [f"{e} (in {who})" for e in match_diagnostics(want, got)]


def run_link_error(tool, build, annots):
    errs = []
    for cmd in (["report", "-p", build], ["check", "-p", build, "--program"]):
        p = subprocess.run([tool] + cmd, capture_output=True, text=True)
        if p.returncode != 2:
            errs.append("%s exited %d, expected 2" % (" ".join(cmd[:1] + cmd[2:]), p.returncode))
        for file, a in annots:
            if a.kind != 'link-error':
                continue
            said = [ln for ln in (p.stdout + p.stderr).splitlines()
                    if re.search(r'\b%s:%d:\d+: error: ' % (re.escape(file), a.line), ln)]
            if not any(all(c in ln.split(': error: ', 1)[1] for c in a.contents) for ln in said):
                errs.append("%s: %s:%d: expected the link error %s here; output:\n%s%s" %
                            (cmd[0], file, a.line, a.contents, p.stdout, p.stderr))
    return errs


def capture_file(build, src, name):
    return os.path.join(build, "tensorlint-capture", os.path.abspath(os.path.join(src, name))
                        .lstrip("/") + ".tlir")


def report_from(tool, build):
    """(exit status, stdout, stderr without the capture counts), (read, parsed)."""
    env = dict(os.environ, TENSORLINT_CAPTURE_STATS="1")
    p = subprocess.run([tool, "report", "-p", build, "--format=json"], capture_output=True,
                       text=True, env=env)
    m = re.search(r'captures: (\d+) units? read, (\d+) parsed', p.stderr)
    err = re.sub(r'.*captures: \d+ units? read, \d+ parsed\n', '', p.stderr)
    return (p.returncode, p.stdout, err), (int(m.group(1)), int(m.group(2))) if m else None


def check_captures(tool, project):
    """The report from captures is the report from parsing: captures made by
    `capture -p` (each unit alone), by a report, read back, after an edit of
    one unit (only it parsed again), and after captures are corrupted,
    truncated or of another format (parsed again, never believed)."""
    tmp = tempfile.mkdtemp(prefix="tl-capture-")
    errs = []
    try:
        src = os.path.join(tmp, "src")
        shutil.copytree(project, src)
        units = sorted(n for n in os.listdir(src) if n.endswith('.c'))
        builds = [os.path.join(tmp, b) for b in ("alone", "parse", "fresh")]
        for b in builds:
            os.mkdir(b)
            write_database(src, b)
        alone, parse, fresh = builds
        c = subprocess.run([tool, "capture", "-q", "-p", alone], capture_output=True, text=True)
        if c.returncode != 0:
            return ["capture -p exited %d:\n%s" % (c.returncode, c.stderr)]
        ref, n = report_from(tool, parse)
        if n != (0, len(units)):
            errs.append("a report with no captures read %s units, parsed %s" % n)
        for what, build, want in (("read back", parse, (len(units), 0)),
                                  ("from capture -p", alone, None)):
            out, n = report_from(tool, build)
            if out != ref:
                errs.append("the report %s differs from the report parsed" % what)
            if want and n != want:
                errs.append("the report %s read %d units and parsed %d" % ((what,) + n))
        damaged = capture_file(parse, src, units[0])
        with open(damaged, "r+b") as f:
            data = bytearray(f.read())
            f.seek(0)
            f.truncate()
            f.write(data[:-1] if len(units) > 1 else data[:4] + b"\x09" + data[5:])
        if len(units) > 1:
            with open(capture_file(parse, src, units[1]), "r+b") as f:
                f.seek(len(data) // 2)
                byte = f.read(1)
                f.seek(len(data) // 2)
                f.write(bytes([byte[0] ^ 0x10]))
        out, n = report_from(tool, parse)
        if out != ref or n != (len(units) - min(2, len(units)), min(2, len(units))):
            errs.append("damaged captures: read %s, parsed %s, the same report: %s" %
                        (n + (out == ref,)))
        with open(os.path.join(src, units[-1]), "a") as f:
            f.write("/* edited */\n")
        out, n = report_from(tool, parse)
        ref, _ = report_from(tool, fresh)
        if out != ref or n != (len(units) - 1, 1):
            errs.append("after an edit of %s: read %s, parsed %s, the same report: %s" %
                        ((units[-1],) + n + (out == ref,)))
        # A unit's own IR that does not read back (a broken invariant, injected):
        # a clear error and exit 2, never a signal.
        env = dict(os.environ, TENSORLINT_TEST_READBACK_FAULT=str(len(units)))
        p = subprocess.run([tool, "report", "-p", fresh, "--format=json"],
                           capture_output=True, text=True, env=env)
        if p.returncode != 2 or "internal error" not in p.stderr or p.stdout:
            errs.append("an IR that does not read back: exit %d, stderr %r" %
                        (p.returncode, p.stderr[-300:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return errs


def bare_lines(who, text):
    """A program's lines name their file: "line 12 of model.c", "5 of main.c → 9 of
    layers.c" (a storage's lines), a long line wrapped between the number and its
    file; any other is an error."""
    bare = [m.group(0) for m in re.finditer(
        r'line \d+(?!\d)(?!\s+(?:in|of) \w[\w.-]*\.[ch]\b)|(?<![\w.])\d+ → |→ \d+(?!\d)(?! of )',
        text)]
    return ["%s: lines without a file: %s" % (who, bare)] if bare else []


def check_drawings(tool, build, rep):
    """graph -p and lifetimes -p draw main of the same program: its calls as
    the report counts them."""
    mains = [f for f in rep["functions"] if f["name"] == "main"]
    if not mains:
        return []
    errs = []
    g = subprocess.run([tool, "graph", "-p", build, "--format=dot"], capture_output=True,
                       text=True)
    bare = re.findall(r'line \d+(?!\d)(?! of(?: |<BR[^>]*>)\w[\w.-]*\.[ch]\b)', g.stdout)
    if g.returncode not in (0, 1) or "Dataflow of main()" not in g.stdout or bare:
        errs.append("graph -p exited %d; lines without a file: %s\n%s" %
                    (g.returncode, bare, g.stderr))
    life = subprocess.run([tool, "lifetimes", "-p", build, "--format=text"], capture_output=True,
                          text=True)
    m = re.search(r'storage lifetimes of main\(\): (\d+) calls?', life.stdout)
    if life.returncode not in (0, 1) or not m or int(m.group(1)) != mains[0]["calls"]:
        errs.append("lifetimes -p exited %d, main's calls %s (the report: %d):\n%s" %
                    (life.returncode, m and m.group(1), mains[0]["calls"], life.stderr))
    errs += bare_lines("lifetimes -p --format=text", life.stdout)
    dot = subprocess.run([tool, "lifetimes", "-p", build, "--format=dot"], capture_output=True,
                         text=True)
    cols = re.findall(r'<B>\d+</B>', dot.stdout)  # a column's line, in the SVG's table
    if dot.returncode not in (0, 1) or cols:
        errs.append("lifetimes -p --format=dot exited %d; columns without a file: %s" %
                    (dot.returncode, cols))
    errs += bare_lines("lifetimes -p --format=dot", dot.stdout)
    md = subprocess.run([tool, "report", "-p", build, "--format=markdown"], capture_output=True,
                        text=True)
    bare = re.findall(r'\(line \d+\)', md.stdout)  # a program's line names its file
    if md.returncode not in (0, 1) or bare or "| `main` |" not in md.stdout:
        errs.append("report -p --format=markdown exited %d; lines without a file: %s" %
                    (md.returncode, bare))
    text = subprocess.run([tool, "report", "-p", build], capture_output=True, text=True)
    bare = [m.group(0) for m in re.finditer(r'line \d+(?!\d)(?! (?:in|of) \w[\w.-]*\.[ch]\b)',
                                            text.stdout)]
    if text.returncode not in (0, 1) or bare:
        errs.append("report -p exited %d; lines without a file: %s" % (text.returncode, bare))
    return errs


def main(argv):
    global PROJECT
    tool, PROJECT = argv[1], argv[2]
    annots, no_verify = read_annotations(PROJECT)
    errs = check_captures(tool, PROJECT)
    if errs:
        return fail("\n".join(errs))
    build = tempfile.mkdtemp(prefix="tl-multifile-")
    try:
        write_database(PROJECT, build)
        if any(a.kind == 'link-error' for _, a in annots):
            errs = run_link_error(tool, build, annots)
            return fail("\n".join(errs)) if errs else print("ok: link error") or 0
        p = subprocess.run([tool, "report", "-p", build, "--format=json"], capture_output=True,
                           text=True)
        if p.returncode not in (0, 1):
            return fail("report -p exited %d:\n%s" % (p.returncode, p.stderr))
        rep = json.loads(p.stdout)
        storages = {s["id"]: s for f in rep["functions"] for s in f["storages"]}
        errs = check_diags(report_diags(rep), annots, "the report")
        c = subprocess.run([tool, "check", "-p", build, "--program"], capture_output=True,
                           text=True)
        if c.returncode not in (0, 1):
            errs.append("check -p --program exited %d:\n%s" % (c.returncode, c.stderr))
        errs += check_diags(check_output_diags(c.stdout + c.stderr), annots, "check --program")
        n = 0
        for file, a in annots:
            if a.kind == 'value':
                errs += check_value(rep, storages, file, a.line, a.text)
                n += 1
            elif a.kind == 'func':
                errs += check_func(rep, file, a.at, a.text)
                n += 1
        if n == 0:
            errs.append("no expected: or expected-func: annotation: the test asserts nothing")
        errs += check_drawings(tool, build, rep)
        if not no_verify and not errs:
            v = subprocess.run([tool, "verify", "-p", build], capture_output=True, text=True)
            if v.returncode != 0 or re.search(r'call sites? not compared', v.stdout):
                errs.append("verify -p exited %d:\n%s%s" % (v.returncode, v.stdout, v.stderr))
            errs += bare_lines("verify -p", v.stdout)
        if errs:
            return fail("\n".join(errs))
        print("ok: %d annotations%s" % (n, "" if no_verify else ", verified against a run"))
        return 0
    finally:
        shutil.rmtree(build, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
