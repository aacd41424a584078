/* Sizes from the command line: batch and seq are symbols named after the
 * variables they are assigned to; the helper's parameters keep the names. */
// bind: batch seq
// values: 1 2 | 7 3 | 13 64
#include <tensorlint/tensor.h>
#include <stdlib.h>

static tl_tensor *project(tl_tensor *x, tl_tensor *w)
{
    return tl_matmul(x, w); /* (batch*seq, 64) x (64, 32) */
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int batch = atoi(argv[1]);
    int seq = atoi(argv[2]);
    tl_tensor *x = tl_randn(TL_SHAPE(batch, seq, 64), TL_F32, TL_CPU);
    tl_tensor *flat = tl_reshape(x, TL_SHAPE(batch * seq, 64));
    tl_tensor *w = tl_randn(TL_SHAPE(64, 32), TL_F32, TL_CPU);
    tl_tensor *y = project(flat, w);
    tl_tensor *t = tl_transpose(y, 0, 1);
    tl_tensor *c = tl_contiguous(t);
    tl_release(t);
    tl_release(y);
    tl_tensor *s = tl_sum(c, 1, false);
    tl_release(c);
    tl_release(flat);
    tl_release(x);
    tl_release(w);
    tl_release(s);
    return 0;
}
