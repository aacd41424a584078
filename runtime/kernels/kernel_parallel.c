/*
 * kernel_parallel.c: a parallel for over [0, n) with plain pthreads.
 *
 * Large kernels split their outermost loop into one contiguous chunk per
 * thread; the calling thread runs the first chunk.  The thread count is
 * OMP_NUM_THREADS when set (the knob OpenBLAS and PyTorch read too), else
 * the online cores, and at most RT_MAX_THREADS.  A thread that cannot be
 * started leaves its chunk to the caller, so the loop always completes.
 */
#include "kernels.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define RT_MAX_THREADS 64

typedef struct chunk {
    rt_range_fn fn;
    void *ctx;
    int64_t begin, end;
} chunk;

static void *run_chunk(void *arg)
{
    const chunk *c = arg;
    c->fn(c->ctx, c->begin, c->end);
    return NULL;
}

int rt_num_threads(void)
{
    static int n;
    if (n == 0) {
        const char *env = getenv("OMP_NUM_THREADS");
        long v = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
        n = v < 1 ? 1 : v > RT_MAX_THREADS ? RT_MAX_THREADS : (int)v;
    }
    return n;
}

void rt_parallel_for(int64_t n, int64_t grain, rt_range_fn fn, void *ctx)
{
    int64_t want = grain > 0 ? n / grain : n;
    int nt = rt_num_threads() < want ? rt_num_threads() : (int)(want > 1 ? want : 1);
    chunk c[RT_MAX_THREADS];
    pthread_t tid[RT_MAX_THREADS];
    bool started[RT_MAX_THREADS] = {false};
    for (int k = 0; k < nt; k++)
        c[k] = (chunk){fn, ctx, n * k / nt, n * (k + 1) / nt};
    for (int k = 1; k < nt; k++)
        started[k] = pthread_create(&tid[k], NULL, run_chunk, &c[k]) == 0;
    run_chunk(&c[0]);
    for (int k = 1; k < nt; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            run_chunk(&c[k]);
    }
}
