/*
 * Worksheet stretch: Block 1 rewritten so that the only full copy is one
 * a reviewer accepts.  Slice before copying, keep f16 (downstream takes
 * it), and drop x once its last reader is done.
 *
 * Allocations, one clause each:
 *   x  128 MiB: the input itself.
 *   f   64 MiB: the one copy, a dense row-major (16*4096, 512) f16 block for
 *               the next kernel; half of Block 1's b, a quarter of its d.
 * Everything else is a view.  Peak 192 MiB instead of 640 MiB.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CUDA
#endif

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(16, 1024, 4096), TL_F16, DEVICE);
    tl_tensor *a = tl_transpose(x, 1, 2);
    tl_tensor *s = tl_slice(a, 2, 0, 512, 1);
    tl_tensor *f = tl_contiguous(s);
    tl_release(s);
    tl_release(a);
    tl_release(x);
    tl_tensor *g = tl_reshape(f, TL_SHAPE(16 * 4096, 512));
    tl_release(f);
    tl_release(g);
    return 0;
}
