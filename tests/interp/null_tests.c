/* Null tests on handles: if (m), if (!x), x != NULL, x == NULL (defect 1). */
#include <stddef.h>
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=96 end=0 moved=168 peak-line=17 calls=4
{
    tl_tensor *m = tl_ones(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: m bytes=64 freed=21
    tl_tensor *n = NULL;
    tl_tensor *a = NULL, *b = NULL, *c = NULL;
    if (m)
        a = tl_sum(m, 0, false); // expected: a shape=(4,) bytes=16 moved=80 exec=1 freed=22
    if (!n)
        n = tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU); // expected: n bytes=8 exec=1 freed=23
    if (m == NULL)
        c = tl_clone(m); // expected: c exec=0 shape=?
    if (n != NULL)
        b = tl_exp(n); // expected: b shape=(2,) bytes=8 moved=16 exec=1 freed=24
    if (!a || !b)
        return 1;
    tl_release(c);
    tl_release(m);
    tl_release(a);
    tl_release(n);
    tl_release(b);
    return 0;
}
