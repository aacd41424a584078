/*
 * meta_train.c: the ops a hand-written training step needs (tensor-api
 * "Ops for training"): index_add_ / index_add (an embedding's backward),
 * gelu with approximate="tanh" (GPT-2's), the in-place sqrt_, addcmul_,
 * addcdiv_ and lerp_ (what torch.optim.AdamW calls), log_softmax and
 * cross_entropy (class indices, mean reduction, ignore_index; logits (C,),
 * (N, C) or (N, C, d1, ...)).
 *
 * Each function restates the PyTorch 1.13 rule it follows, checks in
 * PyTorch's order; tests/fixtures/train.json holds them to it.  Kernels
 * PyTorch's CPU build lacks (Half for gelu, sqrt_, addcmul_, addcdiv_,
 * lerp_, log_softmax) are errors on the CPU only: its CUDA build has them.
 *
 * Memory: the in-place ops allocate nothing, except where PyTorch's CPU
 * TensorIterator casts an input to the common dtype first (addcmul_,
 * addcdiv_): that copy lives for the call (temp_nbytes).  cross_entropy is
 * log_softmax then nll_loss: during the call the log_softmax result (the
 * logits' bytes, contiguous) and nll_loss's 0-dim total_weight live beside
 * the 0-dim loss; only the loss stays (measured with torch.profiler's
 * memory events: a 6 x 7 f32 input gives +168, +8, then -168 and -4).
 */
#include "meta_impl.h"

#include <string.h>

/* A kernel PyTorch does not have for this dtype: "GeluKernelImpl" not implemented for 'Long'. */
static tl_status tr_no_kernel(mt_result *r, const char *op, const char *kernel, tl_dtype d)
{
    return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "%s has no %s kernel%s (PyTorch: \"%s\" not "
                   "implemented for '%s')", op, mt_dtype_name(d),
                   mt_is_floating(d) ? " on the CPU" : "", kernel, mt_torch_type_name(d));
}

/* Floating dtypes only; Half also where PyTorch's CPU build lacks it (cpu_half false). */
static bool tr_has_kernel(const mt_layout *l, bool cpu_half)
{
    if (!mt_is_floating(l->dtype))
        return false;
    (void)cpu_half;
    return true;
}

/* Two dense layouts of one storage share a byte (assert_no_overlap: a full
 * overlap is an error too, unlike get_overlap_status's partial one). */
static bool tr_any_overlap(const mt_call *c, int k)
{
    const mt_layout *a = c->in[0], *b = c->in[k];
    if (mt_partial_overlap(c, k))
        return true;
    if (!c->has_storage_ids || c->storage[0] != c->storage[k] || mi_eq(mt_numel(a), 0) ||
        mi_eq(mt_numel(b), 0))
        return false;
    mt_int ab = mi_mul(a->offset, mt_dtype_size(a->dtype)), ae = mi_add(ab, mt_nbytes(a));
    mt_int bb = mi_mul(b->offset, mt_dtype_size(b->dtype)), be = mi_add(bb, mt_nbytes(b));
    return mi_lt(ab, be) && mi_lt(bb, ae);
}

/* ---- gelu(approximate="tanh") ---- */

tl_status mt_gelu_tanh(const mt_call *c, mt_result *r)
{
    if (!tr_has_kernel(c->in[0], false))
        return tr_no_kernel(r, "gelu_tanh", "GeluKernelImpl", c->in[0]->dtype);
    return mt_elementwise(c, r, 1, c->in[0]->dtype, "gelu_tanh allocates");
}

/* ---- in place ---- */

/* t.sqrt_(): the F32 result of an integer or bool t cannot be cast back. */
tl_status mt_sqrt_(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0];
    if (!mt_is_floating(t->dtype))
        return mt_cast_error(r, TL_F32, t->dtype);
    if (!tr_has_kernel(t, false))
        return tr_no_kernel(r, "sqrt_", "sqrt_vml_cpu", t->dtype);
    if (mt_has_internal_overlap(t))
        return mt_overlap_error(r);
    return mt_inplace_ok(c, r, mt_nbytes(t));
}

/* TensorIterator's shape rule for out = f(t, a, b): the three broadcast,
 * and the result must be t's shape. */
static tl_status tr_ternary_shape(mt_result *r, const mt_layout *t, const mt_layout *a,
                                  const mt_layout *b)
{
    int n;
    mt_int ab[TL_MAX_DIMS];
    char x[160], y[160];
    if (!mt_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &n, ab))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "The size of tensor a must match the size of "
                       "tensor b: %s and %s", mt_shape_str(x, sizeof x, a->ndim, a->shape),
                       mt_shape_str(y, sizeof y, b->ndim, b->shape));
    mt_layout both = *a;
    both.ndim = n;
    memcpy(both.shape, ab, sizeof ab);
    return mt_check_broadcast_into(r, t, &both);
}

/* The bytes of the CPU's copies of inputs k whose dtype is not the common dt. */
static bool tr_cast_bytes(const mt_call *c, mt_result *r, int from, int to, tl_dtype dt)
{
    for (int k = from; k < to; k++) {
        if (c->in[k]->dtype == dt || c->in[k]->device != TL_CPU)
            continue;
        mt_int bytes;
        if (!mi_mul_ovf(mt_numel(c->in[k]), mi_c(mt_dtype_size(dt)), &bytes) ||
            !mt_add_bytes(r, &r->temp_nbytes, bytes))
            return false;
    }
    return true;
}

/* t.addcmul_(a, b, value=v), t.addcdiv_(a, b, value=v): t += v * a * b (or
 * a / b) in torch.result_type(t, a, b), cast back into t. */
static tl_status addc(const mt_call *c, mt_result *r, const char *name, const char *kernel)
{
    const mt_layout *t = c->in[0], *a = c->in[1], *b = c->in[2];
    const mt_layout *ops[4] = {t, t, a, b};
    tl_device dev;
    bool div = c->op == MT_OP_addcdiv_;
    if (div && mt_is_integral(a->dtype, true) && mt_is_integral(b->dtype, true))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Integer division with addcdiv is no longer "
                       "supported, and in a future  release addcdiv will perform a true division "
                       "of tensor1 and tensor2. (PyTorch's message goes on: use (input + value * "
                       "tensor1 / tensor2) for float inputs)");
    if (tr_ternary_shape(r, t, a, b) != TL_OK || mt_check_iter_devices(r, 4, ops, 1, &dev) != TL_OK)
        return r->status;
    tl_dtype dt = mt_result_type(3, c->in);
    if (!mt_can_cast(dt, t->dtype))
        return mt_cast_error(r, dt, t->dtype);
    if (dev == TL_CPU && dt != t->dtype)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "%s: the result type %s is not t's %s: "
                       "PyTorch 1.13's CPU kernel cannot cast its result back (\"!needs_dynamic_"
                       "casting<func_t>::check(iter) INTERNAL ASSERT FAILED\")", name,
                       mt_torch_type_name(dt), mt_torch_type_name(t->dtype));
    if (t->dtype == TL_BOOL || (dev == TL_CPU && t->dtype == TL_F16))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "%s has no %s kernel%s (PyTorch: \"%s\" not "
                       "implemented for '%s')", name, mt_dtype_name(t->dtype),
                       t->dtype == TL_F16 ? " on the CPU" : "", kernel,
                       mt_torch_type_name(t->dtype));
    if (mt_is_integral(dt, false) && mt_check_value(r, dt, c->f) != TL_OK)
        return r->status;
    if (mt_has_internal_overlap(t))
        return mt_overlap_error(r);
    if (mt_partial_overlap(c, 1) || mt_partial_overlap(c, 2))
        return mt_partial_overlap_error(r);
    mt_int read = mt_nbytes(t);
    if (!mt_add_bytes(r, &read, mt_nbytes(a)) || !mt_add_bytes(r, &read, mt_nbytes(b)) ||
        !tr_cast_bytes(c, r, 1, 3, dt))
        return r->status;
    return mt_inplace_ok(c, r, read);
}

tl_status mt_addcmul_(const mt_call *c, mt_result *r)
{
    return addc(c, r, "addcmul_", "addcmul_cpu_out");
}

tl_status mt_addcdiv_(const mt_call *c, mt_result *r)
{
    return addc(c, r, "addcdiv_", "addcdiv_cpu_out");
}

/* t.lerp_(end, weight) with a Python float weight: end has t's dtype and
 * broadcasts into t; floating dtypes only. */
tl_status mt_lerp_(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0], *e = c->in[1];
    const mt_layout *ops[3] = {t, t, e};
    tl_device dev;
    if (t->dtype != e->dtype)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "expected dtype %s for `end` but got dtype %s",
                       mt_type_meta_name(t->dtype), mt_type_meta_name(e->dtype));
    if (mt_check_broadcast_into(r, t, e) != TL_OK || mt_check_iter_devices(r, 3, ops, 1, &dev) != TL_OK)
        return r->status;
    if (!tr_has_kernel(t, false))
        return tr_no_kernel(r, "lerp_", "lerp_kernel_scalar", t->dtype);
    if (mt_has_internal_overlap(t))
        return mt_overlap_error(r);
    if (mt_partial_overlap(c, 1))
        return mt_partial_overlap_error(r);
    mt_int read = mt_nbytes(t);
    if (!mt_add_bytes(r, &read, mt_nbytes(e)))
        return r->status;
    return mt_inplace_ok(c, r, read);
}

/* ---- index_add ---- */

/* index_func_meta_impl: the checks of index_add_ and index_add, in order;
 * dim wrapped into *dim. */
static tl_status index_add_check(const mt_call *c, mt_result *r, int64_t *dim)
{
    const mt_layout *t = c->in[0], *idx = c->in[1], *src = c->in[2];
    char s[160];
    if (!mt_dim(r, c->i[0], t->ndim, dim))
        return r->status;
    if (idx->ndim > 1)
        return mt_fail(r, TL_ERR_BAD_DIM, "index_add_(): Index is supposed to be a vector, but "
                       "got dim: %d with type: %s and size: %s", idx->ndim,
                       mt_torch_type_name(idx->dtype), mt_shape_str(s, sizeof s, idx->ndim, idx->shape));
    if (idx->dtype != TL_I64 && idx->dtype != TL_I32)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "index_add_(): Expected dtype int32/int64 for "
                       "index but got: %s", mt_torch_type_name(idx->dtype));
    if (t->dtype != src->dtype)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "index_add_(): self (%s) and source (%s) must "
                       "have the same scalar type", mt_torch_type_name(t->dtype),
                       mt_torch_type_name(src->dtype));
    if (*dim != 0 && *dim >= src->ndim)
        return mt_fail(r, TL_ERR_BAD_DIM, "index_add_(): Indexing dim %lld is out of bounds of "
                       "the source tensor with dim %d", (long long)*dim, src->ndim);
    mt_int n = src->ndim == 0 ? mi_c(1) : src->shape[*dim];
    if (mi_ne(mt_numel(idx), n)) {
        char a[40], b[40];
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "index_add_(): Number of indices (%s) should "
                       "be equal to source.size(dim): (%s), for dim: %lld",
                       mi_str(mt_numel(idx), a, sizeof a), mi_str(n, b, sizeof b),
                       (long long)*dim);
    }
    const mt_layout *ops[3] = {t, idx, src};
    if (mt_check_same_device(r, 3, ops) != TL_OK)
        return r->status;
    if (t->ndim <= 1) {
        if (src->ndim > 1)
            return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "source.dim() (%d) must one or zero for "
                           "given self.dim() (%d)", src->ndim, t->ndim);
        return TL_OK;
    }
    if (mi_eq(mt_numel(idx), 0))
        return TL_OK;
    /* select(dim, 0) of both: the source's slice must broadcast into self's */
    mt_layout ts = *t, ss = *src;
    ts.ndim--;
    for (int d = (int)*dim; d < ts.ndim; d++)
        ts.shape[d] = t->shape[d + 1], ts.strides[d] = t->strides[d + 1];
    if (src->ndim > 0) {
        ss.ndim--;
        for (int d = (int)*dim; d < ss.ndim; d++)
            ss.shape[d] = src->shape[d + 1], ss.strides[d] = src->strides[d + 1];
    }
    return mt_check_broadcast_into(r, &ts, &ss);
}

/* Reads: self (copied or updated), the index, the source. */
static bool index_add_read(const mt_call *c, mt_result *r, mt_int *read)
{
    *read = mt_nbytes(c->in[0]);
    return mt_add_bytes(r, read, mt_nbytes(c->in[1])) && mt_add_bytes(r, read, mt_nbytes(c->in[2]));
}

/* t.index_add_(dim, index, source): t[index[i]] += source[i] along dim;
 * t must not overlap itself, the index nor the source. */
tl_status mt_index_add_(const mt_call *c, mt_result *r)
{
    int64_t dim;
    mt_int read;
    if (index_add_check(c, r, &dim) != TL_OK)
        return r->status;
    if (mt_has_internal_overlap(c->in[0]))
        return mt_overlap_error(r);
    if (tr_any_overlap(c, 1) || tr_any_overlap(c, 2))
        return mt_partial_overlap_error(r);
    if (!index_add_read(c, r, &read))
        return r->status;
    return mt_inplace_ok(c, r, read);
}

/* torch.index_add(t, dim, index, source): a contiguous copy of t, then index_add_. */
tl_status mt_index_add(const mt_call *c, mt_result *r)
{
    int64_t dim;
    mt_int read;
    mt_layout out;
    const mt_layout *t = c->in[0];
    if (index_add_check(c, r, &dim) != TL_OK || !index_add_read(c, r, &read))
        return r->status;
    mt_layout_dense(&out, t->ndim, t->shape, t->dtype, t->device);
    return mt_new_storage(r, &out, read, "index_add allocates");
}

/* ---- log_softmax, cross_entropy ---- */

/* The CPU kernel log_softmax dispatches to: the last-dim one for the last
 * dim (a 0-dim input is viewed as one of size 1). */
static const char *log_softmax_kernel(int ndim, int64_t dim)
{
    return ndim == 0 || dim == ndim - 1 ? "log_softmax_lastdim_kernel_impl" : "softmax_kernel_impl";
}

/* log_softmax's checks: dim in range, a floating dtype with a kernel. */
static tl_status log_softmax_check(mt_result *r, const mt_layout *in, mt_int dim, int64_t *d)
{
    if (!mt_dim(r, dim, in->ndim, d))
        return r->status;
    if (!tr_has_kernel(in, false))
        return tr_no_kernel(r, "log_softmax", log_softmax_kernel(in->ndim, *d), in->dtype);
    return TL_OK;
}

/* t.log_softmax(dim): a contiguous result of t's shape and dtype. */
tl_status mt_log_softmax(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    int64_t dim;
    mt_layout out;
    if (log_softmax_check(r, in, c->i[0], &dim) != TL_OK)
        return r->status;
    mt_layout_dense(&out, in->ndim, in->shape, in->dtype, in->device);
    return mt_new_storage(r, &out, mt_nbytes(in), "log_softmax allocates");
}

/* nll_loss_nd's checks of logits (N, C, d1, ...) of 3 or more dims against
 * targets (N, d1, ...): 4 dims go to nll_loss2d as they are, the others are
 * viewed as (N, C, 1, d1 x ...) after their own check. */
static tl_status nll_spatial_check(mt_result *r, const mt_layout *x, const mt_layout *t)
{
    char a[160], b[160];
    bool same = t->ndim == x->ndim - 1;
    for (int d = 1; same && d < t->ndim; d++)
        same = mi_same(t->shape[d], x->shape[d + 1]);
    if (x->ndim == 4 && t->ndim != 3)
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "only batches of spatial targets supported (3D "
                       "tensors) but got targets of dimension: %d", t->ndim);
    if (x->ndim == 4 && !same)
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "size mismatch (got input: %s , target: %s",
                       mt_shape_str(a, sizeof a, x->ndim, x->shape),
                       mt_shape_str(b, sizeof b, t->ndim, t->shape));
    if (!same) {
        mt_int want[TL_MAX_DIMS];
        want[0] = x->shape[0];
        for (int d = 2; d < x->ndim; d++)
            want[d - 1] = x->shape[d];
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Expected target size %s, got %s",
                       mt_shape_str(a, sizeof a, x->ndim - 1, want),
                       mt_shape_str(b, sizeof b, t->ndim, t->shape));
    }
    return TL_OK;
}

/* nll_loss_nd and nll_loss_forward's shape checks, after log_softmax. */
static tl_status nll_shape_check(mt_result *r, const mt_layout *x, const mt_layout *t)
{
    char a[160], b[160];
    if (x->ndim > 2 && t->ndim == 0)
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "tl_cross_entropy takes targets (N, d1, ...) "
                       "for logits (N, C, d1, ...), not a 0-dim tensor");
    if (x->ndim >= 2 && mi_ne(x->shape[0], t->ndim > 0 ? t->shape[0] : mi_c(1)))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Expected input batch_size (%s) to match "
                       "target batch_size (%s).", mi_str(x->shape[0], a, sizeof a),
                       t->ndim > 0 ? mi_str(t->shape[0], b, sizeof b) : "1");
    if (x->ndim > 2)
        return nll_spatial_check(r, x, t);
    if (t->ndim > 1)
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "0D or 1D target tensor expected, multi-target "
                       "not supported");
    bool no_batch = x->ndim == 1 && t->ndim == 0;
    if (!no_batch && (t->ndim == 0 || mi_ne(x->shape[0], t->shape[0])))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "size mismatch (got input: %s, target: %s)",
                       mt_shape_str(a, sizeof a, x->ndim, x->shape),
                       mt_shape_str(b, sizeof b, t->ndim, t->shape));
    return TL_OK;
}

/* F.cross_entropy(logits, targets, ignore_index=i) with class indices and
 * mean reduction: log_softmax over the class dim (dim 1, or 0 for 1-dim
 * logits), then nll_loss (nll_loss2d for 3 or more dims); a 0-dim
 * result of the logits' dtype (NaN when every target is ignored).  Targets
 * of the logits' shape are class probabilities, which this API does not
 * take. */
tl_status mt_cross_entropy(const mt_call *c, mt_result *r)
{
    const mt_layout *x = c->in[0], *t = c->in[1];
    const mt_layout *ops[2] = {x, t};
    bool same = x->ndim == t->ndim;
    for (int d = 0; same && d < x->ndim; d++)
        same = mi_same(x->shape[d], t->shape[d]);
    if (same && !mt_is_floating(t->dtype))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Expected floating point type for target with "
                       "class probabilities, got %s", mt_torch_type_name(t->dtype));
    if (same)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "tl_cross_entropy takes class indices: targets "
                       "of the logits' shape are class probabilities, which it does not take");
    int64_t dim;
    if (log_softmax_check(r, x, mi_c(x->ndim == 1 ? 0 : 1), &dim) != TL_OK)
        return r->status;
    if (mt_check_same_device(r, 2, ops) != TL_OK || nll_shape_check(r, x, t) != TL_OK)
        return r->status;
    /* nll_loss takes Byte targets too, nll_loss2d only Long */
    if (t->dtype != TL_I64 && (t->dtype != TL_U8 || x->ndim > 2))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "expected scalar type Long but found %s",
                       mt_torch_type_name(t->dtype));
    mt_layout out;
    mt_layout_dense(&out, 0, NULL, x->dtype, x->device);
    /* the log_softmax result and nll_loss's total_weight live during the call */
    r->temp_nbytes = mt_nbytes(&out);
    mt_int read = mt_nbytes(x);
    if (!mt_add_bytes(r, &r->temp_nbytes, mt_nbytes(x)) || !mt_add_bytes(r, &read, mt_nbytes(t)))
        return r->status;
    /* nll_loss's CPU kernels (1-d and 2-d logits, and nll_loss2d for spatial
     * ones) read target.contiguous(): a non-contiguous target is copied for
     * the call */
    if (!mt_is_contiguous(t) && !mt_add_bytes(r, &r->temp_nbytes, mt_nbytes(t)))
        return r->status;
    return mt_new_storage(r, &out, read, "cross_entropy allocates (its log_softmax lives for "
                          "the call)");
}
