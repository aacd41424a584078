/* Option parsing as real programs write it: a loop over argv stepping by
 * two, an if-chain on the option letter, an else that ends the program
 * (error_usage calls exit).  The loop touches no tensor: it is analysed once
 * with no note and no bound, the variables it sets are run-time values (the
 * default, or the option's value), each a symbol named after its variable,
 * and each way out of the loop is an assumption on the run's path.  Issue:
 * every call after the loop was "not run" and the peak 0 B. */
// bind: n d argc
// values: 1 1 5 | 16 3 5
// args: -n n -d d
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void error_usage(void)
{
    fprintf(stderr, "usage: option_loop [-n rows] [-d cols]\n");
    exit(1);
}

int main(int argc, char **argv)
{
    int n = 4, d = 8;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc)
            error_usage();
        if (argv[i][0] != '-')
            error_usage();
        if (argv[i][1] == 'n')
            n = atoi(argv[i + 1]);
        else if (argv[i][1] == 'd')
            d = atoi(argv[i + 1]);
        else
            error_usage();
    }
    tl_tensor *x = tl_ones(TL_SHAPE(n, d), TL_F32, TL_CPU); /* (n, d): 4*n*d B */
    tl_tensor *y = tl_relu(x);                               /* peak 8*n*d B */
    tl_release(x);
    tl_release(y);
    return 0;
}
