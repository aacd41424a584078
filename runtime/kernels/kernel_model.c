/*
 * kernel_model.c: the CPU kernels of the ops for real models (meta_model.c):
 * float activations, scalar pow/div, maximum/minimum, comparisons, where,
 * masked_fill, triu/tril, amax/argmax, stack, and the in-place mul_, div_,
 * add_scalar_.  (matmul_out and softmax_out reuse rt_matmul and
 * rt_softmax; rt_exec.c does the resize.)
 *
 * Approach: correctness first, one general loop.  An elementwise op walks
 * the output's elements in row-major order with a multi-index; each
 * operand is read through its broadcast strides (0 where it has size 1 or
 * lacks the dim).  Values travel as a tagged number: int64 for integer and
 * bool compute dtypes (exact for every I64 value), double for floating ones.
 * Each input is first converted to the op's compute dtype (the promoted
 * dtype, as PyTorch converts operands before the operation): a float is
 * rounded through that dtype once; the result is rounded once on store.
 * Transcendentals run in double and round once to the output dtype (f32
 * results agree with PyTorch's float kernels to 1 ulp or so; the fixtures
 * compare them within 1e-5 relative).  An f32 unary op whose input has the
 * output's strides, both dense (contiguous or permuted), runs as one flat
 * loop over the threads instead; there sigmoid, silu, tanh, gelu and rsqrt
 * compute in f32, vectorized (rt_f32_map: AVX-512 or AVX2 where the CPU has it), as
 * PyTorch's float kernels do (within a few ulp).
 *
 * Reductions (amax, argmax) walk the output's elements and, for each, the
 * reduced dim: NaN wins amax and argmax (the first NaN's index), as in
 * PyTorch; ties go to the first index.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "kernel_walk.h"
#include "kernels.h"
#include "scalar.h"

/* ---- numbers in a compute dtype ---- */

typedef struct num {
    bool is_int;
    int64_t i;
    double f;
} num;

static bool int_compute(tl_dtype d) { return !mt_is_floating(d); }

/* An integer from dtype d: scalar.h's rule (exact for integers, floats
 * truncated), the one the CUDA kernels share. */
static int64_t load_i64(tl_dtype d, const void *p) { return sc_load_i64(d, p); }

/* An integer stored into an integer dtype wraps (two's complement), bool is
 * != 0 (scalar.h); into a float dtype it rounds through double, as the
 * other stores of this file do. */
static void store_i64(tl_dtype d, void *p, int64_t v)
{
    if (sc_is_integral(d))
        sc_store_i64(d, p, v);
    else
        rt_store(d, p, (double)v);
}

/* v rounded to dtype d (f16, bf16, f32 round; f64 is exact). */
static double round_to(tl_dtype d, double v)
{
    int64_t cell = 0;
    if (d == TL_F64)
        return v;
    rt_store(d, &cell, v);
    return rt_load(d, &cell);
}

/* The element at p (dtype src) converted to compute dtype cd. */
static num load_as(tl_dtype src, const void *p, tl_dtype cd)
{
    num n = {int_compute(cd), 0, 0};
    if (n.is_int) {
        n.i = cd == TL_BOOL ? load_i64(src, p) != 0 : load_i64(src, p); /* src is integral */
        return n;
    }
    n.f = round_to(cd, mt_is_floating(src) ? rt_load(src, p) : (double)load_i64(src, p));
    return n;
}

static void store_num(tl_dtype d, void *p, num v)
{
    if (v.is_int)
        store_i64(d, p, v.i);
    else
        rt_store(d, p, v.f);
}

static num num_f(double f) { return (num){false, 0, f}; }
static num num_i(int64_t i) { return (num){true, i, 0}; }
static bool num_nan(num v) { return !v.is_int && isnan(v.f); }
static bool num_lt(num a, num b) { return a.is_int ? a.i < b.i : a.f < b.f; }
static bool num_eq(num a, num b) { return a.is_int ? a.i == b.i : a.f == b.f; }

/* ---- the element walk ---- */

/* A walk of out's shape over out and the n_in inputs in[0 ..). */
static void walk_init(kw_walk *w, const rt_buf *out, int n_in, const rt_buf *in)
{
    const rt_buf *b[KW_MAX_OPS];
    assert(n_in + 1 <= KW_MAX_OPS);
    b[0] = out;
    for (int k = 0; k < n_in; k++)
        b[k + 1] = &in[k];
    kw_init(w, n_in + 1, b);
}

/* ---- elementwise ops ---- */

static double gelu(double x) { return 0.5 * x * (1.0 + erf(x * M_SQRT1_2)); }
static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static num unary_value(mt_op op, num x, double s, tl_dtype cd)
{
    double v = x.f;
    switch (op) {
    case MT_OP_sqrt: return num_f(sqrt(v));
    case MT_OP_rsqrt: return num_f(1.0 / sqrt(v));
    case MT_OP_log: return num_f(log(v));
    case MT_OP_sin: return num_f(sin(v));
    case MT_OP_cos: return num_f(cos(v));
    case MT_OP_tanh: return num_f(tanh(v));
    case MT_OP_sigmoid: return num_f(sigmoid(v));
    case MT_OP_silu: return num_f(v * sigmoid(v));
    case MT_OP_gelu: return num_f(gelu(v));
    case MT_OP_pow_scalar: return num_f(pow(v, s));
    case MT_OP_div_scalar: return num_f(v / round_to(cd, s));
    case MT_OP_add_scalar_: return num_f(v + round_to(cd, s));
    default: assert(!"unary_value: not a unary op"); return x;
    }
}

/* maximum/minimum propagate NaN; integer products and sums wrap. */
static num binary_value(mt_op op, num a, num b)
{
    switch (op) {
    case MT_OP_maximum:
        return num_nan(a) || num_nan(b) ? num_f(NAN) : num_lt(a, b) ? b : a;
    case MT_OP_minimum:
        return num_nan(a) || num_nan(b) ? num_f(NAN) : num_lt(b, a) ? b : a;
    case MT_OP_mul_:
        return a.is_int ? num_i((int64_t)((uint64_t)a.i * (uint64_t)b.i)) : num_f(a.f * b.f);
    case MT_OP_div_:
        return num_f(a.f / b.f);
    default: assert(!"binary_value: not a binary op"); return a;
    }
}

/* ---- f32 unary ops on a dense layout: a flat loop, over the threads ---- */

enum { PARALLEL_MIN_ELEMENTS = 1 << 16 }; /* below this a flat unary op runs on one thread */

/* l covers kw_numel(l) consecutive elements from its offset, in some order
 * of its dims (contiguous, or permuted contiguous): no gap, no overlap. */
static bool dense_permuted(const mt_layout *l)
{
    int64_t sh[TL_MAX_DIMS], st[TL_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < l->ndim; d++)
        if (l->shape[d] != 1)
            sh[n] = l->shape[d], st[n++] = l->strides[d];
    for (int a = 1; a < n; a++) /* by stride, innermost first */
        for (int b = a; b > 0 && st[b] < st[b - 1]; b--) {
            int64_t t = st[b]; st[b] = st[b - 1]; st[b - 1] = t;
            t = sh[b]; sh[b] = sh[b - 1]; sh[b - 1] = t;
        }
    int64_t expect = 1;
    for (int d = 0; d < n; d++) {
        if (st[d] != expect)
            return false;
        expect *= sh[d];
    }
    return true;
}

typedef struct flat_unary {
    const mt_call *c;
    float *o;
    const float *x;
} flat_unary;

/* The ops rt_f32_map computes (in f32, vectorized, as PyTorch's float
 * kernels do); false for the others. */
static bool f32_fn_of(mt_op op, rt_f32_fn *fn)
{
    switch (op) {
    case MT_OP_sigmoid: *fn = RT_F32_SIGMOID; return true;
    case MT_OP_silu: *fn = RT_F32_SILU; return true;
    case MT_OP_tanh: *fn = RT_F32_TANH; return true;
    case MT_OP_gelu: *fn = RT_F32_GELU; return true;
    case MT_OP_rsqrt: *fn = RT_F32_RSQRT; return true;
    default: return false;
    }
}

/* The ops of rt_f32_map in f32; the others the walk's way: x to double,
 * the op in double, one rounding to f32. */
static void flat_unary_range(void *ctx, int64_t begin, int64_t end)
{
    const flat_unary *f = ctx;
    rt_f32_fn fn;
    if (f32_fn_of(f->c->op, &fn)) {
        rt_f32_map(fn, f->o + begin, f->x + begin, end - begin);
        return;
    }
    for (int64_t i = begin; i < end; i++)
        f->o[i] = (float)unary_value(f->c->op, num_f((double)f->x[i]), f->c->f, TL_F32).f;
}

/* An f32 op whose input has the output's shape and strides, dense: the
 * elements pair up in memory order, so one flat loop does it. */
static bool try_flat_unary(const mt_call *c, const rt_buf *out, const rt_buf *x)
{
    const mt_layout *o = out->l, *l = x->l;
    if (o->dtype != TL_F32 || l->dtype != TL_F32 || o->ndim != l->ndim)
        return false;
    for (int d = 0; d < o->ndim; d++)
        if (o->shape[d] != l->shape[d] || (o->shape[d] != 1 && o->strides[d] != l->strides[d]))
            return false;
    if (!dense_permuted(o))
        return false;
    flat_unary f = {c, (float *)out->base + o->offset, (const float *)x->base + l->offset};
    int64_t n = kw_numel(o);
    if (n < PARALLEL_MIN_ELEMENTS)
        flat_unary_range(&f, 0, n);
    else
        rt_parallel_for(n, PARALLEL_MIN_ELEMENTS / 4, flat_unary_range, &f);
    return true;
}

/* out = op(x) (x broadcast to out), computed in out's dtype. */
static void run_unary(const mt_call *c, const rt_buf *out, const rt_buf *x)
{
    kw_walk w;
    tl_dtype cd = out->l->dtype;
    if (kw_numel(out->l) == 0)
        return;
    if (try_flat_unary(c, out, x))
        return;
    walk_init(&w, out, 1, x);
    do {
        num v = load_as(x->l->dtype, kw_ptr(&w, 1), cd);
        store_num(cd, kw_ptr(&w, 0), unary_value(c->op, v, c->f, cd));
    } while (kw_next(&w));
}

/* out = a op b in compute dtype cd (the promoted dtype; out's unless a comparison). */
static void run_binary(mt_op op, const rt_buf *out, const rt_buf *a, const rt_buf *b, tl_dtype cd)
{
    kw_walk w;
    rt_buf in[2] = {*a, *b};
    if (kw_numel(out->l) == 0)
        return;
    walk_init(&w, out, 2, in);
    do {
        num x = load_as(a->l->dtype, kw_ptr(&w, 1), cd);
        num y = load_as(b->l->dtype, kw_ptr(&w, 2), cd);
        num r;
        if (op == MT_OP_eq)
            r = num_i(num_eq(x, y));
        else if (op == MT_OP_lt)
            r = num_i(num_lt(x, y));
        else
            r = binary_value(op, x, y);
        store_num(out->l->dtype, kw_ptr(&w, 0), r);
    } while (kw_next(&w));
}

/* torch.where: cond's nonzero elements take a, the others b, in out's dtype. */
static void run_where(const rt_buf *out, const rt_buf *in)
{
    kw_walk w;
    tl_dtype cd = out->l->dtype;
    if (kw_numel(out->l) == 0)
        return;
    walk_init(&w, out, 3, in);
    do {
        bool pick_a = load_i64(in[0].l->dtype, kw_ptr(&w, 1)) != 0;
        int k = pick_a ? 2 : 3;
        store_num(cd, kw_ptr(&w, 0), load_as(in[k - 1].l->dtype, kw_ptr(&w, k), cd));
    } while (kw_next(&w));
}

/* masked_fill: out = t (broadcast) with value where mask holds; a mask of
 * any dtype is read as torch 1.13's CPU kernel reads it, by the first byte of
 * each element (rt_exec checked that byte is 0 or 1). */
static void run_masked_fill(const rt_buf *out, const rt_buf *t, const rt_buf *mask, double v)
{
    kw_walk w;
    rt_buf in[2] = {*t, *mask};
    tl_dtype cd = out->l->dtype;
    num fill = int_compute(cd) ? num_i(cd == TL_BOOL ? v != 0 : (int64_t)v) : num_f(v);
    if (kw_numel(out->l) == 0)
        return;
    walk_init(&w, out, 2, in);
    do {
        bool m = *(const uint8_t *)kw_ptr(&w, 2) != 0; /* the element's first byte */
        store_num(cd, kw_ptr(&w, 0), m ? fill : load_as(t->l->dtype, kw_ptr(&w, 1), cd));
    } while (kw_next(&w));
}

/* triu / tril: a copy, then the elements off the kept triangle zeroed. */
static void run_triangle(mt_op op, const rt_buf *out, const rt_buf *x, int64_t k)
{
    kw_walk w;
    int nd = out->l->ndim;
    rt_copy(out, x);
    if (kw_numel(out->l) == 0)
        return;
    walk_init(&w, out, 0, NULL);
    do {
        int64_t i = w.pos[nd - 2], j = w.pos[nd - 1];
        bool keep = op == MT_OP_triu ? j - i >= k : j - i <= k;
        if (!keep)
            store_i64(out->l->dtype, kw_ptr(&w, 0), 0);
    } while (kw_next(&w));
}

/* ---- reductions ---- */

/* amax (argmax: the first index of the maximum) of x along dim into out. */
static void run_reduce(mt_op op, const rt_buf *out, const rt_buf *x, int dim, bool keepdim)
{
    mt_layout ol = *out->l; /* out viewed with x's dims, dim of size 1 */
    tl_dtype xd = x->l->dtype;
    int nd = x->l->ndim;
    kw_walk w;
    if (kw_numel(out->l) == 0)
        return;
    if (!keepdim && nd > 0) {
        for (int d = nd - 1; d > dim; d--) {
            ol.shape[d] = ol.shape[d - 1];
            ol.strides[d] = ol.strides[d - 1];
        }
        ol.shape[dim] = 1;
        ol.strides[dim] = 0;
        ol.ndim = nd;
    }
    rt_buf ob = {&ol, out->base};
    walk_init(&w, &ob, 0, NULL);
    int esize = mt_dtype_size(xd);
    int64_t size = nd > 0 ? x->l->shape[dim] : 1, step = nd > 0 ? x->l->strides[dim] : 0;
    do {
        int64_t base = x->l->offset;
        for (int d = 0; d < nd; d++)
            base += (d == dim ? 0 : w.pos[d]) * x->l->strides[d];
        num best = load_as(xd, (char *)x->base + base * esize, xd);
        int64_t arg = 0;
        for (int64_t k = 1; k < size && !num_nan(best); k++) {
            num v = load_as(xd, (char *)x->base + (base + k * step) * esize, xd);
            if (num_nan(v) || num_lt(best, v))
                best = v, arg = k;
        }
        if (op == MT_OP_argmax)
            store_i64(TL_I64, kw_ptr(&w, 0), arg);
        else
            store_num(xd, kw_ptr(&w, 0), best);
    } while (kw_next(&w));
}

/* ---- stack ---- */

/* Each input copied into out.select(dim, k). */
static void run_stack(const rt_buf *out, int n, const rt_buf *in, int dim)
{
    for (int k = 0; k < n; k++) {
        mt_layout sl = *out->l;
        sl.offset += k * out->l->strides[dim];
        for (int d = dim; d + 1 < sl.ndim; d++) {
            sl.shape[d] = sl.shape[d + 1];
            sl.strides[d] = sl.strides[d + 1];
        }
        sl.ndim--;
        rt_buf dst = {&sl, out->base};
        if (kw_numel(&sl) > 0)
            rt_copy(&dst, &in[k]);
    }
}

/* The compute dtype of a comparison: torch.result_type of its operands. */
static tl_dtype compare_dtype(const rt_buf *in)
{
    const mt_layout *ls[2] = {in[0].l, in[1].l};
    return mt_result_type(2, ls);
}

void rt_model(const mt_call *c, const rt_buf *out, int n, const rt_buf *in)
{
    int64_t dim = 0;
    (void)n;
    if (rt_train_op(c->op)) {
        rt_train(c, out, n, in);
        return;
    }
    switch (c->op) {
    case MT_OP_max: case MT_OP_argmax:
        mt_wrap_dim(c->i[0], in[0].l->ndim, &dim);
        run_reduce(c->op, out, &in[0], (int)dim, c->b);
        return;
    case MT_OP_stack:
        mt_wrap_dim(c->i[0], out->l->ndim, &dim);
        run_stack(out, n, in, (int)dim);
        return;
    case MT_OP_where: run_where(out, in); return;
    case MT_OP_masked_fill: run_masked_fill(out, &in[0], &in[1], c->f); return;
    case MT_OP_triu: case MT_OP_tril: run_triangle(c->op, out, &in[0], c->i[0]); return;
    case MT_OP_eq: case MT_OP_lt:
        run_binary(c->op, out, &in[0], &in[1], compare_dtype(in));
        return;
    case MT_OP_maximum: case MT_OP_minimum:
        run_binary(c->op, out, &in[0], &in[1], out->l->dtype);
        return;
    case MT_OP_mul_: case MT_OP_div_: {
        /* in place: out is in[0]; the op computes in the promoted dtype, then casts back */
        const mt_layout *ls[2] = {in[0].l, in[1].l};
        tl_dtype cd = mt_result_type(2, ls);
        if (c->op == MT_OP_div_ && !mt_is_floating(cd))
            cd = TL_F32;
        else if (mt_is_floating(cd) && out->l->dtype == cd && in[1].l->dtype == cd) {
            /* one floating dtype: kernel_compute.c's loops round as this walk
             * in double does (one correctly rounded op), at a fraction of its cost */
            rt_binary_inplace(c->op == MT_OP_mul_ ? RT_MUL : RT_DIV, out, &in[1]);
            return;
        }
        run_binary(c->op, out, &in[0], &in[1], cd);
        return;
    }
    case MT_OP_add_scalar_: run_unary(c, out, &in[0]); return;
    default: run_unary(c, out, &in[0]); return;
    }
}
