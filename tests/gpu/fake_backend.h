/*
 * fake_backend.h: a CUDA backend without CUDA, for tests on any machine.
 *
 * Its "device memory" is host memory that it tracks, so every copy's
 * direction and every kernel operand can be checked to lie on the right
 * side; its kernels are the CPU kernels behind wrappers that check exactly
 * that; its segment allocator can be given a capacity, told to fail, and
 * logs segment-sized calls ("a<MiB> f<MiB> x<MiB>" for alloc, free, refusal).
 * tests/unit/test_cuda_host.c uses it, and the GPU tests are built a second
 * time against it (TL_GPU_FAKE) so that their own logic is checked on the
 * host.  A broken expectation aborts with file and line.
 */
#ifndef TL_FAKE_BACKEND_H
#define TL_FAKE_BACKEND_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_rt.h"

#define FAKE_MiB (INT64_C(1) << 20)
#define FAKE_ASSERT(cond) \
    ((cond) ? (void)0 : (fprintf(stderr, "%s:%d: fake backend: %s\n", __FILE__, __LINE__, #cond), abort()))

typedef struct fake_mem {
    char *p;
    int64_t n; /* bytes */
} fake_mem;

static struct {
    int n_devices;
    int64_t capacity;     /* bytes of memory the fake device holds; 0: unlimited */
    bool fail_device;     /* mem_alloc answers TL_ERR_DEVICE */
    bool fail_kernel;     /* the next kernel records a failure */
    fake_mem mem[4096];
    int n_mem;
    int64_t used;         /* bytes */
    int64_t n_alloc_calls, n_free_calls, n_kernel_calls, n_copies;
    char log[4096];       /* "a<bytes> f<bytes> " of segment-sized calls */
} fake;

static int fake_find(const void *p)
{
    for (int k = 0; k < fake.n_mem; k++)
        if ((const char *)p >= fake.mem[k].p && (const char *)p <= fake.mem[k].p + fake.mem[k].n)
            return k;
    return -1;
}

static bool on_fake(const void *p) { return fake_find(p) >= 0; }

static int fake_count(const char **why)
{
    *why = "the fake backend has no device";
    return fake.n_devices;
}

static void fake_log(char kind, int64_t n)
{
    size_t len = strlen(fake.log);
    snprintf(fake.log + len, sizeof fake.log - len, "%c%lld ", kind, (long long)(n / FAKE_MiB));
}

static tl_status fake_alloc(int64_t nbytes, void **ptr, const char **detail)
{
    fake.n_alloc_calls++;
    if (fake.fail_device) {
        *detail = "fake device lost";
        return TL_ERR_DEVICE;
    }
    if ((fake.capacity && fake.used + nbytes > fake.capacity) || fake.n_mem == 4096) {
        *detail = "out of memory";
        fake_log('x', nbytes);
        return TL_ERR_OUT_OF_MEMORY;
    }
    /* aligned like cudaMalloc's segments; zeroed like a fresh page */
    size_t size = ((size_t)nbytes + 4095) & ~(size_t)4095;
    fake.mem[fake.n_mem] = (fake_mem){aligned_alloc(4096, size), nbytes};
    FAKE_ASSERT(fake.mem[fake.n_mem].p != NULL);
    memset(fake.mem[fake.n_mem].p, 0, (size_t)nbytes);
    *ptr = fake.mem[fake.n_mem++].p;
    fake.used += nbytes;
    fake_log('a', nbytes);
    return TL_OK;
}

static void fake_free(void *p)
{
    int k = fake_find(p);
    FAKE_ASSERT(k >= 0 && fake.mem[k].p == p);
    fake.n_free_calls++;
    fake.used -= fake.mem[k].n;
    fake_log('f', fake.mem[k].n);
    free(p);
    fake.mem[k] = fake.mem[--fake.n_mem];
}

static bool fake_copy(void *dst, const void *src, int64_t nbytes, cu_copy_kind kind)
{
    fake.n_copies++;
    FAKE_ASSERT(on_fake(dst) == (kind != CU_DEVICE_TO_HOST));
    FAKE_ASSERT(on_fake(src) == (kind != CU_HOST_TO_DEVICE));
    memcpy(dst, src, (size_t)nbytes);
    return true;
}

static bool fake_sync(void) { return true; }
static void fake_shutdown(void) {}

/* A kernel operand must be fake-device memory (or empty). */
static void on_device(const rt_buf *b)
{
    if (b->base)
        FAKE_ASSERT(on_fake(b->base));
    else
        FAKE_ASSERT(mt_numel(b->l) == 0);
}

static bool kernel_enter(void)
{
    fake.n_kernel_calls++;
    if (!fake.fail_kernel)
        return true;
    fake.fail_kernel = false;
    cu_fail(TL_ERR_DEVICE, "fake kernel launch", "an illegal memory access was encountered");
    return false;
}

#define FAKE_RUN(name, ...) if (kernel_enter()) name(__VA_ARGS__)
static void f_copy(const rt_buf *d, const rt_buf *s) { on_device(d), on_device(s); FAKE_RUN(rt_copy, d, s); }
static void f_fill(const rt_buf *d, double v) { on_device(d); FAKE_RUN(rt_fill, d, v); }
static void f_arange(const rt_buf *d) { on_device(d); FAKE_RUN(rt_arange, d); }
static void f_randn(const rt_buf *d, rt_rng *r) { on_device(d); FAKE_RUN(rt_randn, d, r); }
static void f_randint(const rt_buf *d, int64_t lo, int64_t hi, rt_rng *r)
{
    on_device(d);
    FAKE_RUN(rt_randint, d, lo, hi, r);
}
static void f_binary(rt_binop op, const rt_buf *o, const rt_buf *a, const rt_buf *b)
{
    on_device(o), on_device(a), on_device(b);
    FAKE_RUN(rt_binary, op, o, a, b);
}
static void f_binary_scalar(rt_binop op, const rt_buf *o, const rt_buf *a, double s)
{
    on_device(o), on_device(a);
    FAKE_RUN(rt_binary_scalar, op, o, a, s);
}
static void f_unary(rt_unop op, const rt_buf *o, const rt_buf *a)
{
    on_device(o), on_device(a);
    FAKE_RUN(rt_unary, op, o, a);
}
static void f_reduce(rt_redop op, const rt_buf *o, const rt_buf *a, int dim, bool keep)
{
    on_device(o), on_device(a);
    FAKE_RUN(rt_reduce, op, o, a, dim, keep);
}
static void f_softmax(const rt_buf *o, const rt_buf *a, int dim)
{
    on_device(o), on_device(a);
    FAKE_RUN(rt_softmax, o, a, dim);
}
static void f_matmul(const rt_buf *o, const rt_buf *a, const rt_buf *b)
{
    on_device(o), on_device(a), on_device(b);
    FAKE_RUN(rt_matmul, o, a, b);
}
static void f_conv2d(const rt_buf *o, const rt_buf *x, const rt_buf *w, int64_t s, int64_t p)
{
    on_device(o), on_device(x), on_device(w);
    FAKE_RUN(rt_conv2d, o, x, w, s, p);
}
static void f_index_select(const rt_buf *o, const rt_buf *t, int dim, const rt_buf *i)
{
    on_device(o), on_device(t), on_device(i);
    FAKE_RUN(rt_index_select, o, t, dim, i);
}
static void f_gather(const rt_buf *o, const rt_buf *t, int dim, const rt_buf *i)
{
    on_device(o), on_device(t), on_device(i);
    FAKE_RUN(rt_gather, o, t, dim, i);
}
static void f_index(const rt_buf *o, const rt_buf *t, const rt_buf *i)
{
    on_device(o), on_device(t), on_device(i);
    FAKE_RUN(rt_index, o, t, i);
}
static void f_cat(const rt_buf *o, int n, const rt_buf *parts, int dim)
{
    on_device(o);
    for (int k = 0; k < n; k++)
        on_device(&parts[k]);
    FAKE_RUN(rt_cat, o, n, parts, dim);
}
static void f_binary_inplace(rt_binop op, const rt_buf *t, const rt_buf *o)
{
    on_device(t), on_device(o);
    FAKE_RUN(rt_binary_inplace, op, t, o);
}
static void f_mul_scalar_inplace(const rt_buf *t, double s)
{
    on_device(t);
    FAKE_RUN(rt_mul_scalar_inplace, t, s);
}
#undef FAKE_RUN

static const cu_kernels fake_kernels = {
    f_copy, f_fill, f_arange, f_randn, f_randint, f_binary, f_binary_scalar, f_unary, f_reduce,
    f_softmax, f_matmul, f_conv2d, f_index_select, f_gather, f_index, f_cat, f_binary_inplace,
    f_mul_scalar_inplace,
};

static const cu_backend fake_backend = {
    "fake", fake_count, fake_alloc, fake_free, fake_copy, fake_sync, fake_shutdown, &fake_kernels,
};

/* A fresh fake with n devices, installed (no device memory may be live). */
static void fake_install(int n_devices)
{
    cu_backend_use(NULL);
    cu_shutdown();
    FAKE_ASSERT(fake.n_mem == 0); /* the last fake's memory was all given back */
    memset(&fake, 0, sizeof fake);
    fake.n_devices = n_devices;
    cu_backend_use(&fake_backend);
}

#endif /* TL_FAKE_BACKEND_H */
