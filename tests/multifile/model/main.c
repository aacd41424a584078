/* The driver: a batch through the model, everything released. */
#include "model.h"

int main(void) // expected-func: peak=8704 end=0 calls=6
{
    model m;
    model_init(&m, 16, 32);
    tl_tensor *x = tl_ones(TL_SHAPE(8, 16), TL_F32, TL_CPU); // expected: x op=ones bytes=512 freed=main.c:10
    tl_tensor *y = model_forward(&m, x);
    tl_release(x);
    tl_release(y);
    model_free(&m);
    return 0;
}
