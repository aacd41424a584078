/*
 * AdamW training steps (torch.optim.AdamW's update, decoupled weight decay)
 * over two parameters of a linear layer, small sizes.  The optimizer state
 * (m, v) is allocated once and updated in place; each step's temporaries
 * are released in the step.  The parameters are plain locals: the analysis
 * does not follow handles kept in structs or arrays yet, so the "struct of
 * parameters" of a real trainer is spelled out here.
 */
#include <math.h>
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

int main(void)
{
    tl_manual_seed(3);
    tl_tensor *w = tl_randn(TL_SHAPE(OUT, IN), TL_F32, DEVICE);
    tl_tensor *b = tl_zeros(TL_SHAPE(OUT), TL_F32, DEVICE);
    tl_tensor *mw = tl_zeros(TL_SHAPE(OUT, IN), TL_F32, DEVICE);
    tl_tensor *vw = tl_zeros(TL_SHAPE(OUT, IN), TL_F32, DEVICE);
    tl_tensor *mb = tl_zeros(TL_SHAPE(OUT), TL_F32, DEVICE);
    tl_tensor *vb = tl_zeros(TL_SHAPE(OUT), TL_F32, DEVICE);
    tl_tensor *x = tl_randn(TL_SHAPE(8, IN), TL_F32, DEVICE);
    for (int t = 1; t <= STEPS; t++) {
        /* the gradients of mean((x w^T + b)^2) / 2 with respect to w and b */
        tl_tensor *wt = tl_t(w);
        tl_tensor *y = tl_matmul(x, wt);
        tl_add_(y, b);
        tl_tensor *yt = tl_t(y);
        tl_tensor *gw = tl_matmul(yt, x);
        tl_mul_scalar_(gw, 1.0 / 8);
        tl_tensor *gb = tl_mean(y, 0, false);
        adamw(w, gw, mw, vw, t);
        adamw(b, gb, mb, vb, t);
        tl_release(wt);
        tl_release(y);
        tl_release(yt);
        tl_release(gw);
        tl_release(gb);
    }
    printf("w[0,0] %.6f  b[0] %.6f\n", tl_get(w, TL_SHAPE(0, 0)), tl_get(b, TL_SHAPE(0)));
    tl_release(x);
    tl_release(vb);
    tl_release(mb);
    tl_release(vw);
    tl_release(mw);
    tl_release(b);
    tl_release(w);
    return 0;
}
