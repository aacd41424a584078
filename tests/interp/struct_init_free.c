/* A weights struct filled by an init function through a pointer and freed by a free function. */
#include <tensorlint/tensor.h>

typedef struct Weights {
    tl_tensor *wq;
    tl_tensor *wk;
    tl_tensor *bias;
} Weights;

static void init_weights(Weights *w, int dim)
{
    w->wq = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU); // expected: op=randn shape=(8, 8) bytes=256 freed=19
    w->wk = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU); // expected: op=randn shape=(8, 8) bytes=256 freed=20
    w->bias = tl_zeros(TL_SHAPE(dim), TL_F32, TL_CPU); // expected: op=zeros shape=(8,) bytes=32 freed=21
}

static void free_weights(Weights *w)
{
    tl_release(w->wq);
    tl_release(w->wk);
    tl_release(w->bias);
}

int main(void) // expected-func: peak=800 end=0 moved=1536 peak-line=31 calls=7
{
    Weights w;
    init_weights(&w, 8);
    tl_tensor *x = tl_ones(TL_SHAPE(2, 8), TL_F32, TL_CPU); // expected: x shape=(2, 8) bytes=64 freed=35
    tl_tensor *q = tl_matmul(x, w.wq); // expected: q shape=(2, 8) strides=(8, 1) kind=new bytes=64 moved=384 freed=32
    tl_tensor *k = tl_matmul(x, w.wk); // expected: k shape=(2, 8) kind=new bytes=64 moved=384 freed=33
    tl_tensor *s = tl_add(q, w.bias); // expected: s shape=(2, 8) strides=(8, 1) kind=new bytes=64 moved=160 freed=34
    tl_release(q);
    tl_release(k);
    tl_release(s);
    tl_release(x);
    free_weights(&w);
    return 0;
}
