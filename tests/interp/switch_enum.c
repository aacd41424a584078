/* switch on an enum: cases that return, a case that falls through, default. */
#include <tensorlint/tensor.h>

typedef enum { ACT_RELU, ACT_EXP, ACT_NONE } act_kind;

static tl_tensor *activate(tl_tensor *x, act_kind k)
{
    switch (k) {
    case ACT_RELU:
        return tl_relu(x); // expected: op=relu shape=(2, 4) bytes=32 exec=1 freed=35
    case ACT_EXP:
        return tl_exp(x); // expected: op=exp shape=(2, 4) bytes=32 exec=1 freed=36
    default:
        return tl_clone(x); // expected: op=clone shape=(2, 4) bytes=32 exec=1 freed=37
    }
}

int main(void) // expected-func: peak=136 end=0 moved=232 peak-line=29 calls=5
{
    tl_tensor *x = tl_ones(TL_SHAPE(2, 4), TL_F32, TL_CPU); // expected: x bytes=32 freed=38
    tl_tensor *a = activate(x, ACT_RELU);
    tl_tensor *b = activate(x, ACT_EXP);
    tl_tensor *c = activate(x, ACT_NONE);
    tl_tensor *d = NULL;
    act_kind k = ACT_EXP;
    switch (k) {
    case ACT_EXP:
    case ACT_RELU:
        d = tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU); // expected: d bytes=8 exec=1 freed=39
        break;
    default:
        d = tl_ones(TL_SHAPE(100), TL_F32, TL_CPU); // expected: d exec=0 shape=?
        break;
    }
    tl_release(a);
    tl_release(b);
    tl_release(c);
    tl_release(x);
    tl_release(d);
    return 0;
}
