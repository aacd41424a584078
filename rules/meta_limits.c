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
 */
#include "meta_impl.h"

#include <string.h>

/* c10::safe_multiply_u64 over shape then n > INT64_MAX: false on overflow. */
static bool product_u64(int ndim, const int64_t *shape, uint64_t *out)
{
    uint64_t n = 1;
    bool over = false;
    for (int d = 0; d < ndim; d++)
        over |= __builtin_mul_overflow(n, (uint64_t)shape[d], &n);
    *out = n;
    return !over && n <= (uint64_t)INT64_MAX;
}

bool mt_shape_numel(int ndim, const int64_t *shape, int64_t *numel)
{
    uint64_t n;
    bool ok = product_u64(ndim, shape, &n);
    *numel = ok ? (int64_t)n : INT64_MAX;
    return ok;
}

bool mt_shape_nbytes(int ndim, const int64_t *shape, tl_dtype dtype, int64_t *nbytes)
{
    uint64_t n;
    bool ok = product_u64(ndim, shape, &n) &&
              !__builtin_mul_overflow(n, (uint64_t)mt_dtype_size(dtype), &n) &&
              n <= (uint64_t)INT64_MAX;
    *nbytes = ok ? (int64_t)n : INT64_MAX;
    return ok;
}

/* computeStorageNbytes: (offset + 1 + sum stride x (size - 1)) x itemsize,
 * 0 when a size is 0; false when it does not fit int64. */
bool mt_layout_reach(const mt_layout *l, int64_t *nbytes)
{
    int64_t n = 1, step;
    bool over = false;
    *nbytes = 0;
    for (int d = 0; d < l->ndim; d++)
        if (l->shape[d] == 0)
            return true;
    for (int d = 0; d < l->ndim; d++) {
        over |= __builtin_mul_overflow(l->strides[d], l->shape[d] - 1, &step);
        over |= __builtin_add_overflow(n, step, &n);
    }
    over |= __builtin_add_overflow(n, l->offset, &n);
    over |= __builtin_mul_overflow(n, (int64_t)mt_dtype_size(l->dtype), &n);
    *nbytes = over ? INT64_MAX : n;
    return !over;
}

/* The layout's shape and strides in range (before any product is taken). */
static bool dims_in_range(const mt_layout *l)
{
    if (l->ndim < 0 || l->ndim > TL_MAX_DIMS || l->offset < 0 || (unsigned)l->dtype > TL_F64)
        return false;
    for (int d = 0; d < l->ndim; d++)
        if (l->shape[d] < 0 || (l->shape[d] > 1 && l->strides[d] < 0))
            return false;
    return true;
}

bool mt_layout_valid(const mt_layout *l)
{
    int64_t n;
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
    int64_t n;
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
            return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "the view has %lld elements of %d bytes, "
                           "more than 2^63-1 bytes (PyTorch accepts such a view, but no op can "
                           "read it; tensorlint counts bytes in 64 bits)",
                           (long long)mt_numel(l), mt_dtype_size(l->dtype));
    }
    if (!mt_layout_reach(l, &n))
        return storage_overflow(r, l, true);
    return TL_OK;
}

/* The gate of mt_run: a result's layout is valid, its byte counts are not
 * negative, and the bytes it moves (read + written) fit int64. */
tl_status mt_check_result(mt_result *r)
{
    int64_t moved;
    if (r->status != TL_OK)
        return r->status;
    if (r->kind != MT_KIND_NONE && mt_check_layout(r, &r->out, r->kind == MT_KIND_NEW) != TL_OK)
        return r->status;
    if (r->alloc_nbytes < 0 || r->read_bytes < 0 || r->written_bytes < 0)
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "internal: a negative byte count");
    if (__builtin_add_overflow(r->read_bytes, r->written_bytes, &moved))
        return mt_fail(r, TL_ERR_OUT_OF_MEMORY, "the bytes this call reads (%lld) and writes "
                       "(%lld) add up to more than 2^63-1", (long long)r->read_bytes,
                       (long long)r->written_bytes);
    return TL_OK;
}

bool mt_add_bytes(mt_result *r, int64_t *acc, int64_t nbytes)
{
    if (!__builtin_add_overflow(*acc, nbytes, acc))
        return true;
    mt_fail(r, TL_ERR_OUT_OF_MEMORY, "the bytes this call reads do not fit in 64 bits");
    return false;
}
