/* The driver: load, run, free. */
#include "weights.h"

int main(void) // expected-func: peak=9536 end=0 calls=7
{
    weights w = load_weights(100, 16);
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 100), TL_F32, TL_CPU); // expected: x op=zeros bytes=1600 freed=main.c:11
    tl_tensor *y = infer(&w, x);
    tl_tensor *s = tl_sum(y, 1, false); // expected: s op=sum shape=(4,) bytes=16 freed=main.c:13
    free_weights(&w);
    tl_release(x);
    tl_release(y);
    tl_release(s);
    return 0;
}
