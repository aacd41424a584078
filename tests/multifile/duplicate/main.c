/* A program that calls scale: which one it would run is not C. */
#include <tensorlint/tensor.h>

tl_tensor *scale(tl_tensor *t);

int main(void)
{
    tl_tensor *x = tl_ones(TL_SHAPE(2), TL_F32, TL_CPU);
    tl_tensor *y = scale(x);
    tl_release(x);
    tl_release(y);
    return 0;
}
