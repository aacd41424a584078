/* The model's weights and its forward pass. */
#include "model.h"

void model_init(model *m, int d, int h)
{
    m->w1 = tl_randn(TL_SHAPE(d, h), TL_F32, TL_CPU); // expected: op=randn shape=(16, 32) bytes=2048 freed=model.c:12
    m->w2 = tl_randn(TL_SHAPE(h, h), TL_F32, TL_CPU); // expected: op=randn shape=(32, 32) bytes=4096 freed=model.c:13
}

void model_free(model *m)
{
    tl_release(m->w1);
    tl_release(m->w2);
}

tl_tensor *model_forward(const model *m, tl_tensor *x)
{
    tl_tensor *h = linear_relu(x, m->w1);
    tl_tensor *y = linear(h, m->w2);
    tl_release(h);
    return y;
}
