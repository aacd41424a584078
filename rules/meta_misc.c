/*
 * meta_misc.c: creation, in-place and element access.
 *
 * Creation always makes a new contiguous storage of numel x element size
 * bytes.  In-place ops write through in[0] (kind INPLACE): their result
 * must broadcast to the written tensor's shape, their dtype must be
 * castable to it (torch's can_cast), and TensorIterator-based writes reject
 * a written tensor with a stride-0 dim of size > 1 (has_internal_overlap).
 * fill_, zero_ and element assignment are not checked, as in PyTorch.
 */
#include "meta_impl.h"

#include <string.h>

/* Both builds: in the concrete one mi_known() is constantly true, so the
 * failure path is never taken. */
tl_status mt_not_symbolic(mt_result *r, const char *what)
{
    r->not_symbolic = true;
    return mt_fail(r, TL_ERR_BAD_ARGUMENT, "the analysis needs the value of %s here (it depends "
                   "on a run-time size)", what);
}

bool mt_known(mt_result *r, mt_int a, const char *what, int64_t *out)
{
    if (mi_known(a)) {
        *out = mi_v(a);
        return true;
    }
    mt_not_symbolic(r, what);
    return false;
}

/* c10::overflows<To>(double): integers take [lowest, max] (no NaN; an
 * infinity overflows); floats overflow only for finite values beyond max;
 * bool takes anything. */
static bool value_fits(tl_dtype d, double v)
{
    static const double lo[] = {0, 0, -128, -32768, -2147483648.0, -9223372036854775808.0};
    static const double hi[] = {1, 255, 127, 32767, 2147483647.0, 9223372036854775807.0};
    if (d == TL_BOOL)
        return true;
    if (d == TL_I64) /* 2^63 itself does not fit */
        return v == v && v >= -9223372036854775808.0 && v < 9223372036854775808.0;
    if (mt_is_integral(d, false))
        return v == v && v >= lo[d] && v <= hi[d];
    double max = d == TL_F16 ? 65504.0 : d == TL_BF16 ? 3.3895313892515355e38
               : d == TL_F32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
    return !(v == v) || v - v != 0 || (v >= -max && v <= max);
}

tl_status mt_check_value(mt_result *r, tl_dtype d, double v)
{
    static const char *cpp[] = {"bool", "uint8_t", "int8_t", "int16_t", "int32_t",
                                "int64_t", "at::Half", "at::BFloat16", "float", "double"};
    if ((unsigned)d > TL_F64 || value_fits(d, v))
        return TL_OK;
    return mt_fail(r, TL_ERR_BAD_ARGUMENT, "value cannot be converted to type %s without "
                   "overflow", cpp[d]);
}

static tl_status create(const mt_call *c, mt_result *r, int ndim, const mt_int *shape,
                        tl_dtype dtype, bool writes, const char *reason)
{
    mt_layout out;
    if ((unsigned)dtype > TL_F64)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "invalid dtype %d", (int)dtype);
    if (c->device != TL_CPU && c->device != TL_CUDA)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "invalid device %d", (int)c->device);
    if (mt_check_shape(r, ndim, shape, dtype) != TL_OK)
        return r->status;
    mt_layout_dense(&out, ndim, shape, dtype, c->device);
    mt_new_storage(r, &out, mi_c(0), "%s", reason);
    if (!writes)
        r->written_bytes = mi_c(0);
    return TL_OK;
}

tl_status mt_empty(const mt_call *c, mt_result *r)
{
    return create(c, r, c->s[0].n, c->s[0].v, c->dtype, false, "empty allocates");
}

tl_status mt_zeros(const mt_call *c, mt_result *r)
{
    return create(c, r, c->s[0].n, c->s[0].v, c->dtype, true, "zeros allocates");
}

tl_status mt_ones(const mt_call *c, mt_result *r)
{
    return create(c, r, c->s[0].n, c->s[0].v, c->dtype, true, "ones allocates");
}

tl_status mt_randn(const mt_call *c, mt_result *r)
{
    if (!mt_is_floating(c->dtype) && (unsigned)c->dtype <= TL_F64)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "randn needs a floating dtype, not %s (PyTorch: "
                       "\"normal_kernel_cpu\" for '%s')", mt_dtype_name(c->dtype),
                       mt_torch_type_name(c->dtype));
    return create(c, r, c->s[0].n, c->s[0].v, c->dtype, true, "randn allocates");
}

tl_status mt_full(const mt_call *c, mt_result *r)
{
    if (mt_check_value(r, c->dtype, c->f) != TL_OK)
        return r->status;
    return create(c, r, c->s[0].n, c->s[0].v, c->dtype, true, "full allocates");
}

tl_status mt_arange(const mt_call *c, mt_result *r)
{
    mt_int n = c->i[0];
    if (c->dtype == TL_BOOL)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "arange has no bool kernel (PyTorch: "
                       "\"arange_cpu\" for 'Bool')");
    if (mi_lt(n, 0))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "upper bound and larger bound inconsistent with "
                       "step sign");
    return create(c, r, 1, &n, c->dtype, true, "arange allocates");
}

tl_status mt_randint(const mt_call *c, mt_result *r)
{
    char a[64], b[64];
    if (mi_ge(c->i[0], c->i[1]))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "random_ expects 'from' to be less than 'to', but "
                       "got from=%s >= to=%s", mi_str(c->i[0], a, sizeof a),
                       mi_str(c->i[1], b, sizeof b));
    return create(c, r, c->s[0].n, c->s[0].v, TL_I64, true, "randint allocates");
}

/* torch.tensor(value, dtype): integer dtypes refuse a value that does not
 * fit; floating dtypes round (70000 in f16 is inf), unlike torch.full. */
tl_status mt_scalar(const mt_call *c, mt_result *r)
{
    if (mt_is_integral(c->dtype, false) && mt_check_value(r, c->dtype, c->f) != TL_OK)
        return r->status;
    return create(c, r, 0, NULL, c->dtype, true, "scalar allocates");
}

tl_status mt_inplace_ok(const mt_call *c, mt_result *r, mt_int read)
{
    r->status = TL_OK;
    r->kind = MT_KIND_INPLACE;
    r->out = *c->in[0];
    r->view_of = 0;
    r->read_bytes = read;
    r->written_bytes = mt_nbytes(c->in[0]);
    snprintf(r->msg, sizeof r->msg, "in place: writes its input's storage");
    return TL_OK;
}

tl_status mt_overlap_error(mt_result *r)
{
    return mt_fail(r, TL_ERR_OVERLAPPING_WRITE, "unsupported operation: more than one element of "
                   "the written-to tensor refers to a single memory location. Please clone() the "
                   "tensor before performing the operation.");
}

/* get_overlap_status (MemoryOverlap.cpp): two dense tensors of one storage
 * whose byte ranges meet, and are not the very same layout, overlap partly. */
bool mt_partial_overlap(const mt_call *c, int k)
{
    const mt_layout *a = c->in[0], *b = c->in[k];
    if (!c->has_storage_ids || c->storage[0] != c->storage[k] || mi_eq(mt_numel(a), 0) ||
        mi_eq(mt_numel(b), 0) || !mt_is_non_overlapping_and_dense(a) ||
        !mt_is_non_overlapping_and_dense(b))
        return false;
    mt_int ab = mi_mul(a->offset, mt_dtype_size(a->dtype)), ae = mi_add(ab, mt_nbytes(a));
    mt_int bb = mi_mul(b->offset, mt_dtype_size(b->dtype)), be = mi_add(bb, mt_nbytes(b));
    if (mi_eq(ab, bb) && mi_eq(ae, be)) {
        /* compared one by one: an mt_int may have padding (no memcmp) */
        for (int d = 0; d < a->ndim; d++)
            if (mi_ne(a->strides[d], b->strides[d]))
                return true;
        return a->ndim != b->ndim;
    }
    return mi_lt(ab, be) && mi_lt(bb, ae);
}

tl_status mt_partial_overlap_error(mt_result *r)
{
    return mt_fail(r, TL_ERR_OVERLAPPING_WRITE, "unsupported operation: some elements of the "
                   "input tensor and the written-to tensor refer to a single memory location. "
                   "Please clone() the tensor before performing the operation.");
}

/* torch.can_cast(from, to): no float into an integer, nothing but bool into bool. */
bool mt_can_cast(tl_dtype from, tl_dtype to)
{
    if (mt_is_floating(from) && !mt_is_floating(to))
        return false;
    return !(from != TL_BOOL && to == TL_BOOL);
}

tl_status mt_cast_error(mt_result *r, tl_dtype from, tl_dtype to)
{
    return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "result type %s can't be cast to the desired output "
                   "type %s", mt_torch_type_name(from), mt_torch_type_name(to));
}

/* other must broadcast to exactly t's shape. */
tl_status mt_check_broadcast_into(mt_result *r, const mt_layout *t, const mt_layout *other)
{
    int n;
    mt_int shape[TL_MAX_DIMS];
    char a[160], b[160];
    bool ok = mt_broadcast_shapes(t->ndim, t->shape, other->ndim, other->shape, &n, shape) &&
              n == t->ndim;
    for (int d = 0; ok && d < n; d++) /* an mt_int may have padding (no memcmp) */
        ok = mi_eq(shape[d], t->shape[d]);
    if (ok)
        return TL_OK;
    if (!mt_broadcast_shapes(t->ndim, t->shape, other->ndim, other->shape, &n, shape))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "The size of tensor a must match the size of "
                       "tensor b: %s and %s", mt_shape_str(a, sizeof a, t->ndim, t->shape),
                       mt_shape_str(b, sizeof b, other->ndim, other->shape));
    return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "output with shape %s doesn't match the broadcast "
                   "shape %s", mt_shape_str(a, sizeof a, t->ndim, t->shape),
                   mt_shape_str(b, sizeof b, n, shape));
}

static tl_status inplace_binary(const mt_call *c, mt_result *r)
{
    return mt_inplace_binary(c, r, mt_result_type(2, c->in));
}

tl_status mt_inplace_binary(const mt_call *c, mt_result *r, tl_dtype dt)
{
    const mt_layout *t = c->in[0], *o = c->in[1];
    if (c->op == MT_OP_sub_ && (t->dtype == TL_BOOL || o->dtype == TL_BOOL))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Subtraction, the `-` operator, with a bool "
                       "tensor is not supported. If you are trying to invert a mask, use the `~` "
                       "or `logical_not()` operator instead.");
    const mt_layout *ops[3] = {t, t, o}; /* the output, then the inputs */
    tl_device dev;
    if (mt_check_broadcast_into(r, t, o) != TL_OK || mt_check_iter_devices(r, 3, ops, 1, &dev) != TL_OK)
        return r->status;
    if (!mt_can_cast(dt, t->dtype))
        return mt_cast_error(r, dt, t->dtype);
    if (mt_has_internal_overlap(t))
        return mt_overlap_error(r);
    if (mt_partial_overlap(c, 1))
        return mt_partial_overlap_error(r);
    mt_int read = mt_nbytes(t);
    if (!mt_add_bytes(r, &read, mt_nbytes(o)))
        return r->status;
    return mt_inplace_ok(c, r, read);
}

tl_status mt_add_(const mt_call *c, mt_result *r) { return inplace_binary(c, r); }
tl_status mt_sub_(const mt_call *c, mt_result *r) { return inplace_binary(c, r); }

/* t *= s with a Python float: integer tensors cannot hold the F32 result. */
tl_status mt_mul_scalar_(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0];
    if (!mt_is_floating(t->dtype))
        return mt_cast_error(r, TL_F32, t->dtype);
    if (mt_has_internal_overlap(t))
        return mt_overlap_error(r);
    return mt_inplace_ok(c, r, mt_nbytes(t));
}

tl_status mt_fill_(const mt_call *c, mt_result *r)
{
    if (mt_check_value(r, c->in[0]->dtype, c->f) != TL_OK)
        return r->status;
    return mt_inplace_ok(c, r, mi_c(0));
}
tl_status mt_zero_(const mt_call *c, mt_result *r) { return mt_inplace_ok(c, r, mi_c(0)); }

/* dst.copy_(src): src broadcasts to dst, any dtype casts; dst must not overlap itself. */
tl_status mt_copy_(const mt_call *c, mt_result *r)
{
    if (mt_check_broadcast_into(r, c->in[0], c->in[1]) != TL_OK)
        return r->status;
    if (mt_has_internal_overlap(c->in[0]))
        return mt_overlap_error(r);
    if (mt_partial_overlap(c, 1))
        return mt_partial_overlap_error(r);
    return mt_inplace_ok(c, r, mt_nbytes(c->in[1]));
}

/* An index naming one element: one entry per dim, each in range (negative from the end). */
static tl_status check_index(const mt_call *c, mt_result *r, mt_int *index)
{
    const mt_layout *t = c->in[0];
    const mt_ints *ix = &c->s[0];
    char ib[64], sb[64];
    if (ix->n != t->ndim)
        return mt_fail(r, TL_ERR_BAD_DIM, "an element index needs %d entries for a %d-dim tensor, "
                       "got %d", t->ndim, t->ndim, ix->n);
    for (int d = 0; d < t->ndim; d++) {
        mt_int i = ix->v[d], size = t->shape[d];
        if (mi_lt(i, mi_sub(0, size)) || mi_ge(i, size))
            return mt_fail(r, TL_ERR_BAD_DIM, "index %s is out of bounds for dimension %d with "
                           "size %s", mi_str(i, ib, sizeof ib), d, mi_str(size, sb, sizeof sb));
        index[d] = mi_lt(i, 0) ? mi_add(i, size) : i;
    }
    return TL_OK;
}

/* t[index] = v: writes one element (a stride-0 dim makes it a shared cell). */
tl_status mt_set(const mt_call *c, mt_result *r)
{
    mt_int index[TL_MAX_DIMS];
    if (check_index(c, r, index) != TL_OK || mt_check_value(r, c->in[0]->dtype, c->f) != TL_OK)
        return r->status;
    mt_inplace_ok(c, r, mi_c(0));
    r->written_bytes = mi_c(mt_dtype_size(c->in[0]->dtype));
    return TL_OK;
}

/* t[index].item(): reads one element, makes nothing. */
tl_status mt_get(const mt_call *c, mt_result *r)
{
    mt_int index[TL_MAX_DIMS];
    if (check_index(c, r, index) != TL_OK)
        return r->status;
    r->status = TL_OK;
    r->kind = MT_KIND_NONE;
    r->out = *c->in[0];
    r->read_bytes = mi_c(mt_dtype_size(c->in[0]->dtype));
    snprintf(r->msg, sizeof r->msg, "get: reads one element");
    return TL_OK;
}
