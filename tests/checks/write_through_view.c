/* write-through-view: an in-place update through a view changes a tensor read later. */
// CHECK-OPTIONS: --checks=-*,write-through-view
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *batch = tl_randn(TL_SHAPE(8, 64), TL_F32, TL_CPU);
    for (int i = 0; i < 8; i++) {
        tl_tensor *row = tl_select(batch, 0, i); // expected-note {{makes a view}}
        tl_tensor *m = tl_mean(row, 0, true);
        tl_sub_(row, m); // expected-warning {{write-through-view}}
        tl_release(m);
        tl_release(row);
    }
    tl_tensor *stats = tl_sum(batch, 0, false); // expected-note {{read here}}
    tl_release(stats);
    tl_release(batch);
}

/* Near misses: a copy_ into a slot of a cache (a write meant for the base);
 * an update whose base is never read again; an update of a clone. */
static void near_miss(void)
{
    tl_tensor *cache = tl_zeros(TL_SHAPE(8, 64), TL_F32, TL_CPU);
    tl_tensor *k = tl_randn(TL_SHAPE(1, 64), TL_F32, TL_CPU);
    tl_tensor *slot = tl_narrow(cache, 0, 2, 1);
    tl_copy_(slot, k);
    tl_tensor *s = tl_sum(cache, 0, false);
    tl_tensor *batch = tl_randn(TL_SHAPE(8, 64), TL_F32, TL_CPU);
    tl_tensor *row = tl_select(batch, 0, 0);
    tl_mul_scalar_(row, 2.0);
    tl_tensor *r = tl_relu(row);
    tl_tensor *v = tl_select(batch, 0, 1);
    tl_tensor *own = tl_clone(v);
    tl_mul_scalar_(own, 0.5);
    tl_release(own);
    tl_release(v);
    tl_release(r);
    tl_release(row);
    tl_release(batch);
    tl_release(s);
    tl_release(slot);
    tl_release(k);
    tl_release(cache);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
