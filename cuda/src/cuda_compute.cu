/*
 * cuda_compute.cu: elementwise ops (binary, scalar, unary, in place),
 * reductions (sum, mean) and softmax on the device, with kernel_compute.c's
 * arithmetic: inputs are rounded to the common dtype, computed in its
 * compute type (f32 for f16/bf16/f32, f64, wrapping int64 for integers and
 * bool, where + is or and * is and once stored), rounded once into the
 * output.  A Python scalar is first converted to the output's dtype on the
 * host (rt_store) and read like a 0-dim operand from the kernel's arguments.
 *
 * Elementwise kernels walk cuda_plan.c's iteration plan, one element per
 * thread per step, templated on the compute type and the index width.
 * Reductions and softmax move the dim last and give each row to one thread
 * (rows strided in memory, many of them), one warp (many rows) or one block
 * (few rows); sums accumulate in double (floating results) or wrapping
 * int64, so results agree with the CPU's to rounding, not bit for bit.
 */
#include "cuda_common.cuh"

#include <math.h>

/* ---- elementwise ---- */

typedef struct ew_args {
    cu_plan p;        /* operand 0 written, 1 and 2 read */
    char *base[CU_MAX_OPS];
    int dt[CU_MAX_OPS], size[CU_MAX_OPS];
    int cd;           /* common dtype the inputs are rounded to */
    int op;           /* rt_binop or rt_unop */
    bool scalar;      /* operand 2 is cell, of dtype dt[2] */
    uint64_t cell;    /* the scalar's bits */
} ew_args;

/* One input value in the compute type CT, rounded through cd. */
CU_HD void ew_in(const char *p, int dt, int cd, int64_t *v)
{
    *v = cu_wrap_int(cu_ld_i64(p, dt), cd);
}
CU_HD void ew_in(const char *p, int dt, int cd, float *v)
{
    *v = (float)cu_round_float(cu_ld_f64(p, dt), cd);
}
CU_HD void ew_in(const char *p, int dt, int cd, double *v)
{
    (void)cd;
    *v = cu_ld_f64(p, dt);
}

CU_HD void ew_out(char *p, int dt, int64_t v) { cu_st_i64(p, dt, v); }
CU_HD void ew_out(char *p, int dt, float v) { cu_st_f64(p, dt, v); }
CU_HD void ew_out(char *p, int dt, double v) { cu_st_f64(p, dt, v); }

CU_HD int64_t ew_binop(int op, int64_t x, int64_t y)
{
    uint64_t a = (uint64_t)x, b = (uint64_t)y;
    return (int64_t)(op == RT_ADD ? a + b : op == RT_SUB ? a - b : a * b);
}

template <typename F> CU_HD F ew_binop(int op, F x, F y)
{
    switch (op) {
    case RT_ADD: return x + y;
    case RT_SUB: return x - y;
    case RT_MUL: return x * y;
    default: return x / y;
    }
}

CU_HD int64_t ew_unop(int op, int64_t x)
{
    return op == RT_NEG ? (int64_t)(0 - (uint64_t)x) : x < 0 ? 0 : x;
}
CU_HD float ew_unop(int op, float x)
{
    return op == RT_NEG ? -x : op == RT_EXP ? expf(x) : (x < 0 ? 0.0f : x);
}
CU_HD double ew_unop(int op, double x)
{
    return op == RT_NEG ? -x : op == RT_EXP ? exp(x) : (x < 0 ? 0.0 : x);
}

/* Element i of a binary op; y is the scalar operand's value when a.scalar. */
template <typename CT, typename IDX>
CU_HD void binary_at(const ew_args &a, CT y, IDX i)
{
    int64_t off[3];
    CT x;
    cu_plan_offsets<IDX, 3>(a.p, i, off);
    ew_in(a.base[1] + off[1] * a.size[1], a.dt[1], a.cd, &x);
    if (!a.scalar)
        ew_in(a.base[2] + off[2] * a.size[2], a.dt[2], a.cd, &y);
    ew_out(a.base[0] + off[0] * a.size[0], a.dt[0], ew_binop(a.op, x, y));
}

template <typename CT>
CU_HD CT scalar_of(const ew_args &a)
{
    CT y = 0;
    if (a.scalar)
        ew_in((const char *)&a.cell, a.dt[2], a.cd, &y);
    return y;
}

template <typename CT, typename IDX>
CU_HD void unary_at(const ew_args &a, IDX i)
{
    int64_t off[2];
    CT x;
    cu_plan_offsets<IDX, 2>(a.p, i, off);
    ew_in(a.base[1] + off[1] * a.size[1], a.dt[1], a.cd, &x);
    ew_out(a.base[0] + off[0] * a.size[0], a.dt[0], ew_unop(a.op, x));
}

template <typename CT, typename IDX>
__global__ void binary_kernel(ew_args a)
{
    IDX n = (IDX)a.p.numel, step = (IDX)gridDim.x * blockDim.x;
    CT y = scalar_of<CT>(a);
    for (IDX i = (IDX)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        binary_at<CT, IDX>(a, y, i);
}

template <typename CT, typename IDX>
__global__ void unary_kernel(ew_args a)
{
    IDX n = (IDX)a.p.numel, step = (IDX)gridDim.x * blockDim.x;
    for (IDX i = (IDX)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        unary_at<CT, IDX>(a, i);
}

template <typename CT>
static void launch_ew(const ew_args *a, bool unary)
{
    unsigned grid = cu_grid(a->p.numel);
    bool narrow = cu_plan_fits_i32(&a->p);
    if (unary && narrow)
        unary_kernel<CT, uint32_t><<<grid, CU_THREADS>>>(*a);
    else if (unary)
        unary_kernel<CT, uint64_t><<<grid, CU_THREADS>>>(*a);
    else if (narrow)
        binary_kernel<CT, uint32_t><<<grid, CU_THREADS>>>(*a);
    else
        binary_kernel<CT, uint64_t><<<grid, CU_THREADS>>>(*a);
}

/* The operands of n (out first) into a, and their plan; false when out is empty. */
static bool ew_prepare(ew_args *a, int n, const rt_buf *const *ops)
{
    const mt_layout *ls[CU_MAX_OPS];
    for (int k = 0; k < n; k++) {
        ls[k] = ops[k]->l;
        a->base[k] = (char *)ops[k]->base;
        a->dt[k] = ops[k]->l->dtype;
        a->size[k] = mt_dtype_size(ops[k]->l->dtype);
    }
    return mt_plan_init(&a->p, n, ls);
}

/* Plans over n operands (out first) and launches in cd's compute type. */
static void run_ew(ew_args *a, int n, const rt_buf *const *ops, bool unary)
{
    if (cu_error_pending() || !ew_prepare(a, n, ops))
        return;
    if (a->cd == TL_F16 || a->cd == TL_BF16 || a->cd == TL_F32)
        launch_ew<float>(a, unary);
    else if (a->cd == TL_F64)
        launch_ew<double>(a, unary);
    else
        launch_ew<int64_t>(a, unary);
    cu_launched(unary ? "unary kernel" : "binary kernel");
}

static void binary_with(rt_binop op, const rt_buf *out, const rt_buf *a, const rt_buf *b, int cd)
{
    ew_args args = {};
    const rt_buf *ops[3] = {out, a, b};
    args.cd = cd, args.op = op;
    run_ew(&args, 3, ops, false);
}

void cu_binary(rt_binop op, const rt_buf *out, const rt_buf *a, const rt_buf *b)
{
    binary_with(op, out, a, b, out->l->dtype);
}

/* s becomes a 0-dim value of the output's dtype (rt_binary_scalar's rule). */
void cu_binary_scalar(rt_binop op, const rt_buf *out, const rt_buf *a, double s)
{
    ew_args args = {};
    const rt_buf *ops[2] = {out, a};
    args.cd = out->l->dtype, args.op = op, args.scalar = true;
    args.dt[2] = out->l->dtype;
    rt_store(out->l->dtype, &args.cell, s);
    run_ew(&args, 2, ops, false);
}

void cu_unary(rt_unop op, const rt_buf *out, const rt_buf *a)
{
    ew_args args = {};
    const rt_buf *ops[2] = {out, a};
    args.cd = out->l->dtype, args.op = op;
    run_ew(&args, 2, ops, true);
}

/* In place, computed in the promoted dtype and rounded into t's once. */
void cu_binary_inplace(rt_binop op, const rt_buf *t, const rt_buf *other)
{
    const mt_layout *ls[2] = {t->l, other->l};
    binary_with(op, t, t, other, mt_result_type(2, ls));
}

void cu_mul_scalar_inplace(const rt_buf *t, double s)
{
    cu_binary_scalar(RT_MUL, t, t, s);
}

/* ---- rows: shared by reductions and softmax ---- */

/* Rows of length n along the moved dim; the plan walks the other dims of
 * operand 0 (out) and 1 (a), rows start at their offsets. */
typedef struct row_args {
    cu_plan p;
    char *out;
    const char *a;
    int odt, adt, osize, asize;
    int64_t n;            /* elements per row */
    int64_t ors, ars;     /* strides along the row, elements (out's 0 for a reduction) */
    int op;               /* rt_redop */
} row_args;

/* Sum of v over a group of G threads (1, a warp, or the 256-thread block);
 * every thread of the group gets the result. */
template <int G, typename V>
__device__ __forceinline__ V group_sum(V v, V *sh)
{
    if constexpr (G > 1) {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    if constexpr (G > 32) {
        __syncthreads(); /* sh may still be read from the last call */
        if ((threadIdx.x & 31) == 0)
            sh[threadIdx.x / 32] = v;
        __syncthreads();
        v = sh[0];
        for (int k = 1; k < G / 32; k++)
            v += sh[k];
    }
    return v;
}

/* Max of v over the group (a NaN is never chosen, as in the CPU's loop). */
template <int G, typename V>
__device__ __forceinline__ V group_max(V v, V *sh)
{
    if constexpr (G > 1) {
        for (int o = 16; o > 0; o >>= 1) {
            V w = __shfl_xor_sync(0xffffffffu, v, o);
            v = w > v ? w : v;
        }
    }
    if constexpr (G > 32) {
        __syncthreads();
        if ((threadIdx.x & 31) == 0)
            sh[threadIdx.x / 32] = v;
        __syncthreads();
        v = sh[0];
        for (int k = 1; k < G / 32; k++)
            v = sh[k] > v ? sh[k] : v;
    }
    return v;
}

/* The row this group handles first, the step between its rows, and its lane. */
template <int G>
__device__ __forceinline__ void group_place(int64_t *row, int64_t *step, int *lane)
{
    int per_block = CU_THREADS / G;
    *row = (int64_t)blockIdx.x * per_block + threadIdx.x / G;
    *step = (int64_t)gridDim.x * per_block;
    *lane = (int)(threadIdx.x % G);
}

/* mean = sum(out dtype) / n(out dtype), divided in out's compute type. */
CU_HD double mean_of(int odt, double sum, int64_t n)
{
    double s = cu_round_float(sum, odt), d = cu_round_float((double)n, odt);
    return odt == TL_F64 ? s / d : (double)((float)s / (float)d);
}

/* A lane's part of a row's sum: elements lane, lane + g, ... (off: the row's offsets). */
CU_HD double row_part_f(const row_args &a, const int64_t *off, int lane, int g)
{
    double s = 0;
    for (int64_t l = lane; l < a.n; l += g)
        s += cu_ld_f64(a.a + (off[1] + l * a.ars) * a.asize, a.adt);
    return s;
}

CU_HD unsigned long long row_part_i(const row_args &a, const int64_t *off, int lane, int g)
{
    unsigned long long s = 0;
    for (int64_t l = lane; l < a.n; l += g)
        s += (unsigned long long)cu_ld_i64(a.a + (off[1] + l * a.ars) * a.asize, a.adt);
    return s;
}

CU_HD void reduce_store_f(const row_args &a, const int64_t *off, double s)
{
    cu_st_f64(a.out + off[0] * a.osize, a.odt, a.op == RT_MEAN ? mean_of(a.odt, s, a.n) : s);
}

CU_HD void reduce_store_i(const row_args &a, const int64_t *off, unsigned long long s)
{
    cu_st_i64(a.out + off[0] * a.osize, a.odt, (int64_t)s);
}

template <int G>
__global__ void __launch_bounds__(CU_THREADS) reduce_float(row_args a)
{
    __shared__ double sh[CU_THREADS / 32];
    int64_t row, step;
    int lane;
    group_place<G>(&row, &step, &lane);
    for (; row < a.p.numel; row += step) { /* uniform across a group: G divides the block */
        int64_t off[2];
        cu_plan_offsets<int64_t, 2>(a.p, row, off);
        double s = group_sum<G>(row_part_f(a, off, lane, G), sh);
        if (lane == 0)
            reduce_store_f(a, off, s);
    }
}

template <int G>
__global__ void __launch_bounds__(CU_THREADS) reduce_int(row_args a)
{
    __shared__ unsigned long long sh[CU_THREADS / 32];
    int64_t row, step;
    int lane;
    group_place<G>(&row, &step, &lane);
    for (; row < a.p.numel; row += step) {
        int64_t off[2];
        cu_plan_offsets<int64_t, 2>(a.p, row, off);
        unsigned long long s = group_sum<G>(row_part_i(a, off, lane, G), sh);
        if (lane == 0)
            reduce_store_i(a, off, s);
    }
}

/* Thread per row when rows are many and strided (neighbouring threads then
 * read neighbouring elements), a warp per row when rows are many, else a block. */
static int group_for(const row_args *a)
{
    if (a->ars != 1 && a->p.numel >= 1024)
        return 1;
    return a->p.numel >= 64 ? 32 : CU_THREADS;
}

static unsigned grid_for_rows(int64_t rows, int g)
{
    return (unsigned)cu_blocks_for(rows, CU_THREADS / g, cu_max_blocks());
}

template <int G>
static void launch_reduce(const row_args *a, bool floating)
{
    unsigned grid = grid_for_rows(a->p.numel, G);
    if (floating)
        reduce_float<G><<<grid, CU_THREADS>>>(*a);
    else
        reduce_int<G><<<grid, CU_THREADS>>>(*a);
}

/* out's layout with dim moved last (keepdim) or a stride-0 unit dim appended. */
static mt_layout reduce_out_layout(const mt_layout *out, int dim, bool keepdim)
{
    if (keepdim)
        return cu_dim_last(out, dim);
    mt_layout r = *out;
    r.shape[r.ndim] = 1, r.strides[r.ndim] = 0, r.ndim++;
    return r;
}

/* Plans the rows of al (dim last) and ol (unit last dim) into a. */
static bool plan_rows(row_args *a, const mt_layout *ol, const mt_layout *al)
{
    mt_layout oo = *ol, ao = *al;
    oo.ndim--, ao.ndim--;
    const mt_layout *ls[2] = {&oo, &ao};
    a->n = al->shape[al->ndim - 1];
    a->ars = al->strides[al->ndim - 1], a->ors = ol->strides[ol->ndim - 1];
    a->odt = ol->dtype, a->adt = al->dtype;
    a->osize = mt_dtype_size(ol->dtype), a->asize = mt_dtype_size(al->dtype);
    return mt_plan_init(&a->p, 2, ls);
}

/* The rows of a reduction (a->l->ndim > 0, reduced dim non-empty). */
static bool reduce_prepare(row_args *args, rt_redop op, const rt_buf *out, const rt_buf *a,
                           int dim, bool keepdim)
{
    mt_layout al = cu_dim_last(a->l, dim), ol = reduce_out_layout(out->l, dim, keepdim);
    *args = (row_args){};
    args->out = (char *)out->base, args->a = (const char *)a->base, args->op = op;
    return plan_rows(args, &ol, &al);
}

void cu_reduce(rt_redop op, const rt_buf *out, const rt_buf *a, int dim, bool keepdim)
{
    if (cu_error_pending() || mt_numel(out->l) == 0)
        return;
    if (a->l->ndim == 0) {
        cu_copy(out, a); /* a 0-dim tensor reduces to itself */
        return;
    }
    if (a->l->shape[dim] == 0) {
        cu_fill(out, op == RT_SUM ? 0.0 : NAN);
        return;
    }
    row_args args;
    if (!reduce_prepare(&args, op, out, a, dim, keepdim))
        return;
    bool floating = mt_is_floating(out->l->dtype);
    switch (group_for(&args)) {
    case 1: launch_reduce<1>(&args, floating); break;
    case 32: launch_reduce<32>(&args, floating); break;
    default: launch_reduce<CU_THREADS>(&args, floating); break;
    }
    cu_launched("reduction kernel");
}

/* ---- softmax ---- */

/* Softmax's three passes over a row, a lane's share each (elements lane, lane + g ...). */
template <typename CT>
CU_HD CT softmax_x(const row_args &a, const int64_t *off, int64_t l)
{
    return (CT)cu_ld_f64(a.a + (off[1] + l * a.ars) * a.asize, a.adt);
}

template <typename CT>
CU_HD CT softmax_part_max(const row_args &a, const int64_t *off, int lane, int g)
{
    CT m = -INFINITY;
    for (int64_t l = lane; l < a.n; l += g) {
        CT v = softmax_x<CT>(a, off, l);
        m = v > m ? v : m;
    }
    return m;
}

template <typename CT>
CU_HD double softmax_part_sum(const row_args &a, const int64_t *off, CT m, int lane, int g)
{
    double s = 0;
    for (int64_t l = lane; l < a.n; l += g)
        s += (double)ew_unop(RT_EXP, (CT)(softmax_x<CT>(a, off, l) - m));
    return s;
}

template <typename CT>
CU_HD void softmax_part_write(const row_args &a, const int64_t *off, CT m, double s, int lane,
                              int g)
{
    CT inv = (CT)1 / (CT)s;
    for (int64_t l = lane; l < a.n; l += g) {
        CT e = ew_unop(RT_EXP, (CT)(softmax_x<CT>(a, off, l) - m));
        cu_st_f64(a.out + (off[0] + l * a.ors) * a.osize, a.odt, (double)(e * inv));
    }
}

/* Max, sum of exp(x - max) in double, then exp(x - max) * (1 / sum) in CT. */
template <typename CT, int G>
__global__ void __launch_bounds__(CU_THREADS) softmax_kernel(row_args a)
{
    __shared__ CT shm[CU_THREADS / 32];
    __shared__ double shs[CU_THREADS / 32];
    int64_t row, step;
    int lane;
    group_place<G>(&row, &step, &lane);
    for (; row < a.p.numel; row += step) {
        int64_t off[2];
        cu_plan_offsets<int64_t, 2>(a.p, row, off);
        CT m = group_max<G>(softmax_part_max<CT>(a, off, lane, G), shm);
        double s = group_sum<G>(softmax_part_sum<CT>(a, off, m, lane, G), shs);
        softmax_part_write<CT>(a, off, m, s, lane, G);
    }
}

template <typename CT>
static void launch_softmax(const row_args *a)
{
    int g = group_for(a);
    unsigned grid = grid_for_rows(a->p.numel, g);
    if (g == 1)
        softmax_kernel<CT, 1><<<grid, CU_THREADS>>>(*a);
    else if (g == 32)
        softmax_kernel<CT, 32><<<grid, CU_THREADS>>>(*a);
    else
        softmax_kernel<CT, CU_THREADS><<<grid, CU_THREADS>>>(*a);
}

static bool softmax_prepare(row_args *args, const rt_buf *out, const rt_buf *a, int dim)
{
    mt_layout al = cu_dim_last(a->l, a->l->ndim ? dim : 0);
    mt_layout ol = cu_dim_last(out->l, out->l->ndim ? dim : 0);
    *args = (row_args){};
    args->out = (char *)out->base, args->a = (const char *)a->base;
    return plan_rows(args, &ol, &al);
}

void cu_softmax(const rt_buf *out, const rt_buf *a, int dim)
{
    row_args args;
    if (cu_error_pending() || mt_numel(out->l) == 0 || !softmax_prepare(&args, out, a, dim))
        return;
    if (out->l->dtype == TL_F64)
        launch_softmax<double>(&args);
    else
        launch_softmax<float>(&args);
    cu_launched("softmax kernel");
}
