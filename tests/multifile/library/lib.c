/* The library's functions; none releases what it returns. */
#include "lib.h"

tl_tensor *lib_features(int n, int d)
{
    return tl_ones(TL_SHAPE(n, d), TL_F32, TL_CPU); // expected: op=ones shape=(32, 8) bytes=1024 freed=main.c:13
}

tl_tensor *lib_first_rows(tl_tensor *t, int k)
{
    return tl_slice(t, 0, 0, k, 1); // expected: op=slice shape=(4, 8) kind=view exec=1
}

tl_tensor *lib_normalise(tl_tensor *t)
{
    tl_tensor *m = tl_mean(t, 1, true); // expected: m op=mean shape=(4, 1) bytes=16 freed=lib.c:18
    tl_tensor *y = tl_sub(t, m); // expected: y op=sub shape=(4, 8) bytes=128 freed=? expected-note {{the handle is made here}}
    tl_release(m);
    return y;
}
