/* An unknown branch whose larger arm releases a view that the other arm
 * keeps: the view's storage stays live through other handles in both, so
 * once those are released it is freed in the kept arm only, and the other
 * ends with more live.  The totals after the branch are not bounded (they
 * were "at most 32 B" at the end, where a run with an odd n keeps
 * 8 * 4 * n B: a bound on the wrong side, found by the differential test). */
// values: n=3
#include <stdlib.h>
#include <tensorlint/tensor.h>

static tl_tensor *relu_consume(tl_tensor *x)
{
    tl_tensor *y = tl_relu(x);
    tl_release(x);
    return y;
}

int main(int argc, char **argv) // expected-func: end~=32
{
    if (argc < 2) // expected-assumption {{argc < 2 is false}}
        return 2;
    int n = atoi(argv[1]);
    tl_tensor *t = tl_zeros(TL_SHAPE(n, 8), TL_F32, TL_CPU);
    tl_tensor *row = tl_select(t, 0, 0);
    tl_tensor *v = tl_view(row, TL_SHAPE(8));
    if (n % 2 == 0) // expected-note {{leave different live bytes}} {{[unknown-branch]}}
        v = relu_consume(v);
    tl_release(row);
    tl_release(t);
    return 0;
}
