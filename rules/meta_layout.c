/*
 * meta_layout.c: predicates and stride rules over one layout, and the
 * shared building blocks of the meta functions.
 *
 * Each function restates one PyTorch rule (c10/core/TensorImpl,
 * ATen/TensorUtils computeStride, ATen/TensorIterator reorder_dimensions,
 * ATen/native/TensorFactories empty_like).  Layouts are plain values; no
 * function here allocates.
 */
#include "meta_impl.h"

#include <stdio.h>

mt_int mt_numel(const mt_layout *l)
{
    mt_int n;
    mt_shape_numel(l->ndim, l->shape, &n);
    return n;
}

mt_int mt_nbytes(const mt_layout *l)
{
    mt_int n;
    mt_shape_nbytes(l->ndim, l->shape, l->dtype, &n);
    return n;
}

/* is_contiguous: row-major strides, ignoring size-1 dims; empty tensors are contiguous. */
bool mt_is_contiguous(const mt_layout *l)
{
    mt_int expected = mi_c(1);
    if (mi_eq(mt_numel(l), 0))
        return true;
    for (int d = l->ndim - 1; d >= 0; d--) {
        /* a size-1 dim's stride is free; the stride is compared first, so
         * that symbolic sizes need no guard where the strides are dense */
        if (mi_ne(l->strides[d], expected) && mi_ne(l->shape[d], 1))
            return false;
        expected = mt_mul_wrap(expected, l->shape[d]); /* a size 1 leaves it */
    }
    return true;
}

/* compute_channels_last_contiguous_2d: dims in order C, W, H, N must be dense. */
bool mt_is_channels_last(const mt_layout *l)
{
    static const int order[4] = {1, 3, 2, 0};
    mt_int expected = mi_c(1);
    if (l->ndim != 4)
        return false;
    for (int k = 0; k < 4; k++) {
        int d = order[k];
        if (mi_ne(l->strides[d], expected) && mi_ne(l->shape[d], 1))
            return false;
        expected = mt_mul_wrap(expected, l->shape[d]);
    }
    return true;
}

bool mt_is_contiguous_format(const mt_layout *l, tl_format f)
{
    return f == TL_CHANNELS_LAST ? mt_is_channels_last(l) : mt_is_contiguous(l);
}

/* compute_non_overlapping_and_dense: sorting dims by stride (size < 2 last),
 * each stride must equal the product of the sizes before it. */
bool mt_is_non_overlapping_and_dense(const mt_layout *l)
{
    int perm[TL_MAX_DIMS];
    int n = l->ndim;
    if (mt_is_contiguous(l) || mt_is_channels_last(l))
        return true; /* TensorImpl: is_contiguous_ || is_channels_last_contiguous_ || ... */
    if (n == 1)
        return mi_lt(l->shape[0], 2) || mi_eq(l->strides[0], 1);
    for (int d = 0; d < n; d++)
        perm[d] = d;
    for (int i = 1; i < n; i++) { /* stable insertion sort */
        for (int j = i; j > 0; j--) {
            int a = perm[j - 1], b = perm[j];
            bool b_first = mi_lt(l->shape[a], 2) ? mi_ge(l->shape[b], 2)
                         : (mi_ge(l->shape[b], 2) && mi_lt(l->strides[b], l->strides[a]));
            if (!b_first)
                break;
            perm[j - 1] = b;
            perm[j] = a;
        }
    }
    mt_int require = mi_c(1);
    for (int k = 0; k < n; k++) {
        int d = perm[k];
        if (mi_lt(l->shape[d], 2))
            return true;
        if (mi_ne(l->strides[d], require))
            return false;
        require = mt_mul_wrap(require, l->shape[d]);
    }
    return true;
}

/* has_internal_overlap == Yes: some dim of size > 1 has stride 0. */
bool mt_has_internal_overlap(const mt_layout *l)
{
    for (int d = 0; d < l->ndim; d++)
        if (mi_gt(l->shape[d], 1) && mi_eq(l->strides[d], 0))
            return true;
    return false;
}

void mt_contiguous_strides(int ndim, const mt_int *shape, mt_int *strides)
{
    mt_int acc = mi_c(1);
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = acc; /* wraps as PyTorch's does, only when a size is 0 */
        acc = mt_mul_wrap(acc, mi_max(shape[d], mi_c(1)));
    }
}

/* get_channels_last_strides_2d: C, W, H, N from the raw sizes (a size-0 dim
 * zeroes the strides after it; no clamping to 1, unlike contiguous strides). */
void mt_channels_last_strides(const mt_int *shape, mt_int *strides)
{
    static const int order[4] = {1, 3, 2, 0};
    mt_int acc = mi_c(1);
    for (int k = 0; k < 4; k++) {
        strides[order[k]] = acc;
        acc = mt_mul_wrap(acc, shape[order[k]]); /* raw sizes, wrapping as PyTorch's int64 */
    }
}

/* is_channels_last_strides_2d_s4: strides increase along C, W, H, N, with
 * the ambiguous N111 and 1C1W cases defaulting to contiguous. */
static bool strides_like_channels_last(const mt_layout *l)
{
    static const int order[4] = {1, 3, 2, 0};
    mt_int min = mi_c(0);
    if (l->ndim != 4 || mi_eq(l->strides[1], 0))
        return false;
    for (int k = 0; k < 4; k++) {
        int d = order[k];
        if (mi_eq(l->shape[d], 0) || mi_lt(l->strides[d], min))
            return false;
        if (d == 0 && mi_eq(min, l->strides[1]))
            return false;
        min = l->strides[d];
        if (mi_gt(l->shape[d], 1))
            min = mt_mul_wrap(min, l->shape[d]);
    }
    return true;
}

tl_format mt_suggest_format(const mt_layout *l)
{
    return strides_like_channels_last(l) ? TL_CHANNELS_LAST : TL_CONTIGUOUS;
}

bool mt_wrap_dim(int64_t dim, int ndim, int64_t *out)
{
    int64_t n = ndim > 0 ? ndim : 1; /* a 0-dim tensor accepts dims -1 and 0 */
    if (dim < -n || dim >= n)
        return false;
    *out = dim < 0 ? dim + n : dim;
    return true;
}

mt_int mt_element_offset(const mt_layout *l, const int64_t *index)
{
    mt_int off = l->offset;
    for (int d = 0; d < l->ndim; d++)
        off = mi_add(off, mi_mul(index[d], l->strides[d]));
    return off;
}

/* computeStride (TensorUtils.cpp): walk the old dims from the innermost,
 * grouping them into chunks that are contiguous with each other; the new
 * shape must split into the same chunks with equal element counts. */
bool mt_compute_stride(int ndim, const mt_int *shape, const mt_int *strides, int new_ndim,
                       const mt_int *newshape, mt_int *newstrides)
{
    mt_int numel;
    mt_shape_numel(ndim, shape, &numel);
    if (ndim == 0) {
        for (int d = 0; d < new_ndim; d++)
            newstrides[d] = mi_c(1);
        return true;
    }
    if (mi_eq(numel, 0)) {
        bool same = ndim == new_ndim;
        for (int d = 0; same && d < ndim; d++)
            same = mi_eq(shape[d], newshape[d]);
        if (same) {
            for (int d = 0; d < ndim; d++)
                newstrides[d] = strides[d];
        } else {
            mt_contiguous_strides(new_ndim, newshape, newstrides);
        }
        return true;
    }
    int vd = new_ndim - 1;
    mt_int base = strides[ndim - 1], tn = mi_c(1), vn = mi_c(1);
    for (int td = ndim - 1; td >= 0; td--) {
        tn = mt_mul_wrap(tn, shape[td]);
        /* the stride first: a dense one needs no guard on a symbolic size */
        bool chunk_ends = td == 0 || (mi_ne(strides[td - 1], mt_mul_wrap(tn, base)) &&
                                      mi_ne(shape[td - 1], 1));
        if (!chunk_ends)
            continue;
        while (vd >= 0 && (mi_lt(vn, tn) || mi_eq(newshape[vd], 1))) {
            newstrides[vd] = mt_mul_wrap(vn, base);
            vn = mt_mul_wrap(vn, newshape[vd]);
            vd--;
        }
        if (mi_ne(vn, tn))
            return false;
        if (td > 0) {
            base = strides[td - 1];
            tn = mi_c(1);
            vn = mi_c(1);
        }
    }
    return vd == -1;
}

/* infer_size: one -1 takes what the others leave of numel.  A bad entry
 * (two -1, a negative size) is TL_ERR_BAD_ARGUMENT; a count that does not
 * multiply out, or whose product overflows (it cannot equal numel then,
 * unless a size is 0), is TL_ERR_SHAPE_MISMATCH. */
tl_status mt_infer_size(const mt_ints *shape, mt_int numel, mt_ints *out, char *msg)
{
    int infer = -1;
    mt_int prod = mi_c(1);
    bool over = false, zero = false;
    char buf[MT_MSG_MAX], nb[64];
    *out = *shape;
    for (int d = 0; d < shape->n; d++) {
        mt_int s = shape->v[d];
        if (mi_eq(s, -1)) {
            if (infer >= 0) {
                snprintf(msg, MT_MSG_MAX, "only one dimension can be inferred");
                return TL_ERR_BAD_ARGUMENT;
            }
            infer = d;
        } else if (mi_lt(s, 0)) {
            snprintf(msg, MT_MSG_MAX, "invalid shape dimension %s", mi_str(s, nb, sizeof nb));
            return TL_ERR_BAD_ARGUMENT;
        } else {
            zero |= mi_eq(s, 0);
            over |= !mi_mul_ovf(prod, s, &prod);
        }
    }
    if (zero)
        prod = mi_c(0), over = false;
    if (!over && infer >= 0 && mi_ne(prod, 0) && mi_eq(mi_mod(numel, prod), 0)) {
        out->v[infer] = mi_div(numel, prod);
        return TL_OK;
    }
    if (!over && infer < 0 && mi_eq(prod, numel))
        return TL_OK;
    snprintf(msg, MT_MSG_MAX, "shape '%s' is invalid for input of size %s",
             mt_shape_str(buf, sizeof buf, shape->n, shape->v), mi_str(numel, nb, sizeof nb));
    return TL_ERR_SHAPE_MISMATCH;
}

/* infer_size for broadcasting: right-align; sizes must match or be 1. */
bool mt_broadcast_shapes(int na, const mt_int *a, int nb, const mt_int *b, int *n_out,
                         mt_int *out)
{
    int n = na > nb ? na : nb;
    for (int k = 0; k < n; k++) {
        int da = na - n + k, db = nb - n + k;
        mt_int sa = da >= 0 ? a[da] : mi_c(1), sb = db >= 0 ? b[db] : mi_c(1);
        if (mi_same(sa, sb) || mi_same(sb, 1)) { /* no guard where the sizes settle it */
            out[k] = sa;
            continue;
        }
        if (mi_same(sa, 1)) {
            out[k] = sb;
            continue;
        }
        if (mi_ne(sa, sb) && mi_ne(sa, 1) && mi_ne(sb, 1))
            return false;
        out[k] = mi_eq(sa, 1) ? sb : sa;
    }
    *n_out = n;
    return true;
}

/* Broadcast strides of op to ndim/shape: stride 0 where op has size 1 and the result does not. */
static void broadcast_strides(const mt_layout *op, int ndim, const mt_int *shape, mt_int *st)
{
    for (int k = 0; k < ndim; k++) {
        int d = op->ndim - ndim + k;
        st[k] = (d < 0 || (!mi_same(op->shape[d], shape[k]) && mi_eq(op->shape[d], 1) &&
                           mi_ne(shape[k], 1)))
                    ? mi_c(0)
                    : op->strides[d];
    }
}

/* reorder_dimensions' comparator: > 0 when dim d0 must come after (be slower than) d1. */
static int should_swap(int n_ops, mt_int st[][TL_MAX_DIMS], const mt_int *shape, int d0,
                       int d1)
{
    for (int k = 0; k < n_ops; k++) {
        mt_int s0 = st[k][d0], s1 = st[k][d1];
        if (mi_eq(s0, 0) || mi_eq(s1, 0))
            continue;
        if (mi_lt(s0, s1))
            return -1;
        if (mi_gt(s0, s1))
            return 1;
        if (mi_gt(shape[d0], shape[d1]))
            return 1;
    }
    return 0;
}

/* Insertion sort of perm (fastest dim first) as in TensorIterator::reorder_dimensions. */
static void sort_perm(int n_ops, mt_int st[][TL_MAX_DIMS], const mt_int *shape, int ndim,
                      int *perm)
{
    for (int d = 0; d < ndim; d++)
        perm[d] = ndim - 1 - d;
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            int c = should_swap(n_ops, st, shape, perm[dim0], perm[dim1]);
            if (c > 0) {
                int tmp = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = tmp;
                dim1 = dim0;
            } else if (c < 0) {
                break;
            }
        }
    }
}

/* Dense strides in perm order (fastest first).  TensorIterator's
 * compatible_stride multiplies by every size as it is (a size-0 dim zeroes
 * the strides after it); infer_dense_strides skips sizes below 2. */
static void dense_strides_in_perm(int ndim, const mt_int *shape, const int *perm, bool raw,
                                  mt_int *out)
{
    mt_int acc = mi_c(1);
    for (int k = 0; k < ndim; k++) {
        out[perm[k]] = acc;
        acc = mt_mul_wrap(acc, raw ? shape[perm[k]] : mi_max(shape[perm[k]], mi_c(1)));
    }
}

/* perm lists the dims fastest first; natural order is ndim-1, ..., 0. */
static bool perm_is_natural(int ndim, const int *perm)
{
    for (int k = 0; k < ndim; k++)
        if (perm[k] != ndim - 1 - k)
            return false;
    return true;
}

static bool same_shape(const mt_layout *l, int ndim, const mt_int *shape)
{
    if (l->ndim != ndim)
        return false;
    for (int d = 0; d < ndim; d++)
        if (mi_ne(l->shape[d], shape[d]))
            return false;
    return true;
}

/* TensorIterator's fast setup: same-shape operands that are all contiguous,
 * all channels-last, or all dense with identical strides give the output that layout. */
static bool iter_fast_strides(int ndim, const mt_int *shape, int n_ops,
                              const mt_layout *const *ops, mt_int *out)
{
    bool all_c = true, all_cl = true, all_same = true;
    for (int k = 0; k < n_ops; k++) {
        if (!same_shape(ops[k], ndim, shape))
            return false;
        all_c = all_c && mt_is_contiguous(ops[k]);
        all_cl = all_cl && mt_is_channels_last(ops[k]);
        all_same = all_same && mt_is_non_overlapping_and_dense(ops[k]);
        for (int d = 0; all_same && d < ndim; d++)
            all_same = mi_eq(ops[k]->strides[d], ops[0]->strides[d]);
    }
    if (all_c) {
        mt_contiguous_strides(ndim, shape, out);
    } else if (all_cl) {
        mt_channels_last_strides(shape, out);
    } else if (all_same) {
        for (int d = 0; d < ndim; d++)
            out[d] = ops[0]->strides[d];
    } else {
        return false;
    }
    return true;
}

void mt_iter_out_strides(int ndim, const mt_int *shape, int n_ops, const mt_layout *const *ops,
                         mt_int *out_strides)
{
    mt_int st[TL_MAX_LIST][TL_MAX_DIMS];
    int perm[TL_MAX_DIMS];
    if (iter_fast_strides(ndim, shape, n_ops, ops, out_strides))
        return;
    for (int k = 0; k < n_ops; k++)
        broadcast_strides(ops[k], ndim, shape, st[k]);
    sort_perm(n_ops, st, shape, ndim, perm);
    if (perm_is_natural(ndim, perm)) /* allocate_or_resize_outputs: "inverted" -> contiguous */
        mt_contiguous_strides(ndim, shape, out_strides);
    else
        dense_strides_in_perm(ndim, shape, perm, true, out_strides);
}

/* infer_dense_strides: sort dims by stride (stride-0 dims ambiguous), then dense. */
static void infer_dense_strides(const mt_layout *l, mt_int *out)
{
    mt_int st[1][TL_MAX_DIMS];
    int perm[TL_MAX_DIMS];
    for (int d = 0; d < l->ndim; d++)
        st[0][d] = l->strides[d];
    sort_perm(1, st, l->shape, l->ndim, perm);
    dense_strides_in_perm(l->ndim, l->shape, perm, false, out);
}

void mt_preserve_strides(const mt_layout *l, mt_int *out_strides)
{
    if (mt_is_non_overlapping_and_dense(l)) {
        for (int d = 0; d < l->ndim; d++)
            out_strides[d] = l->strides[d];
        return;
    }
    infer_dense_strides(l, out_strides);
}
