/* A loop inside an arm of a condition not known statically (llama2.c's
 * generation loop under `if (strcmp(mode, "generate") == 0)`): summarised
 * as anywhere else, its calls counted as formulas in its trip count (at
 * most that often: the run may take the other arm), never analysed once. */
// values: steps=4 mode=1
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv) // expected-func: peak<=20736
{
    if (argc < 3) // expected-assumption {{argc < 3 is false}}
        return 2;
    int steps = atoi(argv[1]);
    int mode = atoi(argv[2]);
    tl_tensor *w = tl_ones(TL_SHAPE(64, 64), TL_F32, TL_CPU); // expected: w bytes=16384 exec=1
    tl_tensor *x = tl_ones(TL_SHAPE(64, 1), TL_F32, TL_CPU);
    if (mode == 1) { // expected-note {{arms}} {{[unknown-branch]}}
        for (int pos = 0; pos < steps; pos++) {
            tl_tensor *y = tl_matmul(w, x); // expected: y shape=(64, 1) bytes=256 exec<=steps
            tl_tensor *h = tl_relu(y); // expected: h exec<=steps
            tl_release(y);
            tl_release(h);
        }
    } else {
        tl_tensor *z = tl_zeros(TL_SHAPE(16, 64), TL_F32, TL_CPU); // expected: z bytes=4096 exec<=1
        tl_release(z);
    }
    tl_release(x);
    tl_release(w);
    return 0;
}
