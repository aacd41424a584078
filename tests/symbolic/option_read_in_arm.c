/* An option's variable, unknown after the option loop, read in one arm of
 * a branch the sizes do not decide and not in the other: after the join it
 * is still the one symbol n (a variable no arm writes holds one value
 * whichever arm read it), not a second n#2 that binding d would make
 * disappear (the branch then decided, nothing joins).  Found by the
 * differential test (seed 7, program 700036, getopt).  The arms differ:
 * peak and moved are bounds. */
// bind: n d argc
// values: 2 4 5 | 3 3 5 | 5 1 5
// args: -n n -d d
// symbols: n d
// expected-bounds: moved_bytes peak_live_bytes
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    int n = 4, d = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (argv[i][1] == 'n')
            n = atoi(argv[i + 1]);
        else if (argv[i][1] == 'd')
            d = atoi(argv[i + 1]);
    }
    if (d % 2 == 0) {
        tl_tensor *a = tl_ones(TL_SHAPE(d), TL_F32, TL_CPU);
        tl_release(a);
    } else {
        tl_tensor *b = tl_ones(TL_SHAPE(2 * n), TL_F32, TL_CPU); /* reads n */
        tl_release(b);
    }
    tl_tensor *x = tl_zeros(TL_SHAPE(n, 4), TL_F32, TL_CPU); /* n, not n#2 */
    tl_release(x);
    return 0;
}
