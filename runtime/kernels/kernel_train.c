/*
 * kernel_train.c: the CPU kernels of the ops for training (meta_train.c):
 * gelu_tanh, the in-place sqrt_, addcmul_, addcdiv_, lerp_, index_add_ /
 * index_add, log_softmax and cross_entropy.  The CUDA emulation runs these
 * too (through rt_model); cuda_train.cu is the GPU's version of each.
 *
 * Approach: correctness first, one general walk.  An elementwise op walks
 * the written tensor's elements in row-major order with a multi-index;
 * each input is read through its broadcast strides (0 where it has size 1
 * or lacks the dim).  Arithmetic follows PyTorch 1.13's CPU formulas, in
 * their order: f32 tensors compute in float (as PyTorch's float kernels),
 * f64 in double, f16 and bf16 in float rounded once on store; integer
 * addcmul_ wraps as int64 does.  gelu_tanh, log_softmax and the loss run
 * in double and round once (f32 results agree with PyTorch's to a few ulp;
 * the fixtures compare within 1e-5 relative).
 *
 * index_add_ adds source's slices one index after the other (index order,
 * as PyTorch's CPU loop), each slice element by element.
 * cross_entropy: per row, max, log of the sum of exp(x - max), then
 * -(x[target] - max - log sum); the mean over the targets not ignored.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "kernel_walk.h"
#include "kernels.h"
#include "scalar.h"


/* ---- elementwise ---- */

/* GeluKernelImpl's tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
static double gelu_tanh(double x)
{
    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
    return 0.5 * x * (1.0 + tanh(beta * (x + kappa * x * x * x)));
}

/* PyTorch's lerp: weight below 0.5 in magnitude from self, else from end. */
static double lerp_d(double s, double e, double w)
{
    return fabs(w) < 0.5 ? s + w * (e - s) : e - (e - s) * (1 - w);
}

static float lerp_f(float s, float e, float w)
{
    return fabsf(w) < 0.5f ? s + w * (e - s) : e - (e - s) * (1 - w);
}

/* One element of a floating op: x the written tensor's value, a and b the inputs'. */
static double float_value(mt_op op, tl_dtype dt, double x, double a, double b, double s)
{
    if (dt == TL_F64) {
        switch (op) {
        case MT_OP_sqrt_: return sqrt(x);
        case MT_OP_addcmul_: return x + s * a * b;
        case MT_OP_addcdiv_: return x + s * a / b;
        case MT_OP_lerp_: return lerp_d(x, a, s);
        default: return gelu_tanh(a);
        }
    }
    float xf = (float)x, af = (float)a, bf = (float)b, sf = (float)s;
    switch (op) {
    case MT_OP_sqrt_: return sqrtf(xf);
    case MT_OP_addcmul_: return xf + sf * af * bf;
    case MT_OP_addcdiv_: return xf + sf * af / bf;
    case MT_OP_lerp_: return lerp_f(xf, af, sf);
    default: return gelu_tanh(a);
    }
}

/* An integer addcmul_: t + v * a * b, wrapping (v converted to t's dtype). */
static int64_t int_addcmul(int64_t x, int64_t a, int64_t b, int64_t v)
{
    return (int64_t)((uint64_t)x + (uint64_t)v * (uint64_t)a * (uint64_t)b);
}

/* gelu_tanh into a new out; sqrt_, addcmul_, addcdiv_, lerp_ in place (out is in[0]). */
static void run_elementwise(const mt_call *c, const rt_buf *out, int n, const rt_buf *in)
{
    const rt_buf *ops[KW_MAX_OPS] = {out};
    bool inplace = c->op != MT_OP_gelu_tanh;
    int first = inplace ? 1 : 0; /* in place, in[0] is out itself */
    int m = 1;
    for (int k = first; k < n && m < KW_MAX_OPS; k++)
        ops[m++] = &in[k];
    tl_dtype dt = out->l->dtype;
    kw_walk w;
    if (kw_numel(out->l) == 0)
        return;
    kw_init(&w, m, ops);
    int64_t v = sc_is_integral(dt) ? (int64_t)c->f : 0;
    do {
        if (sc_is_integral(dt)) { /* addcmul_ of integers (addcdiv_ refuses them) */
            int64_t x = sc_load_i64(dt, kw_ptr(&w, 0));
            int64_t a = sc_load_i64(in[1].l->dtype, kw_ptr(&w, 1));
            int64_t b = sc_load_i64(in[2].l->dtype, kw_ptr(&w, 2));
            sc_store_i64(dt, kw_ptr(&w, 0), int_addcmul(x, a, b, v));
            continue;
        }
        double x = inplace ? rt_load(dt, kw_ptr(&w, 0)) : 0;
        double a = m > 1 ? rt_load(ops[1]->l->dtype, kw_ptr(&w, 1)) : 0;
        double b = m > 2 ? rt_load(ops[2]->l->dtype, kw_ptr(&w, 2)) : 0;
        rt_store(dt, kw_ptr(&w, 0), float_value(c->op, dt, x, a, b, c->f));
    } while (kw_next(&w));
}

/* ---- index_add ---- */

/* l.select(dim, i), or l itself for a 0-dim source. */
static mt_layout tr_select(const mt_layout *l, int dim, int64_t i)
{
    mt_layout s = *l;
    if (l->ndim == 0)
        return s;
    s.offset += i * l->strides[dim];
    for (int d = dim; d + 1 < l->ndim; d++)
        s.shape[d] = l->shape[d + 1], s.strides[d] = l->strides[d + 1];
    s.ndim--;
    return s;
}

/* dst += src elementwise (src broadcast to dst), in dst's dtype. */
static void add_slice(const rt_buf *dst, const rt_buf *src)
{
    const rt_buf *ops[2] = {dst, src};
    tl_dtype dt = dst->l->dtype;
    kw_walk w;
    if (kw_numel(dst->l) == 0)
        return;
    kw_init(&w, 2, ops);
    do {
        void *p = kw_ptr(&w, 0);
        if (dt == TL_BOOL)
            sc_store_i64(dt, p, sc_load_i64(dt, p) || sc_load_i64(dt, kw_ptr(&w, 1)));
        else if (sc_is_integral(dt))
            sc_store_i64(dt, p, (int64_t)((uint64_t)sc_load_i64(dt, p) +
                                          (uint64_t)sc_load_i64(dt, kw_ptr(&w, 1))));
        else if (dt == TL_F32)
            *(float *)p += *(const float *)kw_ptr(&w, 1);
        else
            rt_store(dt, p, rt_load(dt, p) + rt_load(dt, kw_ptr(&w, 1)));
    } while (kw_next(&w));
}

/* t.select(dim, index[i]) += source.select(dim, i) for each i, in index order. */
static void index_add_into(const rt_buf *t, int dim, const rt_buf *idx, const rt_buf *src)
{
    int64_t n = kw_numel(idx->l);
    int isz = mt_dtype_size(idx->l->dtype);
    int64_t istride = idx->l->ndim ? idx->l->strides[0] : 0;
    for (int64_t i = 0; i < n; i++) {
        const char *ip = (const char *)idx->base + (idx->l->offset + i * istride) * isz;
        int64_t row = sc_load_i64(idx->l->dtype, ip);
        mt_layout tl = tr_select(t->l, dim, row), sl = tr_select(src->l, dim, i);
        rt_buf tb = {&tl, t->base}, sb = {&sl, src->base};
        add_slice(&tb, &sb);
    }
}

/* ---- log_softmax, cross_entropy ---- */

/* log_softmax of the n elements at x (stride step, dtype dt) into o (stride ostep). */
static void log_softmax_row(tl_dtype dt, const char *x, int64_t step, char *o, int64_t ostep,
                            int64_t n)
{
    int es = mt_dtype_size(dt);
    double mx = -INFINITY, sum = 0;
    for (int64_t k = 0; k < n; k++) {
        double v = rt_load(dt, x + k * step * es);
        mx = isnan(v) || v > mx ? v : mx;
    }
    for (int64_t k = 0; k < n; k++)
        sum += exp(rt_load(dt, x + k * step * es) - mx);
    double lse = log(sum);
    for (int64_t k = 0; k < n; k++)
        rt_store(dt, o + k * ostep * es, rt_load(dt, x + k * step * es) - mx - lse);
}

/* The layout of l with dim removed (the rows' starts), and the dim's size and stride. */
static mt_layout rows_of(const mt_layout *l, int dim, int64_t *size, int64_t *step)
{
    mt_layout r = *l;
    *size = l->ndim ? l->shape[dim] : 1;
    *step = l->ndim ? l->strides[dim] : 0;
    if (l->ndim == 0)
        return r;
    for (int d = dim; d + 1 < l->ndim; d++)
        r.shape[d] = l->shape[d + 1], r.strides[d] = l->strides[d + 1];
    r.ndim--;
    return r;
}

static void run_log_softmax(const rt_buf *out, const rt_buf *x, int dim)
{
    int64_t n, step, on, ostep;
    mt_layout xr = rows_of(x->l, dim, &n, &step), orr = rows_of(out->l, dim, &on, &ostep);
    rt_buf xb = {&xr, x->base}, ob = {&orr, out->base};
    const rt_buf *ops[2] = {&ob, &xb};
    kw_walk w;
    tl_dtype dt = x->l->dtype;
    if (kw_numel(out->l) == 0)
        return;
    kw_init(&w, 2, ops);
    do {
        log_softmax_row(dt, kw_ptr(&w, 1), step, kw_ptr(&w, 0), ostep, n);
    } while (kw_next(&w));
}

/* -log_softmax(x)[target] of one row of n classes (stride step). */
static double row_loss(tl_dtype dt, const char *x, int64_t step, int64_t n, int64_t target)
{
    int es = mt_dtype_size(dt);
    double mx = -INFINITY, sum = 0;
    for (int64_t k = 0; k < n; k++) {
        double v = rt_load(dt, x + k * step * es);
        mx = isnan(v) || v > mx ? v : mx;
    }
    for (int64_t k = 0; k < n; k++)
        sum += exp(rt_load(dt, x + k * step * es) - mx);
    /* the log-probability as PyTorch stores it (rounded to dt), then negated */
    double lp = rt_load(dt, x + target * step * es) - mx - log(sum);
    int64_t cell = 0;
    rt_store(dt, &cell, lp);
    return -rt_load(dt, &cell);
}

/* The mean of -log_softmax(x)[i, :, j...][t[i, j...]] over the positions
 * whose target is not ignored; the class dim is 1 (0 for 1-dim logits), and
 * x without it has the targets' shape. */
static void run_cross_entropy(const rt_buf *out, const rt_buf *x, const rt_buf *t, int64_t ignore)
{
    tl_dtype dt = x->l->dtype;
    int64_t n, step;
    mt_layout xr = rows_of(x->l, x->l->ndim == 1 ? 0 : 1, &n, &step);
    rt_buf xb = {&xr, x->base};
    const rt_buf *ops[2] = {&xb, t};
    double sum = 0, count = 0;
    kw_walk w;
    if (kw_numel(t->l) > 0) {
        kw_init(&w, 2, ops);
        do {
            int64_t target = sc_load_i64(t->l->dtype, kw_ptr(&w, 1));
            if (target == ignore)
                continue;
            sum += row_loss(dt, kw_ptr(&w, 0), step, n, target);
            count += 1;
        } while (kw_next(&w));
    }
    int es = mt_dtype_size(dt);
    rt_store(dt, (char *)out->base + out->l->offset * es, sum / count); /* 0 / 0: NaN */
}

bool rt_train_op(mt_op op)
{
    switch (op) {
    case MT_OP_index_add_: case MT_OP_index_add: case MT_OP_gelu_tanh: case MT_OP_sqrt_:
    case MT_OP_addcmul_: case MT_OP_addcdiv_: case MT_OP_lerp_: case MT_OP_log_softmax:
    case MT_OP_cross_entropy:
        return true;
    default:
        return false;
    }
}

void rt_train(const mt_call *c, const rt_buf *out, int n, const rt_buf *in)
{
    int64_t dim = 0;
    switch (c->op) {
    case MT_OP_index_add: case MT_OP_index_add_:
        if (c->op == MT_OP_index_add) /* a copy of t, then the in-place add into it */
            rt_copy(out, &in[0]);
        mt_wrap_dim(c->i[0], in[0].l->ndim, &dim);
        index_add_into(out, (int)dim, &in[1], &in[2]);
        return;
    case MT_OP_log_softmax:
        mt_wrap_dim(c->i[0], in[0].l->ndim, &dim);
        run_log_softmax(out, &in[0], (int)dim);
        return;
    case MT_OP_cross_entropy: run_cross_entropy(out, &in[0], &in[1], c->i[0]); return;
    default: run_elementwise(c, out, n, in); return;
    }
}
