/* Helpers that return a new tensor, a view, and a result built from temporaries. */
#include <stdint.h>
#include <tensorlint/tensor.h>

static tl_tensor *scaled(tl_tensor *x, double s) // expected-func: peak=160 end=160 moved=96
{
    tl_tensor *y = tl_mul_scalar(x, s); // expected: y shape=(3, 4) kind=new bytes=48 moved=96 freed=32
    return y;
}

static tl_tensor *row(tl_tensor *x, int64_t i)
{
    return tl_select(x, 0, i); // expected: - op=select shape=(4,) strides=(1,) offset=8 kind=view view-of=y@7 same-storage=y@7
}

static tl_tensor *mlp(tl_tensor *x, tl_tensor *w) // expected-func: peak=256 end=208 moved=256 peak-line=19
{
    tl_tensor *h = tl_matmul(x, w); // expected: h shape=(3, 4) kind=new bytes=48 moved=160 freed=20
    tl_tensor *y = tl_relu(h); // expected: y shape=(3, 4) kind=new bytes=48 moved=96 freed=33
    tl_release(h);
    return y;
}

int main(void) // expected-func: peak=256 end=0 moved=464 peak-line=30 calls=6
{
    tl_tensor *x = tl_randn(TL_SHAPE(3, 4), TL_F32, TL_CPU); // expected: x bytes=48 freed=35
    tl_tensor *w = tl_randn(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: w bytes=64 freed=34
    tl_tensor *a = scaled(x, 0.5);
    tl_tensor *r = row(a, 2);
    tl_tensor *b = mlp(a, w);
    tl_release(r);
    tl_release(a);
    tl_release(b);
    tl_release(w);
    tl_release(x);
    return 0;
}
