/* A file with a C error: the diagnostic is passed through and what can be
 * lowered still is. */
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(2, 3), TL_F32, TL_CPU);
    tl_tensor *y = tl_relu(x);
    int bad = missing_variable * 2;
    undeclared_function(x);
    tl_release(x)
    return 0;
}
