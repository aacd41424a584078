#!/usr/bin/env python3
"""Baseline tests of `tensorlint check --baseline` and `report
--format=markdown --baseline`: pairs of programs NAME.base.c (the base
revision) and NAME.head.c (the change).  Each is copied to base/NAME.c and
head/NAME.c of a temporary directory, as two checkouts of one repository;
the base's `report --format=json` is the baseline of the head's check.

The head carries, in the dialect of tests/README.md, the diagnostics that
must be printed, which against a baseline are the new ones only
(`// expected-warning {{[peak-regression]}}`, notes by text), and:

    // BASELINE-SUMMARY: 2 new, 1 unchanged (not shown), 0 gone since the base
    // BASELINE-CHANGE: function 'a' was renamed to 'b' ...   (each line printed)
    // BASELINE-MESSAGE: peak of 'main' grew from ...          (text printed somewhere)

The SARIF of the same check is validated against the 2.1.0 schema and its
baselineState counts must agree with the summary; the Markdown comment
must list exactly the new warnings.

usage: annotated.py baseline TENSORLINT SARIF_SCHEMA PAIR_DIR
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import folder_checks  # noqa: E402
from dialect import match_diagnostics  # noqa: E402

SUMMARY = re.compile(r"BASELINE-SUMMARY: (.*)$")
CHANGE = re.compile(r"BASELINE-CHANGE: (.*)$")
MESSAGE = re.compile(r"BASELINE-MESSAGE: (.*)$")


def directives(path):
    summary, changes, messages = None, [], []
    with open(path, encoding="utf-8") as f:
        for text in f:
            m = MESSAGE.search(text)
            if m:
                messages.append(m.group(1).strip())
            m = SUMMARY.search(text)
            if m:
                summary = m.group(1).strip()
            m = CHANGE.search(text)
            if m:
                changes.append(m.group(1).strip())
    return summary, changes, messages


def tool_run(tool, args, cwd):
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def sarif_states(tool, schema, name, cwd, errors):
    import jsonschema
    proc = tool_run(tool, ["check", "--format=sarif", "--baseline=../base.json", name + ".c"], cwd)
    try:
        log = json.loads(proc.stdout)
        jsonschema.validate(log, schema)
    except (json.JSONDecodeError, jsonschema.ValidationError) as e:
        errors.append(f"{name}: SARIF with a baseline is not valid SARIF 2.1.0: {str(e)[:300]}")
        return {}
    counts = {}
    for r in log["runs"][0]["results"]:
        state = r.get("baselineState")
        if state not in ("new", "unchanged", "absent"):
            errors.append(f"{name}: a result without a baselineState: {r['ruleId']}")
        counts[state] = counts.get(state, 0) + 1
    return counts


def markdown_new(tool, name, cwd, errors):
    proc = tool_run(tool, ["report", "--format=markdown", "--baseline=../base.json", name + ".c"], cwd)
    if proc.returncode not in (0, 1):
        errors.append(f"{name}: report --format=markdown failed ({proc.returncode}): {proc.stderr}")
        return []
    section = proc.stdout.split("### New warnings", 1)[-1]
    return sorted(int(m) for m in re.findall(r"^- \*\*\w+\*\* `[^:`]+:(\d+):\d+`", section, re.M))


def run_pair(tool, schema, head_path, tmp):
    name = os.path.basename(head_path)[: -len(".head.c")]
    base_path = head_path[: -len(".head.c")] + ".base.c"
    for side, src in (("base", base_path), ("head", head_path)):
        os.makedirs(os.path.join(tmp, side), exist_ok=True)
        with open(src, encoding="utf-8") as f, open(os.path.join(tmp, side, name + ".c"), "w") as g:
            g.write(f.read())
    rep = tool_run(tool, ["report", "--format=json", name + ".c"], os.path.join(tmp, "base"))
    if rep.returncode not in (0, 1):
        return [f"{name}: the base's report failed: {rep.stderr}"]
    with open(os.path.join(tmp, "base.json"), "w") as f:
        f.write(rep.stdout)
    head_dir = os.path.join(tmp, "head")
    want, options = folder_checks.annotations(head_path)
    proc = tool_run(tool, ["check", "--baseline=../base.json", *options, name + ".c"], head_dir)
    got, notes = folder_checks.diagnostics(proc.stderr)
    errors = match_diagnostics(want, got, notes, where=f"{name}:")
    if proc.returncode not in (0, 1):
        errors.append(f"{name}: check --baseline failed ({proc.returncode}): {proc.stderr}")
    summary, changes, messages = directives(head_path)
    errors += [f"{name}: no message containing '{t}'" for t in messages if t not in proc.stderr]
    if summary and f"tensorlint: baseline ../base.json: {summary}" not in proc.stderr:
        errors.append(f"{name}: summary line missing: want '{summary}'; output:\n{proc.stderr}")
    for c in changes:
        if f"{name}.c: baseline: {c}" not in proc.stderr:
            errors.append(f"{name}: change line missing: '{c}'")
    printed_changes = len(re.findall(r"^\S+: baseline: function", proc.stderr, re.M))
    if printed_changes != len(changes):
        errors.append(f"{name}: {printed_changes} function changes printed, {len(changes)} expected")
    counts = sarif_states(tool, schema, name, head_dir, errors)
    m = re.match(r"(\d+) new, (\d+) unchanged .*, (\d+) gone", summary or "")
    if m and counts != {k: int(v) for k, v in zip(("new", "unchanged", "absent"), m.groups())
                        if int(v) > 0}:
        errors.append(f"{name}: SARIF baselineState counts {counts}, summary says '{summary}'")
    md = markdown_new(tool, name, head_dir, errors)
    if md != sorted(a.line for _, a in want if a.kind != "note"):
        errors.append(f"{name}: markdown's new warnings at lines {md}, want "
                      f"{sorted(a.line for _, a in want)}")
    return errors


def main(argv):
    tool, schema_path, pair_dir = os.path.abspath(argv[1]), argv[2], argv[3]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    heads = sorted(glob.glob(os.path.join(pair_dir, "*.head.c")))
    failures, passed = [], 0
    for head in heads:
        with tempfile.TemporaryDirectory() as tmp:
            errors = run_pair(tool, schema, head, tmp)
        failures += errors
        passed += not errors
    for e in failures:
        print(e)
    print(f"baseline: {passed} pairs passed, {len(heads) - passed} failed")
    return 0 if heads and passed == len(heads) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
