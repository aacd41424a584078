/* The driver hands its tensors to helpers that release them; the last use
 * comes after the release, in another file. */
#include "helpers.h"

int main(void) // expected-func: peak=32768 end=0 calls=3
{
    tl_tensor *x = tl_randn(TL_SHAPE(64, 64), TL_F32, TL_CPU); // expected: x op=randn bytes=16384 freed=helpers.c:6
    tl_tensor *h = relu_take(x);
    tl_tensor *y = relu_take(h);
    drop(y);
    return 0;
}
