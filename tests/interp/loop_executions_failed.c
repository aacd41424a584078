/* Loop summaries that are tried and given up: the probe iterations a trial
 * ran leave no count behind, so each call site counts the runs of the loop
 * as it was analysed in the end. */
// values: n=1
#include <stdlib.h>
#include <tensorlint/tensor.h>

static tl_tensor *widen(tl_tensor *acc, tl_tensor *row)
{
    tl_tensor *longer = tl_cat(TL_LIST(acc, row), 0); // expected: longer exec={{n + 1}}
    tl_release(acc);
    return longer;
}

int main(int argc, char **argv)
{
    if (argc < 2) // expected-assumption {{argc < 2 is false}}
        return 2;
    int n = atoi(argv[1]);
    tl_tensor *x = tl_ones(TL_SHAPE(n, 4), TL_F32, TL_CPU); // expected: x exec=1
    tl_tensor *row = tl_ones(TL_SHAPE(1, 4), TL_F32, TL_CPU);
    /* a cache that grows: not one iteration alike (the steady summary's two
     * probes are undone), but the state at each step is a formula (growth) */
    tl_tensor *acc = tl_zeros(TL_SHAPE(1, 4), TL_F32, TL_CPU);
    acc = widen(acc, row);
    for (int t = 0; t < n; t++)
        acc = widen(acc, row);
    tl_release(acc);
    /* a loop stepped by two whose state grows fits no summary: after the
     * trial, its body is analysed once in each of the two runs of the loop */
    for (int k = 0; k < 2; k++) {
        tl_tensor *part = tl_zeros(TL_SHAPE(0, 4), TL_F32, TL_CPU); // expected: part exec=2
        for (int i = 0; i < n; i += 2) { // expected-note {{the body is analysed for one iteration}} {{[unknown-trip-count]}}
            tl_tensor *pair = tl_narrow(x, 0, i, n - i < 2 ? n - i : 2); // expected: pair exec~=2
            tl_tensor *longer = tl_cat(TL_LIST(part, pair), 0); // expected: longer exec~=2
            tl_release(pair);
            tl_release(part);
            part = longer;
        }
        tl_tensor *s = tl_sum(part, 0, false); // expected: s exec=2
        tl_release(s);
        tl_release(part);
    }
    tl_release(row);
    tl_release(x);
    return 0;
}
