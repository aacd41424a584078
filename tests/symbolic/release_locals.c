/* Per-layer tensors released through variables declared in the loop's
 * body: a pointer to the iteration's element, an array of its handles and
 * an inner loop over that array (llama2.c's port frees its layers so).
 * They end with each iteration, so what one iteration left in them is no
 * state of the next: the loop is summarised, every total exact. */
// bind: n_layers dim
// values: 1 3 | 2 5 | 7 2
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct layer {
    tl_tensor *wq, *wk, *norm;
} layer;

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n_layers = atoi(argv[1]), dim = atoi(argv[2]);
    layer *layers = calloc((size_t)n_layers, sizeof *layers);
    if (!layers)
        return 1;
    for (int l = 0; l < n_layers; l++) {
        layers[l].wq = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
        layers[l].wk = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
        layers[l].norm = tl_ones(TL_SHAPE(dim), TL_F32, TL_CPU);
    }
    tl_tensor *x = tl_ones(TL_SHAPE(dim), TL_F32, TL_CPU);
    for (int l = 0; l < n_layers; l++) {
        tl_tensor *h = tl_matmul(layers[l].wq, x);
        tl_mul_(h, layers[l].norm);
        tl_release(h);
    }
    for (int l = 0; l < n_layers; l++) {
        layer *y = &layers[l];
        tl_tensor *all[] = {y->wq, y->wk, y->norm};
        for (size_t k = 0; k < sizeof all / sizeof *all; k++)
            tl_release(all[k]);
    }
    free(layers);
    tl_release(x);
    return 0;
}
