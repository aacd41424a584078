/*
 * cuda_stage.c: moving tensor data between the host and the device.
 *
 * cu_transfer is rt_copy across devices: dst = src broadcast and cast.
 * When both sides are the same dense layout of one dtype it is a single
 * copy of the bytes (t.to(device) of a contiguous or permuted-dense tensor).
 * Otherwise it goes in three steps, each skipped when not needed:
 *   1. src packed row-major in its own dtype, on its own device
 *      (skipped when src is contiguous);
 *   2. those bytes copied to the other device (straight into dst when dst
 *      is contiguous with src's shape and dtype);
 *   3. a copy on dst's device into dst, with broadcasting and casting.
 * Host staging is malloc'd, device staging is scratch (cu_scratch_new):
 * neither is a storage, so neither shows in the memory statistics.  Every
 * staging buffer is freed before returning, on success and on failure.
 */
#include "cuda_rt.h"

#include <stdlib.h>
#include <string.h>

/* A buffer on one device, for the three steps. */
typedef struct side {
    rt_buf b;
    tl_device dev;
} side;

static void *stage_new(tl_device dev, int64_t nbytes)
{
    if (dev == TL_CUDA)
        return cu_scratch_new(nbytes);
    void *p = malloc((size_t)(nbytes > 0 ? nbytes : 1));
    if (!p)
        cu_fail(TL_ERR_OUT_OF_MEMORY, "malloc (staging buffer)", "host out of memory");
    return p;
}

static void stage_free(tl_device dev, void *p)
{
    if (dev == TL_CUDA)
        cu_scratch_free(p);
    else
        free(p);
}

/* dst = src on one device: rt_copy or the device's copy kernel. */
static bool copy_on(tl_device dev, const rt_buf *dst, const rt_buf *src)
{
    if (dev == TL_CPU) {
        rt_copy(dst, src);
        return true;
    }
    cu_backend_current()->kernels->copy(dst, src);
    return !cu_error_pending();
}

static bool copy_bytes(void *dst, tl_device dd, const void *src, tl_device sd, int64_t nbytes)
{
    if (nbytes == 0)
        return true;
    if (dd == TL_CPU && sd == TL_CPU) {
        memcpy(dst, src, (size_t)nbytes);
        return true;
    }
    cu_copy_kind kind = dd == TL_CPU ? CU_DEVICE_TO_HOST
                      : sd == TL_CPU ? CU_HOST_TO_DEVICE : CU_DEVICE_TO_DEVICE;
    return cu_backend_current()->copy(dst, src, nbytes, kind);
}

static char *at_offset(const rt_buf *b)
{
    return (char *)b->base + b->l->offset * mt_dtype_size(b->l->dtype);
}

/* Same dtype, shape and strides (size-1 dims aside), and dense: one span of bytes. */
static bool same_dense_layout(const mt_layout *a, const mt_layout *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim || !mt_is_non_overlapping_and_dense(a))
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || (a->shape[d] != 1 && a->strides[d] != b->strides[d]))
            return false;
    return true;
}

/* l's shape, row-major, offset 0, in dtype dt. */
static mt_layout packed(const mt_layout *l, tl_dtype dt, tl_device dev)
{
    mt_layout r = *l;
    r.dtype = dt, r.device = dev, r.offset = 0;
    mt_contiguous_strides(r.ndim, r.shape, r.strides);
    r.storage_nbytes = mt_nbytes(&r);
    return r;
}

/* Steps 2 and 3 from src's packed bytes at p (on src's device). */
static bool finish_transfer(const side *dst, const side *src, const mt_layout *pl, const char *p)
{
    int64_t nbytes = mt_nbytes(pl);
    if (mt_is_contiguous(dst->b.l) && dst->b.l->dtype == pl->dtype &&
        dst->b.l->ndim == pl->ndim &&
        memcmp(dst->b.l->shape, pl->shape, sizeof(int64_t) * (size_t)pl->ndim) == 0)
        return copy_bytes(at_offset(&dst->b), dst->dev, p, src->dev, nbytes);
    void *q = stage_new(dst->dev, nbytes);
    mt_layout ql = *pl;
    ql.device = dst->dev;
    rt_buf qb = {&ql, q};
    bool ok = q && copy_bytes(q, dst->dev, p, src->dev, nbytes) && copy_on(dst->dev, &dst->b, &qb);
    stage_free(dst->dev, q);
    return ok;
}

bool cu_transfer(const rt_buf *dst, tl_device dst_dev, const rt_buf *src, tl_device src_dev)
{
    side d = {*dst, dst_dev}, s = {*src, src_dev};
    if (mt_numel(dst->l) == 0)
        return true;
    if (dst_dev == src_dev)
        return copy_on(dst_dev, dst, src);
    if (same_dense_layout(dst->l, src->l))
        return copy_bytes(at_offset(dst), dst_dev, at_offset(src), src_dev, mt_nbytes(src->l));
    mt_layout pl = packed(src->l, src->l->dtype, src_dev);
    if (mt_is_contiguous(src->l))
        return finish_transfer(&d, &s, &pl, at_offset(src));
    void *p = stage_new(src_dev, mt_nbytes(&pl));
    rt_buf pb = {&pl, p};
    bool ok = p && copy_on(src_dev, &pb, src) && finish_transfer(&d, &s, &pl, p);
    stage_free(src_dev, p);
    return ok;
}

bool cu_element_read(const rt_buf *b, const int64_t *index, void *cell)
{
    int size = mt_dtype_size(b->l->dtype);
    const char *p = (const char *)b->base + mt_element_offset(b->l, index) * size;
    return cu_backend_current()->copy(cell, p, size, CU_DEVICE_TO_HOST);
}

bool cu_element_write(const rt_buf *b, const int64_t *index, const void *cell)
{
    int size = mt_dtype_size(b->l->dtype);
    char *p = (char *)b->base + mt_element_offset(b->l, index) * size;
    return cu_backend_current()->copy(p, cell, size, CU_HOST_TO_DEVICE);
}

void *cu_host_mirror(const rt_buf *b, mt_layout *host_l)
{
    const mt_layout *l = b->l;
    int64_t lo = l->offset, hi = l->offset, size = mt_dtype_size(l->dtype);
    for (int d = 0; d < l->ndim && mt_numel(l) > 0; d++) {
        int64_t span = (l->shape[d] - 1) * l->strides[d];
        hi += span > 0 ? span : 0;
        lo += span < 0 ? span : 0;
    }
    int64_t nbytes = mt_numel(l) > 0 ? (hi - lo + 1) * size : 0;
    void *h = malloc((size_t)(nbytes > 0 ? nbytes : 1));
    if (!h) {
        cu_fail(TL_ERR_OUT_OF_MEMORY, "malloc (host copy)", "host out of memory");
        return NULL;
    }
    *host_l = *l;
    host_l->offset = l->offset - lo, host_l->device = TL_CPU;
    if (nbytes > 0 &&
        !cu_backend_current()->copy(h, (const char *)b->base + lo * size, nbytes,
                                    CU_DEVICE_TO_HOST)) {
        free(h);
        return NULL;
    }
    return h;
}
