/* over-budget: budgets in comments above a function, and on the command line. */
// CHECK-OPTIONS: --checks=-*,over-budget --budget=cli_budget=3MiB
#include <tensorlint/tensor.h>

/* Met: 8 MiB at the peak, within 8 MiB. */
// tensorlint: budget peak 8MiB
static void met(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    tl_release(b);
    tl_release(a);
}

/* Exceeded: 12 MiB at the peak (a, b, c), budget 10 MiB. */
// tensorlint: budget peak 10 MiB
static void exceeded(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    tl_tensor *c = tl_add(a, b); // expected-error {{[over-budget]}}
    tl_release(c);
    tl_release(b);
    tl_release(a);
}

/* Exceeded only on one arm of a branch the analysis cannot decide: the
 * scaled arm holds x, scaled and y (6 MiB); the clone arm 4 MiB. */
// tensorlint: budget peak 5MiB
static void one_arm(int flag)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F16, TL_CPU);
    tl_tensor *y;
    if (flag) { // expected-note {{the peak is reached on the first (if) arm of this branch}}
        tl_tensor *scaled = tl_mul_scalar(x, 2.0);
        y = tl_relu(scaled); // expected-error {{[over-budget]}}
        tl_release(scaled);
    } else {
        y = tl_clone(x);
    }
    tl_release(y);
    tl_release(x);
}

/* Exceeded after the join: the big arm's storage outlives the branch. */
// tensorlint: budget peak 5MiB
static void after_join(int flag)
{
    tl_tensor *x = tl_randn(TL_SHAPE(1024, 1024), TL_F16, TL_CPU);
    tl_tensor *y;
    if (flag) { // expected-note {{is made on the first (if) arm of this branch}}
        y = tl_randn(TL_SHAPE(2048, 1024), TL_F16, TL_CPU);
    } else {
        y = tl_randn(TL_SHAPE(16), TL_F16, TL_CPU);
    }
    tl_tensor *z = tl_relu(x); // expected-error {{[over-budget]}}
    tl_release(z);
    tl_release(y);
    tl_release(x);
}

/* Bytes moved: randn writes 4 MiB, relu reads and writes 8 MiB. */
// tensorlint: budget moved 10MiB
static void moves(void) // expected-error {{[over-budget]}}
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    tl_release(b);
    tl_release(a);
}

/* The command line's 3 MiB, over the comment's 100 MiB. */
// tensorlint: budget peak 100MiB
static void cli_budget(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU); // expected-error {{[over-budget]}}
    tl_release(a);
}

// tensorlint: budget peek 5MiB
// expected-warning@-1 {{[over-budget]}}
static void typo(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_release(a);
}

// tensorlint: budget peak 1K
// expected-warning@-1 {{[over-budget]}}

static void after_a_blank_line(void)
{
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_release(a);
}

int main(int argc, char **argv)
{
    (void)argv;
    met();
    exceeded();
    one_arm(argc > 1);
    after_join(argc > 2);
    moves();
    cli_budget();
    typo();
    after_a_blank_line();
    return 0;
}
