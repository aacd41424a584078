// bad-input: report {}
// exit: 1
// message: uses 'x' after it was released \[use-after-release\]
// message: released twice \[double-release\]
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU);
    tl_release(x);
    tl_tensor *y = tl_clone(x);
    tl_release(x);
    return 0;
}
