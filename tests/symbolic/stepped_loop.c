/* A loop the analysis does not summarise: its counter steps by two, so
 * the iterations it runs are not a count the probes can stand for.  The
 * totals are bounds from there on, with a note at the loop that says why;
 * a loop over the same sizes that steps by one stays exact before it. */
// bind: n dim
// values: 1 4 | 3 5 | 8 3
// expect-bounds: end_live_bytes moved_bytes peak_live_bytes
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *x = tl_ones(TL_SHAPE(n, dim), TL_F32, TL_CPU);
    for (int i = 0; i < n; i++) {
        tl_tensor *row = tl_select(x, 0, i);
        tl_tensor *y = tl_mul_scalar(row, 2.0);
        tl_release(y);
        tl_release(row);
    }
    for (int i = 0; i < n; i += 2) {
        tl_tensor *pair = tl_narrow(x, 0, i, n - i < 2 ? n - i : 2);
        tl_tensor *s = tl_sum(pair, 0, false);
        tl_release(s);
        tl_release(pair);
    }
    tl_release(x);
    return 0;
}
