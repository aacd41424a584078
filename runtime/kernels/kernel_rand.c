/*
 * kernel_rand.c: rt_randn and rt_randint.
 *
 * The generator is splitmix64 over rng->state (the caller owns the state; the
 * runtime seeds it in tl_manual_seed): each draw adds the golden-ratio
 * increment and mixes, so one seed gives one sequence on every platform.
 * Values are produced in row-major order of dst, in chunks of RAND_CHUNK,
 * into a stack buffer (f64 for randn, i64 for randint) that rt_copy casts
 * into dst.  These are not PyTorch's values (PyTorch uses mt19937 + its own
 * transforms); only the distributions match.
 *
 * randn: Box-Muller on pairs of uniforms u1 in (0, 1], u2 in [0, 1), both
 * with 53 random bits; both outputs of a pair are used.
 * randint: uniform in [low, high) by rejection (no modulo bias).
 */
#include <assert.h>
#include <math.h>

#include "kernels.h"

enum { RAND_CHUNK = 512 }; /* elements */

static uint64_t splitmix64(rt_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* [0, 1) with 53 random bits. */
static double uniform01(rt_rng *rng)
{
    return (double)(splitmix64(rng) >> 11) * 0x1.0p-53;
}

/* n standard normal values (n even or odd: the last pair's second value is dropped). */
static void normals(rt_rng *rng, double *out, int64_t n)
{
    for (int64_t i = 0; i < n; i += 2) {
        double u1 = 1.0 - uniform01(rng), u2 = uniform01(rng);
        double r = sqrt(-2.0 * log(u1)), theta = 2.0 * 3.14159265358979323846 * u2;
        out[i] = r * cos(theta);
        if (i + 1 < n)
            out[i + 1] = r * sin(theta);
    }
}

/* Uniform in [0, range) by rejection; range > 0. */
static uint64_t below(rt_rng *rng, uint64_t range)
{
    uint64_t threshold = (0 - range) % range; /* 2^64 mod range */
    for (;;) {
        uint64_t r = splitmix64(rng);
        if (r >= threshold)
            return r % range;
    }
}

typedef struct rand_job {
    rt_rng *rng;
    bool normal;        /* randn; else randint */
    int64_t low, high;  /* randint's range */
} rand_job;

/* n values into buf (f64 for randn, i64 for randint). */
static void draw(const rand_job *job, void *buf, int64_t n)
{
    if (job->normal) {
        normals(job->rng, buf, n);
        return;
    }
    int64_t *out = buf;
    uint64_t range = (uint64_t)job->high - (uint64_t)job->low;
    for (int64_t i = 0; i < n; i++)
        out[i] = (int64_t)((uint64_t)job->low + below(job->rng, range));
}

/* Fill dst in row-major order: each row of the last dim in segments. */
static void fill_rowmajor(const rt_buf *dst, const rand_job *job)
{
    const mt_layout *l = dst->l;
    int64_t numel = mt_numel(l), ibuf[RAND_CHUNK];
    double fbuf[RAND_CHUNK];
    void *buf = job->normal ? (void *)fbuf : (void *)ibuf;
    int64_t row = l->ndim > 0 ? l->shape[l->ndim - 1] : 1;
    int64_t stride = l->ndim > 0 ? l->strides[l->ndim - 1] : 1;
    mt_layout src = {.ndim = 1, .strides = {1}, .dtype = job->normal ? TL_F64 : TL_I64};
    mt_layout seg = {.ndim = 1, .strides = {stride}, .dtype = l->dtype};
    rt_buf s = {&src, buf}, d = {&seg, dst->base};
    for (int64_t first = 0; first < numel; first += row) {
        int64_t offset = l->offset, rest = first / row;
        for (int i = l->ndim - 2; i >= 0; i--)
            offset += (rest % l->shape[i]) * l->strides[i], rest /= l->shape[i];
        for (int64_t j = 0; j < row; j += RAND_CHUNK) {
            int64_t n = row - j < RAND_CHUNK ? row - j : RAND_CHUNK;
            draw(job, buf, n);
            src.shape[0] = seg.shape[0] = n, seg.offset = offset + j * stride;
            rt_copy(&d, &s);
        }
    }
}

void rt_randn(const rt_buf *dst, rt_rng *rng)
{
    assert(mt_is_floating(dst->l->dtype) && "randn of a non-floating dtype");
    rand_job job = {rng, true, 0, 0};
    fill_rowmajor(dst, &job);
}

void rt_randint(const rt_buf *dst, int64_t low, int64_t high, rt_rng *rng)
{
    assert(high > low && "randint with an empty range (the meta function refuses it)");
    rand_job job = {rng, false, low, high};
    fill_rowmajor(dst, &job);
}
