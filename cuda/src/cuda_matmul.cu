/*
 * cuda_matmul.cu: matmul on the device, with torch.matmul's batching as
 * cuda_plan.c plans it (cu_mm_plan_make).
 *
 * Floating dtypes go through cublasGemmStridedBatchedEx: f32 in f32 (no
 * TF32, PyTorch's default for matmul), f64 in f64, f16 and bf16 with f32
 * accumulation and one rounding on the store (the CPU kernel's choice).
 * cuBLAS is column-major, the tensors are row-major: C = A B is computed as
 * C^T = B^T A^T, a row-major [K, N] slice being cuBLAS's [N, K] with the same
 * leading dimension (a transposed operand is passed with CUBLAS_OP_T).  The
 * innermost merged batch dim is cuBLAS's batch (stride 0 where an operand is
 * broadcast); outer batch dims loop on the host.  An operand whose strides
 * give cuBLAS no leading dimension is first packed into scratch memory.
 * Integers and bool use a direct kernel with exact wrapping int64 sums.
 */
#include "cuda_common.cuh"

#include <limits.h>

/* ---- integers ---- */

typedef struct imm_args {
    cu_mm_plan mp;
    char *c;
    const char *a, *b;
    int cdt, adt, bdt, cs, as, bs;
} imm_args;

/* Offsets of batch b (row-major over the plan's batch dims) for c, a, b. */
CU_HD void batch_offsets(const cu_mm_plan &mp, int64_t b, int64_t *off)
{
    off[0] = mp.c.offset, off[1] = mp.a.offset, off[2] = mp.b.offset;
    for (int d = mp.nbd - 1; d >= 0; d--) {
        int64_t i = b % mp.bshape[d];
        b /= mp.bshape[d];
        for (int k = 0; k < CU_MAX_OPS; k++)
            off[k] += i * mp.bst[k][d];
    }
}

/* Output element i (row-major over batch, row, column). */
CU_HD void int_matmul_at(const imm_args &a, int64_t i)
{
    const cu_mm_plan &mp = a.mp;
    int64_t col = i % mp.n, row = i / mp.n % mp.m, off[3];
    batch_offsets(mp, i / (mp.n * mp.m), off);
    uint64_t acc = 0;
    for (int64_t l = 0; l < mp.k; l++) {
        int64_t x = cu_ld_i64(a.a + (off[1] + row * mp.a.rs + l * mp.a.cs) * a.as, a.adt);
        int64_t y = cu_ld_i64(a.b + (off[2] + l * mp.b.rs + col * mp.b.cs) * a.bs, a.bdt);
        acc += (uint64_t)x * (uint64_t)y;
    }
    cu_st_i64(a.c + (off[0] + row * mp.c.rs + col * mp.c.cs) * a.cs, a.cdt, (int64_t)acc);
}

__global__ void int_matmul_kernel(imm_args a)
{
    const cu_mm_plan &mp = a.mp;
    int64_t n = mp.n_batch * mp.m * mp.n, step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        int_matmul_at(a, i);
}

static void int_matmul(const cu_mm_plan *mp, const rt_buf *out, const rt_buf *a, const rt_buf *b)
{
    imm_args args = {*mp, (char *)out->base, (const char *)a->base, (const char *)b->base,
                     out->l->dtype, a->l->dtype, b->l->dtype, mt_dtype_size(out->l->dtype),
                     mt_dtype_size(a->l->dtype), mt_dtype_size(b->l->dtype)};
    int_matmul_kernel<<<cu_grid(mp->n_batch * mp->m * mp->n), CU_THREADS>>>(args);
    cu_launched("integer matmul kernel");
}

/* ---- cuBLAS ---- */

typedef struct blas_types {
    cudaDataType data;
    cublasComputeType_t compute;
    bool f64;
} blas_types;

static bool blas_types_of(tl_dtype dt, blas_types *bt)
{
    switch (dt) {
    case TL_F16: *bt = (blas_types){CUDA_R_16F, CUBLAS_COMPUTE_32F, false}; return true;
    case TL_BF16: *bt = (blas_types){CUDA_R_16BF, CUBLAS_COMPUTE_32F, false}; return true;
    case TL_F32: *bt = (blas_types){CUDA_R_32F, CUBLAS_COMPUTE_32F, false}; return true;
    case TL_F64: *bt = (blas_types){CUDA_R_64F, CUBLAS_COMPUTE_64F, true}; return true;
    default: return false;
    }
}

/* One strided-batched call: count products of c/a/b slices at the given element offsets. */
typedef struct gemm_call {
    const cu_mm_plan *mp;
    blas_types bt;
    int esize;
    char *c;
    const char *a, *b;
    int count;
    int64_t sc, sa, sb; /* batch strides, elements */
} gemm_call;

static bool gemm_one(const gemm_call *g, const int64_t *off)
{
    const cu_mm_plan *mp = g->mp;
    const float one_f = 1.0f, zero_f = 0.0f;
    const double one_d = 1.0, zero_d = 0.0;
    const void *one = g->bt.f64 ? (const void *)&one_d : (const void *)&one_f;
    const void *zero = g->bt.f64 ? (const void *)&zero_d : (const void *)&zero_f;
    cublasHandle_t h = cu_blas();
    if (!h)
        return false;
    /* C^T [n, m] = op(B^T) [n, k] op(A^T) [k, m], column-major */
    cublasStatus_t s = cu_blas_gemm_strided_batched(
        h, mp->b.trans ? CUBLAS_OP_T : CUBLAS_OP_N, mp->a.trans ? CUBLAS_OP_T : CUBLAS_OP_N,
        (int)mp->n, (int)mp->m, (int)mp->k, one, g->b + off[2] * g->esize, g->bt.data,
        (int)mp->b.ld, g->sb, g->a + off[1] * g->esize, g->bt.data, (int)mp->a.ld, g->sa, zero,
        g->c + off[0] * g->esize, g->bt.data, (int)mp->c.ld, g->sc, g->count, g->bt.compute);
    return cu_blas_ok(s, "cublasGemmStridedBatchedEx");
}

static bool fits_blas(const cu_mm_plan *mp)
{
    int64_t inner = mp->nbd > 0 ? mp->bshape[mp->nbd - 1] : 1;
    return mp->m <= INT_MAX && mp->n <= INT_MAX && mp->k <= INT_MAX && inner <= INT_MAX &&
           mp->a.ld <= INT_MAX && mp->b.ld <= INT_MAX && mp->c.ld <= INT_MAX;
}

static void gemm_batches(const cu_mm_plan *mp, tl_dtype dt, const rt_buf *c, const rt_buf *a,
                         const rt_buf *b)
{
    gemm_call g = {mp, {}, mt_dtype_size(dt), (char *)c->base, (const char *)a->base,
                   (const char *)b->base, 1, 0, 0, 0};
    blas_types_of(dt, &g.bt);
    if (!fits_blas(mp)) {
        cu_fail(TL_ERR_DEVICE, "matmul", "a dimension exceeds cuBLAS's int range");
        return;
    }
    int outer_dims = mp->nbd > 0 ? mp->nbd - 1 : 0;
    if (mp->nbd > 0) {
        int last = mp->nbd - 1;
        g.count = (int)mp->bshape[last];
        g.sc = mp->bst[0][last], g.sa = mp->bst[1][last], g.sb = mp->bst[2][last];
    }
    int64_t n_outer = mp->n_batch / g.count;
    for (int64_t ob = 0; ob < n_outer; ob++) {
        int64_t off[3] = {mp->c.offset, mp->a.offset, mp->b.offset}, rest = ob;
        for (int d = outer_dims - 1; d >= 0; d--) {
            int64_t i = rest % mp->bshape[d];
            rest /= mp->bshape[d];
            for (int k = 0; k < CU_MAX_OPS; k++)
                off[k] += i * mp->bst[k][d];
        }
        if (!gemm_one(&g, off))
            return;
    }
}

/* A contiguous copy of b in scratch memory; *l gets its layout. */
static void *pack(const rt_buf *b, mt_layout *l)
{
    *l = *b->l;
    l->offset = 0;
    mt_contiguous_strides(l->ndim, l->shape, l->strides);
    l->storage_nbytes = mt_nbytes(l);
    void *p = cu_scratch_new(l->storage_nbytes);
    rt_buf pb = {l, p};
    if (p)
        cu_copy(&pb, b);
    return p;
}

/* Operands cuBLAS cannot read in place are packed, and the plan redone. */
static void blas_matmul(cu_mm_plan *mp, const rt_buf *out, const rt_buf *a, const rt_buf *b)
{
    mt_layout la, lb, lc;
    rt_buf pa = *a, pb = *b, pc = *out;
    void *sa = NULL, *sb = NULL, *sc = NULL;
    if (!mp->a.blas_ok && (sa = pack(a, &la)))
        pa = (rt_buf){&la, sa};
    if (!mp->b.blas_ok && (sb = pack(b, &lb)))
        pb = (rt_buf){&lb, sb};
    if (!mp->c.blas_ok && (sc = pack(out, &lc)))
        pc = (rt_buf){&lc, sc};
    if (!cu_error_pending() && cu_mm_plan_make(mp, pc.l, pa.l, pb.l, true))
        gemm_batches(mp, out->l->dtype, &pc, &pa, &pb);
    if (sc)
        cu_copy(out, &pc);
    cu_scratch_free(sa);
    cu_scratch_free(sb);
    cu_scratch_free(sc);
}

void cu_matmul(const rt_buf *out, const rt_buf *a, const rt_buf *b)
{
    blas_types bt;
    bool blas = blas_types_of(out->l->dtype, &bt) && a->l->dtype == out->l->dtype &&
                b->l->dtype == out->l->dtype;
    cu_mm_plan mp;
    if (cu_error_pending() || !cu_mm_plan_make(&mp, out->l, a->l, b->l, blas))
        return;
    if (mp.k == 0)
        cu_fill(out, 0.0);
    else if (blas)
        blas_matmul(&mp, out, a, b);
    else
        int_matmul(&mp, out, a, b);
}
