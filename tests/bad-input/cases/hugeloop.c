// bad-input: report {}
// exit: 0
// message: loop stopped after 1000000 iterations
#include <tensorlint/tensor.h>
int main(void)
{
    tl_tensor *w = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    for (long i = 0; i < 1000000000000L; i++) {
        tl_tensor *y = tl_add(w, w);
        tl_release(y);
    }
    return 0;
}
