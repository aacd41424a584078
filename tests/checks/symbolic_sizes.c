/* The checks on sizes known only at run time: an exported function's
 * parameters are symbols, and a rule whose condition holds for every value
 * of them fires, with its bytes as a formula ("4*n*d B"). */
// CHECK-OPTIONS: --checks=-*,hidden-copy,leaked-tensor,upcast,mask-rebuilt-in-loop
// bind: n d
// values: 2 2 | 2 3 | 512 256 | 512 257 | 100 5000
#include <tensorlint/tensor.h>

void copies(int n, int d)
{
    tl_tensor *x = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *f = tl_reshape(t, TL_SHAPE(n * d)); // expected-warning {{[hidden-copy]}}
    tl_tensor *v = tl_reshape(x, TL_SHAPE(d, n));  /* contiguous: a view */
    tl_release(v);
    tl_release(f);
    tl_release(t);
    tl_release(x);
}

void leaks(int n, int d)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *y = tl_relu(x);
    y = tl_exp(x); // expected-warning {{[leaked-tensor]}}
    tl_release(y);
    tl_release(x);
}

void leaks_in_loop(int n, int d)
{
    for (int i = 0; i < 3; i++) {
        tl_tensor *t = tl_zeros(TL_SHAPE(n, d), TL_F32, TL_CPU);
        tl_tensor *u = tl_exp(tl_relu(t)); // expected-warning {{[leaked-tensor]}} {{keeps its own 4*n*d B storage alive (3 times, 12*n*d B in all)}}
        tl_release(u);
    } // expected-warning {{(3 times here, 12*n*d B in all) [leaked-tensor]}}
}

/* Three copies of a formula's bytes, three masks of n*n B; then a loop
 * run n times, whose iterations the analysis summarises: how many there
 * are is not known. */
void copies_in_loops(int n, int d)
{
    tl_tensor *ones = tl_ones(TL_SHAPE(16, 16), TL_BOOL, TL_CPU);
    tl_tensor *square = tl_ones(TL_SHAPE(n, n), TL_BOOL, TL_CPU);
    for (int i = 0; i < 3; i++) {
        tl_tensor *x = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU);
        tl_tensor *t = tl_transpose(x, 0, 1);
        tl_tensor *f = tl_reshape(t, TL_SHAPE(n * d)); // expected-warning {{(per execution; runs 3 times, 12*n*d B in all) (when d > 1 and n > 1) [hidden-copy]}}
        tl_tensor *causal = tl_triu(square, 1); // expected-warning {{the same (n, n) bool tensor (n*n B), in each of its 3 executions from operands that do not change: build it once before the loop (saves 2*n*n B of allocation and 4*n*n B moved) [mask-rebuilt-in-loop]}}
        tl_release(causal);
        tl_release(f);
        tl_release(t);
        tl_release(x);
    }
    for (int i = 0; i < n; i++) {
        tl_tensor *x = tl_randn(TL_SHAPE(d, 64), TL_F32, TL_CPU);
        tl_tensor *t = tl_transpose(x, 0, 1);
        tl_tensor *f = tl_reshape(t, TL_SHAPE(64 * d)); // expected-warning {{(per execution; runs n times, 256*n*d B in all) (when d > 1) [hidden-copy]}}
        tl_tensor *future = tl_triu(ones, 1); // expected-warning {{in each of its n executions from operands that do not change: build it once before the loop (saves 256*n - 256 B of allocation and 512*n - 512 B moved) [mask-rebuilt-in-loop]}}
        tl_release(future);
        tl_release(f);
        tl_release(t);
        tl_release(x);
    }
    tl_release(square);
    tl_release(ones);
}

void widens(int n, int d)
{
    tl_tensor *h = tl_randn(TL_SHAPE(n, d), TL_F16, TL_CPU);
    tl_tensor *f = tl_to(h, TL_F32); // expected-warning {{[upcast]}}
    tl_release(f);
    tl_release(h);
}
