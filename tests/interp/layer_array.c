/* Per-layer arrays of handles: tl_tensor *wq[N_LAYERS], filled and freed in loops. */
#include <tensorlint/tensor.h>

#define N_LAYERS 3

int main(void) // expected-func: peak=256 end=0 moved=608 peak-line=13 calls=7
{
    tl_tensor *wq[N_LAYERS];
    for (int l = 0; l < N_LAYERS; l++)
        wq[l] = tl_randn(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: op=randn shape=(4, 4) bytes=64 exec=3 freed=18
    tl_tensor *x = tl_ones(TL_SHAPE(2, 4), TL_F32, TL_CPU); // expected: x bytes=32 freed=14
    for (int l = 0; l < N_LAYERS; l++) {
        tl_tensor *y = tl_matmul(x, wq[l]); // expected: y shape=(2, 4) strides=(4, 1) kind=new bytes=32 moved=128 exec=3 freed=14
        tl_release(x);
        x = y;
    }
    for (int l = 0; l < N_LAYERS; l++)
        tl_release(wq[l]);
    tl_release(x);
    return 0;
}
