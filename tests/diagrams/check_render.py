#!/usr/bin/env python3
"""Rendered diagrams are well formed.

For every sample: the SVG of `tensorlint graph` parses as XML and holds one
node per node statement of its DOT and one cluster per storage cluster; the
SVG of `tensorlint lifetimes` holds its single table node.  For a few
samples, the PNG has a valid signature and an IHDR whose size is plausible,
and the PDF starts with %PDF- and ends with %%EOF.

usage: check_render.py TENSORLINT OUTDIR
"""
import glob
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
failures = []


def run(tool, *args):
    p = subprocess.run([tool, *args], cwd=ROOT, capture_output=True)
    if p.returncode not in (0, 1) or p.stderr:
        failures.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.decode()[:300]}")
        return None
    return p.stdout


def groups(svg_path, cls):
    tree = ET.parse(svg_path)
    return [g for g in tree.iter(SVG + "g") if g.get("class") == cls]


def check_svg(tool, sample, out):
    base = os.path.join(out, os.path.basename(sample)[:-2])
    dot = run(tool, "graph", sample)
    if dot is None:
        return
    text = dot.decode()
    want_nodes = len(re.findall(r"^\s*v\d+\s+\[", text, re.M))
    want_clusters = len(re.findall(r"subgraph cluster_s\d+", text))
    if run(tool, "graph", sample, "-o", base + ".graph.svg") is None:
        return
    try:
        nodes = groups(base + ".graph.svg", "node")
        clusters = groups(base + ".graph.svg", "cluster")
    except ET.ParseError as e:
        failures.append(f"{sample}: graph SVG does not parse: {e}")
        return
    if len(nodes) != want_nodes or len(clusters) != want_clusters:
        failures.append(f"{sample}: graph SVG has {len(nodes)} nodes, {len(clusters)} clusters; "
                        f"DOT has {want_nodes}, {want_clusters}")
    if run(tool, "lifetimes", sample, "-o", base + ".lifetimes.svg") is None:
        return
    try:
        nodes = groups(base + ".lifetimes.svg", "node")
    except ET.ParseError as e:
        failures.append(f"{sample}: lifetimes SVG does not parse: {e}")
        return
    if len(nodes) != 1:
        failures.append(f"{sample}: lifetimes SVG has {len(nodes)} nodes, not 1")


def check_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        failures.append(f"{path}: not a PNG (signature or IHDR)")
        return
    width, height = struct.unpack(">II", data[16:24])
    if not (50 <= width <= 20000 and 50 <= height <= 20000):
        failures.append(f"{path}: PNG size {width}x{height} is implausible")


def check_pdf(path):
    data = open(path, "rb").read()
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-64:]:
        failures.append(f"{path}: not a PDF")


def main():
    tool, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    samples = sorted(os.path.relpath(p, ROOT)
                     for p in glob.glob(os.path.join(ROOT, "samples", "**", "*.c"), recursive=True)
                     if "/multifile/" not in os.path.relpath(p, ROOT))  # one program, with -p
    samples += ["tests/diagrams/diags.c", "tests/diagrams/loops.c", "tests/diagrams/formulas.c"]
    for sample in samples:
        check_svg(tool, sample, out)
    for sample in ("samples/worksheet/block1.c", "tests/diagrams/loops.c"):
        base = os.path.join(out, os.path.basename(sample)[:-2])
        for kind in ("graph", "lifetimes"):
            if run(tool, kind, sample, "-o", f"{base}.{kind}.png") is not None:
                check_png(f"{base}.{kind}.png")
            if run(tool, kind, sample, "--format=pdf", "-o", f"{base}.{kind}.out") is not None:
                check_pdf(f"{base}.{kind}.out")
    for f in failures:
        print("FAIL:", f)
    print(f"diagrams render: {len(samples)} samples, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
