/* A ring buffer of handles indexed modulo N: each step releases the oldest slot. */
#include <tensorlint/tensor.h>

#define N 3

int main(void) // expected-func: peak=64 end=0 moved=208 peak-line=16 calls=11
{
    tl_tensor *ring[N];
    for (int i = 0; i < N; i++)
        ring[i] = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU); // expected: op=zeros bytes=16 exec=3 freed=12
    for (int step = 0; step < 7; step++) {
        tl_release(ring[step % N]);
        ring[step % N] = tl_full(TL_SHAPE(2, 2), (double)step, TL_F32, TL_CPU); // expected: op=full shape=(2, 2) bytes=16 exec=7 freed=12
    }
    /* ring[0] holds step 6, ring[1] step 4, ring[2] step 5 */
    tl_tensor *s = tl_add(ring[1], ring[2]); // expected: s shape=(2, 2) strides=(2, 1) kind=new bytes=16 moved=48 freed=17
    tl_release(s);
    for (int i = 0; i < N; i++)
        tl_release(ring[i]);
    return 0;
}
