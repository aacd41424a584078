/* An if the analysis cannot decide whose arm replaces a tensor by one of
 * the same layout (a helper that releases its argument and returns its
 * relu): both arms leave t as (n, 8), so t keeps that layout and u is (n, 8)
 * (it was `?`, counted 0 bytes, and the peak a bound below the run's).  The
 * arms peak differently: the peak and the bytes moved are upper bounds. */
// bind: n
// values: 5 | 12
// args: n 2
// expected-bounds: moved_bytes peak_live_bytes
#include <stdlib.h>
#include <tensorlint/tensor.h>

static tl_tensor *relu_consume(tl_tensor *x)
{
    tl_tensor *y = tl_relu(x);
    tl_release(x);
    return y;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int k = atoi(argv[2]);
    tl_tensor *t = tl_ones(TL_SHAPE(n, 8), TL_F32, TL_CPU); /* 32*n B */
    if (k % 2 == 0)
        t = relu_consume(t);
    tl_tensor *u = tl_add(t, t); /* (n, 8), 32*n B: peak 64*n B */
    tl_release(t);
    tl_release(u);
    return 0;
}
