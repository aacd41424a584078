/* Base of clone: x, y and z live at the peak (12 MiB); x is released late. */
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *y = tl_relu(x);
    tl_tensor *z = tl_add(y, y);
    tl_release(z);
    tl_release(y);
    tl_release(x);
    return 0;
}
