/* channels-first-conv: a half-precision CUDA conv fed NCHW. */
// CHECK-OPTIONS: --checks=-*,channels-first-conv
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(8, 16, 32, 32), TL_F16, TL_CUDA); // expected-note {{convert once at the input}}
    tl_tensor *w = tl_randn(TL_SHAPE(32, 16, 3, 3), TL_F16, TL_CUDA);
    tl_tensor *y = tl_conv2d(x, w, 1, 1); // expected-warning {{[channels-first-conv]}}
    /* near misses: channels-last input; f32 on CUDA; f16 on the CPU */
    tl_tensor *x_cl = tl_to_format(x, TL_CHANNELS_LAST);
    tl_tensor *y_cl = tl_conv2d(x_cl, w, 1, 1);
    tl_tensor *x32 = tl_randn(TL_SHAPE(8, 16, 32, 32), TL_F32, TL_CUDA);
    tl_tensor *w32 = tl_randn(TL_SHAPE(32, 16, 3, 3), TL_F32, TL_CUDA);
    tl_tensor *y32 = tl_conv2d(x32, w32, 1, 1);
    tl_tensor *xc = tl_randn(TL_SHAPE(8, 16, 32, 32), TL_F16, TL_CPU);
    tl_tensor *wc = tl_randn(TL_SHAPE(32, 16, 3, 3), TL_F16, TL_CPU);
    tl_tensor *yc = tl_conv2d(xc, wc, 1, 1);
    tl_release(yc);
    tl_release(wc);
    tl_release(xc);
    tl_release(y32);
    tl_release(w32);
    tl_release(x32);
    tl_release(y_cl);
    tl_release(x_cl);
    tl_release(y);
    tl_release(w);
    tl_release(x);
    return 0;
}
