/* A loop written for (;;) that only a value read back from a tensor ends:
 * its iterations cannot be counted statically.  The analysis follows one
 * iteration, says so, and claims nothing of the totals after it (it used
 * to iterate to --max-iterations, each iteration costlier than the last:
 * minutes for this file). */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak~=52 end~=0 moved~=60
{
    tl_tensor *t = tl_zeros(TL_SHAPE(4, 3), TL_F32, TL_CPU); // expected: op=zeros bytes=48 freed=22
    for (int i = 0;; i++) { // expected-note {{the loop ends only where a condition not known statically leaves it}} {{[unknown-trip-count]}}
        tl_tensor *m = tl_full(TL_SHAPE(1), (double)i, TL_F32, TL_CPU); // expected: op=full bytes=4 exec~=1
        float f = 0;
        tl_copy_to_host(m, &f, sizeof f);
        tl_release(m);
        if (f + 1 >= 6) // expected-note {{one arm leaves the loop}} {{[unknown-branch]}}
            break;
    }
    while (1) { // a test that never ends the loop, and an exit the analysis decides: counted
        break;
    }
    tl_release(t);
    return 0;
}
