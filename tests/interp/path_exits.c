/* Error paths outside loops: an arm that leaves (return, goto to the end,
 * exit, a function that does not return) on a condition the analysis cannot
 * decide.  The run that goes on is followed, its numbers exact; each way out
 * is an assumption of the report.  A check the sizes decide stays silent. */
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

_Noreturn static void die(const char *why)
{
    fprintf(stderr, "%s\n", why);
    exit(3);
}

int main(int argc, char **argv) // expected-func: peak=320 end=0 moved=704 peak-line=35 calls=4
{
    (void)argv;
    if (argc > 4) { // expected-assumption {{argc > 4 is false}}
        fprintf(stderr, "usage: path_exits\n");
        return 2;
    }
    int rc = 1;
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x bytes=128 freed=45
    if (tl_numel(x) != 32) /* the sizes decide it: no assumption */
        return 1;
    tl_tensor *h = tl_relu(x); // expected: h bytes=128 moved=256 freed=44
    if (argc == 2) { // expected-assumption {{goto done}}
        tl_tensor *big = tl_zeros(TL_SHAPE(64, 64), TL_F32, TL_CPU); /* not in the run */
        tl_release(big);
        tl_release(h);
        h = NULL;
        goto done;
    }
    tl_tensor *xt = tl_t(x); // expected: xt kind=view view-of=x freed=45
    tl_tensor *y = tl_matmul(h, xt); // expected: y shape=(4, 4) bytes=64 moved=320 freed=40
    if (argc == 3) // expected-assumption {{exit(4)}}
        exit(4);
    if (argc == 4) // expected-assumption {{die() ends the program}}
        die("too many arguments");
    tl_release(y);
    tl_release(xt);
    rc = 0;
done:
    tl_release(h);
    tl_release(x);
    return rc;
}
