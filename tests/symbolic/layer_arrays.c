/* Per-layer weights in arrays, as C inference code keeps them: a struct of
 * arrays of tensors (malloc'd for n_layers, read from the command line),
 * each layer's weights allocated in a loop, a per-layer width kept in an
 * int array, every layer used at every step, and everything released in
 * a loop before the arrays are freed.  Each loop is summarised: the
 * arrays hold n_layers alike elements, and the totals are formulas. */
// bind: n_layers dim steps
// values: 1 3 2 | 3 5 1 | 4 2 3
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct {
    tl_tensor **wq;   /* (dim, dim) per layer */
    tl_tensor **w1;   /* (dim, 2*dim) per layer */
    tl_tensor **w2;   /* (2*dim, dim) per layer */
    int *width;       /* 2*dim per layer */
} weights;

static void alloc_weights(weights *w, int n_layers, int dim)
{
    w->wq = malloc(sizeof *w->wq * (size_t)n_layers);
    w->w1 = malloc(sizeof *w->w1 * (size_t)n_layers);
    w->w2 = malloc(sizeof *w->w2 * (size_t)n_layers);
    w->width = malloc(sizeof *w->width * (size_t)n_layers);
    for (int l = 0; l < n_layers; l++) {
        w->wq[l] = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
        w->w1[l] = tl_randn(TL_SHAPE(dim, 2 * dim), TL_F32, TL_CPU);
        w->w2[l] = tl_randn(TL_SHAPE(2 * dim, dim), TL_F32, TL_CPU);
        w->width[l] = 2 * dim;
    }
}

static void free_weights(weights *w, int n_layers)
{
    for (int l = 0; l < n_layers; l++) {
        tl_release(w->wq[l]);
        tl_release(w->w1[l]);
        tl_release(w->w2[l]);
    }
    free(w->wq);
    free(w->w1);
    free(w->w2);
    free(w->width);
}

static tl_tensor *layer(const weights *w, int l, tl_tensor *x)
{
    tl_tensor *q = tl_matmul(x, w->wq[l]);
    tl_tensor *h = tl_matmul(q, w->w1[l]);
    tl_tensor *a = tl_silu(h);
    tl_tensor *part = tl_narrow(a, 1, 0, w->width[l]);
    tl_tensor *y = tl_matmul(part, w->w2[l]);
    tl_release(part);
    tl_release(a);
    tl_release(h);
    tl_release(q);
    return y;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int n_layers = atoi(argv[1]);
    int dim = atoi(argv[2]);
    int steps = atoi(argv[3]);
    weights w;
    alloc_weights(&w, n_layers, dim);
    tl_tensor *x = tl_ones(TL_SHAPE(1, dim), TL_F32, TL_CPU);
    for (int t = 0; t < steps; t++) {
        for (int l = 0; l < n_layers; l++) {
            tl_tensor *y = layer(&w, l, x);
            tl_release(x);
            x = y;
        }
    }
    tl_release(x);
    free_weights(&w, n_layers);
    return 0;
}
