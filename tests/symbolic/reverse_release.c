/* A loop the analysis does not summarise: the array is filled from the
 * front, as layer_arrays.c does, but emptied from the back with a counter
 * that counts down, which is not a counted loop the analysis knows.  The
 * totals are bounds from there on, with a note at the loop. */
// bind: n dim
// values: 1 4 | 3 5 | 5 3
// expect-bounds: end_live_bytes moved_bytes peak_live_bytes
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor **kept = malloc(sizeof *kept * (size_t)n);
    for (int i = 0; i < n; i++)
        kept[i] = tl_zeros(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    for (int i = n - 1; i >= 0; i--)
        tl_release(kept[i]);
    free(kept);
    return 0;
}
