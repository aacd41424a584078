/*
 * Diagrams test input: calls with error diagnostics, which the dataflow
 * graph marks on their nodes (an invalid view, a shape mismatch, a use
 * after release), and a release whose diagnostic matches no node.
 */
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(64, 32), TL_F32, TL_CPU);
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *v = tl_view(t, TL_SHAPE(2048));
    tl_tensor *o = tl_ones(TL_SHAPE(3), TL_F32, TL_CPU);
    tl_tensor *y = tl_add(x, o);
    tl_release(o);
    tl_release(o);
    tl_tensor *z = tl_relu(o);
    (void)v;
    (void)y;
    (void)z;
    tl_release(t);
    tl_release(x);
    return 0;
}
