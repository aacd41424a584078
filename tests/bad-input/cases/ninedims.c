// bad-input: report {}
// exit: 1
// message: a tl_ints holds 0 to 8 values, not 9 \[invalid-argument\]
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1), TL_F32, TL_CPU);
    return 0;
}
