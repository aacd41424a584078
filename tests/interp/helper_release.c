/* Helpers that release what they are given, directly and through another helper. */
#include <tensorlint/tensor.h>

static void consume(tl_tensor *t)
{
    tl_release(t);
}

static tl_tensor *step(tl_tensor *x)
{
    tl_tensor *y = tl_add_scalar(x, 1.0); // expected: y shape=(4, 4) bytes=64 moved=128 exec=2 freed=6
    consume(x);
    return y;
}

static void drop_view(tl_tensor *t)
{
    tl_tensor *v = tl_t(t); // expected: v shape=(4, 4) strides=(1, 4) kind=view view-of=y exec=1
    tl_release(v);
    tl_release(t);
}

int main(void) // expected-func: peak=128 end=0 moved=320 peak-line=26 calls=4
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: x bytes=64 freed=6
    x = step(x);
    x = step(x);
    drop_view(x);
    return 0;
}
