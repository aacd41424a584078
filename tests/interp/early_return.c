/* Early returns: from the top of a helper, and out of the middle of a loop. */
#include <tensorlint/tensor.h>

static tl_tensor *project(tl_tensor *x, tl_tensor *w, int skip)
{
    if (skip)
        return tl_clone(x); // expected: op=clone shape=(2, 4) bytes=32 exec=1 freed=34
    tl_tensor *h = tl_matmul(x, w); // expected: h shape=(2, 4) bytes=32 moved=128 exec=1 freed=10
    tl_tensor *y = tl_relu(h); // expected: y shape=(2, 4) bytes=32 exec=1 freed=35
    tl_release(h);
    return y;
}

static tl_tensor *repeat(tl_tensor *x, int times)
{
    tl_tensor *cur = tl_clone(x); // expected: cur bytes=32 exec=1 freed=21 // expected-warning {{allocates 32 B for nothing}} {{[redundant-copy]}}
    for (int i = 0; i < 100; i++) {
        if (i == times)
            return cur;
        tl_tensor *nx = tl_add(cur, x); // expected: nx shape=(2, 4) bytes=32 moved=96 exec=3 freed=21
        tl_release(cur);
        cur = nx;
    }
    return cur;
}

int main(void) // expected-func: peak=224 end=0 moved=704 peak-line=33 calls=9
{
    tl_tensor *x = tl_ones(TL_SHAPE(2, 4), TL_F32, TL_CPU); // expected: x bytes=32 freed=37
    tl_tensor *w = tl_randn(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: w bytes=64 freed=38
    tl_tensor *a = project(x, w, 1);
    tl_tensor *b = project(x, w, 0);
    tl_tensor *c = repeat(x, 3);
    tl_release(a);
    tl_release(b);
    tl_release(c);
    tl_release(x);
    tl_release(w);
    return 0;
}
