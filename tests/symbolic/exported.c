/* An exported function: its integer parameters are the symbols, named after
 * them (origin "parameter"), and its report is in those names.  The test's
 * main, compiled only for the run (-DTL_TEST_MAIN), passes its arguments. */
// bind: batch seq dim
// values: 1 5 8 | 3 7 16 | 13 2 24
// verify-flags: -DTL_TEST_MAIN
#include <tensorlint/tensor.h>
#include <stdlib.h>

void layer_forward(int batch, int seq, int dim)
{
    tl_tensor *x = tl_randn(TL_SHAPE(batch, seq, dim), TL_F32, TL_CPU);
    tl_tensor *w = tl_randn(TL_SHAPE(dim, 4 * dim), TL_F32, TL_CPU);
    tl_tensor *h = tl_matmul(x, w);
    tl_tensor *a = tl_gelu(h);
    tl_tensor *s = tl_sum(a, -1, true);
    tl_release(h);
    tl_release(a);
    tl_release(s);
    tl_release(w);
    tl_release(x);
}

#ifdef TL_TEST_MAIN
int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int batch = atoi(argv[1]), seq = atoi(argv[2]), dim = atoi(argv[3]);
    layer_forward(batch, seq, dim);
    return 0;
}
#endif
