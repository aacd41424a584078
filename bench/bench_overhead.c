/*
 * bench_overhead.c: the fixed cost of one API call on small tensors.
 *
 *     bench_overhead [N] [CALLS] [ROUNDS]
 *
 * Times CALLS calls of tl_add on two f32 vectors of N elements (288 by
 * default: llama2.c's stories15M width), each result released, against the
 * same arithmetic written as a plain C loop into a preallocated buffer,
 * and tl_add_ (in place: no allocation) and tl_matmul_out of a (N, N)
 * matrix by a vector.  ROUNDS interleaved rounds, each case once per round;
 * prints the median ns per call of each case and the overhead (the call's
 * time less the loop's).  Times are the calling thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), not the wall clock: on a shared machine the
 * wall clock counts the time other processes held the core.  With more
 * than one thread, tl_matmul_out's CPU time is the calling thread's share
 * only.  bench/overhead.sh times PyTorch's ops the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <tensorlint/tensor.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { N_CASES = 4 };
static const char *const names[N_CASES] = {"plain C loop (the arithmetic)", "tl_add (allocating)",
                                           "tl_add_ (in place)", "tl_matmul_out (N x N) @ (N)"};

/* One case's CALLS repetitions; ns per call. */
static double run_case(int c, long calls, int n, tl_tensor *a, tl_tensor *b, tl_tensor *w,
                       tl_tensor *y, float *pa, float *pb, float *po)
{
    double t0 = now_ns();
    for (long k = 0; k < calls; k++) {
        switch (c) {
        case 0:
            for (int i = 0; i < n; i++)
                po[i] = pa[i] + pb[i];
            __asm__ volatile("" ::"r"(po) : "memory"); /* the loop is not elided */
            break;
        case 1: tl_release(tl_add(a, b)); break;
        case 2: tl_add_(y, b); break;
        default: tl_matmul_out(y, w, b); break;
        }
    }
    return (now_ns() - t0) / (double)calls;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 288;
    long calls = argc > 2 ? atol(argv[2]) : 200000;
    int rounds = argc > 3 ? atoi(argv[3]) : 9;
    if (n < 1 || calls < 1 || rounds < 1) {
        fprintf(stderr, "usage: bench_overhead [N >= 1] [CALLS >= 1] [ROUNDS >= 1]\n");
        return 2;
    }
    float *pa = calloc((size_t)n, sizeof *pa), *pb = calloc((size_t)n, sizeof *pb);
    float *po = calloc((size_t)n, sizeof *po);
    double *t = calloc((size_t)(N_CASES * rounds), sizeof *t);
    if (!pa || !pb || !po || !t)
        return 1;
    tl_tensor *a = tl_randn(TL_SHAPE(n), TL_F32, TL_CPU), *b = tl_randn(TL_SHAPE(n), TL_F32, TL_CPU);
    tl_tensor *y = tl_zeros(TL_SHAPE(n), TL_F32, TL_CPU);
    tl_tensor *w = tl_randn(TL_SHAPE(n, n), TL_F32, TL_CPU);
    for (int c = 0; c < N_CASES; c++) /* warm-up */
        run_case(c, calls / 10 + 1, n, a, b, w, y, pa, pb, po);
    for (int r = 0; r < rounds; r++)
        for (int c = 0; c < N_CASES; c++)
            t[c * rounds + r] = run_case(c, c == 3 ? calls / 10 + 1 : calls, n, a, b, w, y, pa, pb, po);
    printf("%d-element f32 vectors, %ld calls, median of %d interleaved rounds\n\n", n, calls, rounds);
    printf("| case | ns per call | over the plain loop |\n|---|---|---|\n");
    double base = 0;
    for (int c = 0; c < N_CASES; c++) {
        qsort(t + c * rounds, (size_t)rounds, sizeof *t, cmp_double);
        double med = t[c * rounds + rounds / 2];
        if (c == 0)
            base = med;
        printf("| %s | %.1f | %s%.1f |\n", names[c], med, c == 0 ? "" : "+", c == 0 ? 0.0 : med - base);
    }
    tl_release(a), tl_release(b), tl_release(y), tl_release(w);
    free(pa), free(pb), free(po), free(t);
    return 0;
}
