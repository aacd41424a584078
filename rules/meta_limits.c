/*
 * meta_limits.c: the 64-bit limits of a layout, checked as PyTorch checks
 * them, and the one gate every result of a meta function passes (mt_run).
 *
 * PyTorch's three checks (c10 safe_compute_numel, computeStorageNbytes and
 * computeStorageNbytesContiguous) multiply in unsigned 64 bits, left to
 * right, with a sticky overflow flag: [2^62, 2^62, 0] overflows although its
 * product is 0, [0, 2^62, 2^62] does not.  The functions here do the same.
 *
 * Invariant (a "valid" layout, mt_layout_valid): 0 <= ndim <= TL_MAX_DIMS,
 * sizes >= 0, numel and numel x element size fit int64, the offset is >= 0,
 * a dim of two or more elements has a stride >= 0, and the bytes the layout
 * reaches from its storage's start fit int64.  Every operand of mt_run must
 * be valid and every layout it returns is: products of sizes, strides and
 * offsets of a valid layout then fit int64 without further checks.
 *
 * Symbolic build (MT_SYMBOLIC): a check over a value that is not known is
 * skipped, as the analysis assumes that sizes fit int64 (sym.h); products
 * over known values stay PyTorch's, sticky flag and all.  In the concrete
 * build mi_known() is constantly true and each check is the plain one.
 */
#include "meta_impl.h"

#include <string.h>

/* c10::safe_multiply_u64 over shape then n > INT64_MAX: false on overflow.
 * The product is taken in uint64 while it is known (the sticky flag stays
 * set after a symbolic factor); a symbolic product is exact. */
static bool product_u64(int ndim, const mt_int *shape, mt_int *out)
{
    mt_int n = mi_c(1);
    bool over = false;
    for (int d = 0; d < ndim; d++) {
        if (mi_known(n) && mi_known(shape[d])) {
            uint64_t u = (uint64_t)mi_v(n);
            over |= __builtin_mul_overflow(u, (uint64_t)mi_v(shape[d]), &u);
            n = mi_c((int64_t)u);
        } else {
            n = mi_mul(n, shape[d]);
        }
    }
    *out = n;
    return !over && (!mi_known(n) || (uint64_t)mi_v(n) <= (uint64_t)INT64_MAX);
}

bool mt_shape_numel(int ndim, const mt_int *shape, mt_int *numel)
{
    mt_int n;
    bool ok = product_u64(ndim, shape, &n);
    *numel = ok ? n : mi_c(INT64_MAX);
    return ok;
}

bool mt_shape_nbytes(int ndim, const mt_int *shape, tl_dtype dtype, mt_int *nbytes)
{
    mt_int n;
    bool ok = product_u64(ndim, shape, &n);
    if (ok && mi_known(n)) {
        uint64_t u = (uint64_t)mi_v(n);
        ok = !__builtin_mul_overflow(u, (uint64_t)mt_dtype_size(dtype), &u) &&
             u <= (uint64_t)INT64_MAX;
        n = mi_c((int64_t)u);
    } else if (ok) {
        n = mi_mul(n, mt_dtype_size(dtype));
    }
    *nbytes = ok ? n : mi_c(INT64_MAX);
    return ok;
}

/* computeStorageNbytes: (offset + 1 + sum stride x (size - 1)) x itemsize,
 * 0 when a size is 0; false when it does not fit int64. */
bool mt_layout_reach(const mt_layout *l, mt_int *nbytes)
{
    mt_int n = mi_c(1), step;
    bool over = false;
    *nbytes = mi_c(0);
    for (int d = 0; d < l->ndim; d++)
        if (mi_eq(l->shape[d], 0))
            return true;
    for (int d = 0; d < l->ndim; d++) {
        over |= !mi_mul_ovf(l->strides[d], mi_sub(l->shape[d], 1), &step);
        over |= !mi_add_ovf(n, step, &n);
    }
    over |= !mi_add_ovf(n, l->offset, &n);
    over |= !mi_mul_ovf(n, mi_c(mt_dtype_size(l->dtype)), &n);
    *nbytes = over ? mi_c(INT64_MAX) : n;
    return !over;
}

/* The layout's shape and strides in range (before any product is taken).
 * The stride is tested before the size so that a valid symbolic layout
 * records no assumption on its sizes. */
static bool dims_in_range(const mt_layout *l)
{
    if (l->ndim < 0 || l->ndim > TL_MAX_DIMS || mi_lt(l->offset, 0) ||
        (unsigned)l->dtype > TL_F64)
        return false;
    for (int d = 0; d < l->ndim; d++)
        if (mi_lt(l->shape[d], 0) || (mi_lt(l->strides[d], 0) && mi_gt(l->shape[d], 1)))
            return false;
    return true;
}

bool mt_layout_valid(const mt_layout *l)
{
    mt_int n;
    return dims_in_range(l) && mt_shape_nbytes(l->ndim, l->shape, l->dtype, &n) &&
           mt_layout_reach(l, &n);
}

static tl_status storage_overflow(mt_result *r, const mt_layout *l, bool with_strides)
{
    char a[200], b[200];
    mt_shape_str(a, sizeof a, l->ndim, l->shape);
    if (!with_strides)
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed with "
                       "sizes=%s", a);
    return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed with sizes=%s "
                   "and strides=%s", a, mt_shape_str(b, sizeof b, l->ndim, l->strides));
}

tl_status mt_check_layout(mt_result *r, const mt_layout *l, bool is_new)
{
    mt_int n;
    char nb[64];
    if (!dims_in_range(l))
        return mt_fail(r, TL_ERR_BAD_ARGUMENT, "internal: a layout with %d dims, a negative size, "
                       "offset or stride", l->ndim);
    if (is_new) { /* empty_strided: the storage's bytes, then its reach */
        if (!mt_shape_nbytes(l->ndim, l->shape, l->dtype, &n))
            return storage_overflow(r, l, false);
    } else {
        if (!mt_shape_numel(l->ndim, l->shape, &n))
            return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "numel: integer multiplication overflow");
        if (!mt_shape_nbytes(l->ndim, l->shape, l->dtype, &n))
            return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "the view has %s elements of %d bytes, "
                           "more than 2^63-1 bytes (PyTorch accepts such a view, but no op can "
                           "read it; tensorlint counts bytes in 64 bits)",
                           mi_str(mt_numel(l), nb, sizeof nb), mt_dtype_size(l->dtype));
    }
    if (!mt_layout_reach(l, &n))
        return storage_overflow(r, l, true);
    return TL_OK;
}

/* The gate of mt_run: a result's layout is valid, its byte counts are not
 * negative, and the bytes it moves (read + written) fit int64. */
tl_status mt_check_result(mt_result *r)
{
    mt_int moved;
    char a[64], b[64];
    if (r->status != TL_OK)
        return r->status;
    if (r->kind != MT_KIND_NONE && mt_check_layout(r, &r->out, r->kind == MT_KIND_NEW) != TL_OK)
        return r->status;
    if (mi_lt(r->alloc_nbytes, 0) || mi_lt(r->read_bytes, 0) || mi_lt(r->written_bytes, 0))
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "internal: a negative byte count");
    if (!mi_add_ovf(r->read_bytes, r->written_bytes, &moved))
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "the bytes this call reads (%s) and writes "
                       "(%s) add up to more than 2^63-1", mi_str(r->read_bytes, a, sizeof a),
                       mi_str(r->written_bytes, b, sizeof b));
    return TL_OK;
}

bool mt_add_bytes(mt_result *r, mt_int *acc, mt_int nbytes)
{
    if (mi_add_ovf(*acc, nbytes, acc))
        return true;
    mt_fail(r, TL_ERR_OUT_OF_MEMORY, "the bytes this call reads do not fit in 64 bits");
    return false;
}
