/* hidden-copy: tl_reshape / tl_flatten that copy because the strides do not merge. */
// CHECK-OPTIONS: --checks=-*,hidden-copy,materialized-broadcast
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CPU);
    tl_tensor *t = tl_transpose(x, 0, 1); // expected-note {{come from tl_transpose here}}
    tl_tensor *f = tl_reshape(t, TL_SHAPE(8192)); // expected-warning {{[hidden-copy]}}
    tl_tensor *g = tl_flatten(t, 0, 1); // expected-warning {{[hidden-copy]}}
    tl_tensor *s = tl_slice(x, 1, 0, 64, 1);
    tl_tensor *h = tl_reshape(s, TL_SHAPE(64 * 64)); // expected-warning {{[hidden-copy]}}
    tl_release(h);
    tl_release(s);
    tl_release(g);
    tl_release(f);
    tl_release(t);
    tl_release(x);
}

/* Near misses: contiguous inputs, splits that stay views, an explicit copy. */
static void near_miss(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CPU);
    tl_tensor *f = tl_reshape(x, TL_SHAPE(8192));
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *split = tl_reshape(t, TL_SHAPE(2, 64, 64));
    tl_tensor *rows = tl_narrow(x, 0, 0, 32);
    tl_tensor *flat_rows = tl_flatten(rows, 0, 1);
    tl_tensor *c = tl_contiguous(t);
    tl_tensor *v = tl_view(c, TL_SHAPE(8192));
    tl_release(v);
    tl_release(c);
    tl_release(flat_rows);
    tl_release(rows);
    tl_release(split);
    tl_release(t);
    tl_release(f);
    tl_release(x);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
