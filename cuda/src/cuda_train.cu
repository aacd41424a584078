/*
 * cuda_train.cu: the device kernels of the ops for training, with
 * kernel_train.c's arithmetic (f32 tensors in float, f64 in double, f16
 * and bf16 in float rounded on store; gelu_tanh, log_softmax and the loss
 * in double), so that the device agrees with the CPU to libm's last ulp.
 * cu_model hands these ops here (cuda_model.cu); the emulated device runs
 * kernel_train.c.
 *
 * Kernel shapes: elementwise ops are a grid-stride loop over the written
 * tensor's elements (a multi-index per element, inputs read through
 * broadcast strides).  index_add gives one destination slice element to
 * one thread, which walks the index in order (no atomics: the CPU's order
 * of additions, deterministic).  log_softmax gives one row to one thread;
 * cross_entropy is one thread over the rows (a scalar result).
 */
#include "cuda_common.cuh"

#include <math.h>

enum { TC_MAX_OPS = 4 }; /* operand 0 is written, up to 3 read */

typedef struct tc_args {
    int nd, n;
    int64_t shape[TL_MAX_DIMS];
    char *base[TC_MAX_OPS];
    int dt[TC_MAX_OPS], size[TC_MAX_OPS];
    int64_t st[TC_MAX_OPS][TL_MAX_DIMS], off[TC_MAX_OPS];
    int64_t numel;
    int op;
    double s;
} tc_args;

__device__ void tc_offsets(const tc_args &a, int64_t i, int64_t *off)
{
    for (int k = 0; k < a.n; k++)
        off[k] = a.off[k];
    for (int d = a.nd - 1; d >= 0; d--) {
        int64_t p = a.shape[d] ? i % a.shape[d] : 0;
        i = a.shape[d] ? i / a.shape[d] : 0;
        for (int k = 0; k < a.n; k++)
            off[k] += p * a.st[k][d];
    }
}

__device__ char *tc_ptr(const tc_args &a, int k, const int64_t *off)
{
    return a.base[k] + off[k] * a.size[k];
}

__device__ double tc_gelu_tanh(double x)
{
    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
    return 0.5 * x * (1.0 + tanh(beta * (x + kappa * x * x * x)));
}

/* One floating element: x the written tensor's value, a and b the inputs'. */
__device__ double tc_value(int op, int dt, double x, double a, double b, double s)
{
    if (dt == TL_F64) {
        switch (op) {
        case MT_OP_sqrt_: return sqrt(x);
        case MT_OP_addcmul_: return x + s * a * b;
        case MT_OP_addcdiv_: return x + s * a / b;
        case MT_OP_lerp_: return fabs(s) < 0.5 ? x + s * (a - x) : a - (a - x) * (1 - s);
        default: return tc_gelu_tanh(a);
        }
    }
    float xf = (float)x, af = (float)a, bf = (float)b, sf = (float)s;
    switch (op) {
    case MT_OP_sqrt_: return sqrtf(xf);
    case MT_OP_addcmul_: return __fadd_rn(xf, __fmul_rn(__fmul_rn(sf, af), bf));
    case MT_OP_addcdiv_: return __fadd_rn(xf, __fdiv_rn(__fmul_rn(sf, af), bf));
    case MT_OP_lerp_:
        return fabsf(sf) < 0.5f ? __fadd_rn(xf, __fmul_rn(sf, __fsub_rn(af, xf)))
                                : __fsub_rn(af, __fmul_rn(__fsub_rn(af, xf), 1 - sf));
    default: return tc_gelu_tanh(a);
    }
}

__global__ void tc_elementwise_kernel(tc_args a, bool inplace)
{
    int64_t off[TC_MAX_OPS];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        tc_offsets(a, i, off);
        char *o = tc_ptr(a, 0, off);
        if (cu_is_integral(a.dt[0])) { /* addcmul_ of integers, wrapping */
            int64_t x = cu_ld_i64(o, a.dt[0]), p = cu_ld_i64(tc_ptr(a, 1, off), a.dt[1]);
            int64_t q = cu_ld_i64(tc_ptr(a, 2, off), a.dt[2]), v = (int64_t)a.s;
            cu_st_i64(o, a.dt[0], (int64_t)((uint64_t)x + (uint64_t)v * (uint64_t)p * (uint64_t)q));
            continue;
        }
        double x = inplace ? cu_ld_f64(o, a.dt[0]) : 0;
        double p = a.n > 1 ? cu_ld_f64(tc_ptr(a, 1, off), a.dt[1]) : 0;
        double q = a.n > 2 ? cu_ld_f64(tc_ptr(a, 2, off), a.dt[2]) : 0;
        cu_st_f64(o, a.dt[0], tc_value(a.op, a.dt[0], x, p, q, a.s));
    }
}

/* One destination slice element per thread: += source over the index, in order.
 * Operand 0: t's slice at row 0; operand 1: source's slice at 0 (broadcast). */
__global__ void tc_index_add_kernel(tc_args a, const char *idx, int idt, int64_t istride,
                                    int64_t n_idx, int64_t t_step, int64_t s_step)
{
    int64_t off[TC_MAX_OPS];
    int isz = cu_size_of(idt);
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        tc_offsets(a, i, off);
        for (int64_t k = 0; k < n_idx; k++) {
            int64_t row = cu_ld_i64(idx + k * istride * isz, idt);
            char *o = a.base[0] + (off[0] + row * t_step) * a.size[0];
            const char *s = a.base[1] + (off[1] + k * s_step) * a.size[1];
            if (a.dt[0] == TL_BOOL)
                cu_st_i64(o, a.dt[0], cu_ld_i64(o, a.dt[0]) || cu_ld_i64(s, a.dt[1]));
            else if (cu_is_integral(a.dt[0]))
                cu_st_i64(o, a.dt[0], (int64_t)((uint64_t)cu_ld_i64(o, a.dt[0]) +
                                                (uint64_t)cu_ld_i64(s, a.dt[1])));
            else if (a.dt[0] == TL_F32)
                *(float *)o = __fadd_rn(*(float *)o, *(const float *)s);
            else
                cu_st_f64(o, a.dt[0], cu_ld_f64(o, a.dt[0]) + cu_ld_f64(s, a.dt[1]));
        }
    }
}

/* -log_softmax of one row at x (n elements, stride step), at k; all of it into o when o. */
__device__ double tc_log_softmax_row(const char *x, int dt, int64_t step, int64_t n, char *o,
                                     int64_t ostep, int64_t k)
{
    int es = cu_size_of(dt);
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; j++) {
        double v = cu_ld_f64(x + j * step * es, dt);
        mx = isnan(v) || v > mx ? v : mx;
    }
    for (int64_t j = 0; j < n; j++)
        sum += exp(cu_ld_f64(x + j * step * es, dt) - mx);
    double lse = log(sum);
    for (int64_t j = 0; o && j < n; j++)
        cu_st_f64(o + j * ostep * es, dt, cu_ld_f64(x + j * step * es, dt) - mx - lse);
    return k >= 0 ? cu_ld_f64(x + k * step * es, dt) - mx - lse : 0;
}

/* Operand 0: out's rows, operand 1: x's rows (the dim removed); n, step: the dim. */
__global__ void tc_log_softmax_kernel(tc_args a, int64_t n, int64_t step, int64_t ostep)
{
    int64_t off[TC_MAX_OPS];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        tc_offsets(a, i, off);
        tc_log_softmax_row(tc_ptr(a, 1, off), a.dt[1], step, n, tc_ptr(a, 0, off), ostep, -1);
    }
}

/* One thread over the targets (operand 1) and the logits' rows (operand 0:
 * the logits without their class dim, of the targets' shape). */
__global__ void tc_cross_entropy_kernel(tc_args a, char *out, int64_t n, int64_t step,
                                        int64_t ignore)
{
    double sum = 0, count = 0;
    int64_t off[TC_MAX_OPS];
    for (int64_t i = 0; i < a.numel; i++) {
        tc_offsets(a, i, off);
        int64_t target = cu_ld_i64(tc_ptr(a, 1, off), a.dt[1]);
        if (target == ignore)
            continue;
        double lp = tc_log_softmax_row(tc_ptr(a, 0, off), a.dt[0], step, n, NULL, 0, target);
        sum -= cu_round_float(lp, a.dt[0]);
        count += 1;
    }
    cu_st_f64(out, a.dt[0], sum / count);
}

/* ---- host side ---- */

static int64_t tc_numel(const mt_layout *l)
{
    int64_t n = 1;
    for (int d = 0; d < l->ndim; d++)
        n *= l->shape[d];
    return n;
}

/* The walk over the shape of ls[0] with the others broadcast to it. */
static void tc_init(tc_args *a, const mt_call *c, int n, const mt_layout *const *ls,
                    void *const *bases)
{
    memset(a, 0, sizeof *a);
    a->nd = ls[0]->ndim;
    memcpy(a->shape, ls[0]->shape, sizeof a->shape);
    a->n = n;
    a->numel = tc_numel(ls[0]);
    a->op = c->op;
    a->s = c->f;
    for (int k = 0; k < n; k++) {
        const mt_layout *l = ls[k];
        a->base[k] = (char *)bases[k];
        a->dt[k] = l->dtype;
        a->size[k] = cu_size_of(l->dtype);
        a->off[k] = l->offset;
        for (int d = 0; d < a->nd; d++) {
            int ld = l->ndim - a->nd + d;
            a->st[k][d] = ld < 0 || (l->shape[ld] == 1 && a->shape[d] != 1) ? 0 : l->strides[ld];
        }
    }
}

static unsigned tc_blocks(int64_t n)
{
    return (unsigned)cu_blocks_for(n, CU_THREADS, cu_max_blocks());
}

/* l with dim removed: its offset kept (the slice at 0); size and stride of dim out. */
static mt_layout tc_drop_dim(const mt_layout *l, int dim, int64_t *size, int64_t *step)
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

static void tc_index_add(const mt_call *c, const rt_buf *out, const rt_buf *in)
{
    int64_t dim = 0, tn, tstep, sn, sstep;
    tc_args a;
    if (c->op == MT_OP_index_add)
        cu_copy(out, &in[0]);
    mt_wrap_dim(c->i[0], in[0].l->ndim, &dim);
    mt_layout ts = tc_drop_dim(out->l, (int)dim, &tn, &tstep);
    mt_layout ss = tc_drop_dim(in[2].l, (int)dim, &sn, &sstep); /* (a 0-d source: itself, step 0) */
    const mt_layout *ls[2] = {&ts, &ss};
    void *bases[2] = {out->base, in[2].base};
    const mt_layout *il = in[1].l;
    int64_t n_idx = tc_numel(il);
    if (n_idx == 0 || tc_numel(&ts) == 0)
        return;
    tc_init(&a, c, 2, ls, bases);
    const char *idx = (const char *)in[1].base + il->offset * cu_size_of(il->dtype);
    tc_index_add_kernel<<<tc_blocks(a.numel), CU_THREADS>>>(a, idx, il->dtype,
                                                            il->ndim ? il->strides[0] : 0, n_idx,
                                                            tstep, sstep);
}

static void tc_log_softmax(const mt_call *c, const rt_buf *out, const rt_buf *x)
{
    int64_t dim = 0, n, step, on, ostep;
    tc_args a;
    mt_wrap_dim(c->i[0], x->l->ndim, &dim);
    mt_layout xr = tc_drop_dim(x->l, (int)dim, &n, &step), orr = tc_drop_dim(out->l, (int)dim, &on, &ostep);
    const mt_layout *ls[2] = {&orr, &xr};
    void *bases[2] = {out->base, x->base};
    tc_init(&a, c, 2, ls, bases);
    tc_log_softmax_kernel<<<tc_blocks(a.numel), CU_THREADS>>>(a, n, step, ostep);
}

static void tc_cross_entropy(const mt_call *c, const rt_buf *out, const rt_buf *x, const rt_buf *t)
{
    tc_args a;
    int64_t n, step;
    mt_layout xr = tc_drop_dim(x->l, x->l->ndim == 1 ? 0 : 1, &n, &step);
    const mt_layout *ls[2] = {&xr, t->l};
    void *bases[2] = {x->base, t->base};
    tc_init(&a, c, 2, ls, bases);
    tc_cross_entropy_kernel<<<1, 1>>>(
        a, (char *)out->base + out->l->offset * cu_size_of(out->l->dtype), n, step, c->i[0]);
}

extern "C" void cu_train(const mt_call *c, const rt_buf *out, int n, const rt_buf *in)
{
    tc_args a;
    if (tc_numel(out->l) == 0)
        return;
    switch (c->op) {
    case MT_OP_index_add: case MT_OP_index_add_: tc_index_add(c, out, in); break;
    case MT_OP_log_softmax: tc_log_softmax(c, out, &in[0]); break;
    case MT_OP_cross_entropy: tc_cross_entropy(c, out, &in[0], &in[1]); break;
    default: {
        bool inplace = c->op != MT_OP_gelu_tanh;
        const mt_layout *ls[TC_MAX_OPS] = {out->l};
        void *bases[TC_MAX_OPS] = {out->base};
        int m = 1;
        for (int k = inplace ? 1 : 0; k < n && m < TC_MAX_OPS; k++, m++)
            ls[m] = in[k].l, bases[m] = in[k].base;
        tc_init(&a, c, m, ls, bases);
        tc_elementwise_kernel<<<tc_blocks(a.numel), CU_THREADS>>>(a, inplace);
        break;
    }
    }
    cu_launched("training op kernel");
}
