/* A peak over nine sizes read at run time, none known to be the largest:
 * the peak is the max of nine formulas, one more than a peak keeps (eight).
 * The ninth is not kept, and the peak says so: a note at its line, and the
 * peak marked as a bound (a lower one: the max of eight of the nine), never
 * an exact number that misses the largest size (here the last). */
// bind: a b c d e f g h i
// values: 1 2 3 4 5 6 7 8 90 | 9 8 7 6 5 4 3 2 1
// expect-bounds: peak_live_bytes
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
    step(h); /* ... 64*h: eight */
    step(i); /* the ninth: no room, a note, the peak a lower bound */
    return 0;
}
