#!/usr/bin/env python3
"""Annotated tests of the analyzer: each tests/interp/*.c is a complete
program with the facts the analysis must find written in comments on the
lines they describe, the way clang's -verify tests read.  The runner takes
`tensorlint report --format=json FILE.c` (docs/formats.md) and checks every
annotation; then it runs the program for real with `tensorlint verify
FILE.c`, which must agree on every row; last, every fact an annotation
claims that the run's allocation trace can show must be true of the run
(this holds even in an xfail file: a wrong expectation always fails).
See tests/interp/README.md.

usage: annotated.py interp TENSORLINT FILE.c...      (ctest runs one file per test)

Annotations (in // comments, the dialect of tests/README.md; several may
share a line):

  // expected: NAME key=value ...
      Facts of the value (the tensor-returning call) on this line.  NAME,
      optional, is the variable the handle is assigned to (`-` for a call
      whose result has no name, a temporary); with no NAME the line must
      hold one value, or `op=` must pick one.  Every key is optional and
      compared exactly; `?` means the entry must be unknown (JSON null):
        op=relu                 the API function without tl_
        shape=(2, 3)            also (6,) and () ; strides=(3, 1) likewise
        offset=0                storage offset in elements
        dtype=f32 device=cpu
        kind=new | kind=view    made a storage, or shares an input's
        contiguous=yes|no
        view-of=OTHER           a view of the value assigned to variable
                                OTHER (the latest one at or before this
                                line; OTHER@LINE names the one of that
                                line, @LINE the only value of that line);
                                view-of=? : not a view
        same-storage=OTHER      uses the same storage as OTHER's value
        bytes=BYTES             nbytes of the value's storage
        moved=BYTES             bytes this call moved (first execution)
        freed=LINE              line of the release that frees its storage;
                                freed=? : never freed
        alloc=LINE              line of the call that allocated its storage
        exec=N                  times the call site ran: an integer, or the
                                report's formula over run-time sizes
                                (exec=n, exec={{3*((n - 1)/4) + 3}}),
                                which the run must meet at `values:`
        exec<=N                 an upper bound (a loop the run may leave
                                early, an arm of an unknown condition):
                                the report's count is N, marked not exact,
                                and the run's is at most N
        exec~=N                 not known (one iteration of a loop whose
                                trip count is not known): N as analysed,
                                marked not exact; the run is not compared
        reason={{text}}         the report's `why` contains text
  // expected@+N: ... / expected@-N: ...   the same for the line N below/above.

  // expected-func: peak=BYTES end=BYTES moved=BYTES peak-line=N calls=N
      On the line that holds the function's name (its definition).
      `KEY=BYTES` claims an exact number: it must equal the report's and
      the report must not mark it as a bound.  `KEY>=BYTES` claims a lower
      bound and `KEY<=BYTES` an upper bound: the report's number must equal
      BYTES and be marked as that bound ("bounds": "lower" / "upper"), and
      the run's must lie on that side of it.  `KEY~=BYTES`: the report's
      number, marked not bounded ("none": either side).  A total is marked
      by the function's `not_exact` list and `bounds` object (the totals
      "peak_live_bytes", "end_live_bytes", "moved_bytes").
      peak-line=? : no peak line.

  BYTES: an integer, or with a binary suffix and no space: 24, 1.5KiB, 2MiB.

  // expected-assumption {{text}}       (also @+N / @-N)
      On the line of an `if` whose arm that leaves (return, goto, exit) the
      report assumes the run does not take: an assumption on the run's path
      ("kind": "path" in the JSON) whose condition or way out contains text.
      Every such assumption of the report must be expected.

  // expected-warning {{text}} {{[check]}}
  // expected-error {{text}} {{[check]}}
  // expected-note {{text}} {{[check]}}   (also @+N / @-N, a count N)
      A diagnostic of that severity on this line, each {{...}} a substring
      of it as printed (its message, then [check]): {{text}} asks for text
      in the message, {{[check]}} for the check.  Every
      diagnostic of the report must be expected: a missing or an unexpected
      one fails, notes included (an analysis note such as "not analysed"
      is a blind spot, never noise).  An expected-note that matches no
      diagnostic may match a note attached to another diagnostic.

  File-level:
  // no-verify: REASON        do not run the program (say why)
  // values: NAME=N ...       sizes read at run time (argv[1], argv[2] ...):
                              the report's formulas are checked as written,
                              the program runs with these arguments, verify
                              binds the symbols to them (--bind), and the
                              formulas of exec= are evaluated at them
  // verify-not-compared: N   verify leaves N call sites not compared
                              (their prediction is unknown); default 0
  // xfail: REASON            the analysis gets this file wrong today
                              (write it as the file's last line, so that
                              removing it moves no line number):
                              a failure is reported as XFAIL (passes), a
                              full pass as XPASS, which fails so that the
                              marker is removed.

A failure names FILE:LINE, what was expected and what the report says.
"""
import json
import os
import re
import shutil
import subprocess
import sys

TIMEOUT = 300
SUFFIX = {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
FILE_LEVEL = re.compile(r"//\s*(no-verify|xfail|verify-not-compared|values):\s*(.*?)\s*(?:\*/)?$")
TOKEN = re.compile(r"\s*([a-z-]+)(>=|<=|~=|=)(\([^)]*\)|\{\{.*?\}\}|\S+)|\s*(\S+)")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from formula import evaluate as evaluate_formula  # noqa: E402
from dialect import SEVERITIES, BadAnnotation, match_diagnostics, read_file  # noqa: E402
VALUE_KEYS = {"op", "shape", "strides", "offset", "dtype", "device", "kind", "contiguous",
              "view-of", "same-storage", "bytes", "moved", "freed", "alloc", "exec", "reason"}
FUNC_KEYS = {"peak": "peak_live_bytes", "end": "end_live_bytes", "moved": "moved_bytes",
             "peak-line": "peak_line", "calls": "calls"}
BYTE_KEYS = {"bytes", "moved", "peak", "end"}


class Bad(Exception):
    """An annotation that cannot be read."""


def evaluate(expr, values):
    """A formula of the report ("3*((n - 1)/4) + 3"; `/` is floor division) at values."""
    try:
        return evaluate_formula(expr, values)
    except KeyError as e:
        name = e.args[0]
        raise Bad(f"no value for symbol '{name}' in '{expr}' (// values: {name}=N)") from None


def exec_want(want):
    """exec=VALUE: an integer, or a formula (the report's text; {{...}} when it has blanks)."""
    if want.startswith("{{"):
        want = want[2:-2]
    return int(want) if re.fullmatch(r"-?\d+", want) else want


def parse_bytes(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB)?", text)
    if not m:
        raise Bad(f"'{text}' is not a byte count (24, 1.5KiB, 2MiB)")
    n = float(m.group(1)) * SUFFIX[m.group(2) or ""]
    if n != int(n):
        raise Bad(f"'{text}' is not a whole number of bytes")
    return int(n)


def parse_ints(text):
    m = re.fullmatch(r"\(\s*((?:-?\d+\s*,\s*)*-?\d*)\s*\)", text)
    if not m:
        raise Bad(f"'{text}' is not a tuple like (2, 3), (6,) or ()")
    return [int(x) for x in m.group(1).replace(" ", "").split(",") if x]


def parse_pairs(text, keys, line):
    """key=value tokens (and at most one bare word, the name) of one annotation."""
    pairs, name = [], None
    for m in TOKEN.finditer(text):
        if m.group(4):
            if name is not None or pairs:
                raise Bad(f"line {line}: '{m.group(4)}' is not key=value")
            name = m.group(4)
            continue
        key, rel, val = m.group(1), m.group(2), m.group(3)
        if key not in keys:
            raise Bad(f"line {line}: unknown key '{key}' (known: {', '.join(sorted(keys))})")
        pairs.append((key, rel, val))
    return name, pairs


def read_annotations(path):
    ann = {"values": [], "funcs": [], "diags": [], "assumptions": [], "no_verify": None,
           "xfail": None, "not_compared": 0, "bind": []}
    try:
        found, lines = read_file(path)
    except BadAnnotation as e:
        raise Bad(str(e)) from None
    for n, text in enumerate(lines, 1):
        m = FILE_LEVEL.search(text) if "//" in text else None
        if not m:
            continue
        if m.group(1) == "no-verify":
            ann["no_verify"] = m.group(2) or "no reason given"
        elif m.group(1) == "xfail":
            ann["xfail"] = m.group(2) or "no reason given"
        elif m.group(1) == "values":
            for word in m.group(2).split():
                name, _, val = word.partition("=")
                if not re.fullmatch(r"-?\d+", val):
                    raise Bad(f"line {n}: values: '{word}' is not NAME=N")
                ann["bind"].append((name, int(val)))
        else:
            ann["not_compared"] = int(m.group(2))
    for a in found:
        if FILE_LEVEL.search(lines[a.at - 1]):
            continue
        if a.kind == "func":
            _, pairs = parse_pairs(a.text, FUNC_KEYS, a.at)
            ann["funcs"].append((a.at, pairs))
        elif a.kind == "value":
            name, pairs = parse_pairs(a.text, VALUE_KEYS, a.at)
            ann["values"].append((a.line, a.at, name, pairs))
        elif a.kind == "assumption":
            ann["assumptions"].append((a.line, a.contents))
        elif a.kind in SEVERITIES:
            ann["diags"].append((None, a))
        else:
            raise Bad(f"line {a.at}: expected-{a.kind} is not read in tests/interp")
    return ann, lines


def show(v):
    if v is None:
        return "?"
    if isinstance(v, list):
        return "(" + ", ".join(str(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


class Report:
    def __init__(self, data):
        self.data = data
        self.values = [v for f in data["functions"] for v in f["values"]]
        self.by_id = {v["id"]: v for v in self.values}
        self.storages = {}
        for f in data["functions"]:
            for s in f["storages"]:
                self.storages.setdefault(s["id"], s)

    def named(self, name, line):
        """The value a name refers to at a line: NAME@LINE, else the latest at or before."""
        at = None
        if "@" in name:
            name, at = name.split("@", 1)
            at = int(at)
        cands = [v for v in self.values if (v["name"] == name or not name) and
                 (v["line"] == at if at is not None else v["line"] <= line)]
        if not name and len(cands) > 1:
            raise Bad(f"{len(cands)} values at line {at}: name the one meant (NAME@{at})")
        if not cands:
            return None
        return max(cands, key=lambda v: (v["line"], v["column"]))


def check_value(rep, target, name, pairs, errors, where):
    on_line = [v for v in rep.values if v["line"] == target]
    if name == "-":
        on_line = [v for v in on_line if v["name"] is None]
    elif name is not None:
        on_line = [v for v in on_line if v["name"] == name]
    ops = [val for key, _, val in pairs if key == "op"]
    if ops:
        on_line = [v for v in on_line if v["op"] == ops[0]]
    # a helper called twice reports its values once; distinct ids at one
    # line are distinct calls on that line
    if not on_line:
        what = f"'{name}'" if name else "a value"
        got = ", ".join(f"{v['name'] or '-'} ({v['op']})" for v in rep.values
                        if v["line"] == target) or "none"
        errors.append(f"{where}: expected {what} at line {target}{' op=' + ops[0] if ops else ''}; "
                      f"the report has: {got}")
        return
    if len(on_line) > 1:
        errors.append(f"{where}: {len(on_line)} values match at line {target} "
                      f"({', '.join(v['op'] for v in on_line)}): name one or add op=")
        return
    v = on_line[0]
    st = rep.storages.get(v["storage"]) if v["storage"] is not None else None
    label = f"{where}: {v['name'] or v['op']}"
    for key, rel, want in pairs:
        if key == "exec" and rel in ("=", "<=", "~="):
            got, exp = v["executions"], None if want == "?" else exec_want(want)
            marked = "executions" in v.get("not_exact", [])
            side = {"<=": "at most ", "~=": "as analysed, not exact: "}.get(rel, "")
            check_claim(errors, f"{label}: exec", rel, side, got, exp, marked, "not exact")
            continue
        if rel != "=":
            raise Bad(f"{where}: '{key}{rel}' is only for expected-func totals and exec")
        if key == "reason":
            text = want[2:-2]
            if text not in (v["reason"] or ""):
                errors.append(f"{label}: reason: expected to contain '{text}', "
                              f"got '{v['reason']}'")
            continue
        if key in ("view-of", "same-storage"):
            if key == "view-of":
                got_id = v["view_of"]
                got = rep.by_id.get(got_id) if got_id is not None else None
                if want == "?":
                    ok = got_id is None
                else:
                    other = rep.named(want, target)
                    if other is None:
                        raise Bad(f"{where}: no value named '{want}' at or before line {target}")
                    ok = got_id == other["id"]
                if not ok:
                    desc = "?" if got_id is None else (
                        f"{got['name'] or got['op']} (line {got['line']})" if got else f"id {got_id}")
                    errors.append(f"{label}: view-of: expected {want}, got {desc}")
            else:
                other = rep.named(want, target)
                if other is None:
                    raise Bad(f"{where}: no value named '{want}' at or before line {target}")
                if v["storage"] is None or v["storage"] != other["storage"]:
                    errors.append(f"{label}: same-storage: expected the storage of {want} "
                                  f"(S{other['storage']}), got S{show(v['storage'])}")
            continue
        if key == "shape" or key == "strides":
            got = v[key]
            exp = None if want == "?" else parse_ints(want)
        elif key == "contiguous":
            got = v["contiguous"]
            exp = None if want == "?" else want in ("yes", "true")
        elif key in ("bytes", "freed", "alloc"):
            field = {"bytes": "nbytes", "freed": "free_line", "alloc": "alloc_line"}[key]
            if st is None:
                errors.append(f"{label}: {key}: expected {want}, but the value has no storage "
                              f"in the report")
                continue
            got = st[field]
            exp = None if want == "?" else (parse_bytes(want) if key == "bytes" else int(want))
        elif key == "moved":
            got, exp = v["bytes_moved"], None if want == "?" else parse_bytes(want)
        elif key == "offset":
            got, exp = v["offset"], None if want == "?" else int(want)
        else:
            got, exp = v[key], None if want == "?" else want
        if got != exp:
            errors.append(f"{label}: {key}: expected {show(exp)}, got {show(got)}")


CLAIM_OF_REL = {"=": "exact", "<=": "upper", ">=": "lower", "~=": "none"}


def bound_marked(func, field):
    return field in func.get("not_exact", [])


def bound_claim(func, field):
    """What the report claims of a total: exact, upper, lower or none."""
    if not bound_marked(func, field):
        return "exact"
    return func.get("bounds", {}).get(field, "missing")


def check_func(rep, line, pairs, lines, errors, where):
    text = lines[line - 1]
    funcs = [f for f in rep.data["functions"] if re.search(r"\b" + re.escape(f["name"]) + r"\s*\(", text)]
    if not funcs:
        errors.append(f"{where}: no analysed function is defined on this line "
                      f"(report has: {', '.join(f['name'] for f in rep.data['functions'])})")
        return
    f = funcs[0]
    for key, rel, want in pairs:
        field = FUNC_KEYS[key]
        got = f.get(field)
        if want == "?":
            exp = None
        elif key in BYTE_KEYS:
            exp = parse_bytes(want)
        else:
            exp = int(want)
        if rel != "=" and field in ("peak_line", "calls"):
            raise Bad(f"{where}: {key}{rel} : only byte totals can be bounds")
        marked = bound_marked(f, field)
        side = {">=": "at least ", "<=": "at most ", "~=": "not bounded: "}.get(rel, "")
        check_claim(errors, f"{where}: {f['name']}: {key}", rel, side, got, exp, marked, "a bound")
        claim = bound_claim(f, field)
        if marked and rel != "=" and claim != CLAIM_OF_REL[rel]:
            errors.append(f"{where}: {f['name']}: {key}: expected {side}{show(exp)}; the report "
                          f"says it is {claim} (\"bounds\")")


def check_claim(errors, label, rel, side, got, exp, marked, mark):
    """A claim KEY=V (exact) or KEY<=V, >=, ~= (the report's number, marked as
    `mark`, "a bound" or "not exact"): the number and its mark must match."""
    if got != exp:
        errors.append(f"{label}: expected {side}{show(exp)}, got {show(got)}"
                      f"{f' ({mark})' if marked else ''}")
    elif rel != "=" and not marked:
        errors.append(f"{label}: expected {show(exp)} marked as {mark}; the report claims it exact")
    elif rel == "=" and marked:
        errors.append(f"{label}: expected {show(exp)} exact; the report marks it as {mark}")


def check_diags(rep, path, want, errors, name):
    """Every diagnostic of the report expected, notes included; an
    expected-note may also match a note attached to one."""
    got = [(None, d["line"], d["severity"], d["message"], d["check"])
           for d in rep.data["diagnostics"]]
    attached = [(None, n["line"], n["message"]) for d in rep.data["diagnostics"]
                for n in d.get("notes", [])]
    errors += match_diagnostics(want, got, attached, where=f"{name}:")


def check_assumptions(rep, want, errors, name):
    """The report's assumptions on the run's path ("kind": "path"), each at
    the line of its branch, against the expected-assumption annotations."""
    pending = [a for a in rep.data["assumptions"] if a.get("kind") == "path"]
    for line, contents in want:
        match = next((a for a in pending if a["line"] == line and
                      all(c in a["condition"] or c in a["leave"] for c in contents)), None)
        if match:
            pending.remove(match)
        else:
            errors.append(f"{name}:{line}: missing assumption "
                          + " ".join("{{" + c + "}}" for c in contents))
    for a in pending:
        errors.append(f"{name}:{a['line']}: unexpected assumption: {a['condition']} (else the "
                      f"run leaves at line {a['leave_line']}: {a['leave']})")


class Trace:
    """The run's allocation trace (docs/formats.md): first execution per (line, op)."""

    def __init__(self, path):
        self.first, self.count, self.alloc, self.free = {}, {}, {}, {}
        self.storages = {}  # (line, op) -> storages of every execution
        self.moved, self.calls, self.exit, self.records = 0, 0, None, []
        with open(path, encoding="utf-8") as f:
            for text in f:
                r = json.loads(text)
                if r["ev"] == "call":
                    key = (r["line"], r["op"])
                    self.count[key] = self.count.get(key, 0) + 1
                    self.first.setdefault(key, r)
                    self.storages.setdefault(key, set()).add(r["storage"])
                    self.moved += r.get("read_bytes", 0) + r.get("written_bytes", 0)
                    self.calls += 1
                    self.records.append(r)
                elif r["ev"] == "alloc":
                    self.alloc[r["storage"]] = (r["line"], r["nbytes"])
                elif r["ev"] == "free":
                    self.free[r["storage"]] = r["line"] or None
                elif r["ev"] == "exit":
                    self.exit = r

    def at(self, line, op):
        found = [k for k in self.first if k[0] == line and (op is None or k[1] == op)]
        return found


def contiguous(shape, strides):
    expected = 1
    for n, st in reversed(list(zip(shape, strides))):
        if n != 1 and st != expected:
            return False
        expected *= n
    return True


def check_value_run(tr, rep, target, name, pairs, errors, where, bind):
    """The annotation against the run itself: the expectations must be true facts."""
    ops = [val for key, _, val in pairs if key == "op"]
    if not ops:
        cands = [v["op"] for v in rep.values if v["line"] == target and
                 (name is None or v["name"] == name or (name == "-" and v["name"] is None))]
        ops = cands[:1]
    keys = tr.at(target, ops[0] if ops else None)
    want = dict((k, v) for k, rel, v in pairs)
    not_exact = any(k == "exec" and rel in ("<=", "~=") for k, rel, _ in pairs)
    if not keys:
        if not not_exact and (want.get("exec") not in ("0", None) or "exec" not in want):
            errors.append(f"{where}: the run made no call{' tl_' + ops[0] if ops else ''} at "
                          f"line {target}, so this expectation is not a fact of the run")
        return
    if len(keys) > 1:
        return  # two ops at one line with no op=: the report check names it
    r = tr.first[keys[0]]
    alloc_line, nbytes = tr.alloc.get(r["storage"], (None, None))
    got = {"op": r["op"], "shape": r["shape"], "strides": r["strides"], "offset": r["offset"],
           "dtype": r["dtype"], "device": r["device"], "kind": r["kind"],
           "contiguous": contiguous(r["shape"], r["strides"]), "bytes": nbytes,
           "moved": r.get("read_bytes", 0) + r.get("written_bytes", 0),
           "freed": tr.free.get(r["storage"]), "alloc": alloc_line,
           "exec": tr.count[keys[0]]}
    for key, rel, val in pairs:
        if key == "exec" and rel == "<=" and val != "?":
            if got["exec"] > evaluate(exec_want(val), bind):
                errors.append(f"{where}: exec: expected at most {val}, but the run has "
                              f"{got['exec']} (line {target}, tl_{r['op']})")
            continue
        if val == "?" or key == "reason" or rel != "=":
            continue
        if key in ("view-of", "same-storage"):
            other = rep.named(val, target) if rep else None
            okeys = tr.at(other["line"], other["op"]) if other else []
            if okeys and r["storage"] not in tr.storages[okeys[0]]:
                errors.append(f"{where}: {key}={val}: in the run, line {target} uses storage "
                              f"{r['storage']}, {val} storages {sorted(tr.storages[okeys[0]])}")
            if key == "view-of" and r["kind"] != "view":
                errors.append(f"{where}: view-of={val}: in the run, line {target} is {r['kind']}")
            continue
        if key in ("shape", "strides"):
            exp = parse_ints(val)
        elif key == "contiguous":
            exp = val in ("yes", "true")
        elif key in ("bytes", "moved"):
            exp = parse_bytes(val)
        elif key == "exec":
            exp = evaluate(exec_want(val), bind)
        elif key in ("offset", "freed", "alloc"):
            exp = int(val)
        else:
            exp = val
        if got[key] != exp:
            errors.append(f"{where}: {key}: expected {show(exp)}, but the run has {show(got[key])}"
                          f" (line {target}, tl_{r['op']})")


def body_lines(lines, first):
    """Lines of the function defined at line first: to its closing brace."""
    depth, seen = 0, False
    for n in range(first, len(lines) + 1):
        depth += lines[n - 1].count("{") - lines[n - 1].count("}")
        seen = seen or "{" in lines[n - 1]
        if seen and depth <= 0:
            return range(first, n + 1)
    return range(first, len(lines) + 1)


def functions(lines):
    """name -> body line range of each function defined in the file (a C test file)."""
    found = {}
    for n, text in enumerate(lines, 1):
        m = re.match(r"^[A-Za-z_][\w\s\*]*?\b(\w+)\s*\([^;]*$", text)
        if m and m.group(1) not in ("if", "for", "while", "switch", "return"):
            found[m.group(1)] = body_lines(lines, n)
    return found


def caller_line(records, at, lines, body):
    """The line of main that holds the call record `at`: its own line, or the
    call of the helper it ran in (the first such call after main's last record
    before it).  None when that cannot be told."""
    line = records[at]["line"]
    if line in body:
        return line
    funcs = functions(lines)
    after = max((r["line"] for r in records[:at] if r["line"] in body), default=body[0])
    for _ in range(8):  # helper of a helper ...
        owner = next((f for f, rng in funcs.items() if line in rng and rng != body), None)
        if owner is None:
            return None
        calls = [n for n in body if n >= after and
                 re.search(r"\b" + owner + r"\s*\(", lines[n - 1])]
        if calls:
            return calls[0]
        sites = [n for f, rng in funcs.items() for n in rng if f != owner and
                 re.search(r"\b" + owner + r"\s*\(", lines[n - 1])]
        if not sites:
            return None
        line = sites[0]
    return None


def check_func_run(tr, line, pairs, lines, errors, where):
    """main's totals against the run: peak, end, moved, calls and the peak's line."""
    if not re.search(r"\bmain\s*\(", lines[line - 1]) or tr.exit is None:
        return
    peak = tr.exit["peak_bytes"]
    got = {"peak": peak, "end": tr.exit["live_bytes"], "moved": tr.moved, "calls": tr.calls}
    at = next((k for k, r in enumerate(tr.records) if r["live_bytes"] == peak), None)
    body = body_lines(lines, line)
    if at is not None:
        got["peak-line"] = caller_line(tr.records, at, lines, body)
    for key, rel, val in pairs:
        if val == "?" or got.get(key) is None:  # (a peak line the trace cannot tell)
            continue
        exp = parse_bytes(val) if key in BYTE_KEYS else int(val)
        bad = {"=": got[key] != exp, ">=": got[key] < exp, "<=": got[key] > exp, "~=": False}[rel]
        if bad:
            side = {">=": "at least ", "<=": "at most "}.get(rel, "")
            errors.append(f"{where}: main: {key}: expected {side}{show(exp)}, but the run has "
                          f"{show(got[key])}")


def run_verify(tool, path, ann, rep, lines, errors, name):
    sizes = [f"--bind={n}={v}" for n, v in ann["bind"]] + [f"--arg={v}" for _, v in ann["bind"]]
    proc = subprocess.run([tool, "verify", "--keep"] + sizes + [path], capture_output=True,
                          text=True, timeout=TIMEOUT)
    out = proc.stdout + proc.stderr
    kept = re.search(r"^kept (.*)$", proc.stdout, re.M)
    out = re.sub(r"^kept .*\n?", "", out, flags=re.M)
    summary = [ln for ln in out.splitlines() if ln.startswith("verify: ")]
    m = re.search(r"(\d+) disagreements?", summary[-1]) if summary else None
    nc = re.search(r"(\d+) call sites? not compared", summary[-1]) if summary else None
    not_compared = int(nc.group(1)) if nc else 0
    if proc.returncode != 0 or not m or int(m.group(1)) != 0:
        tail = "\n".join("    " + ln for ln in out.splitlines()[-25:])
        errors.append(f"{name}: tensorlint verify exited {proc.returncode}, expected 0 with "
                      f"0 disagreements:\n{tail}")
    elif summary and "the run left at line" in summary[-1]:
        errors.append(f"{name}: the run left where the report assumes it does not, so verify "
                      f"compared it only up to there (a test runs the path it annotates): "
                      f"{summary[-1]}")
    elif not_compared != ann["not_compared"]:
        errors.append(f"{name}: tensorlint verify left {not_compared} call sites not compared, "
                      f"expected {ann['not_compared']} (// verify-not-compared: N): "
                      f"{summary[-1]}")
    if not kept:
        return []
    wrong = []
    trace_path = os.path.join(kept.group(1), "trace.jsonl")
    try:
        if os.path.exists(trace_path):
            tr = Trace(trace_path)
            for target, line, vname, pairs in ann["values"]:
                check_value_run(tr, rep, target, vname, pairs, wrong, f"{name}:{line}",
                                dict(ann["bind"]))
            for line, pairs in ann["funcs"]:
                check_func_run(tr, line, pairs, lines, wrong, f"{name}:{line}")
    finally:
        shutil.rmtree(kept.group(1), ignore_errors=True)
    return wrong


def check_file(tool, path):
    name = os.path.relpath(path)
    if name.startswith(".."):
        name = path
    errors = []
    try:
        ann, lines = read_annotations(path)
        if not (ann["values"] or ann["funcs"] or ann["diags"]):
            raise Bad("no expected annotations: a test must assert something")
        proc = subprocess.run([tool, "report", "--format=json", path], capture_output=True,
                              text=True, timeout=TIMEOUT)
        rep = None
        if proc.returncode not in (0, 1):
            errors.append(f"{name}: tensorlint report exited {proc.returncode}: "
                          f"{proc.stderr.strip()[:2000]}")
        else:
            rep = Report(json.loads(proc.stdout))
            for target, line, vname, pairs in ann["values"]:
                check_value(rep, target, vname, pairs, errors, f"{name}:{line}")
            for line, pairs in ann["funcs"]:
                check_func(rep, line, pairs, lines, errors, f"{name}:{line}")
            check_diags(rep, path, ann["diags"], errors, name)
            check_assumptions(rep, ann["assumptions"], errors, name)
        if ann["no_verify"] is None:
            wrong = run_verify(tool, path, ann, rep, lines, errors, name)
            if wrong:  # the test itself is wrong: xfail does not excuse it
                print(f"FAIL {name}: expectations that the run contradicts")
                for e in wrong + errors:
                    print("  " + e.replace("\n", "\n  "))
                return False
    except Bad as e:
        print(f"ERROR {name}: bad annotation: {e}")
        return False
    except OSError as e:
        print(f"ERROR {name}: {e}")
        return False
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
        errors.append(f"{name}: {e}")
    if ann["xfail"] is not None:
        if errors:
            print(f"XFAIL {name} ({ann['xfail']}): {len(errors)} failure(s)")
            for e in errors:
                print("  " + e.replace("\n", "\n  "))
            return True
        print(f"XPASS {name}: every expectation holds now; remove its '// xfail:' line")
        return False
    if errors:
        print(f"FAIL {name}")
        for e in errors:
            print("  " + e)
        return False
    print(f"PASS {name}")
    return True


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 else 2
    tool = argv[1]
    ok = True
    for path in argv[2:]:
        ok &= check_file(tool, path)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
