/*
 * Diagrams test input: sizes read at run time, so that every byte count is
 * a formula.  A cache grows by one row per step (a loop summarised over the
 * number of steps, drawn as its last iteration), each step scores the new
 * row against the cache so far, and a table of known size sits beside
 * them.  The peak is the larger of two candidates: the step's scores, or
 * the last step's new cache beside the old one.
 */
// bind: steps dim
// values: 1 2 | 3 5 | 9 3
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *table = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU);
    tl_tensor *w = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    tl_tensor *x = tl_ones(TL_SHAPE(1, dim), TL_F32, TL_CPU);
    tl_tensor *cache = tl_zeros(TL_SHAPE(0, dim), TL_F32, TL_CPU);
    for (int t = 0; t < steps; t++) {
        tl_tensor *row = tl_matmul(x, w);                   /* (1, dim) */
        tl_tensor *longer = tl_cat(TL_LIST(cache, row), 0); /* (t + 1, dim) */
        tl_release(cache);
        cache = longer;
        tl_tensor *kt = tl_transpose(cache, 0, 1);
        tl_tensor *scores = tl_matmul(row, kt);             /* (1, t + 1) */
        tl_tensor *p = tl_softmax(scores, 1);
        tl_release(p);
        tl_release(scores);
        tl_release(kt);
        tl_release(row);
    }
    tl_release(cache);
    tl_release(x);
    tl_release(w);
    tl_release(table);
    return 0;
}
