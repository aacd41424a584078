/*
 * meta_model.c: the ops that real models need (tensor-api "Ops for real
 * models"): float activations, scalar pow/div, maximum/minimum, amax and
 * argmax, where, masked_fill, triu/tril, stack, comparisons, the in-place
 * and out= forms, and host data (from_data, from_blob, copy_to_host).
 *
 * Each function restates the PyTorch 1.13 rule it follows; the fixtures of
 * tests/fixtures/model.json hold them to it.  Layouts: elementwise ops,
 * where, comparisons and maximum/minimum take TensorIterator's layout (the
 * first operand's wins; where's condition is its first operand);
 * masked_fill, triu/tril and the reductions write contiguous results.
 * out= forms follow resize_output: a right-shaped out is written in place
 * with its strides; a wrong-shaped one becomes contiguous at its offset and
 * its storage grows to (offset + numel) x element size, never shrinks.
 */
#include "meta_impl.h"

#include <string.h>

/* c10's TypeMeta names, as "Expected out tensor to have dtype ..." prints them. */
const char *mt_type_meta_name(tl_dtype d)
{
    static const char *names[] = {"bool", "unsigned char", "signed char", "short int", "int",
                                  "long int", "c10::Half", "c10::BFloat16", "float", "double"};
    return (unsigned)d <= TL_F64 ? names[d] : "?";
}

/* A kernel PyTorch does not have for this dtype: "silu_cpu" not implemented for 'Long'. */
static tl_status no_kernel(mt_result *r, const char *op, const char *kernel, tl_dtype d)
{
    return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "%s needs a floating dtype, not %s (PyTorch: \"%s\" "
                   "not implemented for '%s')", op, mt_dtype_name(d), kernel,
                   mt_torch_type_name(d));
}

/* ---- elementwise ---- */

/* sqrt, rsqrt, log, sin, cos, tanh, sigmoid: integer and bool inputs compute in F32. */
static tl_status float_unary(const mt_call *c, mt_result *r, const char *reason)
{
    tl_dtype dt = mt_is_floating(c->in[0]->dtype) ? c->in[0]->dtype : TL_F32;
    return mt_elementwise(c, r, 1, dt, reason);
}

tl_status mt_sqrt(const mt_call *c, mt_result *r) { return float_unary(c, r, "sqrt allocates"); }
tl_status mt_rsqrt(const mt_call *c, mt_result *r) { return float_unary(c, r, "rsqrt allocates"); }
tl_status mt_log(const mt_call *c, mt_result *r) { return float_unary(c, r, "log allocates"); }
tl_status mt_sin(const mt_call *c, mt_result *r) { return float_unary(c, r, "sin allocates"); }
tl_status mt_cos(const mt_call *c, mt_result *r) { return float_unary(c, r, "cos allocates"); }
tl_status mt_tanh(const mt_call *c, mt_result *r) { return float_unary(c, r, "tanh allocates"); }
tl_status mt_sigmoid(const mt_call *c, mt_result *r)
{
    return float_unary(c, r, "sigmoid allocates");
}

/* F.silu, F.gelu: floating inputs only (no integer kernel), dtype kept. */
tl_status mt_silu(const mt_call *c, mt_result *r)
{
    if (!mt_is_floating(c->in[0]->dtype))
        return no_kernel(r, "silu", "silu_cpu", c->in[0]->dtype);
    return mt_elementwise(c, r, 1, c->in[0]->dtype, "silu allocates");
}

tl_status mt_gelu(const mt_call *c, mt_result *r)
{
    if (!mt_is_floating(c->in[0]->dtype))
        return no_kernel(r, "gelu", "GeluKernelImpl", c->in[0]->dtype);
    return mt_elementwise(c, r, 1, c->in[0]->dtype, "gelu allocates");
}

/* t ** s, t / s with a Python float: floating tensors keep their dtype,
 * integer and bool tensors give F32.  pow(Tensor, Scalar) is a unary
 * iterator (the exponent is no operand: the unary fast path applies); t / s
 * wraps s as a 0-dim operand (TensorIterator's general path). */
tl_status mt_pow_scalar(const mt_call *c, mt_result *r)
{
    tl_dtype dt = mt_is_floating(c->in[0]->dtype) ? c->in[0]->dtype : TL_F32;
    return mt_elementwise(c, r, 1, dt, "pow allocates");
}

tl_status mt_div_scalar(const mt_call *c, mt_result *r)
{
    tl_dtype dt = mt_is_floating(c->in[0]->dtype) ? c->in[0]->dtype : TL_F32;
    return mt_with_scalar(c, r, dt, "div allocates");
}

/* torch.maximum / minimum: torch.result_type of the two, TensorIterator's layout. */
tl_status mt_maximum(const mt_call *c, mt_result *r)
{
    return mt_elementwise(c, r, 2, mt_result_type(2, c->in), "maximum allocates");
}

tl_status mt_minimum(const mt_call *c, mt_result *r)
{
    return mt_elementwise(c, r, 2, mt_result_type(2, c->in), "minimum allocates");
}

/* a == b, a < b: compared in the promoted dtype, a BOOL result in the iterator's layout. */
tl_status mt_eq(const mt_call *c, mt_result *r)
{
    return mt_elementwise(c, r, 2, TL_BOOL, "eq allocates (bool)");
}

tl_status mt_lt(const mt_call *c, mt_result *r)
{
    return mt_elementwise(c, r, 2, TL_BOOL, "lt allocates (bool)");
}

/* torch.where(cond, a, b): cond BOOL (U8 is accepted with a deprecation
 * warning); dtype result_type(a, b); the iterator's operands are cond, a, b
 * in that order, so cond's layout leads. */
tl_status mt_where(const mt_call *c, mt_result *r)
{
    tl_dtype cd = c->in[0]->dtype;
    if (cd != TL_BOOL && cd != TL_U8)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "where expected condition to be a boolean "
                       "tensor, but got a tensor with dtype %s", mt_torch_type_name(cd));
    return mt_elementwise(c, r, 3, mt_result_type(2, c->in + 1), "where allocates");
}

/* c10::overflows<T>(double) for a fill value: integers take [lowest, max]
 * compared as doubles (NaN and infinities overflow); floats overflow only for
 * finite values beyond max; bool takes anything. */
static bool fill_value_fits(tl_dtype d, double v)
{
    static const double lo[] = {0, 0, -128, -32768, -2147483648.0, -9223372036854775808.0};
    static const double hi[] = {1, 255, 127, 32767, 2147483647.0, 9223372036854775807.0};
    if (d == TL_BOOL)
        return true;
    if (mt_is_integral(d, false))
        return v == v && v >= lo[d] && v <= hi[d];
    double max = d == TL_F16 ? 65504.0 : d == TL_BF16 ? 3.3895313892515355e38
               : d == TL_F32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
    return !(v == v) || v - v != 0 || (v >= -max && v <= max);
}

/* The C++ type Scalar::to<T>() names in its overflow message. */
static const char *scalar_cpp_name(tl_dtype d)
{
    static const char *names[] = {"bool", "uint8_t", "int8_t", "int16_t", "int",
                                  "int64_t", "at::Half", "at::BFloat16", "float", "double"};
    return (unsigned)d <= TL_F64 ? names[d] : "?";
}

/* expand_outplace(mask, t)'s message: tensor a is the mask, b the input. */
static tl_status masked_fill_shape_error(mt_result *r, const mt_layout *mask, const mt_layout *t)
{
    int n = mask->ndim > t->ndim ? mask->ndim : t->ndim;
    for (int k = n - 1; k >= 0; k--) {
        int dm = mask->ndim - n + k, dt = t->ndim - n + k;
        mt_int sm = dm >= 0 ? mask->shape[dm] : mi_c(1), st = dt >= 0 ? t->shape[dt] : mi_c(1);
        char ta[64], tb[64];
        if (mi_ne(sm, st) && mi_ne(sm, 1) && mi_ne(st, 1))
            return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "The size of tensor a (%s) must match the "
                           "size of tensor b (%s) at non-singleton dimension %d",
                           mi_str(sm, ta, sizeof ta), mi_str(st, tb, sizeof tb), k);
    }
    return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "shapes do not broadcast");
}

/* t.masked_fill(mask, v): expand_outplace(mask, t), then a contiguous clone
 * of the expanded input filled where mask holds.  A mask of another dtype is
 * accepted and read as torch 1.13's CPU kernel reads it: the first byte of
 * each element as a bool, which must be 0 or 1 (a data check, the
 * runtime's: an I64 mask of 0/1 works, a F32 mask never fills). */
tl_status mt_masked_fill(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0], *mask = c->in[1];
    int n;
    mt_int shape[TL_MAX_DIMS];
    mt_layout out;
    tl_device dev;
    if (!fill_value_fits(t->dtype, c->f))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "value cannot be converted to type %s without "
                       "overflow", scalar_cpp_name(t->dtype));
    if (!mt_broadcast_shapes(mask->ndim, mask->shape, t->ndim, t->shape, &n, shape))
        return masked_fill_shape_error(r, mask, t);
    if (mt_check_iter_devices(r, 2, c->in, 0, &dev) != TL_OK ||
        mt_check_shape(r, n, shape, t->dtype) != TL_OK)
        return r->status;
    mt_layout_dense(&out, n, shape, t->dtype, t->device);
    mt_int read = mt_nbytes(t);
    if (!mt_add_bytes(r, &read, mt_nbytes(mask)))
        return r->status;
    return mt_new_storage(r, &out, read, "masked_fill allocates (a contiguous copy)");
}

/* t.triu(k), t.tril(k): at least 2 dims (the -2 dim must exist); a
 * contiguous result of t's shape and dtype. */
static tl_status triangle(const mt_call *c, mt_result *r, const char *reason)
{
    const mt_layout *t = c->in[0];
    mt_layout out;
    if (t->ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "Dimension specified as -2 but tensor has no "
                       "dimensions");
    if (t->ndim < 2)
        return mt_fail(r, TL_ERR_BAD_DIM, "Dimension out of range (expected to be in range of "
                       "[-1, 0], but got -2)");
    mt_layout_dense(&out, t->ndim, t->shape, t->dtype, t->device);
    return mt_new_storage(r, &out, mt_nbytes(t), "%s", reason);
}

tl_status mt_triu(const mt_call *c, mt_result *r) { return triangle(c, r, "triu allocates"); }
tl_status mt_tril(const mt_call *c, mt_result *r) { return triangle(c, r, "tril allocates"); }

/* ---- reductions ---- */

/* amax / argmax over dim: a contiguous result without dim (size 1 with
 * keepdim); reducing a size-0 dim is an IndexError. */
static tl_status reduce_dim(const mt_call *c, mt_result *r, tl_dtype dt, const char *name)
{
    const mt_layout *in = c->in[0];
    int64_t dim;
    mt_int shape[TL_MAX_DIMS];
    int n = 0;
    mt_layout out;
    if (!mt_dim(r, c->i[0], in->ndim, &dim))
        return r->status;
    if (in->ndim > 0 && mi_eq(in->shape[dim], 0))
        return mt_fail(r, TL_ERR_BAD_DIM, "%s(): Expected reduction dim %lld to have non-zero "
                       "size.", name, (long long)dim);
    for (int d = 0; d < in->ndim; d++) {
        if (d != dim)
            shape[n++] = in->shape[d];
        else if (c->b)
            shape[n++] = mi_c(1);
    }
    mt_layout_dense(&out, n, shape, dt, in->device);
    return mt_new_storage(r, &out, mt_nbytes(in), "%s allocates", name);
}

/* t.amax(dim, keepdim): every dtype, bool included; dtype kept. */
tl_status mt_max(const mt_call *c, mt_result *r)
{
    return reduce_dim(c, r, c->in[0]->dtype, "amax");
}

/* t.argmax(dim, keepdim): I64 indices; no bool kernel. */
tl_status mt_argmax(const mt_call *c, mt_result *r)
{
    if (c->in[0]->dtype == TL_BOOL)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "argmax has no kernel for bool tensors "
                       "(PyTorch: \"argmax_cpu\" not implemented for 'Bool')");
    return reduce_dim(c, r, TL_I64, "argmax");
}

/* ---- stack ---- */

/* Equal shapes of n dims, size by size (the shapes' values, whatever their text). */
static bool same_sizes(int n, const mt_int *a, const mt_int *b)
{
    for (int d = 0; d < n; d++)
        if (mi_ne(a[d], b[d]))
            return false;
    return true;
}

static tl_status stack_check(const mt_call *c, mt_result *r)
{
    char a[160], b[160];
    const mt_layout *first = c->in[0];
    if (c->n_in < 1)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "stack expects a non-empty TensorList");
    for (int k = 1; k < c->n_in; k++) {
        const mt_layout *l = c->in[k];
        if (l->ndim != first->ndim || !same_sizes(l->ndim, l->shape, first->shape))
            return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "stack expects each tensor to be equal "
                           "size, but got %s at entry 0 and %s at entry %d",
                           mt_shape_str(a, sizeof a, first->ndim, first->shape),
                           mt_shape_str(b, sizeof b, l->ndim, l->shape), k);
    }
    return TL_OK;
}

/* The unsqueezed layout of l at dim (unsqueeze's stride rule). */
static void unsqueezed(const mt_layout *l, int64_t dim, mt_layout *out)
{
    *out = *l;
    for (int d = l->ndim; d > dim; d--) {
        out->shape[d] = l->shape[d - 1];
        out->strides[d] = l->strides[d - 1];
    }
    out->shape[dim] = mi_c(1);
    out->strides[dim] = dim >= l->ndim ? mi_c(1) : mi_mul(l->shape[dim], l->strides[dim]);
    out->ndim = l->ndim + 1;
}

/* torch.stack(list, dim): for dim < ndim, cat along dim and view the result
 * with the new dim split off (so the inputs' memory format carries over);
 * for dim == ndim, cat of the inputs unsqueezed at dim. */
tl_status mt_stack(const mt_call *c, mt_result *r)
{
    int64_t dim;
    mt_call cc = *c;
    mt_layout un[TL_MAX_LIST];
    if (stack_check(c, r) != TL_OK)
        return r->status;
    if (c->in[0]->ndim >= TL_MAX_DIMS) /* the API's limit, as unsqueeze's */
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "stack: a tensor has at most %d dims", TL_MAX_DIMS);
    if (!mt_dim(r, c->i[0], c->in[0]->ndim + 1, &dim))
        return r->status;
    int nd = c->in[0]->ndim;
    if (dim == nd) {
        for (int k = 0; k < c->n_in; k++) {
            unsqueezed(c->in[k], dim, &un[k]);
            cc.in[k] = &un[k];
        }
    }
    cc.op = MT_OP_cat;
    cc.i[0] = MI(dim);
    if (mt_cat(&cc, r) != TL_OK)
        return r->status;
    snprintf(r->msg, sizeof r->msg, "stack allocates");
    if (dim == nd)
        return TL_OK;
    mt_layout cat = r->out, out = r->out;
    out.ndim = nd + 1;
    for (int d = 0; d <= nd; d++)
        out.shape[d] = d < dim ? cat.shape[d] : d == dim ? MI(c->n_in) : c->in[0]->shape[d - 1];
    bool ok = mt_compute_stride(cat.ndim, cat.shape, cat.strides, out.ndim, out.shape, out.strides);
    if (!ok) /* splitting one dim always views */
        mt_contiguous_strides(out.ndim, out.shape, out.strides);
    r->out = out;
    return TL_OK;
}

/* ---- in place ---- */

/* t *= other, t /= other: the result (true division: F32 for integers) must cast back into t. */
tl_status mt_mul_(const mt_call *c, mt_result *r)
{
    return mt_inplace_binary(c, r, mt_result_type(2, c->in));
}

tl_status mt_div_(const mt_call *c, mt_result *r)
{
    tl_dtype dt = mt_result_type(2, c->in);
    return mt_inplace_binary(c, r, mt_is_floating(dt) ? dt : TL_F32);
}

/* t += s with a Python float: as t *= s, integer and bool tensors cannot hold the F32 result. */
tl_status mt_add_scalar_(const mt_call *c, mt_result *r) { return mt_mul_scalar_(c, r); }

/* ---- out= forms ---- */

/* resize_output(out, res's shape), then the write: out's dtype must be the
 * result's; a right-shaped out keeps its strides; a wrong-shaped one becomes
 * contiguous at its offset and its storage grows to (offset + numel) x
 * element size (a from_blob storage cannot grow); the written layout must
 * not overlap itself. */
static tl_status write_out(const mt_call *c, mt_result *r, const mt_layout *res, mt_int read,
                           const char *name)
{
    const mt_layout *o = c->in[0];
    mt_layout nl = *o;
    int64_t es = mt_dtype_size(o->dtype);
    mt_int grow = mi_c(0);
    bool grows = false; /* need > storage_nbytes: grow > 0, without comparing grow again */
    if (o->dtype != res->dtype)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Expected out tensor to have dtype %s, but got "
                       "%s instead", mt_type_meta_name(res->dtype), mt_type_meta_name(o->dtype));
    bool same = o->ndim == res->ndim && same_sizes(o->ndim, o->shape, res->shape);
    if (!same) {
        nl.ndim = res->ndim;
        memcpy(nl.shape, res->shape, sizeof nl.shape);
        mt_contiguous_strides(nl.ndim, nl.shape, nl.strides);
        mt_int need = mi_mul(mi_add(o->offset, mt_numel(&nl)), es);
        if (mi_gt(mt_numel(&nl), 0) && mi_gt(need, o->storage_nbytes)) {
            if (c->external[0])
                return mt_fail(r, TL_ERR_BAD_ARGUMENT, "Trying to resize storage that is not "
                               "resizable");
            grow = mi_sub(need, o->storage_nbytes);
            grows = true;
            nl.storage_nbytes = need;
        }
    }
    if (mt_has_internal_overlap(&nl))
        return mt_fail(r, TL_ERR_OVERLAPPING_WRITE, "unsupported operation: more than one "
                       "element of the written-to tensor refers to a single memory location. "
                       "Please clone() the tensor before performing the operation.");
    r->status = TL_OK;
    r->kind = MT_KIND_INPLACE;
    r->out = nl;
    r->view_of = 0;
    r->resized = !same;
    r->grow_nbytes = grow;
    r->read_bytes = read;
    r->written_bytes = mt_nbytes(&nl);
    char g[64];
    if (same)
        snprintf(r->msg, sizeof r->msg, "%s: writes out in place", name);
    else if (grows)
        snprintf(r->msg, sizeof r->msg, "%s: out resized, its storage grows by %s bytes", name,
                 mi_str(grow, g, sizeof g));
    else
        snprintf(r->msg, sizeof r->msg, "%s: out resized within its storage", name);
    return TL_OK;
}

/* The call of the functional op over c's inputs after out (in[0]). */
static mt_call functional_call(const mt_call *c, mt_op op)
{
    mt_call fc = *c;
    fc.op = op;
    fc.n_in = c->n_in - 1;
    for (int k = 0; k + 1 < c->n_in; k++) {
        fc.in[k] = c->in[k + 1];
        fc.storage[k] = c->storage[k + 1];
        fc.external[k] = c->external[k + 1];
    }
    return fc;
}

/* torch.matmul(a, b, out=out): matmul's checks, then out's dtype and resize. */
tl_status mt_matmul_out(const mt_call *c, mt_result *r)
{
    mt_call fc = functional_call(c, MT_OP_matmul);
    if (mt_check_same_device(r, c->n_in, c->in) != TL_OK || mt_matmul(&fc, r) != TL_OK)
        return r->status;
    mt_layout res = r->out;
    mt_int read = r->read_bytes;
    memset(r, 0, sizeof *r);
    return write_out(c, r, &res, read, "matmul_out");
}

/* torch.softmax(t, dim, out=out): out's dtype is checked against t's first. */
tl_status mt_softmax_out(const mt_call *c, mt_result *r)
{
    mt_call fc = functional_call(c, MT_OP_softmax);
    const mt_layout *o = c->in[0], *t = c->in[1];
    if (o->dtype != t->dtype)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Expected out tensor to have dtype %s, but got "
                       "%s instead", mt_type_meta_name(t->dtype), mt_type_meta_name(o->dtype));
    if (mt_check_same_device(r, c->n_in, c->in) != TL_OK || mt_softmax(&fc, r) != TL_OK)
        return r->status;
    mt_layout res = r->out;
    mt_int read = r->read_bytes;
    memset(r, 0, sizeof *r);
    return write_out(c, r, &res, read, "softmax_out");
}

/* ---- host data ---- */

static tl_status host_layout(const mt_call *c, mt_result *r, tl_device dev, mt_layout *out)
{
    if ((unsigned)c->dtype > TL_F64)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "invalid dtype %d", (int)c->dtype);
    if (dev != TL_CPU && dev != TL_CUDA)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "invalid device %d", (int)dev);
    if (mt_check_shape(r, c->s[0].n, c->s[0].v, c->dtype) != TL_OK)
        return r->status;
    mt_layout_dense(out, c->s[0].n, c->s[0].v, c->dtype, dev);
    return TL_OK;
}

/* torch.frombuffer(...).reshape(shape).to(device).clone(): a new storage
 * holding numel elements read from the host. */
tl_status mt_from_data(const mt_call *c, mt_result *r)
{
    mt_layout out;
    if (host_layout(c, r, c->device, &out) != TL_OK)
        return r->status;
    return mt_new_storage(r, &out, mt_nbytes(&out), "from_data copies the host data");
}

/* torch.from_numpy / frombuffer without a copy: a CPU tensor over the
 * caller's memory.  Its storage is external: nbytes as torch reports it,
 * 0 bytes allocated, never freed by the runtime. */
tl_status mt_from_blob(const mt_call *c, mt_result *r)
{
    mt_layout out;
    if (host_layout(c, r, TL_CPU, &out) != TL_OK)
        return r->status;
    mt_new_storage(r, &out, mi_c(0), "from_blob wraps the caller's memory: nothing allocated");
    r->external = true;
    r->alloc_nbytes = mi_c(0);
    r->written_bytes = mi_c(0);
    return TL_OK;
}

/* t.contiguous().cpu().numpy().tobytes() into the caller's buffer of nbytes. */
tl_status mt_copy_to_host(const mt_call *c, mt_result *r)
{
    const mt_layout *t = c->in[0];
    mt_int nbytes = mt_nbytes(t);
    char a[64], b[64];
    if (mi_lt(c->i[0], nbytes))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "copy_to_host: the buffer holds %s bytes, the "
                       "tensor needs %s", mi_str(c->i[0], a, sizeof a),
                       mi_str(nbytes, b, sizeof b));
    r->status = TL_OK;
    r->kind = MT_KIND_NONE;
    r->out = *t;
    r->read_bytes = nbytes;
    r->written_bytes = nbytes;
    snprintf(r->msg, sizeof r->msg, "copy_to_host: copies %s bytes out",
             mi_str(nbytes, a, sizeof a));
    return TL_OK;
}
