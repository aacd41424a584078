/* A function pointer compared against NULL and against a function: the
 * tests are exact (one function, one place), so only the arm the run takes
 * is analysed, and a struct copy carries the pointers with it. */
#include <stddef.h>
#include <tensorlint/tensor.h>

typedef tl_tensor *(*unary)(tl_tensor *x);

static tl_tensor *twice(tl_tensor *x) { return tl_add(x, x); } // expected: - op=add bytes=64 exec=1
static tl_tensor *negate(tl_tensor *x) { return tl_neg(x); } // expected: - op=neg bytes=64 exec=1

typedef struct stage {
    unary pre, post;
} stage;

int main(void) // expected-func: peak=200 end=0 moved=392 peak-line=32 calls=4
{
    stage a = {twice, NULL};
    stage b = a; /* a copy of both pointers */
    b.post = &negate;
    tl_tensor *x = tl_ones(TL_SHAPE(16), TL_F32, TL_CPU); // expected: x bytes=64 freed=37
    tl_tensor *y = a.pre ? a.pre(x) : tl_clone(x);
    if (a.post) /* NULL: not taken */
        tl_release(tl_zeros(TL_SHAPE(1024), TL_F32, TL_CPU)); // expected: - op=zeros exec=0
    tl_tensor *z = NULL;
    if (b.post == negate && b.pre != negate)
        z = b.post(y);
    else
        z = tl_zeros(TL_SHAPE(4096), TL_F32, TL_CPU); // expected: z op=zeros exec=0
    unary f = b.pre;
    if (f == a.pre && f != NULL)
        tl_release(tl_ones(TL_SHAPE(2), TL_F32, TL_CPU)); // expected: - op=ones bytes=8 exec=1
    else
        tl_release(tl_ones(TL_SHAPE(3000), TL_F32, TL_CPU)); // expected: - op=ones exec=0
    tl_release(z);
    tl_release(y);
    tl_release(x);
    return 0;
}
