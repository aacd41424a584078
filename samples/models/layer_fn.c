/*
 * A layer written as a function and called from a loop: the analyzer
 * follows each call with the caller's arguments, so the function's rows
 * show the shapes of the first call and the totals count every call.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif

static tl_tensor *layer(tl_tensor *x, tl_tensor *w)
{
    tl_tensor *h = tl_matmul(x, w);
    tl_tensor *y = tl_relu(h);
    tl_release(h);
    return y;
}

int main(void)
{
    tl_tensor *w = tl_randn(TL_SHAPE(128, 128), TL_F32, DEVICE);
    tl_tensor *x = tl_randn(TL_SHAPE(32, 128), TL_F32, DEVICE);
    for (int i = 0; i < 8; i++) {
        tl_tensor *y = layer(x, w);
        tl_release(x);
        x = y;
    }
    tl_release(x);
    tl_release(w);
    return 0;
}
