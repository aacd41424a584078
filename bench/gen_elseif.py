#!/usr/bin/env python3
"""Generate a C program whose main is one else-if chain of ARMS arms on a
condition the analyzer cannot decide (argc), for the deep-nesting benchmark
and the bad-input test.  Each arm sets an integer; with --tensors each arm
also makes and releases a tensor of its own size, so the arms reach
different peaks.  usage: gen_elseif.py [--tensors] ARMS > chain.c"""
import sys


def main():
    args = sys.argv[1:]
    tensors = "--tensors" in args
    args = [a for a in args if a != "--tensors"]
    if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
        sys.exit("usage: gen_elseif.py [--tensors] ARMS > chain.c")
    n = int(args[0])
    out = ["#include <tensorlint/tensor.h>", "int main(int argc, char **argv)", "{",
           "    (void)argv;", "    int k = 0;"]
    for i in range(n):
        out.append("    %sif (argc == %d) {" % ("else " if i else "", i))
        out.append("        k = %d;" % (i + 1))
        if tensors:
            out.append("        tl_tensor *a = tl_zeros(TL_SHAPE(%d, 4), TL_F32, TL_CPU);"
                       % (i % 64 + 1))
            out.append("        tl_release(a);")
        out.append("    }")
    out += ["    tl_tensor *t = tl_ones(TL_SHAPE(k + 1, 4), TL_F32, TL_CPU);",
            "    tl_release(t);", "    return 0;", "}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
