/* Loops whose state grows each iteration, summarised by induction: a key
 * cache kept in a struct field and lengthened with tl_cat at every step
 * (the old cache released), a length counter the body steps, attention of
 * the new row over the cache so far, and a second cache that a helper
 * lengthens through a pointer.  Live bytes, the peak and the bytes moved
 * are formulas in the number of steps. */
// bind: steps dim
// values: 1 4 | 3 5 | 7 2
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct {
    tl_tensor *k;   /* (len, dim) */
    tl_tensor *v;   /* (len, dim) */
    int len;
} cache;

static void append(tl_tensor **t, tl_tensor *row)
{
    tl_tensor *longer = tl_cat(TL_LIST(*t, row), 0);
    tl_release(*t);
    *t = longer;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    cache c;
    c.k = tl_zeros(TL_SHAPE(0, dim), TL_F32, TL_CPU);
    c.v = tl_zeros(TL_SHAPE(0, dim), TL_F32, TL_CPU);
    c.len = 0;
    tl_tensor *q = tl_ones(TL_SHAPE(1, dim), TL_F32, TL_CPU);
    for (int t = 0; t < steps; t++) {
        tl_tensor *row = tl_mul_scalar(q, 0.5);
        tl_tensor *k2 = tl_cat(TL_LIST(c.k, row), 0);
        tl_release(c.k);
        c.k = k2;
        append(&c.v, row);
        c.len++;
        tl_tensor *kt = tl_transpose(c.k, 0, 1);           /* (dim, len) */
        tl_tensor *scores = tl_matmul(q, kt);              /* (1, len) */
        tl_tensor *p = tl_softmax(scores, 1);
        tl_tensor *out = tl_matmul(p, c.v);                /* (1, dim) */
        tl_tensor *seen = tl_narrow(c.k, 0, 0, c.len);     /* all of it */
        tl_release(seen);
        tl_release(out);
        tl_release(p);
        tl_release(scores);
        tl_release(kt);
        tl_release(row);
    }
    tl_release(c.k);
    tl_release(c.v);
    tl_release(q);
    return 0;
}
