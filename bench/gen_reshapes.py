#!/usr/bin/env python3
"""A program of N chained reshapes over sizes read at run time: (B, S, d)
viewed as (B*S, d), then as (B, S*d), then back, N times, with a
contiguous() copy every tenth step, so every size and stride is a formula
built from the one before.  usage: gen_reshapes.py N"""
import sys

n = int(sys.argv[1])
print("#include <stdlib.h>\n#include <tensorlint/tensor.h>\n")
print("int main(int argc, char **argv)\n{")
print("    if (argc < 4)\n        return 2;")
print("    int B = atoi(argv[1]), S = atoi(argv[2]), d = atoi(argv[3]);")
print("    tl_tensor *x = tl_randn(TL_SHAPE(B, S, d), TL_F32, TL_CPU);")
shapes = ["TL_SHAPE(B * S, d)", "TL_SHAPE(B, S * d)", "TL_SHAPE(B, S, d)"]
for k in range(n):
    print(f"    tl_tensor *y{k} = tl_reshape(x, {shapes[k % 3]});")
    if k % 10 == 9:
        print(f"    tl_tensor *t{k} = tl_transpose(y{k}, 0, 1);")
        print(f"    tl_tensor *c{k} = tl_contiguous(t{k});")
        print(f"    tl_release(c{k});\n    tl_release(t{k});")
    print(f"    tl_release(x);\n    x = y{k};")
print("    tl_release(x);\n    return 0;\n}")
