/* scores-full-size-in-loop: a decoding loop that fills its key cache (or its
 * token buffer) one position per step, but computes the attention scores
 * over every position of it at every step, the ones not written yet
 * included.  The near misses: the same loop over positions 0..pos only, a
 * training loop over whole sequences, cross-attention to a fixed memory,
 * and a ring-buffer cache that is full after a few steps. */
// CHECK-OPTIONS: --checks=-*,scores-full-size-in-loop
#include <math.h>
#include <tensorlint/tensor.h>

#define SEQ 16
#define HEADS 4
#define HS 8
#define DIM (HEADS * HS)
#define VOCAB 64
#define WINDOW 4

/* Attention of q (DIM) over every row of the cache, the future masked: the
 * scores are (HEADS, 1, SEQ) at every step. */
static void attend_all(tl_tensor *out, tl_tensor *q, tl_tensor *kcache, tl_tensor *vcache,
                       tl_tensor *future)
{
    tl_tensor *qh = tl_view(q, TL_SHAPE(HEADS, 1, HS));
    tl_tensor *kv = tl_view(kcache, TL_SHAPE(SEQ, HEADS, HS));
    tl_tensor *kt = tl_permute(kv, TL_DIMS(1, 2, 0));
    tl_tensor *scores = tl_matmul(qh, kt); // expected-warning {{[scores-full-size-in-loop]}}
    tl_tensor *masked = tl_masked_fill(scores, future, -INFINITY);
    tl_tensor *att = tl_softmax(masked, -1);
    tl_tensor *vv = tl_view(vcache, TL_SHAPE(SEQ, HEADS, HS));
    tl_tensor *vh = tl_permute(vv, TL_DIMS(1, 0, 2));
    tl_tensor *ctx = tl_matmul(att, vh);
    tl_tensor *flat = tl_view(ctx, TL_SHAPE(DIM));
    tl_copy_(out, flat);
    tl_release(qh);
    tl_release(kv);
    tl_release(kt);
    tl_release(scores);
    tl_release(masked);
    tl_release(att);
    tl_release(vv);
    tl_release(vh);
    tl_release(ctx);
    tl_release(flat);
}

/* The same over positions 0..pos only: the scores grow with the step. */
static void attend_upto(tl_tensor *out, tl_tensor *q, tl_tensor *kcache, tl_tensor *vcache,
                        int pos)
{
    tl_tensor *qh = tl_view(q, TL_SHAPE(HEADS, 1, HS));
    tl_tensor *kc = tl_narrow(kcache, 0, 0, pos + 1);
    tl_tensor *kv = tl_view(kc, TL_SHAPE(pos + 1, HEADS, HS));
    tl_tensor *kt = tl_permute(kv, TL_DIMS(1, 2, 0));
    tl_tensor *scores = tl_matmul(qh, kt);
    tl_tensor *att = tl_softmax(scores, -1);
    tl_tensor *vc = tl_narrow(vcache, 0, 0, pos + 1);
    tl_tensor *vv = tl_view(vc, TL_SHAPE(pos + 1, HEADS, HS));
    tl_tensor *vh = tl_permute(vv, TL_DIMS(1, 0, 2));
    tl_tensor *ctx = tl_matmul(att, vh);
    tl_tensor *flat = tl_view(ctx, TL_SHAPE(DIM));
    tl_copy_(out, flat);
    tl_release(qh);
    tl_release(kc);
    tl_release(kv);
    tl_release(kt);
    tl_release(scores);
    tl_release(att);
    tl_release(vc);
    tl_release(vv);
    tl_release(vh);
    tl_release(ctx);
    tl_release(flat);
}

/* Decoding with a KV cache: the key and value of each position go into row
 * pos of the caches, then the query attends. */
static void decode(tl_tensor *wq, tl_tensor *wk, tl_tensor *wv, bool upto)
{
    tl_tensor *kcache = tl_zeros(TL_SHAPE(SEQ, DIM), TL_F32, TL_CPU);
    tl_tensor *vcache = tl_zeros(TL_SHAPE(SEQ, DIM), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(DIM), TL_F32, TL_CPU);
    tl_tensor *q = tl_zeros(TL_SHAPE(DIM), TL_F32, TL_CPU);
    tl_tensor *cols = tl_arange(SEQ, TL_F32, TL_CPU);
    for (int pos = 0; pos < SEQ; pos++) {
        tl_tensor *k = tl_select(kcache, 0, pos);
        tl_tensor *v = tl_select(vcache, 0, pos);
        tl_matmul_out(q, wq, x);
        tl_matmul_out(k, wk, x);
        tl_matmul_out(v, wv, x);
        if (upto) {
            attend_upto(x, q, kcache, vcache, pos);
        } else {
            tl_tensor *now = tl_full(TL_SHAPE(1), (double)pos, TL_F32, TL_CPU);
            tl_tensor *future = tl_lt(now, cols); /* the columns after pos */
            attend_all(x, q, kcache, vcache, future);
            tl_release(future);
            tl_release(now);
        }
        tl_release(k);
        tl_release(v);
    }
    tl_release(cols);
    tl_release(q);
    tl_release(x);
    tl_release(vcache);
    tl_release(kcache);
}

/* The scores in a buffer allocated once (out= forms), over the whole cache,
 * then cut to the live columns before the softmax: nothing is allocated per
 * step, but every step still computes SEQ columns. */
static void decode_out(tl_tensor *wq, tl_tensor *wk, tl_tensor *wv)
{
    tl_tensor *kcache = tl_zeros(TL_SHAPE(SEQ, DIM), TL_F32, TL_CPU);
    tl_tensor *vcache = tl_zeros(TL_SHAPE(SEQ, DIM), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(DIM), TL_F32, TL_CPU);
    tl_tensor *q = tl_zeros(TL_SHAPE(DIM), TL_F32, TL_CPU);
    tl_tensor *scores = tl_zeros(TL_SHAPE(HEADS, 1, SEQ), TL_F32, TL_CPU);
    tl_tensor *qh = tl_view(q, TL_SHAPE(HEADS, 1, HS));
    tl_tensor *kv = tl_view(kcache, TL_SHAPE(SEQ, HEADS, HS));
    tl_tensor *kt = tl_permute(kv, TL_DIMS(1, 2, 0));
    for (int pos = 0; pos < SEQ; pos++) {
        tl_tensor *k = tl_select(kcache, 0, pos);
        tl_tensor *v = tl_select(vcache, 0, pos);
        tl_matmul_out(q, wq, x);
        tl_matmul_out(k, wk, x);
        tl_matmul_out(v, wv, x);
        tl_matmul_out(scores, qh, kt); // expected-warning {{[scores-full-size-in-loop]}}
        tl_tensor *live = tl_narrow(scores, -1, 0, pos + 1);
        tl_tensor *att = tl_softmax(live, -1);
        tl_tensor *vc = tl_narrow(vcache, 0, 0, pos + 1);
        tl_tensor *vv = tl_view(vc, TL_SHAPE(pos + 1, HEADS, HS));
        tl_tensor *vh = tl_permute(vv, TL_DIMS(1, 0, 2));
        tl_tensor *ctx = tl_matmul(att, vh);
        tl_tensor *flat = tl_view(ctx, TL_SHAPE(DIM));
        tl_copy_(x, flat);
        tl_release(flat);
        tl_release(ctx);
        tl_release(vh);
        tl_release(vv);
        tl_release(vc);
        tl_release(att);
        tl_release(live);
        tl_release(k);
        tl_release(v);
    }
    tl_release(kt);
    tl_release(kv);
    tl_release(qh);
    tl_release(scores);
    tl_release(q);
    tl_release(x);
    tl_release(vcache);
    tl_release(kcache);
}

/* No cache at all: every step runs the model over the whole token buffer,
 * (SEQ, SEQ) scores with the causal mask, and keeps the logits of one row;
 * the buffer gets one token per step. */
static void decode_recompute(tl_tensor *emb, tl_tensor *wq, tl_tensor *wk, tl_tensor *wv)
{
    tl_tensor *tokens = tl_zeros(TL_SHAPE(SEQ), TL_I64, TL_CPU);
    tl_tensor *all = tl_ones(TL_SHAPE(SEQ, SEQ), TL_BOOL, TL_CPU);
    tl_tensor *future = tl_triu(all, 1);
    tl_tensor *emb_t = tl_t(emb);
    for (int pos = 0; pos < SEQ - 1; pos++) {
        tl_tensor *h = tl_index_select(emb, 0, tokens);
        tl_tensor *qs = tl_matmul(h, wq);
        tl_tensor *ks = tl_matmul(h, wk);
        tl_tensor *vs = tl_matmul(h, wv);
        tl_tensor *kt = tl_t(ks);
        tl_tensor *scores = tl_matmul(qs, kt); // expected-warning {{[scores-full-size-in-loop]}}
        tl_tensor *masked = tl_masked_fill(scores, future, -INFINITY);
        tl_tensor *att = tl_softmax(masked, -1);
        tl_tensor *ctx = tl_matmul(att, vs);
        tl_tensor *logits = tl_matmul(ctx, emb_t);
        tl_tensor *row = tl_select(logits, 0, pos);
        tl_tensor *next = tl_argmax(row, 0, true);
        tl_tensor *slot = tl_narrow(tokens, 0, pos + 1, 1);
        tl_copy_(slot, next);
        tl_release(slot);
        tl_release(next);
        tl_release(row);
        tl_release(logits);
        tl_release(ctx);
        tl_release(att);
        tl_release(masked);
        tl_release(scores);
        tl_release(kt);
        tl_release(vs);
        tl_release(ks);
        tl_release(qs);
        tl_release(h);
    }
    tl_release(emb_t);
    tl_release(future);
    tl_release(all);
    tl_release(tokens);
}

/* Training: every step takes a whole batch of sequences, so full (SEQ, SEQ)
 * causal scores are right; the weights change in place and the losses go
 * into a buffer one step at a time, which no score reads. */
static void train(tl_tensor *wq, tl_tensor *wk, tl_tensor *wv)
{
    tl_tensor *data = tl_randn(TL_SHAPE(8, SEQ, DIM), TL_F32, TL_CPU);
    tl_tensor *losses = tl_zeros(TL_SHAPE(8), TL_F32, TL_CPU);
    tl_tensor *all = tl_ones(TL_SHAPE(SEQ, SEQ), TL_BOOL, TL_CPU);
    tl_tensor *future = tl_triu(all, 1);
    for (int step = 0; step < 8; step++) {
        tl_tensor *x = tl_select(data, 0, step);
        tl_tensor *qs = tl_matmul(x, wq);
        tl_tensor *ks = tl_matmul(x, wk);
        tl_tensor *vs = tl_matmul(x, wv);
        tl_tensor *kt = tl_t(ks);
        tl_tensor *scores = tl_matmul(qs, kt);
        tl_tensor *masked = tl_masked_fill(scores, future, -INFINITY);
        tl_tensor *att = tl_softmax(masked, -1);
        tl_tensor *ctx = tl_matmul(att, vs);
        tl_tensor *flat = tl_view(ctx, TL_SHAPE(SEQ * DIM));
        tl_tensor *loss = tl_mean(flat, 0, true);
        tl_tensor *slot = tl_narrow(losses, 0, step, 1);
        tl_copy_(slot, loss);
        tl_mul_scalar_(wq, 0.999); /* a stand-in for the optimizer step */
        tl_mul_scalar_(wk, 0.999);
        tl_mul_scalar_(wv, 0.999);
        tl_release(slot);
        tl_release(loss);
        tl_release(flat);
        tl_release(ctx);
        tl_release(att);
        tl_release(masked);
        tl_release(scores);
        tl_release(kt);
        tl_release(vs);
        tl_release(ks);
        tl_release(qs);
        tl_release(x);
    }
    tl_release(future);
    tl_release(all);
    tl_release(losses);
    tl_release(data);
}

/* Cross-attention to an encoder's output: the memory is whole before the
 * loop, so (HEADS, 1, SRC) scores are right at every step, even though the
 * query comes from self-attention over a cache the loop fills. */
static void decode_cross(tl_tensor *wq, tl_tensor *wk, tl_tensor *wv)
{
    tl_tensor *memory = tl_randn(TL_SHAPE(HEADS, SEQ, HS), TL_F32, TL_CPU);
    tl_tensor *mem_t = tl_transpose(memory, 1, 2);
    tl_tensor *kcache = tl_zeros(TL_SHAPE(SEQ, DIM), TL_F32, TL_CPU);
    tl_tensor *vcache = tl_zeros(TL_SHAPE(SEQ, DIM), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(DIM), TL_F32, TL_CPU);
    tl_tensor *q = tl_zeros(TL_SHAPE(DIM), TL_F32, TL_CPU);
    for (int pos = 0; pos < SEQ; pos++) {
        tl_tensor *k = tl_select(kcache, 0, pos);
        tl_tensor *v = tl_select(vcache, 0, pos);
        tl_matmul_out(q, wq, x);
        tl_matmul_out(k, wk, x);
        tl_matmul_out(v, wv, x);
        attend_upto(x, q, kcache, vcache, pos);
        tl_tensor *xq = tl_mul_scalar(x, 0.5);
        tl_tensor *qh = tl_view(xq, TL_SHAPE(HEADS, 1, HS));
        tl_tensor *scores = tl_matmul(qh, mem_t);
        tl_tensor *att = tl_softmax(scores, -1);
        tl_tensor *ctx = tl_matmul(att, memory);
        tl_tensor *flat = tl_view(ctx, TL_SHAPE(DIM));
        tl_add_(x, flat);
        tl_release(flat);
        tl_release(ctx);
        tl_release(att);
        tl_release(scores);
        tl_release(qh);
        tl_release(xq);
        tl_release(k);
        tl_release(v);
    }
    tl_release(q);
    tl_release(x);
    tl_release(vcache);
    tl_release(kcache);
    tl_release(mem_t);
    tl_release(memory);
}

/* A sliding window: the cache is a ring of WINDOW rows, full after the first
 * few steps, and attending over all of it is right from then on. */
static void decode_window(tl_tensor *wq, tl_tensor *wk)
{
    tl_tensor *ring = tl_zeros(TL_SHAPE(WINDOW, DIM), TL_F32, TL_CPU);
    tl_tensor *ring_t = tl_t(ring);
    tl_tensor *x = tl_randn(TL_SHAPE(1, DIM), TL_F32, TL_CPU);
    tl_tensor *wkt = tl_t(wk);
    for (int pos = 0; pos < 4 * WINDOW; pos++) {
        tl_tensor *slot = tl_select(ring, 0, pos % WINDOW);
        tl_tensor *k = tl_matmul(x, wkt);
        tl_tensor *k1 = tl_view(k, TL_SHAPE(DIM));
        tl_copy_(slot, k1);
        tl_tensor *qs = tl_matmul(x, wq);
        tl_tensor *scores = tl_matmul(qs, ring_t);
        tl_tensor *att = tl_softmax(scores, -1);
        tl_tensor *ctx = tl_matmul(att, ring);
        tl_copy_(x, ctx);
        tl_release(ctx);
        tl_release(att);
        tl_release(scores);
        tl_release(qs);
        tl_release(k1);
        tl_release(k);
        tl_release(slot);
    }
    tl_release(wkt);
    tl_release(x);
    tl_release(ring_t);
    tl_release(ring);
}

int main(void)
{
    tl_tensor *wq = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, TL_CPU);
    tl_tensor *wk = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, TL_CPU);
    tl_tensor *wv = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, TL_CPU);
    tl_tensor *emb = tl_randn(TL_SHAPE(VOCAB, DIM), TL_F32, TL_CPU);
    decode(wq, wk, wv, false);
    decode(wq, wk, wv, true);
    decode_out(wq, wk, wv);
    decode_recompute(emb, wq, wk, wv);
    train(wq, wk, wv);
    decode_cross(wq, wk, wv);
    decode_window(wq, wk);
    tl_release(emb);
    tl_release(wv);
    tl_release(wk);
    tl_release(wq);
    return 0;
}
