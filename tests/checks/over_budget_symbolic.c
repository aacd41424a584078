/* over-budget over sizes known only at run time: an exported function's
 * parameters are symbols.  A peak over its budget for every value is an
 * error; one over it for some values is an error that says when; one
 * within it for every value is silent. */
// CHECK-OPTIONS: --checks=-*,over-budget
// bind: n d
// values: 1 1 | 2 3 | 512 256 | 512 257 | 100 5000
#include <tensorlint/tensor.h>

/* 2048*n B at the peak: over 1 KiB for every n >= 1. */
// tensorlint: budget peak 1KiB
void always_over(int n)
{
    tl_tensor *x = tl_zeros(TL_SHAPE(n, 512), TL_F32, TL_CPU); // expected-error {{[over-budget]}}
    tl_release(x);
}

/* 8*n*d B at the peak: over 1 MiB when 8*n*d > 1048576. */
// tensorlint: budget peak 1MiB
void over_when_large(int n, int d)
{
    tl_tensor *x = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *y = tl_relu(x); // expected-error {{[over-budget]}}
    tl_release(y);
    tl_release(x);
}

/* At most 16 rows of 16 floats: 64*min(n, 16) B <= 1 KiB for every n. */
// tensorlint: budget peak 1KiB
void within(int n)
{
    int rows = n < 16 ? n : 16;
    tl_tensor *x = tl_zeros(TL_SHAPE(rows, 16), TL_F32, TL_CPU);
    tl_release(x);
}

/* Moves 12*n*d B (zeros writes it, neg reads and writes it): over 4 KiB
 * when n*d > 341. */
// tensorlint: budget moved 4KiB
void moves(int n, int d) // expected-error {{[over-budget]}}
{
    tl_tensor *x = tl_zeros(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *y = tl_neg(x);
    tl_release(y);
    tl_release(x);
}
