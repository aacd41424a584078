/* The checks on sizes known only at run time: an exported function's
 * parameters are symbols, and a rule whose condition holds for every value
 * of them fires, with its bytes as a formula ("4*n*d B"). */
// CHECK-OPTIONS: --checks=-*,hidden-copy,leaked-tensor,upcast
// bind: n d
// values: 2 2 | 2 3 | 512 256 | 512 257 | 100 5000
#include <tensorlint/tensor.h>

void copies(int n, int d)
{
    tl_tensor *x = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *f = tl_reshape(t, TL_SHAPE(n * d)); // expected-warning {{hidden-copy}}
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
    y = tl_exp(x); // expected-warning {{leaked-tensor}}
    tl_release(y);
    tl_release(x);
}

void widens(int n, int d)
{
    tl_tensor *h = tl_randn(TL_SHAPE(n, d), TL_F16, TL_CPU);
    tl_tensor *f = tl_to(h, TL_F32); // expected-warning {{upcast}}
    tl_release(f);
    tl_release(h);
}
