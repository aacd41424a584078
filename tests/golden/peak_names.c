/* The peak's listing (report: "live at the peak, largest first"): which
 * names keep each storage alive at the peak.  Known live set at the peak
 * (line 30, `big`):
 *   S1 32 KiB  only `row` keeps it, a view of `base` (released at line 27)
 *   S0 16 KiB  the field acts.ln1
 *   S3 16 KiB  big
 *   S2  1 KiB  two names: the place acts->att (stored in fill) and `same`
 * and S4 (made after the peak, at line 33) is not there. */
#include <tensorlint/tensor.h>

typedef struct activations {
    tl_tensor *ln1;
    tl_tensor *att;
} activations;

static void fill(activations *acts)
{
    acts->att = tl_ones(TL_SHAPE(16, 16), TL_F32, TL_CPU);
}

int main(void)
{
    activations acts;
    acts.ln1 = tl_zeros(TL_SHAPE(64, 64), TL_F32, TL_CPU);
    tl_tensor *base = tl_randn(TL_SHAPE(128, 64), TL_F32, TL_CPU);
    tl_tensor *row = tl_narrow(base, 0, 0, 1);
    tl_release(base);
    fill(&acts);
    tl_tensor *same = acts.att;
    tl_tensor *big = tl_mul(acts.ln1, acts.ln1);
    tl_release(big);
    tl_release(row);
    tl_tensor *after = tl_ones(TL_SHAPE(8), TL_F32, TL_CPU);
    tl_release(after);
    tl_release(same);
    tl_release(acts.ln1);
    return 0;
}
