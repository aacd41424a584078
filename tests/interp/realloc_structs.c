/* realloc of an array of structs that hold handles (a KV cache that grows
 * a layer at a time): every field of every element moves to the new block,
 * integers and handles alike. */
#include <stdlib.h>
#include <tensorlint/tensor.h>

typedef struct entry {
    int len;
    tl_tensor *k, *v;
} entry;

static void entry_fill(entry *e, int len)
{
    e->len = len;
    e->k = tl_zeros(TL_SHAPE(len, 4), TL_F32, TL_CPU); // expected: e->k exec=3 freed=32
    e->v = tl_zeros(TL_SHAPE(len, 4), TL_F32, TL_CPU); // expected: e->v exec=3 freed=33
}

int main(void) // expected-func: peak=672 end=0 moved=896 peak-line=29 calls=7
{
    int n = 1;
    entry *cache = calloc(1, sizeof *cache);
    entry_fill(&cache[0], 2);
    for (int l = 1; l < 3; l++) {
        cache = realloc(cache, (size_t)(n + 1) * sizeof *cache);
        entry_fill(&cache[n], cache[n - 1].len * 2);
        n++;
    }
    tl_tensor *kv = tl_cat(TL_LIST(cache[0].k, cache[1].v, cache[2].k), 0); // expected: kv shape=(14, 4) bytes=224 freed=30
    tl_release(kv);
    for (int l = 0; l < n; l++) {
        tl_release(cache[l].k);
        tl_release(cache[l].v);
    }
    free(cache);
    return 0;
}
