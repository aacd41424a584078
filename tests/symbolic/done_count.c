/* A loop left at a token read back from the tensors, counted by a variable
 * named `done`: the report has the loop's count of iterations
 * (done.iterations, whose value only the run gives) and `done` after the
 * loop (a value of the run), and assumes both are at least 1.  The test
 * binds `done` and leaves done.iterations to the run: the assumptions are
 * checked at the run's values, its count included.  The runs here stop at
 * the first step, as tests/symbolic/early_stop.c's do. */
// bind: steps dim done
// values: 1 3 1 | 5 2 1 | 7 5 1
// args: steps dim
// symbols: steps dim done.iterations done
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
    int done = 0;
    while (done < steps) {
        tl_tensor *row = tl_select(logits, 0, done);
        tl_tensor *best = tl_argmax(row, 0, false);
        int64_t token = -1;
        tl_copy_to_host(best, &token, sizeof token);
        tl_release(best);
        tl_release(row);
        done++;
        if (token == 0)
            break;
    }
    tl_tensor *kept = tl_zeros(TL_SHAPE(done, dim), TL_F32, TL_CPU);
    tl_release(kept);
    tl_release(logits);
    return 0;
}
