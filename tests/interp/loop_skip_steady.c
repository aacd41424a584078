/* A loop counted to 10,000 whose iterations leave the state they found
 * (the handles and storages new, the same layouts and live bytes): after a
 * few iterations the rest are counted a period at a time, not run.  The
 * counts must be the run's, and the peak the one an iteration reaches. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=640 end=0 moved=7680528 peak-line=13 calls=20003
{
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x bytes=128 exec=1
    tl_tensor *w = tl_randn(TL_SHAPE(8, 8), TL_F32, TL_CPU); // expected: w bytes=256 exec=1
    for (int i = 0; i < 10000; i++) {
        tl_tensor *h = tl_matmul(x, w); // expected: h shape=(4, 8) kind=new bytes=128 moved=512 exec=10000
        tl_tensor *y = tl_relu(h); // expected: y shape=(4, 8) kind=new bytes=128 moved=256 exec=10000
        tl_release(h);
        tl_release(x);
        x = y;
    }
    tl_tensor *s = tl_sum(x, 1, false); // expected: s shape=(4,) bytes=16 moved=144 exec=1
    tl_release(s);
    tl_release(x);
    tl_release(w);
    return 0;
}
