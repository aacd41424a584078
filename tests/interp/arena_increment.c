/* An arena of handles, as graph libraries keep one: a helper stores each
 * tensor at a->ts[a->n++] (the index is the count before the increment)
 * and returns it; everything is released at the end by walking the arena.
 * Nothing leaks: each temporary is held by the arena. */
#include <tensorlint/tensor.h>
#include <stdlib.h>

#define DIM 4

typedef struct arena {
    tl_tensor *ts[16];
    int n;
} arena;

static tl_tensor *keep(arena *a, tl_tensor *t)
{
    a->ts[a->n++] = t;
    return t;
}

int main(void) // expected-func: peak=176 end=0 moved=464 peak-line=30 calls=9
{
    arena *a = calloc(1, sizeof *a);
    if (!a)
        return 1;
    tl_tensor *w = keep(a, tl_ones(TL_SHAPE(DIM, DIM), TL_F32, TL_CPU)); // expected: op=ones bytes=64 freed=37
    tl_tensor *x = keep(a, tl_ones(TL_SHAPE(1, DIM), TL_F32, TL_CPU));
    for (int l = 0; l < 3; l++) {
        tl_tensor *h = keep(a, tl_matmul(x, w)); // expected: op=matmul shape=(1, 4) bytes=16 moved=96 exec=3 freed=37
        x = keep(a, tl_gelu(h)); // expected: op=gelu bytes=16 moved=32 exec=3 freed=37
    }
    int kept = a->n;
    tl_tensor *last = a->ts[kept - 1];
    tl_tensor *copy = tl_contiguous(last); // expected: copy kind=view
    tl_release(copy);
    for (int i = 0; i < a->n; i++)
        tl_release(a->ts[i]);
    free(a);
    return 0;
}
