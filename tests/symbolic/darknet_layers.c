/* A network as darknet writes it: a struct with a count and an array of
 * layer structs, each made by a constructor that returns the struct by
 * value (copied into the array through a temporary); the forward pass walks
 * a pointer to each layer and writes each output in place (out=), the
 * previous layer's output its input. */
// bind: net.n net.batch width
// values: 1 2 3 | 3 5 2 | 4 2 7
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct layer {
    int inputs, outputs;
    tl_tensor *weights;
    tl_tensor *output;
} layer;

typedef struct network {
    int n;
    layer *layers;
    int batch;
} network;

static layer make_connected_layer(int batch, int inputs, int outputs)
{
    layer l;
    l.inputs = inputs;
    l.outputs = outputs;
    l.weights = tl_randn(TL_SHAPE(outputs, inputs), TL_F32, TL_CPU);
    l.output = tl_zeros(TL_SHAPE(batch, outputs), TL_F32, TL_CPU);
    return l;
}

static void forward_network(network *net, tl_tensor *input)
{
    tl_tensor *x = input;
    for (int i = 0; i < net->n; i++) {
        layer *l = &net->layers[i];
        tl_tensor *wt = tl_transpose(l->weights, 0, 1);
        tl_matmul_out(l->output, x, wt);
        tl_release(wt);
        x = l->output;
    }
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    network net;
    net.n = atoi(argv[1]);
    net.batch = atoi(argv[2]);
    int width = atoi(argv[3]);
    net.layers = calloc((size_t)net.n, sizeof(layer));
    for (int i = 0; i < net.n; i++)
        net.layers[i] = make_connected_layer(net.batch, width, width);
    tl_tensor *in = tl_randn(TL_SHAPE(net.batch, width), TL_F32, TL_CPU);
    forward_network(&net, in);
    for (int i = 0; i < net.n; i++) {
        tl_release(net.layers[i].weights);
        tl_release(net.layers[i].output);
    }
    free(net.layers);
    tl_release(in);
    return 0;
}
