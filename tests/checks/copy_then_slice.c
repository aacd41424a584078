/* copy-then-slice: a full copy of which only a slice is ever read. */
// CHECK-OPTIONS: --checks=-*,copy-then-slice,redundant-copy
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 512), TL_F32, TL_CPU);
    tl_tensor *h = tl_to(x, TL_F16); // expected-warning {{[copy-then-slice]}}
    tl_tensor *s = tl_narrow(h, 0, 0, 256); // expected-note {{only this part of the copy is read}}
    tl_tensor *y = tl_relu(s);
    tl_tensor *c = tl_clone(x); // expected-warning {{[copy-then-slice]}} expected-warning {{[redundant-copy]}}
    tl_tensor *row = tl_select(c, 0, 3);
    tl_tensor *z = tl_exp(row);
    tl_release(z);
    tl_release(row);
    tl_release(c);
    tl_release(y);
    tl_release(s);
    tl_release(h);
    tl_release(x);
}

/* Near misses: the full copy is read too; the slice is taken first; every row is read. */
static void near_miss(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 512), TL_F32, TL_CPU);
    tl_tensor *h = tl_to(x, TL_F16);
    tl_tensor *s = tl_narrow(h, 0, 0, 256);
    tl_tensor *y = tl_relu(s);
    tl_tensor *all = tl_relu(h);
    tl_tensor *first = tl_narrow(x, 0, 0, 256);
    tl_tensor *h2 = tl_to(first, TL_F16);
    tl_tensor *y2 = tl_relu(h2);
    tl_tensor *h3 = tl_to(x, TL_F16);
    for (int i = 0; i < 1024; i++) {
        tl_tensor *row = tl_select(h3, 0, i);
        tl_tensor *r = tl_relu(row);
        tl_release(r);
        tl_release(row);
    }
    tl_release(h3);
    tl_release(y2);
    tl_release(h2);
    tl_release(first);
    tl_release(all);
    tl_release(y);
    tl_release(s);
    tl_release(h);
    tl_release(x);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
