/*
 * rt_api_train.c: the public entry points of the ops for training
 * (tensor.h, "ops for training"), written as rt_api.c writes the others:
 * each tl_X_at hands its arguments, in ops.def signature order, to rt_exec;
 * each plain tl_X is the same call without a site.
 */
#include "rt_internal.h"
#include "cuda_rt.h"
#include "kernels.h"

#include <stdlib.h>

/* ---- the data-dependent checks ---- */

/* t's values on the host: its own memory, or a host mirror (*owned) of a device tensor. */
static const char *host_values(const tl_tensor *t, mt_layout *hl, bool *owned)
{
    *hl = t->l;
    *owned = t->storage->device != TL_CPU;
    if (!*owned)
        return t->storage->data;
    rt_buf b = {&t->l, t->storage->data};
    return cu_host_mirror(&b, hl);
}

/* The first value of t (row-major) outside [0, size), ignore excepted; false when none. */
static bool first_out_of_range(const mt_layout *l, const char *base, int64_t size, bool ignoring,
                               int64_t ignore, int64_t *bad)
{
    int64_t n = mt_numel(l), pos[TL_MAX_DIMS] = {0};
    int es = mt_dtype_size(l->dtype);
    for (int64_t k = 0; k < n; k++) {
        int64_t v = (int64_t)rt_load(l->dtype, base + mt_element_offset(l, pos) * es);
        if (!(ignoring && v == ignore) && (v < 0 || v >= size)) {
            *bad = v;
            return true;
        }
        for (int d = l->ndim - 1; d >= 0 && ++pos[d] == l->shape[d]; d--)
            pos[d] = 0;
    }
    return false;
}

/* index_add: "index out of range in self"; cross_entropy: "Target 5 is out of bounds." */
bool rt_train_data_check(const rt_site *site, const mt_call *c, tl_tensor *const *t)
{
    bool ce = c->op == MT_OP_cross_entropy, owned, bad_found;
    const tl_tensor *v = t[1]; /* the targets, or the index */
    const mt_layout *x = c->in[0];
    int64_t dim = 0, bad = 0, size;
    if (ce) {
        size = x->shape[x->ndim == 1 ? 0 : 1]; /* the class dim */
    } else {
        mt_wrap_dim(c->i[0], x->ndim, &dim);
        size = x->ndim ? x->shape[dim] : 1;
    }
    if (mt_numel(&v->l) == 0)
        return true;
    mt_layout hl;
    const char *host = host_values(v, &hl, &owned);
    if (!host) {
        cu_error e = {0};
        cu_error_take(&e);
        rt_raise(site, TL_ERR_DEVICE, "CUDA error: reading the %s back to check them: %s",
                 ce ? "targets" : "index values", e.detail ? e.detail : "failed");
        return false;
    }
    bad_found = first_out_of_range(&hl, host, size, ce, ce ? c->i[0] : 0, &bad);
    if (owned)
        free((void *)host);
    if (!bad_found)
        return true;
    if (ce)
        rt_raise(site, TL_ERR_BAD_DIM, "Target %lld is out of bounds.", (long long)bad);
    else
        rt_raise(site, TL_ERR_BAD_DIM, "index out of range in self (index %lld, dim %lld of "
                 "size %lld)", (long long)bad, (long long)dim, (long long)size);
    return false;
}

/* ---- the entry points ---- */

static rt_outcome call(const char *file, int line, mt_op op, ...)
{
    rt_site site = {file, line, op};
    va_list ap;
    va_start(ap, op);
    rt_outcome o = rt_exec(&site, &ap);
    va_end(ap);
    return o;
}

void tl_index_add__at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *index,
                      tl_tensor *source)
{
    call(file, line, MT_OP_index_add_, t, dim, index, source);
}

void (tl_index_add_)(tl_tensor *t, int64_t dim, tl_tensor *index, tl_tensor *source)
{
    tl_index_add__at(NULL, 0, t, dim, index, source);
}

tl_tensor *tl_index_add_at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *index,
                           tl_tensor *source)
{
    return call(file, line, MT_OP_index_add, t, dim, index, source).t;
}

tl_tensor *(tl_index_add)(tl_tensor *t, int64_t dim, tl_tensor *index, tl_tensor *source)
{
    return tl_index_add_at(NULL, 0, t, dim, index, source);
}

tl_tensor *tl_gelu_tanh_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_gelu_tanh, t).t;
}

tl_tensor *(tl_gelu_tanh)(tl_tensor *t) { return tl_gelu_tanh_at(NULL, 0, t); }

void tl_sqrt__at(const char *file, int line, tl_tensor *t) { call(file, line, MT_OP_sqrt_, t); }

void (tl_sqrt_)(tl_tensor *t) { tl_sqrt__at(NULL, 0, t); }

void tl_addcmul__at(const char *file, int line, tl_tensor *t, tl_tensor *a, tl_tensor *b,
                    double value)
{
    call(file, line, MT_OP_addcmul_, t, a, b, value);
}

void (tl_addcmul_)(tl_tensor *t, tl_tensor *a, tl_tensor *b, double value)
{
    tl_addcmul__at(NULL, 0, t, a, b, value);
}

void tl_addcdiv__at(const char *file, int line, tl_tensor *t, tl_tensor *a, tl_tensor *b,
                    double value)
{
    call(file, line, MT_OP_addcdiv_, t, a, b, value);
}

void (tl_addcdiv_)(tl_tensor *t, tl_tensor *a, tl_tensor *b, double value)
{
    tl_addcdiv__at(NULL, 0, t, a, b, value);
}

void tl_lerp__at(const char *file, int line, tl_tensor *t, tl_tensor *end, double weight)
{
    call(file, line, MT_OP_lerp_, t, end, weight);
}

void (tl_lerp_)(tl_tensor *t, tl_tensor *end, double weight) { tl_lerp__at(NULL, 0, t, end, weight); }

tl_tensor *tl_log_softmax_at(const char *file, int line, tl_tensor *t, int64_t dim)
{
    return call(file, line, MT_OP_log_softmax, t, dim).t;
}

tl_tensor *(tl_log_softmax)(tl_tensor *t, int64_t dim) { return tl_log_softmax_at(NULL, 0, t, dim); }

tl_tensor *tl_cross_entropy_at(const char *file, int line, tl_tensor *logits, tl_tensor *targets,
                               int64_t ignore_index)
{
    return call(file, line, MT_OP_cross_entropy, logits, targets, ignore_index).t;
}

tl_tensor *(tl_cross_entropy)(tl_tensor *logits, tl_tensor *targets, int64_t ignore_index)
{
    return tl_cross_entropy_at(NULL, 0, logits, targets, ignore_index);
}
