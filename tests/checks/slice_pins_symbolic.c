/* slice-pins-storage over sizes known only at run time (argv, getenv, a
 * config read with fread): a view that reaches under a quarter of its
 * storage for every value of the sizes fires; one that does for some
 * values fires and says when; one that never does is silent. */
// CHECK-OPTIONS: --checks=-*,slice-pins-storage
// bind: n d width config.rows config.cols
// values: 2 2 1 2 1 | 4 3 4 8 7 | 5 64 5 9 2 | 64 128 96 640 33
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Config {
    int rows, cols;
} Config;

/* One row of 16: 1/16 of the storage, whatever d is. */
static void always(int d)
{
    tl_tensor *big = tl_randn(TL_SHAPE(16, d), TL_F32, TL_CPU);
    tl_tensor *row = tl_select(big, 0, 3); // expected-warning {{keeps all 64*d B of the storage made at line 19 alive but reaches only 4*d B of it (6.2%): 60*d B pinned; clone the view so the storage can be freed [slice-pins-storage]}}
    tl_release(big); // expected-note {{the last larger handle}}
    tl_tensor *y = tl_relu(row);
    tl_release(y);
    tl_release(row);
}

/* One row of n: under a quarter when there are more than 4. */
static void when_many_rows(int n, int d)
{
    tl_tensor *big = tl_ones(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *row = tl_select(big, 0, 0); // expected-warning {{keeps all 4*n*d B of the storage made at line 30 alive but reaches only 4*d B of it (1/n): 4*n*d - 4*d B pinned; clone the view so the storage can be freed (when n > 4) [slice-pins-storage]}}
    tl_release(big);
    tl_tensor *t = tl_ones(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *u = tl_mul_scalar(t, 2.0);
    tl_release(u);
    tl_release(t);
    tl_release(row);
}

/* Half of the storage, and all of it: never under a quarter; a row freed
 * with its storage before anything else runs. */
static void never(int n, int d)
{
    tl_tensor *big = tl_ones(TL_SHAPE(2, n, d), TL_F32, TL_CPU);
    tl_tensor *half = tl_select(big, 0, 1);
    tl_tensor *all = tl_transpose(big, 1, 2);
    tl_release(big);
    tl_release(all);
    tl_tensor *y = tl_relu(half);
    tl_release(y);
    tl_release(half);
    tl_tensor *big2 = tl_ones(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *row = tl_select(big2, 0, 0);
    tl_release(big2);
    tl_release(row);
}

/* A width from the environment: one row of 2 KiB of width rows. */
static void from_env(void)
{
    const char *s = getenv("TL_WIDTH");
    int width = s ? atoi(s) : 8;
    tl_tensor *big = tl_zeros(TL_SHAPE(width, 1024), TL_F16, TL_CPU);
    tl_tensor *first = tl_narrow(big, 0, 0, 1); // expected-warning {{keeps all 2048*width B of the storage made at line 63 alive but reaches only 2 KiB of it (1/width): 2048*width - 2048 B pinned; clone the view so the storage can be freed (when width > 4) [slice-pins-storage]}}
    tl_release(big);
    tl_tensor *y = tl_exp(first);
    tl_release(y);
    tl_release(first);
}

/* A header read with fread: two rows of config.rows, left when a view of
 * every column (never small) is gone. */
static int from_config(FILE *f)
{
    Config config;
    if (fread(&config, sizeof config, 1, f) != 1)
        return 1;
    tl_tensor *big = tl_randn(TL_SHAPE(config.rows, config.cols), TL_F32, TL_CPU);
    tl_tensor *two = tl_narrow(big, 0, 0, 2); // expected-warning {{keeps all 4*config.rows*config.cols B of the storage made at line 78 alive but reaches only 8*config.cols B of it (2/config.rows): 4*config.rows*config.cols - 8*config.cols B pinned; clone the view so the storage can be freed (when config.rows > 8) [slice-pins-storage]}}
    tl_tensor *cols = tl_narrow(big, 1, 0, config.cols);
    tl_tensor *z = tl_relu(cols);
    tl_release(z);
    tl_release(cols);
    tl_release(big);
    tl_tensor *y = tl_add(two, two);
    tl_release(y);
    tl_release(two);
    return 0;
}

/* The same in each of n steps: the message cannot say how many in all. */
static void in_loop(int n, int d)
{
    for (int i = 0; i < n; i++) {
        tl_tensor *big = tl_randn(TL_SHAPE(d, 1024), TL_F32, TL_CPU);
        tl_tensor *r = tl_select(big, 0, 0); // expected-warning {{4096*d - 4096 B pinned (per execution; runs n times, 4096*n*d - 4096*n B in all); clone the view so the storage can be freed (when d > 4) [slice-pins-storage]}}
        tl_release(big);
        tl_tensor *e = tl_relu(r);
        tl_release(e);
        tl_release(r);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int n = atoi(argv[1]);
    int d = atoi(argv[2]);
    always(d);
    when_many_rows(n, d);
    never(n, d);
    from_env();
    in_loop(n, d);
    FILE *f = fopen(argv[3], "rb");
    if (!f)
        return 2;
    int rc = from_config(f);
    fclose(f);
    return rc;
}
