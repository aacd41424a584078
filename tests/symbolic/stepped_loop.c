/* Loops whose counter steps by more than one: pairs of rows, the last pair
 * one row short when n is odd (the ternary is the chunk's length), and a
 * loop over every row before it.  The trip count is (n - 1)/2 + 1; the
 * bytes the sums read add up to the whole tensor, whatever n's parity. */
// bind: n dim
// values: 1 4 | 2 3 | 7 5
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
