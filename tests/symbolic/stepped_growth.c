/* A loop stepped by two whose state grows: each pair of rows is appended
 * to a running concatenation.  Only loops stepped by more than one whose
 * iterations leave the state as they found it are summarised; this one is
 * analysed for one iteration, its totals bounds from there on, with a
 * note at the loop that says why. */
// bind: n dim
// values: 1 4 | 3 5 | 8 3
// expected-bounds: end_live_bytes moved_bytes peak_live_bytes
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *x = tl_ones(TL_SHAPE(n, dim), TL_F32, TL_CPU);
    tl_tensor *acc = tl_zeros(TL_SHAPE(0, dim), TL_F32, TL_CPU);
    for (int i = 0; i < n; i += 2) {
        tl_tensor *pair = tl_narrow(x, 0, i, n - i < 2 ? n - i : 2);
        tl_tensor *longer = tl_cat(TL_LIST(acc, pair), 0);
        tl_release(acc);
        tl_release(pair);
        acc = longer;
    }
    tl_release(acc);
    tl_release(x);
    return 0;
}
