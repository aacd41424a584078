/* tl_ints held in memory: a struct field, an array of specs, a parameter
 * passed by value (a tl_ints variable, and TL_SHAPE written at the call). */
#include <tensorlint/tensor.h>

typedef struct { tl_ints shape; int dtype; } Spec;

static tl_tensor *make(tl_ints shape) { return tl_zeros(shape, TL_F32, TL_CPU); } // expected: - shape=(8, 2) exec=2

int main(void) // expected-func: peak=940 end=0 calls=5
{
    Spec s = {TL_SHAPE(2, 3), 0};
    Spec specs[2] = {{TL_SHAPE(16), 0}, {TL_SHAPE(5, 6, 7), 0}};
    tl_tensor *a = tl_zeros(s.shape, TL_F32, TL_CPU); // expected: a shape=(2, 3) bytes=24
    tl_tensor *b = tl_ones(specs[1].shape, TL_F32, TL_CPU); // expected: b shape=(5, 6, 7) bytes=840
    tl_ints sh = TL_SHAPE(8, 2);
    tl_tensor *c = make(sh);
    tl_tensor *d = make(TL_SHAPE(3));
    tl_tensor *e = tl_view(c, specs[0].shape); // expected: e shape=(16,) kind=view
    tl_release(a);
    tl_release(b);
    tl_release(c);
    tl_release(d);
    tl_release(e);
    return 0;
}
