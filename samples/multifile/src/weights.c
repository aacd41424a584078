/* The weights, made once (a real program would read them from a file). */
#include "net.h"

net_weights net_load(void)
{
    net_weights w;
    w.w1 = tl_randn(TL_SHAPE(NET_IN, NET_HIDDEN), TL_F32, TL_CPU);
    w.b1 = tl_zeros(TL_SHAPE(NET_HIDDEN), TL_F32, TL_CPU);
    w.w2 = tl_randn(TL_SHAPE(NET_HIDDEN, NET_CLASSES), TL_F32, TL_CPU);
    w.b2 = tl_zeros(TL_SHAPE(NET_CLASSES), TL_F32, TL_CPU);
    return w;
}

void net_weights_free(net_weights *w)
{
    tl_release(w->w1);
    tl_release(w->b1);
    tl_release(w->w2);
    tl_release(w->b2);
}
