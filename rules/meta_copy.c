/*
 * meta_copy.c: the ops that view when the stride algebra allows and copy
 * otherwise (reshape, flatten, contiguous, to, to_device, to_format), and
 * the ops that always copy (clone, index, index_select, gather, cat).
 *
 * A copy writes numel x element size bytes into a new dense storage and
 * reads every element of its input once, so bytes moved = read + written.
 * The msg of each result names the reason in the report's words
 * ("reshape copied: dims 0 and 1 do not merge").
 */
#include "meta_impl.h"

#include <string.h>

/* why_no_merge's longest text: three mi_str values of up to 63 characters */
#define MT_WHY_MAX 256

/* Which adjacent dims break the row-major chain, innermost first, for the copy reason. */
static void why_no_merge(const mt_layout *l, char *buf, size_t size)
{
    int inner = -1;
    char a[64], b[64], c[64];
    for (int d = l->ndim - 1; d >= 0; d--) {
        if (mi_eq(l->shape[d], 1))
            continue;
        if (inner >= 0 && mi_ne(l->strides[d], mt_mul_wrap(l->strides[inner], l->shape[inner]))) {
            snprintf(buf, size, "dims %d and %d do not merge (stride %s != %s x %s)", d, inner,
                     mi_str(l->strides[d], a, sizeof a), mi_str(l->strides[inner], b, sizeof b),
                     mi_str(l->shape[inner], c, sizeof c));
            return;
        }
        inner = d;
    }
    snprintf(buf, size, "the innermost dim has stride %s",
             mi_str(inner >= 0 ? l->strides[inner] : mi_c(0), a, sizeof a));
}

/* A dense copy of in with the given shape and strides (dtype/device may change). */
static tl_status copy_to(mt_result *r, const mt_layout *in, int ndim, const mt_int *shape,
                         const mt_int *strides, tl_dtype dtype, tl_device device,
                         const char *reason)
{
    mt_layout out = *in;
    out.ndim = ndim;
    memcpy(out.shape, shape, sizeof(mt_int) * (size_t)ndim);
    memcpy(out.strides, strides, sizeof(mt_int) * (size_t)ndim);
    out.dtype = dtype;
    out.device = device;
    if (mt_check_shape(r, ndim, shape, dtype) != TL_OK)
        return r->status;
    return mt_new_storage(r, &out, mt_nbytes(in), "%s", reason);
}

/* reshape: computeStride gives a view, else _unsafe_view(clone(contiguous)). */
tl_status mt_reshape(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    mt_layout out = *in;
    mt_ints shape;
    char why[MT_WHY_MAX], reason[MT_WHY_MAX + 32], msg[MT_MSG_MAX];
    tl_status st = mt_infer_size(&c->s[0], mt_numel(in), &shape, msg);
    if (st != TL_OK)
        return mt_fail(r, st, "%s", msg);
    out.ndim = shape.n;
    memcpy(out.shape, shape.v, sizeof(mt_int) * (size_t)shape.n);
    if (mt_compute_stride(in->ndim, in->shape, in->strides, shape.n, shape.v, out.strides))
        return mt_view_of(c, r, &out, 0, "reshape: strides merge, no copy");
    mt_contiguous_strides(out.ndim, out.shape, out.strides);
    why_no_merge(in, why, sizeof why);
    snprintf(reason, sizeof reason, "reshape copied: %s", why);
    return copy_to(r, in, out.ndim, out.shape, out.strides, in->dtype, in->device, reason);
}

/* flatten(start, end): the dims start..end merged into one, through reshape. */
tl_status mt_flatten(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    mt_call rc = *c;
    int64_t start, end;
    rc.op = MT_OP_reshape;
    if (in->ndim == 0) {
        rc.s[0].n = 1;
        rc.s[0].v[0] = mi_c(1);
        return mt_reshape(&rc, r);
    }
    if (!mt_dim(r, c->i[0], in->ndim, &start) || !mt_dim(r, c->i[1], in->ndim, &end))
        return r->status;
    if (start > end)
        return mt_fail(r, TL_ERR_BAD_DIM,
                       "flatten() has invalid args: start_dim cannot come after end_dim");
    if (start == end)
        return mt_view_of(c, r, in, 0, "flatten: nothing to merge, no copy");
    rc.s[0].n = 0;
    for (int d = 0; d < in->ndim; d++) {
        if (d > start && d <= end) { /* can overflow only beside a size 0 */
            mt_int *merged = &rc.s[0].v[rc.s[0].n - 1];
            if (!mi_mul_ovf(*merged, in->shape[d], merged))
                return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "numel: integer multiplication overflow");
        } else
            rc.s[0].v[rc.s[0].n++] = in->shape[d];
    }
    tl_status st = mt_reshape(&rc, r);
    if (st == TL_OK && r->kind == MT_KIND_NEW)
        memcpy(r->msg, "flatten", 7); /* "reshape copied: ..." reads "flatten copied: ..." */
    return st;
}

/* contiguous(): the tensor itself when already contiguous, else a row-major copy. */
tl_status mt_contiguous(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    mt_int strides[TL_MAX_DIMS];
    char why[MT_WHY_MAX], reason[MT_WHY_MAX + 32];
    if (mt_is_contiguous(in))
        return mt_view_of(c, r, in, 0, "contiguous: already contiguous, no copy");
    mt_contiguous_strides(in->ndim, in->shape, strides);
    why_no_merge(in, why, sizeof why);
    snprintf(reason, sizeof reason, "contiguous copied: %s", why);
    return copy_to(r, in, in->ndim, in->shape, strides, in->dtype, in->device, reason);
}

/* A preserve_format copy (clone, to, to_device): dense inputs keep their strides. */
static tl_status copy_preserve(mt_result *r, const mt_layout *in, tl_dtype dtype,
                               tl_device device, const char *reason)
{
    mt_int strides[TL_MAX_DIMS];
    mt_preserve_strides(in, strides);
    return copy_to(r, in, in->ndim, in->shape, strides, dtype, device, reason);
}

/* to(dtype): an alias when the dtype is already right, else a preserve_format cast copy. */
tl_status mt_to(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    char reason[96];
    if ((unsigned)c->dtype > TL_F64)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "to(): invalid dtype %d", (int)c->dtype);
    if (in->dtype == c->dtype)
        return mt_view_of(c, r, in, 0, "to: same dtype, no copy");
    snprintf(reason, sizeof reason, "to: cast %s to %s allocates", mt_dtype_name(in->dtype),
             mt_dtype_name(c->dtype));
    return copy_preserve(r, in, c->dtype, in->device, reason);
}

/* to(device): an alias on the same device, else a preserve_format transfer. */
tl_status mt_to_device(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    char reason[96];
    if (c->device != TL_CPU && c->device != TL_CUDA)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "to(): invalid device %d", (int)c->device);
    if (in->device == c->device)
        return mt_view_of(c, r, in, 0, "to_device: same device, no copy");
    snprintf(reason, sizeof reason, "to_device: %s to %s allocates", mt_device_name(in->device),
             mt_device_name(c->device));
    return copy_preserve(r, in, in->dtype, c->device, reason);
}

/* contiguous(memory_format): an alias when already in the format, else a copy into it. */
tl_status mt_to_format(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    mt_int strides[TL_MAX_DIMS];
    if (c->format == TL_CONTIGUOUS) {
        mt_call cc = *c;
        cc.op = MT_OP_contiguous;
        return mt_contiguous(&cc, r);
    }
    if (c->format != TL_CHANNELS_LAST)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "invalid memory format %d", (int)c->format);
    if (in->ndim != 4)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "required rank 4 tensor to use channels_last "
                       "format");
    if (mt_is_channels_last(in))
        return mt_view_of(c, r, in, 0, "to_format: already channels-last, no copy");
    mt_channels_last_strides(in->shape, strides);
    return copy_to(r, in, 4, in->shape, strides, in->dtype, in->device,
                   "to_format: channels-last copy");
}

/* clone(): always a new storage, preserve_format. */
tl_status mt_clone(const mt_call *c, mt_result *r)
{
    return copy_preserve(r, c->in[0], c->in[0]->dtype, c->in[0]->device, "clone allocates");
}

/* a and b on one device. */
static tl_status check_same_device(mt_result *r, const mt_layout *a, const mt_layout *b)
{
    const mt_layout *ops[2] = {a, b};
    return mt_check_same_device(r, 2, ops);
}

/* A new contiguous result of shape, reading `read` bytes. */
static tl_status new_dense(mt_result *r, const mt_layout *like, int ndim, const mt_int *shape,
                           tl_dtype dtype, mt_int read, const char *reason)
{
    mt_layout out;
    if (mt_check_shape(r, ndim, shape, dtype) != TL_OK)
        return r->status;
    mt_layout_dense(&out, ndim, shape, dtype, like->device);
    return mt_new_storage(r, &out, read, "%s", reason);
}

/* t[idx] is AdvancedIndex over TensorIterator: the source restrided to the
 * result's shape (stride 0 on the index dims, its own strides after) and the
 * index viewed as idx.shape + 1s; the output takes the iterator's layout.
 * An index on the other device is first moved to t's (make_info:
 * indices[i].to(self.device()), a preserve_format copy). */
static void index_layout(const mt_layout *t, const mt_layout *idx, mt_layout *out)
{
    mt_layout src = *t, ix = *idx;
    if (idx->device != t->device)
        mt_preserve_strides(idx, ix.strides);
    const mt_layout *ops[2] = {&src, &ix};
    int n = idx->ndim + t->ndim - 1;
    src.ndim = ix.ndim = n;
    for (int d = 0; d < n; d++) {
        bool in_idx = d < idx->ndim;
        src.shape[d] = in_idx ? idx->shape[d] : t->shape[d - idx->ndim + 1];
        src.strides[d] = in_idx ? mi_c(0) : t->strides[d - idx->ndim + 1];
        ix.shape[d] = in_idx ? idx->shape[d] : mi_c(1);
        ix.strides[d] = in_idx ? idx->strides[d] : mi_c(0);
    }
    out->ndim = n;
    for (int d = 0; d < n; d++)
        out->shape[d] = src.shape[d];
    mt_iter_out_strides(n, out->shape, 2, ops, out->strides);
}

/* t[idx]: advanced indexing on dim 0 with an I64 index; shape idx.shape + t.shape[1:]. */
tl_status mt_index(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0], *idx = c->in[1];
    if (idx->dtype == TL_BOOL || idx->dtype == TL_U8)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "tl_index: boolean mask indexing is not "
                       "supported (its shape depends on the data); use an i64 index tensor");
    if (idx->dtype != TL_I64)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH,
                       "tensors used as indices must be long, byte or bool tensors");
    if (t->ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "too many indices for tensor of dimension 0");
    if (idx->ndim + t->ndim - 1 > TL_MAX_DIMS)
        return mt_fail(r, TL_ERR_BAD_DIM, "tl_index: result has more than %d dims", TL_MAX_DIMS);
    mt_layout out = *t; /* on t's device, wherever idx is */
    index_layout(t, idx, &out);
    if (mt_check_shape(r, out.ndim, out.shape, t->dtype) != TL_OK)
        return r->status;
    /* the gathered rows (the result's bytes), then the index, read once or,
     * moved to t's device first, read, written and read again */
    mt_int read = mi_eq(t->shape[0], 0) ? mi_c(0) : mt_nbytes(&out);
    int n_idx_reads = idx->device != t->device ? 3 : 1;
    for (int k = 0; k < n_idx_reads; k++)
        if (!mt_add_bytes(r, &read, mt_nbytes(idx)))
            return r->status;
    if (idx->device != t->device)
        return mt_new_storage(r, &out, read,
                              "index (gather) allocates; the index moves to %s first",
                              mt_device_name(t->device));
    return mt_new_storage(r, &out, read, "index (gather) allocates");
}

/* t.index_select(dim, idx): idx a vector of I64/I32; the dim takes idx.numel entries; a
 * non-empty idx into a dim of size 0 raises (torch 1.13's CPU check). */
tl_status mt_index_select(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0], *idx = c->in[1];
    int64_t dim;
    mt_int shape[TL_MAX_DIMS];
    if (idx->dtype != TL_I64 && idx->dtype != TL_I32)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH,
                       "index_select(): Expected dtype int32 or int64 for index");
    if (idx->ndim > 1)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "index_select(): Index is supposed to be a vector");
    if (!mt_dim(r, c->i[0], t->ndim, &dim) || check_same_device(r, t, idx) != TL_OK)
        return r->status;
    /* an index into a dim of size 0 is out of range whatever its values (a size that is
       only known at run time is left to the run, as the index values are) */
    if (t->ndim > 0 && mi_known(t->shape[dim]) && mi_eq(t->shape[dim], 0) &&
        mi_known(mt_numel(idx)) && mi_gt(mt_numel(idx), 0))
        return mt_fail(r, TL_ERR_BAD_DIM, "%s", t->ndim > 1
                       ? "index_select(): self indexing axis dim should be positive"
                       : "index out of range in self");
    memcpy(shape, t->shape, sizeof shape);
    if (t->ndim > 0)
        shape[dim] = mt_numel(idx);
    /* the selected rows, then the index */
    mt_int row = t->ndim == 0 ? mt_nbytes(t) : mi_eq(mt_numel(t), 0) ? mi_c(0)
               : mi_div(mt_nbytes(t), t->shape[dim]), read;
    if (mt_check_shape(r, t->ndim, shape, t->dtype) != TL_OK)
        return r->status;
    if (!mi_mul_ovf(row, mt_numel(idx), &read))
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "the bytes this call reads do not fit in 64 bits");
    if (!mt_add_bytes(r, &read, mt_nbytes(idx)))
        return r->status;
    return new_dense(r, t, t->ndim, shape, t->dtype, read, "index_select allocates");
}

/* torch.gather(t, dim, idx): out has idx's shape; idx.size(d) <= t.size(d) off dim. */
tl_status mt_gather(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0], *idx = c->in[1];
    int64_t dim;
    char a[160], b[160];
    if (idx->dtype != TL_I64)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "gather(): Expected dtype int64 for index");
    if (!mt_dim(r, c->i[0], t->ndim, &dim) || check_same_device(r, t, idx) != TL_OK)
        return r->status;
    if (idx->ndim != t->ndim && !(idx->ndim <= 1 && t->ndim <= 1))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH,
                       "Index tensor must have the same number of dimensions as input tensor");
    for (int d = 0; d < t->ndim && idx->ndim == t->ndim; d++)
        if (d != dim && mi_gt(idx->shape[d], t->shape[d]))
            return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Size does not match at dimension %d "
                           "expected index %s to be smaller than self %s apart from dimension "
                           "%lld", d, mt_shape_str(a, sizeof a, idx->ndim, idx->shape),
                           mt_shape_str(b, sizeof b, t->ndim, t->shape), (long long)dim);
    mt_int read; /* the gathered elements (the result's bytes), then the index */
    if (mt_check_shape(r, idx->ndim, idx->shape, t->dtype) != TL_OK)
        return r->status;
    mt_shape_nbytes(idx->ndim, idx->shape, t->dtype, &read);
    if (!mt_add_bytes(r, &read, mt_nbytes(idx)))
        return r->status;
    return new_dense(r, t, idx->ndim, idx->shape, t->dtype, read, "gather allocates");
}

/* torch.cat skips legacy empty 1-D tensors of shape [0] when checking shapes. */
static bool cat_skipped(const mt_layout *l) { return l->ndim == 1 && mi_eq(l->shape[0], 0); }

static tl_status cat_check(mt_result *r, const mt_call *c, const mt_layout *ref, int64_t dim)
{
    for (int k = 0; k < c->n_in; k++) {
        const mt_layout *l = c->in[k];
        if (check_same_device(r, ref, l) != TL_OK)
            return r->status;
        if (cat_skipped(l))
            continue;
        if (l->ndim != ref->ndim)
            return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Tensors must have same number of "
                           "dimensions: got %d and %d", ref->ndim, l->ndim);
        char a[64], b[64];
        for (int d = 0; d < l->ndim; d++)
            if (d != dim && mi_ne(l->shape[d], ref->shape[d]))
                return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Sizes of tensors must match except in "
                               "dimension %lld. Expected size %s but got size %s for tensor "
                               "number %d in the list.", (long long)dim,
                               mi_str(ref->shape[d], a, sizeof a), mi_str(l->shape[d], b, sizeof b),
                               k);
    }
    return TL_OK;
}

/* The output format of cat: the inputs' common suggested format, else contiguous. */
static tl_format cat_format(const mt_call *c)
{
    tl_format f = TL_CONTIGUOUS;
    bool first = true;
    for (int k = 0; k < c->n_in; k++) {
        if (cat_skipped(c->in[k]))
            continue;
        tl_format g = mt_suggest_format(c->in[k]);
        if (!first && g != f)
            return TL_CONTIGUOUS;
        f = g;
        first = false;
    }
    return f;
}

/* torch.cat(list, dim): sizes equal except on dim, dtype promoted over the list. */
tl_status mt_cat(const mt_call *c, mt_result *r)
{
    const mt_layout *ref = NULL;
    int64_t dim;
    mt_int read = mi_c(0);
    if (c->n_in < 1)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "torch.cat(): expected a non-empty list of Tensors");
    for (int k = 0; k < c->n_in && !ref; k++)
        if (!cat_skipped(c->in[k]))
            ref = c->in[k];
    if (!ref)
        ref = c->in[0];
    if (ref->ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "zero-dimensional tensor (at position 0) cannot be "
                       "concatenated");
    if (!mt_dim(r, c->i[0], ref->ndim, &dim) || cat_check(r, c, ref, dim) != TL_OK)
        return r->status;
    mt_layout out = *ref;
    out.shape[dim] = mi_c(0);
    for (int k = 0; k < c->n_in; k++) {
        if (!cat_skipped(c->in[k]) &&
            !mi_add_ovf(out.shape[dim], c->in[k]->shape[dim], &out.shape[dim]))
            return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "torch.cat(): the sizes of dimension %lld "
                           "add up to more than 2^63-1", (long long)dim);
        if (!mt_add_bytes(r, &read, mt_nbytes(c->in[k])))
            return r->status;
    }
    out.dtype = mt_result_type(c->n_in, c->in);
    if (mt_check_shape(r, out.ndim, out.shape, out.dtype) != TL_OK)
        return r->status;
    if (cat_format(c) == TL_CHANNELS_LAST && out.ndim == 4)
        mt_channels_last_strides(out.shape, out.strides);
    else
        mt_contiguous_strides(out.ndim, out.shape, out.strides);
    return mt_new_storage(r, &out, read, "cat allocates");
}
