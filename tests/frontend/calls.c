/* API calls: constant folding of arguments, macros, nested calls. */
#include <tensorlint/tensor.h>

enum { HIDDEN = 64, HEADS = 4 };
#define SEQ 128
#define ZEROS2(r, c) tl_zeros(TL_SHAPE(r, c), TL_F32, TL_CPU)

static const int kBatch = 2;

int main(void)
{
    const int layers = 3;
    int n = 5;
    tl_tensor *x = tl_randn(TL_SHAPE(kBatch, SEQ, HIDDEN * HEADS, sizeof(double), layers),
                            TL_F16, TL_CPU);
    tl_tensor *y = ZEROS2(n, n * 2);
    tl_tensor *z = tl_add(tl_t(y), y);
    tl_tensor *w = (tl_mul)(z, z);
    tl_tensor *s = tl_slice(x, -1, 0, TL_END, 2);
    tl_tensor *f = tl_full(TL_SHAPE0, 1.5, TL_F64, TL_CPU);
    tl_tensor *c = tl_cat(TL_LIST(y, z, tl_relu(w)), 0);
    tl_tensor *v = tl_view(c, TL_SHAPE(-1));
    tl_mul_scalar_(v, 0.5);
    tl_add(v, v);
    int64_t rows = tl_size(x, 0);
    tl_tensor *r = tl_reshape(x, TL_SHAPE(rows, -1));
    tl_print(r);
    if (tl_ndim(r) == 2 && r != NULL)
        tl_release(r);
    tl_release(x);
    tl_release(y);
    tl_release(z);
    tl_release(w);
    tl_release(s);
    tl_release(f);
    tl_release(c);
    tl_release(v);
    return 0;
}
