/* Control flow: if/else, loops, switch, break/continue, goto. */
#include <tensorlint/tensor.h>

#define STEPS 4

int run(int mode)
{
    tl_tensor *acc = tl_zeros(TL_SHAPE(8, 8), TL_F32, TL_CPU);
    for (int i = 0; i < STEPS; i++) {
        tl_tensor *t = tl_ones(TL_SHAPE(8, 8), TL_F32, TL_CPU);
        tl_add_(acc, t);
        tl_release(t);
    }
    int k = 0;
    while (k < 10) {
        k += 3;
        if (k == 6)
            continue;
        if (k > 8)
            break;
    }
    do {
        k--;
    } while (k > 0);
    for (;;)
        break;
    int j;
    for (j = 2; ; j *= 2)
        if (j > 16)
            break;
    if (mode > 1) {
        tl_tensor *u = tl_exp(acc);
        tl_release(u);
    } else if (mode == 1) {
        tl_relu(acc);
    } else {
        tl_neg(acc);
    }
    switch (mode) {
    case 0:
    case 1:
        tl_zero_(acc);
        break;
    case 2: {
        tl_fill_(acc, 2.0);
        break;
    }
    default:
        return 1;
    }
    switch (mode) {
    case 0:
        tl_zero_(acc);
    case 1:
        tl_zero_(acc);
        break;
    }
    if (mode < 0)
        goto out;
    tl_release(acc);
out:
    return mode ? k : j;
}
