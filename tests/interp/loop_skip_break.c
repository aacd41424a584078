/* A loop of 10,000 iterations left early where a running total passes a
 * bound (iteration 141): the total differs in every iteration, so no state
 * repeats and the loop runs to its break, as before. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=384 end=0 peak-line=15 calls=283
{
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x bytes=128 exec=1
    int64_t total = 0;
    for (int i = 0; i < 10000; i++) {
        total += i;
        if (total > 10000)
            break;
        tl_tensor *y = tl_relu(x); // expected: y bytes=128 exec=141
        tl_tensor *z = tl_add(y, x); // expected: z bytes=128 exec=141
        tl_release(y);
        tl_release(z);
    }
    tl_release(x);
    return 0;
}
