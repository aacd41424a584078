/* double-copy: a copy of a fresh copy that nothing else reads. */
// CHECK-OPTIONS: --checks=-*,double-copy,redundant-copy,leaked-tensor,cast-roundtrip
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(256, 256), TL_F16, TL_CPU);
    tl_tensor *c = tl_clone(x); // expected-note {{the first pass}}
    tl_tensor *d = tl_to(c, TL_F32); // expected-warning {{[double-copy]}}
    tl_tensor *s = tl_sum(d, 0, false);
    tl_tensor *d2 = tl_to(tl_clone(x), TL_F32); // expected-warning {{[double-copy]}} expected-warning {{[leaked-tensor]}}
    tl_release(d2);
    tl_release(s);
    tl_release(d);
    tl_release(c);
    tl_release(x);
}

/* Near misses: the first copy is read elsewhere; the second needs the first's layout. */
static void near_miss(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(256, 256), TL_F16, TL_CPU);
    tl_tensor *c = tl_clone(x); // expected-warning {{[redundant-copy]}}
    tl_tensor *d = tl_to(c, TL_F32);
    tl_tensor *y = tl_relu(c);
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *ct = tl_contiguous(t);
    tl_tensor *dt = tl_to(ct, TL_F32);
    tl_release(dt);
    tl_release(ct);
    tl_release(t);
    tl_release(y);
    tl_release(d);
    tl_release(c);
    tl_release(x);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
