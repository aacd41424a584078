/* A generation loop that stops at a token read back from the tensors (host
 * memory tl_copy_to_host wrote, not known statically), so the loop may be
 * left at any step.  The analysis goes through every step: the totals and the
 * calls' counts are upper bounds.  The run stops at the first step. */
#include <stdint.h>
#include <tensorlint/tensor.h>

int main(void) // expect-func: peak<=152 end<=0 moved<=704
{
    tl_tensor *cache = tl_zeros(TL_SHAPE(8, 4), TL_F32, TL_CPU); // expect: cache bytes=128 freed=23 exec=1
    for (int pos = 0; pos < 8; pos++) {
        tl_tensor *row = tl_select(cache, 0, pos); // expect: row kind=view view-of=cache exec<=8
        tl_tensor *y = tl_exp(row); // expect: y shape=(4,) bytes=16 exec<=8
        tl_tensor *best = tl_argmax(y, 0, false); // expect: best dtype=i64 bytes=8 exec<=8
        int64_t token = -1;
        tl_copy_to_host(best, &token, sizeof token);
        tl_release(best);
        tl_release(y);
        tl_release(row);
        if (token == 0) // expect-note {{leaves the loop}} [unknown-branch]
            break;
    }
    tl_release(cache);
    return 0;
}
