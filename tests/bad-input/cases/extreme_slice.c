// bad-input: report {}
// exit: 0
// message: slice +\(1,\) +\(9223372036854775807,\)
#include <stdint.h>
#include <tensorlint/tensor.h>
/* Steps and bounds at INT64_MAX and INT64_MIN: Python's answers, no wrapped
 * arithmetic (UBSan would stop the analyzer). */
int main(void)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(10), TL_F32, TL_CPU);
    tl_tensor *a = tl_slice(x, 0, 0, TL_END, INT64_MAX);
    tl_tensor *b = tl_slice(x, 0, INT64_MIN, INT64_MAX, 1);
    tl_tensor *c = tl_slice(x, 0, INT64_MAX, INT64_MIN, 1);
    tl_release(a);
    tl_release(b);
    tl_release(c);
    tl_release(x);
    return 0;
}
