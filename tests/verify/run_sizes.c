/* Sizes from argv and a loop whose body and what follows it begin at the
 * same call site (norm): verify with no --bind reads d off the shape of
 * tl_ones and n off the times tl_relu ran, analyses again with them bound,
 * and compares the run with numbers (tests/verify/run.sh). */
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void norm(tl_tensor *x)
{
    tl_tensor *s = tl_mul(x, x);
    tl_mul_(x, s);
    tl_release(s);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    int d = argc > 2 ? atoi(argv[2]) : 4;
    tl_tensor *x = tl_ones(TL_SHAPE(d), TL_F32, TL_CPU);
    for (int l = 0; l < n; l++) {
        norm(x);
        tl_tensor *y = tl_relu(x);
        tl_release(y);
    }
    norm(x);
    tl_release(x);
    return 0;
}
