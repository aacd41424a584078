/*
 * Worksheet Block 1 with x dropped right after b is made: the answer key's
 * "(If you dropped x after b, 512 MiB.)"  The transposed view a is the
 * last handle into x's storage besides x itself, so both go.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CUDA
#endif

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(16, 1024, 4096), TL_F16, DEVICE);
    tl_tensor *a = tl_transpose(x, 1, 2);
    tl_tensor *b = tl_contiguous(a);
    tl_release(a);
    tl_release(x);
    tl_tensor *c = tl_reshape(b, TL_SHAPE(16 * 4096, 1024));
    tl_tensor *d = tl_to(c, TL_F32);
    tl_tensor *e = tl_slice(d, 1, 0, 512, 1);
    tl_tensor *f = tl_clone(e);
    (void)f;
    return 0;
}
