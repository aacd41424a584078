/*
 * A tiny GPT-2-like language model trained the way llm.c's train_gpt2.c
 * trains one: parameters, gradients, AdamW's moments, activations and
 * their gradients are views carved from one flat buffer each; the forward
 * and the backward are written by hand; AdamW updates the flat buffers in
 * place; a data loader reads batches of tokens from a token file.
 *
 * The model: token and position embeddings, one residual MLP block with
 * GPT-2's tanh gelu (fc: C -> 4C, proj: 4C -> C), the head tied to the
 * token embedding, cross_entropy over the next token.  (No attention and
 * no layernorm: the ops of a training step, at a size that runs in a
 * test.)  train_tiny.py is its PyTorch twin: same init, same data, autograd
 * for the backward; tests/fixtures/train_tiny_losses.txt holds its losses.
 *
 * Usage: train_tiny [TOKENS_FILE]  (default train_tiny.tokens; made and
 * written when it is missing).  Prints "step S loss L" per step.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif
#define V 32      /* vocabulary */
#define T 8       /* sequence length */
#define B 4       /* batch */
#define C 16      /* channels */
#define H (4 * C) /* the MLP's hidden width */
#define BT (B * T)
#define N_TOKENS 1024
#define STEPS 10
#define LR 1e-2
#define BETA1 0.9
#define BETA2 0.999
#define EPS 1e-8
#define WEIGHT_DECAY 0.01

/* Offsets (elements) of each parameter in the flat buffers. */
enum {
    P_WTE = 0,
    P_WPE = P_WTE + V * C,
    P_FCW = P_WPE + T * C,
    P_FCB = P_FCW + C * H,
    P_PROJW = P_FCB + H,
    P_PROJB = P_PROJW + H * C,
    N_PARAMS = P_PROJB + C
};

/* Offsets (elements) of each activation in the flat activation buffers. */
enum {
    A_ENC = 0,
    A_FCH = A_ENC + BT * C,
    A_FCHG = A_FCH + BT * H,
    A_PROJ = A_FCHG + BT * H,
    A_RES = A_PROJ + BT * C,
    A_LOGITS = A_RES + BT * C,
    N_ACTS = A_LOGITS + BT * V
};

typedef struct {
    tl_tensor *wte, *wpe, *fcw, *fcb, *projw, *projb;
} params;

typedef struct {
    tl_tensor *enc, *fch, *fchg, *proj, *res, *logits;
} acts;

/* The view of n elements at off of a flat buffer, shaped (rows, cols) or (cols,). */
static tl_tensor *carve(tl_tensor *flat, int64_t off, int64_t rows, int64_t cols)
{
    tl_tensor *part = tl_narrow(flat, 0, off, rows > 0 ? rows * cols : cols);
    tl_tensor *v = rows > 0 ? tl_view(part, TL_SHAPE(rows, cols)) : tl_view(part, TL_SHAPE(cols));
    tl_release(part);
    return v;
}

static params carve_params(tl_tensor *flat)
{
    params p = {carve(flat, P_WTE, V, C), carve(flat, P_WPE, T, C), carve(flat, P_FCW, C, H),
                carve(flat, P_FCB, 0, H), carve(flat, P_PROJW, H, C), carve(flat, P_PROJB, 0, C)};
    return p;
}

static void release_params(params *p)
{
    tl_release(p->wte);
    tl_release(p->wpe);
    tl_release(p->fcw);
    tl_release(p->fcb);
    tl_release(p->projw);
    tl_release(p->projb);
}

static acts carve_acts(tl_tensor *flat)
{
    acts a = {carve(flat, A_ENC, BT, C), carve(flat, A_FCH, BT, H), carve(flat, A_FCHG, BT, H),
              carve(flat, A_PROJ, BT, C), carve(flat, A_RES, BT, C), carve(flat, A_LOGITS, BT, V)};
    return a;
}

static void release_acts(acts *a)
{
    tl_release(a->enc);
    tl_release(a->fch);
    tl_release(a->fchg);
    tl_release(a->proj);
    tl_release(a->res);
    tl_release(a->logits);
}

/* ---- data ---- */

/* The token sequence: N_TOKENS tokens with structure a model can learn
 * (each token mostly follows from the one before), from a fixed 32-bit LCG. */
static void make_tokens(int32_t *out)
{
    uint32_t state = 12345u;
    int32_t tok = 0;
    for (int i = 0; i < N_TOKENS; i++) {
        state = state * 1103515245u + 12345u;
        tok = (state >> 16) % 8 == 0 ? (int32_t)((state >> 8) % V) : (tok * 5 + 3) % V;
        out[i] = tok;
    }
}

typedef struct {
    int64_t tokens[N_TOKENS]; /* the whole file, widened to I64 */
    int64_t n, pos;
} loader;

/* Reads the token file (int32 tokens); where it is missing or short, makes
 * the tokens and writes the file for the next run. */
static void loader_open(loader *l, const char *path)
{
    static int32_t raw[N_TOKENS];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(raw, sizeof raw[0], N_TOKENS, f) : 0;
    if (f)
        fclose(f);
    if (n < N_TOKENS) {
        make_tokens(raw);
        FILE *w = fopen(path, "wb");
        if (w) {
            fwrite(raw, sizeof raw[0], N_TOKENS, w);
            fclose(w);
        }
    }
    for (int k = 0; k < N_TOKENS; k++)
        l->tokens[k] = raw[k];
    l->n = N_TOKENS;
    l->pos = 0;
}

/* The next batch: inputs and targets (shifted by one), I64 (BT,). */
static void loader_next(loader *l, tl_tensor **x, tl_tensor **y)
{
    if (l->pos + BT + 1 > l->n)
        l->pos = 0;
    *x = tl_from_data(l->tokens + l->pos, TL_SHAPE(BT), TL_I64, DEVICE);
    *y = tl_from_data(l->tokens + l->pos + 1, TL_SHAPE(BT), TL_I64, DEVICE);
    l->pos += BT;
}

/* ---- the model ---- */

/* Deterministic init: 0.02 sin(0.37 i + 1), biases 0 (the twin's too). */
static tl_tensor *init_params(void)
{
    static float host[N_PARAMS];
    for (int i = 0; i < N_PARAMS; i++)
        host[i] = (i >= P_FCB && i < P_PROJW) || i >= P_PROJB ? 0.0f
                                                              : (float)(0.02 * sin(0.37 * i + 1.0));
    tl_tensor *init = tl_from_data(host, TL_SHAPE(N_PARAMS), TL_F32, DEVICE);
    tl_tensor *flat = tl_zeros(TL_SHAPE(N_PARAMS), TL_F32, DEVICE);
    tl_copy_(flat, init);
    tl_release(init);
    return flat;
}

/* The forward pass into the activations; the mean loss. */
static double forward(const params *p, const acts *a, tl_tensor *x, tl_tensor *y)
{
    tl_tensor *tok = tl_index_select(p->wte, 0, x);
    tl_copy_(a->enc, tok);
    tl_release(tok);
    tl_tensor *enc3 = tl_view(a->enc, TL_SHAPE(B, T, C));
    tl_add_(enc3, p->wpe);
    tl_release(enc3);
    tl_matmul_out(a->fch, a->enc, p->fcw);
    tl_add_(a->fch, p->fcb);
    tl_tensor *g = tl_gelu_tanh(a->fch);
    tl_copy_(a->fchg, g);
    tl_release(g);
    tl_matmul_out(a->proj, a->fchg, p->projw);
    tl_add_(a->proj, p->projb);
    tl_copy_(a->res, a->enc);
    tl_add_(a->res, a->proj);
    tl_tensor *wte_t = tl_t(p->wte);
    tl_matmul_out(a->logits, a->res, wte_t);
    tl_release(wte_t);
    tl_tensor *loss = tl_cross_entropy(a->logits, y, -100);
    double value = tl_get(loss, TL_SHAPE0);
    tl_release(loss);
    return value;
}

/* d gelu_tanh(x) / dx = 0.5 (1 + th) + 0.5 x (1 - th^2) s (1 + 3k x^2),
 * th = tanh(s (x + k x^3)), s = sqrt(2 / pi), k = 0.044715. */
static tl_tensor *gelu_tanh_grad(tl_tensor *x)
{
    const double s = sqrt(2.0 / 3.14159265358979323846), k = 0.044715;
    tl_tensor *x2 = tl_mul(x, x);
    tl_tensor *x3 = tl_mul(x2, x);
    tl_mul_scalar_(x3, k);
    tl_add_(x3, x);
    tl_mul_scalar_(x3, s);
    tl_tensor *th = tl_tanh(x3);
    tl_tensor *sech2 = tl_mul(th, th);
    tl_mul_scalar_(sech2, -1.0);
    tl_add_scalar_(sech2, 1.0);
    tl_mul_scalar_(x2, 3.0 * k);
    tl_add_scalar_(x2, 1.0);
    tl_mul_scalar_(x2, s);
    tl_mul_(sech2, x2);
    tl_mul_(sech2, x);
    tl_mul_scalar_(sech2, 0.5);
    tl_add_scalar_(th, 1.0);
    tl_mul_scalar_(th, 0.5);
    tl_add_(th, sech2);
    tl_release(sech2);
    tl_release(x3);
    tl_release(x2);
    return th;
}

/* grad += a^T @ b (a weight's gradient). */
static void accumulate_matmul_t(tl_tensor *grad, tl_tensor *a, tl_tensor *b)
{
    tl_tensor *at = tl_t(a);
    tl_tensor *prod = tl_matmul(at, b);
    tl_add_(grad, prod);
    tl_release(prod);
    tl_release(at);
}

/* grad += the sum of d over its rows (a bias's gradient). */
static void accumulate_rows(tl_tensor *grad, tl_tensor *d)
{
    tl_tensor *s = tl_sum(d, 0, false);
    tl_add_(grad, s);
    tl_release(s);
}

/* The backward pass: the activations' gradients into da, the parameters'
 * accumulated into g. */
static void backward(const params *p, const acts *a, const params *g, const acts *da,
                     tl_tensor *x, tl_tensor *y)
{
    /* cross_entropy: (softmax(logits) - one_hot(y)) / BT, the -1 added at
     * row * V + y of the flat gradient */
    tl_tensor *probs = tl_softmax(a->logits, 1);
    tl_copy_(da->logits, probs);
    tl_release(probs);
    tl_tensor *rows = tl_arange(BT, TL_I64, DEVICE);
    tl_tensor *width = tl_full(TL_SHAPE0, V, TL_I64, DEVICE);
    tl_tensor *at = tl_mul(rows, width);
    tl_add_(at, y);
    tl_tensor *minus = tl_full(TL_SHAPE(BT), -1.0, TL_F32, DEVICE);
    tl_tensor *flat = tl_view(da->logits, TL_SHAPE(BT * V));
    tl_index_add_(flat, 0, at, minus);
    tl_release(flat);
    tl_release(minus);
    tl_release(at);
    tl_release(width);
    tl_release(rows);
    tl_mul_scalar_(da->logits, 1.0 / BT);
    /* the tied head: logits = res @ wte^T */
    tl_matmul_out(da->res, da->logits, p->wte);
    accumulate_matmul_t(g->wte, da->logits, a->res);
    /* the residual: res = enc + proj */
    tl_copy_(da->proj, da->res);
    tl_copy_(da->enc, da->res);
    /* proj = fchg @ projw + projb */
    accumulate_matmul_t(g->projw, a->fchg, da->proj);
    accumulate_rows(g->projb, da->proj);
    tl_tensor *projw_t = tl_t(p->projw);
    tl_matmul_out(da->fchg, da->proj, projw_t);
    tl_release(projw_t);
    /* fchg = gelu_tanh(fch) */
    tl_tensor *local = gelu_tanh_grad(a->fch);
    tl_copy_(da->fch, da->fchg);
    tl_mul_(da->fch, local);
    tl_release(local);
    /* fch = enc @ fcw + fcb */
    accumulate_matmul_t(g->fcw, a->enc, da->fch);
    accumulate_rows(g->fcb, da->fch);
    tl_tensor *fcw_t = tl_t(p->fcw);
    tl_tensor *denc = tl_matmul(da->fch, fcw_t);
    tl_add_(da->enc, denc);
    tl_release(denc);
    tl_release(fcw_t);
    /* enc = wte[x] + wpe */
    tl_index_add_(g->wte, 0, x, da->enc);
    tl_tensor *denc3 = tl_view(da->enc, TL_SHAPE(B, T, C));
    accumulate_rows(g->wpe, denc3);
    tl_release(denc3);
}

/* torch.optim.AdamW's update over the flat buffers, in place. */
static void adamw(tl_tensor *param, tl_tensor *grad, tl_tensor *m, tl_tensor *v, int t)
{
    double bc1 = 1.0 - pow(BETA1, t), bc2 = 1.0 - pow(BETA2, t);
    tl_mul_scalar_(param, 1.0 - LR * WEIGHT_DECAY);
    tl_lerp_(m, grad, 1.0 - BETA1);
    tl_mul_scalar_(v, BETA2);
    tl_addcmul_(v, grad, grad, 1.0 - BETA2);
    tl_tensor *denom = tl_clone(v);
    tl_sqrt_(denom);
    tl_tensor *bc2_sqrt = tl_scalar(sqrt(bc2), TL_F32, DEVICE);
    tl_div_(denom, bc2_sqrt);
    tl_release(bc2_sqrt);
    tl_add_scalar_(denom, EPS);
    tl_addcdiv_(param, m, denom, -LR / bc1);
    tl_release(denom);
}

int main(int argc, char **argv)
{
    static loader data;
    loader_open(&data, argc > 1 ? argv[1] : "train_tiny.tokens");
    tl_tensor *params_memory = init_params();
    tl_tensor *grads_memory = tl_zeros(TL_SHAPE(N_PARAMS), TL_F32, DEVICE);
    tl_tensor *m_memory = tl_zeros(TL_SHAPE(N_PARAMS), TL_F32, DEVICE);
    tl_tensor *v_memory = tl_zeros(TL_SHAPE(N_PARAMS), TL_F32, DEVICE);
    tl_tensor *acts_memory = tl_zeros(TL_SHAPE(N_ACTS), TL_F32, DEVICE);
    tl_tensor *grads_acts_memory = tl_zeros(TL_SHAPE(N_ACTS), TL_F32, DEVICE);
    params p = carve_params(params_memory), g = carve_params(grads_memory);
    acts a = carve_acts(acts_memory), da = carve_acts(grads_acts_memory);
    for (int step = 1; step <= STEPS; step++) {
        tl_tensor *x, *y;
        loader_next(&data, &x, &y);
        double loss = forward(&p, &a, x, y);
        tl_zero_(grads_memory);
        backward(&p, &a, &g, &da, x, y);
        adamw(params_memory, grads_memory, m_memory, v_memory, step);
        printf("step %d loss %.9g\n", step, loss);
        tl_release(y);
        tl_release(x);
    }
    release_acts(&da);
    release_acts(&a);
    release_params(&g);
    release_params(&p);
    tl_release(grads_acts_memory);
    tl_release(acts_memory);
    tl_release(v_memory);
    tl_release(m_memory);
    tl_release(grads_memory);
    tl_release(params_memory);
    return 0;
}
