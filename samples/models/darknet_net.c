/*
 * darknet_net.c: a small image classifier written the way darknet writes a
 * network.  A layer is a struct with its type, sizes, weights and output,
 * and its forward function in a field (l->forward), chosen by the
 * make_*_layer constructor for its type; parse_network builds the network
 * from a list of layer specs (a cfg file's sections), adding each layer
 * with add_layer, whose array grows with realloc; forward_network calls
 * every layer through its pointer, and each layer keeps its output until
 * the next batch replaces it.  Sizes are small so the program runs in
 * milliseconds; the analysis follows every call through the pointers and
 * every handle through the grown array, and `tensorlint verify` agrees
 * with the run on every row.
 *
 *   build/tools/tensorlint report samples/models/darknet_net.c
 *   build/tools/tensorlint verify samples/models/darknet_net.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif

#define BATCH 2
#define BATCHES 3

typedef enum { CONVOLUTIONAL, CONNECTED, SOFTMAX } layer_type;

typedef struct layer layer;
typedef struct network network;

struct layer {
    layer_type type;
    int batch;
    int h, w, c;             /* input height, width, channels */
    int out_h, out_w, out_c;
    int size, stride, pad;   /* convolutional */
    int inputs, outputs;     /* per image */
    tl_tensor *weights, *biases;
    tl_tensor *output;
    void (*forward)(layer *l, network *net);
};

struct network {
    int n, cap;              /* layers, and room for them */
    layer *layers;
    tl_tensor *input;        /* what the layer being run reads */
};

/* One section of a cfg file: [convolutional] filters=8 size=3 ... */
typedef struct {
    layer_type type;
    int filters, size, stride, pad; /* convolutional */
    int output;                     /* connected */
} layer_spec;

static const layer_spec cfg[] = {
    {CONVOLUTIONAL, 8, 3, 1, 1, 0},
    {CONVOLUTIONAL, 16, 3, 2, 1, 0},
    {CONNECTED, 0, 0, 0, 0, 10},
    {SOFTMAX, 0, 0, 0, 0, 0},
};

static void set_output(layer *l, tl_tensor *y)
{
    if (l->output)
        tl_release(l->output);
    l->output = y;
}

static void forward_convolutional_layer(layer *l, network *net)
{
    tl_tensor *y = tl_conv2d(net->input, l->weights, l->stride, l->pad);
    tl_add_(y, l->biases);
    set_output(l, tl_relu(y));
    tl_release(y);
}

static void forward_connected_layer(layer *l, network *net)
{
    tl_tensor *x = tl_reshape(net->input, TL_SHAPE(l->batch, l->inputs));
    tl_tensor *y = tl_matmul(x, l->weights);
    tl_release(x);
    tl_add_(y, l->biases);
    set_output(l, y);
}

static void forward_softmax_layer(layer *l, network *net)
{
    set_output(l, tl_softmax(net->input, 1));
}

static layer make_convolutional_layer(int batch, int h, int w, int c, int n, int size,
                                      int stride, int pad)
{
    layer l = {0};
    l.type = CONVOLUTIONAL;
    l.batch = batch;
    l.h = h;
    l.w = w;
    l.c = c;
    l.out_c = n;
    l.size = size;
    l.stride = stride;
    l.pad = pad;
    l.out_h = (h + 2 * pad - size) / stride + 1;
    l.out_w = (w + 2 * pad - size) / stride + 1;
    l.inputs = h * w * c;
    l.outputs = l.out_h * l.out_w * n;
    l.weights = tl_randn(TL_SHAPE(n, c, size, size), TL_F32, DEVICE);
    l.biases = tl_zeros(TL_SHAPE(n, 1, 1), TL_F32, DEVICE);
    l.forward = forward_convolutional_layer;
    return l;
}

static layer make_connected_layer(int batch, int inputs, int outputs)
{
    layer l = {0};
    l.type = CONNECTED;
    l.batch = batch;
    l.h = l.w = l.out_h = l.out_w = 1;
    l.c = l.inputs = inputs;
    l.out_c = l.outputs = outputs;
    l.weights = tl_randn(TL_SHAPE(inputs, outputs), TL_F32, DEVICE);
    l.biases = tl_zeros(TL_SHAPE(outputs), TL_F32, DEVICE);
    l.forward = forward_connected_layer;
    return l;
}

static layer make_softmax_layer(int batch, int inputs)
{
    layer l = {0};
    l.type = SOFTMAX;
    l.batch = batch;
    l.h = l.w = l.out_h = l.out_w = 1;
    l.c = l.out_c = l.inputs = l.outputs = inputs;
    l.forward = forward_softmax_layer;
    return l;
}

static void add_layer(network *net, layer l)
{
    if (net->n == net->cap) {
        net->cap = net->cap ? 2 * net->cap : 2;
        net->layers = realloc(net->layers, (size_t)net->cap * sizeof(layer));
    }
    net->layers[net->n++] = l;
}

static network *parse_network(const layer_spec *specs, int n, int batch, int h, int w, int c)
{
    network *net = calloc(1, sizeof *net);
    printf("layer     filters  size        input                output\n");
    for (int i = 0; i < n; i++) {
        const layer_spec *s = &specs[i];
        layer l;
        switch (s->type) {
        case CONVOLUTIONAL:
            l = make_convolutional_layer(batch, h, w, c, s->filters, s->size, s->stride, s->pad);
            printf("%5d conv  %5d %2d x%2d /%2d  %4d x%4d x%4d   ->  %4d x%4d x%4d\n", i,
                   s->filters, s->size, s->size, s->stride, h, w, c, l.out_h, l.out_w, l.out_c);
            break;
        case CONNECTED:
            l = make_connected_layer(batch, h * w * c, s->output);
            printf("%5d connected                %4d  ->  %4d\n", i, h * w * c, s->output);
            break;
        default:
            l = make_softmax_layer(batch, h * w * c);
            printf("%5d softmax                              %4d\n", i, h * w * c);
            break;
        }
        add_layer(net, l);
        h = l.out_h;
        w = l.out_w;
        c = l.out_c;
    }
    return net;
}

/* Every layer reads what the one before it wrote: the network's output is
 * the last layer's, which the layer still holds. */
static tl_tensor *forward_network(network *net, tl_tensor *input)
{
    net->input = input;
    for (int i = 0; i < net->n; i++) {
        layer *l = &net->layers[i];
        l->forward(l, net);
        net->input = l->output;
    }
    return net->input;
}

static void free_network(network *net)
{
    for (int i = 0; i < net->n; i++) {
        layer *l = &net->layers[i];
        if (l->weights)
            tl_release(l->weights);
        if (l->biases)
            tl_release(l->biases);
        if (l->output)
            tl_release(l->output);
    }
    free(net->layers);
    free(net);
}

int main(void)
{
    network *net = parse_network(cfg, (int)(sizeof cfg / sizeof cfg[0]), BATCH, 16, 16, 3);
    for (int b = 0; b < BATCHES; b++) {
        tl_tensor *x = tl_randn(TL_SHAPE(BATCH, 3, 16, 16), TL_F32, DEVICE);
        tl_tensor *probs = forward_network(net, x);
        tl_tensor *best = tl_argmax(probs, 1, false);
        tl_release(best);
        tl_release(x);
    }
    free_network(net);
    return 0;
}
