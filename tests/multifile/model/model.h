/* A two-layer model: weights made in model.c, layers in layers.c. */
#ifndef MODEL_H
#define MODEL_H
#include <tensorlint/tensor.h>

typedef struct model {
    tl_tensor *w1, *w2;
} model;

void model_init(model *m, int d, int h);
void model_free(model *m);
tl_tensor *model_forward(const model *m, tl_tensor *x);
tl_tensor *linear_relu(tl_tensor *x, tl_tensor *w);
tl_tensor *linear(tl_tensor *x, tl_tensor *w);
#endif
