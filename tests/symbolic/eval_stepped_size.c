/* An evaluation every third step whose size grows with a count the loop
 * steps (k = 1 + 2*step): what the arm adds depends on the iteration, so the
 * loop is not summarised per kind of iteration (a note, and its totals are
 * not claimed exact); never a formula that misses the later evaluations. */
// bind: n d
// values: 4 1 | 7 3
// expected-bounds: end_live_bytes moved_bytes peak_live_bytes
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int d = atoi(argv[2]);
    int k = 1;
    tl_tensor *x = tl_ones(TL_SHAPE(d), TL_F32, TL_CPU);
    for (int step = 0; step < n; step++) {
        tl_tensor *y = tl_exp(x);
        if (step % 3 == 0) {
            tl_tensor *z = tl_ones(TL_SHAPE(k, d), TL_F32, TL_CPU); /* 4*k*d B */
            tl_release(z);
        }
        k = k + 2;
        tl_release(y);
    }
    tl_release(x);
    return 0;
}
