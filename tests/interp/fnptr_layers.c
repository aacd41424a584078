/* Function pointers in struct fields, darknet's l->forward: set in a
 * constructor loop for layers of two kinds, then called through in another
 * loop.  Each call runs the function the field names when it runs, exactly
 * as a direct call of it. */
#include <stdlib.h>
#include <tensorlint/tensor.h>

typedef struct layer layer;
struct layer {
    tl_tensor *w;
    tl_tensor *(*forward)(layer *l, tl_tensor *x);
};

static tl_tensor *dense_forward(layer *l, tl_tensor *x)
{
    return tl_matmul(x, l->w); // expected: - op=matmul shape=(2, 8) bytes=64 moved=384 exec=2
}

static tl_tensor *relu_forward(layer *l, tl_tensor *x)
{
    (void)l;
    return tl_relu(x); // expected: - op=relu shape=(2, 8) bytes=64 moved=128 exec=2
}

static void make_layers(layer *ls, int n)
{
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0) {
            ls[i].w = tl_randn(TL_SHAPE(8, 8), TL_F32, TL_CPU); // expected: ls[i].w bytes=256 exec=2 freed=52
            ls[i].forward = dense_forward;
        } else {
            ls[i].w = NULL;
            ls[i].forward = relu_forward;
        }
    }
}

int main(void) // expected-func: peak=640 end=0 moved=1600 peak-line=45 calls=7
{
    layer *layers = malloc(4 * sizeof *layers);
    make_layers(layers, 4);
    tl_tensor *x = tl_ones(TL_SHAPE(2, 8), TL_F32, TL_CPU); // expected: x bytes=64 freed=46
    for (int i = 0; i < 4; i++) {
        layer *l = &layers[i];
        tl_tensor *y = l->forward(l, x);
        tl_release(x);
        x = y;
    }
    tl_release(x);
    for (int i = 0; i < 4; i++)
        if (layers[i].w)
            tl_release(layers[i].w);
    free(layers);
    return 0;
}
