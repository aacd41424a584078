/* The language server's client tests edit a copy of this file. */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CUDA
#endif

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(2, 4, 4096), TL_F32, DEVICE);
    tl_tensor *p = tl_permute(x, TL_DIMS(1, 0, 2));
    /* é */ tl_tensor *q = tl_reshape(p, TL_SHAPE(4, 8192));
    tl_tensor *z = tl_clone(tl_clone(q));
    tl_release(z);
    tl_release(q);
    tl_release(x);
    return 0;
}
