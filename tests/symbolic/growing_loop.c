/* A loop the analysis does not summarise: the running concatenation grows
 * by one row each step, so no one iteration stands for the others.  The
 * totals that depend on it are bounds, with a note at the loop; the rest
 * of the report stays exact. */
// bind: steps dim
// values: 1 4 | 3 5 | 4 16
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *row = tl_ones(TL_SHAPE(1, dim), TL_F32, TL_CPU);
    tl_tensor *acc = tl_zeros(TL_SHAPE(1, dim), TL_F32, TL_CPU);
    for (int t = 0; t < steps; t++) {
        tl_tensor *longer = tl_cat(TL_LIST(acc, row), 0);
        tl_release(acc);
        acc = longer;
    }
    tl_release(acc);
    tl_release(row);
    return 0;
}
