/* Arms on a class of the step written shifted: an evaluation on `(step -
 * 1) % 3 == 0` (steps 1, 4, 7, ...: the counter starts at 1, so step - 1
 * is never negative) and a copy on `(step + 1) % 4 != 0` (skipped at steps
 * 3, 7, 11, ...).  Each is the counter's class, (r - c) mod K, counted
 * exactly with floor division. */
// bind: steps dim
// values: 1 3 | 5 2 | 9 3 | 14 2
// symbols: steps dim
#include <stdlib.h>
#include <tensorlint/tensor.h>

static void evaluate(tl_tensor *w, int dim)
{
    tl_tensor *big = tl_ones(TL_SHAPE(4, dim), TL_F32, TL_CPU);
    tl_tensor *h = tl_matmul(big, w);
    tl_release(h);
    tl_release(big);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    tl_tensor *w = tl_ones(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    for (int step = 1; step <= steps; step++) {
        tl_tensor *g = tl_mul_scalar(w, 0.5);
        tl_release(g);
        if ((step - 1) % 3 == 0)
            evaluate(w, dim);
    }
    for (int step = 0; step < steps; step++) {
        tl_tensor *g = tl_add_scalar(w, 1.0);
        if ((step + 1) % 4 != 0) {
            tl_tensor *c = tl_clone(g);
            tl_release(c);
        }
        tl_release(g);
    }
    tl_release(w);
    return 0;
}
