// bad-input: report {}
// exit: 1
// message: tl_as_strided: Storage size calculation overflowed with sizes=\[2, 2\] and strides=\[4611686018427387904, 4611686018427387904\] \[byte-overflow\]
// message: tl_conv2d: conv2d: the input padded by 4611686018427387904 does not fit in 64 bits \[byte-overflow\]
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(2, 2), TL_F32, TL_CPU);
    tl_tensor *a = tl_as_strided(x, TL_SHAPE(2, 2), TL_SHAPE(1LL << 62, 1LL << 62), 0);
    tl_tensor *img = tl_zeros(TL_SHAPE(1, 1, 4, 4), TL_F32, TL_CPU);
    tl_tensor *w = tl_zeros(TL_SHAPE(1, 1, 1, 1), TL_F32, TL_CPU);
    tl_tensor *y = tl_conv2d(img, w, 1, 1LL << 62);
    tl_release(x);
    tl_release(img);
    tl_release(w);
    return 0;
}
