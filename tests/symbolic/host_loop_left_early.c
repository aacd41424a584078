/* Loops that touch no tensor, left at a condition not known statically
 * (a break on a value read at run time): no total depends on how often
 * they run, but what they write does, and the analysis cannot tell at
 * which iteration the run leaves.  So their counters and what they wrote
 * are run-time values after them (`used`, `done`), never the values of a
 * run that goes through every iteration (used was 8 and done was steps:
 * exact sizes the runs below contradict). */
// bind: stop steps used done
// values: 2 6 3 3 | 1 5 2 2 | 9 4 8 4
// args: stop steps
// symbols: stop steps used done
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int stop = atoi(argv[1]);
    int steps = atoi(argv[2]);
    int used = 0;
    for (int i = 0; i < 8; i++) { /* a count known statically, an exit that is not */
        used++;
        if (i == stop)
            break;
    }
    tl_tensor *t = tl_zeros(TL_SHAPE(used, 4), TL_F32, TL_CPU);
    int done = 0;
    while (done < steps) { /* a count that is a formula, an exit that is not */
        done++;
        if (done == stop + 1)
            break;
    }
    tl_tensor *u = tl_zeros(TL_SHAPE(done, 2), TL_F32, TL_CPU);
    tl_tensor *all = tl_zeros(TL_SHAPE(steps, 2), TL_F32, TL_CPU);
    tl_release(all);
    tl_release(u);
    tl_release(t);
    return 0;
}
