/* A peak over nine sizes read at run time, none known to be the largest:
 * the peak is the max of nine formulas, each kept with its line (a peak kept
 * eight, and the ninth replaced the eighth while the max was printed as
 * exact: at the second values the run's peak is the eighth's, 64*h).
 * peak_many.c has more than a peak keeps. */
// bind: a b c d e f g h i
// values: 1 2 3 4 5 6 7 8 90 | 2 1 1 1 1 1 1 90 3
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void step(int n)
{
    tl_tensor *x = tl_ones(TL_SHAPE(n, 16), TL_F32, TL_CPU); /* 64*n B, freed at once */
    tl_release(x);
}

int main(int argc, char **argv)
{
    if (argc < 10)
        return 2;
    int a = atoi(argv[1]), b = atoi(argv[2]), c = atoi(argv[3]);
    int d = atoi(argv[4]), e = atoi(argv[5]), f = atoi(argv[6]);
    int g = atoi(argv[7]), h = atoi(argv[8]), i = atoi(argv[9]);
    step(a); /* candidates 64*a ... */
    step(b);
    step(c);
    step(d);
    step(e);
    step(f);
    step(g);
    step(h);
    step(i); /* ... 64*i: the ninth */
    return 0;
}
