/* a == b on two handles (llama2.c's rmsnorm(o, x, w) is called with o == x
 * and with o != x): decided where each handle stands for one tensor of the
 * run, not known where one may stand for another (two arms joined, handles
 * swapped in a loop), so that what depends on it is a bound with a note. */
#include <stdlib.h>
#include <tensorlint/tensor.h>

/* o = x * x, o may be x (the copy only when it is not) */
static void square(tl_tensor *o, tl_tensor *x)
{
    tl_tensor *x2 = tl_mul(x, x); // expected: x2 exec=2*n
    if (o != x) {
        tl_tensor *d = tl_add(x, x); // expected: d exec=n
        tl_copy_(o, d);
        tl_release(d);
    }
    tl_copy_(o, x2);
    tl_release(x2);
}

int main(int argc, char **argv) // expected-func: peak<=16KiB
{
    if (argc < 2) // expected-assumption {{argc < 2 is false}}
        return 2;
    int n = atoi(argv[1]);
    tl_tensor *x = tl_ones(TL_SHAPE(1024), TL_F32, TL_CPU);
    tl_tensor *xb = tl_ones(TL_SHAPE(1024), TL_F32, TL_CPU);
    for (int i = 0; i < n; i++) {
        square(xb, x);
        square(x, x);
    }
    if (x == NULL || x == xb)
        return 1;
    /* swapped n times: which one a holds depends on n */
    tl_tensor *a = x, *b = xb;
    for (int i = 0; i < n; i++) {
        tl_tensor *t = a;
        a = b;
        b = t;
    }
    if (a == x) { // expected-note {{arms reach different peaks}} {{[unknown-branch]}}
        tl_tensor *c = tl_clone(a); // expected: c exec<=1
        tl_release(c);
    }
    /* two arms that leave different handles in p: which one is not known */
    tl_tensor *p = argc > 5 ? x : xb;
    if (p == x) { // expected-note {{arms reach different peaks}} {{[unknown-branch]}}
        tl_tensor *c = tl_clone(p); // expected: c exec<=1
        tl_release(c);
    }
    tl_release(x);
    tl_release(xb);
    return 0;
}
// values: n=3
