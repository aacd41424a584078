#!/usr/bin/env python3
"""verify_fixtures.py: every runnable PyTorch fixture case (CPU, small
tensors; the mixed-device cases of devices.json, whose CUDA tensors verify
runs on the emulated device when no GPU is usable), written as C, must
verify with full agreement: `tensorlint verify`
compiles one program per fixture file (main installs an error handler so a
failing step returns NULL, then calls every case), runs it with the trace,
and checks each prediction against the run.

usage: verify_fixtures.py TENSORLINT FIXTURE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_analyzer import backend_gap, c_args, data_dependent  # noqa: E402


def runnable(case):
    if case.get("devices") == "mixed":  # metadata only, a few elements each
        return not any(data_dependent(step) for step in case["steps"])
    if not case.get("values"):
        return False  # metadata-only cases may be far too large to run
    for step in case["steps"]:
        if "cuda" in [a for a in step["args"] if isinstance(a, str)]:
            return False
        if data_dependent(step):
            return False  # an index value out of range: the analyzer has no data
    return True


def case_function(idx, case):
    lines = [f"static void case_{idx}(void) /* {case['name']} */", "{"]
    for step in case["steps"]:
        call = f"tl_{step['op']}({c_args(step)})"
        if step["op"] == "get":
            lines.append(f"    (void){call};")
        elif step.get("var"):
            lines.append(f"    tl_tensor *{step['var']} = {call};")
        else:
            lines.append(f"    {call};")
        exp = step.get("expect", {})
        if "error" in exp and not backend_gap(exp):
            break  # the runtime fails here too; the case ends
    lines += ["}", ""]
    return lines


def program(cases):
    out = ["#include <math.h>", "#include <stddef.h>", "#include <stdint.h>",
           "#include <tensorlint/tensor.h>", "",
           "static void keep_going(const tl_error *err, void *user)",
           "{", "    (void)err;", "    (void)user;", "}", ""]
    calls = []
    for idx, case in enumerate(cases):
        out += case_function(idx, case)
        calls.append(f"    case_{idx}();")
    out += ["int main(void)", "{", "    tl_set_error_handler(keep_going, NULL);"] + calls
    out += ["    return 0;", "}", ""]
    return "\n".join(out)


def main():
    tool, fixtures, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    total, failed = 0, []
    for name in sorted(os.listdir(fixtures)):
        if not name.endswith(".json"):
            continue
        cases = [c for c in json.load(open(os.path.join(fixtures, name)))["cases"] if runnable(c)]
        if not cases:  # overflow.json: shapes only torch's meta device can hold
            print(f"{name}: no runnable case")
            continue
        src = os.path.join(work, name.replace(".json", "_run.c"))
        with open(src, "w") as f:
            f.write(program(cases))
        run = subprocess.run([tool, "verify", "--timeout=600", src], capture_output=True,
                             text=True)
        last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-500:]
        print(f"{name}: {len(cases)} cases: {last}")
        total += len(cases)
        if run.returncode != 0:
            failed.append(name)
            print("\n".join(l for l in run.stdout.splitlines() if "MISMATCH" in l or
                            "predicted" in l or "diverged" in l)[:4000])
            print(run.stderr[-2000:])
    print(f"fixture-verify: {total} cases in {len(os.listdir(fixtures))} programs, "
          f"{len(failed)} programs disagree")
    sys.exit(1 if failed or total < 400 else 0)


if __name__ == "__main__":
    main()
