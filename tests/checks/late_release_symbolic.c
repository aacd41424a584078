/* late-release over sizes known only at run time (argv, getenv, a config
 * read with fread): a release whose saving meets both thresholds (1 MiB,
 * 10% of the peak) for every value of the sizes fires; one whose saving
 * meets them for some values fires and says when; one that never does is
 * silent.  Each function is a root of its own, so that its peak is one
 * formula. */
// CHECK-OPTIONS: --checks=-*,late-release
// bind: n d width config.rows config.seq config.layers config.dim config.hidden
// values: 1 1 1 1 8 1 1 1 | 512 512 3 7168 8 1 262144 1 | 1024 255 2 7169 9 2 300000 5 | 3 100000 64 100 64 1 1048576 3
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Config {
    int rows, seq, layers, dim, hidden;
} Config;

/* 1 MiB per width: a quarter of the peak for every width. */
void from_env(void)
{
    int width = atoi(getenv("TL_WIDTH"));
    tl_tensor *a = tl_randn(TL_SHAPE(width, 1024, 256), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a); // expected-note {{the last use of the storage}}
    tl_tensor *c = tl_randn(TL_SHAPE(width, 1024, 256), TL_F32, TL_CPU);
    tl_tensor *e = tl_add(b, c); // expected-note {{the peak of from_env, with the storage still live}}
    tl_release(e);
    tl_release(c);
    tl_release(b);
    tl_release(a); // expected-warning {{the 1048576*width B storage of 'a' (line 22) is released here, long after its last use at line 23: releasing it there lowers the peak of from_env from 4194304*width B to 3145728*width B (saves 1048576*width B) [late-release]}}
}

/* At most 16 rows of 4 KiB: under 1 MiB for every value. */
void clamped(void)
{
    int n = atoi(getenv("TL_ROWS"));
    int rows = n < 16 ? n : 16;
    tl_tensor *a = tl_randn(TL_SHAPE(rows, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    tl_tensor *c = tl_randn(TL_SHAPE(rows, 1024), TL_F32, TL_CPU);
    tl_tensor *e = tl_add(b, c);
    tl_release(e);
    tl_release(c);
    tl_release(b);
    tl_release(a);
}

/* 4 MiB saved of 12 MiB + 4096*config.rows B: 10% of the peak while
 * config.rows <= 7168.  c, never used, saves its own bytes, up to 4 MiB. */
int from_config(FILE *f)
{
    Config config;
    if (fread(&config, sizeof config, 1, f) != 1)
        return 1;
    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_relu(a);
    tl_tensor *c = tl_randn(TL_SHAPE(config.rows, 1024), TL_F32, TL_CPU);
    tl_tensor *e = tl_add(b, b);
    tl_release(e);
    tl_release(c); // expected-warning {{from 4096*config.rows + 12582912 B to max(12582912, 4096*config.rows + 8388608) B (saves min(4194304, 4096*config.rows) B) (when config.rows <= 7168 and config.rows >= 342) [late-release]}}
    tl_release(b);
    tl_release(a); // expected-warning {{releasing it there lowers the peak of from_config from 4096*config.rows + 12582912 B to 4096*config.rows + 8388608 B (saves 4 MiB) (when config.rows <= 7168) [late-release]}}
    return 0;
}

/* A cache of config.seq >= 8 steps makes the vector x under 10% of the
 * peak for every value, though no one comparison of sizes shows it: the
 * check finds no sizes for which it fires, and stays quiet.  The cache is
 * last used by the narrow: releasing cache and recent there saves it. */
int cache_heavy(FILE *f)
{
    Config config;
    if (fread(&config, sizeof config, 1, f) != 1)
        return 1;
    tl_tensor *cache = tl_zeros(TL_SHAPE(config.seq, config.layers, config.dim), TL_F32, TL_CPU);
    tl_tensor *recent = tl_narrow(cache, 0, 0, 8);
    tl_tensor *w = tl_randn(TL_SHAPE(config.hidden), TL_F32, TL_CPU);
    tl_tensor *x = tl_randn(TL_SHAPE(config.dim), TL_F32, TL_CPU);
    tl_tensor *y = tl_relu(x);
    tl_tensor *z = tl_add(y, y);
    tl_release(z);
    tl_release(y);
    tl_release(w);
    tl_release(recent);
    tl_release(cache); // expected-warning {{[late-release]}} {{(saves min(4*config.seq*config.layers*config.dim, 12*config.dim + 4*config.hidden) B) (when 3*config.dim + config.hidden >= 262144 and}}
    tl_release(x);
    return 0;
}

/* 4*n*d B saved of 16*n*d: at least 1 MiB when n*d >= 262144; the
 * storage is never released (main's end frees it). */
int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int d = atoi(argv[2]);
    tl_tensor *a = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU); // expected-warning {{'a' (4*n*d B) is never released, though its storage is last used at line 98: releasing it there lowers the peak of main from 16*n*d B to 12*n*d B (saves 4*n*d B) (when n*d >= 262144) [late-release]}}
    tl_tensor *b = tl_relu(a);
    tl_tensor *c = tl_randn(TL_SHAPE(n, d), TL_F32, TL_CPU);
    tl_tensor *e = tl_add(b, c);
    tl_release(e);
    tl_release(c);
    tl_release(b);
    return 0;
}
