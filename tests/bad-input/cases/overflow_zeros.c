// bad-input: report {}
// exit: 1
// message: overflow_zeros.c:9:20: error: tl_zeros: Storage size calculation overflowed with sizes=\[1099511627776, 1073741824\] \[byte-overflow\]
#include <tensorlint/tensor.h>
/* torch.zeros(2**40, 2**30): 2^70 elements.  The add after it is not
 * reported again: its operand is the result of an error. */
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(1LL << 40, 1LL << 30), TL_F32, TL_CPU);
    tl_tensor *y = tl_add(x, x);
    return 0;
}
