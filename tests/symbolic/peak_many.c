/* A peak over formulas none of which is provably the largest, more of them
 * than a peak keeps (16, as many as a max formula takes): 4*((k + 1)*a +
 * (17 - k)*b) B for k = 0 .. 16, every two of which compare as a and b do.
 * The 17th is not kept: a note at its line, and the peak marked as a bound,
 * the largest of the 16 kept (a lower bound: at a > b the run's peak is the
 * 17th's), never an exact number that misses it.  peak_nine.c keeps nine,
 * exactly. */
// bind: a b
// values: 5 2 | 1 3
// expected-bounds: peak_live_bytes
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void step(int a, int b, int k)
{
    tl_tensor *x = tl_ones(TL_SHAPE(k + 1, a), TL_F32, TL_CPU);  /* 4*(k + 1)*a B */
    tl_tensor *y = tl_ones(TL_SHAPE(17 - k, b), TL_F32, TL_CPU); /* 4*(17 - k)*b B */
    tl_release(y);
    tl_release(x);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int a = atoi(argv[1]), b = atoi(argv[2]);
    step(a, b, 0); /* 4*((k + 1)*a + (17 - k)*b) B live in it, k = 0 .. 16 */
    step(a, b, 1);
    step(a, b, 2);
    step(a, b, 3);
    step(a, b, 4);
    step(a, b, 5);
    step(a, b, 6);
    step(a, b, 7);
    step(a, b, 8);
    step(a, b, 9);
    step(a, b, 10);
    step(a, b, 11);
    step(a, b, 12);
    step(a, b, 13);
    step(a, b, 14);
    step(a, b, 15);
    step(a, b, 16); /* the 17th: no room, a note, the peak a lower bound */
    return 0;
}
