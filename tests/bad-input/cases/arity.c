// bad-input: report {}
// exit: 2
// message: too few arguments
#include <tensorlint/tensor.h>
int main(void) { tl_tensor *x = tl_zeros(TL_SHAPE(2), TL_F32); return 0; }
