/*
 * One transformer attention block written with the tensor API: the three
 * projections, the head split (view + permute: free), the scores and their
 * softmax, the context, and the head merge, whose reshape copies because
 * the transpose that undid the head split left the heads interleaved.
 */
#include <tensorlint/tensor.h>

#ifndef DEVICE
#define DEVICE TL_CPU
#endif
#define BATCH 2
#define SEQ 256
#define DIM 512
#define HEADS 8
#define HEAD_DIM (DIM / HEADS)

/* (BATCH, SEQ, DIM) -> (BATCH, HEADS, SEQ, HEAD_DIM): a view. */
static tl_tensor *split_heads(tl_tensor *x)
{
    tl_tensor *v = tl_view(x, TL_SHAPE(BATCH, SEQ, HEADS, HEAD_DIM));
    tl_tensor *p = tl_permute(v, TL_DIMS(0, 2, 1, 3));
    tl_release(v);
    return p;
}

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(BATCH, SEQ, DIM), TL_F32, DEVICE);
    tl_tensor *wq = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, DEVICE);
    tl_tensor *wk = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, DEVICE);
    tl_tensor *wv = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, DEVICE);
    tl_tensor *wo = tl_randn(TL_SHAPE(DIM, DIM), TL_F32, DEVICE);

    tl_tensor *q = tl_matmul(x, wq);
    tl_tensor *k = tl_matmul(x, wk);
    tl_tensor *v = tl_matmul(x, wv);
    tl_tensor *qh = split_heads(q);
    tl_tensor *kh = split_heads(k);
    tl_tensor *vh = split_heads(v);
    tl_tensor *kt = tl_transpose(kh, -2, -1);
    tl_tensor *scores = tl_matmul(qh, kt);
    tl_tensor *scaled = tl_mul_scalar(scores, 0.125);
    tl_release(scores);
    tl_tensor *probs = tl_softmax(scaled, -1);
    tl_release(scaled);
    tl_tensor *ctx = tl_matmul(probs, vh);
    tl_release(probs);
    tl_tensor *merged = tl_transpose(ctx, 1, 2);
    tl_tensor *flat = tl_reshape(merged, TL_SHAPE(BATCH, SEQ, DIM));
    tl_tensor *out = tl_matmul(flat, wo);

    tl_release(x);
    tl_release(wq);
    tl_release(wk);
    tl_release(wv);
    tl_release(wo);
    tl_release(q);
    tl_release(k);
    tl_release(v);
    tl_release(qh);
    tl_release(kh);
    tl_release(vh);
    tl_release(kt);
    tl_release(ctx);
    tl_release(merged);
    tl_release(flat);
    tl_release(out);
    return 0;
}
