/* Constructs the IR does not model: the analysis goes on after each. */
#include <tensorlint/tensor.h>

typedef struct layer {
    tl_tensor *w;
    int n;
} layer;

typedef tl_tensor *(*unary_fn)(tl_tensor *);

tl_tensor *apply(unary_fn f, tl_tensor *x) { return f(x); }

int main(int argc, char **argv)
{
    (void)argv;
    tl_tensor *ts[2] = {tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU), NULL};
    layer l = {tl_ones(TL_SHAPE(3), TL_F32, TL_CPU), 3};
    l.w = tl_relu(l.w);
    ts[1] = tl_neg(ts[0]);
    tl_tensor *y = tl_exp(ts[1]);
    tl_ints shape = TL_SHAPE(argc, 2);
    tl_tensor *z = tl_view(y, shape);
    double scale = 0.5 * argc;
    tl_mul_scalar_(z, scale);
    tl_tensor *q = tl_zeros(TL_SHAPE(argc * 0.5, l.n, argc), TL_F32, TL_CPU);
    switch (argc) {
    case 1:
        if (argc)
            break;
        tl_zero_(q);
        break;
    }
    tl_release(y);
    tl_release(z);
    tl_release(q);
    return 0;
}
