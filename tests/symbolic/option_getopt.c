/* getopt in a while loop whose trip count is not known, a switch on the
 * option with a default that returns: as option_loop.c, the sizes it sets
 * are symbols and the default case is an assumption on the run's path. */
// bind: rows cols
// values: 2 3 | 64 5
// args: -c cols -r rows
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    int rows = 4, cols = 8, c;
    while ((c = getopt(argc, argv, "r:c:")) != -1) {
        switch (c) {
        case 'r': rows = atoi(optarg); break;
        case 'c': cols = atoi(optarg); break;
        default: fprintf(stderr, "usage: option_getopt [-r rows] [-c cols]\n"); return 2;
        }
    }
    tl_tensor *a = tl_randn(TL_SHAPE(rows, cols), TL_F32, TL_CPU); /* 4*rows*cols B */
    tl_tensor *at = tl_t(a);                                       /* a view */
    tl_tensor *g = tl_matmul(a, at);                               /* (rows, rows) */
    tl_release(g);
    tl_release(at);
    tl_release(a);
    return 0;
}
