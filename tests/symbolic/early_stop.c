/* A generation loop over a run-time number of steps that stops at a token
 * read back from the tensors (tl_copy_to_host): the run leaves after
 * pos.iterations steps, a count of its own, and every total is a formula in
 * it; the runs here stop at the first step (verify reads the count off the
 * run).  A token is a value, not a size: nothing assumes it is 1 or more. */
// bind: steps dim pos.iterations
// values: 1 3 1 | 5 2 1 | 7 5 1
// args: steps dim
// symbols: steps dim pos.iterations
#include <stdint.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *logits = tl_zeros(TL_SHAPE(steps, dim), TL_F32, TL_CPU);
    int pos = 0;
    while (pos < steps) {
        tl_tensor *row = tl_select(logits, 0, pos);
        tl_tensor *p = tl_softmax(row, 0);
        tl_tensor *best = tl_argmax(p, 0, false);
        int64_t token = -1;
        tl_copy_to_host(best, &token, sizeof token);
        tl_release(best);
        tl_release(p);
        tl_release(row);
        if (token == 0)
            break;
        pos++;
    }
    tl_release(logits);
    return 0;
}
