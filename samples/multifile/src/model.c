/* The model: two dense layers and a softmax over the classes. */
#include "net.h"

tl_tensor *net_forward(const net_weights *w, tl_tensor *x)
{
    tl_tensor *h = layer_dense_relu(x, w->w1, w->b1);
    tl_tensor *logits = layer_dense(h, w->w2, w->b2);
    tl_release(h);
    tl_tensor *p = tl_softmax(logits, 1);
    tl_release(logits);
    return p;
}
