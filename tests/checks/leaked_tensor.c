/* leaked-tensor: a handle lost while it keeps a storage alive. */
// CHECK-OPTIONS: --checks=-*,leaked-tensor
#include <tensorlint/tensor.h>

static tl_tensor *make(tl_tensor *w)
{
    tl_tensor *a = tl_randn(TL_SHAPE(16, 16), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(tl_t(w)); // expected-warning {{[leaked-tensor]}}
    tl_tensor *c = tl_add(a, b);
    tl_release(b);
    return c;
} // expected-warning {{[leaked-tensor]}}

static void in_a_loop(void)
{
    for (int i = 0; i < 4; i++) {
        tl_tensor *t = tl_randn(TL_SHAPE(16), TL_F32, TL_CPU);
        tl_tensor *u = tl_relu(t);
        tl_release(u);
    } // expected-warning {{[leaked-tensor]}}
}

/* Near misses: every handle released; a function that returns its result. */
static tl_tensor *clean(tl_tensor *w)
{
    tl_tensor *t = tl_t(w);
    tl_tensor *b = tl_relu(t);
    tl_release(t);
    return b;
}

int main(void)
{
    tl_tensor *w = tl_randn(TL_SHAPE(16, 16), TL_F32, TL_CPU);
    tl_tensor *m = make(w);
    tl_release(m);
    in_a_loop();
    tl_tensor *x = tl_randn(TL_SHAPE(16), TL_F32, TL_CPU);
    x = tl_randn(TL_SHAPE(16), TL_F32, TL_CPU); // expected-warning {{[leaked-tensor]}}
    make(w); // expected-warning {{[leaked-tensor]}}
    tl_tensor *k = clean(w);
    tl_release(k);
    tl_tensor *kept = tl_randn(TL_SHAPE(16), TL_F32, TL_CPU);
    (void)kept;
    tl_release(x);
    tl_release(w);
    return 0;
}
