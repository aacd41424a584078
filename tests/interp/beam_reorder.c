/* Beam reordering: each beam's cache is replaced by a copy of its parent's, through pointers. */
#include <tensorlint/tensor.h>

#define K 3

static const int parent[K] = {1, 1, 0};

static void reorder(tl_tensor **cache, const int *from)
{
    tl_tensor *next[K];
    for (int k = 0; k < K; k++)
        next[k] = tl_clone(cache[from[k]]); // expected: op=clone shape=(2, 4) bytes=32 moved=64 exec=3 freed=26
    for (int k = 0; k < K; k++) {
        tl_release(cache[k]);
        cache[k] = next[k];
    }
}

int main(void) // expected-func: peak=192 end=0 moved=288 peak-line=24 calls=6
{
    tl_tensor *cache[K];
    for (int k = 0; k < K; k++)
        cache[k] = tl_full(TL_SHAPE(2, 4), (double)k, TL_F32, TL_CPU); // expected: op=full shape=(2, 4) bytes=32 exec=3 freed=14
    reorder(cache, parent);
    for (int k = 0; k < K; k++)
        tl_release(cache[k]);
    return 0;
}
