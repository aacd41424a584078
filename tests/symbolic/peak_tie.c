/* Two peaks that tie for some sizes: at line 17 (base, t1, t3) and line 19
 * (base, t1, t4) the live bytes are 4*n*d + 16*n + 12*d and 20*n*d + 12*d,
 * the second at least the first for every size, equal at d = 1.  The peak's
 * line is where the peak is first reached: line 17 at d = 1 (with n >= 8),
 * so that candidate stays in the report's max (it was dropped as
 * dominated, and the report named line 19 there).  A program generated at
 * random, found by running many through this runner. */
// bind: n d
// values: 1 1 | 2 3 | 5 2 | 3 40 | 60 1
#include <stdlib.h>
#include <tensorlint/tensor.h>
int main(int argc, char **argv)
{
    int n = atoi(argv[1]), d = atoi(argv[2]);
    (void)argc;
    tl_tensor *base = tl_zeros(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *t1 = tl_zeros(TL_SHAPE(3, d), TL_F32, TL_CPU);
    for (int i0 = 0; i0 < d; i0++) {
        tl_tensor *t2 = tl_zeros(TL_SHAPE(4, 8), TL_F32, TL_CPU);
        tl_release(t2);
    }
    for (int i0 = 0; i0 < n; i0++) {
    }
    tl_tensor *t3 = tl_ones(TL_SHAPE(n, 4), TL_F32, TL_CPU);
    tl_release(t3);
    tl_tensor *t4 = tl_zeros(TL_SHAPE(n * 2, 2 * d), TL_F32, TL_CPU);
    tl_release(t1);
    tl_release(t4);
    tl_release(base);
    return 0;
}
