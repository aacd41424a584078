/* goto cleanup error paths: one call runs to the end, the other jumps out early. */
#include <tensorlint/tensor.h>

static int forward(int n, int limit)
{
    int rc = -1;
    tl_tensor *a = NULL, *b = NULL, *c = NULL;
    a = tl_randn(TL_SHAPE(n, 4), TL_F32, TL_CPU); // expected: a shape=(3, 4) bytes=48 exec=2 freed=19
    if (n > limit)
        goto cleanup;
    b = tl_relu(a); // expected: b shape=(3, 4) bytes=48 exec=1 freed=18
    c = tl_sum(b, 0, false); // expected: c shape=(4,) bytes=16 moved=64 exec=1 freed=17
    if (n > 2 * limit)
        goto cleanup;
    rc = 0;
cleanup:
    tl_release(c);
    tl_release(b);
    tl_release(a);
    return rc;
}

int main(void) // expected-func: peak=112 end=0 moved=256 peak-line=25 calls=4
{
    int ok = forward(3, 8);
    int failed = forward(3, 1);
    return ok == 0 && failed != 0 ? 0 : 1;
}
