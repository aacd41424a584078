/* Helpers that fill an out-parameter (tl_tensor **) and that release what they are given. */
#include <tensorlint/tensor.h>

static int make(tl_tensor **out, int n)
{
    *out = tl_zeros(TL_SHAPE(n, n), TL_F32, TL_CPU); // expected: op=zeros shape=(4, 4) bytes=64 freed=12
    return 0;
}

static void consume(tl_tensor *t)
{
    tl_release(t);
}

static tl_tensor *step(tl_tensor *x)
{
    tl_tensor *y = tl_add_scalar(x, 1.0); // expected: y shape=(4, 4) bytes=64 moved=128 exec=2
    consume(x);
    return y;
}

int main(void) // expected-func: peak=128 end=0 moved=320 peak-line=26 calls=3
{
    tl_tensor *x = NULL;
    make(&x, 4);
    x = step(x);
    x = step(x);
    tl_release(x);
    return 0;
}
