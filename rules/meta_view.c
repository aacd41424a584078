/*
 * meta_view.c: the view ops.  Each rewrites shape, strides and offset over
 * the input's storage and never allocates (ATen/native/TensorShape.cpp).
 * The result's msg says what the view did, for the report's reason column.
 */
#include "meta_impl.h"

static mt_layout copy_in(const mt_call *c) { return *c->in[0]; }

/* t.view(shape): infer one -1, then computeStride must succeed. */
tl_status mt_view(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    mt_ints shape;
    char msg[MT_MSG_MAX];
    tl_status st = mt_infer_size(&c->s[0], mt_numel(c->in[0]), &shape, msg);
    if (st != TL_OK)
        return mt_fail(r, st, "%s", msg);
    if (!mt_compute_stride(c->in[0]->ndim, c->in[0]->shape, c->in[0]->strides, shape.n, shape.v,
                           out.strides))
        return mt_fail(r, TL_ERR_INVALID_VIEW,
                       "view size is not compatible with input tensor's size and stride (at "
                       "least one dimension spans across two contiguous subspaces). Use "
                       ".reshape(...) instead.");
    out.ndim = shape.n;
    for (int d = 0; d < shape.n; d++)
        out.shape[d] = shape.v[d];
    return mt_view_of(c, r, &out, 0, "view: strides merge");
}

static void swap_mi(mt_int *a, mt_int *b)
{
    mt_int t = *a;
    *a = *b;
    *b = t;
}

/* t.transpose(d0, d1): swap two sizes and their strides. */
tl_status mt_transpose(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    int64_t d0, d1;
    if (!mt_dim(r, c->i[0], out.ndim, &d0) || !mt_dim(r, c->i[1], out.ndim, &d1))
        return r->status;
    if (out.ndim > 0) {
        swap_mi(&out.shape[d0], &out.shape[d1]);
        swap_mi(&out.strides[d0], &out.strides[d1]);
    }
    return mt_view_of(c, r, &out, 0, "transpose: strides swapped");
}

/* t.t(): transpose(0, 1) for ndim 2, the tensor itself for ndim < 2. */
tl_status mt_t(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    if (out.ndim > 2)
        return mt_fail(r, TL_ERR_BAD_DIM,
                       "t() expects a tensor with <= 2 dimensions, but self is %dD", out.ndim);
    if (out.ndim == 2) {
        swap_mi(&out.shape[0], &out.shape[1]);
        swap_mi(&out.strides[0], &out.strides[1]);
    }
    return mt_view_of(c, r, &out, 0, "t: strides swapped");
}

/* t.permute(dims): one entry per dim, no repeats. */
tl_status mt_permute(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    mt_layout out = *in;
    bool seen[TL_MAX_DIMS] = {false};
    if (c->s[0].n != in->ndim)
        return mt_fail(r, TL_ERR_BAD_DIM,
                       "permute(sparse_coo): number of dimensions in the tensor input does not "
                       "match the length of the desired ordering of dimensions i.e. input.dim() "
                       "= %d is not equal to len(dims) = %d",
                       in->ndim, c->s[0].n);
    for (int k = 0; k < in->ndim; k++) {
        int64_t d;
        if (!mt_dim(r, c->s[0].v[k], in->ndim, &d))
            return r->status;
        if (seen[d])
            return mt_fail(r, TL_ERR_BAD_DIM, "permute(): duplicate dims are not allowed.");
        seen[d] = true;
        out.shape[k] = in->shape[d];
        out.strides[k] = in->strides[d];
    }
    return mt_view_of(c, r, &out, 0, "permute: strides reordered");
}

/* Python slice clamping of [start, end) to [0, size]. */
static void clamp_slice(mt_int size, mt_int *start, mt_int *end)
{
    mt_int s = *start, e = *end;
    if (mi_lt(s, 0))
        s = mi_lt(s, mi_sub(0, size)) ? mi_c(0) : mi_add(s, size);
    if (mi_lt(e, 0))
        e = mi_lt(e, mi_sub(0, size)) ? mi_c(0) : mi_add(e, size);
    s = mi_gt(s, size) ? size : s;
    e = mi_lt(e, s) ? s : (mi_gt(e, size) ? size : e);
    *start = s;
    *end = e;
}

/* Storage offset + start x stride, the offset of a slice, narrow or select.
 * start <= size, so only start == size, or a tensor with no elements (whose
 * strides and offset a valid layout does not bound), can overflow. */
static bool offset_at(mt_result *r, mt_layout *l, int64_t dim, mt_int start)
{
    mt_int step;
    char a[64], b[64], s[64];
    if (mi_mul_ovf(start, l->strides[dim], &step) && mi_add_ovf(l->offset, step, &l->offset))
        return true;
    mt_fail(r, TL_ERR_OUT_OF_MEMORY, "storage offset %s + %s x stride %s does not fit in 64 bits",
            mi_str(l->offset, a, sizeof a), mi_str(start, b, sizeof b),
            mi_str(l->strides[dim], s, sizeof s));
    return false;
}

/* t[..., start:end:step, ...]: offset += start*stride, size = ceil(len/step),
 * stride *= step.  The size is Python's (PyTorch 1.13 computes len + step - 1,
 * which wraps for a step near 2^63 and gives 0 for what is one element); the
 * stride product overflows only when the size is at most 1, and then wraps
 * as PyTorch's does.  Start and end may be symbolic (clamped by comparisons);
 * the step must be known, as the symbolic domain has no ceiling division by
 * a symbol whose sign is not known. */
tl_status mt_slice(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    mt_int start = c->i[1], end = c->i[2];
    int64_t dim, step;
    if (out.ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "slice() cannot be applied to a 0-dim tensor.");
    if (!mt_dim(r, c->i[0], out.ndim, &dim))
        return r->status;
    if (!mt_known(r, c->i[3], "the slice step", &step))
        return r->status;
    if (step <= 0)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "slice step must be positive");
    clamp_slice(out.shape[dim], &start, &end);
    if (!offset_at(r, &out, dim, start))
        return r->status;
    out.shape[dim] = mi_eq(end, start) ? mi_c(0)
                   : mi_add(mi_div(mi_sub(mi_sub(end, start), 1), step), 1);
    out.strides[dim] = mt_mul_wrap(out.strides[dim], step);
    return mt_view_of(c, r, &out, 0, "slice: offset and stride");
}

/* t.narrow(dim, start, length) == slice(dim, start, start + length). */
tl_status mt_narrow(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    mt_int start = c->i[1], length = c->i[2];
    int64_t dim;
    char a[64], b[64], z[64];
    if (out.ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "narrow() cannot be applied to a 0-dim tensor.");
    if (!mt_dim(r, c->i[0], out.ndim, &dim))
        return r->status;
    mt_int size = out.shape[dim];
    if (mi_lt(start, mi_sub(0, size)) || mi_gt(start, size))
        return mt_fail(r, TL_ERR_BAD_DIM,
                       "start out of range (expected to be in range of [%s, %s], but got %s)",
                       mi_str(mi_sub(0, size), a, sizeof a), mi_str(size, z, sizeof z),
                       mi_str(start, b, sizeof b));
    if (mi_lt(start, 0))
        start = mi_add(start, size);
    if (mi_lt(length, 0))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "narrow(): length must be non-negative.");
    if (mi_gt(start, mi_sub(size, length)))
        return mt_fail(r, TL_ERR_BAD_DIM, "start (%s) + length (%s) exceeds dimension size "
                       "(%s).", mi_str(start, a, sizeof a), mi_str(length, b, sizeof b),
                       mi_str(size, z, sizeof z));
    if (!offset_at(r, &out, dim, start))
        return r->status;
    out.shape[dim] = length;
    return mt_view_of(c, r, &out, 0, "narrow: offset and size");
}

static void remove_dim(mt_layout *l, int dim)
{
    for (int d = dim; d < l->ndim - 1; d++) {
        l->shape[d] = l->shape[d + 1];
        l->strides[d] = l->strides[d + 1];
    }
    l->ndim--;
}

/* t.select(dim, index): offset += index*stride, dim removed. */
tl_status mt_select(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    mt_int index = c->i[1];
    int64_t dim;
    char buf[160], ib[64];
    if (out.ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "select() cannot be applied to a 0-dim tensor.");
    if (!mt_dim(r, c->i[0], out.ndim, &dim))
        return r->status;
    mt_int size = out.shape[dim];
    if (mi_lt(index, mi_sub(0, size)) || mi_ge(index, size))
        return mt_fail(r, TL_ERR_BAD_DIM,
                       "select(): index %s out of range for tensor of size %s at dimension %lld",
                       mi_str(index, ib, sizeof ib),
                       mt_shape_str(buf, sizeof buf, out.ndim, out.shape), (long long)dim);
    if (mi_lt(index, 0))
        index = mi_add(index, size);
    if (!offset_at(r, &out, dim, index)) /* an empty tensor's strides are unbounded */
        return r->status;
    remove_dim(&out, (int)dim);
    return mt_view_of(c, r, &out, 0, "select: offset, dim removed");
}

/* t.unsqueeze(dim): a size-1 dim whose stride is size*stride of the dim it precedes. */
tl_status mt_unsqueeze(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    int64_t dim;
    if (out.ndim >= TL_MAX_DIMS)
        return mt_fail(r, TL_ERR_BAD_DIM, "unsqueeze(): a tensor has at most %d dims",
                       TL_MAX_DIMS);
    if (!mt_dim(r, c->i[0], out.ndim + 1, &dim))
        return r->status;
    for (int d = out.ndim; d > dim; d--) {
        out.shape[d] = out.shape[d - 1];
        out.strides[d] = out.strides[d - 1];
    }
    out.shape[dim] = mi_c(1);
    out.strides[dim] = dim >= out.ndim ? mi_c(1)
                     : mt_mul_wrap(out.shape[dim + 1], out.strides[dim + 1]);
    out.ndim++;
    return mt_view_of(c, r, &out, 0, "unsqueeze: size-1 dim added");
}

/* t.squeeze(dim): removes dim when its size is 1, else the same layout. */
tl_status mt_squeeze(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    int64_t dim;
    if (!mt_dim(r, c->i[0], out.ndim, &dim))
        return r->status;
    if (out.ndim > 0 && mi_eq(out.shape[dim], 1))
        remove_dim(&out, (int)dim);
    return mt_view_of(c, r, &out, 0, "squeeze: size-1 dim removed");
}

static tl_status expand_error(mt_result *r, const mt_layout *in, const mt_ints *s, int i,
                              mt_int size)
{
    char a[160], b[160], t[64], z[64];
    return mt_fail(r, TL_ERR_SHAPE_MISMATCH,
                   "The expanded size of the tensor (%s) must match the existing size (%s) "
                   "at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                   mi_str(s->v[i], t, sizeof t), mi_str(size, z, sizeof z), i,
                   mt_shape_str(a, sizeof a, s->n, s->v),
                   mt_shape_str(b, sizeof b, in->ndim, in->shape));
}

/* inferExpandGeometry: right-align; size-1 dims broadcast with stride 0; -1 keeps a size. */
tl_status mt_expand(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    const mt_ints *s = &c->s[0];
    mt_layout out = *in;
    char tb[64];
    if (s->n < in->ndim)
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH,
                       "expand: the number of sizes provided (%d) must be greater or equal to "
                       "the number of dimensions in the tensor (%d)", s->n, in->ndim);
    out.ndim = s->n;
    for (int i = s->n - 1; i >= 0; i--) {
        int dim = in->ndim - s->n + i;
        mt_int size = dim >= 0 ? in->shape[dim] : mi_c(1);
        mt_int stride = dim >= 0 ? in->strides[dim]
                      : (i + 1 < s->n ? mt_mul_wrap(out.shape[i + 1], out.strides[i + 1])
                                      : mi_c(0));
        mt_int target = s->v[i];
        if (mi_eq(target, -1)) {
            if (dim < 0)
                return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "The expanded size of the tensor (-1) "
                               "isn't allowed in a leading, non-existing dimension %d", i);
            target = size;
        }
        if (mi_lt(target, 0))
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "expand: invalid size %s",
                           mi_str(target, tb, sizeof tb));
        if (mi_ne(size, target)) {
            if (mi_ne(size, 1))
                return expand_error(r, in, s, i, size);
            stride = mi_c(0);
        }
        out.shape[i] = target;
        out.strides[i] = stride;
    }
    return mt_view_of(c, r, &out, 0, "expand: stride 0 on broadcast dims");
}

/* t.as_strided(shape, strides, offset): any layout that stays inside the storage. */
tl_status mt_as_strided(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    char a[160], b[160], n1[64], n2[64], n3[64];
    if (c->s[0].n != c->s[1].n)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "mismatch in length of strides and shape");
    if (c->s[0].n < 0 || c->s[0].n > TL_MAX_DIMS)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "a tensor has 0 to %d dims, not %d", TL_MAX_DIMS,
                       c->s[0].n);
    for (int d = 0; d < c->s[0].n; d++)
        if (mi_lt(c->s[0].v[d], 0))
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "as_strided: negative size %s",
                           mi_str(c->s[0].v[d], n1, sizeof n1));
    for (int d = 0; d < c->s[1].n; d++)
        if (mi_lt(c->s[1].v[d], 0))
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "as_strided: Negative strides are not "
                           "supported at the moment, got strides: %s",
                           mt_shape_str(a, sizeof a, c->s[1].n, c->s[1].v));
    if (mi_lt(c->i[0], 0))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "Tensor: invalid storage offset %s",
                       mi_str(c->i[0], n1, sizeof n1));
    out.ndim = c->s[0].n;
    for (int d = 0; d < out.ndim; d++) {
        out.shape[d] = c->s[0].v[d];
        out.strides[d] = c->s[1].v[d];
    }
    out.offset = c->i[0];
    mt_int need;
    if (mt_check_layout(r, &out, false) != TL_OK || !mt_layout_reach(&out, &need))
        return r->status;
    if (mi_gt(need, out.storage_nbytes))
        return mt_fail(r, TL_ERR_INVALID_VIEW, "setStorage: sizes %s, strides %s, storage offset "
                       "%s, and itemsize %d requiring a storage size of %s are out of bounds "
                       "for storage of size %s", mt_shape_str(a, sizeof a, out.ndim, out.shape),
                       mt_shape_str(b, sizeof b, out.ndim, out.strides),
                       mi_str(out.offset, n1, sizeof n1), mt_dtype_size(out.dtype),
                       mi_str(need, n2, sizeof n2), mi_str(out.storage_nbytes, n3, sizeof n3));
    return mt_view_of(c, r, &out, 0, "as_strided: layout given");
}
