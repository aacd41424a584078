/* out-resized: out= calls whose out has the wrong shape. */
// CHECK-OPTIONS: --checks=-*,out-resized
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(8, 16), TL_F32, TL_CPU);
    tl_tensor *b = tl_randn(TL_SHAPE(16, 32), TL_F32, TL_CPU);
    tl_tensor *small = tl_empty(TL_SHAPE(8), TL_F32, TL_CPU);
    tl_matmul_out(small, a, b); // expected-warning {{[out-resized]}}
    for (int i = 0; i < 4; i++) {
        tl_tensor *flat = tl_empty(TL_SHAPE(256), TL_F32, TL_CPU);
        tl_matmul_out(flat, a, b); // expected-warning {{[out-resized]}}
        tl_release(flat);
    }
    /* near misses: the right shape, and a right-shaped transposed out */
    tl_tensor *out = tl_empty(TL_SHAPE(8, 32), TL_F32, TL_CPU);
    tl_tensor *tout = tl_empty(TL_SHAPE(32, 8), TL_F32, TL_CPU);
    tl_tensor *t = tl_t(tout);
    for (int i = 0; i < 4; i++) {
        tl_matmul_out(out, a, b);
        tl_matmul_out(t, a, b);
        tl_softmax_out(out, out, -1);
    }
    tl_release(t);
    tl_release(tout);
    tl_release(out);
    tl_release(small);
    tl_release(b);
    tl_release(a);
    return 0;
}
