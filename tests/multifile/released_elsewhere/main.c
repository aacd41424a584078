/* A tensor used after a helper of another file released it: the error is
 * here, its note at the release in helpers.c. */
#include "helpers.h"

int main(void)
{
    tl_tensor *x = tl_ones(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: x op=ones bytes=64 freed=helpers.c:6
    drop(x);
    tl_tensor *y = tl_relu(x); // expected-error {{uses 'x' after it was released}} {{[use-after-release]}}
    tl_release(y);
    return 0;
}
