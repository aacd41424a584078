/* Arrays filled from the back, as a backward pass or a reversed cache
 * writes them: tensors of their own, views at offsets that fall with the
 * index, and an int array, all written at a counter that counts down; then
 * read in order and released from the front. */
// bind: n dim
// values: 1 2 | 3 5 | 6 3
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *all = tl_ones(TL_SHAPE(n, dim), TL_F32, TL_CPU);
    tl_tensor **grads = malloc(sizeof *grads * (size_t)n);
    tl_tensor **rows = malloc(sizeof *rows * (size_t)n);
    int *width = malloc(sizeof *width * (size_t)n);
    if (!grads || !rows || !width)
        return 1;
    for (int i = n - 1; i >= 0; i--) {
        rows[i] = tl_select(all, 0, i);
        grads[i] = tl_mul_scalar(rows[i], 0.5);
        width[i] = 2 * dim;
    }
    tl_release(all); /* the views keep it */
    tl_tensor *acc = tl_zeros(TL_SHAPE(dim), TL_F32, TL_CPU);
    for (int i = 0; i < n; i++) {
        tl_tensor *t = tl_add(acc, grads[i]);
        tl_tensor *wide = tl_zeros(TL_SHAPE(width[i]), TL_F32, TL_CPU);
        tl_release(wide);
        tl_release(acc);
        acc = t;
    }
    for (int i = 0; i < n; i++) {
        tl_release(grads[i]);
        tl_release(rows[i]);
    }
    free(width);
    free(rows);
    free(grads);
    tl_release(acc);
    return 0;
}
