/*
 * cuda_model.cu: the device kernels of the ops for real models, with
 * kernel_model.c's arithmetic: inputs converted to the op's compute dtype
 * (int64 for integers and bool, exact and wrapping; double for floats,
 * rounded through the compute dtype once), transcendentals in double,
 * results rounded once on store.  So the device agrees with the CPU to the
 * last bit on everything but libm's last ulp.
 *
 * One general kernel shape: a grid-stride loop over the output's elements
 * in row-major order; each thread turns its linear index into a
 * multi-index and reads every operand through its broadcast strides (0
 * where the operand has size 1 or lacks the dim).  Reductions (amax,
 * argmax) give one output element to one thread, which walks the reduced
 * dim.  stack copies each input into its slice of the output with cu_copy.
 * masked_fill reads a mask's first byte per element, as kernel_model.c.
 */
#include "cuda_common.cuh"

#include <math.h>

enum { MD_MAX_OPS = 4 }; /* operand 0 is written, up to 3 read (where) */

typedef struct md_args {
    int nd;
    int64_t shape[TL_MAX_DIMS];               /* the output's, elements */
    int n;                                    /* operands, the output included */
    char *base[MD_MAX_OPS];
    int dt[MD_MAX_OPS], size[MD_MAX_OPS];
    int64_t st[MD_MAX_OPS][TL_MAX_DIMS];      /* broadcast strides, elements */
    int64_t off[MD_MAX_OPS];                  /* storage offsets, elements */
    int64_t numel;
    int op;                                   /* mt_op */
    int cd;                                   /* compute dtype */
    double s;                                 /* the Python scalar, or the fill value */
    int64_t k;                                /* triu/tril diagonal */
} md_args;

/* Offsets of element i (row-major over the output's shape) in every operand. */
__device__ void md_offsets(const md_args &a, int64_t i, int64_t *off, int64_t *pos)
{
    for (int k = 0; k < a.n; k++)
        off[k] = a.off[k];
    for (int d = a.nd - 1; d >= 0; d--) {
        int64_t p = a.shape[d] ? i % a.shape[d] : 0;
        i = a.shape[d] ? i / a.shape[d] : 0;
        pos[d] = p;
        for (int k = 0; k < a.n; k++)
            off[k] += p * a.st[k][d];
    }
}

__device__ char *md_ptr(const md_args &a, int k, const int64_t *off)
{
    return a.base[k] + off[k] * a.size[k];
}

/* Operand k's element converted to the compute dtype: double domain. */
__device__ double md_f(const md_args &a, int k, const int64_t *off)
{
    const char *p = md_ptr(a, k, off);
    double v = cu_is_integral(a.dt[k]) ? (double)cu_ld_i64(p, a.dt[k]) : cu_ld_f64(p, a.dt[k]);
    return cu_round_float(v, a.cd);
}

/* Operand k's element converted to the compute dtype: int64 domain. */
__device__ int64_t md_i(const md_args &a, int k, const int64_t *off)
{
    return cu_wrap_int(cu_ld_i64(md_ptr(a, k, off), a.dt[k]), a.cd);
}

__device__ double md_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

__device__ double md_unary(int op, double v, double s, int cd)
{
    switch (op) {
    case MT_OP_sqrt: return sqrt(v);
    case MT_OP_rsqrt: return 1.0 / sqrt(v);
    case MT_OP_log: return log(v);
    case MT_OP_sin: return sin(v);
    case MT_OP_cos: return cos(v);
    case MT_OP_tanh: return tanh(v);
    case MT_OP_sigmoid: return md_sigmoid(v);
    case MT_OP_silu: return v * md_sigmoid(v);
    case MT_OP_gelu: return 0.5 * v * (1.0 + erf(v * M_SQRT1_2));
    case MT_OP_pow_scalar: return pow(v, s);
    case MT_OP_div_scalar: return v / cu_round_float(s, cd);
    default: return v + cu_round_float(s, cd); /* add_scalar_ */
    }
}

__global__ void md_unary_kernel(md_args a)
{
    int64_t off[MD_MAX_OPS], pos[TL_MAX_DIMS];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        md_offsets(a, i, off, pos);
        cu_st_f64(md_ptr(a, 0, off), a.dt[0], md_unary(a.op, md_f(a, 1, off), a.s, a.cd));
    }
}

/* maximum, minimum (NaN wins), eq, lt, mul_, div_ in the compute dtype. */
__global__ void md_binary_kernel(md_args a)
{
    int64_t off[MD_MAX_OPS], pos[TL_MAX_DIMS];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        md_offsets(a, i, off, pos);
        char *o = md_ptr(a, 0, off);
        if (cu_is_integral(a.cd)) {
            int64_t x = md_i(a, 1, off), y = md_i(a, 2, off);
            int64_t r = a.op == MT_OP_maximum ? (x < y ? y : x)
                      : a.op == MT_OP_minimum ? (y < x ? y : x)
                      : a.op == MT_OP_eq ? x == y
                      : a.op == MT_OP_lt ? x < y
                      : (int64_t)((uint64_t)x * (uint64_t)y); /* mul_ */
            cu_st_i64(o, a.dt[0], r);
            continue;
        }
        double x = md_f(a, 1, off), y = md_f(a, 2, off), r;
        bool nan = isnan(x) || isnan(y);
        switch (a.op) {
        case MT_OP_maximum: r = nan ? NAN : (x < y ? y : x); break;
        case MT_OP_minimum: r = nan ? NAN : (y < x ? y : x); break;
        case MT_OP_eq: cu_st_i64(o, a.dt[0], x == y); continue;
        case MT_OP_lt: cu_st_i64(o, a.dt[0], x < y); continue;
        case MT_OP_mul_: r = x * y; break;
        default: r = x / y; break; /* div_ */
        }
        cu_st_f64(o, a.dt[0], cu_round_float(r, a.cd));
    }
}

/* where (operands cond, a, b) and masked_fill (operands t, mask; a.s the value). */
__global__ void md_select_kernel(md_args a)
{
    int64_t off[MD_MAX_OPS], pos[TL_MAX_DIMS];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        md_offsets(a, i, off, pos);
        char *o = md_ptr(a, 0, off);
        int k;
        if (a.op == MT_OP_where) {
            k = cu_ld_i64(md_ptr(a, 1, off), a.dt[1]) != 0 ? 2 : 3;
        } else if (*(const uint8_t *)md_ptr(a, 2, off) != 0) { /* the mask's first byte */
            if (cu_is_integral(a.dt[0]))
                cu_st_i64(o, a.dt[0], a.dt[0] == TL_BOOL ? a.s != 0 : (int64_t)a.s);
            else
                cu_st_f64(o, a.dt[0], a.s);
            continue;
        } else {
            k = 1;
        }
        if (cu_is_integral(a.cd))
            cu_st_i64(o, a.dt[0], md_i(a, k, off));
        else
            cu_st_f64(o, a.dt[0], md_f(a, k, off));
    }
}

/* triu / tril: out (a copy of the input already) zeroed off the kept triangle. */
__global__ void md_triangle_kernel(md_args a)
{
    int64_t off[MD_MAX_OPS], pos[TL_MAX_DIMS];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        md_offsets(a, i, off, pos);
        int64_t d = pos[a.nd - 1] - pos[a.nd - 2];
        bool keep = a.op == MT_OP_triu ? d >= a.k : d <= a.k;
        if (!keep)
            cu_st_i64(md_ptr(a, 0, off), a.dt[0], 0);
    }
}

/* amax / argmax: operand 0 is the output viewed with the input's dims (the
 * reduced one of size 1, stride 0); a.k is the reduced dim, its size and
 * stride in shape/st of operand 1 are read directly. */
__global__ void md_reduce_kernel(md_args a, int64_t size, int64_t step)
{
    int64_t off[MD_MAX_OPS], pos[TL_MAX_DIMS];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.numel;
         i += (int64_t)gridDim.x * blockDim.x) {
        md_offsets(a, i, off, pos);
        bool integral = cu_is_integral(a.dt[1]);
        const char *p = md_ptr(a, 1, off);
        int64_t bi = integral ? cu_ld_i64(p, a.dt[1]) : 0, arg = 0;
        double bf = integral ? 0 : cu_ld_f64(p, a.dt[1]);
        for (int64_t k = 1; k < size && !(!integral && isnan(bf)); k++) {
            const char *q = p + k * step * a.size[1];
            if (integral) {
                int64_t v = cu_ld_i64(q, a.dt[1]);
                if (bi < v)
                    bi = v, arg = k;
            } else {
                double v = cu_ld_f64(q, a.dt[1]);
                if (isnan(v) || bf < v)
                    bf = v, arg = k;
            }
        }
        char *o = md_ptr(a, 0, off);
        if (a.op == MT_OP_argmax)
            cu_st_i64(o, TL_I64, arg);
        else if (integral)
            cu_st_i64(o, a.dt[0], bi);
        else
            cu_st_f64(o, a.dt[0], bf);
    }
}

/* ---- host side ---- */

static int64_t md_numel(const mt_layout *l)
{
    int64_t n = 1;
    for (int d = 0; d < l->ndim; d++)
        n *= l->shape[d];
    return n;
}

/* The walk over out's shape with the inputs broadcast to it. */
static void md_init(md_args *a, const mt_call *c, const rt_buf *out, int n_in, const rt_buf *in,
                    int cd)
{
    memset(a, 0, sizeof *a);
    a->nd = out->l->ndim;
    memcpy(a->shape, out->l->shape, sizeof a->shape);
    a->n = n_in + 1;
    a->numel = md_numel(out->l);
    a->op = c->op;
    a->cd = cd;
    a->s = c->f;
    a->k = c->i[0];
    for (int k = 0; k < a->n; k++) {
        const rt_buf *b = k == 0 ? out : &in[k - 1];
        const mt_layout *l = b->l;
        a->base[k] = (char *)b->base;
        a->dt[k] = l->dtype;
        a->size[k] = cu_size_of(l->dtype);
        a->off[k] = l->offset;
        for (int d = 0; d < a->nd; d++) {
            int ld = l->ndim - a->nd + d;
            a->st[k][d] = ld < 0 || (l->shape[ld] == 1 && a->shape[d] != 1) ? 0 : l->strides[ld];
        }
    }
}

static unsigned md_blocks(int64_t n)
{
    return (unsigned)cu_blocks_for(n, CU_THREADS, cu_max_blocks());
}

static tl_dtype md_promoted(const rt_buf *x, const rt_buf *y)
{
    const mt_layout *ls[2] = {x->l, y->l};
    return mt_result_type(2, ls);
}

/* amax / argmax of x along dim into out. */
static void md_reduce(const mt_call *c, const rt_buf *out, const rt_buf *x)
{
    int64_t dim = 0;
    int nd = x->l->ndim;
    mt_layout ol = *out->l, xl = *x->l;
    mt_wrap_dim(c->i[0], nd, &dim);
    if (!c->b && nd > 0) { /* out viewed with x's dims: the reduced one of size 1 */
        for (int d = nd - 1; d > dim; d--) {
            ol.shape[d] = ol.shape[d - 1];
            ol.strides[d] = ol.strides[d - 1];
        }
        ol.shape[dim] = 1;
        ol.strides[dim] = 0;
        ol.ndim = nd;
    }
    int64_t size = nd > 0 ? xl.shape[dim] : 1, step = nd > 0 ? xl.strides[dim] : 0;
    if (nd > 0)
        xl.shape[dim] = 1; /* the walk visits each row's first element */
    rt_buf ob = {&ol, out->base}, xb = {&xl, x->base};
    md_args a;
    md_init(&a, c, &ob, 1, &xb, x->l->dtype);
    md_reduce_kernel<<<md_blocks(a.numel), CU_THREADS>>>(a, size, step);
    cu_launched("amax/argmax kernel");
}

/* Each input into out.select(dim, k). */
static void md_stack(const mt_call *c, const rt_buf *out, int n, const rt_buf *in)
{
    int64_t dim = 0;
    mt_wrap_dim(c->i[0], out->l->ndim, &dim);
    for (int k = 0; k < n; k++) {
        mt_layout sl = *out->l;
        sl.offset += k * out->l->strides[dim];
        for (int d = (int)dim; d + 1 < sl.ndim; d++) {
            sl.shape[d] = sl.shape[d + 1];
            sl.strides[d] = sl.strides[d + 1];
        }
        sl.ndim--;
        rt_buf dst = {&sl, out->base};
        if (md_numel(&sl) > 0)
            cu_copy(&dst, &in[k]);
    }
}

extern "C" void cu_train(const mt_call *c, const rt_buf *out, int n, const rt_buf *in);

extern "C" void cu_model(const mt_call *c, const rt_buf *out, int n, const rt_buf *in)
{
    md_args a;
    if (rt_train_op(c->op)) { /* the ops for training: cuda_train.cu */
        cu_train(c, out, n, in);
        return;
    }
    if (md_numel(out->l) == 0)
        return;
    switch (c->op) {
    case MT_OP_max: case MT_OP_argmax: md_reduce(c, out, &in[0]); return;
    case MT_OP_stack: md_stack(c, out, n, in); return;
    case MT_OP_where:
        md_init(&a, c, out, 3, in, out->l->dtype);
        md_select_kernel<<<md_blocks(a.numel), CU_THREADS>>>(a);
        break;
    case MT_OP_masked_fill:
        md_init(&a, c, out, 2, in, out->l->dtype);
        md_select_kernel<<<md_blocks(a.numel), CU_THREADS>>>(a);
        break;
    case MT_OP_triu: case MT_OP_tril:
        cu_copy(out, &in[0]);
        md_init(&a, c, out, 0, in, out->l->dtype);
        md_triangle_kernel<<<md_blocks(a.numel), CU_THREADS>>>(a);
        break;
    case MT_OP_maximum: case MT_OP_minimum:
        md_init(&a, c, out, 2, in, out->l->dtype);
        md_binary_kernel<<<md_blocks(a.numel), CU_THREADS>>>(a);
        break;
    case MT_OP_eq: case MT_OP_lt: case MT_OP_mul_: case MT_OP_div_: {
        tl_dtype cd = md_promoted(&in[0], &in[1]);
        if (c->op == MT_OP_div_ && cu_is_integral(cd))
            cd = TL_F32;
        md_init(&a, c, out, 2, in, cd);
        md_binary_kernel<<<md_blocks(a.numel), CU_THREADS>>>(a);
        break;
    }
    default: /* activations, pow/div by a scalar, add_scalar_ */
        md_init(&a, c, out, 1, in, out->l->dtype);
        md_unary_kernel<<<md_blocks(a.numel), CU_THREADS>>>(a);
        break;
    }
    cu_launched("model op kernel");
}
