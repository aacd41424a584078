#!/usr/bin/env python3
"""The llama2.c port's text against llama2.c's own, on small random models.

    llama2_tokens.py PROGRAM MAKE_MODEL FIXTURE            # compare
    llama2_tokens.py --bless RUN MAKE_MODEL FIXTURE        # record RUN's output

FIXTURE (JSON) names the models (make_model.py's sizes, seed, --unshared)
and the cases: a model, the options after the checkpoint (-z is added), and
the stdout that llama2.c's run.c printed for them.  Its outputs were
recorded with --bless from run.c built as its Makefile's runomp; the test
needs neither llama2.c nor PyTorch, only the port and the generator: the
models are written at test time (a few hundred KB), and a seed gives the
same files on every Python 3.  Every case must print run.c's text exactly
and exit 0.
"""
import json
import os
import subprocess
import sys
import tempfile


def make_models(make_model, models, work):
    paths = {}
    for name, m in models.items():
        ckpt, tok = os.path.join(work, name + ".bin"), os.path.join(work, name + ".tok")
        cmd = [sys.executable, make_model, ckpt, tok, "--config", *map(str, m["config"]),
               "--seed", str(m["seed"])] + (["--unshared"] if m.get("unshared") else [])
        subprocess.run(cmd, check=True)
        paths[name] = (ckpt, tok)
    return paths


def run(program, paths, case):
    ckpt, tok = paths[case["model"]]
    p = subprocess.run([program, ckpt, *case["args"], "-z", tok], capture_output=True,
                       env=dict(os.environ, OMP_NUM_THREADS="2"))
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def main():
    args = sys.argv[1:]
    bless = args[:1] == ["--bless"]
    if bless:
        args = args[1:]
    if len(args) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    program, make_model, fixture = args
    with open(fixture) as f:
        fx = json.load(f)
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        paths = make_models(make_model, fx["models"], work)
        for case in fx["cases"]:
            rc, out, err = run(program, paths, case)
            label = f'{case["model"]} {" ".join(case["args"])}'
            if bless:
                case["stdout"] = out
            elif rc != 0 or out != case["stdout"]:
                failed += 1
                print(f"FAIL {label}: exit {rc}\n--- run.c\n{case['stdout']}--- port\n{out}"
                      f"--- stderr\n{err}")
            else:
                print(f"ok   {label}: {len(out)} bytes, as run.c")
    if bless:
        with open(fixture, "w") as f:
            json.dump(fx, f, indent=1)
            f.write("\n")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
