/* A sampler's random state, as llama2.c's is: a field of a struct that
 * every step of the generation loop advances (xorshift), from a seed read
 * at run time.  Each iteration leaves it another run-time value, one that
 * no formula in the counter gives and that no size reads: the loop is
 * summarised all the same (the state is a run-time value after it), every
 * total exact. */
// bind: steps dim
// values: 1 3 | 4 2 | 7 5
// args: steps dim 12345
// symbols: steps dim
#include <stdlib.h>
#include <tensorlint/tensor.h>

typedef struct sampler {
    unsigned long long rng_state;
    int picked;
} sampler;

static unsigned int random_u32(unsigned long long *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (unsigned int)((*state * 0x2545F4914F6CDD1Dull) >> 32);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int steps = atoi(argv[1]);
    int dim = atoi(argv[2]);
    sampler s = {(unsigned long long)atoll(argv[3]), 0};
    tl_tensor *w = tl_ones(TL_SHAPE(dim, dim), TL_F32, TL_CPU);
    tl_tensor *x = tl_ones(TL_SHAPE(dim, 1), TL_F32, TL_CPU);
    for (int step = 0; step < steps; step++) {
        tl_tensor *y = tl_matmul(w, x); /* (dim, 1): 4*dim B */
        s.picked = (int)(random_u32(&s.rng_state) % (unsigned)dim);
        tl_release(y);
    }
    tl_release(x);
    tl_release(w);
    return s.picked < dim ? 0 : 1;
}
