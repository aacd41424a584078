/* Clean: an MLP whose layers are functions; every intermediate is released
 * as soon as the next one exists. */
#include <tensorlint/tensor.h>

#define BATCH 64
#define WIDTH 1024
#define LAYERS 12

static tl_tensor *layer(tl_tensor *x, tl_tensor *w, tl_tensor *bias)
{
    tl_tensor *h = tl_matmul(x, w);
    tl_tensor *b = tl_add(h, bias);
    tl_release(h);
    tl_tensor *y = tl_relu(b);
    tl_release(b);
    return y;
}

int main(void)
{
    tl_tensor *w = tl_randn(TL_SHAPE(WIDTH, WIDTH), TL_F32, TL_CPU);
    tl_tensor *bias = tl_zeros(TL_SHAPE(WIDTH), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(BATCH, WIDTH), TL_F32, TL_CPU);
    for (int i = 0; i < LAYERS; i++) {
        tl_tensor *y = layer(x, w, bias);
        tl_release(x);
        x = y;
    }
    tl_tensor *probs = tl_softmax(x, -1);
    tl_release(x);
    tl_release(probs);
    tl_release(bias);
    tl_release(w);
    return 0;
}
