/*
 * kernel_parallel.c: a parallel for over [0, n) on a persistent pool of
 * threads.
 *
 * Large kernels split their outermost loop into one contiguous chunk per
 * thread; the calling thread runs the first chunk.  The thread count is
 * OMP_NUM_THREADS when set (the knob OpenBLAS and PyTorch read too), else
 * the online cores, and at most RT_MAX_THREADS.
 *
 * The workers are started once, on the first loop that wants them, and
 * live until the process ends (a thread start per call cost more than a
 * small kernel's work).  A loop is published by bumping a generation
 * counter; a waiting worker spins on it for RT_SPIN rounds (a decoder
 * calls again within microseconds) and then sleeps on a condition
 * variable.  The loop is cut into RT_BLOCKS_PER_THREAD blocks per thread,
 * which the caller and the workers claim one at a time from a ticket
 * (generation and next block in one atomic word, so a late worker never
 * claims a block of a later loop): on a shared machine, where a worker may
 * not be scheduled for milliseconds, the caller runs the blocks nobody
 * claimed and waits only for blocks being run.  A worker that cannot be
 * started changes nothing; a loop started while another runs (a second
 * user thread, or a kernel inside a block) runs on its calling thread
 * alone: the loop always completes.
 */
#include "kernels.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define RT_MAX_THREADS 64
#define RT_SPIN 20000            /* polls of the generation before a worker sleeps */
#define RT_BLOCKS_PER_THREAD 4

typedef struct pool {
    rt_range_fn fn;
    void *ctx;
    int64_t n, n_blocks;
    _Atomic uint64_t gen;    /* bumped once per loop */
    _Atomic uint64_t ticket; /* gen << 32 | the next block to claim */
    _Atomic int64_t done;    /* blocks finished in this loop */
    _Atomic int busy;        /* a loop is running */
    int n_workers;           /* started */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int sleepers;            /* workers waiting on wake (under lock) */
} pool;

static pool the_pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

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

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Claims and runs blocks of loop gen until none is left. */
static void run_blocks(pool *p, uint64_t gen)
{
    uint64_t t = atomic_load_explicit(&p->ticket, memory_order_acquire);
    for (;;) {
        uint64_t b = t & 0xffffffffu;
        if (t >> 32 != (gen & 0xffffffffu) || b == 0xffffffffu || (int64_t)b >= p->n_blocks)
            return;
        if (!atomic_compare_exchange_weak_explicit(&p->ticket, &t, t + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        int64_t begin = p->n * (int64_t)b / p->n_blocks, end = p->n * ((int64_t)b + 1) / p->n_blocks;
        if (end > begin)
            p->fn(p->ctx, begin, end);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_acq_rel);
        t = atomic_load_explicit(&p->ticket, memory_order_acquire);
    }
}

/* The next generation after seen: spinning first, then asleep. */
static uint64_t wait_loop(pool *p, uint64_t seen)
{
    for (int i = 0; i < RT_SPIN; i++) {
        uint64_t g = atomic_load_explicit(&p->gen, memory_order_acquire);
        if (g != seen)
            return g;
        cpu_relax();
    }
    pthread_mutex_lock(&p->lock);
    p->sleepers++;
    uint64_t g;
    while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen)
        pthread_cond_wait(&p->wake, &p->lock);
    p->sleepers--;
    pthread_mutex_unlock(&p->lock);
    return g;
}

/* A worker joins every loop. */
static void *worker(void *arg)
{
    pool *p = &the_pool;
    uint64_t seen = 0;
    (void)arg;
    for (;;) {
        seen = wait_loop(p, seen);
        run_blocks(p, seen);
    }
    return NULL;
}

static void start_workers(void)
{
    pool *p = &the_pool;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int k = 1; k < rt_num_threads(); k++) {
        pthread_t tid;
        if (pthread_create(&tid, &attr, worker, (void *)(intptr_t)k) != 0)
            break;
        p->n_workers = k;
    }
    pthread_attr_destroy(&attr);
}

static void run_serial(rt_range_fn fn, void *ctx, int64_t n)
{
    if (n > 0)
        fn(ctx, 0, n);
}

void rt_parallel_for(int64_t n, int64_t grain, rt_range_fn fn, void *ctx)
{
    pool *p = &the_pool;
    int64_t want = grain > 0 ? n / grain : n;
    int nt = rt_num_threads() < want ? rt_num_threads() : (int)(want > 1 ? want : 1);
    int expected = 0;
    if (nt < 2 || !atomic_compare_exchange_strong(&p->busy, &expected, 1)) {
        run_serial(fn, ctx, n);
        return;
    }
    pthread_once(&pool_once, start_workers);
    int64_t blocks = (int64_t)nt * RT_BLOCKS_PER_THREAD;
    uint64_t gen = atomic_load_explicit(&p->gen, memory_order_relaxed) + 1;
    /* the new generation with no block to claim while the fields change: a
     * worker late for the last loop fails its claim */
    atomic_store_explicit(&p->ticket, (gen & 0xffffffffu) << 32 | 0xffffffffu, memory_order_seq_cst);
    p->fn = fn, p->ctx = ctx, p->n = n;
    p->n_blocks = blocks < want ? blocks : (want > nt ? want : nt);
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    pthread_mutex_lock(&p->lock);
    atomic_store_explicit(&p->ticket, (gen & 0xffffffffu) << 32, memory_order_release);
    atomic_store_explicit(&p->gen, gen, memory_order_release);
    if (p->sleepers > 0)
        pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    run_blocks(p, gen);
    for (int i = 0; atomic_load_explicit(&p->done, memory_order_acquire) < p->n_blocks; i++) {
        if (i < RT_SPIN)
            cpu_relax();
        else
            sched_yield();
    }
    atomic_store_explicit(&p->busy, 0, memory_order_release);
}
