/*
 * Worksheet Block 2, "the it's-just-a-view PR":
 *
 *   w = torch.randn(4096, 4096, dtype=torch.bfloat16, device="cuda")  # weights
 *   h = torch.randn(8, 4096, dtype=torch.bfloat16, device="cuda")
 *   y = h @ w.t()
 *   z = y.view(2, 4, 4096)
 *   p = z.permute(1, 0, 2)
 *   q = p.reshape(4, 8192)
 *
 * w.t() is a view; y allocates 64 KiB; z and p are views; q copies 64 KiB
 * because the permute broke contiguity.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CUDA
#endif

int main(void)
{
    tl_tensor *w = tl_randn(TL_SHAPE(4096, 4096), TL_BF16, DEVICE);
    tl_tensor *h = tl_randn(TL_SHAPE(8, 4096), TL_BF16, DEVICE);
    tl_tensor *wt = tl_t(w);
    tl_tensor *y = tl_matmul(h, wt);
    tl_tensor *z = tl_view(y, TL_SHAPE(2, 4, 4096));
    tl_tensor *p = tl_permute(z, TL_DIMS(1, 0, 2));
    tl_tensor *q = tl_reshape(p, TL_SHAPE(4, 8192));
    (void)q;
    return 0;
}
