/* A loop of 10,000 iterations whose body reads its counter other than as
 * `counter % K`: one iteration (7,777) allocates more.  The states repeat
 * but for the counter, which tells that iteration from the others: the
 * loop must run to its end, and count the one allocation and its peak. */
#include <tensorlint/tensor.h>

static int g_step;

int main(void) // expected-func: peak=1280 end=0 peak-line=15 calls=20002
{
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x bytes=128 exec=1
    for (int i = 0; i < 10000; i++) {
        tl_tensor *y = tl_relu(x); // expected: y bytes=128 exec=10000
        if (i == 7777) {
            tl_tensor *big = tl_zeros(TL_SHAPE(32, 8), TL_F32, TL_CPU); // expected: big bytes=1024 exec=1
            tl_release(big);
        }
        tl_release(y);
    }
    for (g_step = 0; g_step < 10000; g_step++) { /* a global counter: any function may read it */
        tl_tensor *z = tl_exp(x); // expected: z bytes=128 exec=10000
        tl_release(z);
    }
    tl_release(x);
    return 0;
}
