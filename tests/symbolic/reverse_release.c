/* An array filled from the front, as layer_arrays.c does, and emptied
 * from the back by a counter that counts down from a formula (n - 1) to
 * 0: the segment loses its last element at each iteration.  Exact. */
// bind: n dim
// values: 1 4 | 3 5 | 5 3
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
