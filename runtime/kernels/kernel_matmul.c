/*
 * kernel_matmul.c: rt_matmul with torch.matmul's shape rules.
 *
 * Every case becomes a batch of 2-D products: a 1-D a is a [1, K] row, a 1-D
 * b a [K, 1] column (the output gains the matching size-1 dim), batch dims
 * are right-aligned to the output's and broadcast with stride 0.  One product
 * C[M, N] = A[M, K] B[K, N] runs in a compute type chosen by the output dtype:
 *   f32, f64     cblas_sgemm / cblas_dgemm (when M or N is 1: f32 through
 *                rt_f32_gemv, kernel_gemv.c; f64 cblas_dgemv); an operand is read in place when
 *                one of its strides is 1 and the other a valid leading
 *                dimension (a transposed operand is passed as Trans), else it
 *                is packed into a dense temporary by rt_copy;
 *   f16, bf16    operands converted to f32, sgemm, one rounding on the store
 *                (PyTorch 1.13 accumulates bf16 in bf16 for small sizes and has
 *                no f16 CPU matmul; f32 accumulation is the accurate choice);
 *   integers     exact i64 loops with wrapping arithmetic, stored with wrap.
 * The output is written in place when BLAS can write it, else through a
 * dense temporary and rt_copy.  Layout decisions are made once, since batch
 * slices only differ by offset.  Temporaries come from one allocation per
 * call, freed before returning; an allocation failure aborts (kernels have no
 * status channel).  Dimensions must fit BLAS's int.
 */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "kernels.h"

/* One 2-D operand: element (i, j) at p + (i*rs + j*cs) * element size. */
typedef struct mat {
    char *p;
    int64_t rows, cols; /* elements */
    int64_t rs, cs;     /* strides, elements */
    tl_dtype dtype;
} mat;

/* How BLAS reads or writes a mat in place. */
typedef struct blas_view {
    bool ok;
    bool trans;  /* stored column-major */
    int64_t ld;  /* leading dimension, elements */
} blas_view;

typedef struct mm_job {
    int nbd;                    /* batch dims */
    int64_t bshape[TL_MAX_DIMS];
    int64_t bst[3][TL_MAX_DIMS]; /* batch strides of c, a, b (0: broadcast) */
    mat c, a, b;                /* batch 0 */
    tl_dtype ct;                /* F32, F64 or I64 */
    blas_view va, vb, vc;
    char *abuf, *bbuf, *cbuf;   /* temporaries, NULL when unused */
} mm_job;

static tl_dtype compute_type(tl_dtype out)
{
    if (mt_is_floating(out))
        return out == TL_F64 ? TL_F64 : TL_F32;
    return TL_I64;
}

static blas_view view_of(const mat *m, tl_dtype ct)
{
    blas_view v = {false, false, 0};
    if (m->dtype != ct || m->rows > INT_MAX || m->cols > INT_MAX)
        return v;
    int64_t min_row = m->cols > 1 ? m->cols : 1, min_col = m->rows > 1 ? m->rows : 1;
    if (m->cs == 1 && (m->rows == 1 || m->rs >= min_row))
        return (blas_view){ct != TL_I64, false, m->rows == 1 ? min_row : m->rs};
    if (m->rs == 1 && (m->cols == 1 || m->cs >= min_col))
        return (blas_view){ct != TL_I64, true, m->cols == 1 ? min_col : m->cs};
    return v;
}

/* l with a size-1 dim (stride 0) inserted at index at. */
static mt_layout insert_unit(const mt_layout *l, int at)
{
    mt_layout r = *l;
    assert(l->ndim < TL_MAX_DIMS);
    for (int d = l->ndim; d > at; d--)
        r.shape[d] = l->shape[d - 1], r.strides[d] = l->strides[d - 1];
    r.shape[at] = 1, r.strides[at] = 0, r.ndim = l->ndim + 1;
    return r;
}

/* The last two dims of l (at least 2-D) as a mat. */
static mat mat_of(const mt_layout *l, void *base)
{
    int n = l->ndim;
    mat m = {(char *)base + l->offset * mt_dtype_size(l->dtype), l->shape[n - 2], l->shape[n - 1],
             l->strides[n - 2], l->strides[n - 1], l->dtype};
    return m;
}

/* Batch strides of l right-aligned to nbd batch dims of shape bshape. */
static void batch_strides(const mt_layout *l, int nbd, const int64_t *bshape, int64_t *st)
{
    int lbd = l->ndim - 2;
    for (int i = 0; i < nbd; i++) {
        int j = i - (nbd - lbd);
        st[i] = (j >= 0 && l->shape[j] != 1) ? l->strides[j] : 0;
        assert(j < 0 || l->shape[j] == 1 || l->shape[j] == bshape[i]);
        (void)bshape;
    }
}

/* Shapes, strides and in-place decisions; false when the output is empty. */
static bool job_init(mm_job *j, const rt_buf *out, const rt_buf *a, const rt_buf *b,
                     mt_layout ls[3])
{
    ls[0] = *out->l, ls[1] = *a->l, ls[2] = *b->l;
    if (b->l->ndim == 1)
        ls[0] = insert_unit(&ls[0], ls[0].ndim), ls[2] = insert_unit(&ls[2], 1);
    if (a->l->ndim == 1)
        ls[0] = insert_unit(&ls[0], ls[0].ndim - 1), ls[1] = insert_unit(&ls[1], 0);
    if (mt_numel(&ls[0]) == 0)
        return false;
    j->nbd = ls[0].ndim - 2;
    memcpy(j->bshape, ls[0].shape, sizeof(int64_t) * (size_t)j->nbd);
    for (int k = 0; k < 3; k++)
        batch_strides(&ls[k], j->nbd, j->bshape, j->bst[k]);
    j->c = mat_of(&ls[0], out->base), j->a = mat_of(&ls[1], a->base);
    j->b = mat_of(&ls[2], b->base);
    assert(j->a.cols == j->b.rows && j->c.rows == j->a.rows && j->c.cols == j->b.cols);
    j->ct = compute_type(out->l->dtype);
    j->va = view_of(&j->a, j->ct), j->vb = view_of(&j->b, j->ct), j->vc = view_of(&j->c, j->ct);
    j->vc.ok = j->vc.ok && !j->vc.trans;
    return true;
}

/* One allocation for the temporaries the decisions above need; NULL when
 * out of memory (rt_scratch_new). */
static void *job_alloc(mm_job *j)
{
    int64_t sz = mt_dtype_size(j->ct), m = j->c.rows, k = j->a.cols, n = j->c.cols;
    int64_t na = j->va.ok ? 0 : m * k, nb = j->vb.ok ? 0 : k * n, nc = j->vc.ok ? 0 : m * n;
    char *mem = rt_scratch_new((size_t)((na + nb + nc) * sz), "malloc (matmul scratch)");
    if (!mem)
        return NULL;
    j->abuf = na ? mem : NULL;
    j->bbuf = nb ? mem + na * sz : NULL;
    j->cbuf = nc ? mem + (na + nb) * sz : NULL;
    return mem;
}

/* dst = src element by element (rt_copy converts, gathers and scatters). */
static void copy_mat(const mat *dst, const mat *src)
{
    mt_layout dl = {.ndim = 2, .shape = {dst->rows, dst->cols}, .strides = {dst->rs, dst->cs},
                    .dtype = dst->dtype};
    mt_layout sl = {.ndim = 2, .shape = {src->rows, src->cols}, .strides = {src->rs, src->cs},
                    .dtype = src->dtype};
    rt_buf d = {&dl, dst->p}, s = {&sl, src->p};
    rt_copy(&d, &s);
}

/* A dense row-major ct mat of m's shape in buf. */
static mat dense_mat(const mat *m, tl_dtype ct, void *buf)
{
    return (mat){buf, m->rows, m->cols, m->cols, 1, ct};
}

static blas_view dense_view(const mat *m)
{
    return (blas_view){true, false, m->cols > 1 ? m->cols : 1};
}

/* c = a b with exact wrapping int64 arithmetic (dense row-major operands). */
static void gemm_i64(const mat *c, const mat *a, const mat *b)
{
    int64_t *cp = (int64_t *)(void *)c->p;
    const int64_t *ap = (const int64_t *)(const void *)a->p, *bp = (const int64_t *)(const void *)b->p;
    int64_t m = c->rows, n = c->cols, k = a->cols;
    memset(cp, 0, (size_t)(m * n) * sizeof *cp);
    for (int64_t i = 0; i < m; i++)
        for (int64_t l = 0; l < k; l++) {
            uint64_t x = (uint64_t)ap[i * k + l];
            for (int64_t jj = 0; jj < n; jj++)
                cp[i * n + jj] = (int64_t)((uint64_t)cp[i * n + jj] + x * (uint64_t)bp[l * n + jj]);
        }
}

/* Element stride of row i (col) or column j (!col) of a one-column or one-row view. */
static int vec_inc(blas_view v, bool col)
{
    return (int)(col != v.trans ? v.ld : 1);
}

/* y = op(M) x with gemv: M (stored rows x cols, row-major with ld, or
 * column-major when trans) times a vector. */
static void gemv_blas(tl_dtype dt, const mat *m, blas_view vm, bool trans_m, const char *x, int incx,
                      char *y, int incy)
{
    bool t = vm.trans != trans_m; /* row-major view of the stored matrix */
    int rows = (int)(vm.trans ? m->cols : m->rows), cols = (int)(vm.trans ? m->rows : m->cols);
    enum CBLAS_TRANSPOSE tm = t ? CblasTrans : CblasNoTrans;
    if (dt == TL_F32 && rt_f32_gemv((const float *)(const void *)m->p, rows, cols, vm.ld, t,
                                    (const float *)(const void *)x, incx, (float *)(void *)y, incy))
        return;
    if (dt == TL_F32)
        cblas_sgemv(CblasRowMajor, tm, rows, cols, 1.0f, (const float *)(const void *)m->p,
                    (int)vm.ld, (const float *)(const void *)x, incx, 0.0f, (float *)(void *)y, incy);
    else
        cblas_dgemv(CblasRowMajor, tm, rows, cols, 1.0, (const double *)(const void *)m->p,
                    (int)vm.ld, (const double *)(const void *)x, incx, 0.0, (double *)(void *)y, incy);
}

static void gemm_blas(const mat *c, blas_view vc, const mat *a, blas_view va, const mat *b,
                      blas_view vb)
{
    enum CBLAS_TRANSPOSE ta = va.trans ? CblasTrans : CblasNoTrans;
    enum CBLAS_TRANSPOSE tb = vb.trans ? CblasTrans : CblasNoTrans;
    assert(c->rows <= INT_MAX && c->cols <= INT_MAX && a->cols <= INT_MAX);
    int m = (int)c->rows, n = (int)c->cols, k = (int)a->cols;
    /* a matrix times a vector (a decoder's token step): gemv, which reads the
     * matrix once, where sgemm would first pack it */
    if (n == 1 && m > 1) { /* c[:, 0] = a b[:, 0] */
        gemv_blas(c->dtype, a, va, false, b->p, vec_inc(vb, true), c->p, vec_inc(vc, true));
        return;
    }
    if (m == 1 && n > 1) { /* c[0, :] = b^T a[0, :] */
        gemv_blas(c->dtype, b, vb, true, a->p, vec_inc(va, false), c->p, vec_inc(vc, false));
        return;
    }
    if (c->dtype == TL_F32)
        cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, (const float *)(const void *)a->p,
                    (int)va.ld, (const float *)(const void *)b->p, (int)vb.ld, 0.0f,
                    (float *)(void *)c->p, (int)vc.ld);
    else
        cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, (const double *)(const void *)a->p,
                    (int)va.ld, (const double *)(const void *)b->p, (int)vb.ld, 0.0,
                    (double *)(void *)c->p, (int)vc.ld);
}

/* One product; a, b, c are this batch's slices. */
static void mm_one(const mm_job *j, const mat *c, const mat *a, const mat *b)
{
    mat pa = j->va.ok ? *a : dense_mat(a, j->ct, j->abuf);
    mat pb = j->vb.ok ? *b : dense_mat(b, j->ct, j->bbuf);
    mat pc = j->vc.ok ? *c : dense_mat(c, j->ct, j->cbuf);
    if (!j->va.ok)
        copy_mat(&pa, a);
    if (!j->vb.ok)
        copy_mat(&pb, b);
    blas_view va = j->va.ok ? j->va : dense_view(&pa), vb = j->vb.ok ? j->vb : dense_view(&pb);
    blas_view vc = j->vc.ok ? j->vc : dense_view(&pc);
    if (j->ct == TL_I64)
        gemm_i64(&pc, &pa, &pb);
    else
        gemm_blas(&pc, vc, &pa, va, &pb, vb);
    if (!j->vc.ok)
        copy_mat(c, &pc);
}

static mat at_batch(const mat *m, const int64_t *st, const int64_t *idx, int nbd)
{
    mat r = *m;
    for (int i = 0; i < nbd; i++)
        r.p += idx[i] * st[i] * mt_dtype_size(m->dtype);
    return r;
}

void rt_matmul(const rt_buf *out, const rt_buf *a, const rt_buf *b)
{
    mm_job j;
    mt_layout ls[3];
    if (!job_init(&j, out, a, b, ls))
        return;
    if (j.a.cols == 0) {
        rt_fill(out, 0.0);
        return;
    }
    void *mem = job_alloc(&j);
    if (!mem)
        return;
    int64_t n_batch = 1, idx[TL_MAX_DIMS] = {0};
    for (int i = 0; i < j.nbd; i++)
        n_batch *= j.bshape[i];
    for (int64_t t = 0; t < n_batch; t++) {
        for (int64_t i = j.nbd - 1, r = t; i >= 0; i--)
            idx[i] = r % j.bshape[i], r /= j.bshape[i];
        mat c = at_batch(&j.c, j.bst[0], idx, j.nbd), a2 = at_batch(&j.a, j.bst[1], idx, j.nbd);
        mat b2 = at_batch(&j.b, j.bst[2], idx, j.nbd);
        mm_one(&j, &c, &a2, &b2);
    }
    free(mem);
}
