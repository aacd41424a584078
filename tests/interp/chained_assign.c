/* Chained assignments and handles kept in void pointers, as C code writes
 * them: `a->m = a->v = NULL;` resets two fields at once (the value of an
 * assignment is what its left side holds after it), and an object list of
 * void * hands its elements back through a cast. */
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct adam {
    tl_tensor *m, *v;
    int steps, warm;
} adam;

static void adam_release(void *obj)
{
    adam *a = obj;
    tl_release(a->m);
    tl_release(a->v);
    a->m = a->v = NULL;
}

int main(void) // expected-func: peak=448 end=0 moved=640 peak-line=35 calls=5
{
    adam a;
    a.m = a.v = NULL;
    a.steps = a.warm = 8;
    void *objs[2];
    tl_tensor *m = tl_zeros(TL_SHAPE(a.steps, 4), TL_F32, TL_CPU); // expected: op=zeros shape=(8, 4) bytes=128 freed=39
    objs[0] = m;
    a.m = m;
    a.v = tl_zeros(TL_SHAPE(a.warm, 4), TL_F32, TL_CPU); // expected: op=zeros bytes=128 freed=17
    tl_tensor *n;
    objs[1] = n = tl_ones(TL_SHAPE(2, 4), TL_F32, TL_CPU); // expected: n op=ones bytes=32 freed=40
    tl_tensor *s = tl_add((tl_tensor *)objs[1], n); // expected: op=add shape=(2, 4) bytes=32 freed=41
    tl_tensor *keep = a.m;
    a.m = tl_clone(keep); // expected: op=clone bytes=128 freed=16
    adam_release(&a);
    if (a.m != NULL || a.v != NULL)
        return 1;
    tl_release((tl_tensor *)objs[0]);
    tl_release((tl_tensor *)objs[1]);
    tl_release(s);
    return 0;
}
