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
    tl_ints shape;
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

static void swap64(int64_t *a, int64_t *b)
{
    int64_t t = *a;
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
        swap64(&out.shape[d0], &out.shape[d1]);
        swap64(&out.strides[d0], &out.strides[d1]);
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
        swap64(&out.shape[0], &out.shape[1]);
        swap64(&out.strides[0], &out.strides[1]);
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
static void clamp_slice(int64_t size, int64_t *start, int64_t *end)
{
    int64_t s = *start, e = *end;
    if (s < 0)
        s = s < -size ? 0 : s + size;
    if (e < 0)
        e = e < -size ? 0 : e + size;
    s = s > size ? size : s;
    e = e < s ? s : (e > size ? size : e);
    *start = s;
    *end = e;
}

/* Storage offset + start x stride, the offset of a slice, narrow or select.
 * start <= size, so only start == size, or a tensor with no elements (whose
 * strides and offset a valid layout does not bound), can overflow. */
static bool offset_at(mt_result *r, mt_layout *l, int64_t dim, int64_t start)
{
    int64_t step;
    if (!__builtin_mul_overflow(start, l->strides[dim], &step) &&
        !__builtin_add_overflow(l->offset, step, &l->offset))
        return true;
    mt_fail(r, TL_ERR_OUT_OF_MEMORY, "storage offset %lld + %lld x stride %lld does not fit in "
            "64 bits", (long long)l->offset, (long long)start, (long long)l->strides[dim]);
    return false;
}

/* t[..., start:end:step, ...]: offset += start*stride, size = ceil(len/step),
 * stride *= step.  The size is Python's (PyTorch 1.13 computes len + step - 1,
 * which wraps for a step near 2^63 and gives 0 for what is one element); the
 * stride product overflows only when the size is at most 1, and then wraps
 * as PyTorch's does. */
tl_status mt_slice(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    int64_t dim, start = c->i[1], end = c->i[2], step = c->i[3];
    if (out.ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "slice() cannot be applied to a 0-dim tensor.");
    if (!mt_dim(r, c->i[0], out.ndim, &dim))
        return r->status;
    if (step <= 0)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "slice step must be positive");
    clamp_slice(out.shape[dim], &start, &end);
    if (!offset_at(r, &out, dim, start))
        return r->status;
    out.shape[dim] = end == start ? 0 : (end - start - 1) / step + 1;
    out.strides[dim] = mt_mul_wrap(out.strides[dim], step);
    return mt_view_of(c, r, &out, 0, "slice: offset and stride");
}

/* t.narrow(dim, start, length) == slice(dim, start, start + length). */
tl_status mt_narrow(const mt_call *c, mt_result *r)
{
    mt_layout out = copy_in(c);
    int64_t dim, start = c->i[1], length = c->i[2];
    if (out.ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "narrow() cannot be applied to a 0-dim tensor.");
    if (!mt_dim(r, c->i[0], out.ndim, &dim))
        return r->status;
    int64_t size = out.shape[dim];
    if (start < -size || start > size)
        return mt_fail(r, TL_ERR_BAD_DIM,
                       "start out of range (expected to be in range of [%lld, %lld], but got "
                       "%lld)",
                       (long long)-size, (long long)size, (long long)start);
    if (start < 0)
        start += size;
    if (length < 0)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "narrow(): length must be non-negative.");
    if (start > size - length)
        return mt_fail(r, TL_ERR_BAD_DIM, "start (%lld) + length (%lld) exceeds dimension size "
                       "(%lld).", (long long)start, (long long)length, (long long)size);
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
    int64_t dim, index = c->i[1];
    char buf[160];
    if (out.ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "select() cannot be applied to a 0-dim tensor.");
    if (!mt_dim(r, c->i[0], out.ndim, &dim))
        return r->status;
    int64_t size = out.shape[dim];
    if (index < -size || index >= size)
        return mt_fail(r, TL_ERR_BAD_DIM,
                       "select(): index %lld out of range for tensor of size %s at dimension %lld",
                       (long long)index, mt_shape_str(buf, sizeof buf, out.ndim, out.shape),
                       (long long)dim);
    if (index < 0)
        index += size;
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
    out.shape[dim] = 1;
    out.strides[dim] = dim >= out.ndim ? 1 : mt_mul_wrap(out.shape[dim + 1], out.strides[dim + 1]);
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
    if (out.ndim > 0 && out.shape[dim] == 1)
        remove_dim(&out, (int)dim);
    return mt_view_of(c, r, &out, 0, "squeeze: size-1 dim removed");
}

static tl_status expand_error(mt_result *r, const mt_layout *in, const tl_ints *s, int i,
                              int64_t size)
{
    char a[160], b[160];
    return mt_fail(r, TL_ERR_SHAPE_MISMATCH,
                   "The expanded size of the tensor (%lld) must match the existing size (%lld) "
                   "at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                   (long long)s->v[i], (long long)size, i, mt_shape_str(a, sizeof a, s->n, s->v),
                   mt_shape_str(b, sizeof b, in->ndim, in->shape));
}

/* inferExpandGeometry: right-align; size-1 dims broadcast with stride 0; -1 keeps a size. */
tl_status mt_expand(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    const tl_ints *s = &c->s[0];
    mt_layout out = *in;
    if (s->n < in->ndim)
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH,
                       "expand: the number of sizes provided (%d) must be greater or equal to "
                       "the number of dimensions in the tensor (%d)", s->n, in->ndim);
    out.ndim = s->n;
    for (int i = s->n - 1; i >= 0; i--) {
        int dim = in->ndim - s->n + i;
        int64_t size = dim >= 0 ? in->shape[dim] : 1;
        int64_t stride = dim >= 0 ? in->strides[dim]
                       : (i + 1 < s->n ? mt_mul_wrap(out.shape[i + 1], out.strides[i + 1]) : 0);
        int64_t target = s->v[i];
        if (target == -1) {
            if (dim < 0)
                return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "The expanded size of the tensor (-1) "
                               "isn't allowed in a leading, non-existing dimension %d", i);
            target = size;
        }
        if (target < 0)
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "expand: invalid size %lld", (long long)target);
        if (size != target) {
            if (size != 1)
                return expand_error(r, in, s, i, size);
            stride = 0;
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
    char a[160], b[160];
    if (c->s[0].n != c->s[1].n)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "mismatch in length of strides and shape");
    if (c->s[0].n < 0 || c->s[0].n > TL_MAX_DIMS)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "a tensor has 0 to %d dims, not %d", TL_MAX_DIMS,
                       c->s[0].n);
    for (int d = 0; d < c->s[0].n; d++)
        if (c->s[0].v[d] < 0)
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "as_strided: negative size %lld",
                           (long long)c->s[0].v[d]);
    for (int d = 0; d < c->s[1].n; d++)
        if (c->s[1].v[d] < 0)
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "as_strided: Negative strides are not "
                           "supported at the moment, got strides: %s",
                           mt_shape_str(a, sizeof a, c->s[1].n, c->s[1].v));
    if (c->i[0] < 0)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "Tensor: invalid storage offset %lld",
                       (long long)c->i[0]);
    out.ndim = c->s[0].n;
    for (int d = 0; d < out.ndim; d++) {
        out.shape[d] = c->s[0].v[d];
        out.strides[d] = c->s[1].v[d];
    }
    out.offset = c->i[0];
    int64_t need;
    if (mt_check_layout(r, &out, false) != TL_OK || !mt_layout_reach(&out, &need))
        return r->status;
    if (need > out.storage_nbytes)
        return mt_fail(r, TL_ERR_INVALID_VIEW, "setStorage: sizes %s, strides %s, storage offset "
                       "%lld, and itemsize %d requiring a storage size of %lld are out of bounds "
                       "for storage of size %lld", mt_shape_str(a, sizeof a, out.ndim, out.shape),
                       mt_shape_str(b, sizeof b, out.ndim, out.strides), (long long)out.offset,
                       mt_dtype_size(out.dtype), (long long)need, (long long)out.storage_nbytes);
    return mt_view_of(c, r, &out, 0, "as_strided: layout given");
}
