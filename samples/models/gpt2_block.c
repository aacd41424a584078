/*
 * One GPT-2 block and its loss, llm.c-style, small sizes: LayerNorm,
 * causal self-attention (one fused QKV projection split by narrow views,
 * the causal mask built once with tl_triu and applied with tl_masked_fill),
 * the GELU MLP, residual adds in place, then the final LayerNorm, the
 * logits and the cross-entropy loss (log-softmax, the targets' entries
 * gathered, their mean negated).
 */
#include <math.h>
#include <stdio.h>
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif
#define B 2
#define T 8
#define C 32
#define HEADS 4
#define HS (C / HEADS)
#define VOCAB 64

/* (x - mean) / sqrt(var + eps) * w + b over the last dim. */
static tl_tensor *layernorm(tl_tensor *x, tl_tensor *w, tl_tensor *b)
{
    tl_tensor *mu = tl_mean(x, -1, true);
    tl_tensor *xc = tl_sub(x, mu);
    tl_tensor *sq = tl_mul(xc, xc);
    tl_tensor *var = tl_mean(sq, -1, true);
    tl_add_scalar_(var, 1e-5);
    tl_tensor *r = tl_rsqrt(var);
    tl_tensor *xn = tl_mul(xc, r);
    tl_tensor *y = tl_mul(xn, w);
    tl_add_(y, b);
    tl_release(mu);
    tl_release(xc);
    tl_release(sq);
    tl_release(var);
    tl_release(r);
    tl_release(xn);
    return y;
}

/* One head-split projection: qkv's columns [at, at + C) as (B, HEADS, T, HS), a view. */
static tl_tensor *heads(tl_tensor *qkv, int64_t at)
{
    tl_tensor *part = tl_narrow(qkv, -1, at, C);
    tl_tensor *split = tl_view(part, TL_SHAPE(B, T, HEADS, HS));
    tl_tensor *h = tl_permute(split, TL_DIMS(0, 2, 1, 3));
    tl_release(part);
    tl_release(split);
    return h;
}

/* Causal self-attention of x (B, T, C), added to x in place. */
static void attention(tl_tensor *x, tl_tensor *ln_w, tl_tensor *ln_b, tl_tensor *w_qkv,
                      tl_tensor *w_proj, tl_tensor *future)
{
    tl_tensor *xn = layernorm(x, ln_w, ln_b);
    tl_tensor *qkv = tl_matmul(xn, w_qkv);
    tl_tensor *q = heads(qkv, 0);
    tl_tensor *k = heads(qkv, C);
    tl_tensor *v = heads(qkv, 2 * C);
    tl_tensor *kt = tl_transpose(k, -2, -1);
    tl_tensor *scores = tl_matmul(q, kt);
    tl_mul_scalar_(scores, 0.35355339059327373); /* 1 / sqrt(HS) */
    tl_tensor *masked = tl_masked_fill(scores, future, -INFINITY);
    tl_tensor *att = tl_softmax(masked, -1);
    tl_tensor *ctx = tl_matmul(att, v);
    tl_tensor *merged = tl_transpose(ctx, 1, 2);
    tl_tensor *flat = tl_contiguous(merged); /* the heads interleave: one copy, on purpose */
    tl_tensor *y = tl_view(flat, TL_SHAPE(B, T, C));
    tl_tensor *proj = tl_matmul(y, w_proj);
    tl_add_(x, proj);
    tl_release(xn);
    tl_release(qkv);
    tl_release(q);
    tl_release(k);
    tl_release(v);
    tl_release(kt);
    tl_release(scores);
    tl_release(masked);
    tl_release(att);
    tl_release(ctx);
    tl_release(merged);
    tl_release(flat);
    tl_release(y);
    tl_release(proj);
}

/* The MLP: gelu(x W_fc) W_proj, added to x in place. */
static void mlp(tl_tensor *x, tl_tensor *ln_w, tl_tensor *ln_b, tl_tensor *w_fc, tl_tensor *w_out)
{
    tl_tensor *xn = layernorm(x, ln_w, ln_b);
    tl_tensor *h = tl_matmul(xn, w_fc);
    tl_tensor *g = tl_gelu(h);
    tl_tensor *m = tl_matmul(g, w_out);
    tl_add_(x, m);
    tl_release(xn);
    tl_release(h);
    tl_release(g);
    tl_release(m);
}

int main(void)
{
    tl_manual_seed(7);
    tl_tensor *x = tl_randn(TL_SHAPE(B, T, C), TL_F32, DEVICE);
    tl_tensor *targets = tl_randint(0, VOCAB, TL_SHAPE(B, T, 1), DEVICE);
    tl_tensor *ln1_w = tl_ones(TL_SHAPE(C), TL_F32, DEVICE);
    tl_tensor *ln1_b = tl_zeros(TL_SHAPE(C), TL_F32, DEVICE);
    tl_tensor *ln2_w = tl_ones(TL_SHAPE(C), TL_F32, DEVICE);
    tl_tensor *ln2_b = tl_zeros(TL_SHAPE(C), TL_F32, DEVICE);
    tl_tensor *lnf_w = tl_ones(TL_SHAPE(C), TL_F32, DEVICE);
    tl_tensor *lnf_b = tl_zeros(TL_SHAPE(C), TL_F32, DEVICE);
    tl_tensor *w_qkv = tl_randn(TL_SHAPE(C, 3 * C), TL_F32, DEVICE);
    tl_tensor *w_proj = tl_randn(TL_SHAPE(C, C), TL_F32, DEVICE);
    tl_tensor *w_fc = tl_randn(TL_SHAPE(C, 4 * C), TL_F32, DEVICE);
    tl_tensor *w_out = tl_randn(TL_SHAPE(4 * C, C), TL_F32, DEVICE);
    tl_tensor *w_lm = tl_randn(TL_SHAPE(C, VOCAB), TL_F32, DEVICE);
    tl_mul_scalar_(w_qkv, 0.02);
    tl_mul_scalar_(w_proj, 0.02);
    tl_mul_scalar_(w_fc, 0.02);
    tl_mul_scalar_(w_out, 0.02);
    tl_mul_scalar_(w_lm, 0.02);

    /* the causal mask, once: true above the diagonal (the future) */
    tl_tensor *all = tl_ones(TL_SHAPE(T, T), TL_BOOL, DEVICE);
    tl_tensor *future = tl_triu(all, 1);
    tl_release(all);

    attention(x, ln1_w, ln1_b, w_qkv, w_proj, future);
    mlp(x, ln2_w, ln2_b, w_fc, w_out);

    /* the loss: mean over (B, T) of -log softmax(logits)[target] */
    tl_tensor *xf = layernorm(x, lnf_w, lnf_b);
    tl_tensor *logits = tl_matmul(xf, w_lm);
    tl_tensor *probs = tl_softmax(logits, -1);
    tl_tensor *logp = tl_log(probs);
    tl_tensor *picked = tl_gather(logp, -1, targets);
    tl_tensor *flat = tl_view(picked, TL_SHAPE(B * T));
    tl_tensor *mean = tl_mean(flat, 0, false);
    tl_tensor *loss = tl_neg(mean);
    printf("loss %.4f (uniform: %.4f)\n", tl_get(loss, TL_SHAPE0), log((double)VOCAB));

    tl_release(loss);
    tl_release(mean);
    tl_release(flat);
    tl_release(picked);
    tl_release(logp);
    tl_release(probs);
    tl_release(logits);
    tl_release(xf);
    tl_release(future);
    tl_release(w_lm);
    tl_release(w_out);
    tl_release(w_fc);
    tl_release(w_proj);
    tl_release(w_qkv);
    tl_release(lnf_b);
    tl_release(lnf_w);
    tl_release(ln2_b);
    tl_release(ln2_w);
    tl_release(ln1_b);
    tl_release(ln1_w);
    tl_release(targets);
    tl_release(x);
    return 0;
}
