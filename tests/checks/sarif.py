#!/usr/bin/python3
"""`tensorlint check --format=sarif` against the official SARIF 2.1.0 schema
(tests/checks/sarif-2.1.0-rtm.5.json, JSON-Schema draft-04, validated with
Debian's python3-jsonschema), plus what GitHub code scanning needs beyond
the schema: rules with help text and a helpUri, results with message text,
a location relative to %SRCROOT%, a full region and primaryLocationLineHash,
and fixes for the fix-its.  A file that does not compile must show up as a
tool execution notification, with executionSuccessful false.

usage: sarif.py TENSORLINT SCHEMA SAMPLE.c...   (run from the source root)
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def sarif_of(tool, files, extra=()):
    proc = subprocess.run([tool, "check", "--format=sarif", *extra, *files],
                          capture_output=True, text=True, timeout=300)
    try:
        return proc.returncode, json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        fail(f"not JSON ({e}); stderr: {proc.stderr[:500]}")


def check_rules(run):
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    if len(ids) != len(set(ids)) or len(ids) < 29:
        fail(f"rules: {ids}")
    for r in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            if not r.get(key, {}).get("text"):
                fail(f"rule {r['id']}: no {key}.text")
        if len(r["fullDescription"]["text"]) > 1024:
            fail(f"rule {r['id']}: fullDescription over 1024 characters")
        if not r.get("helpUri", "").endswith(f"docs/checks/{r['id']}.md"):
            fail(f"rule {r['id']}: helpUri {r.get('helpUri')}")
    return ids


def check_result(res, ids):
    loc = res["locations"][0]["physicalLocation"]
    region = loc["region"]
    if ids[res["ruleIndex"]] != res["ruleId"] or not res["message"]["text"]:
        fail(f"result: {res}")
    if loc["artifactLocation"].get("uriBaseId") != "%SRCROOT%" or \
            loc["artifactLocation"]["uri"].startswith("/"):
        fail(f"location not relative to %SRCROOT%: {loc}")
    if not all(k in region for k in ("startLine", "startColumn", "endLine", "endColumn")):
        fail(f"region: {region}")
    if ":" not in res.get("partialFingerprints", {}).get("primaryLocationLineHash", ""):
        fail(f"no primaryLocationLineHash: {res}")


def main(argv):
    tool, schema_path, files = argv[1], argv[2], argv[3:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    with tempfile.TemporaryDirectory() as tmp:
        broken = os.path.join(tmp, "broken.c")
        with open(broken, "w") as f:
            f.write("#include <tensorlint/tensor.h>\nint main(void) { return x; }\n")
        rc, log = sarif_of(tool, files + [broken])
    errors = sorted(validator.iter_errors(log), key=str)
    for e in errors[:10]:
        print("schema:", e.message, "at", list(e.absolute_path))
    if errors:
        fail(f"{len(errors)} schema errors")
    run = log["runs"][0]
    ids = check_rules(run)
    for res in run["results"]:
        check_result(res, ids)
    if not any("fixes" in r for r in run["results"]):
        fail("no result carries a fix")
    inv = run["invocations"][0]
    if rc != 2 or inv["executionSuccessful"] or not inv["toolExecutionNotifications"]:
        fail(f"the broken file is not a failed execution (exit {rc}, {inv})")
    rc, clean = sarif_of(tool, [f for f in files if "clean_" in f])
    if rc != 0 or clean["runs"][0]["results"] or not list(validator.iter_errors(clean)) == []:
        fail("a clean run is not an empty, valid log")
    print(f"sarif: valid against the SARIF 2.1.0 schema; {len(run['results'])} results, "
          f"{len(ids)} rules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
