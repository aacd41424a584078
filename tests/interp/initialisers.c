/* Struct and array initialisers of handles: {x, y, z} and {.a = y, .b = z}. */
#include <tensorlint/tensor.h>

typedef struct Pair {
    tl_tensor *a;
    tl_tensor *b;
} Pair;

int main(void) // expected-func: peak=84 end=0 moved=132 peak-line=17 calls=5
{
    tl_tensor *x = tl_ones(TL_SHAPE(4), TL_F32, TL_CPU); // expected: x bytes=16 freed=21
    tl_tensor *y = tl_ones(TL_SHAPE(8), TL_F32, TL_CPU); // expected: y bytes=32 freed=21
    tl_tensor *z = tl_ones(TL_SHAPE(2), TL_F64, TL_CPU); // expected: z bytes=16 freed=21
    tl_tensor *all[3] = {x, y, z};
    Pair p = {.a = y, .b = z};
    tl_tensor *s = tl_sum(all[1], 0, false); // expected: s shape=() strides=() dtype=f32 kind=new bytes=4 moved=36 freed=18
    tl_tensor *t = tl_mul_scalar(p.b, 3.0); // expected: t shape=(2,) dtype=f64 kind=new bytes=16 moved=32 freed=19
    tl_release(s);
    tl_release(t);
    for (int i = 0; i < 3; i++)
        tl_release(all[i]);
    return 0;
}
