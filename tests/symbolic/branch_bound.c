/* A branch the sizes do not decide (how many arguments were given): its
 * arms allocate different formulas, so the peak and the bytes moved after
 * it are bounds (the larger arm's), with a note; the end stays exact. */
// bind: n
// values: 1 | 6 | 11
// expected-bounds: peak_live_bytes moved_bytes
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int n = atoi(argv[1]);
    tl_tensor *x = tl_zeros(TL_SHAPE(n, 16), TL_F32, TL_CPU);
    if (argc > 2) {
        tl_tensor *big = tl_zeros(TL_SHAPE(n, 64), TL_F32, TL_CPU);
        tl_release(big);
    } else {
        tl_tensor *small = tl_relu(x);
        tl_release(small);
    }
    tl_release(x);
    return 0;
}
