#!/usr/bin/env python3
"""Generate a C program for the analyzer benchmark: FUNCS functions of
CALLS_PER_FUNC API calls each (views, copies, compute, releases), all
straight-line, every function a root.  usage: gen_program.py FUNCS CALLS_PER_FUNC > prog.c"""
import sys


def function(k, calls):
    lines = [f"void layer_{k}(void)", "{",
             "    tl_tensor *x = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CPU);",
             "    tl_tensor *w = tl_randn(TL_SHAPE(128, 128), TL_F32, TL_CPU);"]
    n = 2
    step = 0
    while n < calls:
        body = [
            f"    tl_tensor *a{step} = tl_matmul(x, w);",
            f"    tl_tensor *b{step} = tl_transpose(a{step}, 0, 1);",
            f"    tl_tensor *c{step} = tl_contiguous(b{step});",
            f"    tl_tensor *d{step} = tl_relu(c{step});",
            f"    tl_tensor *e{step} = tl_t(d{step});",
            f"    tl_release(x);",
            f"    x = tl_add(e{step}, a{step});",
            f"    tl_release(a{step}); tl_release(b{step}); tl_release(c{step});",
            f"    tl_release(d{step}); tl_release(e{step});",
        ]
        lines += body
        n += 6
        step += 1
    lines += ["    tl_release(x);", "    tl_release(w);", "}", ""]
    return lines


def main():
    funcs, calls = int(sys.argv[1]), int(sys.argv[2])
    out = ["#include <tensorlint/tensor.h>", ""]
    for k in range(funcs):
        out += function(k, calls)
    print("\n".join(out))


if __name__ == "__main__":
    main()
