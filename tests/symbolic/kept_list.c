/* An array filled one element per step and emptied one per step: after
 * the first loop the array holds min(steps, 64) tensors, alike, as one
 * segment of elements with one storage standing for all of them; the
 * second loop releases them from the front.  Live bytes grow and shrink
 * by one element per iteration, all of it a formula. */
// bind: steps dim
// values: 1 4 | 3 5 | 67 3
#include <tensorlint/tensor.h>
#include <stdlib.h>

#define MAX_STEPS 64

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    if (steps > MAX_STEPS)
        steps = MAX_STEPS;
    tl_tensor *kept[MAX_STEPS];
    tl_tensor *x = tl_ones(TL_SHAPE(dim), TL_F32, TL_CPU);
    for (int t = 0; t < steps; t++)
        kept[t] = tl_mul_scalar(x, (double)t);
    for (int t = 0; t < steps; t++)
        tl_release(kept[t]);
    tl_release(x);
    return 0;
}
