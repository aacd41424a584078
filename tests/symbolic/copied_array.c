/* An array filled in a loop and then copied with its struct: the two
 * copies name the same tensors, and the analysis does not follow which of
 * them are released through which copy, so their elements are unknown
 * after the copy and the totals from there on are bounds, with notes.
 * (A wrong exact number would be worse: releasing through one copy and
 * then the other would free the bytes twice.) */
// bind: n
// values: 1 | 3 | 20
// expected-bounds: end_live_bytes moved_bytes peak_live_bytes
#include <tensorlint/tensor.h>
#include <stdlib.h>

typedef struct {
    tl_tensor *w[16];
} layers;

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int n = atoi(argv[1]);
    if (n > 16)
        n = 16;
    layers a;
    for (int i = 0; i < n; i++)
        a.w[i] = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU);
    layers b = a;
    for (int i = 0; i < n; i++)
        tl_release(b.w[i]);
    return 0;
}
