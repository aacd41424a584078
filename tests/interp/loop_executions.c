/* How many times each call site runs, in loops whose trip count is a size
 * read at run time: the analysis summarises them (docs/symbolic.md), running
 * a few probe iterations, and the count is a formula: the loop's trip count
 * (stepped: one more than the last chunk's index), times the enclosing
 * loops', plus the other calls of a helper.  Not the probes it ran. */
// values: n=7 m=3
#include <stdlib.h>
#include <tensorlint/tensor.h>

static tl_tensor *scaled(tl_tensor *x)
{
    return tl_mul_scalar(x, 0.5); // expected: exec={{n*m + 1}}
}

int main(int argc, char **argv)
{
    if (argc < 3) // expected-assumption {{argc < 3 is false}}
        return 2;
    int n = atoi(argv[1]);
    int m = atoi(argv[2]);
    tl_tensor *x = tl_ones(TL_SHAPE(n, 4), TL_F32, TL_CPU); // expected: x exec=1
    /* steady: every iteration alike */
    for (int i = 0; i < n; i++) {
        tl_tensor *row = tl_select(x, 0, i); // expected: row kind=view exec=n
        tl_tensor *y = tl_exp(row); // expected: y exec=n
        tl_release(y);
        tl_release(row);
    }
    /* growing: a running concatenation, one row longer each step */
    tl_tensor *acc = tl_zeros(TL_SHAPE(0, 4), TL_F32, TL_CPU); // expected: acc exec=1
    tl_tensor *one = tl_ones(TL_SHAPE(1, 4), TL_F32, TL_CPU);
    for (int t = 0; t < m; t++) {
        tl_tensor *longer = tl_cat(TL_LIST(acc, one), 0); // expected: longer exec=m
        tl_release(acc);
        acc = longer;
    }
    /* stepped: chunks of 3 rows, the last one shorter */
    for (int s = 0; s < n; s += 3) {
        tl_tensor *chunk = tl_narrow(x, 0, s, n - s < 3 ? n - s : 3); // expected: chunk exec={{((n - 1)/3) + 1}}
        tl_tensor *sum = tl_sum(chunk, 0, false); // expected: sum exec={{((n - 1)/3) + 1}}
        tl_release(sum);
        tl_release(chunk);
    }
    /* nested: a formula inside a formula, and inside a known count */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            tl_tensor *h = scaled(x);
            tl_release(h);
        }
    }
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < m; j++) {
            tl_tensor *g = tl_neg(x); // expected: g exec={{2*m}}
            tl_release(g);
        }
    }
    tl_tensor *h = scaled(x);
    tl_release(h);
    tl_release(one);
    tl_release(acc);
    tl_release(x);
    return 0;
}
