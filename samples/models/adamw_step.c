/*
 * AdamW training steps (torch.optim.AdamW's update, decoupled weight decay)
 * over a struct of parameters, the way a C trainer keeps them: each
 * Param holds its value, its gradient and its optimizer state (m, v), a
 * Model holds an array of Params, the state is allocated once by
 * model_init and updated in place by optimizer_step, which walks the array
 * through a pointer.  Each step's temporaries are released in the step.
 * Small sizes.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif
#define IN 32
#define OUT 16
#define STEPS 3
#define LR 1e-3
#define BETA1 0.9
#define BETA2 0.999
#define EPS 1e-8
#define WEIGHT_DECAY 0.01

typedef struct {
    tl_tensor *value; /* the parameter */
    tl_tensor *grad;  /* its gradient, written by the backward pass each step */
    tl_tensor *m, *v; /* AdamW's first and second moments */
} Param;

enum { WEIGHT, BIAS, N_PARAMS };

typedef struct {
    Param params[N_PARAMS];
    int step; /* optimizer steps taken */
} Model;

/* A parameter of that shape (random or zero) and its zeroed state. */
static void param_init(Param *p, tl_ints shape, bool random)
{
    p->value = random ? tl_randn(shape, TL_F32, DEVICE) : tl_zeros(shape, TL_F32, DEVICE);
    p->grad = NULL;
    p->m = tl_zeros(shape, TL_F32, DEVICE);
    p->v = tl_zeros(shape, TL_F32, DEVICE);
}

static void model_init(Model *model)
{
    param_init(&model->params[WEIGHT], TL_SHAPE(OUT, IN), true);
    param_init(&model->params[BIAS], TL_SHAPE(OUT), false);
    model->step = 0;
}

static void model_free(Model *model)
{
    for (int k = 0; k < N_PARAMS; k++) {
        Param *p = &model->params[k];
        tl_release(p->value);
        tl_release(p->m);
        tl_release(p->v);
    }
}

/* One AdamW update of p with gradient g and state m, v at step t (1-based). */
static void adamw(tl_tensor *p, tl_tensor *g, tl_tensor *m, tl_tensor *v, int t)
{
    double bc1 = 1.0 - pow(BETA1, t), bc2 = 1.0 - pow(BETA2, t);
    tl_mul_scalar_(p, 1.0 - LR * WEIGHT_DECAY); /* decoupled weight decay */
    tl_mul_scalar_(m, BETA1);                   /* m = b1 m + (1 - b1) g */
    tl_tensor *gm = tl_mul_scalar(g, 1.0 - BETA1);
    tl_add_(m, gm);
    tl_mul_scalar_(v, BETA2);                   /* v = b2 v + (1 - b2) g^2 */
    tl_tensor *g2 = tl_mul(g, g);
    tl_mul_scalar_(g2, 1.0 - BETA2);
    tl_add_(v, g2);
    tl_tensor *vhat = tl_div_scalar(v, bc2);    /* p -= lr m^ / (sqrt(v^) + eps) */
    tl_tensor *denom = tl_sqrt(vhat);
    tl_add_scalar_(denom, EPS);
    tl_tensor *step = tl_div(m, denom);
    tl_mul_scalar_(step, -LR / bc1);
    tl_add_(p, step);
    tl_release(gm);
    tl_release(g2);
    tl_release(vhat);
    tl_release(denom);
    tl_release(step);
}

/* The gradients of mean((x w^T + b)^2) / 2 with respect to w and b, into
 * each parameter's grad. */
static void backward(Model *model, tl_tensor *x)
{
    tl_tensor *w = model->params[WEIGHT].value, *b = model->params[BIAS].value;
    tl_tensor *wt = tl_t(w);
    tl_tensor *y = tl_matmul(x, wt);
    tl_add_(y, b);
    tl_tensor *yt = tl_t(y);
    model->params[WEIGHT].grad = tl_matmul(yt, x);
    tl_mul_scalar_(model->params[WEIGHT].grad, 1.0 / 8);
    model->params[BIAS].grad = tl_mean(y, 0, false);
    tl_release(wt);
    tl_release(y);
    tl_release(yt);
}

static void optimizer_step(Model *model)
{
    model->step++;
    for (Param *p = model->params; p < model->params + N_PARAMS; p++) {
        adamw(p->value, p->grad, p->m, p->v, model->step);
        tl_release(p->grad);
        p->grad = NULL;
    }
}

int main(void)
{
    Model model;
    tl_manual_seed(3);
    model_init(&model);
    tl_tensor *x = tl_randn(TL_SHAPE(8, IN), TL_F32, DEVICE);
    for (int t = 1; t <= STEPS; t++) {
        backward(&model, x);
        optimizer_step(&model);
    }
    printf("w[0,0] %.6f  b[0] %.6f\n", tl_get(model.params[WEIGHT].value, TL_SHAPE(0, 0)),
           tl_get(model.params[BIAS].value, TL_SHAPE(0)));
    tl_release(x);
    model_free(&model);
    return 0;
}
