/* Function pointers as values: an array of them indexed in a loop
 * (ops[k](x)), one passed as a callback argument, one a function returns,
 * and one through a cast and &f.  Each call runs the function named. */
#include <tensorlint/tensor.h>

typedef tl_tensor *(*op_fn)(tl_tensor *x);

static tl_tensor *op_relu(tl_tensor *x) { return tl_relu(x); } // expected: - op=relu shape=(4, 8) bytes=128 exec=2
static tl_tensor *op_scale(tl_tensor *x) { return tl_mul_scalar(x, 2.0); } // expected: - op=mul_scalar bytes=128 exec=3
static tl_tensor *op_sum(tl_tensor *x) { return tl_sum(x, 0, false); } // expected: - op=sum shape=(8,) bytes=32 exec=3

static const op_fn ops[3] = {op_relu, op_scale, op_sum};

/* A callback: f is whatever the caller passed. */
static tl_tensor *apply_twice(op_fn f, tl_tensor *x)
{
    tl_tensor *a = f(x);
    tl_tensor *b = f(a);
    tl_release(a);
    return b;
}

static op_fn pick(int k) { return k == 0 ? op_relu : op_sum; }

int main(void) // expected-func: peak=448 end=0 moved=1888 peak-line=36 calls=9
{
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x bytes=128 freed=41
    for (int k = 0; k < 3; k++) {
        tl_tensor *y = ops[k](x);
        tl_release(y);
    }
    tl_tensor *z = apply_twice(op_scale, x);
    tl_tensor *r = pick(0)(z);
    op_fn s = (op_fn)(void *)&op_sum;
    tl_tensor *t = s(x);
    tl_tensor *u = (*pick(1))(x);
    tl_release(u);
    tl_release(t);
    tl_release(r);
    tl_release(z);
    tl_release(x);
    return 0;
}
