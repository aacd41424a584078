#!/usr/bin/env python3
"""check_page.py TENSORLINT SOURCE_DIR: the memory page's file, without a
browser (tests/browser/page_test.mjs opens it in one).

- the page embeds the JSON report unchanged: the data parses, and its
  "report" is what `report --format=json` prints for the same file;
- a hostile file (hostile.c) cannot end the data element: no '<' between
  its start and its end, exactly the page's two <script> elements, and the
  markup of the source present only in escaped form;
- --bind prefills the page's inputs and leaves the formulas in its report;
- the page is written whole or not at all: a failed run leaves the old file.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

cli, src = sys.argv[1], sys.argv[2]
failures = []


def run(*args, ok=(0, 1)):
    p = subprocess.run([cli, *args], cwd=src, capture_output=True, text=True)
    if p.returncode not in ok:
        raise SystemExit(f"tensorlint {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p


def page_data(html):
    m = re.search(r'<script type="application/json" id="tl-data">(.*?)</script>', html, re.S)
    if not m:
        raise SystemExit("no data element in the page")
    return m.group(1), json.loads(m.group(1))


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "page.html")
    for sample in ["samples/labs/lab2.c", "tests/browser/hostile.c", "samples/models/attention.c"]:
        run("report", "--format=html", "-o", out, sample)
        html = open(out, encoding="utf-8").read()
        raw, data = page_data(html)
        want = json.loads(run("report", "--format=json", sample).stdout)
        if data["report"] != want:
            failures.append(f"{sample}: the page's report differs from report --format=json")
        if "<" in raw or ">" in raw or "&" in raw:
            failures.append(f"{sample}: the data holds a raw '<', '>' or '&'")
        if len(re.findall(r"<script\b", html, re.I)) != 2:
            failures.append(f"{sample}: {len(re.findall(r'<script', html))} <script elements, not 2")
        if data["source"] != open(os.path.join(src, sample), encoding="utf-8").read():
            failures.append(f"{sample}: the page's source is not the file's text")
        if not data["roots"] or not all(r["columns"] and r["svg"] for r in data["roots"]):
            failures.append(f"{sample}: a root without bars or graph")
        if "http://" in html.replace("http://www.w3.org/", "") or "https://" in html:
            failures.append(f"{sample}: the page names a network address")
    if "window.__pwned" in html.split('id="tl-data">')[0]:
        failures.append("hostile.c: source text before the data element")

    # --bind: the inputs start at the values, the report keeps its formulas
    ck = "samples/checkpoint/decoder_ckpt.c"
    run("report", "--format=html", "-o", out, "--bind", "steps=7", ck)
    _, data = page_data(open(out, encoding="utf-8").read())
    main = [f for f in data["report"]["functions"] if f["name"] == "main"][0]
    if data["binds"] != {"steps": 7}:
        failures.append(f"decoder: binds {data['binds']}, not steps=7")
    if not isinstance(main["peak_live_bytes"], str) or "steps" not in main["peak_live_bytes"]:
        failures.append(f"decoder: the page's peak is not the formula in steps: {main['peak_live_bytes']}")

    # written whole or not at all: a missing file fails and leaves the page
    before = open(out, encoding="utf-8").read()
    p = run("report", "--format=html", "-o", out, "no/such/file.c", ok=(2,))
    if open(out, encoding="utf-8").read() != before:
        failures.append("a failed run changed the page")
    if [f for f in os.listdir(tmp) if f != "page.html"]:
        failures.append(f"temporary files left: {os.listdir(tmp)}")

for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print("page: data, escaping, binds and the whole-or-nothing write all checked")
