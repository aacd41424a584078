/* A stepped loop inside a counted one, through a helper: every layer runs
 * its input in chunks of `chunk` rows (the last one shorter); the helper
 * gets the sizes as parameters, so their names survive, and the loop over
 * the layers sums the chunked loop's totals (its trip count a formula in
 * n and chunk) once more. */
// bind: n_layers n dim chunk
// values: 1 1 2 3 | 3 7 2 3 | 2 5 3 5
#include <tensorlint/tensor.h>
#include <stdlib.h>

static void layer(tl_tensor *x, tl_tensor *w, int n, int chunk)
{
    for (int s = 0; s < n; s += chunk) {
        int len = n - s < chunk ? n - s : chunk;
        tl_tensor *rows = tl_narrow(x, 0, s, len);
        tl_tensor *h = tl_matmul(rows, w);
        tl_tensor *g = tl_gelu(h);
        tl_release(g);
        tl_release(h);
        tl_release(rows);
    }
}

int main(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    int n_layers = atoi(argv[1]);
    int n = atoi(argv[2]);
    int dim = atoi(argv[3]);
    int chunk = atoi(argv[4]);
    tl_tensor *x = tl_ones(TL_SHAPE(n, dim), TL_F32, TL_CPU);
    tl_tensor *w = tl_ones(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    for (int l = 0; l < n_layers; l++)
        layer(x, w, n, chunk);
    tl_release(w);
    tl_release(x);
    return 0;
}
