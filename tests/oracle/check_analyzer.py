#!/usr/bin/env python3
"""check_analyzer.py: every PyTorch fixture case, written as a C function,
analysed by `tensorlint report --format=json`, must match PyTorch: shape,
strides, offset, dtype, view or new, which values share a storage, storage
bytes, end-of-function live bytes and the peak, and the error (with its
check name) at the step where PyTorch raised.

usage: check_analyzer.py TENSORLINT FIXTURE_DIR [WORK_DIR]
Prints one line per mismatch and "analyzer-oracle: N passed, M failed".
Needs only the standard library (CI has no torch).
"""
import json
import math
import struct
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIGS = {}
with open(os.path.join(ROOT, "rules", "ops.def")) as f:
    for line in f:
        if line.startswith("TL_OP("):
            name, _fam, sig = [p.strip() for p in line[6:line.rindex(")")].split(",")]
            SIGS[name] = sig.strip('"')

CHECK_OF_STATUS = {
    "invalid-view": "invalid-view", "bad-dim": "invalid-view",
    "shape-mismatch": "shape-mismatch", "dtype-mismatch": "dtype-mismatch",
    "overlapping-write": "overlapping-write", "bad-argument": "invalid-argument",
    "device": "device-mismatch",
    "out-of-memory": "byte-overflow",
}
DEVICES = {"cpu": "TL_CPU", "cuda": "TL_CUDA"}
FORMATS = {"contiguous": "TL_CONTIGUOUS", "channels_last": "TL_CHANNELS_LAST"}
TL_END = 9223372036854775807


def c_int(v):
    if v == TL_END:
        return "TL_END"
    return f"INT64_C({v})" if abs(v) > 2**31 - 1 else str(v)


def c_double(v):
    if isinstance(v, str):
        v = float(v)
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return repr(float(v))


C_TYPES = {"bool": "uint8_t", "u8": "uint8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t",
           "i64": "int64_t", "f16": "uint16_t", "bf16": "uint16_t", "f32": "float", "f64": "double"}


def c_host(step):
    """The host-memory argument of from_data / from_blob / copy_to_host as a C
    compound literal: the values in the step's dtype (f16 as bit patterns), or a
    zeroed buffer of the step's byte count."""
    sig = SIGS[step["op"]]
    args = dict(zip(sig, step["args"]))
    vals = args["p"]
    if vals is None:
        return f"(char[{max(args['i'], 1)}]){{0}}"
    if not vals:
        return "NULL"
    dt = args["y"]
    if dt == "f16":
        items = [str(struct.unpack("<H", struct.pack("<e", float(v)))[0]) for v in vals]
    elif dt in ("f32", "f64"):
        items = [c_double(v) for v in vals]
    else:
        items = [str(int(v)) for v in vals]
    return f"(({C_TYPES[dt]}[]){{{', '.join(items)}}})"  # parenthesised: a macro argument


def c_args(step):
    sig = SIGS[step["op"]]
    return ", ".join(c_host(step) if k == "p" else c_arg(k, a) for k, a in zip(sig, step["args"]))


def c_arg(kind, a):
    if kind == "t":
        return a
    if kind == "L":
        return "TL_LIST(" + ", ".join(a) + ")"
    if kind == "S":
        return "TL_SHAPE0" if not a else "TL_SHAPE(" + ", ".join(c_int(x) for x in a) + ")"
    if kind == "i":
        return c_int(a)
    if kind == "b":
        return "true" if a else "false"
    if kind == "f":
        return c_double(a)
    if kind == "y":
        return "TL_" + a.upper()
    if kind == "v":
        return DEVICES[a]
    if kind == "m":
        return FORMATS[a]
    raise ValueError(kind)


def backend_gap(expect):
    """torch 1.13's CPU backend lacks some kernels (f16 matmul ...): not semantics
    (the fixture generator marks those steps)."""
    return "error" in expect and bool(expect.get("backend_gap"))


def data_dependent(step):
    """An index value out of range: the analyzer has no data; the runtime checks it."""
    exp = step.get("expect", {})
    if step["op"] in ("masked_fill", "index_add_", "index_add", "cross_entropy") and \
            exp.get("data_dependent"):
        return True
    return (step["op"] in ("index", "index_select", "gather") and exp.get("error") == "bad-dim"
            and "out of" in exp.get("message", ""))


def write_case(out, idx, case, lines):
    """Writes case_<idx>; returns the list of (line, step) it emitted."""
    out.append(f"void case_{idx}(void) /* {case['name']} */")
    out.append("{")
    emitted, complete = [], True
    for step in case["steps"]:
        if backend_gap(step.get("expect", {})) or data_dependent(step):
            complete = False
            break
        call = f"tl_{step['op']}({c_args(step)})"
        if step["op"] == "get":
            text = f"    (void){call};"
        elif step.get("var"):
            text = f"    tl_tensor *{step['var']} = {call};"
        else:
            text = f"    {call};"
        out.append(text)
        emitted.append((len(lines) + len(out), step))
        if "error" in step.get("expect", {}):
            break
    out.append("}")
    out.append("")
    return emitted, complete


def compare_case(name, emitted, fn, diags, problems):
    values = {v["line"]: v for v in fn["values"]} if fn else {}
    storages = {s["id"]: s for s in fn["storages"]} if fn else {}
    errors = {d["line"]: d for d in diags if d["severity"] == "error"}
    seen, sizes, external = {}, {}, set()
    peak_temp = 0  # the largest live bytes within a call that holds temporaries
    final = {}  # storage -> its largest size in the case (an out= resize grows a storage)
    for _line, step in emitted:
        exp = step.get("expect", {})
        if "storage" in exp and "error" not in exp:
            final[exp["storage"]] = max(final.get(exp["storage"], 0), exp["storage_nbytes"])
    for line, step in emitted:
        exp = step.get("expect", {})
        where = f"{name} line {line} ({step['op']})"
        if "error" in exp:
            d = errors.get(line)
            want = CHECK_OF_STATUS.get(exp["error"], exp["error"])
            if not d or d["check"] != want:
                problems.append(f"{where}: expected error [{want}], got "
                                f"{d['check'] if d else 'none'}")
            return
        if line in errors:
            problems.append(f"{where}: unexpected error [{errors[line]['check']}] "
                            f"{errors[line]['message']}")
            return
        if "shape" not in exp:
            continue  # get: a number, not a tensor
        if step["op"] == "from_blob":
            external.add(exp["storage"])  # the caller's memory: 0 bytes allocated
        v = values.get(line) if step.get("var") else None
        if step.get("var") is None:  # in place: the written tensor is an earlier value
            if exp["storage"] not in external:
                sizes[exp["storage"]] = exp["storage_nbytes"]  # an out= resize may grow it
            if exp.get("temp_nbytes"):
                peak_temp = max(peak_temp, sum(sizes.values()) + exp["temp_nbytes"])
            continue
        if v is None:
            problems.append(f"{where}: no value reported")
            return
        for field in ("shape", "strides", "offset", "dtype", "device"):
            if field in exp and v[field] != exp[field]:
                problems.append(f"{where}: {field} expected {exp[field]}, got {v[field]}")
        kind = "view" if exp["kind"] == "view" else "new"
        if v["kind"] != kind:
            problems.append(f"{where}: kind expected {kind}, got {v['kind']}")
        sid = v["storage"]
        if sid in seen and seen[sid] != exp["storage"] or \
           sid not in seen and exp["storage"] in seen.values():
            problems.append(f"{where}: storage sharing differs from PyTorch")
        seen[sid] = exp["storage"]
        st = storages.get(sid, {})
        nbytes = st.get("external_nbytes") if st.get("external") else st.get("nbytes")
        if nbytes != final[exp["storage"]]:
            problems.append(f"{where}: storage bytes expected {final[exp['storage']]}, "
                            f"got {nbytes}")
        sizes[exp["storage"]] = 0 if exp["storage"] in external else exp["storage_nbytes"]
        if exp.get("temp_nbytes"):  # held within the call only (the fixture's measurement)
            peak_temp = max(peak_temp, sum(sizes.values()) + exp["temp_nbytes"])
    total = sum(sizes.values())
    peak = max(total, peak_temp)
    if fn and emitted and (fn["end_live_bytes"] != total or fn["peak_live_bytes"] != peak):
        problems.append(f"{name}: live/peak expected {total}/{peak}, got {fn['end_live_bytes']}/"
                        f"{fn['peak_live_bytes']}")


def check_file(tool, path, work, counts, problems):
    data = json.load(open(path))
    lines = ["#include <math.h>", "#include <stddef.h>", "#include <stdint.h>",
             "#include <tensorlint/tensor.h>", ""]
    cases = []
    for idx, case in enumerate(data["cases"]):
        body = []
        emitted, complete = write_case(body, idx, case, lines)
        lines.extend(body)
        cases.append((idx, case, emitted, complete))
    src = os.path.join(work, os.path.basename(path).replace(".json", ".c"))
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    run = subprocess.run([tool, "report", "--format=json", src], capture_output=True, text=True)
    if run.returncode == 2:
        problems.append(f"{src}: tensorlint failed: {run.stderr[:2000]}")
        counts[1] += len(cases)
        return
    report = json.loads(run.stdout)
    funcs = {f["name"]: f for f in report["functions"]}
    for idx, case, emitted, complete in cases:
        fn = funcs.get(f"case_{idx}")
        lo = emitted[0][0] if emitted else 0
        hi = emitted[-1][0] if emitted else 0
        diags = [d for d in report["diagnostics"] if lo <= d["line"] <= hi]
        before = len(problems)
        compare_case(case["name"], emitted, fn, diags, problems)
        counts[0 if len(problems) == before else 1] += 1
        counts[2] += 0 if complete else 1


def main():
    tool, fixtures = sys.argv[1], sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="tl-oracle-")
    os.makedirs(work, exist_ok=True)
    counts, problems = [0, 0, 0], []
    for name in sorted(os.listdir(fixtures)):
        if name.endswith(".json"):
            check_file(tool, os.path.join(fixtures, name), work, counts, problems)
    for p in problems:
        print("MISMATCH", p)
    print(f"analyzer-oracle: {counts[0]} passed, {counts[1]} failed "
          f"({counts[2]} cases stop early: a torch CPU backend gap or an index value only a run "
          f"can check)")
    sys.exit(1 if counts[1] or counts[0] < 400 else 0)


if __name__ == "__main__":
    main()
