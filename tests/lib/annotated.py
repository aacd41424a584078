#!/usr/bin/env python3
"""The runner of the annotated C tests (tests/README.md): every folder's
ctest registration runs it, every file is read in one dialect
(tests/lib/dialect.py); what runs on a file is the folder's
(tests/lib/folder_KIND.py).

usage: annotated.py KIND TENSORLINT ARGS...
  checks     [--expect FILE] [--bless] FILE.c...   `check`'s diagnostics (tests/checks)
  interp     FILE.c...                         the report's facts, verify and the run's
                                               trace (tests/interp)
  symbolic   [--shard=K/N] [FILE.c...]          formulas at values = bound report = run
                                               (tests/symbolic, samples/checkpoint)
  multifile  PROJECT_DIR                        a folder of units as one program through -p
                                               (tests/multifile)
  baseline   SARIF_SCHEMA PAIR_DIR              `check --baseline` on pairs of programs
                                               (tests/baseline)
"""
import importlib
import os
import sys

KINDS = ("checks", "interp", "symbolic", "multifile", "baseline")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    if len(argv) < 3 or argv[1] not in KINDS:
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    folder = importlib.import_module("folder_" + argv[1])
    return folder.main([f"{argv[0]} {argv[1]}"] + argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
