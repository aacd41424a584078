// bad-input: report --format=json {}
// exit: 1
// message: "check":"byte-overflow"
// message: numel: integer multiplication overflow
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(1), TL_F32, TL_CPU);
    tl_tensor *e = tl_expand(x, TL_SHAPE(1LL << 61, 4));
    tl_tensor *c = tl_contiguous(e);
    tl_release(x);
    return 0;
}
