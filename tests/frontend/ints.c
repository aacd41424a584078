/* tl_ints variables: one hidden integer per element, assigned where the
 * variable is. */
#include <tensorlint/tensor.h>

void shapes(int n, tl_ints given)
{
    tl_ints s = TL_SHAPE(n, 4 * n);
    tl_tensor *x = tl_zeros(s, TL_F32, TL_CPU);
    s.v[1] = 8;
    tl_tensor *y = tl_view(x, s);
    tl_ints t = s;
    s = TL_SHAPE(s.v[1], n, s.n);
    tl_tensor *z = tl_reshape(x, s);
    s.v[n] = 3;
    tl_tensor *w = tl_reshape(x, s);
    tl_tensor *q = tl_reshape(x, t);
    tl_tensor *r = tl_reshape(x, given);
    tl_release(x);
    tl_release(y);
    tl_release(z);
    tl_release(w);
    tl_release(q);
    tl_release(r);
}
