/*
 * kernel_compute.c: elementwise ops (binary, scalar, unary, in place),
 * reductions (sum, mean) and softmax.
 *
 * Elementwise ops run in chunks of at most CHUNK elements.  The operands are
 * broadcast to the output's shape (stride 0), size-1 dims dropped, dims
 * sorted by the output's strides and merged where every operand allows; a
 * chunk is then a strided box of that iteration space.  Each input chunk is
 * converted by rt_copy into a stack buffer of the compute type (f32 for
 * f16/bf16 -- rounded through the common dtype first when it differs --,
 * else the common dtype itself), a typed loop computes, and rt_copy stores
 * the result into the output with a single rounding.  An operand that already
 * is a dense array of the compute type is used in place: all-contiguous
 * same-dtype operands never go through a buffer.  Integer add/sub/mul wrap
 * (computed in unsigned); integer division never reaches a kernel.  An
 * iteration space of 2^20 elements or more splits its outermost dim over the
 * threads (kernel_parallel.c), each running the chunks of its part (and
 * first-touching its part of a new output).
 *
 * Scalars are converted to the output's dtype before the operation (an f16
 * tensor times 1.0007 multiplies by half(1.0007)): PyTorch 1.13's CPU rule,
 * checked against it; later releases keep the scalar in f32 for mul.
 *
 * f32 exp (elementwise and inside softmax) is simd_math.h's, vectorized
 * (AVX-512 or AVX2 where the CPU has it), within 1 ulp of the correctly rounded result
 * like PyTorch's Sleef expf; f64 uses libm.
 *
 * Reductions and softmax move the reduced dim last and walk chunks of whole
 * rows (ROW_CAP elements, so rt_copy gathers a strided dim with its tiled
 * transposes); longer rows go in segments.  Sums accumulate in double
 * (floating outputs, four chains) or wrapping int64; f32 results then agree
 * with PyTorch's float cascade sum to a relative 1e-5, f16/bf16 to 1e-2
 * (PyTorch also accumulates those in float).  mean is PyTorch 1.13's
 * sum(out dtype) / n with n converted to the out dtype.  Softmax computes in
 * f32 (f64 for f64) with double row sums.
 *
 * Memory: elementwise buffers live on the stack (4 x CHUNK x 8 bytes per
 * thread);
 * reductions and softmax allocate one buffer of at most 2 x ROW_CAP x 8
 * bytes, freed before returning (an allocation failure aborts: kernels have
 * no status channel).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

enum { CHUNK = 1024, N_DTYPES = TL_F64 + 1 };

/* The dtype arithmetic runs in: f16 and bf16 compute in f32. */
static tl_dtype opmath(tl_dtype d)
{
    return d == TL_F16 || d == TL_BF16 ? TL_F32 : d;
}

/* ---- scalar operations per compute type ---- */

#define INT_OPS(T, U)                                                                       \
    static inline T add_##T(T x, T y) { return (T)((U)x + (U)y); }                          \
    static inline T sub_##T(T x, T y) { return (T)((U)x - (U)y); }                          \
    static inline T mul_##T(T x, T y) { return (T)((U)x * (U)y); }                          \
    static inline T neg_##T(T x) { return (T)((U)0 - (U)x); }
INT_OPS(uint8_t, uint32_t)
INT_OPS(int8_t, uint32_t)
INT_OPS(int16_t, uint32_t)
INT_OPS(int32_t, uint32_t)
INT_OPS(int64_t, uint64_t)
#undef INT_OPS
static inline int8_t relu_int8_t(int8_t x) { return x < 0 ? 0 : x; }
static inline int16_t relu_int16_t(int16_t x) { return x < 0 ? 0 : x; }
static inline int32_t relu_int32_t(int32_t x) { return x < 0 ? 0 : x; }
static inline int64_t relu_int64_t(int64_t x) { return x < 0 ? 0 : x; }

#define FLOAT_OPS(T)                                                                        \
    static inline T add_##T(T x, T y) { return x + y; }                                     \
    static inline T sub_##T(T x, T y) { return x - y; }                                     \
    static inline T mul_##T(T x, T y) { return x * y; }                                     \
    static inline T div_##T(T x, T y) { return x / y; }                                     \
    static inline T neg_##T(T x) { return -x; }                                             \
    static inline T relu_##T(T x) { return x < 0 ? 0 : x; } /* keeps NaN and -0.0 */
FLOAT_OPS(float)
FLOAT_OPS(double)
#undef FLOAT_OPS
static inline double exp_double(double x) { return exp(x); }

/* exp of f32: simd_math.h's, vectorized (rt_f32_map). */
static void exp_f32(float *o, const float *a, int64_t n)
{
    rt_f32_map(RT_F32_EXP, o, a, n);
}

static float exp_one(float x)
{
    exp_f32(&x, &x, 1);
    return x;
}

static void un_exp_f32(void *o, const void *a, int64_t n)
{
    exp_f32(o, a, n);
}

/* bool values are 0 or 1 after conversion: + is or, * is and. */
static inline uint8_t or_bool(uint8_t x, uint8_t y) { return x | y; }
static inline uint8_t and_bool(uint8_t x, uint8_t y) { return x & y; }
static inline uint8_t same_bool(uint8_t x) { return x; }

/* ---- typed loops over dense arrays (blocks of 8 so GCC -O2 vectorizes) ---- */

typedef void (*bin_fn)(void *o, const void *a, const void *b, int64_t n);
typedef void (*un_fn)(void *o, const void *a, int64_t n);

#define BIN_LOOP(NAME, T, OP)                                                               \
    static void NAME(void *o_, const void *a_, const void *b_, int64_t n) {                 \
        T *o = o_;                                                                          \
        const T *a = a_, *b = b_;                                                           \
        int64_t i = 0;                                                                      \
        for (; i + 8 <= n; i += 8) {                                                        \
            T x[8], y[8];                                                                   \
            for (int j = 0; j < 8; j++)                                                     \
                x[j] = a[i + j], y[j] = b[i + j];                                           \
            for (int j = 0; j < 8; j++)                                                     \
                o[i + j] = OP(x[j], y[j]);                                                  \
        }                                                                                   \
        for (; i < n; i++)                                                                  \
            o[i] = OP(a[i], b[i]);                                                          \
    }

#define UN_LOOP(NAME, T, OP)                                                                \
    static void NAME(void *o_, const void *a_, int64_t n) {                                 \
        T *o = o_;                                                                          \
        const T *a = a_;                                                                    \
        int64_t i = 0;                                                                      \
        for (; i + 8 <= n; i += 8) {                                                        \
            T x[8];                                                                         \
            for (int j = 0; j < 8; j++)                                                     \
                x[j] = a[i + j];                                                            \
            for (int j = 0; j < 8; j++)                                                     \
                o[i + j] = OP(x[j]);                                                        \
        }                                                                                   \
        for (; i < n; i++)                                                                  \
            o[i] = OP(a[i]);                                                                \
    }

#define UNSIGNED_LOOPS(T)                                                                   \
    BIN_LOOP(bin_add_##T, T, add_##T) BIN_LOOP(bin_sub_##T, T, sub_##T)                     \
    BIN_LOOP(bin_mul_##T, T, mul_##T) UN_LOOP(un_neg_##T, T, neg_##T)
#define INT_LOOPS(T) UNSIGNED_LOOPS(T) UN_LOOP(un_relu_##T, T, relu_##T)
#define FLOAT_LOOPS(T) INT_LOOPS(T) BIN_LOOP(bin_div_##T, T, div_##T)
UNSIGNED_LOOPS(uint8_t)
INT_LOOPS(int8_t)
INT_LOOPS(int16_t)
INT_LOOPS(int32_t)
INT_LOOPS(int64_t)
FLOAT_LOOPS(float)
FLOAT_LOOPS(double)
UN_LOOP(un_exp_double, double, exp_double)
BIN_LOOP(bin_or_bool, uint8_t, or_bool)
BIN_LOOP(bin_and_bool, uint8_t, and_bool)
UN_LOOP(un_same_bool, uint8_t, same_bool)
#undef UNSIGNED_LOOPS
#undef INT_LOOPS
#undef FLOAT_LOOPS
#undef BIN_LOOP
#undef UN_LOOP

#define INT_ROW(T) {bin_add_##T, bin_sub_##T, bin_mul_##T, NULL}
#define FLOAT_ROW(T) {bin_add_##T, bin_sub_##T, bin_mul_##T, bin_div_##T}
/* bin_table[compute dtype][op]; NULL where PyTorch refuses (bool -, integer /). */
static const bin_fn bin_table[N_DTYPES][4] = {
    [TL_BOOL] = {bin_or_bool, NULL, bin_and_bool, NULL},
    [TL_U8] = INT_ROW(uint8_t),
    [TL_I8] = INT_ROW(int8_t),
    [TL_I16] = INT_ROW(int16_t),
    [TL_I32] = INT_ROW(int32_t),
    [TL_I64] = INT_ROW(int64_t),
    [TL_F32] = FLOAT_ROW(float),
    [TL_F64] = FLOAT_ROW(double),
};
#undef INT_ROW
#undef FLOAT_ROW

#define INT_ROW(T) {un_neg_##T, NULL, un_relu_##T}
/* un_table[compute dtype][op]: NEG, EXP, RELU. */
static const un_fn un_table[N_DTYPES][3] = {
    [TL_BOOL] = {NULL, NULL, un_same_bool},
    [TL_U8] = {un_neg_uint8_t, NULL, un_same_bool},
    [TL_I8] = INT_ROW(int8_t),
    [TL_I16] = INT_ROW(int16_t),
    [TL_I32] = INT_ROW(int32_t),
    [TL_I64] = INT_ROW(int64_t),
    [TL_F32] = {un_neg_float, un_exp_f32, un_relu_float},
    [TL_F64] = {un_neg_double, un_exp_double, un_relu_double},
};
#undef INT_ROW

/* ---- iteration space: operands broadcast, sorted and merged ---- */

/* The iteration space (mt_plan) and, per operand, its dtype and base. */
typedef struct ew_plan {
    mt_plan it; /* operand 0 is the output */
    tl_dtype dtype[MT_PLAN_MAX_OPS];
    char *base[MT_PLAN_MAX_OPS];
} ew_plan;

/* False when the output has no elements.  A 0-dim output becomes one dim of size 1. */
static bool plan_init(ew_plan *p, int n_ops, const rt_buf *const *ops)
{
    const mt_layout *ls[MT_PLAN_MAX_OPS];
    for (int o = 0; o < n_ops; o++) {
        assert(ops[o]->l->ndim <= ops[0]->l->ndim);
        ls[o] = ops[o]->l;
        p->dtype[o] = ops[o]->l->dtype;
        p->base[o] = ops[o]->base;
    }
    return mt_plan_init(&p->it, n_ops, ls);
}

/* ---- chunks: dims split.. of the iteration space, dim split cut into blocks ---- */

typedef struct chunker {
    int nd;
    int64_t shape[TL_MAX_DIMS];
    int split;                /* the dim cut into blocks */
    int64_t block;            /* most elements of dim split per chunk */
    int64_t inner;            /* elements per index of dim split */
    int64_t idx[TL_MAX_DIMS]; /* first element of the chunk, dims 0..split */
    int64_t len;              /* elements of dim split in this chunk */
    bool started;
} chunker;

/* nd >= 1, no dim of size 0; chunks hold at most max(cap, 1) elements. */
static void chunker_init(chunker *c, int nd, const int64_t *shape, int64_t cap)
{
    c->nd = nd, c->split = nd - 1, c->inner = 1, c->started = false;
    memcpy(c->shape, shape, sizeof(int64_t) * (size_t)nd);
    while (c->split > 0 && c->inner * shape[c->split] <= cap)
        c->inner *= shape[c->split--];
    c->block = cap / c->inner > 0 ? cap / c->inner : 1;
    if (c->block > shape[c->split])
        c->block = shape[c->split];
}

static void chunker_set_len(chunker *c)
{
    int64_t left = c->shape[c->split] - c->idx[c->split];
    c->len = left < c->block ? left : c->block;
}

static bool chunker_next(chunker *c)
{
    if (!c->started) {
        c->started = true;
        memset(c->idx, 0, sizeof c->idx);
        chunker_set_len(c);
        return true;
    }
    c->idx[c->split] += c->len;
    for (int d = c->split; c->idx[d] >= c->shape[d]; d--) {
        if (d == 0)
            return false;
        c->idx[d] = 0;
        c->idx[d - 1]++;
    }
    chunker_set_len(c);
    return true;
}

static int64_t chunk_numel(const chunker *c)
{
    return c->len * c->inner;
}

/* The chunk of an operand with this shape/strides (dims after split from shape). */
static mt_layout chunk_layout(const chunker *c, const int64_t *shape, const int64_t *st,
                              int64_t offset, tl_dtype dt)
{
    mt_layout l = {.ndim = c->nd - c->split, .dtype = dt, .device = TL_CPU};
    l.offset = offset;
    for (int d = 0; d <= c->split; d++)
        l.offset += c->idx[d] * st[d];
    for (int d = c->split; d < c->nd; d++)
        l.shape[d - c->split] = d == c->split ? c->len : shape[d], l.strides[d - c->split] = st[d];
    return l;
}

/* The same box, dense row-major, in dtype dt (a stack buffer's layout). */
static mt_layout dense_like(const mt_layout *box, tl_dtype dt)
{
    mt_layout l = {.ndim = box->ndim, .dtype = dt, .device = TL_CPU};
    int64_t stride = 1;
    for (int d = box->ndim - 1; d >= 0; d--)
        l.shape[d] = box->shape[d], l.strides[d] = stride, stride *= box->shape[d];
    return l;
}

static bool is_dense(const mt_layout *l)
{
    int64_t stride = 1;
    for (int d = l->ndim - 1; d >= 0; d--) {
        if (l->shape[d] != 1 && l->strides[d] != stride)
            return false;
        stride *= l->shape[d];
    }
    return true;
}

/* ---- moving a chunk in and out ---- */

typedef union cell { double f64; int64_t i64; } cell; /* aligned for every dtype */

typedef struct ew_bufs {
    cell in[2][CHUNK]; /* converted inputs */
    cell mid[CHUNK];   /* an input rounded through the common dtype */
    cell out[CHUNK];   /* results before the store */
} ew_bufs;

static void copy_box(const mt_layout *dl, void *dbase, const mt_layout *sl, const void *sbase)
{
    rt_buf d = {dl, dbase}, s = {sl, (void *)sbase};
    rt_copy(&d, &s);
}

/* Input k of the chunk as a dense ct array: in place when it already is one,
 * else converted into buf (through the common dtype cd when that rounds). */
static const void *load_input(const ew_plan *p, const chunker *c, int k, tl_dtype cd,
                              tl_dtype ct, void *buf, void *mid)
{
    mt_layout l = chunk_layout(c, c->shape, p->it.st[k], p->it.offset[k], p->dtype[k]);
    if (l.dtype == ct && is_dense(&l))
        return p->base[k] + l.offset * mt_dtype_size(ct);
    mt_layout bl = dense_like(&l, ct);
    if (l.dtype != cd && cd != ct) {
        mt_layout ml = dense_like(&l, cd);
        copy_box(&ml, mid, &l, p->base[k]);
        copy_box(&bl, buf, &ml, mid);
    } else {
        copy_box(&bl, buf, &l, p->base[k]);
    }
    return buf;
}

/* Where the results of the chunk go: the output itself when it is a dense ct array. */
static void *out_target(const ew_plan *p, const chunker *c, tl_dtype ct, void *buf)
{
    mt_layout l = chunk_layout(c, c->shape, p->it.st[0], p->it.offset[0], p->dtype[0]);
    return l.dtype == ct && is_dense(&l) ? p->base[0] + l.offset * mt_dtype_size(ct) : buf;
}

/* Results computed into buf go to the output; results computed in place stay. */
static void store_output(const ew_plan *p, const chunker *c, tl_dtype ct, const void *res,
                         const void *buf)
{
    if (res != buf)
        return;
    mt_layout l = chunk_layout(c, c->shape, p->it.st[0], p->it.offset[0], p->dtype[0]);
    mt_layout rl = dense_like(&l, ct);
    copy_box(&l, p->base[0], &rl, res);
}

/* ---- elementwise ops ---- */

/* Input k is one value for the whole iteration (a scalar, an expanded 0-dim tensor). */
static bool is_constant(const ew_plan *p, int k)
{
    for (int d = 0; d < p->it.nd; d++)
        if (p->it.st[k][d] != 0)
            return false;
    return true;
}

/* ---- large iteration spaces: dim 0 split over the threads ---- */

enum { PARALLEL_MIN_ELEMENTS = 1 << 20 }; /* below this an elementwise op runs on one thread */

/* One elementwise op over a plan: f2 (binary) or f1 (unary). */
typedef struct ew_job {
    ew_plan p;
    bin_fn f2;
    un_fn f1;
    tl_dtype cd, ct;
} ew_job;

/* The job's chunks, in order; each thread has its own buffers. */
static void ew_loop(const ew_job *j, const ew_plan *p)
{
    ew_bufs bufs;
    chunker c;
    chunker_init(&c, p->it.nd, p->it.shape, CHUNK);
    if (j->f1) {
        while (chunker_next(&c)) {
            const void *x = load_input(p, &c, 1, j->cd, j->ct, bufs.in[0], bufs.mid);
            void *o = out_target(p, &c, j->ct, bufs.out);
            j->f1(o, x, chunk_numel(&c));
            store_output(p, &c, j->ct, o, bufs.out);
        }
        return;
    }
    const void *x = NULL, *y = NULL; /* a constant input is loaded by the first (largest) chunk */
    bool cx = is_constant(p, 1), cy = is_constant(p, 2);
    while (chunker_next(&c)) {
        x = x && cx ? x : load_input(p, &c, 1, j->cd, j->ct, bufs.in[0], bufs.mid);
        y = y && cy ? y : load_input(p, &c, 2, j->cd, j->ct, bufs.in[1], bufs.mid);
        void *o = out_target(p, &c, j->ct, bufs.out);
        j->f2(o, x, y, chunk_numel(&c));
        store_output(p, &c, j->ct, o, bufs.out);
    }
}

/* Indices [begin, end) of the plan's dim 0: a plan of its own. */
static void ew_range(void *ctx, int64_t begin, int64_t end)
{
    const ew_job *j = ctx;
    ew_plan sub = j->p;
    sub.it.shape[0] = end - begin;
    for (int k = 0; k < sub.it.n_ops; k++)
        sub.it.offset[k] += begin * sub.it.st[k][0];
    if (end > begin)
        ew_loop(j, &sub);
}

/* Small ops on the calling thread; large ones split dim 0 (whole rows when
 * there are several dims, blocks of elements when one). */
static void ew_run(ew_job *j)
{
    int64_t n = 1;
    for (int d = 0; d < j->p.it.nd; d++)
        n *= j->p.it.shape[d];
    if (n < PARALLEL_MIN_ELEMENTS || rt_num_threads() < 2) {
        ew_loop(j, &j->p);
        return;
    }
    rt_parallel_for(j->p.it.shape[0], j->p.it.nd > 1 ? 1 : PARALLEL_MIN_ELEMENTS / 4, ew_range, j);
}

/* Small dense operands of out's shape, all in the compute dtype ct (a
 * decoder's vectors): one call of the loop, without the iteration plan.
 * An input that overlaps out without being out takes the general path,
 * which reads it before writing. */
static bool binary_flat(bin_fn f, tl_dtype ct, const rt_buf *out, const rt_buf *a, const rt_buf *b)
{
    const rt_buf *ops[3] = {out, a, b};
    char *p[3];
    int64_t n = rt_dense_numel(out->l), esize = mt_dtype_size(ct), nbytes = n * esize;
    if (n == 0 || n >= PARALLEL_MIN_ELEMENTS)
        return false;
    for (int k = 0; k < 3; k++) {
        const mt_layout *l = ops[k]->l;
        if (l->dtype != ct || (k > 0 && rt_dense_numel(l) != n))
            return false;
        p[k] = (char *)ops[k]->base + l->offset * esize;
        if (k > 0 && p[k] != p[0] && p[k] < p[0] + nbytes && p[0] < p[k] + nbytes)
            return false;
    }
    f(p[0], p[1], p[2], n);
    return true;
}

/* out = a op b, inputs rounded to the common dtype cd, computed in opmath(cd). */
static void binary_run(rt_binop op, const rt_buf *out, const rt_buf *a, const rt_buf *b,
                       tl_dtype cd)
{
    tl_dtype ct = opmath(cd);
    bin_fn f = bin_table[ct][op];
    assert(f && "no such op for this dtype (the meta function refuses it)");
    if (cd == ct && binary_flat(f, ct, out, a, b))
        return; /* before j: zeroing the plan cost more than this loop */
    const rt_buf *ops[3] = {out, a, b};
    ew_job j = {.f2 = f, .cd = cd, .ct = ct};
    if (!plan_init(&j.p, 3, ops))
        return;
    ew_run(&j);
}

void rt_binary(rt_binop op, const rt_buf *out, const rt_buf *a, const rt_buf *b)
{
    binary_run(op, out, a, b, out->l->dtype);
}

/* s becomes a 0-dim tensor of the output's dtype (PyTorch 1.13 rounds it so). */
void rt_binary_scalar(rt_binop op, const rt_buf *out, const rt_buf *a, double s)
{
    cell value = {0};
    rt_store(out->l->dtype, &value, s);
    mt_layout l = {.ndim = 0, .dtype = out->l->dtype, .device = TL_CPU};
    rt_buf sb = {&l, &value};
    binary_run(op, out, a, &sb, out->l->dtype);
}

/* In place, PyTorch computes in the promoted dtype and rounds into t's dtype once. */
void rt_binary_inplace(rt_binop op, const rt_buf *t, const rt_buf *other)
{
    const mt_layout *ls[2] = {t->l, other->l};
    binary_run(op, t, t, other, mt_result_type(2, ls));
}

void rt_mul_scalar_inplace(const rt_buf *t, double s)
{
    rt_binary_scalar(RT_MUL, t, t, s);
}

void rt_unary(rt_unop op, const rt_buf *out, const rt_buf *a)
{
    tl_dtype cd = out->l->dtype, ct = opmath(cd);
    un_fn f = un_table[ct][op];
    assert(f && "no such op for this dtype (the meta function refuses it)");
    const rt_buf *ops[2] = {out, a};
    ew_job j = {.f1 = f, .cd = cd, .ct = ct};
    if (!plan_init(&j.p, 2, ops))
        return;
    ew_run(&j);
}

/* ---- rows: the reduced dim moved last ---- */

enum { ROW_CAP = 65536 }; /* elements per reduce / softmax chunk (heap buffers) */

/* l with dim moved to the end; with append, a size-1 dim (stride 0) is added instead. */
static mt_layout dim_last(const mt_layout *l, int dim, bool append)
{
    mt_layout r = *l;
    if (append) {
        r.shape[r.ndim] = 1, r.strides[r.ndim] = 0, r.ndim++;
        return r;
    }
    for (int d = dim; d < l->ndim - 1; d++)
        r.shape[d] = l->shape[d + 1], r.strides[d] = l->strides[d + 1];
    r.shape[l->ndim - 1] = l->shape[dim], r.strides[l->ndim - 1] = l->strides[dim];
    return r;
}

/* A 0-dim layout as one dim of size 1, so that every tensor has a last dim. */
static mt_layout at_least_1d(const mt_layout *l)
{
    mt_layout r = *l;
    if (r.ndim == 0)
        r.ndim = 1, r.shape[0] = 1, r.strides[0] = 1;
    return r;
}

/* Elements before the last dim's start of row r (row-major over dims 0..ndim-2). */
static int64_t row_offset(const mt_layout *l, int64_t r)
{
    int64_t off = l->offset;
    for (int d = l->ndim - 2; d >= 0; d--)
        off += (r % l->shape[d]) * l->strides[d], r /= l->shape[d];
    return off;
}

/* Segment [j, j + n) of row r of t as a 1-D layout. */
static mt_layout segment(const mt_layout *l, int64_t r, int64_t j, int64_t n)
{
    int64_t st = l->strides[l->ndim - 1];
    mt_layout s = {.ndim = 1, .shape = {n}, .strides = {st}, .offset = row_offset(l, r) + j * st,
                   .dtype = l->dtype, .device = TL_CPU};
    return s;
}

/* A box of rows as a dense dt array: in place when it already is one, else copied into buf. */
static const void *dense_rows(const mt_layout *box, const void *base, tl_dtype dt, void *buf)
{
    if (box->dtype == dt && is_dense(box))
        return (const char *)base + box->offset * mt_dtype_size(dt);
    mt_layout bl = dense_like(box, dt);
    copy_box(&bl, buf, box, base);
    return buf;
}

/* ---- sum and mean ---- */

/* What rows are summed from: floats exactly as f32 (f64 stays f64), integers as i64. */
static tl_dtype sum_dtype(tl_dtype in, tl_dtype out)
{
    if (!mt_is_floating(out))
        return TL_I64;
    return in == TL_F32 || in == TL_F16 || in == TL_BF16 ? TL_F32 : TL_F64;
}

/* Four double accumulators (independent chains, a little pairwise). */
#define SUM_FLOAT(NAME, T)                                                                  \
    static double NAME(const T *x, int64_t n)                                               \
    {                                                                                       \
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                              \
        int64_t i = 0;                                                                      \
        for (; i + 4 <= n; i += 4)                                                          \
            s0 += x[i], s1 += x[i + 1], s2 += x[i + 2], s3 += x[i + 3];                     \
        for (; i < n; i++)                                                                  \
            s0 += x[i];                                                                     \
        return (s0 + s1) + (s2 + s3);                                                       \
    }
SUM_FLOAT(sum_f32, float)
SUM_FLOAT(sum_f64, double)
#undef SUM_FLOAT

static int64_t sum_i64(const int64_t *x, int64_t n)
{
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++)
        s += (uint64_t)x[i];
    return (int64_t)s;
}

static cell sum_row(tl_dtype dt, const void *x, int64_t n)
{
    cell c = {0};
    if (dt == TL_I64)
        c.i64 = sum_i64(x, n);
    else
        c.f64 = dt == TL_F32 ? sum_f32(x, n) : sum_f64(x, n);
    return c;
}

static cell add_cells(tl_dtype dt, cell a, cell b)
{
    if (dt == TL_I64)
        a.i64 = (int64_t)((uint64_t)a.i64 + (uint64_t)b.i64);
    else
        a.f64 += b.f64;
    return a;
}

/* value rounded to dtype d and back (what PyTorch holds in a d tensor). */
static double round_to(tl_dtype d, double v)
{
    cell c = {0};
    rt_store(d, &c, v);
    return rt_load(d, &c);
}

/* mean = sum(out dtype) / n(out dtype), divided in out's compute type. */
static double mean_of(tl_dtype out, double sum, int64_t n)
{
    double s = round_to(out, sum), d = round_to(out, (double)n);
    return opmath(out) == TL_F32 ? (double)((float)s / (float)d) : s / d;
}

static cell finish(rt_redop op, tl_dtype out, cell sum, int64_t n)
{
    if (op == RT_MEAN) {
        assert(mt_is_floating(out) && "mean of an integer dtype (the meta function refuses it)");
        sum.f64 = mean_of(out, sum.f64, n);
    }
    return sum;
}

typedef struct reduce_ctx {
    rt_redop op;
    const rt_buf *a;   /* the input, reduced dim last */
    const rt_buf *out; /* the output, a size-1 last dim */
    tl_dtype sdt;      /* what rows are summed from (sum_dtype) */
    tl_dtype acc;      /* F64 or I64: the results */
    int64_t n;         /* elements per row */
    void *buf;         /* ROW_CAP elements of 8 bytes: rows */
    cell *res;         /* ROW_CAP results */
} reduce_ctx;

/* Rows of at most ROW_CAP elements, ndim >= 2: chunks of whole rows, one result per row. */
static void reduce_rows(const reduce_ctx *r)
{
    const mt_layout *al = r->a->l, *ol = r->out->l;
    int sz = mt_dtype_size(r->sdt);
    chunker c;
    chunker_init(&c, al->ndim, al->shape, ROW_CAP);
    while (chunker_next(&c)) {
        mt_layout in = chunk_layout(&c, al->shape, al->strides, al->offset, al->dtype);
        const char *x = dense_rows(&in, r->a->base, r->sdt, r->buf);
        int64_t rows = chunk_numel(&c) / r->n;
        for (int64_t i = 0; i < rows; i++)
            r->res[i] = finish(r->op, ol->dtype, sum_row(r->sdt, x + i * r->n * sz, r->n), r->n);
        mt_layout o = chunk_layout(&c, ol->shape, ol->strides, ol->offset, ol->dtype);
        mt_layout rl = dense_like(&o, r->acc);
        copy_box(&o, r->out->base, &rl, r->res);
    }
}

/* Any row length: each row summed in segments of ROW_CAP. */
static void reduce_segments(const reduce_ctx *r)
{
    const mt_layout *al = r->a->l, *ol = r->out->l;
    for (int64_t row = 0, n_rows = mt_numel(al) / r->n; row < n_rows; row++) {
        cell s = {0};
        for (int64_t j = 0; j < r->n; j += ROW_CAP) {
            mt_layout seg = segment(al, row, j, r->n - j < ROW_CAP ? r->n - j : ROW_CAP);
            const void *x = dense_rows(&seg, r->a->base, r->sdt, r->buf);
            s = add_cells(r->acc, s, sum_row(r->sdt, x, seg.shape[0]));
        }
        s = finish(r->op, ol->dtype, s, r->n);
        mt_layout one = {.ndim = 0, .offset = row_offset(ol, row), .dtype = ol->dtype};
        mt_layout sl = {.ndim = 0, .dtype = r->acc};
        copy_box(&one, r->out->base, &sl, &s);
    }
}

/* Buffers for r, then whole rows or segments. */
static void reduce_run(reduce_ctx *r)
{
    const mt_layout *al = r->a->l;
    int64_t cap = mt_numel(al) < ROW_CAP ? mt_numel(al) : ROW_CAP;
    char *mem = rt_scratch_new((size_t)cap * 16, "malloc (reduction rows)");
    if (!mem)
        return;
    r->buf = mem, r->res = (cell *)(void *)(mem + cap * 8);
    if (r->n <= ROW_CAP && al->ndim > 1)
        reduce_rows(r);
    else
        reduce_segments(r); /* also a single row: its chunk must not cut the last dim */
    free(mem);
}

void rt_reduce(rt_redop op, const rt_buf *out, const rt_buf *a, int dim, bool keepdim)
{
    if (a->l->ndim == 0) {
        rt_copy(out, a); /* a 0-dim tensor reduces to itself */
        return;
    }
    mt_layout al = dim_last(a->l, dim, false);
    mt_layout ol = keepdim ? dim_last(out->l, dim, false) : dim_last(out->l, 0, true);
    rt_buf ab = {&al, a->base}, ob = {&ol, out->base};
    tl_dtype odt = out->l->dtype;
    reduce_ctx r = {op, &ab, &ob, sum_dtype(a->l->dtype, odt),
                    mt_is_floating(odt) ? TL_F64 : TL_I64, al.shape[al.ndim - 1], NULL, NULL};
    if (mt_numel(out->l) == 0)
        return;
    if (r.n == 0)
        rt_fill(out, op == RT_SUM ? 0.0 : NAN);
    else
        reduce_run(&r);
}

/* ---- softmax ---- */

/* x = exp(x - max) / sum, the sum in double. */
#define SOFTMAX_ROW(T, EXP)                                                                 \
    static void softmax_row_##T(T *x, int64_t n)                                            \
    {                                                                                       \
        T m = x[0];                                                                         \
        for (int64_t i = 1; i < n; i++)                                                     \
            m = x[i] > m ? x[i] : m;                                                        \
        for (int64_t i = 0; i < n; i++)                                                     \
            x[i] -= m;                                                                      \
        EXP(x, x, n);                                                                       \
        double s = 0;                                                                       \
        for (int64_t i = 0; i < n; i++)                                                     \
            s += x[i];                                                                      \
        T inv = (T)1 / (T)s;                                                                \
        for (int64_t i = 0; i < n; i++)                                                     \
            x[i] *= inv;                                                                    \
    }
SOFTMAX_ROW(float, exp_f32)
SOFTMAX_ROW(double, un_exp_double)
#undef SOFTMAX_ROW

static void softmax_row(tl_dtype ct, void *x, int64_t n)
{
    if (ct == TL_F32)
        softmax_row_float(x, n);
    else
        softmax_row_double(x, n);
}

/* Chunks of whole rows (rows of at most ROW_CAP elements), computed in buf. */
static void softmax_rows(const rt_buf *out, const rt_buf *a, tl_dtype ct, void *buf)
{
    const mt_layout *al = a->l, *ol = out->l;
    int64_t n = al->shape[al->ndim - 1];
    chunker c;
    chunker_init(&c, al->ndim, al->shape, ROW_CAP);
    while (chunker_next(&c)) {
        mt_layout in = chunk_layout(&c, al->shape, al->strides, al->offset, al->dtype);
        mt_layout xl = dense_like(&in, ct);
        copy_box(&xl, buf, &in, a->base);
        for (int64_t i = 0; i < chunk_numel(&c) / n; i++)
            softmax_row(ct, (char *)buf + i * n * mt_dtype_size(ct), n);
        mt_layout o = chunk_layout(&c, ol->shape, ol->strides, ol->offset, ol->dtype);
        copy_box(&o, out->base, &xl, buf);
    }
}

/* Max, then sum of exp(x - max), of one long row, in segments (f64 values in x). */
static void long_row_stats(const rt_buf *a, int64_t row, tl_dtype ct, double *x, double *max,
                           double *sum)
{
    int64_t n = a->l->shape[a->l->ndim - 1];
    double m = -INFINITY, s = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int64_t j = 0; j < n; j += ROW_CAP) {
            mt_layout seg = segment(a->l, row, j, n - j < ROW_CAP ? n - j : ROW_CAP);
            const double *v = dense_rows(&seg, a->base, TL_F64, x);
            for (int64_t i = 0; i < seg.shape[0]; i++) {
                if (pass == 0)
                    m = (v[i] > m || isnan(v[i])) ? v[i] : m;
                else
                    s += ct == TL_F32 ? (double)exp_one((float)v[i] - (float)m) : exp(v[i] - m);
            }
        }
    *max = m, *sum = s;
}

/* One row longer than ROW_CAP: statistics first, then each segment written out. */
static void softmax_long_row(const rt_buf *out, const rt_buf *a, int64_t row, tl_dtype ct,
                             double *x)
{
    int64_t n = a->l->shape[a->l->ndim - 1];
    double m, s;
    long_row_stats(a, row, ct, x, &m, &s);
    for (int64_t j = 0; j < n; j += ROW_CAP) {
        mt_layout seg = segment(a->l, row, j, n - j < ROW_CAP ? n - j : ROW_CAP);
        mt_layout xl = dense_like(&seg, TL_F64), oseg = segment(out->l, row, j, seg.shape[0]);
        copy_box(&xl, x, &seg, a->base);
        for (int64_t i = 0; i < seg.shape[0]; i++)
            x[i] = ct == TL_F32 ? (double)(exp_one((float)x[i] - (float)m) * (1.0f / (float)s))
                                : exp(x[i] - m) * (1.0 / s);
        copy_box(&oseg, out->base, &xl, x);
    }
}

void rt_softmax(const rt_buf *out, const rt_buf *a, int dim)
{
    tl_dtype ct = opmath(out->l->dtype);
    assert((ct == TL_F32 || ct == TL_F64) && "softmax of a non-floating dtype");
    mt_layout al = at_least_1d(a->l), ol = at_least_1d(out->l);
    if (a->l->ndim > 0)
        al = dim_last(a->l, dim, false), ol = dim_last(out->l, dim, false);
    rt_buf ab = {&al, a->base}, ob = {&ol, out->base};
    int64_t n = al.shape[al.ndim - 1], numel = mt_numel(&al);
    if (numel == 0)
        return;
    double *buf = rt_scratch_new((size_t)(numel < ROW_CAP ? numel : ROW_CAP) * 8,
                                 "malloc (softmax rows)");
    if (!buf)
        return;
    if (n <= ROW_CAP)
        softmax_rows(&ob, &ab, ct, buf);
    else
        for (int64_t row = 0; row < numel / n; row++)
            softmax_long_row(&ob, &ab, row, ct, buf);
    free(buf);
}
