/* Loops whose trip count the analysis cannot know: each runs until a token
 * read back from a tensor (host memory tl_copy_to_host wrote) is 0.  The
 * body is analysed for one iteration and every total after it is not exact
 * (the moved bytes count one iteration: the run moves more).
 * The run goes through the first loop four times and skips the second:
 * verify follows the later iterations and the skip, and still compares
 * every call site with the one iteration analysed. */
#include <stdint.h>
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak~=128 end~=0
{
    int64_t tokens[5] = {3, 2, 1, 0, 7};
    tl_tensor *data = tl_from_blob(tokens, TL_SHAPE(5), TL_I64); // expected: data kind=new
    tl_tensor *acc = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: acc bytes=64
    int64_t token = 1, pos = 0;
    while (token != 0) { // expected-note {{the body is analysed for one iteration}} {{[unknown-trip-count]}}
        tl_tensor *row = tl_select(data, 0, pos); // expected: row kind=view view-of=data
        tl_copy_to_host(row, &token, sizeof token);
        tl_tensor *x = tl_exp(acc); // expected: x shape=(4, 4) bytes=64
        tl_release(acc);
        acc = x;
        tl_release(row);
        pos++;
    }
    tl_tensor *last = tl_select(data, 0, 3);
    tl_copy_to_host(last, &token, sizeof token); /* 0: the next loop never runs */
    tl_release(last);
    while (token != 0) { // expected-note {{the body is analysed for one iteration}} {{[unknown-trip-count]}}
        tl_tensor *y = tl_mul_scalar(acc, 0.5);
        tl_release(acc);
        acc = y;
        tl_tensor *row = tl_select(data, 0, 4);
        tl_copy_to_host(row, &token, sizeof token);
        tl_release(row);
        token = 0;
    }
    tl_tensor *s = tl_sum(acc, 0, false); // expected: s shape=(4,) bytes=16
    tl_release(s);
    tl_release(acc);
    tl_release(data);
    return 0;
}
