/* The driver: weights loaded in weights.c, batches run through model.c. */
#include "net.h"

int main(void)
{
    net_weights w = net_load();
    for (int step = 0; step < 4; step++) {
        tl_tensor *x = tl_randn(TL_SHAPE(64, NET_IN), TL_F32, TL_CPU);
        tl_tensor *p = net_forward(&w, x);
        tl_release(x);
        tl_release(p);
    }
    net_weights_free(&w);
    return 0;
}
