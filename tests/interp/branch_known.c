/* if / else if / else on a condition known statically: only the taken arm runs. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=192 end=0 moved=288 peak-line=15 calls=3
{
    int mode = 3;
    tl_tensor *x = tl_randn(TL_SHAPE(4, 6), TL_F32, TL_CPU); // expected: x bytes=96 freed=17
    tl_tensor *y;
    if (mode == 1)
        y = tl_clone(x); // expected: y exec=0 shape=? kind=?
    else if (mode > 2)
        y = tl_reshape(x, TL_SHAPE(6, 4)); // expected: y exec=1 shape=(6, 4) strides=(4, 1) kind=view view-of=x moved=0
    else
        y = tl_zeros(TL_SHAPE(100), TL_F32, TL_CPU); // expected: y exec=0 shape=?
    tl_tensor *z = tl_mul_scalar(y, 2.0); // expected: z shape=(6, 4) kind=new bytes=96 moved=192 freed=18
    tl_release(y);
    tl_release(x);
    tl_release(z);
    return 0;
}
