/*
 * A llama2.c-style decoder written with the tensor API, small sizes: the
 * weights live in one host buffer (a stand-in for an mmap'd checkpoint) and
 * enter as tl_from_blob views (external storage: nothing allocated); the run
 * state and the KV cache are allocated once before the token loop, which
 * writes them in place (out= forms, copy_, add_); each step embeds the
 * token, runs every layer (RMSNorm, rotary embeddings on q and k, causal
 * attention over the cache, SwiGLU), and picks the next token greedily
 * (argmax), without the token ever leaving tensor land (index_select).
 *
 * Handles are plain locals: the per-layer weights are views (tl_select) of
 * one tensor per kind, as llama2.c lays its checkpoint out.
 */
#include <math.h>
#include <stdio.h>
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif
#define DIM 64
#define HIDDEN 176
#define LAYERS 2
#define HEADS 4
#define HEAD_SIZE (DIM / HEADS)
#define VOCAB 128
#define STEPS 12
#define SEQ STEPS

/* The checkpoint: llama2.c's order, one float array. */
#define N_EMB (VOCAB * DIM)
#define N_NORM (LAYERS * DIM)
#define N_ATT (LAYERS * DIM * DIM)
#define N_FFN (LAYERS * HIDDEN * DIM)
#define N_WEIGHTS (N_EMB + 2 * N_NORM + 4 * N_ATT + 3 * N_FFN + DIM)

static float checkpoint[N_WEIGHTS];

/* Deterministic small weights in [-0.125, 0.125); norms start at 1. */
static void load_checkpoint(void)
{
    unsigned state = 12345u;
    for (int k = 0; k < N_WEIGHTS; k++) {
        state = state * 1664525u + 1013904223u;
        checkpoint[k] = ((float)(state >> 8) / 16777216.0f - 0.5f) * 0.25f;
    }
    for (int k = 0; k < N_NORM; k++) {
        checkpoint[N_EMB + k] = 1.0f;
        checkpoint[N_EMB + N_NORM + 4 * N_ATT + k] = 1.0f;
    }
    for (int k = 0; k < DIM; k++)
        checkpoint[N_WEIGHTS - DIM + k] = 1.0f;
}

/* out = x / sqrt(mean(x^2) + eps) * w, written into out (D,). */
static void rmsnorm(tl_tensor *out, tl_tensor *x, tl_tensor *w)
{
    tl_tensor *x2 = tl_mul(x, x);
    tl_tensor *ms = tl_mean(x2, 0, true);
    tl_add_scalar_(ms, 1e-5);
    tl_tensor *r = tl_rsqrt(ms);
    tl_tensor *xn = tl_mul(x, r);
    tl_tensor *y = tl_mul(xn, w);
    tl_copy_(out, y);
    tl_release(x2);
    tl_release(ms);
    tl_release(r);
    tl_release(xn);
    tl_release(y);
}

/* Rotary embedding of t (D,) in place: each pair (t[2i], t[2i+1]) of a head
 * turns by pos * freqs[i]. */
static void rotate(tl_tensor *t, tl_tensor *cos_t, tl_tensor *sin_t)
{
    tl_tensor *pairs = tl_view(t, TL_SHAPE(HEADS, HEAD_SIZE / 2, 2));
    tl_tensor *a = tl_select(pairs, -1, 0);
    tl_tensor *b = tl_select(pairs, -1, 1);
    tl_tensor *ac = tl_mul(a, cos_t);
    tl_tensor *bs = tl_mul(b, sin_t);
    tl_tensor *as = tl_mul(a, sin_t);
    tl_tensor *bc = tl_mul(b, cos_t);
    tl_tensor *ra = tl_sub(ac, bs);
    tl_tensor *rb = tl_add(as, bc);
    tl_tensor *rot = tl_stack(TL_LIST(ra, rb), -1);
    tl_copy_(pairs, rot);
    tl_release(pairs);
    tl_release(a);
    tl_release(b);
    tl_release(ac);
    tl_release(bs);
    tl_release(as);
    tl_release(bc);
    tl_release(ra);
    tl_release(rb);
    tl_release(rot);
}

/* Causal attention of q over the cached keys and values 0..pos, into out (D,). */
static void attention(tl_tensor *out, tl_tensor *q, tl_tensor *kcache, tl_tensor *vcache, int pos)
{
    tl_tensor *qh = tl_view(q, TL_SHAPE(HEADS, 1, HEAD_SIZE));
    tl_tensor *kc = tl_narrow(kcache, 0, 0, pos + 1);
    tl_tensor *kv = tl_view(kc, TL_SHAPE(pos + 1, HEADS, HEAD_SIZE));
    tl_tensor *kt = tl_permute(kv, TL_DIMS(1, 2, 0));
    tl_tensor *scores = tl_matmul(qh, kt);
    tl_tensor *scaled = tl_mul_scalar(scores, 0.25); /* 1 / sqrt(HEAD_SIZE) */
    tl_tensor *att = tl_softmax(scaled, -1);
    tl_tensor *vc = tl_narrow(vcache, 0, 0, pos + 1);
    tl_tensor *vv = tl_view(vc, TL_SHAPE(pos + 1, HEADS, HEAD_SIZE));
    tl_tensor *vh = tl_permute(vv, TL_DIMS(1, 0, 2));
    tl_tensor *ctx = tl_matmul(att, vh);
    tl_tensor *flat = tl_view(ctx, TL_SHAPE(DIM));
    tl_copy_(out, flat);
    tl_release(qh);
    tl_release(kc);
    tl_release(kv);
    tl_release(kt);
    tl_release(scores);
    tl_release(scaled);
    tl_release(att);
    tl_release(vc);
    tl_release(vv);
    tl_release(vh);
    tl_release(ctx);
    tl_release(flat);
}

int main(void)
{
    float *w = checkpoint;
    load_checkpoint();
    /* the weights: views of the caller's memory (nothing allocated), moved to DEVICE */
    tl_tensor *emb_b = tl_from_blob(w, TL_SHAPE(VOCAB, DIM), TL_F32);
    tl_tensor *rms_att_b = tl_from_blob(w + N_EMB, TL_SHAPE(LAYERS, DIM), TL_F32);
    tl_tensor *wq_b = tl_from_blob(w + N_EMB + N_NORM, TL_SHAPE(LAYERS, DIM, DIM), TL_F32);
    tl_tensor *wk_b = tl_from_blob(w + N_EMB + N_NORM + N_ATT, TL_SHAPE(LAYERS, DIM, DIM), TL_F32);
    tl_tensor *wv_b = tl_from_blob(w + N_EMB + N_NORM + 2 * N_ATT, TL_SHAPE(LAYERS, DIM, DIM),
                                   TL_F32);
    tl_tensor *wo_b = tl_from_blob(w + N_EMB + N_NORM + 3 * N_ATT, TL_SHAPE(LAYERS, DIM, DIM),
                                   TL_F32);
    tl_tensor *rms_ffn_b = tl_from_blob(w + N_EMB + N_NORM + 4 * N_ATT, TL_SHAPE(LAYERS, DIM),
                                        TL_F32);
    tl_tensor *w1_b = tl_from_blob(w + N_EMB + 2 * N_NORM + 4 * N_ATT,
                                   TL_SHAPE(LAYERS, HIDDEN, DIM), TL_F32);
    tl_tensor *w2_b = tl_from_blob(w + N_EMB + 2 * N_NORM + 4 * N_ATT + N_FFN,
                                   TL_SHAPE(LAYERS, DIM, HIDDEN), TL_F32);
    tl_tensor *w3_b = tl_from_blob(w + N_EMB + 2 * N_NORM + 4 * N_ATT + 2 * N_FFN,
                                   TL_SHAPE(LAYERS, HIDDEN, DIM), TL_F32);
    tl_tensor *rms_final_b = tl_from_blob(w + N_WEIGHTS - DIM, TL_SHAPE(DIM), TL_F32);
    tl_tensor *emb = tl_to_device(emb_b, DEVICE);
    tl_tensor *rms_att = tl_to_device(rms_att_b, DEVICE);
    tl_tensor *wq = tl_to_device(wq_b, DEVICE);
    tl_tensor *wk = tl_to_device(wk_b, DEVICE);
    tl_tensor *wv = tl_to_device(wv_b, DEVICE);
    tl_tensor *wo = tl_to_device(wo_b, DEVICE);
    tl_tensor *rms_ffn = tl_to_device(rms_ffn_b, DEVICE);
    tl_tensor *w1 = tl_to_device(w1_b, DEVICE);
    tl_tensor *w2 = tl_to_device(w2_b, DEVICE);
    tl_tensor *w3 = tl_to_device(w3_b, DEVICE);
    tl_tensor *rms_final = tl_to_device(rms_final_b, DEVICE);

    /* the run state and the KV cache, allocated once */
    tl_tensor *x = tl_zeros(TL_SHAPE(DIM), TL_F32, DEVICE);
    tl_tensor *xb = tl_zeros(TL_SHAPE(DIM), TL_F32, DEVICE);
    tl_tensor *xb2 = tl_zeros(TL_SHAPE(DIM), TL_F32, DEVICE);
    tl_tensor *hb = tl_zeros(TL_SHAPE(HIDDEN), TL_F32, DEVICE);
    tl_tensor *hb2 = tl_zeros(TL_SHAPE(HIDDEN), TL_F32, DEVICE);
    tl_tensor *q = tl_zeros(TL_SHAPE(DIM), TL_F32, DEVICE);
    tl_tensor *logits = tl_zeros(TL_SHAPE(VOCAB), TL_F32, DEVICE);
    tl_tensor *key_cache = tl_zeros(TL_SHAPE(LAYERS, SEQ, DIM), TL_F32, DEVICE);
    tl_tensor *value_cache = tl_zeros(TL_SHAPE(LAYERS, SEQ, DIM), TL_F32, DEVICE);
    tl_tensor *token = tl_full(TL_SHAPE(1), 1.0, TL_I64, DEVICE); /* BOS */
    /* rotary frequencies 10000^(-2i/HEAD_SIZE), i < HEAD_SIZE / 2 */
    tl_tensor *steps = tl_arange(HEAD_SIZE / 2, TL_F32, DEVICE);
    tl_tensor *expo = tl_mul_scalar(steps, -2.0 * 9.210340371976184 / HEAD_SIZE); /* ln 10000 */
    tl_tensor *freqs = tl_exp(expo);
    tl_release(steps);
    tl_release(expo);

    printf("tokens:");
    for (int pos = 0; pos < STEPS; pos++) {
        tl_tensor *row = tl_index_select(emb, 0, token);
        tl_tensor *row1 = tl_view(row, TL_SHAPE(DIM));
        tl_copy_(x, row1);
        tl_release(row);
        tl_release(row1);
        tl_tensor *angle = tl_mul_scalar(freqs, (double)pos);
        tl_tensor *cos_t = tl_cos(angle);
        tl_tensor *sin_t = tl_sin(angle);
        for (int l = 0; l < LAYERS; l++) {
            tl_tensor *kcache = tl_select(key_cache, 0, l);
            tl_tensor *vcache = tl_select(value_cache, 0, l);
            tl_tensor *k = tl_select(kcache, 0, pos);
            tl_tensor *v = tl_select(vcache, 0, pos);
            tl_tensor *g = tl_select(rms_att, 0, l);
            tl_tensor *wql = tl_select(wq, 0, l);
            tl_tensor *wkl = tl_select(wk, 0, l);
            tl_tensor *wvl = tl_select(wv, 0, l);
            tl_tensor *wol = tl_select(wo, 0, l);
            rmsnorm(xb, x, g);
            tl_matmul_out(q, wql, xb);
            tl_matmul_out(k, wkl, xb); /* straight into the cache */
            tl_matmul_out(v, wvl, xb);
            rotate(q, cos_t, sin_t);
            rotate(k, cos_t, sin_t);
            attention(xb, q, kcache, vcache, pos);
            tl_matmul_out(xb2, wol, xb);
            tl_add_(x, xb2);

            tl_tensor *gf = tl_select(rms_ffn, 0, l);
            tl_tensor *w1l = tl_select(w1, 0, l);
            tl_tensor *w2l = tl_select(w2, 0, l);
            tl_tensor *w3l = tl_select(w3, 0, l);
            rmsnorm(xb, x, gf);
            tl_matmul_out(hb, w1l, xb);
            tl_matmul_out(hb2, w3l, xb);
            tl_tensor *act = tl_silu(hb);
            tl_mul_(act, hb2); /* SwiGLU */
            tl_matmul_out(xb, w2l, act);
            tl_add_(x, xb);
            tl_release(act);
            tl_release(kcache);
            tl_release(vcache);
            tl_release(k);
            tl_release(v);
            tl_release(g);
            tl_release(wql);
            tl_release(wkl);
            tl_release(wvl);
            tl_release(wol);
            tl_release(gf);
            tl_release(w1l);
            tl_release(w2l);
            tl_release(w3l);
        }
        rmsnorm(xb, x, rms_final);
        tl_matmul_out(logits, emb, xb); /* the classifier shares the embedding */
        tl_tensor *next = tl_argmax(logits, 0, true);
        printf(" %d", (int)tl_get(next, TL_SHAPE(0)));
        tl_copy_(token, next);
        tl_release(next);
        tl_release(angle);
        tl_release(cos_t);
        tl_release(sin_t);
    }
    printf("\n");

    tl_release(freqs);
    tl_release(token);
    tl_release(value_cache);
    tl_release(key_cache);
    tl_release(logits);
    tl_release(q);
    tl_release(hb2);
    tl_release(hb);
    tl_release(xb2);
    tl_release(xb);
    tl_release(x);
    tl_release(rms_final);
    tl_release(w3);
    tl_release(w2);
    tl_release(w1);
    tl_release(rms_ffn);
    tl_release(wo);
    tl_release(wv);
    tl_release(wk);
    tl_release(wq);
    tl_release(rms_att);
    tl_release(emb);
    tl_release(rms_final_b);
    tl_release(w3_b);
    tl_release(w2_b);
    tl_release(w1_b);
    tl_release(rms_ffn_b);
    tl_release(wo_b);
    tl_release(wv_b);
    tl_release(wk_b);
    tl_release(wq_b);
    tl_release(rms_att_b);
    tl_release(emb_b);
    return 0;
}
