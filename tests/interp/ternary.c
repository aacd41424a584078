/* Ternaries: an integer size, a tensor-returning call, and a choice of handle. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=272 end=0 moved=528 peak-line=11 calls=3
{
    int big = 1;
    int n = 3;
    tl_tensor *x = tl_zeros(TL_SHAPE(big ? 8 : 2, 4), TL_F32, TL_CPU); // expected: x shape=(8, 4) bytes=128 freed=14
    tl_tensor *y = big ? tl_relu(x) : tl_exp(x); // expected: y op=relu shape=(8, 4) bytes=128 exec=1 // expected: op=exp exec=0
    tl_tensor *src = n > 2 ? y : x;
    tl_tensor *z = tl_sum(src, 0, n < 2); // expected: z shape=(4,) bytes=16 moved=144 freed=12
    tl_release(z);
    tl_release(y);
    tl_release(x);
    return 0;
}
