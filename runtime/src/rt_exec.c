/*
 * rt_exec.c: one API call, end to end: unpack the arguments by the op's
 * signature, check the handles, run the meta function, then make the
 * result (a view handle, or a new storage filled by a kernel, or a write
 * through the first operand) and trace it.
 *
 * The meta function has already checked everything that depends on
 * metadata; only data-dependent checks (index values in range) happen here.
 */
#include "kernels.h"
#include "rt_internal.h"

#include <math.h>
#include <string.h>

typedef struct rt_args {
    mt_call call;
    tl_tensor *t[TL_MAX_LIST]; /* the handles behind call.in[] */
} rt_args;

static void unpack_list(rt_args *a, tl_list list)
{
    a->call.n_in = list.n < 0 ? 0 : (list.n > TL_MAX_LIST ? TL_MAX_LIST : list.n);
    for (int k = 0; k < a->call.n_in; k++)
        a->t[k] = list.v[k];
}

/* Reads the variadic arguments of op in signature order into a. */
static void unpack(rt_args *a, mt_op op, va_list *ap)
{
    int ni = 0, ns = 0;
    memset(a, 0, sizeof *a);
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
        default: break;
        }
    }
}

static bool check_args(const rt_site *site, rt_args *a)
{
    for (int k = 0; k < a->call.n_in; k++) {
        if (!rt_check_handle(site, a->t[k]))
            return false;
        a->call.in[k] = &a->t[k]->l;
        a->call.storage[k] = a->t[k]->storage->id;
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

/* Every index value of idx must address a row of a dim of the given size;
 * negative values count from the end only for t[idx] (index_select and
 * gather reject them, as in PyTorch). */
static bool check_index_values(const rt_site *site, const tl_tensor *idx, int dim, int64_t size,
                               bool negative_ok)
{
    int64_t n = mt_numel(&idx->l), pos[TL_MAX_DIMS] = {0};
    const char *base = idx->storage->data;
    int esize = mt_dtype_size(idx->l.dtype);
    for (int64_t k = 0; k < n; k++) {
        int64_t v = (int64_t)rt_load(idx->l.dtype, base + mt_element_offset(&idx->l, pos) * esize);
        if (v < (negative_ok ? -size : 0) || v >= size) {
            rt_raise(site, TL_ERR_BAD_DIM, "index %lld is out of bounds for dimension %d with "
                     "size %lld", (long long)v, dim, (long long)size);
            return false;
        }
        for (int d = idx->l.ndim - 1; d >= 0 && ++pos[d] == idx->l.shape[d]; d--)
            pos[d] = 0;
    }
    return true;
}

static bool data_checks(const rt_site *site, const rt_args *a)
{
    const mt_call *c = &a->call;
    int64_t dim;
    switch (c->op) {
    case MT_OP_index: return check_index_values(site, a->t[1], 0, c->in[0]->shape[0], true);
    case MT_OP_index_select:
    case MT_OP_gather:
        mt_wrap_dim(c->i[0], c->in[0]->ndim, &dim);
        return check_index_values(site, a->t[1], (int)dim,
                                  c->in[0]->ndim ? c->in[0]->shape[dim] : 1, false);
    default: return true;
    }
}

static void run_kernel_cat(const rt_args *a, const rt_buf *out)
{
    rt_buf parts[TL_MAX_LIST];
    int64_t dim;
    for (int k = 0; k < a->call.n_in; k++)
        parts[k] = buf_of(a->t[k]);
    mt_wrap_dim(a->call.i[0], out->l->ndim, &dim);
    rt_cat(out, a->call.n_in, parts, (int)dim);
}

/* reshape and flatten copy in the input's shape, row-major, and reinterpret. */
static void copy_reshaped(const rt_buf *out, const rt_buf *x)
{
    mt_layout dense = *out->l;
    dense.ndim = x->l->ndim;
    for (int d = 0; d < dense.ndim; d++)
        dense.shape[d] = x->l->shape[d];
    mt_contiguous_strides(dense.ndim, dense.shape, dense.strides);
    dense.offset = 0;
    rt_buf dst = {&dense, out->base};
    rt_copy(&dst, x);
}

/* conv2d of an unbatched (C, H, W) input: the kernel sees a batch of one. */
static void conv_unbatched(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
                           int64_t padding)
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
    rt_conv2d(&o4, &x4, w, stride, padding);
}

/* Fills a new storage (out) from the operands. */
static void run_kernel(const rt_args *a, const rt_buf *out)
{
    const mt_call *c = &a->call;
    rt_buf x = c->n_in > 0 ? buf_of(a->t[0]) : (rt_buf){0};
    rt_buf y = c->n_in > 1 ? buf_of(a->t[1]) : (rt_buf){0};
    int64_t dim = 0;
    if (c->n_in > 0 && (c->op == MT_OP_sum || c->op == MT_OP_mean || c->op == MT_OP_softmax ||
                        c->op == MT_OP_index_select || c->op == MT_OP_gather))
        mt_wrap_dim(c->i[0], c->in[0]->ndim, &dim);
    switch (c->op) {
    case MT_OP_empty: case MT_OP_zeros: rt_fill(out, 0.0); break;
    case MT_OP_ones: rt_fill(out, 1.0); break;
    case MT_OP_full: case MT_OP_scalar: rt_fill(out, c->f); break;
    case MT_OP_randn: rt_randn(out, rt_global_rng()); break;
    case MT_OP_arange: rt_arange(out); break;
    case MT_OP_randint: rt_randint(out, c->i[0], c->i[1], rt_global_rng()); break;
    case MT_OP_index: rt_index(out, &x, &y); break;
    case MT_OP_index_select: rt_index_select(out, &x, (int)dim, &y); break;
    case MT_OP_gather: rt_gather(out, &x, (int)dim, &y); break;
    case MT_OP_cat: run_kernel_cat(a, out); break;
    case MT_OP_add: rt_binary(RT_ADD, out, &x, &y); break;
    case MT_OP_sub: rt_binary(RT_SUB, out, &x, &y); break;
    case MT_OP_mul: rt_binary(RT_MUL, out, &x, &y); break;
    case MT_OP_div: rt_binary(RT_DIV, out, &x, &y); break;
    case MT_OP_add_scalar: rt_binary_scalar(RT_ADD, out, &x, c->f); break;
    case MT_OP_mul_scalar: rt_binary_scalar(RT_MUL, out, &x, c->f); break;
    case MT_OP_neg: rt_unary(RT_NEG, out, &x); break;
    case MT_OP_exp: rt_unary(RT_EXP, out, &x); break;
    case MT_OP_relu: rt_unary(RT_RELU, out, &x); break;
    case MT_OP_sum: rt_reduce(RT_SUM, out, &x, (int)dim, c->b); break;
    case MT_OP_mean: rt_reduce(RT_MEAN, out, &x, (int)dim, c->b); break;
    case MT_OP_softmax: rt_softmax(out, &x, (int)dim); break;
    case MT_OP_matmul: rt_matmul(out, &x, &y); break;
    case MT_OP_conv2d:
        if (x.l->ndim == 3)
            conv_unbatched(out, &x, &y, c->i[0], c->i[1]);
        else
            rt_conv2d(out, &x, &y, c->i[0], c->i[1]);
        break;
    case MT_OP_reshape: case MT_OP_flatten: copy_reshaped(out, &x); break;
    default: rt_copy(out, &x); break; /* reshape, flatten, contiguous, to*, clone */
    }
}

/* Writes through the first operand. */
static void run_inplace(const rt_args *a)
{
    const mt_call *c = &a->call;
    rt_buf t = buf_of(a->t[0]);
    rt_buf o = c->n_in > 1 ? buf_of(a->t[1]) : (rt_buf){0};
    int64_t index[TL_MAX_DIMS];
    switch (c->op) {
    case MT_OP_add_: rt_binary_inplace(RT_ADD, &t, &o); break;
    case MT_OP_sub_: rt_binary_inplace(RT_SUB, &t, &o); break;
    case MT_OP_mul_scalar_: rt_mul_scalar_inplace(&t, c->f); break;
    case MT_OP_fill_: rt_fill(&t, c->f); break;
    case MT_OP_zero_: rt_fill(&t, 0.0); break;
    case MT_OP_copy_: rt_copy(&t, &o); break;
    case MT_OP_set:
        for (int d = 0; d < t.l->ndim; d++)
            index[d] = c->s[0].v[d] < 0 ? c->s[0].v[d] + t.l->shape[d] : c->s[0].v[d];
        rt_store(t.l->dtype, (char *)t.base + mt_element_offset(t.l, index) *
                 mt_dtype_size(t.l->dtype), c->f);
        break;
    default: break;
    }
}

static double run_get(const rt_args *a)
{
    const mt_layout *l = a->call.in[0];
    int64_t index[TL_MAX_DIMS];
    for (int d = 0; d < l->ndim; d++)
        index[d] = a->call.s[0].v[d] < 0 ? a->call.s[0].v[d] + l->shape[d] : a->call.s[0].v[d];
    return rt_load(l->dtype, (const char *)a->t[0]->storage->data +
                   mt_element_offset(l, index) * mt_dtype_size(l->dtype));
}

static tl_tensor *make_new(const rt_site *site, const rt_args *a, const mt_result *r)
{
    if (r->out.device == TL_CUDA && !tl_device_available(TL_CUDA)) {
        rt_raise(site, TL_ERR_DEVICE, "a TL_CUDA tensor needs the CUDA runtime, and this runtime "
                 "has none (built without CUDA, or no GPU found)");
        return NULL;
    }
    rt_storage *s = rt_storage_new(site, r->out.device, r->alloc_nbytes);
    if (!s)
        return NULL;
    tl_tensor *t = rt_handle_new(&r->out, s);
    rt_buf out = buf_of(t);
    if (mt_numel(&t->l) > 0)
        run_kernel(a, &out);
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
    if (mt_run(&a.call, &r) != TL_OK) {
        rt_raise(site, r.status, "%s", r.msg);
        return o;
    }
    if (!data_checks(site, &a))
        return o;
    switch (r.kind) {
    case MT_KIND_VIEW: o.t = rt_handle_new(&r.out, a.t[r.view_of]->storage); break;
    case MT_KIND_NEW: o.t = make_new(site, &a, &r); break;
    case MT_KIND_INPLACE: run_inplace(&a); break;
    case MT_KIND_NONE: o.value = run_get(&a); break;
    }
    o.ok = r.kind == MT_KIND_INPLACE || r.kind == MT_KIND_NONE || o.t != NULL;
    if (o.ok)
        rt_trace_call(site, &r, r.kind == MT_KIND_INPLACE ? a.t[0] : o.t);
    return o;
}
