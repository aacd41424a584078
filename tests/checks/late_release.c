/* late-release: releasing right after the last use lowers the peak. */
// CHECK-OPTIONS: --checks=-*,late-release,leaked-tensor
#include <tensorlint/tensor.h>

static void fires(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a); // expected-note {{the last use of the storage}}
    tl_tensor *c = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *d = tl_add(b, c);
    tl_release(d);
    tl_release(c);
    tl_release(b);
    tl_release(a); // expected-warning {{[late-release]}}
}

/* Near misses: a prompt release; a late release of a small tensor; a release
 * that cannot move into the branch that last uses it. */
static void near_miss(int flag)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    tl_release(a);
    tl_tensor *c = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *d = tl_add(b, c);
    tl_release(c);
    tl_release(b);
    tl_tensor *small = tl_randn(TL_SHAPE(16, 16), TL_F32, TL_CPU);
    tl_tensor *e = tl_relu(small);
    tl_tensor *f = tl_add(d, d);
    tl_release(d);
    tl_release(e);
    tl_release(small);
    tl_tensor *y;
    if (flag) {
        tl_tensor *s = tl_mul_scalar(f, 2.0);
        y = tl_relu(s);
        tl_release(s);
    } else {
        y = tl_clone(f);
    }
    tl_tensor *z = tl_exp(y);
    tl_release(z);
    tl_release(y);
    tl_release(f);
}

int main(int argc, char **argv)
{
    (void)argv;
    fires();
    near_miss(argc > 1);
    tl_tensor *x = tl_randn(TL_SHAPE(2048, 2048), TL_F32, TL_CPU); // expected-warning {{[late-release]}}
    tl_tensor *y = tl_relu(x);
    tl_tensor *z = tl_randn(TL_SHAPE(2048, 2048), TL_F32, TL_CPU);
    tl_tensor *w = tl_add(y, z);
    (void)w;
    return 0;
}
