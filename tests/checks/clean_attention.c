/* Clean: attention with the head merge written as an explicit copy
 * (tl_contiguous, then a view), each temporary released after its last use. */
#include <tensorlint/tensor.h>

#define B 2
#define S 256
#define D 512
#define H 8
#define HD (D / H)

static tl_tensor *heads(tl_tensor *x)
{
    tl_tensor *v = tl_view(x, TL_SHAPE(B, S, H, HD));
    tl_tensor *p = tl_permute(v, TL_DIMS(0, 2, 1, 3));
    tl_release(v);
    return p;
}

static tl_tensor *attend(tl_tensor *x, tl_tensor *wq, tl_tensor *wk, tl_tensor *wv)
{
    tl_tensor *q = tl_matmul(x, wq), *k = tl_matmul(x, wk), *v = tl_matmul(x, wv);
    tl_tensor *qh = heads(q), *kh = heads(k), *vh = heads(v);
    tl_release(q);
    tl_release(k);
    tl_release(v);
    tl_tensor *kt = tl_transpose(kh, -2, -1);
    tl_tensor *scores = tl_matmul(qh, kt);
    tl_release(kt);
    tl_release(kh);
    tl_release(qh);
    tl_mul_scalar_(scores, 0.125);
    tl_tensor *probs = tl_softmax(scores, -1);
    tl_release(scores);
    tl_tensor *ctx = tl_matmul(probs, vh);
    tl_release(probs);
    tl_release(vh);
    tl_tensor *merged = tl_transpose(ctx, 1, 2);
    tl_tensor *dense = tl_contiguous(merged);
    tl_release(merged);
    tl_release(ctx);
    tl_tensor *flat = tl_view(dense, TL_SHAPE(B, S, D));
    tl_release(dense);
    return flat;
}

int main(void)
{
    tl_tensor *wq = tl_randn(TL_SHAPE(D, D), TL_F32, TL_CPU);
    tl_tensor *wk = tl_randn(TL_SHAPE(D, D), TL_F32, TL_CPU);
    tl_tensor *wv = tl_randn(TL_SHAPE(D, D), TL_F32, TL_CPU);
    tl_tensor *wo = tl_randn(TL_SHAPE(D, D), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(B, S, D), TL_F32, TL_CPU);
    tl_tensor *a = attend(x, wq, wk, wv);
    tl_tensor *out = tl_matmul(a, wo);
    tl_release(a);
    tl_tensor *res = tl_add(out, x);
    tl_release(out);
    tl_release(x);
    tl_release(res);
    tl_release(wo);
    tl_release(wv);
    tl_release(wk);
    tl_release(wq);
    return 0;
}
