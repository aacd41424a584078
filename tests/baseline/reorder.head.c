/* Head of reorder: the helpers swapped places, comments and blank lines
 * added above them and a call reformatted; nothing changed what they cost.
 * No regression and no new warning: both warnings are unchanged. */
// BASELINE-SUMMARY: 0 new, 2 unchanged (not shown), 0 gone since the base
#include <tensorlint/tensor.h>

/* The cast first now. */

static void casts(void)
{
    tl_tensor *h = tl_randn(TL_SHAPE(1024, 1024), TL_F16, TL_CPU);
    tl_tensor *f = tl_to(h,
                         TL_F32);
    tl_release(f);
    tl_release(h);
}

/* Then the copy. */

static void copies(void)
{
    tl_tensor *t = tl_randn(TL_SHAPE(64, 4096), TL_F32, TL_CPU);
    tl_tensor *p = tl_t(t);
    tl_tensor *r = tl_reshape( p, TL_SHAPE(262144) );
    tl_release(r);
    tl_release(p);
    tl_release(t);
}

int main(void)
{
    copies();
    casts();
    return 0;
}
