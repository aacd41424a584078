/* The value of an unsigned counter's post-decrement or post-increment is
 * its old value, also when the update wraps: `i-- > 0` reads 0 when i was
 * 0 (i becomes UINT_MAX), so a loop counting down so stops after n
 * iterations.  The old value was read as the new one plus 1, not wrapped:
 * 2^32 > 0, and the loop ran to the iteration limit. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=64 end=0 moved=348 calls=9
{
    for (unsigned i = 5; i-- > 0;) {
        tl_tensor *t = tl_ones(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: t shape=(4, 4) bytes=64
        tl_release(t);
    }
    unsigned char k = 3;
    while (k--) {
        tl_tensor *u = tl_zeros(TL_SHAPE(k + 1), TL_F32, TL_CPU); // expected: u dtype=f32 exec=3
        tl_release(u);
    }
    unsigned short w = 65535;
    int before = w++; /* 65535; w is 0 */
    tl_tensor *z = tl_zeros(TL_SHAPE(before / 65535, w + 1), TL_F32, TL_CPU); // expected: z shape=(1, 1) bytes=4
    tl_release(z);
    return 0;
}
