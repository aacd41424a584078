/* A size clamped the way C programs clamp it: `if (steps > n) steps = n;`
 * is min(steps, n) from there on, not an unknown, and so is the clamp
 * written as an expression (`n < 4 ? n : 4`); a condition the sizes decide
 * (`steps > 0`) takes its arm; a loop runs min(steps, n) times. */
// bind: steps n
// values: 1 4 | 9 5 | 5 9 | 13 13
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int steps = atoi(argv[1]);
    int n = atoi(argv[2]);
    if (steps <= 0 || steps > n)
        steps = n;
    tl_tensor *cache = tl_zeros(TL_SHAPE(n, 8), TL_F32, TL_CPU);
    tl_tensor *seen = tl_zeros(TL_SHAPE(steps, 8), TL_F32, TL_CPU);
    if (steps > 0) {
        tl_tensor *y = tl_relu(seen);
        tl_release(y);
    }
    for (int pos = 0; pos < steps; pos++) {
        tl_tensor *past = tl_narrow(cache, 0, 0, pos + 1);
        tl_tensor *s = tl_sum(past, 0, false);
        tl_release(s);
        tl_release(past);
    }
    int heads = n < 4 ? n : 4;
    int wide = n > 6 ? n : 6;
    tl_tensor *h = tl_zeros(TL_SHAPE(heads, wide), TL_F32, TL_CPU);
    tl_release(h);
    tl_release(seen);
    tl_release(cache);
    return 0;
}
