/* break and continue inside a loop over layers. */
#include <tensorlint/tensor.h>

#define N_LAYERS 8

int main(void) // expected-func: peak=160 end=0 moved=672 peak-line=16 calls=8
{
    tl_tensor *w = tl_randn(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: w bytes=64 freed=21
    tl_tensor *x = tl_ones(TL_SHAPE(2, 4), TL_F32, TL_CPU); // expected: x bytes=32 exec=1
    for (int l = 0; l < N_LAYERS; l++) {
        if (l % 2 == 1)
            continue;
        if (l == 6)
            break;
        tl_tensor *h = tl_matmul(x, w); // expected: h shape=(2, 4) bytes=32 moved=128 exec=3 freed=17
        tl_tensor *y = tl_relu(h); // expected: y bytes=32 moved=64 exec=3
        tl_release(h);
        tl_release(x);
        x = y;
    }
    tl_release(w);
    tl_release(x);
    return 0;
}
