/* Layers: each returns a new tensor the caller owns. */
#include "model.h"

tl_tensor *linear(tl_tensor *x, tl_tensor *w)
{
    return tl_matmul(x, w); // expect: op=matmul shape=(8, 32) bytes=1024 kind=new exec=2 freed=layers.c:13
}

tl_tensor *linear_relu(tl_tensor *x, tl_tensor *w)
{
    tl_tensor *h = linear(x, w);
    tl_tensor *y = tl_relu(h); // expect: y op=relu shape=(8, 32) bytes=1024 kind=new freed=model.c:20
    tl_release(h);
    return y;
}
