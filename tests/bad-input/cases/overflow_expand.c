// bad-input: report {}
// exit: 1
// message: overflow_expand.c:11:20: error: tl_expand: numel: integer multiplication overflow \[byte-overflow\]
// message: overflow_expand.c:12:20: error: tl_add: Storage size calculation overflowed with sizes=\[1099511627776, 1099511627776\] \[byte-overflow\]
#include <tensorlint/tensor.h>
/* An expanded view of 2^124 elements, and a sum of two broadcast views of
 * 2^80 elements: each is an error at its line, never a wrapped count. */
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(1, 1), TL_F32, TL_CPU);
    tl_tensor *e = tl_expand(x, TL_SHAPE(1LL << 62, 1LL << 62));
    tl_tensor *s = tl_add(tl_expand(x, TL_SHAPE(1LL << 40, 1)), tl_expand(x, TL_SHAPE(1, 1LL << 40)));
    tl_release(x);
    return 0;
}
