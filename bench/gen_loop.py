#!/usr/bin/env python3
"""Generate a program whose loop executes about N API calls (5 per
iteration): the interpreter's cost per executed call, with parsing fixed.
usage: gen_loop.py N > prog.c"""
import sys

n = int(sys.argv[1])
print(f"""#include <tensorlint/tensor.h>

int main(void)
{{
    tl_tensor *w = tl_randn(TL_SHAPE(128, 128), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CPU);
    for (int i = 0; i < {max(1, n // 5)}; i++) {{
        tl_tensor *h = tl_matmul(x, w);
        tl_tensor *t = tl_transpose(h, 0, 1);
        tl_tensor *c = tl_contiguous(t);
        tl_tensor *y = tl_t(c);
        tl_release(h);
        tl_release(t);
        tl_release(c);
        tl_release(x);
        x = y;
    }}
    tl_release(x);
    tl_release(w);
    return 0;
}}""")
