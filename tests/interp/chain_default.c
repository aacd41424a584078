/* The final else of an else-if chain, and a switch's default, that leave
 * the program: a run that goes on took one of the arms before them, so what
 * the report assumes is the chain's conditions or-ed, true for every run
 * that goes on.  The last condition alone (`opt[1] == 'n' is true`, `mode
 * == 2 is true`) is false for a run that takes an earlier arm, as llama2.c's
 * option switch is for `-t 0.5`. */
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void usage(void)
{
    fprintf(stderr, "usage: chain_default [-t|-n|-s] [mode]\n");
    exit(2);
}

int main(int argc, char **argv) // expected-func: peak=128 end=0 moved<=576
{
    const char *opt = argc > 1 ? argv[1] : "-t";
    int scale = 1;
    switch (opt[1]) {
    case 't': scale = 2; break;
    case 'n': // expected-assumption {{opt[1] == 't' || opt[1] == 'n' || opt[1] == 's' is true}}
    case 's': scale = 3; break;
    default: usage();
    }
    int mode = argc > 2 ? atoi(argv[2]) : 1;
    tl_tensor *x = tl_ones(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: x bytes=64 freed=43
    if (mode == 1) {
        tl_tensor *y = tl_relu(x); // expected: y bytes=64 moved=128 exec<=1
        tl_release(y);
    } else if (mode == 2 || mode == 3) {
        tl_tensor *y = tl_exp(x); // expected: y bytes=64 moved=128 exec<=1
        tl_release(y);
    } else if (mode == 4) { // expected-assumption {{mode == 1 || (mode == 2 || mode == 3) || mode == 4 is true}}
        tl_tensor *y = tl_neg(x); // expected: y bytes=64 moved=128 exec<=1
        tl_release(y);
    } else {
        return 3;
    }
    tl_tensor *z = tl_mul_scalar(x, (double)scale); // expected: z bytes=64 moved=128 freed=42
    tl_release(z);
    tl_release(x);
    return 0;
}
