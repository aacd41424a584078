/* Clean: a half-precision conv net on CUDA, converted to channels-last once
 * at the input, scalars kept on the host. */
#include <tensorlint/tensor.h>

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
    tl_tensor *w1 = tl_randn(TL_SHAPE(64, 32, 3, 3), TL_F16, TL_CUDA);
    tl_tensor *w2 = tl_randn(TL_SHAPE(64, 64, 3, 3), TL_F16, TL_CUDA);
    tl_tensor *raw = tl_randn(TL_SHAPE(16, 32, 64, 64), TL_F16, TL_CUDA);
    tl_tensor *x = tl_to_format(raw, TL_CHANNELS_LAST);
    tl_release(raw);
    tl_tensor *y = block(x, w1, w2);
    tl_release(x);
    tl_tensor *scaled = tl_mul_scalar(y, 0.5);
    tl_release(y);
    tl_tensor *pooled = tl_mean(scaled, 3, false);
    tl_release(scaled);
    tl_release(pooled);
    tl_release(w2);
    tl_release(w1);
    return 0;
}
