/*
 * Diagrams test input: a loop nest whose iterations repeat the same calls
 * (drawn once with their counts), a helper called from the loop, and a
 * cast, a copy and a view on the way.
 */
#include <tensorlint/tensor.h>

static tl_tensor *step(tl_tensor *x, tl_tensor *w)
{
    tl_tensor *h = tl_matmul(x, w);
    tl_tensor *a = tl_relu(h);
    tl_release(h);
    return a;
}

int main(void)
{
    tl_tensor *w = tl_randn(TL_SHAPE(32, 32), TL_F32, TL_CPU);
    for (int epoch = 0; epoch < 3; epoch++) {
        tl_tensor *x = tl_randn(TL_SHAPE(16, 32), TL_F16, TL_CPU);
        tl_tensor *x32 = tl_to(x, TL_F32);
        tl_release(x);
        for (int i = 0; i < 10; i++) {
            tl_tensor *y = step(x32, w);
            tl_release(x32);
            x32 = y;
        }
        tl_tensor *t = tl_transpose(x32, 0, 1);
        tl_tensor *c = tl_contiguous(t);
        tl_release(t);
        tl_release(c);
        tl_release(x32);
    }
    tl_release(w);
    return 0;
}
