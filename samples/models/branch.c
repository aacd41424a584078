/*
 * A branch on a flag only known at run time: the analyzer runs both arms
 * and keeps the heavier one, so the reported peak holds whichever the user
 * picks.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif

int main(int argc, char **argv)
{
    (void)argv;
    int want_f32 = argc > 1;
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F16, DEVICE);
    tl_tensor *y;
    if (want_f32)
        y = tl_to(x, TL_F32);
    else
        y = tl_clone(x);
    tl_tensor *s = tl_sum(y, 0, false);
    tl_release(s);
    tl_release(y);
    tl_release(x);
    return 0;
}
