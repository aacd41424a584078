/* Each helper releases the tensor it is given. */
#include "helpers.h"

void drop(tl_tensor *t)
{
    tl_release(t);
}

tl_tensor *relu_take(tl_tensor *t)
{
    tl_tensor *y = tl_relu(t); // expected: y op=relu shape=(64, 64) bytes=16384 exec=2 freed=helpers.c:6
    drop(t);
    return y;
}
