/* A generation loop that stops at a token read back from the tensors (host
 * memory tl_copy_to_host wrote, not known statically), so the loop may be
 * left at any step: it runs pos.iterations times, at most 8, a count of its
 * own.  Every step before the exit does the same, so the peak is exact and
 * the calls' counts are that count.  The run stops at the first step. */
// values: pos.iterations=1
#include <stdint.h>
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=152 end=0 peak-line=16
{
    tl_tensor *cache = tl_zeros(TL_SHAPE(8, 4), TL_F32, TL_CPU); // expected: cache bytes=128 freed=25 exec=1
    for (int pos = 0; pos < 8; pos++) {
        tl_tensor *row = tl_select(cache, 0, pos); // expected: row kind=view view-of=cache exec=pos.iterations
        tl_tensor *y = tl_exp(row); // expected: y shape=(4,) bytes=16 exec=pos.iterations
        tl_tensor *best = tl_argmax(y, 0, false); // expected: best dtype=i64 bytes=8 exec=pos.iterations
        int64_t token = -1;
        tl_copy_to_host(best, &token, sizeof token);
        tl_release(best);
        tl_release(y);
        tl_release(row);
        if (token == 0)
            break;
    }
    tl_release(cache);
    return 0;
}
