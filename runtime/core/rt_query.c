/*
 * rt_query.c: queries over a handle (no allocation) and tl_print.
 * A query on a released or NULL handle raises use-after-release / bad-argument
 * and returns a neutral value (0, false).  tl_print reads a TL_CUDA tensor's
 * values one element at a time from the device (at most 64 of them).
 */
#include "rt_internal.h"
#include "cuda_rt.h"
#include "kernels.h"

#include <math.h>

static bool live(const tl_tensor *t, mt_op op)
{
    rt_site site = {NULL, 0, op};
    return rt_check_handle(&site, t);
}

#define QUERY_OP MT_OP_get /* queries report under the name of the element read */

int tl_ndim(const tl_tensor *t) { return live(t, QUERY_OP) ? t->l.ndim : 0; }

static bool query_dim(const tl_tensor *t, int64_t d, int64_t *out)
{
    if (!live(t, QUERY_OP))
        return false;
    if (t->l.ndim == 0 || !mt_wrap_dim(d, t->l.ndim, out)) {
        rt_site site = {NULL, 0, QUERY_OP};
        rt_raise(&site, TL_ERR_BAD_DIM, "Dimension out of range (expected to be in range of "
                 "[%d, %d], but got %lld)", -t->l.ndim, t->l.ndim - 1, (long long)d);
        return false;
    }
    return true;
}

int64_t tl_size(const tl_tensor *t, int64_t d)
{
    int64_t k;
    return query_dim(t, d, &k) ? t->l.shape[k] : 0;
}

int64_t tl_stride(const tl_tensor *t, int64_t d)
{
    int64_t k;
    return query_dim(t, d, &k) ? t->l.strides[k] : 0;
}

int64_t tl_numel(const tl_tensor *t) { return live(t, QUERY_OP) ? mt_numel(&t->l) : 0; }
int64_t tl_nbytes(const tl_tensor *t) { return live(t, QUERY_OP) ? mt_nbytes(&t->l) : 0; }
int64_t tl_storage_offset(const tl_tensor *t) { return live(t, QUERY_OP) ? t->l.offset : 0; }

int64_t tl_storage_nbytes(const tl_tensor *t)
{
    return live(t, QUERY_OP) ? t->storage->nbytes : 0;
}

bool tl_is_contiguous(const tl_tensor *t) { return live(t, QUERY_OP) && mt_is_contiguous(&t->l); }

bool tl_is_contiguous_format(const tl_tensor *t, tl_format f)
{
    return live(t, QUERY_OP) && mt_is_contiguous_format(&t->l, f);
}

tl_dtype tl_dtype_of(const tl_tensor *t) { return live(t, QUERY_OP) ? t->l.dtype : TL_F32; }
tl_device tl_device_of(const tl_tensor *t) { return live(t, QUERY_OP) ? t->l.device : TL_CPU; }
int tl_element_size(tl_dtype dtype) { return mt_dtype_size(dtype); }
const char *tl_dtype_name(tl_dtype dtype) { return mt_dtype_name(dtype); }

bool tl_shares_storage(const tl_tensor *a, const tl_tensor *b)
{
    return live(a, QUERY_OP) && live(b, QUERY_OP) && a->storage == b->storage;
}

static void print_ints(const char *label, int n, const int64_t *v)
{
    printf("%s(", label);
    for (int d = 0; d < n; d++)
        printf("%s%lld", d ? ", " : "", (long long)v[d]);
    printf(n == 1 ? ",)" : ")");
}

/* The element at pos as a double (NaN when the device read fails). */
static double value_at(const tl_tensor *t, const int64_t *pos)
{
    int64_t cell = 0; /* aligned for every dtype */
    rt_buf b = {&t->l, t->storage->data};
    if (t->storage->device == TL_CUDA)
        return cu_element_read(&b, pos, &cell) ? rt_load(t->l.dtype, &cell) : NAN;
    return rt_load(t->l.dtype, (const char *)t->storage->data +
                   mt_element_offset(&t->l, pos) * mt_dtype_size(t->l.dtype));
}

/* tensor([v0, v1, ...]) for up to 64 values in row-major order. */
static void print_values(const tl_tensor *t)
{
    int64_t n = mt_numel(&t->l), pos[TL_MAX_DIMS] = {0};
    printf("tensor([");
    for (int64_t k = 0; k < n && k < 64; k++) {
        printf("%s%.6g", k ? ", " : "", value_at(t, pos));
        for (int d = t->l.ndim - 1; d >= 0 && ++pos[d] == t->l.shape[d]; d--)
            pos[d] = 0;
    }
    printf(n > 64 ? ", ...])" : "])");
}

void tl_print(const tl_tensor *t)
{
    if (!live(t, QUERY_OP))
        return;
    print_values(t);
    print_ints(" shape=", t->l.ndim, t->l.shape);
    print_ints(" strides=", t->l.ndim, t->l.strides);
    printf(" offset=%lld dtype=%s device=%s\n", (long long)t->l.offset,
           mt_dtype_name(t->l.dtype), mt_device_name(t->l.device));
    cu_error e;
    if (cu_error_take(&e)) {
        rt_site site = {NULL, 0, QUERY_OP};
        rt_raise(&site, e.status, "CUDA error while printing: %s: %s", e.call, e.detail);
    }
}
