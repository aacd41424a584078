/* upcast: a float tensor cast to a wider float, at least 1 MiB (the default). */
// CHECK-OPTIONS: --checks=-*,upcast
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *h = tl_randn(TL_SHAPE(1024, 1024), TL_F16, TL_CPU);
    tl_tensor *f = tl_to(h, TL_F32); // expected-warning {{[upcast]}}
    tl_tensor *s = tl_sum(f, 0, false); // expected-note {{it could take the f16 tensor}}
    tl_tensor *d = tl_randn(TL_SHAPE(512, 512), TL_F32, TL_CPU);
    tl_tensor *d64 = tl_to(d, TL_F64); // expected-warning {{[upcast]}}
    tl_release(d64);
    tl_release(d);
    tl_release(s);
    tl_release(f);
    tl_release(h);
}

/* Near misses: under the threshold, a downcast, same-size casts, integers. */
static void near_miss(void)
{
    tl_tensor *small = tl_randn(TL_SHAPE(256, 256), TL_F16, TL_CPU);
    tl_tensor *small32 = tl_to(small, TL_F32);
    tl_tensor *big = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *down = tl_to(big, TL_F16);
    tl_tensor *bf = tl_randn(TL_SHAPE(1024, 1024), TL_BF16, TL_CPU);
    tl_tensor *same = tl_to(bf, TL_F16);
    tl_tensor *ids = tl_randint(0, 100, TL_SHAPE(1024, 1024), TL_CPU);
    tl_tensor *fids = tl_to(ids, TL_F32);
    tl_tensor *alias = tl_to(big, TL_F32);
    tl_release(alias);
    tl_release(fids);
    tl_release(ids);
    tl_release(same);
    tl_release(bf);
    tl_release(down);
    tl_release(big);
    tl_release(small32);
    tl_release(small);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
