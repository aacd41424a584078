#!/usr/bin/env python3
"""The differential soundness test: random programs (gen.py), each built
against the runtime and run at random sizes, compared with what
`tensorlint report --format=json` claims of them (docs/soundness.md).

For each program: one report without --bind (totals as formulas over the
run-time sizes), then per run one report with --bind of every symbol the
test can name a value for.  Against each run (its trace's exit record):

  exact    a total printed as exact (not in "not_exact") must equal the run;
  upper    a total said "upper" must be >= the run's; "lower" <= the run's;
  error    the programs are valid for every input, so a diagnostic of
           severity error is a false error;
  missed   a run that raises a tensor error where the report claims exact
           totals (a generator bug or a missed error: shown as a lie);
  refused  a name the report without --bind lists that --bind refuses (every
           name a report prints must bind its symbol): a failure, and the run
           is compared with the other names bound.
  assumed  an assumption over symbols the report lists that no input can make
           false, or that another listed one implies (tests/lib/assumptions.py).

A formula is evaluated at the run's values when every symbol in it names an
input (by its variable or field, a `#k` suffix dropped; a helper's local
called for several inputs only when they are equal in that run).  A run
whose values falsify one of the report's assumptions over symbols is not
compared (counted), nor one that leaves where the report assumes the run
goes on (an assumption of "kind": "path", its C condition evaluated at the
inputs' values: an early exit on a size); a path condition the test cannot
evaluate is one of the generator's error exits, which no run takes.  Exit status 1 on any lie, 2 when the harness cannot
build or run a program.

usage: run.py --tool TENSORLINT --include DIR --lib DIR [--cflags FLAGS]
              [--count N] [--seed S] [--runs R] [--jobs J]
              [--styles a,b,...] [--keep DIR] [--verbose]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import gen  # noqa: E402
from formula import evaluate  # noqa: E402
from assumptions import assumption_faults  # noqa: E402

TOTALS = {"peak_live_bytes": "peak_bytes", "end_live_bytes": "live_bytes"}
TIMEOUT = 300


class Harness(Exception):
    """The test could not build or run a program (not a lie)."""


REFUSED = re.compile(r"--bind ([^:]+): no run-time size of the program has that name")


def report(opt, path, binds, lies=None):
    args = [opt.tool, "report", "--format=json", path] + ["--bind=%s=%d" % kv for kv in binds.items()]
    p = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    refused = set(REFUSED.findall(p.stderr)) if p.returncode == 2 else set()
    if refused and lies is not None and refused <= set(binds):
        # a name the unbound report lists that --bind does not take: every name a report
        # prints must bind its symbol (a failure), and the run is compared with the others bound
        for name in sorted(refused):
            lies.append({"kind": "a listed name refused by --bind", "message": name})
        return report(opt, path, {k: v for k, v in binds.items() if k not in refused}, lies)
    if p.returncode not in (0, 1) or not p.stdout.startswith("{"):
        raise Harness("report%s exited %d: %s" % (" --bind" if binds else "", p.returncode,
                                                   p.stderr.strip()[-400:]))
    return json.loads(p.stdout)


def build(opt, src, exe):
    cmd = [opt.cc, "-std=gnu11", "-g", "-w"] + opt.cflags.split() + [
        src, "-I" + opt.include, "-L" + opt.lib, "-Wl,-rpath," + opt.lib, "-ltensorlint", "-lm",
        "-o", exe]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    if p.returncode != 0:
        raise Harness("does not build: " + p.stderr.strip()[-600:])


def run(prog, exe, work, vals, given, flag):
    cfg = os.path.join(work, "config.bin")
    trace = os.path.join(work, "trace.jsonl")
    argv, env, header = gen.run_setup(prog, vals, given, cfg)
    if header is not None:
        with open(cfg, "wb") as f:
            f.write(header)
    e = {k: v for k, v in os.environ.items() if not k.startswith("SOUND_")}
    e.update(env)
    e.update({"TL_TRACE": trace, "ASAN_OPTIONS": "detect_leaks=0", "TL_CUDA_EMULATION": "1"})
    if flag:
        e["SOUND_FLAG"] = "1"
    if prog.mode_env:  # the mode: the flag picks the other arm
        e[prog.mode_env] = "chat" if flag else "generate"
    if os.path.exists(trace):
        os.unlink(trace)
    p = subprocess.run([exe] + argv, env=e, capture_output=True, text=True, timeout=TIMEOUT)
    recs = []
    if os.path.exists(trace):
        with open(trace) as f:
            recs = [json.loads(ln) for ln in f if ln.strip()]
    exit_rec = next((r for r in recs if r.get("ev") == "exit"), None)
    if not os.path.exists(trace) and p.returncode == 0:
        # no tensor call ran (the runtime opens its trace at its first call):
        # nothing was allocated
        exit_rec = {"peak_bytes": 0, "live_bytes": 0}
    errors = [r for r in recs if r.get("ev") == "error"]
    return p.returncode, exit_rec, errors, argv, env, p.stderr


def symbol_values(prog, rep, vals):
    """{symbol name: value} for the report's symbols that name an input."""
    out = {}
    for s in rep.get("symbols", []):
        name = s["name"]
        base = re.sub(r"#\d+$", "", name)
        cands = [i for i in prog.inputs if base in i.names]
        if not cands:
            continue
        got = {vals[i.var] for i in cands}
        if len(got) == 1:
            out[name] = got.pop()
    return out


def claim_of(f, key):
    if key not in f.get("not_exact", []):
        return "exact"
    return f.get("bounds", {}).get(key, "none")


def main_func(rep):
    return next((f for f in rep["functions"] if f["name"] == "main"), None)


def assumptions_hold(rep, symvals):
    """False when an assumption over symbols is false at these values."""
    for a in rep.get("assumptions", []):
        if a.get("kind") == "path":
            continue
        cond = a["condition"]
        try:
            ok = all(evaluate(re.sub(r"(?<![<>=!])=(?!=)", "==", part), symvals)
                     for part in cond.split(" and "))
        except (KeyError, SyntaxError, ZeroDivisionError, NameError):
            continue
        if not ok:
            return False, cond
    return True, None


def leaves(rep, vals, prog=None):
    """The path assumption ("C is false" / "C is true", C over the program's
    variables) the run with the inputs' values vals breaks, or None: it
    leaves where the report assumes it does not.  A helper's parameter the
    generator passes conditions in (prog.param_conds) is true when one of
    them is: some call takes the arm."""
    for a in rep.get("assumptions", []):
        m = re.match(r"^(.*) is (true|false)$", a["condition"]) if a.get("kind") == "path" else None
        if not m or not re.fullmatch(r"[\w\s().+\-*%<>=!&|]+", m.group(1)):
            continue
        cond = m.group(1)
        for name, conds in (prog.param_conds.items() if prog else ()):
            cond = re.sub(r"(?<![\w.])%s(?![\w.])" % name, "(%s)" % " || ".join(
                "(%s)" % c for c in conds), cond)
        v = c_value(cond, vals)
        if v is not None and bool(v) != (m.group(2) == "true"):
            return a
    return None


def c_value(expr, vals):
    """A C expression over the inputs (&&, ||, !, arithmetic, comparisons)
    at their values vals, or None when it names anything else."""
    py = expr.replace("&&", " and ").replace("||", " or ").replace("/", "//")
    py = re.sub(r"!(?!=)", " not ", py)
    names = {}
    for k, var in enumerate(sorted(vals, key=len, reverse=True)):  # config.dim: a name
        names["v%d_" % k] = vals[var]
        py = re.sub(r"(?<![\w.])%s(?![\w.])" % re.escape(var), "v%d_" % k, py)
    try:
        return eval(py, {"__builtins__": {}}, names)
    except (NameError, SyntaxError, ZeroDivisionError, TypeError):
        return None


def derived_values(prog, vals, flag):
    """{variable: value} of the generator's ternaries over the inputs (a
    variable set so is a symbol of its own in the report)."""
    out = {}
    for var, (cond, a, b) in prog.derived.items():
        c = flag if "getenv" in cond else c_value(cond, vals)
        v = c_value(a if c else b, vals) if c is not None else None
        if isinstance(v, int):
            out[var] = v
    return out


def compare(rep, what, exit_rec, symvals, lies, counts):
    f = main_func(rep)
    if f is None:
        return
    for key, tkey in TOTALS.items():
        pred, claim = f.get(key), claim_of(f, key)
        try:
            pv = evaluate(pred, symvals) if isinstance(pred, str) else pred
        except (KeyError, SyntaxError, NameError):
            counts["formula not evaluated"] += 1
            continue
        if pv is None:
            continue
        meas = exit_rec[tkey]
        bad = {"exact": meas != pv, "upper": meas > pv, "lower": meas < pv, "none": False}[claim]
        counts["claims checked"] += claim != "none"
        if bad:
            lies.append({"kind": "%s %s" % (claim, key), "report": what, "predicted": pred,
                         "value": pv, "run": meas})
    for d in rep.get("diagnostics", []):
        if d.get("severity") == "error":
            lies.append({"kind": "false error (%s)" % d.get("check"), "report": what,
                         "line": d.get("line"), "message": d.get("message", "")[:200]})


def one_program(args):
    opt, seed = args
    prog = gen.generate(seed, opt.styles)
    work = tempfile.mkdtemp(prefix="sound%d." % seed, dir=opt.tmp)
    result = {"seed": seed, "styles": sorted(prog.styles), "lies": [], "harness": None,
              "counts": {"runs": 0, "claims checked": 0, "formula not evaluated": 0,
                         "assumption not met": 0, "left early": 0}}
    try:
        src = os.path.join(work, "prog.c")
        with open(src, "w") as f:
            f.write(prog.text)
        exe = os.path.join(work, "prog")
        build(opt, src, exe)
        base = report(opt, src, {})
        f = main_func(base)  # exact: both totals printed exact, without --bind
        result["exact"] = bool(f) and all(claim_of(f, k) == "exact" for k in TOTALS)
        result["notes"] = sorted({d.get("check") for d in base.get("diagnostics", [])
                                  if d.get("severity") == "note" and d.get("check")})
        for fault in assumption_faults(base):
            result["lies"].append({"kind": "an assumption listed that no input falsifies",
                                   "message": fault})
        r = random.Random(seed * 7919 + 1)
        for k in range(opt.runs):
            vals, given = gen.values(prog, r, same=(k % 2 == 1))
            flag = r.random() < 0.5
            rc, exit_rec, errors, argv, env, err = run(prog, exe, work, vals, given, flag)
            if leaves(base, vals, prog) and rc == 0 and not errors:
                result["counts"]["left early"] += 1  # the report's totals are of runs that go on
                continue
            if rc != 0 or exit_rec is None:
                if errors:
                    result["lies"].append({"kind": "run error (missed or generator bug)",
                                           "message": errors[0].get("message", ""),
                                           "line": errors[0].get("line")})
                else:
                    raise Harness("run exited %d: %s" % (rc, err.strip()[-400:]))
                continue
            result["counts"]["runs"] += 1
            lies = []
            symvals = symbol_values(prog, base, vals)
            for name, v in derived_values(prog, vals, flag).items():
                symvals.update({s["name"]: v for s in base.get("symbols", [])
                                if re.sub(r"#\d+$", "", s["name"]) == name})
            ok, cond = assumptions_hold(base, symvals)
            if not ok:
                result["counts"]["assumption not met"] += 1
                continue
            compare(base, "report", exit_rec, symvals, lies, result["counts"])
            if symvals:
                bound = report(opt, src, symvals, lies)
                compare(bound, "report --bind", exit_rec, symvals, lies, result["counts"])
            for lie in lies:
                lie.update({"argv": argv, "env": env, "flag": flag})
            result["lies"] += lies
    except (Harness, subprocess.TimeoutExpired, OSError, ValueError) as e:
        result["harness"] = str(e)
    if (result["lies"] or result["harness"]) and opt.keep:
        os.makedirs(opt.keep, exist_ok=True)
        shutil.copy(os.path.join(work, "prog.c"), os.path.join(opt.keep, "seed%d.c" % seed))
    shutil.rmtree(work, ignore_errors=True)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cc", default=os.environ.get("CC") or "cc")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--styles", default=",".join(gen.STYLES))
    ap.add_argument("--keep", help="copy every program that lies into this folder")
    ap.add_argument("--verbose", action="store_true")
    opt = ap.parse_args()
    opt.styles = [s for s in opt.styles.split(",") if s]
    bad = [s for s in opt.styles if s not in gen.STYLES]
    if bad:
        ap.error("unknown style %s (styles: %s)" % (", ".join(bad), ", ".join(gen.STYLES)))
    opt.tool = os.path.abspath(opt.tool)
    opt.tmp = tempfile.mkdtemp(prefix="soundness.")
    seeds = [opt.seed * 100003 + k for k in range(opt.count)]
    with Pool(opt.jobs) as pool:
        results = pool.map(one_program, [(opt, s) for s in seeds], chunksize=1)
    shutil.rmtree(opt.tmp, ignore_errors=True)
    totals, kinds, by_style, n_lying, harness = {}, {}, {}, 0, []
    for res in results:
        for k, v in res["counts"].items():
            totals[k] = totals.get(k, 0) + v
        if res["harness"]:
            harness.append(res)
        if res["lies"]:
            n_lying += 1
            for s in res["styles"]:
                by_style[s] = by_style.get(s, 0) + 1
        for lie in res["lies"]:
            kinds.setdefault(lie["kind"], []).append(res["seed"])
            if opt.verbose:
                print("LIE seed %d [%s]: %s" % (res["seed"], " ".join(res["styles"]),
                                               json.dumps(lie)))
    for res in harness:
        print("HARNESS seed %d: %s" % (res["seed"], res["harness"]))
    print("soundness: %d programs (seed %d, styles %s), %d runs compared, %d claims checked, "
          "%d formulas not evaluated, %d runs whose values an assumption excludes, %d runs "
          "that leave where the report assumes they go on"
          % (len(results), opt.seed, ",".join(opt.styles), totals.get("runs", 0),
             totals.get("claims checked", 0), totals.get("formula not evaluated", 0),
             totals.get("assumption not met", 0), totals.get("left early", 0)))
    print("soundness: %d programs lie, %d lies; %d programs not built or run"
          % (n_lying, sum(len(v) for v in kinds.values()), len(harness)))
    for k, seeds_ in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        uniq = sorted(set(seeds_))
        print("  %-40s %4d (programs %s%s)" % (k, len(seeds_), " ".join(map(str, uniq[:6])),
                                              " ..." if len(uniq) > 6 else ""))
    exact, notes = {}, {}
    for res in results:
        for st in res["styles"]:
            e = exact.setdefault(st, [0, 0])
            e[0] += bool(res.get("exact"))
            e[1] += "exact" in res
            for n in res.get("notes", []):
                notes.setdefault(st, {}).setdefault(n, 0)
                notes[st][n] += 1
    print("soundness: programs with both totals exact, by style: " + ", ".join(
        "%s %d/%d" % (st, e[0], e[1]) for st, e in sorted(exact.items())))
    for st in sorted(notes):
        print("  notes in %s programs: %s" % (st, ", ".join(
            "%s %d" % kv for kv in sorted(notes[st].items(), key=lambda kv: -kv[1]))))
    if by_style:
        print("  lying programs by style: " + ", ".join(
            "%s %d" % kv for kv in sorted(by_style.items(), key=lambda kv: -kv[1])))
    return 1 if kinds else 2 if harness else 0


if __name__ == "__main__":
    sys.exit(main())
