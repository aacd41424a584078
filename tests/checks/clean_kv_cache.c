/* Clean: a key cache filled slot by slot with tl_copy_ (a write meant for
 * the cache), then read as a whole. */
#include <tensorlint/tensor.h>

#define STEPS 16
#define DIM 256

int main(void)
{
    tl_tensor *cache = tl_zeros(TL_SHAPE(STEPS, DIM), TL_F32, TL_CPU);
    tl_tensor *w = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(1, DIM), TL_F32, TL_CPU);
    for (int t = 0; t < STEPS; t++) {
        tl_tensor *k = tl_matmul(x, w);
        tl_tensor *slot = tl_narrow(cache, 0, t, 1);
        tl_copy_(slot, k);
        tl_release(slot);
        tl_release(x);
        x = k;
    }
    tl_tensor *keys = tl_t(cache);
    tl_tensor *scores = tl_matmul(x, keys);
    tl_release(keys);
    tl_release(scores);
    tl_release(x);
    tl_release(w);
    tl_release(cache);
    return 0;
}
