/* materialized-broadcast: a copy that writes out stride-0 (expanded) dims. */
// CHECK-OPTIONS: --checks=-*,materialized-broadcast,hidden-copy
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *b = tl_randn(TL_SHAPE(1, 256), TL_F32, TL_CPU);
    tl_tensor *e = tl_expand(b, TL_SHAPE(1024, 256)); // expected-note {{come from tl_expand here}}
    tl_tensor *c = tl_contiguous(e); // expected-warning {{[materialized-broadcast]}}
    tl_tensor *k = tl_clone(e); // expected-warning {{[materialized-broadcast]}}
    tl_tensor *r = tl_reshape(e, TL_SHAPE(1024 * 256)); // expected-warning {{[materialized-broadcast]}}
    tl_release(r);
    tl_release(k);
    tl_release(c);
    tl_release(e);
    tl_release(b);
}

/* Near misses: compute ops read broadcasts for free; copies of dense tensors. */
static void near_miss(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 256), TL_F32, TL_CPU);
    tl_tensor *b = tl_randn(TL_SHAPE(1, 256), TL_F32, TL_CPU);
    tl_tensor *e = tl_expand(b, TL_SHAPE(1024, 256));
    tl_tensor *y = tl_add(x, e);
    tl_tensor *z = tl_add(x, b);
    tl_tensor *one = tl_expand(b, TL_SHAPE(1, 256));
    tl_tensor *c = tl_contiguous(one);
    tl_release(c);
    tl_release(one);
    tl_release(z);
    tl_release(y);
    tl_release(e);
    tl_release(b);
    tl_release(x);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
