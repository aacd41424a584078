/* A small classifier split as C projects split one: the weights (weights.c),
 * the layers (layers.c), the model that strings them (model.c) and the
 * driver (main.c).  Every function that returns a tensor gives its caller a
 * new handle to release. */
#ifndef NET_H
#define NET_H
#include <tensorlint/tensor.h>

#define NET_IN 784
#define NET_HIDDEN 256
#define NET_CLASSES 10

typedef struct net_weights {
    tl_tensor *w1, *b1; /* (NET_IN, NET_HIDDEN), (NET_HIDDEN) */
    tl_tensor *w2, *b2; /* (NET_HIDDEN, NET_CLASSES), (NET_CLASSES) */
} net_weights;

/* weights.c */
net_weights net_load(void);
void net_weights_free(net_weights *w);
/* layers.c */
tl_tensor *layer_dense(tl_tensor *x, tl_tensor *w, tl_tensor *b);
tl_tensor *layer_dense_relu(tl_tensor *x, tl_tensor *w, tl_tensor *b);
/* model.c */
tl_tensor *net_forward(const net_weights *w, tl_tensor *x);
#endif
