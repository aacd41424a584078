/*
 * A small conv net in both layouts: the same two convolutions on an NCHW
 * input and on its channels-last copy.  The channels-last output follows
 * the input's layout, as in PyTorch.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif

static tl_tensor *block(tl_tensor *x, tl_tensor *w1, tl_tensor *w2)
{
    tl_tensor *h = tl_conv2d(x, w1, 1, 1);
    tl_tensor *a = tl_relu(h);
    tl_release(h);
    tl_tensor *y = tl_conv2d(a, w2, 2, 1);
    tl_release(a);
    return y;
}

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(8, 16, 32, 32), TL_F32, DEVICE);
    tl_tensor *w1 = tl_randn(TL_SHAPE(32, 16, 3, 3), TL_F32, DEVICE);
    tl_tensor *w2 = tl_randn(TL_SHAPE(32, 32, 3, 3), TL_F32, DEVICE);
    tl_tensor *y_nchw = block(x, w1, w2);
    tl_tensor *x_nhwc = tl_to_format(x, TL_CHANNELS_LAST);
    tl_tensor *y_nhwc = block(x_nhwc, w1, w2);
    tl_release(x);
    tl_release(w1);
    tl_release(w2);
    tl_release(y_nchw);
    tl_release(x_nhwc);
    tl_release(y_nhwc);
    return 0;
}
