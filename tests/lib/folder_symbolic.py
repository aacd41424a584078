#!/usr/bin/env python3
"""Symbolic sizes, checked against runs.

For each tests/symbolic/*.c: `report --format=json` gives the peak and the
live bytes at the end of main as formulas over the program's run-time
symbols.  For each set of values on the file's `// values:` line (the
symbols named on `// bind:`, passed to the program as its arguments):

  1. the formulas, evaluated at those values (`/` is floor division), must
     equal the totals of `report --bind NAME=VALUE ...` (integers only),
     main's calls, and the times each call site runs (`executions`, marked
     not exact alike);
  2. `verify --bind ... --arg=VALUE ...` runs the program with the values
     and must agree on every call, each call site's count, the end bytes
     and the peak.  A loop's count of iterations (a symbol NAME.iterations)
     is not bound there: verify reads it off the run.

So formula(values) == bound report == measured run.  The values are the
run's: a loop's count (NAME.iterations) the test leaves out of `// bind:`
is the one the run gives (verify's "the run's count"), or, where the sizes
decide the loop, the bound report's; a formula or an assumption over a
symbol with no value there fails, naming it.  A file may also say
`// env: NAME` to pass the first value through the environment instead, or
`// args: WORD ...` to pass other arguments (a bound name stands for its
value, `{file}` for a scratch file), after `// setup: SCRIPT WORD ...` has
run (a Python script, from the repository root: it writes the checkpoint
the program reads, say; `// env: A B` passes the first two).  The programs are tests/symbolic/*.c and the
samples in samples/checkpoint/.

The program's root function is main, or the file's root when it has none
(an exported function: `// verify-flags: -DNAME` then compiles the test's
main for the run).  Its symbolic report must mark no total as a bound,
unless the file names the ones it must mark on an `// expected-bounds: KEY
...` line (a loop the analysis cannot summarise, say); those are not
compared with the bound report; verify holds the run to a bound's side, and
must leave uncompared exactly the totals the bound report marks as not
bounded (and the live bytes after the calls that verify finds not exact: a
loop analysed once).  Every assumption the report lists must
hold at each set of values (an assumption on the run's path, "kind":
"path", is met by the run: verify says where a run does not), and be false
for some input (none with no symbol or past 2^62, none that another listed
one implies: tests/lib/assumptions.py).  A `// symbols: NAME ...`
line says which symbols the report must list, no more (one per run-time
value, whatever copies it went through).  Once per file, a `--bind` of a
name no symbol has must exit 2 listing every symbol's name, and binding the
first symbol must leave the other symbols' names as they were (each a name
that list has).
usage: annotated.py symbolic TENSORLINT [--shard=K/N] [FILE.c ...]   (default: every program above;
--shard=K/N: every N-th of them from the K-th, counted from 0)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from formula import evaluate as evaluate_formula  # noqa: E402
from assumptions import assumption_faults  # noqa: E402
from dialect import read_file  # noqa: E402


class Unbound(Exception):
    """A formula names a symbol with no value: the test does not bind it (//
    bind:) and the run does not count it (verify's "the run's count")."""


def evaluate(expr, values):
    """The report's expression syntax, evaluated with Python integers."""
    try:
        return evaluate_formula(expr, values)
    except KeyError as e:
        raise Unbound("no value for symbol %r in %r: bind it (// bind: %s; a loop's count, "
                      "NAME.iterations, the run may give)" % (e.args[0], expr, e.args[0])) from None


def holds(cond, values):
    """A condition of the report ("a >= b and c == d"), evaluated."""
    return all(evaluate(re.sub(r"(?<![<>=!])=(?!=)", "==", part), values)
               for part in cond.split(" and "))


def decided_counts(rep, bound, values):
    """The loop counts (origin "iterations") that neither the test nor the run
    gives, where the bound report decides the loop (sizes that give it one
    iteration): each the bound report's executions of a call that the
    symbolic report says runs exactly that count, as verify reads a count
    off the run."""
    at = {(v["line"], v["column"], v["op"]): v["executions"]
          for f in bound["functions"] for v in f["values"]}
    found = {}
    for s in rep["symbols"]:
        if s["origin"] != "iterations" or s["name"] in values:
            continue
        for f in rep["functions"]:
            for v in f["values"]:
                n = at.get((v["line"], v["column"], v["op"]))
                if v["executions"] == s["name"] and "executions" not in v.get("not_exact", []) \
                        and isinstance(n, int):
                    found[s["name"]] = n
    return found


def check_formulas(name, rep, main_f, bound, bf, values, want_bounds, checked, failed):
    """The symbolic report at the run's values against the bound report: the
    assumptions hold, the peak's candidates, the totals, the executions and
    the calls; (checked, failed) counted on."""
    for a in rep["assumptions"]:
        if a.get("kind") == "path":  # the run's path (the run below takes it)
            continue
        checked += 1
        if not holds(a["condition"], values):
            print("FAIL %s: the values %s break the assumption %r (line %d)"
                  % (name, values, a["condition"], a["line"]))
            failed += 1
    if isinstance(main_f["peak_line"], list) and "peak_live_bytes" not in want_bounds:
        # the candidates whose condition holds there: the run's peak is at one of them
        lines = [c["line"] for c in main_f["peak_line"] if holds(c["when"], values)]
        checked += 1
        if bf["peak_line"] not in lines:
            print("FAIL %s: at %s the peak is at line %r, the candidates whose 'when' holds"
                  " are at %s" % (name, values, bf["peak_line"], lines))
            failed += 1
    for key in ("peak_live_bytes", "end_live_bytes", "moved_bytes"):
        if key in want_bounds:
            continue
        got = evaluate(main_f[key], values)
        checked += 1
        if got != bf[key]:
            print("FAIL %s %s: %s = %r at %s, the bound report says %r"
                  % (name, key, main_f[key], got, values, bf[key]))
            failed += 1
    # how many times each call site ran: the formula at the values is the bound
    # report's count (which verify compares with the run), marked alike
    bound_values = {(v["line"], v["column"], v["op"]): v
                    for f in bound["functions"] for v in f["values"]}
    for f in rep["functions"]:
        for v in f["values"]:
            b = bound_values.get((v["line"], v["column"], v["op"]))
            checked += 1
            if b is None:
                print("FAIL %s: no value at line %d (%s) in the bound report"
                      % (name, v["line"], v["op"]))
                failed += 1
                continue
            if "executions" in v.get("not_exact", []) and want_bounds:
                continue  # one iteration of a loop it cannot summarise, say
            got = evaluate(v["executions"], values)
            if got != b["executions"] or v.get("not_exact") != b.get("not_exact"):
                print("FAIL %s line %d tl_%s: executions %r = %r%s at %s, the bound "
                      "report says %r%s" % (name, v["line"], v["op"], v["executions"],
                                            got, " (not exact)" if v.get("not_exact") else "",
                                            values, b["executions"],
                                            " (not exact)" if b.get("not_exact") else ""))
                failed += 1
    checked += 1
    if not want_bounds and evaluate(main_f["calls"], values) != bf["calls"]:
        print("FAIL %s calls: %s = %r at %s, the bound report says %r"
              % (name, main_f["calls"], evaluate(main_f["calls"], values), values,
                 bf["calls"]))
        failed += 1
    return checked, failed


def main(argv):
    tool = os.path.abspath(argv[1])
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    here = os.path.join(root, "tests", "symbolic")
    samples = os.path.join(root, "samples", "checkpoint")
    programs = [os.path.join(here, n) for n in sorted(os.listdir(here)) if n.endswith(".c")]
    programs += [os.path.join(samples, n) for n in sorted(os.listdir(samples)) if n.endswith(".c")]
    args = argv[2:]
    shard = None
    if args and args[0].startswith("--shard="):
        # --shard=K/N: every N-th program from the K-th (ctest runs the shards side by side)
        k, n = (int(v) for v in args.pop(0)[len("--shard="):].split("/"))
        shard = (k, n)
    if args:
        programs = [os.path.abspath(p) for p in args]
    if shard:
        programs = programs[shard[0]::shard[1]]
    failed = checked = xfailed = 0
    scratch = tempfile.mkdtemp()
    pending = None  # (name, xfail reason, failures before it): settled when the next starts

    def settle():
        # a file marked `// xfail: REASON` that fails is expected to (its failures not counted);
        # one that passes is an XPASS, a failure: remove the mark
        nonlocal failed, xfailed
        if not pending or pending[1] is None:
            return
        fname, reason, before = pending
        if failed > before:
            print("XFAIL %s: %d checks failed, as known: %s" % (fname, failed - before, reason))
            failed, xfailed = before, xfailed + 1
        else:
            print("XPASS %s: it passes; remove its xfail (%s)" % (fname, reason))
            failed += 1

    for path in programs:
        settle()
        name = os.path.relpath(path, root)
        text = open(path).read()
        xfail = re.search(r"^// xfail: (.+)$", text, re.M)
        pending = (name, xfail.group(1) if xfail else None, failed)
        binds = re.search(r"^// bind: (.*)$", text, re.M).group(1).split()
        groups = [g.split() for g in re.search(r"^// values: (.*)$", text, re.M).group(1).split("|")]
        env = re.search(r"^// env: (.+)$", text, re.M)
        rep = json.loads(subprocess.run([tool, "report", "--format=json", path], check=True,
                                        capture_output=True, text=True).stdout)
        roots = [f for f in rep["functions"] if f["root"]]
        main_f = ([f for f in roots if f["name"] == "main"] or roots)[0]
        symbols = {s["name"] for s in rep["symbols"]}
        want_symbols = re.search(r"^// symbols: (.*)$", text, re.M)
        if want_symbols and sorted(want_symbols.group(1).split()) != sorted(symbols):
            print("FAIL %s: the report's symbols are %s, expected %s (one per run-time value)"
                  % (name, sorted(symbols), sorted(want_symbols.group(1).split())))
            failed += 1
            continue
        want_bounds = sorted(w for a in read_file(path)[0] if a.kind == "bounds"
                             for w in a.text.split())
        # a size only a bound depends on is passed to the program, not bound
        if not want_bounds and not set(binds) <= symbols:
            print("FAIL %s: symbols %s, the test binds %s" % (name, sorted(symbols), binds))
            failed += 1
            continue
        if sorted(main_f["not_exact"]) != want_bounds:
            print("FAIL %s: the totals marked as bounds are %s, expected %s"
                  % (name, sorted(main_f["not_exact"]), want_bounds))
            failed += 1
            continue
        if isinstance(main_f["peak_live_bytes"], int):
            print("FAIL %s: the peak is not a formula: %r" % (name, main_f["peak_live_bytes"]))
            failed += 1
            continue
        # a name no symbol has is an error that lists the names; binding one
        # symbol leaves every other's name as it was
        nb = subprocess.run([tool, "report", "--bind=no_such_size=1", path],
                            capture_output=True, text=True)
        listed = re.search(r"its names are: (.*)", nb.stderr)
        known = set(listed.group(1).split(", ")) if listed else set()
        # (a loop's counter in one iteration is no value a run can be given)
        missing = sorted({s["name"] for s in rep["symbols"] if s["origin"] != "loop"} - known)
        checked += 1
        if nb.returncode != 2 or missing:
            print("FAIL %s: --bind of an unknown name: exit %d, names not listed: %s (%s)"
                  % (name, nb.returncode, missing, nb.stderr.strip()[-200:]))
            failed += 1
        if binds and binds[0] in symbols:
            one = json.loads(subprocess.run(
                [tool, "report", "--format=json", path, "--bind=%s=%s" % (binds[0], groups[0][0])],
                check=True, capture_output=True, text=True).stdout)
            left = {s["name"] for s in one["symbols"]}
            checked += 1
            if not left <= known - {binds[0]}:
                print("FAIL %s: with %s bound the symbols are %s, unbound %s (names must not "
                      "change with --bind)" % (name, binds[0], sorted(left), sorted(known)))
                failed += 1
        for fault in assumption_faults(rep):  # each listed one false for some input
            print("FAIL %s: an assumption no input falsifies: %s" % (name, fault))
            failed += 1
        checked += 1
        for group in groups:
            values = {b: int(v) for b, v in zip(binds, group)}
            bind_args = ["--bind=%s=%d" % kv for kv in values.items()]
            def word(w):
                return os.path.join(scratch, "file") if w == "{file}" else str(values.get(w, w))
            setup = re.search(r"^// setup: (.*)$", text, re.M)
            if setup:
                cmd = setup.group(1).split()
                subprocess.run([sys.executable, os.path.join(root, cmd[0])] +
                               [word(w) for w in cmd[1:]], check=True)
            run_env = dict(os.environ)
            args = re.search(r"^// args: (.*)$", text, re.M)
            run_args = ["--arg=%s" % (word(w) if args else w)
                        for w in (args.group(1).split() if args else group)]
            if env:
                names = env.group(1).split()
                run_env.update(zip(names, group))
                run_args = ["--arg=%s" % v for v in group[len(names):]]
            flags = re.search(r"^// verify-flags: (.*)$", text, re.M)
            flags = flags.group(1).split() if flags else []
            # a loop's count of iterations (NAME.iterations) is read off the run by verify
            run_binds = [a for a in bind_args if ".iterations=" not in a]
            v = subprocess.run([tool, "verify"] + run_binds + run_args +
                               [path, "--", "-DDEVICE=TL_CPU"] + flags,
                               capture_output=True, text=True, env=run_env)
            learned = dict((m.group(1), int(m.group(2))) for m in
                           re.finditer(r"^the run's count: (\S+) = (\d+)", v.stdout, re.M))
            # the run's values: the test's, and the counts the run gives that the test
            # leaves to it (a loop left early: its count is the run's to say)
            for b in binds:
                # (a run the sizes give one iteration needs no count: it runs once)
                if b.endswith(".iterations") and b in symbols and (b in learned or values[b] > 1):
                    checked += 1
                    if learned.get(b) != values[b]:
                        print("FAIL %s verify at %s: the run's count %s is %r, the test says %d"
                              % (name, values, b, learned.get(b), values[b]))
                        failed += 1
            at = dict(values)
            at.update((k, n) for k, n in learned.items() if k in symbols and k not in values)
            bound = json.loads(subprocess.run(
                [tool, "report", "--format=json", path] +
                ["--bind=%s=%d" % kv for kv in at.items()],
                check=True, capture_output=True, text=True).stdout)
            bf = [f for f in bound["functions"] if f["name"] == main_f["name"]][0]
            at.update(decided_counts(rep, bound, at))
            try:
                checked, failed = check_formulas(name, rep, main_f, bound, bf, at, want_bounds,
                                                 checked, failed)
            except Unbound as e:
                print("FAIL %s at %s: %s" % (name, at, e))
                failed += 1
            checked += 1
            last = (v.stdout.strip().splitlines() or ["(no output)"])[-1]
            # a bound is compared (the run on its side); a total the bound report marks as
            # not bounded says nothing, and verify must leave exactly those uncompared (it
            # compares the end and the peak): nothing else may be
            unchecked = last
            none = sum(1 for k in ("peak_live_bytes", "end_live_bytes")
                       if k in want_bounds and bf.get("bounds", {}).get(k) == "none")
            if none:
                unchecked = last.replace(", %d total%s not compared (not bounded)"
                                         % (none, "" if none == 1 else "s"), "", 1)
            # nor, then, the live bytes after the calls where they are bounds (a loop analysed once)
            if want_bounds:
                unchecked = re.sub(r", live bytes of \d+ calls? not compared \(not exact there\)", "",
                                   unchecked)
            # nor the execution counts the bound report marks as not exact
            if any("not_exact" in v for f in bound["functions"] for v in f["values"]):
                unchecked = re.sub(r", \d+ execution counts? not compared \(not exact\)", "",
                                   unchecked)
            if v.returncode != 0 or "0 disagreements" not in last or "not compared" in unchecked:
                print("FAIL %s verify at %s: exit %d: %s %s" % (name, values, v.returncode, last,
                                                                 v.stderr.strip()[-300:]))
                failed += 1
    settle()
    shutil.rmtree(scratch, ignore_errors=True)
    print("symbolic: %d checks, %d failed%s" % (checked, failed,
                                                ", %d files known to fail" % xfailed if xfailed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
