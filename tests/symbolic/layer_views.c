/* Per-layer views kept in an array of structs, as models that stack their
 * weights write it: layers[l].wq = tl_select(wq, 0, l).  The views cost no
 * bytes and keep the stacked storage alive; the forward loop reads them
 * through a variable and straight from the array, the views are released
 * from the last layer down, then the stacked tensors (freed there). */
// bind: n_layers dim
// values: 1 3 | 2 5 | 7 2
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct layer {
    tl_tensor *wq, *wo;
    int width;
} layer;

static void make_views(layer *layers, tl_tensor *wq, tl_tensor *wo, int n_layers, int dim)
{
    for (int l = 0; l < n_layers; l++) {
        layers[l].wq = tl_select(wq, 0, l);
        layers[l].wo = tl_select(wo, 0, l);
        layers[l].width = dim;
    }
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n_layers = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *wq = tl_ones(TL_SHAPE(n_layers, dim, dim), TL_F32, TL_CPU);
    tl_tensor *wo = tl_ones(TL_SHAPE(n_layers, dim, dim), TL_F32, TL_CPU);
    layer *layers = malloc(sizeof *layers * (size_t)n_layers);
    if (!layers)
        return 1;
    make_views(layers, wq, wo, n_layers, dim);
    tl_release(wq); /* the views keep the storage: nothing freed here */
    tl_tensor *x = tl_ones(TL_SHAPE(1, dim), TL_F32, TL_CPU);
    for (int l = 0; l < n_layers; l++) {
        tl_tensor *w = layers[l].wq;
        tl_tensor *h = tl_matmul(x, w);
        tl_tensor *y = tl_matmul(h, layers[l].wo);
        tl_tensor *z = tl_zeros(TL_SHAPE(1, layers[l].width), TL_F32, TL_CPU);
        tl_release(z);
        tl_release(h);
        tl_release(x);
        x = y;
    }
    for (int l = n_layers - 1; l >= 0; l--) {
        tl_release(layers[l].wo);
        tl_release(layers[l].wq); /* the last one frees the stacked wq */
    }
    free(layers);
    tl_release(x);
    tl_release(wo);
    return 0;
}
