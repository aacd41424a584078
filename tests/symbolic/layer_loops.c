/* Loops whose trip counts are symbols, summarised rather than unrolled: a
 * step loop around a layer loop that calls a helper and selects the layer's
 * weight from one stacked tensor, a counter stepped once per step, and a
 * while loop counted by hand.  The totals are formulas in the trip counts. */
// bind: n_layers dim steps
// values: 1 3 1 | 2 8 3 | 5 17 2
#include <tensorlint/tensor.h>
#include <stdlib.h>

static tl_tensor *block(tl_tensor *x, tl_tensor *w)
{
    tl_tensor *h = tl_matmul(x, w);
    tl_tensor *a = tl_silu(h);
    tl_release(h);
    return a;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int n_layers = atoi(argv[1]);
    int dim = atoi(argv[2]);
    int steps = atoi(argv[3]);
    tl_tensor *w = tl_randn(TL_SHAPE(n_layers, dim, dim), TL_F32, TL_CPU);
    tl_tensor *x = tl_zeros(TL_SHAPE(2, dim), TL_F32, TL_CPU);
    int pos = 0;
    for (int t = 0; t < steps; t++) {
        for (int l = 0; l < n_layers; l++) {
            tl_tensor *wl = tl_select(w, 0, l);
            tl_tensor *y = block(x, wl);
            tl_release(wl);
            tl_release(x);
            x = y;
        }
        pos++;
    }
    tl_tensor *seen = tl_zeros(TL_SHAPE(pos, dim), TL_F32, TL_CPU); /* pos == steps */
    int k = 0;
    while (k < n_layers) {
        tl_tensor *s = tl_sum(seen, 1, false);
        tl_release(s);
        k++;
    }
    tl_release(seen);
    tl_release(x);
    tl_release(w);
    return 0;
}
