/* Loading: every weight made here, released by free_weights. */
#include "weights.h"

weights load_weights(int vocab, int dim)
{
    weights w;
    w.embed = tl_randn(TL_SHAPE(vocab, dim), TL_F32, TL_CPU); // expected: op=randn shape=(100, 16) bytes=6400 freed=weights.c:14
    w.proj = tl_randn(TL_SHAPE(dim, dim), TL_F32, TL_CPU); // expected: op=randn shape=(16, 16) bytes=1024 freed=weights.c:15
    return w;
}

void free_weights(weights *w)
{
    tl_release(w->embed);
    tl_release(w->proj);
}
