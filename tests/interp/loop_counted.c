/* A counted loop: a new value per iteration, the previous one released. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=640 end=0 moved=4368 peak-line=10 calls=13
{
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x bytes=128 moved=128 exec=1
    tl_tensor *w = tl_randn(TL_SHAPE(8, 8), TL_F32, TL_CPU); // expected: w bytes=256 freed=18
    for (int i = 0; i < 5; i++) {
        tl_tensor *h = tl_matmul(x, w); // expected: h shape=(4, 8) strides=(8, 1) kind=new bytes=128 moved=512 exec=5 freed=11
        tl_tensor *y = tl_relu(h); // expected: y shape=(4, 8) kind=new bytes=128 moved=256 exec=5
        tl_release(h);
        tl_release(x);
        x = y;
    }
    tl_tensor *s = tl_sum(x, 1, false); // expected: s shape=(4,) strides=(1,) dtype=f32 bytes=16 moved=144 freed=16
    tl_release(s);
    tl_release(x);
    tl_release(w);
    return 0;
}
