/* The errors the interpreter reports (PyTorch would raise), each next to a
 * near miss that is fine.  Every error poisons its result, so later calls
 * stay quiet. */
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CPU);
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *bad_view = tl_view(t, TL_SHAPE(8192)); // expected-error {{[invalid-view]}}
    tl_tensor *ok_view = tl_view(x, TL_SHAPE(8192));
    tl_tensor *bad_dim = tl_select(x, 2, 0); // expected-error {{[invalid-view]}}
    tl_tensor *a = tl_randn(TL_SHAPE(2, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_randn(TL_SHAPE(4, 3), TL_F32, TL_CPU);
    tl_tensor *row = tl_randn(TL_SHAPE(1, 3), TL_F32, TL_CPU);
    tl_tensor *bad_add = tl_add(a, b); // expected-error {{[shape-mismatch]}}
    tl_tensor *ok_add = tl_add(a, row);
    tl_tensor *h = tl_randn(TL_SHAPE(3, 4), TL_F16, TL_CPU);
    tl_tensor *bad_mm = tl_matmul(a, h); // expected-error {{[dtype-mismatch]}}
    tl_tensor *f = tl_to(h, TL_F32);
    tl_tensor *ok_mm = tl_matmul(a, f);
    tl_tensor *g = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CUDA);
    tl_tensor *bad_dev = tl_add(x, g); // expected-error {{[device-mismatch]}}
    tl_tensor *g2 = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CUDA);
    tl_tensor *ok_dev = tl_add(g2, g);
    tl_tensor *e = tl_expand(row, TL_SHAPE(2, 3));
    tl_add_(e, a); // expected-error {{[overlapping-write]}}
    tl_add_(a, e);
    tl_tensor *bad_step = tl_slice(x, 1, 0, 64, 0); // expected-error {{[invalid-argument]}}
    tl_tensor *ok_step = tl_slice(x, 1, 0, 64, 2);
    tl_tensor *huge = tl_zeros(TL_SHAPE(1LL << 40, 1LL << 30), TL_F32, TL_CPU); // expected-error {{[byte-overflow]}}
    tl_tensor *fine = tl_zeros(TL_SHAPE(1 << 10, 1 << 10), TL_F32, TL_CPU);
    tl_release(fine);
    tl_tensor *y = tl_relu(fine); // expected-error {{[use-after-release]}}
    tl_tensor *z = tl_relu(a);
    tl_release(z);
    tl_release(z); // expected-error {{[double-release]}}
    (void)bad_view, (void)ok_view, (void)bad_dim, (void)bad_add, (void)ok_add, (void)bad_mm;
    (void)ok_mm, (void)bad_dev, (void)ok_dev, (void)bad_step, (void)ok_step, (void)huge, (void)y;
    return 0;
}
