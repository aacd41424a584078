/*
 * A 40-layer MLP stack: each layer allocates its output, then the input is
 * released, so at most two activations (plus the weights) are live.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif
#define LAYERS 40
#define BATCH 64
#define WIDTH 256

int main(void)
{
    tl_tensor *w = tl_randn(TL_SHAPE(WIDTH, WIDTH), TL_F32, DEVICE);
    tl_tensor *x = tl_randn(TL_SHAPE(BATCH, WIDTH), TL_F32, DEVICE);
    for (int i = 0; i < LAYERS; i++) {
        tl_tensor *h = tl_matmul(x, w);
        tl_tensor *a = tl_relu(h);
        tl_release(h);
        tl_release(x);
        x = a;
    }
    tl_release(x);
    tl_release(w);
    return 0;
}
