/*
 * kernel_index.c: index_select, t[idx], gather and cat.
 *
 * The index tensor (any integer dtype, any layout) is first converted by
 * rt_copy into a dense int64 array in row-major order; negative values count
 * from the end (t[idx] allows them; the meta functions reject them where
 * PyTorch does).  index_select and t[idx] then move one slice per index with
 * rt_copy (a slice is the operand with the indexed dim dropped, so any
 * strides work and rows stay memcpy-fast).  gather moves single elements:
 * an odometer over the index's outer dims and a typed inner loop per element
 * size.  cat copies each non-empty part into its narrow of the output,
 * casting to the output's dtype.  The index array is the only allocation and
 * is freed before returning; an allocation failure aborts.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* idx in row-major order as int64 (caller frees); NULL when out of memory
 * (rt_scratch_new). */
static int64_t *index_values(const rt_buf *idx)
{
    int64_t n = mt_numel(idx->l);
    int64_t *v = rt_scratch_new((size_t)(n > 0 ? n : 1) * sizeof *v, "malloc (index values)");
    if (!v)
        return NULL;
    mt_layout dl = *idx->l;
    dl.dtype = TL_I64, dl.offset = 0;
    int64_t stride = 1;
    for (int d = dl.ndim - 1; d >= 0; d--)
        dl.strides[d] = stride, stride *= dl.shape[d];
    rt_buf dst = {&dl, v};
    rt_copy(&dst, idx);
    return v;
}

/* An index wrapped into [0, size). */
static int64_t wrap(int64_t v, int64_t size)
{
    v = v < 0 ? v + size : v;
    assert(v >= 0 && v < size && "index out of range (the meta function checks it)");
    return v;
}

/* l without dim, at position index of that dim. */
static mt_layout drop_dim(const mt_layout *l, int dim, int64_t index)
{
    mt_layout r = *l;
    r.offset = l->offset + index * l->strides[dim];
    for (int d = dim; d < l->ndim - 1; d++)
        r.shape[d] = l->shape[d + 1], r.strides[d] = l->strides[d + 1];
    r.ndim = l->ndim - 1;
    return r;
}

static void copy_slice(const mt_layout *dl, void *dbase, const mt_layout *sl, void *sbase)
{
    rt_buf d = {dl, dbase}, s = {sl, sbase};
    rt_copy(&d, &s);
}

void rt_index_select(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx)
{
    if (mt_numel(out->l) == 0)
        return;
    if (t->l->ndim == 0) { /* a 0-dim t takes one index, 0: out is t */
        copy_slice(out->l, out->base, t->l, t->base);
        return;
    }
    int64_t n = mt_numel(idx->l), *v = index_values(idx);
    for (int64_t i = 0; v && i < n; i++) {
        mt_layout ol = drop_dim(out->l, dim, i);
        mt_layout tl = drop_dim(t->l, dim, wrap(v[i], t->l->shape[dim]));
        copy_slice(&ol, out->base, &tl, t->base);
    }
    free(v);
}

/* out dims [0, k) are idx's; out's slice at idx position i (row-major). */
static mt_layout index_slice(const mt_layout *out, int k, const int64_t *ishape, int64_t i)
{
    mt_layout r = *out;
    for (int d = k - 1; d >= 0; d--)
        r.offset += (i % ishape[d]) * out->strides[d], i /= ishape[d];
    r.ndim = out->ndim - k;
    memmove(r.shape, out->shape + k, sizeof(int64_t) * (size_t)r.ndim);
    memmove(r.strides, out->strides + k, sizeof(int64_t) * (size_t)r.ndim);
    return r;
}

void rt_index(const rt_buf *out, const rt_buf *t, const rt_buf *idx)
{
    if (mt_numel(out->l) == 0)
        return;
    int64_t n = mt_numel(idx->l), *v = index_values(idx);
    for (int64_t i = 0; v && i < n; i++) {
        mt_layout ol = index_slice(out->l, idx->l->ndim, idx->l->shape, i);
        mt_layout tl = drop_dim(t->l, 0, wrap(v[i], t->l->shape[0]));
        copy_slice(&ol, out->base, &tl, t->base);
    }
    free(v);
}

/* ---- gather ---- */

typedef struct gather_row {
    char *o;         /* out element 0 of the row */
    int64_t os;      /* out stride along the row, elements */
    const char *t;   /* t at the row's coordinates, dim's coordinate 0 */
    int64_t ts;      /* t stride along the row (0 when the row runs along dim) */
    int64_t tdim;    /* t stride of dim */
    int64_t size;    /* t size along dim */
    const int64_t *ix;
    int64_t n;
} gather_row;

#define GATHER_LOOP(T)                                                                      \
    static void gather_##T(const gather_row *r) {                                           \
        T *o = (T *)(void *)r->o;                                                           \
        const T *t = (const T *)(const void *)r->t;                                         \
        for (int64_t j = 0; j < r->n; j++)                                                  \
            o[j * r->os] = t[j * r->ts + wrap(r->ix[j], r->size) * r->tdim];                \
    }
GATHER_LOOP(uint8_t)
GATHER_LOOP(uint16_t)
GATHER_LOOP(uint32_t)
GATHER_LOOP(uint64_t)
#undef GATHER_LOOP

typedef void (*gather_fn)(const gather_row *r);

static gather_fn gather_for_size(int sz)
{
    switch (sz) {
    case 1: return gather_uint8_t;
    case 2: return gather_uint16_t;
    case 4: return gather_uint32_t;
    default: return gather_uint64_t;
    }
}

/* Row r of idx (its last dim): where it reads and writes; v holds idx row-major. */
static gather_row gather_row_at(const rt_buf *out, const rt_buf *t, int dim, const int64_t *v,
                                int64_t r)
{
    const mt_layout *il = out->l, *tl = t->l; /* out has idx's shape */
    int last = il->ndim - 1, sz = mt_dtype_size(tl->dtype);
    int64_t ooff = il->offset, toff = tl->offset, n = il->shape[last], row = r;
    for (int d = last - 1; d >= 0; d--) {
        int64_t q = r % il->shape[d];
        r /= il->shape[d];
        ooff += q * il->strides[d];
        toff += d == dim ? 0 : q * tl->strides[d];
    }
    gather_row g = {(char *)out->base + ooff * sz, il->strides[last],
                    (const char *)t->base + toff * sz, last == dim ? 0 : tl->strides[last],
                    tl->strides[dim], tl->shape[dim], v + row * n, n};
    return g;
}

/* The one row of a gather where t or idx is 0-dim (both have at most one dim; a 0-dim
   operand has size 1 and stride 0 along dim 0). */
static gather_row gather_row_0d(const rt_buf *out, const rt_buf *t, const int64_t *v, int64_t n)
{
    const mt_layout *ol = out->l, *tl = t->l;
    int sz = mt_dtype_size(tl->dtype);
    gather_row g = {(char *)out->base + ol->offset * sz, ol->ndim ? ol->strides[0] : 0,
                    (const char *)t->base + tl->offset * sz, 0, tl->ndim ? tl->strides[0] : 0,
                    tl->ndim ? tl->shape[0] : 1, v, n};
    return g;
}

void rt_gather(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx)
{
    assert(out->l->dtype == t->l->dtype && out->l->ndim == idx->l->ndim);
    int64_t numel = mt_numel(idx->l);
    if (numel == 0)
        return;
    int64_t *v = index_values(idx);
    if (!v)
        return;
    gather_fn f = gather_for_size(mt_dtype_size(t->l->dtype));
    if (out->l->ndim == 0 || t->l->ndim == 0) { /* a 0-dim t or idx is one element along dim */
        gather_row g = gather_row_0d(out, t, v, numel);
        f(&g);
        free(v);
        return;
    }
    int64_t row = out->l->shape[out->l->ndim - 1];
    for (int64_t r = 0; r < numel / row; r++) {
        gather_row g = gather_row_at(out, t, dim, v, r);
        f(&g);
    }
    free(v);
}

/* ---- cat ---- */

void rt_cat(const rt_buf *out, int n, const rt_buf *parts, int dim)
{
    if (mt_numel(out->l) == 0)
        return;
    int64_t at = 0;
    for (int i = 0; i < n; i++) {
        const mt_layout *pl = parts[i].l;
        if (mt_numel(pl) == 0)
            continue; /* includes PyTorch's legacy 1-D empty parts */
        mt_layout nl = *out->l;
        nl.offset += at * nl.strides[dim], nl.shape[dim] = pl->shape[dim];
        copy_slice(&nl, out->base, pl, parts[i].base);
        at += pl->shape[dim];
    }
    assert(at == out->l->shape[dim]);
}
