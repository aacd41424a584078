/* A static helper named make: this unit's own (C linkage keeps it here). */
#include <tensorlint/tensor.h>

static tl_tensor *make(void)
{
    return tl_zeros(TL_SHAPE(2, 2), TL_F32, TL_CPU); // expected: op=zeros shape=(2, 2) bytes=16 freed=main.c:11
}

tl_tensor *make_a(void)
{
    return make();
}
