/* How many times each call site runs, over loops whose trip counts are sizes
 * read at run time: the count is a formula (JSON "executions"), which the
 * runner evaluates at each set of values and compares with the bound report,
 * which verify compares with the run's count of each call. */
// bind: n m chunk
// values: 2 1 1 | 7 3 2 | 11 5 4
#include <stdlib.h>
#include <tensorlint/tensor.h>

static tl_tensor *half(tl_tensor *x)
{
    return tl_mul_scalar(x, 0.5);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int n = atoi(argv[1]);
    int m = atoi(argv[2]);
    int chunk = atoi(argv[3]);
    tl_tensor *x = tl_ones(TL_SHAPE(n, 4), TL_F32, TL_CPU);
    for (int i = 0; i < n; i++) { /* steady */
        tl_tensor *row = tl_select(x, 0, i);
        tl_tensor *h = half(row);
        tl_release(h);
        tl_release(row);
    }
    tl_tensor *acc = tl_zeros(TL_SHAPE(0, 4), TL_F32, TL_CPU);
    for (int t = 0; t < m; t++) { /* growing */
        tl_tensor *row = tl_select(x, 0, 0);
        tl_tensor *r2 = tl_unsqueeze(row, 0);
        tl_tensor *longer = tl_cat(TL_LIST(acc, r2), 0);
        tl_release(r2);
        tl_release(row);
        tl_release(acc);
        acc = longer;
    }
    for (int s = 0; s < n; s += chunk) { /* stepped, the last chunk shorter */
        int len = n - s < chunk ? n - s : chunk;
        tl_tensor *part = tl_narrow(x, 0, s, len);
        tl_tensor *sum = tl_sum(part, 0, false);
        tl_release(sum);
        tl_release(part);
    }
    for (int i = 0; i < m; i++) /* nested: m * n */
        for (int j = 0; j < n; j++) {
            tl_tensor *h = half(x);
            tl_release(h);
        }
    for (int i = 0; i < n; i++) /* triangular: the inner trip count is the counter */
        for (int j = 0; j < i; j++) {
            tl_tensor *e = tl_exp(x);
            tl_release(e);
        }
    for (int k = 0; k < 3; k++) /* a known count around a formula */
        for (int j = n - 1; j >= 0; j--) {
            tl_tensor *g = tl_neg(x);
            tl_release(g);
        }
    tl_release(acc);
    tl_release(x);
    return 0;
}
