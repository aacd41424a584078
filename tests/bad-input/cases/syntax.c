// bad-input: report {}
// exit: 2
// message: syntax.c:5:[0-9]+: error: expected ';'
#include <tensorlint/tensor.h>
int main(void) { tl_tensor *x = tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU) return 0; }
