/* Head of clone: a clone made before the peak and held across it raises
 * the peak by its 4 MiB; its late release is a new warning too, x's late
 * release is the base's, unchanged. */
// BASELINE-SUMMARY: 2 new, 1 unchanged (not shown), 0 gone since the base
// BASELINE-MESSAGE: peak of 'main' grew from 12 MiB to 16 MiB (+4 MiB, +33%) against the baseline; it is reached at line 13
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *keep = tl_clone(x); // expected-note {{a copy that appeared: tl_clone 'keep' copies 4 MiB here}}
    tl_tensor *y = tl_relu(x);
    tl_tensor *z = tl_add(y, y); // expected-warning {{[peak-regression]}}
    tl_release(z);
    tl_release(keep); // expected-warning {{[late-release]}}
    tl_release(y);
    tl_release(x);
    return 0;
}
