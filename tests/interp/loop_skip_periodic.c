/* A loop of 12,000 steps with an evaluation every 5 (`step % 5 == 0`) and
 * a log every 3: the state repeats every 15 steps, so whole periods of 15
 * are counted, each with its 3 evaluations and 5 logs. */
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=2048 end=0 peak-line=10 calls=32801
{
    tl_tensor *w = tl_randn(TL_SHAPE(16, 16), TL_F32, TL_CPU); // expected: w bytes=1024 exec=1
    for (int step = 1; step <= 12000; step++) {
        tl_tensor *g = tl_mul_scalar(w, 0.5); // expected: g bytes=1024 exec=12000
        tl_sub_(w, g);
        tl_release(g);
        if (step % 5 == 0) {
            tl_tensor *e = tl_transpose(w, 0, 1); // expected: e kind=view exec=2400
            tl_tensor *c = tl_contiguous(e); // expected: c kind=new bytes=1024 exec=2400
            tl_release(c);
            tl_release(e);
        }
        if (step % 3 == 1) {
            tl_tensor *n = tl_sum(w, 0, false); // expected: n bytes=64 exec=4000
            tl_release(n);
        }
    }
    tl_release(w);
    return 0;
}
