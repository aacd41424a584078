/* A generation loop that stops at a token read back from the tensors, as
 * llama2.c's does at BOS: the run leaves after pos.iterations steps, at most
 * steps, a count no size gives.  The loop is summarised with that count
 * (a cache lengthened every step), every total a formula in it, and verify
 * reads the count off the run (the runner does not bind it there).  The
 * program's third argument is where the data stop it. */
// bind: steps dim pos.iterations
// values: 1 3 1 | 5 2 3 | 6 4 6
// args: steps dim pos.iterations
// symbols: steps dim pos.iterations
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *eos = tl_full(TL_SHAPE(1), atof(argv[3]), TL_F32, TL_CPU);
    float stop = 0;
    tl_copy_to_host(eos, &stop, sizeof stop);
    tl_release(eos);
    tl_tensor *w = tl_ones(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    tl_tensor *acc = tl_zeros(TL_SHAPE(1, dim), TL_F32, TL_CPU);
    tl_tensor *inputs = tl_ones(TL_SHAPE(steps, 1, dim), TL_F32, TL_CPU);
    int pos = 0;
    while (pos < steps) {
        tl_tensor *x = tl_select(inputs, 0, pos);
        tl_tensor *h = tl_matmul(x, w);
        tl_tensor *longer = tl_cat(TL_LIST(acc, h), 0); /* (pos.iterations + 1, dim) at the end */
        tl_release(acc);
        acc = longer;
        tl_release(h);
        tl_release(x);
        pos++;
        if ((float)pos >= stop)
            break;
        fflush(stdout); /* after the exit: host work only */
    }
    tl_tensor *y = tl_mul_scalar(acc, 2.0); /* 4*dim*pos.iterations + 4*dim B */
    tl_release(acc);
    tl_release(y);
    tl_release(w);
    tl_release(inputs);
    return 0;
}
