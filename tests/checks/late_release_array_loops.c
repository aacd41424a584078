/* late-release of an array of tensors filled in one loop over a run-time
 * size, read in a second and released in a third: the loops are summarised,
 * and the storages the summary's iterations stand for are released in
 * iterations the event log does not hold.  No warning: the check said
 * "'h[i]' is never released, though its storage is last used at line 32"
 * of an element the third loop releases and the second reads.  An array
 * filled so and never released is still reported. */
// CHECK-OPTIONS: --checks=-*,late-release
#include <tensorlint/tensor.h>
#include <stdlib.h>

void released(int n, int d)
{
    tl_tensor *h[16];
    for (int i = 0; i < n; i++)
        h[i] = tl_zeros(TL_SHAPE(d), TL_F32, TL_CPU);
    tl_tensor *acc = tl_zeros(TL_SHAPE(d), TL_F32, TL_CPU);
    for (int i = 0; i < n; i++)
        tl_add_(acc, h[i]);
    tl_release(acc);
    for (int i = 0; i < n; i++)
        tl_release(h[i]);
}

int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    int d = atoi(argv[2]);
    released(n, d);
    tl_tensor *kept[16];
    for (int i = 0; i < n; i++)
        kept[i] = tl_zeros(TL_SHAPE(d), TL_F32, TL_CPU); // expected-warning {{'kept[i]' (4*d B) is never released}} {{[late-release]}}
    tl_tensor *big = tl_zeros(TL_SHAPE(d, 4), TL_F32, TL_CPU);
    tl_release(big);
    return 0;
}
