/* Dense layers: x @ w + b, with and without relu. */
#include "net.h"

tl_tensor *layer_dense(tl_tensor *x, tl_tensor *w, tl_tensor *b)
{
    tl_tensor *xw = tl_matmul(x, w);
    tl_tensor *y = tl_add(xw, b);
    tl_release(xw);
    return y;
}

tl_tensor *layer_dense_relu(tl_tensor *x, tl_tensor *w, tl_tensor *b)
{
    tl_tensor *h = layer_dense(x, w, b);
    tl_tensor *y = tl_relu(h);
    tl_release(h);
    return y;
}
