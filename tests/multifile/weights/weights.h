/* Weights loaded in weights.c, used in infer.c. */
#ifndef WEIGHTS_H
#define WEIGHTS_H
#include <tensorlint/tensor.h>

typedef struct weights {
    tl_tensor *embed; /* (vocab, dim) */
    tl_tensor *proj;  /* (dim, dim) */
} weights;

weights load_weights(int vocab, int dim);
void free_weights(weights *w);
tl_tensor *infer(const weights *w, tl_tensor *tokens_onehot);
#endif
