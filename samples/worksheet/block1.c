/*
 * Worksheet Block 1, "the original" (seeds/tensor-memory-accountant-worksheet.txt):
 *
 *   x = torch.randn(16, 1024, 4096, dtype=torch.float16, device="cuda")
 *   a = x.transpose(1, 2)
 *   b = a.contiguous()
 *   c = b.reshape(16 * 4096, 1024)
 *   d = c.to(torch.float32)
 *   e = d[:, :512]
 *   f = e.clone()
 *
 * Nothing is released: the answer key says 640 MiB live after f.
 * Build for the CPU runtime with -DDEVICE=TL_CPU.
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
    tl_tensor *c = tl_reshape(b, TL_SHAPE(16 * 4096, 1024));
    tl_tensor *d = tl_to(c, TL_F32);
    tl_tensor *e = tl_slice(d, 1, 0, 512, 1);
    tl_tensor *f = tl_clone(e);
    (void)f;
    return 0;
}
