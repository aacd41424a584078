/* Unsigned integers narrower than 64 bits wrap as C's do: a linear
 * congruential generator stays a known integer at every step (it made a
 * new symbol per step before), and an unsigned char overflows to 4. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=100 end=0 moved=100 peak-line=16 calls=2
{
    unsigned state = 12345u;
    for (int k = 0; k < 10; k++)
        state = state * 1664525u + 1013904223u;
    unsigned char small = 250;
    small = small + 10;
    unsigned short neg = 0;
    neg = neg - 1; /* 65535 */
    tl_tensor *x = tl_zeros(TL_SHAPE(state % 7 + 1, small), TL_F32, TL_CPU); // expected: x shape=(6, 4) dtype=f32 bytes=96
    tl_tensor *y = tl_zeros(TL_SHAPE(neg / 65535), TL_F32, TL_CPU); // expected: y shape=(1,) bytes=4
    tl_release(y);
    tl_release(x);
    return 0;
}
