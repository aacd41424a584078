/*
 * meta_ops.c: the op table generated from ops.def, dispatch by op, and the
 * result helpers every meta function uses.
 */
#include "meta_impl.h"

#include <stdarg.h>
#include <string.h>

const mt_opinfo mt_ops[MT_N_OPS] = {
#define TL_OP(name, family, sig) {#name, MT_##family, sig},
#include "ops.def"
#undef TL_OP
};

typedef tl_status (*meta_fn)(const mt_call *, mt_result *);

static tl_status mt_no_meta(const mt_call *c, mt_result *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
    r->kind = MT_KIND_NONE;
    return TL_OK;
}
#undef mt_release /* the symbolic build names it ms_release */
#define mt_release mt_no_meta

static const meta_fn meta_fns[MT_N_OPS] = {
#define TL_OP(name, family, sig) mt_##name,
#include "ops.def"
#undef TL_OP
};
#undef mt_release

mt_op mt_op_lookup(const char *name)
{
    size_t len = strlen(name);
    if (strncmp(name, "tl_", 3) == 0) {
        name += 3;
        len -= 3;
    }
    if (len > 3 && strcmp(name + len - 3, "_at") == 0)
        len -= 3;
    for (int op = 0; op < MT_N_OPS; op++)
        if (strlen(mt_ops[op].name) == len && strncmp(mt_ops[op].name, name, len) == 0)
            return (mt_op)op;
    return MT_N_OPS;
}

tl_status mt_run(const mt_call *c, mt_result *r)
{
    memset(r, 0, sizeof *r);
    if ((unsigned)c->op >= MT_N_OPS)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "unknown op %d", (int)c->op);
    if (c->n_in < 0 || c->n_in > TL_MAX_LIST)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "%d operands (0 to %d)", c->n_in, TL_MAX_LIST);
    for (int k = 0; k < c->n_in; k++) {
        if ((unsigned)c->in[k]->dtype > TL_F64)
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "invalid dtype %d", (int)c->in[k]->dtype);
        if (!mt_layout_valid(c->in[k]))
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "operand %d is not a valid layout (a size, "
                           "stride or offset out of range)", k);
    }
    int n_s = 0;
    for (const char *sig = mt_ops[c->op].signature; *sig; sig++)
        n_s += *sig == 'S';
    for (int k = 0; k < n_s && k < 2; k++)
        if (c->s[k].n < 0 || c->s[k].n > TL_MAX_DIMS)
            return mt_fail(r, TL_ERR_BAD_ARGUMENT, "a tl_ints holds 0 to %d values, not %d",
                           TL_MAX_DIMS, c->s[k].n);
    meta_fns[c->op](c, r);
    if (mt_check_result(r) != TL_OK) /* a failed call allocates, reads and writes nothing */
        r->alloc_nbytes = r->read_bytes = r->written_bytes = mi_c(0);
    return r->status;
}

tl_status mt_fail(mt_result *r, tl_status status, const char *fmt, ...)
{
    va_list ap;
    r->status = status;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return status;
}

tl_status mt_view_of(const mt_call *c, mt_result *r, const mt_layout *out, int of,
                     const char *fmt, ...)
{
    va_list ap;
    r->status = TL_OK;
    r->kind = MT_KIND_VIEW;
    r->out = *out;
    r->out.storage_nbytes = c->in[of]->storage_nbytes;
    r->view_of = of;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return TL_OK;
}

tl_status mt_new_storage(mt_result *r, const mt_layout *out, mt_int read_bytes,
                         const char *fmt, ...)
{
    va_list ap;
    r->status = TL_OK;
    r->kind = MT_KIND_NEW;
    r->out = *out;
    r->out.offset = mi_c(0);
    r->alloc_nbytes = mt_nbytes(out);
    r->out.storage_nbytes = r->alloc_nbytes;
    r->read_bytes = read_bytes;
    r->written_bytes = r->alloc_nbytes;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return TL_OK;
}

tl_status mt_check_shape(mt_result *r, int ndim, const mt_int *shape, tl_dtype dtype)
{
    mt_int nbytes;
    char buf[200], nb[64];
    if (ndim < 0 || ndim > TL_MAX_DIMS)
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "a tensor has 0 to %d dims, not %d", TL_MAX_DIMS,
                       ndim);
    for (int d = 0; d < ndim; d++) {
        if (mi_lt(shape[d], 0))
            return mt_fail(r, TL_ERR_BAD_ARGUMENT,
                           "Trying to create tensor with negative dimension %s: %s",
                           mi_str(shape[d], nb, sizeof nb),
                           mt_shape_str(buf, sizeof buf, ndim, shape));
    }
    if (!mt_shape_nbytes(ndim, shape, dtype, &nbytes))
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed with "
                       "sizes=%s", mt_shape_str(buf, sizeof buf, ndim, shape));
    return TL_OK;
}

/* A dim names which stride to rewrite: the rule needs its value. */
bool mt_dim(mt_result *r, mt_int dim, int ndim, int64_t *out)
{
    int64_t v;
    if (!mt_known(r, dim, "a dim argument", &v))
        return false;
    if (mt_wrap_dim(v, ndim, out))
        return true;
    int64_t n = ndim > 0 ? ndim : 1;
    mt_fail(r, TL_ERR_BAD_DIM,
            "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
            (long long)-n, (long long)(n - 1), (long long)v);
    return false;
}

void mt_layout_dense(mt_layout *l, int ndim, const mt_int *shape, tl_dtype dtype,
                     tl_device device)
{
    memset(l, 0, sizeof *l);
    l->ndim = ndim;
    for (int d = 0; d < ndim; d++)
        l->shape[d] = shape[d];
    mt_contiguous_strides(ndim, shape, l->strides);
    l->dtype = dtype;
    l->device = device;
    l->storage_nbytes = mt_nbytes(l);
}

const char *mt_shape_str(char *buf, size_t size, int ndim, const mt_int *shape)
{
    size_t len = 0;
    char v[64];
    len += (size_t)snprintf(buf, size, "[");
    for (int d = 0; d < ndim && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", d ? ", " : "",
                                mi_str(shape[d], v, sizeof v));
    if (len < size)
        snprintf(buf + len, size - len, "]");
    return buf;
}

const char *mt_torch_type_name(tl_dtype d)
{
    static const char *names[] = {"Bool", "Byte", "Char", "Short", "Int",
                                  "Long", "Half", "BFloat16", "Float", "Double"};
    return (unsigned)d <= TL_F64 ? names[d] : "?";
}
