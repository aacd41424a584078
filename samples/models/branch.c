/*
 * A branch on a flag only known at run time: the analyzer runs both arms
 * and keeps the heavier one (the scaled arm holds 6 MiB at its peak, the
 * clone arm 4 MiB), so the reported peak holds whichever the user picks.
 * Both arms leave y with the same layout, so y stays known after the join.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif

int main(int argc, char **argv)
{
    (void)argv;
    int want_scaled = argc > 1;
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F16, DEVICE);
    tl_tensor *y;
    if (want_scaled) {
        tl_tensor *scaled = tl_mul_scalar(x, 2.0);
        y = tl_relu(scaled);
        tl_release(scaled);
    } else {
        y = tl_clone(x);
    }
    tl_tensor *s = tl_sum(y, 0, false);
    tl_release(s);
    tl_release(y);
    tl_release(x);
    return 0;
}
