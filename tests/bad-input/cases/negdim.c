// bad-input: report {}
// exit: 1
// message: negative dimension -3
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(-3, 4), TL_F32, TL_CPU);
    return 0;
}
