/* Handles in heap arrays reached through a struct pointer: a loop over them
 * by pointer (p < end), and a memcpy of the array into a local one. */
#include <stdlib.h>
#include <string.h>
#include <tensorlint/tensor.h>

typedef struct { int n; tl_tensor **w; } Stack;

static Stack *stack_new(int n)
{
    Stack *s = malloc(sizeof *s);
    s->n = n;
    s->w = calloc((size_t)n, sizeof *s->w);
    for (int i = 0; i < n; i++)
        s->w[i] = tl_ones(TL_SHAPE(i + 1, 8), TL_F32, TL_CPU); // expected: s->w[i] shape=(1, 8) bytes=32 exec=3
    return s;
}

static void stack_free(Stack *s)
{
    for (int i = 0; i < s->n; i++)
        tl_release(s->w[i]);
    free(s->w);
    free(s);
}

int main(void) // expected-func: peak=256 end=0 moved=928 calls=11
{
    Stack *s = stack_new(3);
    tl_tensor *acc = tl_zeros(TL_SHAPE(8), TL_F32, TL_CPU); // expected: acc bytes=32 freed=42
    for (tl_tensor **p = s->w; p < s->w + s->n; p++) {
        tl_tensor *r = tl_sum(*p, 0, false); // expected: r shape=(8,) exec=3
        tl_add_(acc, r);
        tl_release(r);
    }
    tl_tensor *copy[3];
    memcpy(copy, s->w, sizeof copy);
    tl_tensor *last = copy[2];
    tl_tensor *m = tl_mean(last, 0, false); // expected: m shape=(8,) bytes=32
    tl_release(m);
    stack_free(s);
    tl_release(acc);
    return 0;
}
