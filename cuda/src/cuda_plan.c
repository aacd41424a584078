/*
 * cuda_plan.c: the host-side decisions of the CUDA kernels, as pure
 * functions over layouts (no CUDA calls, so the unit tests check them on
 * any machine).
 *
 * The iteration plan is the CPU kernels' (mt_plan, rules/meta_plan.c):
 * operands right-aligned to the output's shape with stride 0 on broadcast
 * dims, size-1 dims dropped, dims sorted by the output's strides (outermost
 * first) and adjacent dims merged where every operand allows.  A device
 * kernel then maps a linear index to offsets with one division per plan dim;
 * after merging, a contiguous copy is one dim and needs none.
 *
 * The copy path is chosen from the plan: one memcpy, a vectorized contiguous
 * cast, a shared-memory tiled transpose (the output is dense along one dim,
 * the input along another), or the general strided loop.  The matmul plan
 * reproduces kernel_matmul.c's batching for cuBLAS: 1-D operands become a
 * row or a column, batch dims broadcast with stride 0 and are merged, and
 * each operand is read in place when its strides give cuBLAS a leading
 * dimension (a row-major [M, K] slice is cuBLAS's column-major [K, M]).
 */
#include "cuda_rt.h"

#include <limits.h>
#include <string.h>

enum { TILE_MIN_ELEMS = 1024 }; /* smallest tile plane worth the transpose kernel */

bool cu_plan_dense(const cu_plan *p, int k)
{
    return p->numel == 1 || (p->nd == 1 && p->st[k][0] == 1);
}

bool cu_plan_fits_i32(const cu_plan *p)
{
    if (p->numel > INT32_MAX)
        return false;
    for (int o = 0; o < p->n_ops; o++) {
        int64_t hi = p->offset[o], lo = p->offset[o];
        for (int d = 0; d < p->nd; d++) {
            int64_t span = (p->shape[d] - 1) * p->st[o][d];
            hi += span > 0 ? span : 0;
            lo += span < 0 ? span : 0;
        }
        if (hi > INT32_MAX || lo < INT32_MIN)
            return false;
    }
    return true;
}

/* src right-aligned broadcasts to dst's shape. */
static bool broadcasts(const mt_layout *src, const mt_layout *dst)
{
    if (src->ndim > dst->ndim)
        return false;
    for (int i = 0; i < src->ndim; i++) {
        int64_t s = src->shape[src->ndim - 1 - i], d = dst->shape[dst->ndim - 1 - i];
        if (s != d && s != 1)
            return false;
    }
    return true;
}

/* The innermost plan dim (other than the last) where src has stride 1, or -1. */
static int src_dense_dim(const cu_plan *p)
{
    for (int j = p->nd - 2; j >= 0; j--)
        if (p->st[1][j] == 1)
            return j;
    return -1;
}

bool cu_copy_plan_make(cu_copy_plan *cp, const mt_layout *dst, const mt_layout *src)
{
    const mt_layout *ls[2] = {dst, src};
    memset(cp, 0, sizeof *cp);
    if (mt_numel(dst) == 0)
        return false;
    if (!broadcasts(src, dst)) {
        cp->path = CU_COPY_RESHAPE;
        return true;
    }
    mt_plan_init(&cp->p, 2, ls);
    const cu_plan *p = &cp->p;
    if (cu_plan_dense(p, 0) && cu_plan_dense(p, 1)) {
        cp->path = dst->dtype == src->dtype ? CU_COPY_MEMCPY : CU_COPY_CONTIG;
        return true;
    }
    int j = p->nd >= 2 && p->st[0][p->nd - 1] == 1 && p->st[1][p->nd - 1] != 1 ? src_dense_dim(p)
                                                                                : -1;
    if (j >= 0 && dst->dtype == src->dtype && p->shape[j] * p->shape[p->nd - 1] >= TILE_MIN_ELEMS) {
        cp->path = CU_COPY_TRANSPOSE;
        cp->tile_dim = j;
        return true;
    }
    cp->path = CU_COPY_STRIDED;
    return true;
}

int64_t cu_blocks_for(int64_t n, int64_t per_block, int64_t max_blocks)
{
    int64_t b = per_block > 0 ? (n + per_block - 1) / per_block : 1;
    if (b > max_blocks)
        b = max_blocks;
    return b < 1 ? 1 : b;
}

mt_layout cu_dim_last(const mt_layout *l, int dim)
{
    mt_layout r = *l;
    if (l->ndim == 0) {
        r.ndim = 1, r.shape[0] = 1, r.strides[0] = 1;
        return r;
    }
    for (int d = dim; d < l->ndim - 1; d++)
        r.shape[d] = l->shape[d + 1], r.strides[d] = l->strides[d + 1];
    r.shape[l->ndim - 1] = l->shape[dim], r.strides[l->ndim - 1] = l->strides[dim];
    return r;
}

/* ---- matmul ---- */

/* l with a size-1 dim (stride 0) inserted at index at. */
static mt_layout insert_unit(const mt_layout *l, int at)
{
    mt_layout r = *l;
    for (int d = l->ndim; d > at; d--)
        r.shape[d] = l->shape[d - 1], r.strides[d] = l->strides[d - 1];
    r.shape[at] = 1, r.strides[at] = 0, r.ndim = l->ndim + 1;
    return r;
}

/* How cuBLAS reads the last two dims of l in place (kernel_matmul.c's view_of).
 * The stride of a size-1 dim is never used: it is set to whatever makes the
 * operand readable (a row or a column with any stride needs no packing). */
static cu_mm_operand operand_of(const mt_layout *l, bool blas_dtype)
{
    int n = l->ndim;
    cu_mm_operand m = {l->shape[n - 2], l->shape[n - 1], l->strides[n - 2], l->strides[n - 1],
                       l->offset, false, false, 0};
    int64_t min_row = m.cols > 1 ? m.cols : 1, min_col = m.rows > 1 ? m.rows : 1;
    if (m.cols == 1)
        m.cs = 1;
    if (m.rows == 1)
        m.rs = m.cs == 1 ? min_row : 1;
    if (!blas_dtype || m.rows > INT_MAX || m.cols > INT_MAX)
        return m;
    if (m.cs == 1 && (m.rows == 1 || m.rs >= min_row))
        m.blas_ok = true, m.ld = m.rows == 1 ? min_row : m.rs;
    else if (m.rs == 1 && (m.cols == 1 || m.cs >= min_col))
        m.blas_ok = true, m.trans = true, m.ld = m.cols == 1 ? min_col : m.cs;
    m.blas_ok = m.blas_ok && m.ld <= INT_MAX;
    return m;
}

/* Batch strides of l right-aligned to nbd batch dims. */
static void batch_strides(const mt_layout *l, int nbd, int64_t *st)
{
    int lbd = l->ndim - 2;
    for (int i = 0; i < nbd; i++) {
        int j = i - (nbd - lbd);
        st[i] = (j >= 0 && l->shape[j] != 1) ? l->strides[j] : 0;
    }
}

/* Drop size-1 batch dims, merge dims that every operand walks evenly. */
static void batch_coalesce(cu_mm_plan *mp)
{
    int k = 0;
    for (int i = 0; i < mp->nbd; i++) {
        if (mp->bshape[i] == 1)
            continue;
        bool merge = k > 0;
        for (int o = 0; o < CU_MAX_OPS && merge; o++)
            merge = mp->bst[o][k - 1] == mp->bst[o][i] * mp->bshape[i];
        if (merge) {
            mp->bshape[k - 1] *= mp->bshape[i];
            for (int o = 0; o < CU_MAX_OPS; o++)
                mp->bst[o][k - 1] = mp->bst[o][i];
            continue;
        }
        mp->bshape[k] = mp->bshape[i];
        for (int o = 0; o < CU_MAX_OPS; o++)
            mp->bst[o][k] = mp->bst[o][i];
        k++;
    }
    mp->nbd = k;
}

bool cu_mm_plan_make(cu_mm_plan *mp, const mt_layout *out, const mt_layout *a,
                     const mt_layout *b, bool blas_dtype)
{
    mt_layout lc = *out, la = *a, lb = *b;
    memset(mp, 0, sizeof *mp);
    if (b->ndim == 1)
        lc = insert_unit(&lc, lc.ndim), lb = insert_unit(&lb, 1);
    if (a->ndim == 1)
        lc = insert_unit(&lc, lc.ndim - 1), la = insert_unit(&la, 0);
    if (mt_numel(&lc) == 0)
        return false;
    mp->nbd = lc.ndim - 2;
    memcpy(mp->bshape, lc.shape, sizeof(int64_t) * (size_t)mp->nbd);
    batch_strides(&lc, mp->nbd, mp->bst[0]);
    batch_strides(&la, mp->nbd, mp->bst[1]);
    batch_strides(&lb, mp->nbd, mp->bst[2]);
    batch_coalesce(mp);
    mp->n_batch = 1;
    for (int i = 0; i < mp->nbd; i++)
        mp->n_batch *= mp->bshape[i];
    mp->c = operand_of(&lc, blas_dtype), mp->a = operand_of(&la, blas_dtype);
    mp->b = operand_of(&lb, blas_dtype);
    mp->c.blas_ok = mp->c.blas_ok && !mp->c.trans;
    mp->m = mp->c.rows, mp->n = mp->c.cols, mp->k = mp->a.cols;
    return true;
}
