/* redundant-copy: tl_clone / tl_contiguous whose result is only read while
 * the input stays alive and unchanged. */
// CHECK-OPTIONS: --checks=-*,redundant-copy,double-copy
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(256, 256), TL_F32, TL_CPU);
    tl_tensor *w = tl_randn(TL_SHAPE(256, 256), TL_F32, TL_CPU);
    tl_tensor *c = tl_clone(x); // expected-warning {{[redundant-copy]}}
    tl_tensor *y = tl_matmul(c, w); // expected-note {{the last read of the copy}}
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *ct = tl_contiguous(t); // expected-warning {{[redundant-copy]}}
    tl_tensor *y2 = tl_matmul(ct, w);
    tl_release(y2);
    tl_release(ct);
    tl_release(t);
    tl_release(y);
    tl_release(c);
    tl_release(w);
    tl_release(x);
}

/* Near misses: the copy is written; the input is released or changed; a
 * reader whose result follows the input's strides. */
static void near_miss(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(256, 256), TL_F32, TL_CPU);
    tl_tensor *c = tl_clone(x);
    tl_mul_scalar_(c, 2.0);
    tl_tensor *y = tl_relu(c);
    tl_tensor *x2 = tl_randn(TL_SHAPE(256, 256), TL_F32, TL_CPU);
    tl_tensor *c2 = tl_clone(x2);
    tl_release(x2);
    tl_tensor *y2 = tl_relu(c2);
    tl_tensor *c3 = tl_clone(x);
    tl_zero_(x);
    tl_tensor *y3 = tl_relu(c3);
    tl_tensor *t = tl_transpose(y, 0, 1);
    tl_tensor *ct = tl_contiguous(t);
    tl_tensor *e = tl_exp(ct);
    tl_release(e);
    tl_release(ct);
    tl_release(t);
    tl_release(y3);
    tl_release(c3);
    tl_release(y2);
    tl_release(c2);
    tl_release(y);
    tl_release(c);
    tl_release(x);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
