/* Head of rename: prepare is now load_batch (the same calls), gone was
 * removed and fresh added: a rename, an addition and a removal, none of
 * them a regression; the hidden copy of the renamed helper is unchanged. */
// BASELINE-SUMMARY: 0 new, 1 unchanged (not shown), 0 gone since the base
// BASELINE-CHANGE: function 'prepare' was renamed to 'load_batch' (the same calls): compared with 'prepare'
// BASELINE-CHANGE: function 'fresh' is new (peak 32 B)
// BASELINE-CHANGE: function 'gone' was removed (its peak was 64 B)
#include <tensorlint/tensor.h>

static void load_batch(void)
{
    tl_tensor *t = tl_randn(TL_SHAPE(64, 4096), TL_F32, TL_CPU);
    tl_tensor *p = tl_t(t);
    tl_tensor *r = tl_reshape(p, TL_SHAPE(262144));
    tl_release(r);
    tl_release(p);
    tl_release(t);
}

static void fresh(void)
{
    tl_tensor *n = tl_zeros(TL_SHAPE(8), TL_F32, TL_CPU);
    tl_release(n);
}

int main(void)
{
    load_batch();
    fresh();
    return 0;
}
