/* slice-pins-storage: a small view keeps a whole storage alive once the
 * larger handles are released. */
// CHECK-OPTIONS: --checks=-*,slice-pins-storage
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *big = tl_randn(TL_SHAPE(1024, 256), TL_F32, TL_CPU);
    tl_tensor *row = tl_narrow(big, 0, 0, 16); // expected-warning {{[slice-pins-storage]}}
    tl_release(big); // expected-note {{the last larger handle}}
    tl_tensor *y = tl_relu(row);
    tl_release(y);
    tl_release(row);
}

/* Near misses: a large view; the slice cloned before the release; the
 * view released at once. */
static void near_miss(void)
{
    tl_tensor *big = tl_randn(TL_SHAPE(1024, 256), TL_F32, TL_CPU);
    tl_tensor *half = tl_narrow(big, 0, 0, 512);
    tl_release(big);
    tl_tensor *y = tl_relu(half);
    tl_release(y);
    tl_release(half);
    tl_tensor *big2 = tl_randn(TL_SHAPE(1024, 256), TL_F32, TL_CPU);
    tl_tensor *s = tl_narrow(big2, 0, 0, 16);
    tl_tensor *small = tl_clone(s);
    tl_release(s);
    tl_release(big2);
    tl_tensor *z = tl_relu(small);
    tl_release(z);
    tl_release(small);
    tl_tensor *big3 = tl_randn(TL_SHAPE(1024, 256), TL_F32, TL_CPU);
    tl_tensor *r3 = tl_narrow(big3, 0, 0, 16);
    tl_release(big3);
    tl_release(r3);
}

int main(void)
{
    fires();
    near_miss();
    return 0;
}
