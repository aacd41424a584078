/* A loop with tensor code whose trip count is not known (one iteration per
 * strtok token) is analysed once, and what it writes is not known after it:
 * k is a run-time value (a symbol, bound here to the run's 5), never the
 * one iteration's 1, so z is (k, 8).  The totals are bounds in no direction
 * (the loop may run any number of times): the report says so, and verify
 * leaves the end and the peak uncompared (2 totals, not bounded), as it does
 * relu's count of executions (not exact) and the live bytes after the calls
 * of the iterations not analysed; every shape is compared, z's at k = 5. */
// bind: k
// values: 5
// expected-bounds: end_live_bytes moved_bytes peak_live_bytes
#include <string.h>
#include <tensorlint/tensor.h>

int main(void)
{
    char text[] = "one two three four five";
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); /* 128 B */
    int k = 0;
    for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) { /* a note: once */
        tl_tensor *y = tl_relu(x); /* (4, 8) each iteration */
        tl_release(y);
        k++;
    }
    tl_tensor *z = tl_zeros(TL_SHAPE(k, 8), TL_F32, TL_CPU); /* (k, 8): 32*k B */
    tl_release(z);
    tl_release(x);
    return 0;
}
