/* Another static helper named make, in another unit: a different function. */
#include <tensorlint/tensor.h>

static tl_tensor *make(void)
{
    return tl_zeros(TL_SHAPE(3, 5), TL_F64, TL_CPU); // expected: op=zeros shape=(3, 5) bytes=120 freed=main.c:12
}

tl_tensor *make_b(void)
{
    return make();
}
