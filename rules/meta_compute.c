/*
 * meta_compute.c: elementwise ops, reductions, softmax, matmul and conv2d.
 *
 * Elementwise outputs take TensorIterator's layout (mt_iter_out_strides):
 * a permuted dense input gives a permuted output.  Dtypes follow
 * torch.result_type; true division and float scalars lift integer inputs
 * to F32.  Reductions, softmax and matmul write contiguous outputs; conv2d
 * writes channels-last when its input or weight suggests channels-last.
 * A compute op reads each input once and writes its output once.
 */
#include "meta_impl.h"

#include <string.h>

tl_status mt_check_same_device(mt_result *r, int n, const mt_layout *const *ops)
{
    for (int k = 1; k < n; k++)
        if (ops[k]->device != ops[0]->device)
            return mt_fail(r, TL_ERR_DEVICE, "Expected all tensors to be on the same device, but "
                           "found at least two devices, %s and %s!",
                           mt_device_name(ops[0]->device), mt_device_name(ops[k]->device));
    return TL_OK;
}

tl_status mt_check_iter_devices(mt_result *r, int n, const mt_layout *const *ops, int n_out,
                                tl_device *common)
{
    tl_device dev = TL_CPU;
    int cpu_scalars = 0;
    for (int k = 0; k < n && dev == TL_CPU; k++)
        dev = ops[k]->device;
    for (int k = 0; k < n; k++) {
        if (ops[k]->device == dev)
            continue;
        if (k >= n_out && ops[k]->ndim == 0 && ops[k]->device == TL_CPU) {
            if (cpu_scalars++ == 0)
                continue;
            return mt_fail(r, TL_ERR_DEVICE, "Trying to pass too many CPU scalars to non-CPU "
                           "kernel!");
        }
        return mt_fail(r, TL_ERR_DEVICE, "Expected all tensors to be on the same device, but "
                       "found at least two devices, %s and %s!", mt_device_name(dev),
                       mt_device_name(ops[k]->device));
    }
    *common = dev;
    return TL_OK;
}

static tl_status broadcast_error(mt_result *r, const mt_layout *a, const mt_layout *b)
{
    int n = a->ndim > b->ndim ? a->ndim : b->ndim;
    for (int k = n - 1; k >= 0; k--) {
        int da = a->ndim - n + k, db = b->ndim - n + k;
        mt_int sa = da >= 0 ? a->shape[da] : mi_c(1), sb = db >= 0 ? b->shape[db] : mi_c(1);
        char ta[64], tb[64];
        if (mi_ne(sa, sb) && mi_ne(sa, 1) && mi_ne(sb, 1))
            return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "The size of tensor a (%s) must match the "
                           "size of tensor b (%s) at non-singleton dimension %d",
                           mi_str(sa, ta, sizeof ta), mi_str(sb, tb, sizeof tb), k);
    }
    return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "shapes do not broadcast");
}

/* An elementwise result over n operands with the given dtype. */
tl_status mt_elementwise(const mt_call *c, mt_result *r, int n, tl_dtype dtype,
                             const char *reason)
{
    mt_layout out;
    mt_int read = mi_c(0);
    memset(&out, 0, sizeof out);
    out.ndim = 0;
    for (int k = 0; k < n; k++) {
        int nd;
        mt_int shape[TL_MAX_DIMS];
        if (!mt_broadcast_shapes(out.ndim, out.shape, c->in[k]->ndim, c->in[k]->shape, &nd, shape))
            return broadcast_error(r, c->in[0], c->in[k]);
        out.ndim = nd;
        memcpy(out.shape, shape, sizeof shape);
        if (!mt_add_bytes(r, &read, mt_nbytes(c->in[k])))
            return r->status;
    }
    if (mt_check_iter_devices(r, n, c->in, 0, &out.device) != TL_OK ||
        mt_check_shape(r, out.ndim, out.shape, dtype) != TL_OK)
        return r->status;
    out.dtype = dtype;
    mt_iter_out_strides(out.ndim, out.shape, n, c->in, out.strides);
    return mt_new_storage(r, &out, read, "%s", reason);
}

static tl_status binary(const mt_call *c, mt_result *r, const char *name)
{
    tl_dtype dt = mt_result_type(2, c->in);
    bool a_bool = c->in[0]->dtype == TL_BOOL, b_bool = c->in[1]->dtype == TL_BOOL;
    char reason[64];
    if (c->op == MT_OP_sub && a_bool && b_bool)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Subtraction, the `-` operator, with two bool "
                       "tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
    if (c->op == MT_OP_sub && (a_bool || b_bool))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Subtraction, the `-` operator, with a bool "
                       "tensor is not supported. If you are trying to invert a mask, use the `~` "
                       "or `logical_not()` operator instead.");
    if (c->op == MT_OP_div && !mt_is_floating(dt))
        dt = TL_F32;
    snprintf(reason, sizeof reason, "%s allocates", name);
    return mt_elementwise(c, r, 2, dt, reason);
}

tl_status mt_add(const mt_call *c, mt_result *r) { return binary(c, r, "add"); }
tl_status mt_sub(const mt_call *c, mt_result *r) { return binary(c, r, "sub"); }
tl_status mt_mul(const mt_call *c, mt_result *r) { return binary(c, r, "mul"); }
tl_status mt_div(const mt_call *c, mt_result *r) { return binary(c, r, "div"); }

/* t op s with a Python float: wrapped_scalar_tensor(s) joins the iterator as a
 * 0-dim CPU operand, so TensorIterator takes its general path (operands of
 * different shapes): the output's dims are sorted by the input's strides,
 * size-1 dims included, never copied from a dense input as the unary fast
 * path does.  The scalar is a value, not memory: it reads no bytes. */
tl_status mt_with_scalar(const mt_call *c, mt_result *r, tl_dtype dt, const char *reason)
{
    mt_call cs = *c;
    mt_layout s;
    memset(&s, 0, sizeof s);
    s.dtype = TL_F64;
    s.device = TL_CPU;
    s.storage_nbytes = MI(mt_dtype_size(TL_F64));
    cs.in[1] = &s;
    cs.n_in = 2;
    if (mt_elementwise(&cs, r, 2, dt, reason) == TL_OK)
        r->read_bytes = mt_nbytes(c->in[0]);
    return r->status;
}

/* t + s, t * s: floating tensors keep their dtype, others give F32. */
static tl_status with_scalar(const mt_call *c, mt_result *r, const char *reason)
{
    tl_dtype dt = mt_is_floating(c->in[0]->dtype) ? c->in[0]->dtype : TL_F32;
    return mt_with_scalar(c, r, dt, reason);
}

tl_status mt_add_scalar(const mt_call *c, mt_result *r) { return with_scalar(c, r, "add allocates"); }
tl_status mt_mul_scalar(const mt_call *c, mt_result *r) { return with_scalar(c, r, "mul allocates"); }

tl_status mt_neg(const mt_call *c, mt_result *r)
{
    if (c->in[0]->dtype == TL_BOOL)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Negation, the `-` operator, on a bool tensor is "
                       "not supported. If you are trying to invert a mask, use the `~` or "
                       "`logical_not()` operator instead.");
    return mt_elementwise(c, r, 1, c->in[0]->dtype, "neg allocates");
}

/* exp of an integer or bool tensor computes in the default float dtype, F32. */
tl_status mt_exp(const mt_call *c, mt_result *r)
{
    tl_dtype dt = mt_is_floating(c->in[0]->dtype) ? c->in[0]->dtype : TL_F32;
    return mt_elementwise(c, r, 1, dt, "exp allocates");
}

tl_status mt_relu(const mt_call *c, mt_result *r)
{
    if (c->in[0]->dtype == TL_BOOL)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "Boolean inputs not supported for relu");
    return mt_elementwise(c, r, 1, c->in[0]->dtype, "relu allocates");
}

/* A contiguous reduction result: dim removed, or kept with size 1. */
static tl_status reduce(const mt_call *c, mt_result *r, tl_dtype dt, const char *reason)
{
    const mt_layout *in = c->in[0];
    int64_t dim;
    mt_int shape[TL_MAX_DIMS];
    int n = 0;
    if (!mt_dim(r, c->i[0], in->ndim, &dim))
        return r->status;
    for (int d = 0; d < in->ndim; d++) {
        if (d != dim)
            shape[n++] = in->shape[d];
        else if (c->b)
            shape[n++] = mi_c(1);
    }
    mt_layout out;
    mt_layout_dense(&out, n, shape, dt, in->device);
    return mt_new_storage(r, &out, mt_nbytes(in), "%s", reason);
}

/* sum: integer and bool inputs accumulate into I64. */
tl_status mt_sum(const mt_call *c, mt_result *r)
{
    tl_dtype dt = mt_is_floating(c->in[0]->dtype) ? c->in[0]->dtype : TL_I64;
    return reduce(c, r, dt, "sum allocates");
}

tl_status mt_mean(const mt_call *c, mt_result *r)
{
    if (!mt_is_floating(c->in[0]->dtype))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "mean(): could not infer output dtype. Input "
                       "dtype must be either a floating point or complex dtype. Got: %s",
                       mt_torch_type_name(c->in[0]->dtype));
    return reduce(c, r, c->in[0]->dtype, "mean allocates");
}

/* softmax: floating inputs only; a contiguous output of the input's shape. */
tl_status mt_softmax(const mt_call *c, mt_result *r)
{
    const mt_layout *in = c->in[0];
    int64_t dim;
    mt_layout out;
    if (!mt_is_floating(in->dtype))
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "softmax needs a floating dtype, not %s (PyTorch: "
                       "\"softmax_lastdim_kernel_impl\" for '%s')", mt_dtype_name(in->dtype),
                       mt_torch_type_name(in->dtype));
    if (!mt_dim(r, c->i[0], in->ndim, &dim))
        return r->status;
    mt_layout_dense(&out, in->ndim, in->shape, in->dtype, in->device);
    return mt_new_storage(r, &out, mt_nbytes(in), "softmax allocates");
}

static tl_status matmul_shape_error(mt_result *r, mt_int m, mt_int k1, mt_int k2, mt_int n)
{
    char a[64], b[64], c[64], d[64];
    return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "mat1 and mat2 shapes cannot be multiplied "
                   "(%sx%s and %sx%s)", mi_str(m, a, sizeof a), mi_str(k1, b, sizeof b),
                   mi_str(k2, c, sizeof c), mi_str(n, d, sizeof d));
}

/* torch.matmul's output shape: 1-D operands are promoted and the added dim
 * removed again; batch dims broadcast. */
static tl_status matmul_shape(mt_result *r, const mt_layout *a, const mt_layout *b, int *n,
                              mt_int *shape)
{
    mt_int m = a->ndim >= 2 ? a->shape[a->ndim - 2] : mi_c(1), k1 = a->shape[a->ndim - 1];
    mt_int k2 = b->ndim >= 2 ? b->shape[b->ndim - 2] : b->shape[0];
    mt_int p = b->ndim >= 2 ? b->shape[b->ndim - 1] : mi_c(1);
    int nb;
    char t1[64], t2[64];
    if (a->ndim == 1 && b->ndim == 1 && mi_ne(k1, k2))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "inconsistent tensor size, expected tensor [%s]"
                       " and src [%s] to have the same number of elements, but got %s and "
                       "%s elements respectively", mi_str(k1, t1, sizeof t1),
                       mi_str(k2, t2, sizeof t2), t1, t2);
    if (mi_ne(k1, k2)) { /* mat1 is a's leading dims flattened: (6x0) for a of (2, 3, 0) */
        mt_int rows = mi_c(1);
        for (int d = 0; d + 1 < a->ndim; d++) /* wraps as torch's only past a size 0 */
            rows = mt_mul_wrap(rows, a->shape[d]);
        return matmul_shape_error(r, rows, k1, k2, p);
    }
    if (!mt_broadcast_shapes(a->ndim > 2 ? a->ndim - 2 : 0, a->shape,
                             b->ndim > 2 ? b->ndim - 2 : 0, b->shape, &nb, shape))
        return broadcast_error(r, a, b);
    *n = nb;
    if (a->ndim >= 2)
        shape[(*n)++] = m;
    if (b->ndim >= 2)
        shape[(*n)++] = p;
    return TL_OK;
}

/* a @ b: equal dtypes, contiguous output; reads both operands, writes the product. */
tl_status mt_matmul(const mt_call *c, mt_result *r)
{
    const mt_layout *a = c->in[0], *b = c->in[1];
    mt_int shape[TL_MAX_DIMS];
    int n = 0;
    mt_layout out;
    if (a->ndim == 0 || b->ndim == 0)
        return mt_fail(r, TL_ERR_BAD_DIM, "both arguments to matmul need to be at least 1D, but "
                       "they are %dD and %dD", a->ndim, b->ndim);
    if (a->dtype != b->dtype)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "expected scalar type %s but found %s",
                       mt_torch_type_name(a->dtype), mt_torch_type_name(b->dtype));
    if (a->dtype == TL_BOOL)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "matmul has no kernel for bool tensors (PyTorch: "
                       "\"addmm_impl_cpu_\" for 'Bool')");
    if (mt_check_same_device(r, 2, c->in) != TL_OK || matmul_shape(r, a, b, &n, shape) != TL_OK ||
        mt_check_shape(r, n, shape, a->dtype) != TL_OK)
        return r->status;
    mt_int read = mt_nbytes(a);
    if (!mt_add_bytes(r, &read, mt_nbytes(b)))
        return r->status;
    mt_layout_dense(&out, n, shape, a->dtype, a->device);
    return mt_new_storage(r, &out, read, "matmul allocates");
}

static tl_status conv_check(mt_result *r, const mt_layout *x, const mt_layout *w, int xd)
{
    char a[160], b[160], cw[64], cx[64];
    if (w->ndim != 4 || (x->ndim != 4 && x->ndim != 3))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Expected 3D (unbatched) or 4D (batched) input "
                       "to conv2d, but got input of size: %s",
                       mt_shape_str(a, sizeof a, x->ndim, x->shape));
    if (x->dtype != w->dtype)
        return mt_fail(r, TL_ERR_DTYPE_MISMATCH, "expected scalar type %s but found %s",
                       mt_torch_type_name(x->dtype), mt_torch_type_name(w->dtype));
    if (mi_ne(x->shape[xd], w->shape[1]))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Given groups=1, weight of size %s, expected "
                       "input%s to have %s channels, but got %s channels instead",
                       mt_shape_str(a, sizeof a, 4, w->shape),
                       mt_shape_str(b, sizeof b, x->ndim, x->shape),
                       mi_str(w->shape[1], cw, sizeof cw), mi_str(x->shape[xd], cx, sizeof cx));
    return TL_OK;
}

/* conv2d(x, w, stride, padding): out = (N, O, (H + 2p - kh)/s + 1, (W + 2p - kw)/s + 1). */
tl_status mt_conv2d(const mt_call *c, mt_result *r)
{
    const mt_layout *x = c->in[0], *w = c->in[1];
    /* stride and padding stay mt_ints: the output size is arithmetic on them */
    mt_int s = c->i[0], p = c->i[1], shape[4];
    int xd = x->ndim == 3 ? 0 : 1; /* channel dim of x */
    char t[4][64];
    if (conv_check(r, x, w, xd) != TL_OK || mt_check_same_device(r, 2, c->in) != TL_OK)
        return r->status;
    if (mi_lt(w->shape[0], 1))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Given groups=1, expected weight to be at least "
                       "1 at dimension 0, but got weight of size [%s, %s, %s, %s]",
                       mi_str(w->shape[0], t[0], sizeof t[0]),
                       mi_str(w->shape[1], t[1], sizeof t[1]),
                       mi_str(w->shape[2], t[2], sizeof t[2]),
                       mi_str(w->shape[3], t[3], sizeof t[3]));
    if (mi_le(s, 0) || mi_lt(p, 0))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "conv2d: stride must be positive and padding "
                       "non-negative (got %s, %s)", mi_str(s, t[0], sizeof t[0]),
                       mi_str(p, t[1], sizeof t[1]));
    mt_int pad2, h, wd, read = mt_nbytes(x);
    if (!mi_mul_ovf(p, MI(2), &pad2) || !mi_add_ovf(pad2, x->shape[xd + 1], &h) ||
        !mi_add_ovf(pad2, x->shape[xd + 2], &wd))
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "conv2d: the input padded by %s does not fit "
                       "in 64 bits", mi_str(p, t[0], sizeof t[0]));
    if (!mt_add_bytes(r, &read, mt_nbytes(w)))
        return r->status;
    if (mi_lt(h, w->shape[2]) || mi_lt(wd, w->shape[3]))
        return mt_fail(r, TL_ERR_SHAPE_MISMATCH, "Calculated padded input size per channel: "
                       "(%s x %s). Kernel size: (%s x %s). Kernel size can't be greater "
                       "than actual input size", mi_str(h, t[0], sizeof t[0]),
                       mi_str(wd, t[1], sizeof t[1]), mi_str(w->shape[2], t[2], sizeof t[2]),
                       mi_str(w->shape[3], t[3], sizeof t[3]));
    int n = 0;
    if (x->ndim == 4)
        shape[n++] = x->shape[0];
    shape[n++] = w->shape[0];
    shape[n++] = mi_add(mi_div(mi_sub(h, w->shape[2]), s), 1);
    shape[n++] = mi_add(mi_div(mi_sub(wd, w->shape[3]), s), 1);
    mt_layout out;
    if (mt_check_shape(r, n, shape, x->dtype) != TL_OK)
        return r->status;
    mt_layout_dense(&out, n, shape, x->dtype, x->device);
    if (n == 4 && (mt_suggest_format(x) == TL_CHANNELS_LAST ||
                   mt_suggest_format(w) == TL_CHANNELS_LAST)) {
        mt_channels_last_strides(out.shape, out.strides);
        return mt_new_storage(r, &out, read, "conv2d allocates (channels-last)");
    }
    return mt_new_storage(r, &out, read, "conv2d allocates");
}
