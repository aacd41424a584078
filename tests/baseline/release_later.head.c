/* Head of release_later: a's release moved after the peak (12 -> 16 MiB),
 * in step and so in main, which calls it. */
// BASELINE-SUMMARY: 3 new, 0 unchanged (not shown), 0 gone since the base
#include <tensorlint/tensor.h>

static void step(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU); // expected-note {{a release that moved: the storage of tl_randn 'a' (4 MiB) was released at line 8 in the base, now at line 14}}
    tl_tensor *b = tl_relu(a);
    tl_tensor *c = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *d = tl_add(b, c); // expected-warning {{[peak-regression]}}
    tl_release(d);
    tl_release(c);
    tl_release(a); // expected-warning {{[late-release]}}
    tl_release(b);
}

int main(void)
{
    step(); // expected-warning {{[peak-regression]}}
    return 0;
}
