/* Base of reorder: two helpers, each with a warning. */
#include <tensorlint/tensor.h>

static void copies(void)
{
    tl_tensor *t = tl_randn(TL_SHAPE(64, 4096), TL_F32, TL_CPU);
    tl_tensor *p = tl_t(t);
    tl_tensor *r = tl_reshape(p, TL_SHAPE(262144));
    tl_release(r);
    tl_release(p);
    tl_release(t);
}

static void casts(void)
{
    tl_tensor *h = tl_randn(TL_SHAPE(1024, 1024), TL_F16, TL_CPU);
    tl_tensor *f = tl_to(h, TL_F32);
    tl_release(f);
    tl_release(h);
}

int main(void)
{
    copies();
    casts();
    return 0;
}
