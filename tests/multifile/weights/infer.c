/* Inference with weights loaded elsewhere: a transposed view, two matmuls. */
#include "weights.h"

tl_tensor *infer(const weights *w, tl_tensor *x)
{
    tl_tensor *e = tl_matmul(x, w->embed); // expected: e op=matmul shape=(4, 16) bytes=256 freed=infer.c:10
    tl_tensor *pt = tl_t(w->proj); // expected: pt op=t shape=(16, 16) strides=(1, 16) kind=view
    tl_tensor *h = tl_matmul(e, pt); // expected: h op=matmul shape=(4, 16) bytes=256 freed=main.c:12
    tl_release(pt);
    tl_release(e);
    return h;
}
