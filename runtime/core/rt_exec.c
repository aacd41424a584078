/*
 * rt_exec.c: one API call, end to end: unpack the arguments by the op's
 * signature, check the handles, run the meta function, then make the
 * result (a view handle, or a new storage filled by a kernel, or a write
 * through the first operand) and trace it.
 *
 * The meta function has already checked everything that depends on
 * metadata; only data-dependent checks (index values in range) happen here.
 *
 * Devices: kernels run on the device of the tensor they write, through that
 * device's kernel table (the CPU's is kernels.h; CUDA's is the backend's,
 * cuda_rt.h).  An operand on the other device -- a 0-dim CPU input of a
 * CUDA op (TensorIterator's "CPU scalar", mt_check_iter_devices), or
 * copy_'s source -- is first staged: a dense copy on the kernel's device,
 * freed after the call.
 * to_device is a transfer, not a kernel.  A kernel sees only buffers of its
 * own device.  CUDA failures are collected by cuda_rt.h's pending error and
 * raised at the end of the call (TL_ERR_DEVICE or TL_ERR_OUT_OF_MEMORY); a
 * new storage whose kernel failed is released.
 */
#include "rt_internal.h"
#include "cuda_rt.h"
#include "kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct rt_args {
    mt_call call;
    tl_tensor *t[TL_MAX_LIST];       /* the handles behind call.in[] */
    rt_buf buf[TL_MAX_LIST];         /* what kernels read: the operand or its staged copy */
    void *staged[TL_MAX_LIST];       /* staged copies on the kernel's device, or NULL */
    mt_layout staged_l[TL_MAX_LIST]; /* layouts of staged copies (dense); not cleared */
} rt_args;

/* The CPU's kernel table is kernels.h itself. */
static const cu_kernels cpu_kernels = {
    rt_copy, rt_fill, rt_arange, rt_randn, rt_randint, rt_binary, rt_binary_scalar, rt_unary,
    rt_reduce, rt_softmax, rt_matmul, rt_conv2d, rt_index_select, rt_gather, rt_index, rt_cat,
    rt_binary_inplace, rt_mul_scalar_inplace, rt_model,
};

static const cu_kernels *kernels_on(tl_device d)
{
    return d == TL_CUDA ? cu_backend_current()->kernels : &cpu_kernels;
}

static void unpack_list(rt_args *a, tl_list list)
{
    a->call.n_in = list.n < 0 ? 0 : (list.n > TL_MAX_LIST ? TL_MAX_LIST : list.n);
    for (int k = 0; k < a->call.n_in; k++)
        a->t[k] = list.v[k];
}

/* Zeroes what unpacking may leave unset.  The per-operand arrays (call.in,
 * call.storage, call.external, t, buf, staged) are filled for the n_in
 * operands (check_args, stage_operands) and a list's values past its n
 * are never read: a memset of the whole (rep stos) took a tenth of a
 * small call. */
static void args_clear(rt_args *a)
{
    mt_call *c = &a->call;
    c->n_in = 0;
    for (int k = 0; k < 4; k++)
        c->i[k] = 0;
    c->s[0].n = c->s[1].n = 0;
    c->f = 0.0;
    c->b = c->has_storage_ids = false;
    c->dtype = (tl_dtype)0, c->device = (tl_device)0, c->format = (tl_format)0;
    c->ptr = NULL;
}

/* Reads the variadic arguments of op in signature order into a. */
static void unpack(rt_args *a, mt_op op, va_list *ap)
{
    int ni = 0, ns = 0;
    args_clear(a);
    a->call.op = op;
    for (const char *p = mt_ops[op].signature; *p; p++) {
        switch (*p) {
        case 't': a->t[a->call.n_in++] = va_arg(*ap, tl_tensor *); break;
        case 'L': unpack_list(a, va_arg(*ap, tl_list)); break;
        case 'S': a->call.s[ns++] = va_arg(*ap, tl_ints); break;
        case 'i': a->call.i[ni++] = va_arg(*ap, int64_t); break;
        case 'b': a->call.b = va_arg(*ap, int) != 0; break;
        case 'f': a->call.f = va_arg(*ap, double); break;
        case 'y': a->call.dtype = (tl_dtype)va_arg(*ap, int); break;
        case 'v': a->call.device = (tl_device)va_arg(*ap, int); break;
        case 'm': a->call.format = (tl_format)va_arg(*ap, int); break;
        case 'p': a->call.ptr = va_arg(*ap, const void *); break;
        default: break;
        }
    }
}

static bool check_args(const rt_site *site, rt_args *a)
{
    for (int k = 0; k < a->call.n_in; k++) {
        if (!rt_check_handle(site, a->t[k]))
            return false;
        a->t[k]->l.storage_nbytes = a->t[k]->storage->nbytes; /* a view's, after a resize */
        a->call.in[k] = &a->t[k]->l;
        a->call.storage[k] = a->t[k]->storage->id;
        a->call.external[k] = a->t[k]->storage->external;
    }
    a->call.has_storage_ids = true;
    for (int k = 0; k < 2; k++) {
        if (a->call.s[k].n < 0 || a->call.s[k].n > TL_MAX_DIMS) {
            rt_raise(site, TL_ERR_BAD_ARGUMENT, "a tl_ints holds 0 to %d values, not %d",
                     TL_MAX_DIMS, a->call.s[k].n);
            return false;
        }
    }
    return true;
}

static rt_buf buf_of(const tl_tensor *t) { return (rt_buf){&t->l, t->storage->data}; }

/* Raises the pending failure of a kernel or a transfer, if any; true when
 * there was one.  Memory that ran out (the host's for a CPU kernel's
 * scratch) is said so, not called a CUDA error; the call names where. */
static bool raise_device_error(const rt_site *site)
{
    cu_error e;
    if (!cu_error_take(&e))
        return false;
    if (e.status == TL_ERR_OUT_OF_MEMORY)
        rt_raise(site, e.status, "out of memory: %s: %s", e.call, e.detail);
    else
        rt_raise(site, e.status, "CUDA error: %s: %s", e.call, e.detail);
    return true;
}

/* Every index value (idx on the host) must address a row of a dim of the
 * given size; negative values count from the end only for t[idx]
 * (index_select and gather reject them, as in PyTorch). */
static bool check_host_index(const rt_site *site, const mt_layout *l, const char *base, int dim,
                             int64_t size, bool negative_ok)
{
    int64_t n = mt_numel(l), pos[TL_MAX_DIMS] = {0};
    int esize = mt_dtype_size(l->dtype);
    for (int64_t k = 0; k < n; k++) {
        int64_t v = (int64_t)rt_load(l->dtype, base + mt_element_offset(l, pos) * esize);
        if (v < (negative_ok ? -size : 0) || v >= size) {
            rt_raise(site, TL_ERR_BAD_DIM, "index %lld is out of bounds for dimension %d with "
                     "size %lld", (long long)v, dim, (long long)size);
            return false;
        }
        for (int d = l->ndim - 1; d >= 0 && ++pos[d] == l->shape[d]; d--)
            pos[d] = 0;
    }
    return true;
}

/* A device index is checked on a host copy of the bytes it spans. */
static bool check_index_values(const rt_site *site, const tl_tensor *idx, int dim, int64_t size,
                               bool negative_ok)
{
    if (idx->storage->device == TL_CPU)
        return check_host_index(site, &idx->l, idx->storage->data, dim, size, negative_ok);
    mt_layout hl;
    rt_buf b = buf_of(idx);
    char *host = cu_host_mirror(&b, &hl);
    bool ok = host && check_host_index(site, &hl, host, dim, size, negative_ok);
    free(host);
    if (!host)
        raise_device_error(site);
    return ok;
}

/* masked_fill reads a mask of another dtype as torch 1.13's CPU kernel
 * does: the first byte of each element as a bool, which must be 0 or 1. */
static bool check_mask_values(const rt_site *site, const tl_tensor *mask)
{
    mt_layout hl = mask->l;
    rt_buf b = buf_of(mask);
    char *host = mask->storage->device == TL_CPU ? mask->storage->data : cu_host_mirror(&b, &hl);
    int64_t n = mt_numel(&hl), pos[TL_MAX_DIMS] = {0};
    bool ok = host != NULL;
    for (int64_t k = 0; ok && k < n; k++) {
        uint8_t v = *(const uint8_t *)(host + mt_element_offset(&hl, pos) * mt_dtype_size(hl.dtype));
        ok = v <= 1;
        for (int d = hl.ndim - 1; d >= 0 && ++pos[d] == hl.shape[d]; d--)
            pos[d] = 0;
    }
    if (mask->storage->device != TL_CPU)
        free(host);
    if (!host)
        raise_device_error(site);
    else if (!ok)
        rt_raise(site, TL_ERR_BAD_ARGUMENT, "Mask tensor can take 0 and 1 values only");
    return ok;
}

/* Host memory a call reads or writes must be there (a NULL pointer with bytes to move). */
static bool check_host_ptr(const rt_site *site, const rt_args *a, int64_t nbytes)
{
    if (a->call.ptr || nbytes == 0)
        return true;
    rt_raise(site, TL_ERR_BAD_ARGUMENT, "tl_%s: the host pointer is NULL",
             mt_ops[a->call.op].name);
    return false;
}

static bool data_checks(const rt_site *site, const rt_args *a, const mt_result *r)
{
    const mt_call *c = &a->call;
    int64_t dim;
    switch (c->op) {
    case MT_OP_masked_fill:
        return c->in[1]->dtype == TL_BOOL || check_mask_values(site, a->t[1]);
    case MT_OP_from_data: case MT_OP_from_blob: return check_host_ptr(site, a, mt_nbytes(&r->out));
    case MT_OP_copy_to_host: return check_host_ptr(site, a, mt_nbytes(c->in[0]));
    case MT_OP_index: return check_index_values(site, a->t[1], 0, c->in[0]->shape[0], true);
    case MT_OP_index_select:
    case MT_OP_gather:
        mt_wrap_dim(c->i[0], c->in[0]->ndim, &dim);
        return check_index_values(site, a->t[1], (int)dim,
                                  c->in[0]->ndim ? c->in[0]->shape[dim] : 1, false);
    case MT_OP_index_add_: case MT_OP_index_add: case MT_OP_cross_entropy:
        return rt_train_data_check(site, c, a->t);
    default: return true;
    }
}

/* ---- staging: operands on the other device ---- */

void *rt_scratch_new(size_t nbytes, const char *what)
{
    void *p = malloc(nbytes ? nbytes : 1);
    if (!p)
        cu_fail(TL_ERR_OUT_OF_MEMORY, what, "host out of memory");
    return p;
}

static void *stage_alloc(tl_device dev, int64_t nbytes)
{
    if (dev == TL_CUDA)
        return cu_scratch_new(nbytes);
    return rt_scratch_new((size_t)(nbytes > 0 ? nbytes : 1), "malloc (staged operand)");
}

/* Operand k as a dense copy on dev. */
static bool stage_one(rt_args *a, int k, tl_device dev)
{
    const tl_tensor *t = a->t[k];
    mt_layout *sl = &a->staged_l[k];
    *sl = t->l;
    sl->device = dev, sl->offset = 0;
    mt_contiguous_strides(sl->ndim, sl->shape, sl->strides);
    sl->storage_nbytes = mt_nbytes(sl);
    if (!(a->staged[k] = stage_alloc(dev, sl->storage_nbytes)))
        return false;
    a->buf[k] = (rt_buf){sl, a->staged[k]};
    rt_buf from = buf_of(t);
    return cu_transfer(&a->buf[k], dev, &from, t->storage->device);
}

/* Fills a->buf so that every operand a kernel on dev reads lives on dev. */
static bool stage_operands(rt_args *a, tl_device dev)
{
    for (int k = 0; k < a->call.n_in; k++)
        a->staged[k] = NULL;
    for (int k = 0; k < a->call.n_in; k++) {
        a->buf[k] = buf_of(a->t[k]);
        if (a->t[k]->storage->device != dev && !stage_one(a, k, dev))
            return false;
    }
    return true;
}

static void unstage_operands(rt_args *a, tl_device dev)
{
    for (int k = 0; k < a->call.n_in; k++) {
        if (!a->staged[k])
            continue;
        if (dev == TL_CUDA)
            cu_scratch_free(a->staged[k]);
        else
            free(a->staged[k]);
        a->staged[k] = NULL;
    }
}

/* ---- kernels ---- */

static void run_kernel_cat(const cu_kernels *k, const rt_args *a, const rt_buf *out)
{
    int64_t dim;
    mt_wrap_dim(a->call.i[0], out->l->ndim, &dim);
    k->cat(out, a->call.n_in, a->buf, (int)dim);
}

/* reshape and flatten copy in the input's shape, row-major, and reinterpret. */
static void copy_reshaped(const cu_kernels *k, const rt_buf *out, const rt_buf *x)
{
    mt_layout dense = *out->l;
    dense.ndim = x->l->ndim;
    for (int d = 0; d < dense.ndim; d++)
        dense.shape[d] = x->l->shape[d];
    mt_contiguous_strides(dense.ndim, dense.shape, dense.strides);
    dense.offset = 0;
    rt_buf dst = {&dense, out->base};
    k->copy(&dst, x);
}

/* conv2d of an unbatched (C, H, W) input: the kernel sees a batch of one. */
static void conv_unbatched(const cu_kernels *k, const rt_buf *out, const rt_buf *x,
                           const rt_buf *w, int64_t stride, int64_t padding)
{
    mt_layout xl = *x->l, ol = *out->l;
    for (int d = 3; d > 0; d--) {
        xl.shape[d] = xl.shape[d - 1];
        xl.strides[d] = xl.strides[d - 1];
        ol.shape[d] = ol.shape[d - 1];
        ol.strides[d] = ol.strides[d - 1];
    }
    xl.shape[0] = ol.shape[0] = 1;
    xl.strides[0] = xl.shape[1] * xl.strides[1];
    ol.strides[0] = ol.shape[1] * ol.strides[1];
    xl.ndim = ol.ndim = 4;
    rt_buf x4 = {&xl, x->base}, o4 = {&ol, out->base};
    k->conv2d(&o4, &x4, w, stride, padding);
}

/* The ops for real models that compute a new storage (kernel_model.c, cuda_model.cu). */
static bool is_model_op(mt_op op)
{
    switch (op) {
    case MT_OP_sqrt: case MT_OP_rsqrt: case MT_OP_log: case MT_OP_sin: case MT_OP_cos:
    case MT_OP_tanh: case MT_OP_sigmoid: case MT_OP_silu: case MT_OP_gelu:
    case MT_OP_pow_scalar: case MT_OP_div_scalar: case MT_OP_maximum: case MT_OP_minimum:
    case MT_OP_max: case MT_OP_argmax: case MT_OP_where: case MT_OP_masked_fill:
    case MT_OP_triu: case MT_OP_tril: case MT_OP_stack: case MT_OP_eq: case MT_OP_lt:
    case MT_OP_mul_: case MT_OP_div_: case MT_OP_add_scalar_:
        return true;
    case MT_OP_index_add: case MT_OP_gelu_tanh: case MT_OP_log_softmax:
    case MT_OP_cross_entropy: /* the ops for training (kernel_train.c, cuda_train.cu) */
        return true;
    default:
        return false;
    }
}

static void run_model(const cu_kernels *k, const rt_args *a, const rt_buf *out)
{
    if (!k->model) {
        cu_fail(TL_ERR_DEVICE, "model kernels", "this device backend has no kernel for the op");
        return;
    }
    k->model(&a->call, out, a->call.n_in, a->buf);
}

/* Fills a new storage (out) from the operands, with the kernels of out's device. */
static void run_kernel(const cu_kernels *k, const rt_args *a, const rt_buf *out)
{
    const mt_call *c = &a->call;
    const rt_buf *x = &a->buf[0], *y = &a->buf[1];
    int64_t dim = 0;
    if (c->n_in > 0 && (c->op == MT_OP_sum || c->op == MT_OP_mean || c->op == MT_OP_softmax ||
                        c->op == MT_OP_index_select || c->op == MT_OP_gather))
        mt_wrap_dim(c->i[0], c->in[0]->ndim, &dim);
    if (is_model_op(c->op)) {
        run_model(k, a, out);
        return;
    }
    switch (c->op) {
    case MT_OP_empty: case MT_OP_zeros: k->fill(out, 0.0); break;
    case MT_OP_ones: k->fill(out, 1.0); break;
    case MT_OP_full: case MT_OP_scalar: k->fill(out, c->f); break;
    case MT_OP_randn: k->randn(out, rt_global_rng()); break;
    case MT_OP_arange: k->arange(out); break;
    case MT_OP_randint: k->randint(out, c->i[0], c->i[1], rt_global_rng()); break;
    case MT_OP_index: k->index(out, x, y); break;
    case MT_OP_index_select: k->index_select(out, x, (int)dim, y); break;
    case MT_OP_gather: k->gather(out, x, (int)dim, y); break;
    case MT_OP_cat: run_kernel_cat(k, a, out); break;
    case MT_OP_add: k->binary(RT_ADD, out, x, y); break;
    case MT_OP_sub: k->binary(RT_SUB, out, x, y); break;
    case MT_OP_mul: k->binary(RT_MUL, out, x, y); break;
    case MT_OP_div: k->binary(RT_DIV, out, x, y); break;
    case MT_OP_add_scalar: k->binary_scalar(RT_ADD, out, x, c->f); break;
    case MT_OP_mul_scalar: k->binary_scalar(RT_MUL, out, x, c->f); break;
    case MT_OP_neg: k->unary(RT_NEG, out, x); break;
    case MT_OP_exp: k->unary(RT_EXP, out, x); break;
    case MT_OP_relu: k->unary(RT_RELU, out, x); break;
    case MT_OP_sum: k->reduce(RT_SUM, out, x, (int)dim, c->b); break;
    case MT_OP_mean: k->reduce(RT_MEAN, out, x, (int)dim, c->b); break;
    case MT_OP_softmax: k->softmax(out, x, (int)dim); break;
    case MT_OP_matmul: k->matmul(out, x, y); break;
    case MT_OP_conv2d:
        if (x->l->ndim == 3)
            conv_unbatched(k, out, x, y, c->i[0], c->i[1]);
        else
            k->conv2d(out, x, y, c->i[0], c->i[1]);
        break;
    case MT_OP_reshape: case MT_OP_flatten: copy_reshaped(k, out, x); break;
    default: k->copy(out, x); break; /* contiguous, to, to_format, clone */
    }
}

/* The element index of tl_set / tl_get, negative entries counted from the end. */
static void element_index(const rt_args *a, int64_t *index)
{
    const mt_layout *l = a->call.in[0];
    for (int d = 0; d < l->ndim; d++)
        index[d] = a->call.s[0].v[d] < 0 ? a->call.s[0].v[d] + l->shape[d] : a->call.s[0].v[d];
}

static void run_set(const rt_args *a)
{
    rt_buf t = buf_of(a->t[0]);
    int64_t index[TL_MAX_DIMS], cell = 0; /* cell: aligned for every dtype */
    element_index(a, index);
    if (a->t[0]->storage->device == TL_CUDA) {
        rt_store(t.l->dtype, &cell, a->call.f);
        cu_element_write(&t, index, &cell);
        return;
    }
    rt_store(t.l->dtype, (char *)t.base + mt_element_offset(t.l, index) *
             mt_dtype_size(t.l->dtype), a->call.f);
}

/* An out= form: the functional op into out (already resized), through a
 * dense scratch of out's device when out is not contiguous at offset 0. */
static void run_out(const cu_kernels *k, const rt_args *a, const rt_buf *out)
{
    mt_layout dense = *out->l;
    const rt_buf *x = &a->buf[1], *y = &a->buf[2];
    tl_device dev = a->t[0]->storage->device;
    bool direct = dense.offset == 0 && mt_is_contiguous(&dense);
    void *scratch = NULL;
    if (mt_numel(&dense) == 0)
        return;
    if (!direct) {
        mt_contiguous_strides(dense.ndim, dense.shape, dense.strides);
        dense.offset = 0;
        if (!(scratch = stage_alloc(dev, mt_nbytes(&dense))))
            return;
    }
    rt_buf dst = direct ? *out : (rt_buf){&dense, scratch};
    int64_t dim = 0;
    if (a->call.op == MT_OP_matmul_out) {
        k->matmul(&dst, x, y);
    } else {
        mt_wrap_dim(a->call.i[0], x->l->ndim, &dim);
        k->softmax(&dst, x, (int)dim);
    }
    if (direct)
        return;
    k->copy(out, &dst);
    if (dev == TL_CUDA)
        cu_scratch_free(scratch);
    else
        free(scratch);
}

/* Writes through the first operand, with the kernels of its device. */
static void run_inplace(rt_args *a)
{
    const mt_call *c = &a->call;
    tl_device dev = a->t[0]->storage->device;
    const cu_kernels *k = kernels_on(dev);
    if (c->op == MT_OP_set) {
        run_set(a);
        return;
    }
    if (stage_operands(a, dev)) {
        const rt_buf *t = &a->buf[0], *o = &a->buf[1];
        switch (c->op) {
        case MT_OP_add_: k->binary_inplace(RT_ADD, t, o); break;
        case MT_OP_sub_: k->binary_inplace(RT_SUB, t, o); break;
        case MT_OP_mul_scalar_: k->mul_scalar_inplace(t, c->f); break;
        case MT_OP_fill_: k->fill(t, c->f); break;
        case MT_OP_zero_: k->fill(t, 0.0); break;
        case MT_OP_copy_: k->copy(t, o); break;
        case MT_OP_mul_: case MT_OP_div_: case MT_OP_add_scalar_: run_model(k, a, t); break;
        case MT_OP_index_add_: case MT_OP_sqrt_: case MT_OP_addcmul_: case MT_OP_addcdiv_:
        case MT_OP_lerp_: run_model(k, a, t); break;
        case MT_OP_matmul_out: case MT_OP_softmax_out: run_out(k, a, t); break;
        default: break;
        }
    }
    unstage_operands(a, dev);
}

/* copy_to_host: t's elements, row-major, into the caller's buffer. */
static void run_copy_to_host(const rt_args *a)
{
    const tl_tensor *t = a->t[0];
    mt_layout hl = t->l;
    hl.device = TL_CPU, hl.offset = 0;
    mt_contiguous_strides(hl.ndim, hl.shape, hl.strides);
    hl.storage_nbytes = mt_nbytes(&hl);
    rt_buf dst = {&hl, (void *)a->call.ptr}, src = buf_of(t);
    cu_transfer(&dst, TL_CPU, &src, t->storage->device);
}

static double run_get(const rt_args *a)
{
    const mt_layout *l = a->call.in[0];
    int64_t index[TL_MAX_DIMS], cell = 0;
    element_index(a, index);
    if (a->t[0]->storage->device == TL_CUDA) {
        rt_buf t = buf_of(a->t[0]);
        return cu_element_read(&t, index, &cell) ? rt_load(l->dtype, &cell) : NAN;
    }
    return rt_load(l->dtype, (const char *)a->t[0]->storage->data +
                   mt_element_offset(l, index) * mt_dtype_size(l->dtype));
}

/* The new storage's contents: a transfer for to_device, else a kernel on dev. */
static void fill_new(rt_args *a, const rt_buf *out, tl_device dev)
{
    if (a->call.op == MT_OP_to_device) {
        rt_buf x = buf_of(a->t[0]);
        cu_transfer(out, dev, &x, a->t[0]->storage->device);
        return;
    }
    if (a->call.op == MT_OP_from_data) {
        mt_layout hl = *out->l;
        hl.device = TL_CPU;
        rt_buf x = {&hl, (void *)a->call.ptr};
        cu_transfer(out, dev, &x, TL_CPU);
        return;
    }
    if (stage_operands(a, dev))
        run_kernel(kernels_on(dev), a, out);
    unstage_operands(a, dev);
}

/* from_blob: a handle over an external storage wrapping the caller's memory. */
static tl_tensor *make_external(const rt_site *site, const rt_args *a, const mt_result *r)
{
    rt_storage *s = rt_storage_external(site, (void *)a->call.ptr, r->out.storage_nbytes);
    if (!s)
        return NULL;
    tl_tensor *t = rt_handle_new(&r->out, s);
    if (!t) {
        free(s); /* no handle holds it; the caller's memory stays the caller's */
        rt_raise(site, TL_ERR_OUT_OF_MEMORY, "host out of memory for a tensor handle");
        return NULL;
    }
    return t;
}

/* resize_output: out takes its new layout; its storage grows when it must. */
static bool resize_out(const rt_site *site, rt_args *a, const mt_result *r)
{
    tl_tensor *t = a->t[0];
    if (r->grow_nbytes > 0 && !rt_storage_grow(site, t->storage, r->out.storage_nbytes))
        return false;
    t->l = r->out;
    t->l.storage_nbytes = t->storage->nbytes;
    a->call.in[0] = &t->l;
    return true;
}

static tl_tensor *make_new(const rt_site *site, rt_args *a, const mt_result *r)
{
    tl_device dev = r->out.device;
    if (dev == TL_CUDA && !tl_device_available(TL_CUDA)) {
        rt_raise(site, TL_ERR_DEVICE, "a TL_CUDA tensor needs a CUDA device, and none is "
                 "usable: %s", cu_unavailable_reason());
        return NULL;
    }
    rt_storage *s = rt_storage_new(site, dev, r->alloc_nbytes);
    if (!s)
        return NULL;
    tl_tensor *t = rt_handle_new(&r->out, s);
    if (!t) {
        rt_raise(site, TL_ERR_OUT_OF_MEMORY, "host out of memory for a tensor handle");
        return NULL;
    }
    rt_buf out = buf_of(t);
    if (mt_numel(&t->l) > 0)
        fill_new(a, &out, dev);
    if (raise_device_error(site)) {
        rt_handle_release(site, t);
        return NULL;
    }
    return t;
}

rt_outcome rt_exec(const rt_site *site, va_list *ap)
{
    rt_outcome o = {NULL, NAN, false};
    rt_args a;
    mt_result r;
    unpack(&a, site->op, ap);
    if (!check_args(site, &a))
        return o;
    if (rt_meta_run(site, &a.call, &r) != TL_OK) {
        rt_raise(site, r.status, "%s", r.msg);
        return o;
    }
    if (!data_checks(site, &a, &r))
        return o;
    switch (r.kind) {
    case MT_KIND_VIEW: o.t = rt_handle_new(&r.out, a.t[r.view_of]->storage); break;
    case MT_KIND_NEW: o.t = r.external ? make_external(site, &a, &r) : make_new(site, &a, &r); break;
    case MT_KIND_INPLACE:
        if (r.resized && !resize_out(site, &a, &r))
            return o;
        run_inplace(&a);
        break;
    case MT_KIND_NONE:
        if (a.call.op == MT_OP_copy_to_host)
            run_copy_to_host(&a);
        else
            o.value = run_get(&a);
        break;
    }
    o.ok = r.kind == MT_KIND_INPLACE || r.kind == MT_KIND_NONE || o.t != NULL;
    if (o.ok && r.temp_nbytes > 0) /* what PyTorch allocates and frees within the call */
        rt_stats_transient(r.out.device, r.temp_nbytes);
    if (r.kind != MT_KIND_NEW && raise_device_error(site)) {
        o.ok = false;
        o.value = NAN;
    }
    if (o.ok)
        rt_trace_call(site, &r, r.kind == MT_KIND_INPLACE ? a.t[0] : o.t);
    return o;
}
