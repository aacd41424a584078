/* The option loop of option_loop.c with `else return 2;`, run with -d only:
 * n keeps its default (4), bound as the symbol n = 4; d is the option's. */
// bind: n d argc
// values: 4 1 3 | 4 9 3
// args: -d d
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    int n = 4, d = 8;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc)
            return 2;
        if (argv[i][1] == 'n')
            n = atoi(argv[i + 1]);
        else if (argv[i][1] == 'd')
            d = atoi(argv[i + 1]);
        else
            return 2;
    }
    tl_tensor *x = tl_zeros(TL_SHAPE(d, n), TL_F32, TL_CPU); /* (d, n) */
    tl_tensor *s = tl_sum(x, 1, false);                       /* (d,) */
    tl_release(x);
    tl_release(s);
    return 0;
}
