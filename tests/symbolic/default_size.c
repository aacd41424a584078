/* A size read at run time with a default when the argument is missing,
 * as command-line tools write it: `argc > 1 ? atoi(argv[1]) : 3` joins two
 * arms, so the loop's test reads a variable the analysis does not know,
 * which becomes the symbol `steps`.  Unbound, the loop is summarised in
 * steps; bound, it must run concretely (it was analysed for one iteration,
 * every total a bound, when the binding reached the variable only through
 * the summary's try).  The loop's peak (x, y and z live: 384 B) is a
 * number, the one after it (x and hist) a formula: the peak is the max of
 * both (the summary made main's totals formulas and dropped the peak it
 * had so far, leaving 32*steps + 128, wrong below steps = 8). */
// bind: steps
// values: 1 | 4 | 9
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 3;
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 8), TL_F32, TL_CPU);
    for (int s = 0; s < steps; s++) {
        tl_tensor *y = tl_exp(x);
        tl_tensor *z = tl_add(y, x);
        tl_release(y);
        tl_release(x);
        x = z;
    }
    tl_tensor *hist = tl_zeros(TL_SHAPE(steps, 8), TL_F32, TL_CPU); /* one row per step */
    tl_release(x);
    tl_release(hist);
    return 0;
}
