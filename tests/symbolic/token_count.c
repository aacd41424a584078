/* A count made by a loop whose trip count is not known (n++ per strtok
 * token) is a run-time value, never the one iteration's 1: x is (n, 256).
 * The loop touches no tensor, so it needs no note and no bound; nor does the
 * host loop over a buffer of doubles before it. */
// bind: n
// values: 7
#include <math.h>
#include <string.h>
#include <tensorlint/tensor.h>

int main(void)
{
    char text[] = "the quick brown fox jumps over it";
    double w[16], norm = 0.0;
    for (int i = 0; i < 16; i++) /* host math: nothing tensor code reads */
        w[i] = sqrt((double)i);
    for (int i = 0; i < 16; i++)
        norm += w[i] * w[i];
    (void)norm;
    int n = 0;
    for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " "))
        n++;
    tl_tensor *x = tl_ones(TL_SHAPE(n, 256), TL_F32, TL_CPU); /* (n, 256): 1024*n B */
    tl_tensor *y = tl_mul_scalar(x, 0.5);                    /* peak 2048*n B */
    tl_release(x);
    tl_release(y);
    return 0;
}
