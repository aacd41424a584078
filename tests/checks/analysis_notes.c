/* The analysis's own notes, and where it says nothing. */
// CHECK-OPTIONS: --max-iterations=8
#include <tensorlint/tensor.h>

void consume(tl_tensor *t); /* defined elsewhere */

static tl_tensor *twice(tl_tensor *x, int n)
{
    if (n <= 0)
        return tl_clone(x);
    return twice(x, n - 1); // expected-note {{[recursion]}}
}

static void kept(tl_tensor *x)
{
    tl_tensor *y = tl_relu(x);
    tl_release(y);
}

int main(int argc, char **argv)
{
    tl_tensor *x = tl_randn(TL_SHAPE(16), TL_F32, TL_CPU);
    consume(x); // expected-note {{[external-call]}}
    kept(x);
    for (int i = 0; argv[i] != 0; i++) { // expected-note {{[unknown-trip-count]}}
        tl_tensor *y = tl_relu(x);
        tl_release(y);
    }
    for (int i = 0; i < argc; i++) { /* argc times: summarised, no note */
        tl_tensor *y = tl_relu(x);
        tl_release(y);
    }
    for (int i = 0; i < 4; i++) {
        tl_tensor *y = tl_relu(x);
        tl_release(y);
    }
    for (int i = 0; i < 100; i++) { // expected-warning {{[analysis-limit]}}
        tl_tensor *y = tl_relu(x);
        tl_release(y);
    }
    tl_tensor *rows[8];
    int n = argc < 8 ? argc : 8;
    for (int i = 0; i < n; i++) /* an array filled at its counter: summarised, no note */
        rows[i] = tl_relu(x);
    rows[0] = tl_relu(x); // expected-note {{[unsupported]}}
    /* the store above may have replaced any element: they are unknown now */
    for (int i = n - 1; i >= 0; i--) // expected-note {{[unknown-trip-count]}}
        tl_release(rows[i]); // expected-note {{[unsupported]}}
    union { tl_tensor *t; long bits; } u;
    u.t = tl_relu(x); // expected-note {{[unsupported]}}
    tl_tensor *r = twice(x, 2);
    tl_release(r);
    tl_release(x);
    return 0;
}
