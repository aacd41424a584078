/* The first iteration allocates what the others reuse (a buffer made when
 * the pointer is still NULL): iteration 1 differs from the rest, which
 * repeat from iteration 2 on.  The buffer is made once. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=768 end=0 peak-line=14 calls=20002
{
    tl_tensor *buf = NULL;
    tl_tensor *x = tl_ones(TL_SHAPE(8, 8), TL_F32, TL_CPU); // expected: x bytes=256 exec=1
    for (int i = 0; i < 10000; i++) {
        if (!buf)
            buf = tl_zeros(TL_SHAPE(8, 8), TL_F32, TL_CPU); // expected: buf bytes=256 exec=1
        tl_add_(buf, x);
        tl_tensor *t = tl_exp(buf); // expected: t bytes=256 exec=10000
        tl_release(t);
    }
    tl_release(buf);
    tl_release(x);
    return 0;
}
