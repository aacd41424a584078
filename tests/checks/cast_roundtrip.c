/* cast-roundtrip: a cast there and back with nothing needing the other dtype. */
// CHECK-OPTIONS: --checks=-*,cast-roundtrip,double-copy,leaked-tensor
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *h = tl_randn(TL_SHAPE(64, 64), TL_F16, TL_CPU);
    tl_tensor *f = tl_to(h, TL_F32); // expected-note {{the first cast}}
    tl_tensor *g = tl_to(f, TL_F16); // expected-warning {{[cast-roundtrip]}}
    tl_tensor *g2 = tl_to(tl_to(h, TL_F32), TL_F16); // expected-warning {{[cast-roundtrip]}} expected-warning {{[leaked-tensor]}}
    tl_release(g2);
    tl_release(g);
    tl_release(f);
    tl_release(h);
}

/* Near misses: a lossy first cast (rounding on purpose); an op in between
 * that needs the other dtype. */
static void near_miss(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(64, 64), TL_F32, TL_CPU);
    tl_tensor *r = tl_to(x, TL_F16);
    tl_tensor *back = tl_to(r, TL_F32);
    tl_tensor *h = tl_randn(TL_SHAPE(64, 64), TL_F16, TL_CPU);
    tl_tensor *f = tl_to(h, TL_F32);
    tl_tensor *e = tl_exp(f);
    tl_tensor *g = tl_to(e, TL_F16);
    tl_release(g);
    tl_release(e);
    tl_release(f);
    tl_release(h);
    tl_release(back);
    tl_release(r);
    tl_release(x);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
