/* Suppression comments: the five forms clang-tidy accepts, and what is
 * wrong with a comment that names no check or ends nothing. */
// CHECK-OPTIONS: --checks=-*,hidden-copy,upcast,nolint
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *x = tl_randn(TL_SHAPE(64, 128), TL_F32, TL_CPU);
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *a = tl_reshape(t, TL_SHAPE(8192)); // NOLINT
    tl_tensor *b = tl_reshape(t, TL_SHAPE(8192)); // NOLINT(hidden-copy)
    tl_tensor *c = tl_reshape(t, TL_SHAPE(8192)); // NOLINT(hidden-*, upcast)
    tl_tensor *d = tl_reshape(t, TL_SHAPE(8192)); // NOLINT(upcast) expected-warning {{[hidden-copy]}}
    // NOLINTNEXTLINE(hidden-copy)
    tl_tensor *e = tl_reshape(t, TL_SHAPE(8192));
    // NOLINTNEXTLINE(upcast)
    tl_tensor *f = tl_reshape(t, TL_SHAPE(8192)); // expected-warning {{[hidden-copy]}}
    // NOLINTBEGIN(hidden-copy)
    tl_tensor *g = tl_reshape(t, TL_SHAPE(8192));
    tl_tensor *h = tl_flatten(t, 0, 1);
    // NOLINTEND(hidden-copy)
    tl_tensor *i = tl_reshape(t, TL_SHAPE(8192)); // expected-warning {{[hidden-copy]}}
    /* NOLINTNEXTLINE(hidden-copy) in a block comment */
    tl_tensor *j = tl_reshape(t, TL_SHAPE(8192));
    tl_tensor *k = tl_reshape(t, TL_SHAPE(8192)); // NOLINT(hiden-copy) expected-warning {{[nolint]}} expected-warning {{[hidden-copy]}}
    const char *text = "NOLINT(not-a-check) in a string is not a comment";
    // NOLINTEND(upcast) expected-warning {{[nolint]}}
    // NOLINTBEGIN(upcast) expected-warning {{[nolint]}}
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)h, (void)i, (void)j;
    (void)k, (void)text;
    return 0;
}
