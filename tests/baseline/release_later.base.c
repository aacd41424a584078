/* Base of release_later: a is released before b and c are made. */
#include <tensorlint/tensor.h>

static void step(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    tl_release(a);
    tl_tensor *c = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *d = tl_add(b, c);
    tl_release(d);
    tl_release(c);
    tl_release(b);
}

int main(void)
{
    step();
    return 0;
}
