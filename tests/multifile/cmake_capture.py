#!/usr/bin/env python3
"""The captures as a build step, end to end (docs/ci.md, "Capturing in the
build"): a scratch CMake project of samples/multifile's four units uses
cmake/TensorlintCapture.cmake; building its capture target with -j2 captures
every unit, a second build does nothing, an edit of one unit captures that
unit again and an edit of the header every unit includes captures all; the
report -p of the captured build reads every unit and parses none, and is
the report of the same database parsed.

usage: cmake_capture.py TENSORLINT SOURCE_ROOT CMAKE NINJA
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise RuntimeError("%s exited %d:\n%s%s" % (" ".join(cmd), p.returncode, p.stdout,
                                                    p.stderr))
    return p


def captured(ninja, build):
    """The units the build captured (each step's comment names one)."""
    out = run([ninja, "-C", build, "-j2", "net_tensorlint_capture"]).stdout
    return sorted(os.path.basename(m) for m in re.findall(r'tensorlint: capturing (\S+)', out))


def report(tool, build):
    env = dict(os.environ, TENSORLINT_CAPTURE_STATS="1")
    p = subprocess.run([tool, "report", "-p", build], capture_output=True, text=True, env=env)
    m = re.search(r'captures: (\d+) units? read, (\d+) parsed', p.stderr)
    return p.returncode, p.stdout, (int(m.group(1)), int(m.group(2))) if m else None


def main():
    tool, root, cmake, ninja = (os.path.abspath(a) if i < 2 else a
                                for i, a in enumerate(sys.argv[1:5]))
    tmp = tempfile.mkdtemp(prefix="tl-cmake-capture-")
    errs = []
    try:
        src = os.path.join(tmp, "src")
        shutil.copytree(os.path.join(root, "samples", "multifile", "src"), src)
        units = ["main.c", "model.c", "layers.c", "weights.c"]
        with open(os.path.join(tmp, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.16)\nproject(capture_e2e C)\n"
                    "list(APPEND CMAKE_MODULE_PATH \"%s/cmake\")\ninclude(TensorlintCapture)\n"
                    "set(CMAKE_EXPORT_COMPILE_COMMANDS ON)\n"
                    "add_executable(net %s)\n"
                    "target_include_directories(net PRIVATE \"%s/runtime/include\")\n"
                    "tensorlint_capture(net TENSORLINT \"%s\")\n" %
                    (root, " ".join("src/" + u for u in units), root, tool))
        build = os.path.join(tmp, "build")
        run([cmake, "-S", tmp, "-B", build, "-G", "Ninja", "-DCMAKE_MAKE_PROGRAM=" + ninja])
        steps = [("first build", None, sorted(units)), ("second build", None, []),
                 ("edit of model.c", "model.c", ["model.c"]),
                 ("edit of net.h", "net.h", sorted(units))]
        for what, edit, want in steps:
            if edit:
                with open(os.path.join(src, edit), "a") as f:
                    f.write("/* edited */\n")
            got = captured(ninja, build)
            if got != want:
                errs.append("%s captured %s, expected %s" % (what, got, want))
            rc, out, n = report(tool, build)
            if n != (len(units), 0):
                errs.append("after the %s, report -p read and parsed %s units" % (what, n))
        parsed = os.path.join(tmp, "parsed")
        os.mkdir(parsed)
        shutil.copy(os.path.join(build, "compile_commands.json"), parsed)
        prc, pout, n = report(tool, parsed)
        if (prc, pout) != (rc, out) or n != (0, len(units)):
            errs.append("the report from the build's captures differs from the report parsed")
    except RuntimeError as e:
        errs.append(str(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if errs:
        print("FAIL: " + "\n".join(errs))
        return 1
    print("ok: %d steps of the build, captures read by report -p" % len(steps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
