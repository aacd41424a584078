/*
 * cuda_emulation.c: the emulated CUDA device (TL_CUDA_EMULATION=1, or
 * "auto" without a usable GPU; cuda_runtime.c chooses).  Plain C, in every
 * build, the sanitized one included.
 *
 * What stays real: everything above the backend.  TL_CUDA storages still
 * come from the caching allocator (alloc_policy.c through cuda_alloc.c:
 * 512-byte rounding, the small and large pools, segments, splitting and
 * reuse, the statistics), transfers still go through cuda_stage.c, and the
 * runtime dispatches exactly as for a GPU.  What is played by the host:
 * a segment (cudaMalloc) is host memory, a copy is memcpy, and the kernels
 * are host code.
 *
 * The kernels give the CUDA kernels' results.  Where the CPU kernel's
 * result is the CUDA kernel's bit for bit (copies and casts, fill, arange,
 * elementwise and in-place arithmetic, indexing, cat, integer matmul) it is
 * the CPU kernel; both convert through scalar.h.  randint draws CUDA's
 * per-element streams (sc_randint_value), so its values are the GPU's, not
 * the CPU's.  Sums, means, softmax and conv2d are the CUDA kernels' loops
 * restated in C, in the GPU's order of additions (lanes, warp butterfly,
 * block), so they differ from a GPU only where libm and CUDA's math library
 * differ (exp, and randn's log/sin/cos).  Floating matmul is OpenBLAS where
 * the GPU runs cuBLAS: equal to rounding (docs/cuda.md).
 *
 * The device's capacity is the host's physical memory: a request past it
 * is CUDA's out of memory (the caching allocator then frees its cached
 * segments and retries, as on a GPU).  Segments are 4096-byte aligned,
 * more than cudaMalloc's 256.
 */
#include "cuda_rt.h"
#include "scalar.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EMU_ALIGN = 4096 }; /* bytes */

static int64_t emu_held;     /* bytes of segments the host holds for the device */
static int64_t emu_capacity; /* bytes; 0: not computed yet */

static int64_t capacity(void)
{
    if (emu_capacity == 0) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        emu_capacity = pages > 0 && page > 0 ? (int64_t)pages * page : INT64_C(1) << 34;
    }
    return emu_capacity;
}

static int emu_count(const char **why)
{
    *why = NULL;
    return 1;
}

/* The segment's size is kept in front of it, one alignment unit ahead. */
static tl_status emu_alloc(int64_t nbytes, void **ptr, const char **detail)
{
    *ptr = NULL;
    if (nbytes > capacity() - emu_held) {
        *detail = "out of memory (the emulated device holds at most the host's physical memory)";
        return TL_ERR_OUT_OF_MEMORY;
    }
    size_t size = ((size_t)nbytes + EMU_ALIGN - 1) / EMU_ALIGN * EMU_ALIGN + EMU_ALIGN;
    char *p = aligned_alloc(EMU_ALIGN, size);
    if (!p) {
        *detail = "out of memory (host memory for the emulated device)";
        return TL_ERR_OUT_OF_MEMORY;
    }
    *(int64_t *)(void *)p = nbytes;
    emu_held += nbytes;
    *ptr = p + EMU_ALIGN;
    return TL_OK;
}

static void emu_free(void *ptr)
{
    if (!ptr)
        return;
    char *p = (char *)ptr - EMU_ALIGN;
    emu_held -= *(int64_t *)(void *)p;
    free(p);
}

static bool emu_copy(void *dst, const void *src, int64_t nbytes, cu_copy_kind kind)
{
    (void)kind;
    memmove(dst, src, (size_t)nbytes);
    return true;
}

static bool emu_sync(void) { return true; }
static void emu_shutdown(void) {}

/* CUDA's randint (cuda_copy.cu): element i (row-major) from its own stream;
 * the generator advances by one draw per element. */
static void emu_randint(const rt_buf *dst, int64_t low, int64_t high, rt_rng *rng)
{
    const mt_layout *l = dst->l;
    int64_t n = mt_numel(l), idx[TL_MAX_DIMS] = {0};
    uint64_t base = rng->state, range = (uint64_t)high - (uint64_t)low;
    rng->state += (uint64_t)n * SC_GOLDEN;
    for (int64_t i = 0; i < n; i++) {
        int64_t off = l->offset;
        for (int d = 0; d < l->ndim; d++)
            off += idx[d] * l->strides[d];
        ((int64_t *)dst->base)[off] = sc_randint_value(base, low, range, i);
        for (int d = l->ndim - 1; d >= 0 && ++idx[d] == l->shape[d]; d--)
            idx[d] = 0;
    }
}

/* ---- sums, means and softmax in the CUDA kernels' order ---- */

/* cuda_compute.cu gives each row to a group of G threads: one thread when
 * rows are many and strided, a warp when they are many, else the 256-thread
 * block.  Lane l adds elements l, l + G, ... in double; a warp combines its
 * lanes by an xor butterfly (offsets 16 ... 1), a block then adds its warps'
 * results in order.  The grid does not change a row's order, so the host
 * reproduces the GPU's sums exactly. */
enum { EMU_BLOCK = 256, EMU_WARP = 32 };

static int row_group(int64_t rows, int64_t row_stride)
{
    if (row_stride != 1 && rows >= 1024)
        return 1;
    return rows >= 64 ? EMU_WARP : EMU_BLOCK;
}

typedef double (*lane_fold)(double a, double b);
static double fold_add(double a, double b) { return a + b; }
/* Max as the kernels take it: a NaN is never chosen. */
static double fold_max(double a, double b) { return b > a ? b : a; }

/* The group's result from its g lane values (v is overwritten). */
static double group_fold(double *v, int g, lane_fold f)
{
    double t[EMU_WARP];
    if (g == 1)
        return v[0];
    for (int w = 0; w < g; w += EMU_WARP)
        for (int o = EMU_WARP / 2; o > 0; o >>= 1) {
            for (int l = 0; l < EMU_WARP; l++)
                t[l] = f(v[w + l], v[w + (l ^ o)]);
            memcpy(v + w, t, sizeof t);
        }
    double r = v[0];
    for (int w = EMU_WARP; w < g; w += EMU_WARP)
        r = f(r, v[w]);
    return r;
}

/* The rows of a (dim last) and of out beside them. */
typedef struct emu_rows {
    mt_layout a, out;   /* the row dim last in both (out's stride 0 for a reduction) */
    const char *ab;
    char *ob;
    int64_t n, n_rows;  /* elements per row, rows */
    int g;              /* threads per row on the GPU */
} emu_rows;

static void rows_init(emu_rows *r, const rt_buf *out, const mt_layout *ol, const rt_buf *a,
                      const mt_layout *al)
{
    r->a = *al, r->out = *ol;
    r->ab = a->base, r->ob = out->base;
    r->n = al->shape[al->ndim - 1];
    r->n_rows = r->n ? mt_numel(al) / r->n : 0;
    r->g = row_group(r->n_rows, al->strides[al->ndim - 1]);
}

/* Offsets (elements) of row k's first element in a and out. */
static void row_offsets(const emu_rows *r, int64_t k, int64_t *ao, int64_t *oo)
{
    *ao = r->a.offset, *oo = r->out.offset;
    for (int d = r->a.ndim - 2; d >= 0; d--) {
        int64_t c = k % r->a.shape[d];
        k /= r->a.shape[d];
        *ao += c * r->a.strides[d], *oo += c * r->out.strides[d];
    }
}

static double row_x(const emu_rows *r, int64_t ao, int64_t l)
{
    const mt_layout *a = &r->a;
    return sc_load_f64(a->dtype, r->ab + (ao + l * a->strides[a->ndim - 1]) * sc_size_of(a->dtype));
}

/* A lane's sum of one row: elements lane, lane + g, ... */
static double lane_sum(const emu_rows *r, int64_t ao, int lane)
{
    double s = 0;
    for (int64_t l = lane; l < r->n; l += r->g)
        s += row_x(r, ao, l);
    return s;
}

/* mean = sum(out dtype) / n(out dtype), divided in out's compute type. */
static double mean_of(int odt, double sum, int64_t n)
{
    double s = sc_round_float(sum, odt), d = sc_round_float((double)n, odt);
    return odt == TL_F64 ? s / d : (double)((float)s / (float)d);
}

static void emu_reduce(rt_redop op, const rt_buf *out, const rt_buf *a, int dim, bool keepdim)
{
    if (mt_numel(out->l) == 0 || a->l->ndim == 0 || a->l->shape[dim] == 0 ||
        !mt_is_floating(out->l->dtype)) {
        rt_reduce(op, out, a, dim, keepdim); /* copies, fills, or integers: exact */
        return;
    }
    mt_layout al = cu_dim_last(a->l, dim), ol = *out->l;
    if (keepdim)
        ol = cu_dim_last(out->l, dim);
    else
        ol.shape[ol.ndim] = 1, ol.strides[ol.ndim] = 0, ol.ndim++;
    emu_rows r;
    double lanes[EMU_BLOCK];
    rows_init(&r, out, &ol, a, &al);
    for (int64_t k = 0; k < r.n_rows; k++) {
        int64_t ao, oo;
        row_offsets(&r, k, &ao, &oo);
        for (int lane = 0; lane < r.g; lane++)
            lanes[lane] = lane_sum(&r, ao, lane);
        double s = group_fold(lanes, r.g, fold_add);
        sc_store_f64(ol.dtype, r.ob + oo * sc_size_of(ol.dtype),
                     op == RT_MEAN ? mean_of(ol.dtype, s, r.n) : s);
    }
}

/* One softmax row in compute type f32 (f16, bf16, f32) or f64: the max, the
 * sum of exp(x - max) in double, then exp(x - max) * (1 / sum). */
static void softmax_row(const emu_rows *r, int64_t ao, int64_t oo, double *lanes)
{
    bool f64 = r->out.dtype == TL_F64;
    const mt_layout *o = &r->out;
    for (int lane = 0; lane < r->g; lane++) {
        double m = -INFINITY;
        for (int64_t l = lane; l < r->n; l += r->g)
            m = fold_max(m, f64 ? row_x(r, ao, l) : (float)row_x(r, ao, l));
        lanes[lane] = m;
    }
    double m = group_fold(lanes, r->g, fold_max);
    for (int lane = 0; lane < r->g; lane++) {
        double s = 0;
        for (int64_t l = lane; l < r->n; l += r->g)
            s += f64 ? exp(row_x(r, ao, l) - m) : (double)expf((float)row_x(r, ao, l) - (float)m);
        lanes[lane] = s;
    }
    double s = group_fold(lanes, r->g, fold_add);
    for (int64_t l = 0; l < r->n; l++) {
        double v = f64 ? exp(row_x(r, ao, l) - m) * (1.0 / s)
                       : (double)(expf((float)row_x(r, ao, l) - (float)m) * (1.0f / (float)s));
        int64_t off = oo + l * o->strides[o->ndim - 1];
        sc_store_f64(o->dtype, r->ob + off * sc_size_of(o->dtype), v);
    }
}

static void emu_softmax(const rt_buf *out, const rt_buf *a, int dim)
{
    if (mt_numel(out->l) == 0)
        return;
    mt_layout al = cu_dim_last(a->l, a->l->ndim ? dim : 0);
    mt_layout ol = cu_dim_last(out->l, out->l->ndim ? dim : 0);
    emu_rows r;
    double lanes[EMU_BLOCK];
    rows_init(&r, out, &ol, a, &al);
    for (int64_t k = 0; k < r.n_rows; k++) {
        int64_t ao, oo;
        row_offsets(&r, k, &ao, &oo);
        softmax_row(&r, ao, oo, lanes);
    }
}

/* ---- conv2d: the CUDA kernel's direct loop ---- */

/* Output element (nb, oc, oh, ow) accumulates over c, kh, kw in that order
 * with a fused multiply-add in ACC (f32 for f16/bf16/f32, f64, wrapping
 * int64), as cuda_index.cu's conv_at does.  x and w are first packed
 * row-major in ACC: the kernel's loads convert each element to ACC exactly
 * so, and the loop then reads plain arrays. */
typedef struct emu_conv {
    int64_t n, c, h, w, o, kh, kw, oh, ow; /* x [n, c, h, w], w [o, c, kh, kw], out [n, o, oh, ow] */
    int64_t stride, pad;
} emu_conv;

static emu_conv conv_geometry(const mt_layout *o, const mt_layout *x, const mt_layout *w,
                              int64_t stride, int64_t pad)
{
    return (emu_conv){x->shape[0], x->shape[1], x->shape[2], x->shape[3], w->shape[0],
                      w->shape[2], w->shape[3], o->shape[2], o->shape[3], stride, pad};
}

/* b as a dense row-major array of acc_dt (NULL when the host is out of memory). */
static void *conv_pack(const rt_buf *b, tl_dtype acc_dt)
{
    mt_layout l = *b->l;
    l.dtype = acc_dt, l.offset = 0;
    mt_contiguous_strides(l.ndim, l.shape, l.strides);
    void *p = malloc((size_t)(mt_numel(&l) ? mt_numel(&l) : 1) * (size_t)sc_size_of(acc_dt));
    if (p)
        rt_copy(&(rt_buf){&l, p}, b); /* f16/bf16 -> f32, f32 -> f32: exact, as the kernel loads */
    return p;
}

#define EMU_CONV_LOOP(NAME, ACC, FMA)                                                         \
    static void NAME(const emu_conv *g, const ACC *x, const ACC *w, ACC *out)                  \
    {                                                                                         \
        for (int64_t nb = 0; nb < g->n; nb++)                                                 \
            for (int64_t oc = 0; oc < g->o; oc++)                                             \
                for (int64_t oh = 0; oh < g->oh; oh++)                                        \
                    for (int64_t ow = 0; ow < g->ow; ow++) {                                  \
                        ACC acc = 0;                                                          \
                        for (int64_t c = 0; c < g->c; c++)                                    \
                            for (int64_t kh = 0; kh < g->kh; kh++) {                          \
                                int64_t ih = oh * g->stride - g->pad + kh;                    \
                                if (ih < 0 || ih >= g->h)                                     \
                                    continue;                                                 \
                                const ACC *xr = x + ((nb * g->c + c) * g->h + ih) * g->w;     \
                                const ACC *wr = w + ((oc * g->c + c) * g->kh + kh) * g->kw;   \
                                for (int64_t kw = 0; kw < g->kw; kw++) {                      \
                                    int64_t iw = ow * g->stride - g->pad + kw;                \
                                    if (iw >= 0 && iw < g->w)                                 \
                                        acc = FMA(xr[iw], wr[kw], acc);                       \
                                }                                                             \
                            }                                                                 \
                        *out++ = acc;                                                         \
                    }                                                                         \
    }
static int64_t fma_i64(int64_t x, int64_t w, int64_t acc)
{
    return (int64_t)((uint64_t)acc + (uint64_t)x * (uint64_t)w);
}
EMU_CONV_LOOP(conv_f32, float, fmaf)
EMU_CONV_LOOP(conv_f64, double, fma)
EMU_CONV_LOOP(conv_i64, int64_t, fma_i64)
#undef EMU_CONV_LOOP

static void emu_conv2d(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
                       int64_t padding)
{
    tl_dtype od = out->l->dtype;
    tl_dtype acc = od == TL_F64 ? TL_F64 : mt_is_floating(od) ? TL_F32 : TL_I64;
    emu_conv g = conv_geometry(out->l, x->l, w->l, stride, padding);
    mt_layout ol = *out->l;
    ol.dtype = acc, ol.offset = 0;
    mt_contiguous_strides(ol.ndim, ol.shape, ol.strides);
    void *xp = conv_pack(x, acc), *wp = conv_pack(w, acc);
    void *op = malloc((size_t)(mt_numel(&ol) ? mt_numel(&ol) : 1) * (size_t)sc_size_of(acc));
    if (!xp || !wp || !op) {
        cu_fail(TL_ERR_OUT_OF_MEMORY, "conv2d (emulated)", "host out of memory");
    } else {
        if (acc == TL_F32)
            conv_f32(&g, xp, wp, op);
        else if (acc == TL_F64)
            conv_f64(&g, xp, wp, op);
        else
            conv_i64(&g, xp, wp, op);
        rt_copy(out, &(rt_buf){&ol, op}); /* rounded once into out's dtype and layout */
    }
    free(xp);
    free(wp);
    free(op);
}

static const cu_kernels emu_kernels = {
    rt_copy, rt_fill, rt_arange, rt_randn, emu_randint, rt_binary, rt_binary_scalar, rt_unary,
    emu_reduce, emu_softmax, rt_matmul, emu_conv2d, rt_index_select, rt_gather, rt_index, rt_cat,
    rt_binary_inplace, rt_mul_scalar_inplace,
    rt_model, /* the model ops: kernel_model.c's arithmetic, which cuda_model.cu shares */
};

const cu_backend cu_backend_emulation = {
    "emulation", emu_count, emu_alloc, emu_free, emu_copy, emu_sync, emu_shutdown, &emu_kernels,
};

int64_t cu_emulation_held(void) { return emu_held; }
