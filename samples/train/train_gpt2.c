/*
 * A GPT-2 trained the way llm.c's train_gpt2.c trains one, at a tiny size:
 * token and position embeddings, L blocks of (layernorm, causal
 * self-attention, residual, layernorm, MLP with GPT-2's tanh gelu,
 * residual), a final layernorm, the head tied to the token embedding and
 * cross_entropy over the next token.  Parameters, their gradients and
 * AdamW's two moments are flat buffers with every parameter a view into
 * them; the activations the backward needs are allocated on the first
 * forward call; the backward is written by hand with tensor ops; a data
 * loader reads the token file (train and validation splits); every
 * EVAL_EVERY steps the validation loss is printed.
 *
 * train_gpt2.py is its PyTorch twin (same init, same data, autograd for
 * the backward); tests/fixtures/train_gpt2_losses.txt holds its losses.
 *
 * Usage: train_gpt2 [TOKENS_FILE]  (default train_gpt2.tokens; made and
 * written when it is missing).  Prints "step S loss L" per step and
 * "val S loss L" at each evaluation.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif
#define V 32       /* vocabulary */
#define T 8        /* sequence length */
#define B 2        /* batch */
#define C 16       /* channels */
#define NH 2       /* heads */
#define HS (C / NH) /* head size */
#define L 2        /* blocks */
#define H (4 * C)  /* the MLP's hidden width */
#define BT (B * T)
#define N_TOKENS 1024
#define N_VAL 256 /* the last N_VAL tokens are the validation split */
#define VAL_BATCHES 2
#define EVAL_EVERY 5
#define STEPS 10
#define LR 1e-2
#define BETA1 0.9
#define BETA2 0.999
#define EPS 1e-8
#define WEIGHT_DECAY 0.01
#define LN_EPS 1e-5

/* The parameter tensors, in the order of the flat buffer. */
enum { LN1W, LN1B, QKVW, QKVB, APW, APB, LN2W, LN2B, FCW, FCB, FPW, FPB, PER_LAYER };
enum { WTE = 0, WPE = 1, LAYER0 = 2, LNFW = LAYER0 + L * PER_LAYER, LNFB, N_PT };

/* Parameter k's shape: rows (0 for a vector) and cols. */
static void param_shape(int k, int64_t *rows, int64_t *cols)
{
    static const int64_t layer[PER_LAYER][2] = {
        {0, C}, {0, C}, {C, 3 * C}, {0, 3 * C}, {C, C}, {0, C},
        {0, C}, {0, C}, {C, H},     {0, H},     {H, C}, {0, C}};
    if (k == WTE || k == WPE) {
        *rows = k == WTE ? V : T, *cols = C;
    } else if (k >= LNFW) {
        *rows = 0, *cols = C;
    } else {
        *rows = layer[(k - LAYER0) % PER_LAYER][0], *cols = layer[(k - LAYER0) % PER_LAYER][1];
    }
}

static int64_t param_numel(int k)
{
    int64_t rows, cols;
    param_shape(k, &rows, &cols);
    return rows > 0 ? rows * cols : cols;
}

static int64_t total_params(void)
{
    int64_t n = 0;
    for (int k = 0; k < N_PT; k++)
        n += param_numel(k);
    return n;
}

typedef struct {
    tl_tensor *t[N_PT];
} params;

/* Every parameter as a view of the flat buffer. */
static params carve_params(tl_tensor *flat)
{
    params p;
    int64_t off = 0;
    for (int k = 0; k < N_PT; k++) {
        int64_t rows, cols, n = param_numel(k);
        param_shape(k, &rows, &cols);
        tl_tensor *part = tl_narrow(flat, 0, off, n);
        p.t[k] = rows > 0 ? tl_view(part, TL_SHAPE(rows, cols)) : tl_view(part, TL_SHAPE(cols));
        tl_release(part);
        off += n;
    }
    return p;
}

static void release_params(params *p)
{
    for (int k = 0; k < N_PT; k++)
        tl_release(p->t[k]);
}

/* Layer l's parameter k. */
#define LP(p, l, k) ((p)->t[LAYER0 + (l) * PER_LAYER + (k)])

/* What the backward needs of one block's forward. */
typedef struct {
    tl_tensor *x;                      /* the block's input (BT, C) */
    tl_tensor *ln1_xhat, *ln1_rstd, *ln1; /* (BT, C), (BT, 1), (BT, C) */
    tl_tensor *qkv;                    /* (BT, 3C) */
    tl_tensor *att;                    /* the attention's probabilities (B, NH, T, T) */
    tl_tensor *y;                      /* the heads' outputs, (BT, C) */
    tl_tensor *res1;                   /* x + the attention's projection */
    tl_tensor *ln2_xhat, *ln2_rstd, *ln2;
    tl_tensor *fch, *fchg;             /* (BT, H) before and after gelu */
} block_acts;

typedef struct {
    params p, g;
    tl_tensor *params_memory, *grads_memory, *m_memory, *v_memory;
    int acts_ready;
    block_acts blk[L];
    tl_tensor *resid;                  /* the last block's output (BT, C) */
    tl_tensor *lnf_xhat, *lnf_rstd, *lnf, *logits;
    tl_tensor *mask;                   /* (T, T) BOOL: true above the diagonal */
} model;

/* ---- data ---- */

/* The token sequence: N_TOKENS tokens with structure a model can learn
 * (each token mostly follows from the one before), from a fixed 32-bit LCG. */
static void make_tokens(int32_t *out)
{
    uint32_t state = 4242u;
    int32_t tok = 1;
    for (int i = 0; i < N_TOKENS; i++) {
        state = state * 1103515245u + 12345u;
        tok = (state >> 16) % 6 == 0 ? (int32_t)((state >> 8) % V) : (tok * 7 + 5) % V;
        out[i] = tok;
    }
}

typedef struct {
    const int64_t *tokens;
    int64_t n, pos;
} loader;

/* Reads the token file (int32 tokens) into tokens; where it is missing or
 * short, makes the tokens and writes the file for the next run. */
static void read_tokens(const char *path, int64_t *tokens)
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
        tokens[k] = raw[k];
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

/* ---- the model's parameters ---- */

/* Deterministic init (the twin's too): layernorm weights 1, biases 0, the
 * rest 0.02 sin(0.37 i + 1) with i the element's index in the flat buffer. */
static tl_tensor *init_params(void)
{
    int64_t n = total_params(), off = 0;
    float *host = malloc((size_t)n * sizeof *host);
    if (!host)
        exit(1);
    for (int k = 0; k < N_PT; k++) {
        int64_t rows, cols, kk = k < LAYER0 || k >= LNFW ? k : (k - LAYER0) % PER_LAYER;
        param_shape(k, &rows, &cols);
        int ln_weight = k == LNFW || (k >= LAYER0 && k < LNFW && (kk == LN1W || kk == LN2W));
        for (int64_t i = off; i < off + param_numel(k); i++)
            host[i] = ln_weight ? 1.0f : rows == 0 ? 0.0f : (float)(0.02 * sin(0.37 * (double)i + 1.0));
        off += param_numel(k);
    }
    tl_tensor *flat = tl_from_data(host, TL_SHAPE(n), TL_F32, DEVICE);
    free(host);
    return flat;
}

static void model_init(model *m)
{
    int64_t n = total_params();
    m->params_memory = init_params();
    m->grads_memory = tl_zeros(TL_SHAPE(n), TL_F32, DEVICE);
    m->m_memory = tl_zeros(TL_SHAPE(n), TL_F32, DEVICE);
    m->v_memory = tl_zeros(TL_SHAPE(n), TL_F32, DEVICE);
    m->p = carve_params(m->params_memory);
    m->g = carve_params(m->grads_memory);
    m->acts_ready = 0;
}

/* The activations, allocated on the first forward call. */
static void alloc_acts(model *m)
{
    for (int l = 0; l < L; l++) {
        block_acts *a = &m->blk[l];
        a->x = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
        a->ln1_xhat = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
        a->ln1_rstd = tl_zeros(TL_SHAPE(BT, 1), TL_F32, DEVICE);
        a->ln1 = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
        a->qkv = tl_zeros(TL_SHAPE(BT, 3 * C), TL_F32, DEVICE);
        a->att = tl_zeros(TL_SHAPE(B, NH, T, T), TL_F32, DEVICE);
        a->y = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
        a->res1 = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
        a->ln2_xhat = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
        a->ln2_rstd = tl_zeros(TL_SHAPE(BT, 1), TL_F32, DEVICE);
        a->ln2 = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
        a->fch = tl_zeros(TL_SHAPE(BT, H), TL_F32, DEVICE);
        a->fchg = tl_zeros(TL_SHAPE(BT, H), TL_F32, DEVICE);
    }
    m->resid = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
    m->lnf_xhat = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
    m->lnf_rstd = tl_zeros(TL_SHAPE(BT, 1), TL_F32, DEVICE);
    m->lnf = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
    m->logits = tl_zeros(TL_SHAPE(BT, V), TL_F32, DEVICE);
    tl_tensor *rows = tl_arange(T, TL_I64, DEVICE);
    tl_tensor *r2 = tl_view(rows, TL_SHAPE(T, 1));
    tl_tensor *c2 = tl_view(rows, TL_SHAPE(1, T));
    m->mask = tl_lt(r2, c2);
    tl_release(c2);
    tl_release(r2);
    tl_release(rows);
    m->acts_ready = 1;
}

static void free_acts(model *m)
{
    if (!m->acts_ready)
        return;
    for (int l = 0; l < L; l++) {
        block_acts *a = &m->blk[l];
        tl_tensor *all[] = {a->x,   a->ln1_xhat, a->ln1_rstd, a->ln1,      a->qkv,
                            a->att, a->y,        a->res1,     a->ln2_xhat, a->ln2_rstd,
                            a->ln2, a->fch,      a->fchg};
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
            tl_release(all[k]);
    }
    tl_release(m->resid);
    tl_release(m->lnf_xhat);
    tl_release(m->lnf_rstd);
    tl_release(m->lnf);
    tl_release(m->logits);
    tl_release(m->mask);
    m->acts_ready = 0;
}

static void model_free(model *m)
{
    free_acts(m);
    release_params(&m->g);
    release_params(&m->p);
    tl_release(m->v_memory);
    tl_release(m->m_memory);
    tl_release(m->grads_memory);
    tl_release(m->params_memory);
}

/* ---- forward ---- */

/* out = (x - mean) rstd w + b over the channels; xhat and rstd kept. */
static void layernorm_forward(tl_tensor *out, tl_tensor *xhat, tl_tensor *rstd, tl_tensor *x,
                              tl_tensor *w, tl_tensor *b)
{
    tl_tensor *mean = tl_mean(x, 1, true);
    tl_tensor *xc = tl_sub(x, mean);
    tl_tensor *sq = tl_mul(xc, xc);
    tl_tensor *var = tl_mean(sq, 1, true);
    tl_add_scalar_(var, LN_EPS);
    tl_tensor *r = tl_rsqrt(var);
    tl_mul_(xc, r);
    tl_copy_(xhat, xc);
    tl_copy_(rstd, r);
    tl_mul_(xc, w);
    tl_add_(xc, b);
    tl_copy_(out, xc);
    tl_release(r);
    tl_release(var);
    tl_release(sq);
    tl_release(xc);
    tl_release(mean);
}

/* Head view k (0: q, 1: k, 2: v) of qkv (BT, 3C): (B, NH, T, HS). */
static tl_tensor *heads(tl_tensor *qkv, int k)
{
    tl_tensor *q3 = tl_view(qkv, TL_SHAPE(B, T, 3 * C));
    tl_tensor *part = tl_narrow(q3, 2, k * C, C);
    tl_tensor *q4 = tl_view(part, TL_SHAPE(B, T, NH, HS));
    tl_tensor *h = tl_transpose(q4, 1, 2);
    tl_release(q4);
    tl_release(part);
    tl_release(q3);
    return h;
}

/* Causal self-attention of qkv into att (probabilities) and y (BT, C). */
static void attention_forward(const model *m, block_acts *a)
{
    tl_tensor *q = heads(a->qkv, 0), *k = heads(a->qkv, 1), *v = heads(a->qkv, 2);
    tl_tensor *kt = tl_transpose(k, 2, 3);
    tl_tensor *pre = tl_matmul(q, kt);
    tl_mul_scalar_(pre, 1.0 / sqrt((double)HS));
    tl_tensor *masked = tl_masked_fill(pre, m->mask, -INFINITY);
    tl_softmax_out(a->att, masked, 3);
    tl_tensor *yh = tl_matmul(a->att, v);
    tl_tensor *yt = tl_transpose(yh, 1, 2);
    tl_tensor *y4 = tl_view(a->y, TL_SHAPE(B, T, NH, HS));
    tl_copy_(y4, yt);
    tl_release(y4);
    tl_release(yt);
    tl_release(yh);
    tl_release(masked);
    tl_release(pre);
    tl_release(kt);
    tl_release(v);
    tl_release(k);
    tl_release(q);
}

/* out = in @ w + b */
static void linear_forward(tl_tensor *out, tl_tensor *in, tl_tensor *w, tl_tensor *b)
{
    tl_matmul_out(out, in, w);
    tl_add_(out, b);
}

/* One block: a->x is its input, out its output. */
static void block_forward(const model *m, int l, block_acts *a, tl_tensor *out)
{
    const params *p = &m->p;
    layernorm_forward(a->ln1, a->ln1_xhat, a->ln1_rstd, a->x, LP(p, l, LN1W), LP(p, l, LN1B));
    linear_forward(a->qkv, a->ln1, LP(p, l, QKVW), LP(p, l, QKVB));
    attention_forward(m, a);
    linear_forward(a->res1, a->y, LP(p, l, APW), LP(p, l, APB));
    tl_add_(a->res1, a->x);
    layernorm_forward(a->ln2, a->ln2_xhat, a->ln2_rstd, a->res1, LP(p, l, LN2W), LP(p, l, LN2B));
    linear_forward(a->fch, a->ln2, LP(p, l, FCW), LP(p, l, FCB));
    tl_tensor *g = tl_gelu_tanh(a->fch);
    tl_copy_(a->fchg, g);
    tl_release(g);
    linear_forward(out, a->fchg, LP(p, l, FPW), LP(p, l, FPB));
    tl_add_(out, a->res1);
}

/* The forward pass (activations allocated on the first call); the mean loss. */
static double gpt2_forward(model *m, tl_tensor *x, tl_tensor *y)
{
    if (!m->acts_ready)
        alloc_acts(m);
    tl_tensor *tok = tl_index_select(m->p.t[WTE], 0, x);
    tl_copy_(m->blk[0].x, tok);
    tl_release(tok);
    tl_tensor *x3 = tl_view(m->blk[0].x, TL_SHAPE(B, T, C));
    tl_add_(x3, m->p.t[WPE]);
    tl_release(x3);
    for (int l = 0; l < L; l++)
        block_forward(m, l, &m->blk[l], l + 1 < L ? m->blk[l + 1].x : m->resid);
    layernorm_forward(m->lnf, m->lnf_xhat, m->lnf_rstd, m->resid, m->p.t[LNFW], m->p.t[LNFB]);
    tl_tensor *wte_t = tl_t(m->p.t[WTE]);
    tl_matmul_out(m->logits, m->lnf, wte_t);
    tl_release(wte_t);
    tl_tensor *loss = tl_cross_entropy(m->logits, y, -100);
    double value = tl_get(loss, TL_SHAPE0);
    tl_release(loss);
    return value;
}

/* ---- backward ---- */

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

/* out = in @ w + b backward: w's and b's gradients accumulated; dout @ w^T returned. */
static tl_tensor *linear_backward(tl_tensor *dout, tl_tensor *in, tl_tensor *w, tl_tensor *dw,
                                  tl_tensor *db)
{
    accumulate_matmul_t(dw, in, dout);
    accumulate_rows(db, dout);
    tl_tensor *wt = tl_t(w);
    tl_tensor *din = tl_matmul(dout, wt);
    tl_release(wt);
    return din;
}

/* layernorm backward: dw, db accumulated; dx += rstd (dn - mean(dn) - xhat mean(dn xhat)),
 * dn = dout w. */
static void layernorm_backward(tl_tensor *dx, tl_tensor *dout, tl_tensor *xhat, tl_tensor *rstd,
                               tl_tensor *w, tl_tensor *dw, tl_tensor *db)
{
    tl_tensor *dxw = tl_mul(dout, xhat);
    accumulate_rows(dw, dxw);
    accumulate_rows(db, dout);
    tl_tensor *dn = tl_mul(dout, w);
    tl_tensor *mean_dn = tl_mean(dn, 1, true);
    tl_mul_(dxw, w);
    tl_tensor *mean_dnx = tl_mean(dxw, 1, true);
    tl_tensor *corr = tl_mul(xhat, mean_dnx);
    tl_sub_(dn, mean_dn);
    tl_sub_(dn, corr);
    tl_mul_(dn, rstd);
    tl_add_(dx, dn);
    tl_release(corr);
    tl_release(mean_dnx);
    tl_release(mean_dn);
    tl_release(dn);
    tl_release(dxw);
}

/* d gelu_tanh(x) / dx = 0.5 (1 + th) + 0.5 x (1 - th^2) s (1 + 3k x^2),
 * th = tanh(s (x + k x^3)), s = sqrt(2 / pi), k = 0.044715. */
static tl_tensor *gelu_tanh_grad(tl_tensor *x)
{
    const double s = sqrt(2.0 / 3.14159265358979323846), k = 0.044715;
    tl_tensor *x2 = tl_mul(x, x);
    tl_tensor *u = tl_mul(x2, x);
    tl_mul_scalar_(u, k);
    tl_add_(u, x);
    tl_mul_scalar_(u, s);
    tl_tensor *th = tl_tanh(u);
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
    tl_release(u);
    tl_release(x2);
    return th;
}

/* The attention's backward from dy (BT, C): the gradient of qkv (BT, 3C). */
static tl_tensor *attention_backward(const block_acts *a, tl_tensor *dy)
{
    tl_tensor *q = heads(a->qkv, 0), *k = heads(a->qkv, 1), *v = heads(a->qkv, 2);
    tl_tensor *dy4 = tl_view(dy, TL_SHAPE(B, T, NH, HS));
    tl_tensor *dyh = tl_transpose(dy4, 1, 2);
    tl_tensor *vt = tl_transpose(v, 2, 3);
    tl_tensor *datt = tl_matmul(dyh, vt);
    tl_tensor *att_t = tl_transpose(a->att, 2, 3);
    tl_tensor *dv = tl_matmul(att_t, dyh);
    /* softmax: dpre = att (datt - sum(datt att)), then the scale */
    tl_tensor *prod = tl_mul(datt, a->att);
    tl_tensor *dot = tl_sum(prod, 3, true);
    tl_sub_(datt, dot);
    tl_mul_(datt, a->att);
    tl_mul_scalar_(datt, 1.0 / sqrt((double)HS));
    tl_tensor *dq = tl_matmul(datt, k);
    tl_tensor *datt_t = tl_transpose(datt, 2, 3);
    tl_tensor *dk = tl_matmul(datt_t, q);
    tl_tensor *dqkv = tl_zeros(TL_SHAPE(BT, 3 * C), TL_F32, DEVICE);
    tl_tensor *parts[3] = {dq, dk, dv};
    for (int i = 0; i < 3; i++) {
        tl_tensor *h = heads(dqkv, i);
        tl_copy_(h, parts[i]);
        tl_release(h);
    }
    tl_tensor *all[] = {datt_t, dk, dq, dot, prod, dv, att_t, datt, vt, dyh, dy4, v, k, q};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tl_release(all[i]);
    return dqkv;
}

/* One block's backward: dout the gradient of its output; returns its input's. */
static tl_tensor *block_backward(model *m, int l, const block_acts *a, tl_tensor *dout)
{
    const params *p = &m->p, *g = &m->g;
    /* out = res1 + fchg @ fpw + fpb */
    tl_tensor *dfchg = linear_backward(dout, a->fchg, LP(p, l, FPW), LP(g, l, FPW), LP(g, l, FPB));
    tl_tensor *dres1 = tl_clone(dout);
    tl_tensor *local = gelu_tanh_grad(a->fch);
    tl_mul_(dfchg, local);
    tl_release(local);
    tl_tensor *dln2 = linear_backward(dfchg, a->ln2, LP(p, l, FCW), LP(g, l, FCW), LP(g, l, FCB));
    layernorm_backward(dres1, dln2, a->ln2_xhat, a->ln2_rstd, LP(p, l, LN2W), LP(g, l, LN2W),
                       LP(g, l, LN2B));
    /* res1 = x + y @ apw + apb */
    tl_tensor *dy = linear_backward(dres1, a->y, LP(p, l, APW), LP(g, l, APW), LP(g, l, APB));
    tl_tensor *dqkv = attention_backward(a, dy);
    tl_tensor *dln1 = linear_backward(dqkv, a->ln1, LP(p, l, QKVW), LP(g, l, QKVW), LP(g, l, QKVB));
    layernorm_backward(dres1, dln1, a->ln1_xhat, a->ln1_rstd, LP(p, l, LN1W), LP(g, l, LN1W),
                       LP(g, l, LN1B));
    tl_release(dln1);
    tl_release(dqkv);
    tl_release(dy);
    tl_release(dln2);
    tl_release(dfchg);
    return dres1; /* x's gradient: the residual's and both layernorms' */
}

/* The loss's gradient of the logits: (softmax(logits) - one_hot(y)) / BT. */
static tl_tensor *cross_entropy_backward(const model *m, tl_tensor *y)
{
    tl_tensor *dlogits = tl_softmax(m->logits, 1);
    tl_tensor *arange = tl_arange(BT, TL_I64, DEVICE);
    tl_tensor *width = tl_full(TL_SHAPE0, V, TL_I64, DEVICE);
    tl_tensor *rows = tl_mul(arange, width); /* row * V + y: each target's flat index */
    tl_add_(rows, y);
    tl_release(width);
    tl_release(arange);
    tl_tensor *minus = tl_full(TL_SHAPE(BT), -1.0, TL_F32, DEVICE);
    tl_tensor *flat = tl_view(dlogits, TL_SHAPE(BT * V));
    tl_index_add_(flat, 0, rows, minus);
    tl_release(flat);
    tl_release(minus);
    tl_release(rows);
    tl_mul_scalar_(dlogits, 1.0 / BT);
    return dlogits;
}

/* The backward pass: every parameter's gradient into m->g (zeroed first). */
static void gpt2_backward(model *m, tl_tensor *x, tl_tensor *y)
{
    tl_zero_(m->grads_memory);
    tl_tensor *dlogits = cross_entropy_backward(m, y);
    tl_tensor *dlnf = tl_matmul(dlogits, m->p.t[WTE]);
    accumulate_matmul_t(m->g.t[WTE], dlogits, m->lnf);
    tl_release(dlogits);
    tl_tensor *dres = tl_zeros(TL_SHAPE(BT, C), TL_F32, DEVICE);
    layernorm_backward(dres, dlnf, m->lnf_xhat, m->lnf_rstd, m->p.t[LNFW], m->g.t[LNFW],
                       m->g.t[LNFB]);
    tl_release(dlnf);
    for (int l = L - 1; l >= 0; l--) {
        tl_tensor *dx = block_backward(m, l, &m->blk[l], dres);
        tl_release(dres);
        dres = dx;
    }
    /* x0 = wte[x] + wpe */
    tl_index_add_(m->g.t[WTE], 0, x, dres);
    tl_tensor *d3 = tl_view(dres, TL_SHAPE(B, T, C));
    accumulate_rows(m->g.t[WPE], d3);
    tl_release(d3);
    tl_release(dres);
}

/* torch.optim.AdamW's update over the flat buffers, in place. */
static void gpt2_update(model *m, int t)
{
    double bc1 = 1.0 - pow(BETA1, t), bc2 = 1.0 - pow(BETA2, t);
    tl_mul_scalar_(m->params_memory, 1.0 - LR * WEIGHT_DECAY);
    tl_lerp_(m->m_memory, m->grads_memory, 1.0 - BETA1);
    tl_mul_scalar_(m->v_memory, BETA2);
    tl_addcmul_(m->v_memory, m->grads_memory, m->grads_memory, 1.0 - BETA2);
    tl_tensor *denom = tl_clone(m->v_memory);
    tl_sqrt_(denom);
    tl_tensor *bc2_sqrt = tl_scalar(sqrt(bc2), TL_F32, DEVICE);
    tl_div_(denom, bc2_sqrt);
    tl_release(bc2_sqrt);
    tl_add_scalar_(denom, EPS);
    tl_addcdiv_(m->params_memory, m->m_memory, denom, -LR / bc1);
    tl_release(denom);
}

/* The mean loss over VAL_BATCHES batches of the validation split. */
static double evaluate(model *m, loader *val)
{
    double sum = 0;
    val->pos = 0;
    for (int i = 0; i < VAL_BATCHES; i++) {
        tl_tensor *x, *y;
        loader_next(val, &x, &y);
        sum += gpt2_forward(m, x, y);
        tl_release(y);
        tl_release(x);
    }
    return sum / VAL_BATCHES;
}

int main(int argc, char **argv)
{
    static int64_t tokens[N_TOKENS];
    read_tokens(argc > 1 ? argv[1] : "train_gpt2.tokens", tokens);
    loader train = {tokens, N_TOKENS - N_VAL, 0}, val = {tokens + N_TOKENS - N_VAL, N_VAL, 0};
    static model m;
    model_init(&m);
    for (int step = 1; step <= STEPS; step++) {
        tl_tensor *x, *y;
        loader_next(&train, &x, &y);
        double loss = gpt2_forward(&m, x, y);
        gpt2_backward(&m, x, y);
        gpt2_update(&m, step);
        printf("step %d loss %.9g\n", step, loss);
        tl_release(y);
        tl_release(x);
        if (step % EVAL_EVERY == 0)
            printf("val %d loss %.9g\n", step, evaluate(&m, &val));
    }
    model_free(&m);
    return 0;
}
