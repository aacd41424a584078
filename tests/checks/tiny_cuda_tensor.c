/* tiny-cuda-tensor: CUDA tensors far below the allocator's 512-byte block. */
// CHECK-OPTIONS: --checks=-*,tiny-cuda-tensor
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024), TL_F32, TL_CUDA);
    tl_tensor *s = tl_scalar(2.0, TL_F32, TL_CUDA); // expected-warning {{[tiny-cuda-tensor]}}
    tl_tensor *y = tl_mul(x, s);
    for (int i = 0; i < 100; i++) {
        tl_tensor *step = tl_scalar(0.5, TL_F32, TL_CUDA); // expected-warning {{[tiny-cuda-tensor]}}
        tl_add_(y, step);
        tl_release(step);
    }
    /* near misses: a host scalar, a CPU scalar, a 4 KiB CUDA tensor */
    tl_tensor *z = tl_mul_scalar(x, 2.0);
    tl_tensor *c = tl_scalar(2.0, TL_F32, TL_CPU);
    tl_release(c);
    tl_release(z);
    tl_release(y);
    tl_release(s);
    tl_release(x);
    return 0;
}
