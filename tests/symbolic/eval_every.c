/* A training loop as llm.c's train_gpt2.c is written: activations allocated
 * lazily on the first step (in the function the loop calls), and an
 * evaluation every fourth step (`step % 4 == 0`) that needs more memory than
 * a training step.  The steps of the two kinds are summarised apart: the
 * evaluations run (steps + 3)/4 times, their bytes counted that often, and
 * the peak is the larger of an evaluation's and a training step's. */
// bind: steps batch dim
// values: 1 2 3 | 5 2 3 | 9 3 2 | 14 2 5
// symbols: steps batch dim
#include <stdlib.h>
#include <tensorlint/tensor.h>

typedef struct model {
    tl_tensor *w;
    tl_tensor *acts; /* allocated on the first forward */
    int batch;
} model;

static void forward(model *m, int batch, int dim)
{
    if (m->acts == NULL) {
        m->acts = tl_zeros(TL_SHAPE(batch, dim), TL_F32, TL_CPU);
        m->batch = batch;
    }
    tl_tensor *h = tl_matmul(m->acts, m->w); /* (batch, dim): 4*batch*dim B */
    tl_release(h);
}

static void evaluate(model *m, int dim)
{
    tl_tensor *big = tl_ones(TL_SHAPE(4 * m->batch, dim), TL_F32, TL_CPU);
    tl_tensor *h = tl_matmul(big, m->w); /* the peak of an evaluation */
    tl_release(h);
    tl_release(big);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int steps = atoi(argv[1]);
    int batch = atoi(argv[2]);
    int dim = atoi(argv[3]);
    model m = {0};
    m.w = tl_ones(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    for (int step = 0; step < steps; step++) {
        forward(&m, batch, dim);
        if (step % 4 == 0)
            evaluate(&m, dim); /* (steps + 3)/4 times */
        tl_tensor *g = tl_mul_scalar(m.w, 0.5); /* the update */
        tl_release(g);
    }
    tl_release(m.acts);
    tl_release(m.w);
    return 0;
}
