/* Sizes computed in helpers: a function of the model width and a round-up. */
#include <stdint.h>
#include <tensorlint/tensor.h>

static int64_t round_up(int64_t n, int64_t m)
{
    return (n + m - 1) / m * m;
}

static int hidden_of(int dim)
{
    return 4 * dim;
}

int main(void) // expected-func: peak=768 end=0 moved=768 peak-line=20 calls=2
{
    int dim = 6;
    int64_t hidden = hidden_of(dim);
    int64_t padded = round_up(hidden, 16);
    tl_tensor *w = tl_zeros(TL_SHAPE(dim, padded), TL_F32, TL_CPU); // expected: w shape=(6, 32) strides=(32, 1) bytes=768 freed=23
    tl_tensor *u = tl_narrow(w, 1, 0, hidden); // expected: u shape=(6, 24) strides=(32, 1) kind=view view-of=w contiguous=no
    tl_release(u);
    tl_release(w);
    return 0;
}
