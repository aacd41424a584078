/* while and do-while loops with trip counts known statically. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=96 end=0 moved=612 peak-line=10 calls=8
{
    tl_tensor *x = tl_ones(TL_SHAPE(3, 4), TL_F32, TL_CPU); // expected: x bytes=48 exec=1
    int n = 4;
    int i = 0;
    while (i < n) {
        tl_tensor *y = tl_relu(x); // expected: y shape=(3, 4) bytes=48 moved=96 exec=4
        tl_release(x);
        x = y;
        i++;
    }
    int k = 3;
    do {
        tl_tensor *s = tl_sum(x, 1, false); // expected: s shape=(3,) bytes=12 moved=60 exec=3 freed=18
        tl_release(s);
    } while (--k > 0);
    tl_release(x);
    return 0;
}
