/* Returns that normal runs take, on values read at run time: a sampler's
 * loop that returns from inside (the index where the running sum passes a
 * draw), and a helper that returns early.  Neither touches a tensor
 * between its branch and its end, so each return is joined with the
 * function's end exactly: no assumption on the run's path is listed for
 * them, no total is a bound, and verify follows runs that take each return
 * (the values: the draw n/4 is passed in the loop's first iteration at
 * n = 1, in a later one at n = 2 and 3, never at n = 6; k >= n returns
 * early from rows_kept).  The returned values become run-time values the
 * host code only prints. */
// bind: n k
// values: 1 2 | 3 5 | 6 2 | 2 8
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

/* The index where the running sum of p passes r, or the last. */
static int sample_index(const float *p, int n, float r)
{
    float cdf = 0;
    for (int i = 0; i < n; i++) {
        cdf += p[i];
        if (r < cdf)
            return i;
    }
    return n - 1;
}

/* How many rows a caller keeps: all of them when k is large. */
static int rows_kept(int n, int k)
{
    if (k >= n)
        return n;
    int half = n / 2;
    return half > k ? half : k;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]), k = atoi(argv[2]);
    if (k > 8)
        return 2;
    tl_tensor *x = tl_ones(TL_SHAPE(n, k), TL_F32, TL_CPU);
    tl_tensor *p = tl_softmax(x, 1);
    float probs[8];
    tl_tensor *row = tl_select(p, 0, 0);
    tl_copy_to_host(row, probs, (int64_t)k * (int64_t)sizeof(float));
    int idx = sample_index(probs, k, (float)n / 4);
    int rows = rows_kept(n, k);
    tl_tensor *y = tl_mul_scalar(p, 2.0);
    printf("%d %d\n", idx, rows);
    tl_release(y);
    tl_release(row);
    tl_release(p);
    tl_release(x);
    return 0;
}
