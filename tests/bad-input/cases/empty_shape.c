// bad-input: report {}
// exit: 2
// message: empty_shape.c:10:20: error: expected expression
// message: note: expanded from macro 'TL_SHAPE'
#include <tensorlint/tensor.h>
/* TL_SHAPE() holds 1 to 8 values: empty, it is a C error, not the shape (0,)
 * (a 0-dim shape is TL_SHAPE0). */
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(), TL_F32, TL_CPU);
    tl_release(x);
    return 0;
}
