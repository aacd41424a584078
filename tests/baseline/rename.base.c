/* Base of rename: the helper is called prepare. */
#include <tensorlint/tensor.h>

static void prepare(void)
{
    tl_tensor *t = tl_randn(TL_SHAPE(64, 4096), TL_F32, TL_CPU);
    tl_tensor *p = tl_t(t);
    tl_tensor *r = tl_reshape(p, TL_SHAPE(262144));
    tl_release(r);
    tl_release(p);
    tl_release(t);
}

static void gone(void)
{
    tl_tensor *g = tl_zeros(TL_SHAPE(16), TL_F32, TL_CPU);
    tl_release(g);
}

int main(void)
{
    prepare();
    gone();
    return 0;
}
