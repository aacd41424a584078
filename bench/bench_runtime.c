/*
 * bench_runtime.c: the CPU runtime's ops (allocation included, as a user
 * pays it) against memcpy of the same bytes, into a warm buffer and into a
 * freshly allocated one.  Prints one JSON line per case: the median of REPS
 * timed runs after one warm-up, bytes read + written, and the bandwidths.
 * Cases: copies and casts of f16, a 1024^3 f32 matmul (allocating, and
 * matmul_out into a preallocated out), and a broadcast add, elementwise
 * ops and activations on 4096x4096 f32, contiguous and transposed (these in
 * ROUNDS interleaved rounds, the median over them).
 * bench/run.sh runs this beside bench_torch.py and writes the table in
 * docs/performance.md.  `bench_runtime --simd=base` (or avx2) runs the f32
 * functions (exp, the activations) on that instruction set, the path of
 * CPUs without the wider ones, whatever this CPU has (rt_simd_use);
 * `--only=TEXT` runs only the cases whose names contain TEXT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <tensorlint/tensor.h>

#include "kernels.h" /* rt_simd_use */

#define REPS 7

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef tl_tensor *(*bench_fn)(tl_tensor *a, tl_tensor *b);

static double median_seconds(bench_fn f, tl_tensor *a, tl_tensor *b)
{
    double t[REPS];
    tl_release(f(a, b)); /* warm-up: page faults, caches */
    for (int k = 0; k < REPS; k++) {
        double t0 = now();
        tl_tensor *r = f(a, b);
        t[k] = now() - t0;
        tl_release(r);
    }
    qsort(t, REPS, sizeof t[0], cmp_double);
    return t[REPS / 2];
}

/* A buffer allocated as the runtime allocates a large storage. */
static char *fresh(size_t bytes)
{
    size_t huge = (size_t)2 << 20, size = (bytes + huge - 1) & ~(huge - 1);
    char *p = aligned_alloc(huge, size);
    madvise(p, size, MADV_HUGEPAGE);
    return p;
}

/* memcpy of bytes: into a warm buffer, or (fresh) into a new one each time,
 * which pays the page faults a new storage pays. */
static double memcpy_seconds(size_t bytes, bool into_fresh)
{
    char *src = malloc(bytes), *warm = malloc(bytes);
    double t[REPS];
    memset(src, 1, bytes);
    memset(warm, 0, bytes);
    for (int k = 0; k < REPS; k++) {
        double t0 = now();
        char *dst = into_fresh ? fresh(bytes) : warm;
        memcpy(dst, src, bytes);
        t[k] = now() - t0;
        if (into_fresh)
            free(dst);
    }
    volatile char sink = warm[bytes / 2];
    (void)sink;
    free(src);
    free(warm);
    qsort(t, REPS, sizeof t[0], cmp_double);
    return t[REPS / 2];
}

static tl_tensor *f_contiguous(tl_tensor *a, tl_tensor *b) { (void)b; return tl_contiguous(a); }
static tl_tensor *f_to_f32(tl_tensor *a, tl_tensor *b) { (void)b; return tl_to(a, TL_F32); }
static tl_tensor *f_matmul(tl_tensor *a, tl_tensor *b) { return tl_matmul(a, b); }
static tl_tensor *f_add(tl_tensor *a, tl_tensor *b) { return tl_add(a, b); }
static tl_tensor *f_mul(tl_tensor *a, tl_tensor *b) { return tl_mul(a, b); }
static tl_tensor *f_mul_scalar(tl_tensor *a, tl_tensor *b) { (void)b; return tl_mul_scalar(a, 1.5); }
static tl_tensor *f_exp(tl_tensor *a, tl_tensor *b) { (void)b; return tl_exp(a); }
static tl_tensor *f_silu(tl_tensor *a, tl_tensor *b) { (void)b; return tl_silu(a); }
static tl_tensor *f_gelu(tl_tensor *a, tl_tensor *b) { (void)b; return tl_gelu(a); }
static tl_tensor *f_sigmoid(tl_tensor *a, tl_tensor *b) { (void)b; return tl_sigmoid(a); }
static tl_tensor *f_tanh(tl_tensor *a, tl_tensor *b) { (void)b; return tl_tanh(a); }
static tl_tensor *f_rsqrt(tl_tensor *a, tl_tensor *b) { (void)b; return tl_rsqrt(a); }

/* matmul into a preallocated, right-shaped out (nothing allocated per call) */
static tl_tensor *matmul_dst;
static tl_tensor *f_matmul_out(tl_tensor *a, tl_tensor *b)
{
    tl_matmul_out(matmul_dst, a, b);
    return NULL;
}

/* |x| / 2 + 0.5: values in [0.5, ...) for rsqrt */
static tl_tensor *positive_like(tl_tensor *x)
{
    tl_tensor *sq = tl_mul(x, x), *r = tl_sqrt(sq), *h = tl_mul_scalar(r, 0.5), *p = tl_add_scalar(h, 0.5);
    tl_release(sq);
    tl_release(r);
    tl_release(h);
    return p;
}

/* moved = bytes read + written; memcpy of moved/2 bytes moves the same. */
static void report(const char *name, double sec, int64_t moved)
{
    double warm = memcpy_seconds((size_t)moved / 2, false);
    double cold = memcpy_seconds((size_t)moved / 2, true);
    printf("{\"case\":\"%s\",\"impl\":\"tensorlint\",\"ms\":%.3f,\"moved_bytes\":%lld,"
           "\"gbps\":%.2f,\"memcpy_gbps\":%.2f,\"memcpy_fresh_gbps\":%.2f}\n",
           name, sec * 1e3, (long long)moved, (double)moved / sec / 1e9,
           (double)moved / warm / 1e9, (double)moved / cold / 1e9);
    fflush(stdout);
}

static const char *only = ""; /* --only=TEXT: the cases whose names contain it */

static bool wanted(const char *name) { return strstr(name, only) != NULL; }

/* A case of the elementwise section and its times, round by round. */
enum { ROUNDS = 15 };
typedef struct ew_case {
    char name[64];
    bench_fn f;
    tl_tensor *u, *v;
    bool owned;
    int64_t moved;
    double t[ROUNDS], warm[ROUNDS], fresh[ROUNDS];
} ew_case;

static double median_of(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return t[n / 2];
}

/* memcpy of bytes from src into dst (warm) or into a fresh buffer: seconds. */
static double memcpy_once(char *dst, const char *src, size_t bytes)
{
    double t0 = now();
    char *d = dst ? dst : fresh(bytes);
    memcpy(d, src, bytes);
    double t = now() - t0;
    if (!dst)
        free(d);
    return t;
}

/* Every case once per round, with a warm and a fresh memcpy of its bytes
 * beside it; one JSON line per case with the medians over the rounds. */
static void run_rounds(ew_case *c, int n)
{
    size_t most = 0;
    for (int k = 0; k < n; k++)
        most = (size_t)c[k].moved / 2 > most ? (size_t)c[k].moved / 2 : most;
    char *src = malloc(most), *warm = malloc(most);
    memset(src, 1, most);
    memset(warm, 0, most);
    for (int k = 0; k < n; k++) /* warm-up: page faults, caches, the first call's setup */
        tl_release(c[k].f(c[k].u, c[k].v));
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < n; k++) {
            double t0 = now();
            tl_tensor *out = c[k].f(c[k].u, c[k].v);
            c[k].t[r] = now() - t0;
            tl_release(out);
            c[k].warm[r] = memcpy_once(warm, src, (size_t)c[k].moved / 2);
            c[k].fresh[r] = memcpy_once(NULL, src, (size_t)c[k].moved / 2);
        }
    }
    for (int k = 0; k < n; k++) {
        double sec = median_of(c[k].t, ROUNDS), w = median_of(c[k].warm, ROUNDS);
        double f = median_of(c[k].fresh, ROUNDS);
        printf("{\"case\":\"%s\",\"impl\":\"tensorlint\",\"ms\":%.3f,\"moved_bytes\":%lld,"
               "\"gbps\":%.2f,\"memcpy_gbps\":%.2f,\"memcpy_fresh_gbps\":%.2f}\n",
               c[k].name, sec * 1e3, (long long)c[k].moved, (double)c[k].moved / sec / 1e9,
               (double)c[k].moved / w / 1e9, (double)c[k].moved / f / 1e9);
    }
    fflush(stdout);
    free(src);
    free(warm);
}

/* The options: a SIMD variant, the cases to run; false after a message. */
static bool parse_args(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        if (strncmp(argv[k], "--simd=", 7) == 0) {
            rt_simd s = RT_SIMD_BASE;
            while (s < rt_simd_best() && strcmp(argv[k] + 7, rt_simd_name(s)) != 0)
                s++;
            if (strcmp(argv[k] + 7, rt_simd_name(s)) != 0) {
                fprintf(stderr, "bench_runtime: %s: not a variant this CPU runs\n", argv[k]);
                return false;
            }
            rt_simd_use(s);
        } else if (strncmp(argv[k], "--only=", 7) == 0) {
            only = argv[k] + 7;
        } else {
            fprintf(stderr, "usage: bench_runtime [--simd=base|avx2|avx512] [--only=TEXT]\n");
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    if (!parse_args(argc, argv))
        return 2;
    tl_tensor *x = tl_randn(TL_SHAPE(16, 1024, 4096), TL_F16, TL_CPU);
    tl_tensor *xt = tl_transpose(x, 1, 2);
    int64_t n = tl_numel(x);
    if (wanted("contiguous_transposed_f16"))
        report("contiguous_transposed_f16", median_seconds(f_contiguous, xt, NULL), n * 2 * 2);
    if (wanted("to_f32_transposed_f16"))
        report("to_f32_transposed_f16", median_seconds(f_to_f32, xt, NULL), n * 2 + n * 4);
    if (wanted("to_f32_contiguous_f16"))
        report("to_f32_contiguous_f16", median_seconds(f_to_f32, x, NULL), n * 2 + n * 4);
    tl_release(xt);
    tl_release(x);

    tl_tensor *a = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    tl_tensor *b = tl_randn(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    if (wanted("matmul_1024_f32")) {
        double sec = median_seconds(f_matmul, a, b);
        printf("{\"case\":\"matmul_1024_f32\",\"impl\":\"tensorlint\",\"ms\":%.3f,\"gflops\":%.1f}\n",
               sec * 1e3, 2.0 * 1024 * 1024 * 1024 / sec / 1e9);
    }
    /* matmul_out at 1024^3 into a preallocated out */
    matmul_dst = tl_empty(TL_SHAPE(1024, 1024), TL_F32, TL_CPU);
    if (wanted("matmul_out_1024_f32")) {
        double sec = median_seconds(f_matmul_out, a, b);
        printf("{\"case\":\"matmul_out_1024_f32\",\"impl\":\"tensorlint\",\"ms\":%.3f,\"gflops\":%.1f}\n",
               sec * 1e3, 2.0 * 1024 * 1024 * 1024 / sec / 1e9);
    }
    fflush(stdout);
    tl_release(matmul_dst);
    tl_release(a);
    tl_release(b);


    /* Elementwise ops and activations on 4096x4096 f32 (16M elements), on
     * contiguous inputs and on transposed ones (x.t(): the result keeps
     * the input's layout in PyTorch; binary ops take x.t() and y.t()).
     * Inputs |x| / 2 + 0.5 for rsqrt, randn for the others.  Timed in
     * ROUNDS rounds, each running every case once and its memcpy (warm and
     * fresh) beside it: a disturbance of the shared machine that lasts a
     * while falls on one run of many cases, not on every run of one. */
    int64_t e = 4096 * 4096;
    tl_tensor *x0 = tl_randn(TL_SHAPE(4096, 4096), TL_F32, TL_CPU);
    tl_tensor *y0 = tl_randn(TL_SHAPE(4096, 4096), TL_F32, TL_CPU);
    tl_tensor *pos = positive_like(x0);
    static const struct { const char *name; bench_fn f; int arity; } ew[] = {
        {"add", f_add, 2},   {"mul", f_mul, 2},         {"mul_scalar", f_mul_scalar, 1},
        {"exp", f_exp, 1},   {"silu", f_silu, 1},       {"gelu", f_gelu, 1},
        {"sigmoid", f_sigmoid, 1}, {"tanh", f_tanh, 1}, {"rsqrt", f_rsqrt, 1},
    };
    enum { N_EW = sizeof ew / sizeof ew[0], N_CASES = 2 * N_EW + 1 };
    static ew_case cases[N_CASES];
    int n_cases = 0;
    tl_tensor *bias = tl_randn(TL_SHAPE(4096), TL_F32, TL_CPU);
    if (wanted("add_broadcast_f32")) /* x0 + bias(4096) */
        cases[n_cases++] = (ew_case){.name = "add_broadcast_f32", .f = f_add, .u = x0, .v = bias,
                                     .moved = e * 4 * 2 + 4096 * 4};
    for (int layout = 0; layout < 2; layout++) {
        for (int k = 0; k < N_EW; k++) {
            ew_case *c = &cases[n_cases];
            snprintf(c->name, sizeof c->name, "%s_%s_f32", ew[k].name,
                     layout ? "transposed" : "contiguous");
            if (!wanted(c->name))
                continue;
            tl_tensor *in = ew[k].f == f_rsqrt ? pos : x0;
            c->f = ew[k].f;
            c->u = layout ? tl_t(in) : in;
            c->v = layout ? tl_t(y0) : y0;
            c->owned = layout; /* its own handles (views), released at the end */
            c->moved = (int64_t)(ew[k].arity + 1) * e * 4;
            n_cases++;
        }
    }
    run_rounds(cases, n_cases);
    for (int k = 0; k < n_cases; k++) {
        if (cases[k].owned) {
            tl_release(cases[k].u);
            tl_release(cases[k].v);
        }
    }
    tl_release(bias);
    tl_release(pos);
    tl_release(y0);
    tl_release(x0);
    return 0;
}
