/* mask-rebuilt-in-loop: a causal mask rebuilt at the same size from unchanged
 * operands in every step of a decoding loop. */
// CHECK-OPTIONS: --checks=-*,mask-rebuilt-in-loop
#include <math.h>
#include <tensorlint/tensor.h>

#define SEQ 16

int main(void)
{
    tl_tensor *scores = tl_randn(TL_SHAPE(4, SEQ, SEQ), TL_F32, TL_CPU);
    tl_tensor *ones = tl_ones(TL_SHAPE(SEQ, SEQ), TL_BOOL, TL_CPU);
    for (int step = 0; step < 8; step++) {
        tl_add_scalar_(scores, 0.5); /* the scores change every step, the mask does not */
        tl_tensor *future = tl_triu(ones, 1); // expected-warning {{[mask-rebuilt-in-loop]}}
        tl_tensor *masked = tl_masked_fill(scores, future, -INFINITY);
        tl_tensor *probs = tl_softmax(masked, -1);
        tl_release(probs);
        tl_release(masked);
        tl_release(future);
    }
    /* made inside the loop from a creation of the same size: still the same mask */
    for (int step = 0; step < 4; step++) {
        tl_tensor *all = tl_ones(TL_SHAPE(SEQ, SEQ), TL_BOOL, TL_CPU);
        tl_tensor *past = tl_tril(all, 0); // expected-warning {{[mask-rebuilt-in-loop]}}
        tl_release(past);
        tl_release(all);
    }
    /* near misses: a mask that grows with the step, a mask of data that changes */
    for (int step = 0; step < 4; step++) {
        tl_tensor *grow = tl_ones(TL_SHAPE(step + 1, step + 1), TL_BOOL, TL_CPU);
        tl_tensor *tri = tl_triu(grow, 1);
        tl_release(tri);
        tl_release(grow);
        tl_add_scalar_(scores, 1.0);
        tl_tensor *pos = tl_lt(scores, ones);
        tl_release(pos);
    }
    tl_tensor *once = tl_triu(ones, 1);
    tl_release(once);
    tl_release(ones);
    tl_release(scores);
    return 0;
}
