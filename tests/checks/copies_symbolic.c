/* The copy checks over sizes known only at run time (argv, getenv, a
 * config read with fread): a copy wasted for every value of the sizes is
 * reported with its bytes as formulas; one wasted for some values says
 * when (a condition on the sizes, or the assumptions the copy rests on);
 * one never wasted is silent.  (A broadcast's factor > 1 is assumed where
 * the broadcast is made: materialized-broadcast has no "when" of its own.) */
// CHECK-OPTIONS: --checks=-*,materialized-broadcast,copy-then-slice,redundant-copy,double-copy,cast-roundtrip
// bind: n d width config.rows config.cols
// values: 2 2 1 256 1 | 3 5 3 257 2 | 257 64 16 300 5 | 300 2 1024 4096 3
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Config {
    int rows, cols;
} Config;

/* A row broadcast to 16 rows (16x), to n rows (n > 1 assumed at the
 * expand), to one row (never a broadcast). */
static void broadcasts(int n, int d)
{
    tl_tensor *b = tl_randn(TL_SHAPE(1, d), TL_F32, TL_CPU);
    tl_tensor *e16 = tl_expand(b, TL_SHAPE(16, d));
    tl_tensor *c16 = tl_contiguous(e16); // expected-warning {{tl_contiguous writes 64*d B to materialize the broadcast 'e16' (line 23), which holds 4*d B of real data (16x) [materialized-broadcast]}}
    tl_tensor *en = tl_expand(b, TL_SHAPE(n, d));
    tl_tensor *cn = tl_clone(en); // expected-warning {{tl_clone writes 4*n*d B to materialize the broadcast 'en' (line 25), which holds 4*d B of real data (a factor of n) [materialized-broadcast]}}
    tl_tensor *e1 = tl_expand(b, TL_SHAPE(1, d));
    tl_tensor *c1 = tl_contiguous(e1);
    tl_release(c1);
    tl_release(e1);
    tl_release(cn);
    tl_release(en);
    tl_release(c16);
    tl_release(e16);
    tl_release(b);
}

/* Copies of which a slice is read: one row of 16 (for every width; the
 * clone is read only, too), 256 rows of config.rows (when there are more),
 * every row (never). */
static void slices(int width, Config config)
{
    tl_tensor *x = tl_randn(TL_SHAPE(16, width), TL_F32, TL_CPU);
    tl_tensor *c = tl_clone(x); // expected-warning {{tl_clone copies 64*width B but only 4*width B of the copy, through 'row' (line 45), is ever read: 60*width B copied for nothing; slice first, then copy [copy-then-slice]}} expected-warning {{[redundant-copy]}}
    tl_tensor *row = tl_select(c, 0, 3);
    tl_tensor *y = tl_exp(row);
    tl_tensor *m = tl_randn(TL_SHAPE(config.rows, config.cols), TL_F32, TL_CPU);
    tl_tensor *h = tl_to(m, TL_F16); // expected-warning {{tl_to copies 2*config.rows*config.cols B but only 512*config.cols B of the copy, through 's' (line 49), is ever read: 2*config.rows*config.cols - 512*config.cols B copied for nothing; slice first, then copy (when config.rows > 256) [copy-then-slice]}}
    tl_tensor *s = tl_narrow(h, 0, 0, 256);
    tl_tensor *z = tl_relu(s);
    tl_tensor *h2 = tl_to(m, TL_F16);
    tl_tensor *all = tl_narrow(h2, 0, 0, config.rows);
    tl_tensor *w = tl_relu(all);
    tl_release(w);
    tl_release(all);
    tl_release(h2);
    tl_release(z);
    tl_release(s);
    tl_release(h);
    tl_release(m);
    tl_release(y);
    tl_release(row);
    tl_release(c);
    tl_release(x);
}

/* A clone only read while its input stays (for every value); a contiguous
 * copy of a transpose, a copy when both sizes exceed 1; a clone written
 * (never redundant). */
static void readers(int n, int d)
{
    tl_tensor *x = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *w = tl_randn(TL_SHAPE(d, 8), TL_F32, TL_CPU);
    tl_tensor *c = tl_clone(x); // expected-warning {{tl_clone allocates 4*n*d B for nothing: the copy is only read, and 'x' (line 72) stays alive and unchanged until its last read [redundant-copy]}}
    tl_tensor *y = tl_matmul(c, w);
    tl_tensor *t = tl_transpose(x, 0, 1);
    tl_tensor *ct = tl_contiguous(t); // expected-warning {{tl_contiguous allocates 4*n*d B for nothing: the copy is only read, and 't' (line 76) stays alive and unchanged until its last read (when d > 1 and n > 1) [redundant-copy]}}
    tl_tensor *s = tl_sum(ct, 0, false);
    tl_tensor *k = tl_clone(x);
    tl_mul_scalar_(k, 2.0);
    tl_tensor *z = tl_matmul(k, w);
    tl_release(z);
    tl_release(k);
    tl_release(s);
    tl_release(ct);
    tl_release(t);
    tl_release(y);
    tl_release(c);
    tl_release(w);
    tl_release(x);
}

/* Two passes where one does (for every value); a cast there and back (for
 * every value); a lossy one (never). */
static void passes(int n, int d)
{
    tl_tensor *x = tl_randn(TL_SHAPE(n, d), TL_F16, TL_CPU);
    tl_tensor *c = tl_clone(x);
    tl_tensor *f = tl_to(c, TL_F32); // expected-warning {{tl_to copies a fresh tl_clone of 'x' (line 97) that nothing else reads: tl_to on 'x' (line 97) gives the same tensor in one pass, saving 4*n*d B moved and a 2*n*d B allocation [double-copy]}}
    tl_tensor *s = tl_sum(f, 0, false);
    tl_tensor *up = tl_to(x, TL_F32);
    tl_tensor *back = tl_to(up, TL_F16); // expected-warning {{both passes move 12*n*d B for nothing, 'x' (line 97) already holds these values [cast-roundtrip]}}
    tl_tensor *r = tl_relu(back);
    tl_tensor *x32 = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *down = tl_to(x32, TL_F16);
    tl_tensor *again = tl_to(down, TL_F32);
    tl_tensor *r2 = tl_relu(again);
    tl_release(r2);
    tl_release(again);
    tl_release(down);
    tl_release(x32);
    tl_release(r);
    tl_release(back);
    tl_release(up);
    tl_release(s);
    tl_release(f);
    tl_release(c);
    tl_release(x);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int n = atoi(argv[1]);
    int d = atoi(argv[2]);
    broadcasts(n, d);
    readers(n, d);
    passes(n, d);
    FILE *f = fopen(argv[3], "rb");
    if (!f)
        return 2;
    Config config;
    if (fread(&config, sizeof config, 1, f) != 1)
        return 2;
    fclose(f);
    slices(atoi(getenv("TL_WIDTH")), config);
    return 0;
}
