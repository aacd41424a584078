/*
 * kernel_conv.c: rt_conv2d (no bias, no groups, no dilation; one stride and
 * one padding for H and W) by im2col + matrix product.
 *
 * x [N, C, H, W] (or unbatched [C, H, W]) and w [O, C, KH, KW] may have any strides (NCHW,
 * channels-last, views): rt_copy gathers them into dense NCHW temporaries of
 * the compute type (f32 for f16/bf16/f32, f64, i64 for integers, so each
 * output is rounded once).  Per image, im2col builds cols[C*KH*KW, OH*OW]
 * (zeros where the window hangs over the padding), and rt_matmul computes
 * w[O, C*KH*KW] @ cols into the image's output viewed as [O, OH*OW] -- BLAS
 * for floats, exact wrapping loops for integers, rounding and any output
 * strides (channels-last too) handled there.  One allocation per call, freed
 * before returning; an allocation failure aborts (kernels have no status
 * channel).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

typedef struct conv_geom {
    int64_t n, c, h, w;     /* input */
    int64_t o, kh, kw;      /* weight */
    int64_t oh, ow;         /* output */
    int64_t stride, pad;
} conv_geom;

static tl_dtype compute_type(tl_dtype out)
{
    if (mt_is_floating(out))
        return out == TL_F64 ? TL_F64 : TL_F32;
    return TL_I64;
}

/* im2col for one image: x dense [C, H, W], cols dense [C*KH*KW, OH*OW].  Elements
 * move as raw bits (memcpy), 0 is all-zero bits in every compute type. */
#define IM2COL(T)                                                                           \
    static void im2col_##T(const conv_geom *g, const char *x, char *cols) {                \
        const T zero = 0;                                                                   \
        for (int64_t c = 0; c < g->c; c++)                                                  \
            for (int64_t i = 0; i < g->kh; i++)                                             \
                for (int64_t j = 0; j < g->kw; j++)                                         \
                    for (int64_t y = 0; y < g->oh; y++) {                                   \
                        int64_t iy = y * g->stride - g->pad + i;                            \
                        for (int64_t xx = 0; xx < g->ow; xx++, cols += sizeof(T)) {         \
                            int64_t ix = xx * g->stride - g->pad + j;                       \
                            bool in = iy >= 0 && iy < g->h && ix >= 0 && ix < g->w;         \
                            const char *src = x + ((c * g->h + iy) * g->w + ix) * sizeof(T); \
                            memcpy(cols, in ? src : (const char *)&zero, sizeof(T));        \
                        }                                                                   \
                    }                                                                       \
    }
IM2COL(uint32_t)
IM2COL(uint64_t)
#undef IM2COL

static conv_geom geom_of(const mt_layout *out, const mt_layout *x, const mt_layout *w,
                         int64_t stride, int64_t padding)
{
    assert(x->ndim == 4 && w->ndim == 4 && out->ndim == 4 && x->shape[1] == w->shape[1]);
    conv_geom g = {x->shape[0], x->shape[1], x->shape[2], x->shape[3], w->shape[0],
                   w->shape[2], w->shape[3], out->shape[2], out->shape[3], stride, padding};
    assert(g.oh == (g.h + 2 * padding - g.kh) / stride + 1 && out->shape[1] == g.o);
    return g;
}

/* A dense row-major layout of dtype dt. */
static mt_layout dense(int ndim, const int64_t *shape, tl_dtype dt)
{
    mt_layout l = {.ndim = ndim, .dtype = dt, .device = TL_CPU};
    int64_t stride = 1;
    for (int d = ndim - 1; d >= 0; d--)
        l.shape[d] = shape[d], l.strides[d] = stride, stride *= shape[d];
    return l;
}

/* Image n of t (4-D) as a 3-D layout. */
static mt_layout image(const mt_layout *t, int64_t n)
{
    mt_layout l = *t;
    l.ndim = 3, l.offset = t->offset + n * t->strides[0];
    for (int d = 0; d < 3; d++)
        l.shape[d] = t->shape[d + 1], l.strides[d] = t->strides[d + 1];
    return l;
}

/* out image [O, OH, OW] as [O, OH*OW] when OH and OW merge, else false. */
static bool as_matrix(const mt_layout *img, mt_layout *m)
{
    *m = *img;
    m->ndim = 2, m->shape[1] = img->shape[1] * img->shape[2], m->strides[1] = img->strides[2];
    return img->shape[1] == 1 || img->shape[2] == 1 ||
           img->strides[1] == img->strides[2] * img->shape[2];
}

typedef struct conv_bufs {
    void *x, *cols, *w, *res; /* dense compute-type temporaries */
    tl_dtype ct;
} conv_bufs;

/* Image n of x gathered densely into b->x, then unrolled into b->cols. */
static void unroll_image(const conv_geom *g, const conv_bufs *b, const rt_buf *x, int64_t n)
{
    int64_t xs[3] = {g->c, g->h, g->w};
    mt_layout xi = image(x->l, n), xd = dense(3, xs, b->ct);
    rt_buf dst = {&xd, b->x}, src = {&xi, x->base};
    rt_copy(&dst, &src);
    if (mt_dtype_size(b->ct) == 4)
        im2col_uint32_t(g, b->x, b->cols);
    else
        im2col_uint64_t(g, b->x, b->cols);
}

/* out[n] = w @ cols, straight into out when its image is a matrix, else through b->res. */
static void conv_image(const conv_geom *g, const conv_bufs *b, const rt_buf *out,
                       const rt_buf *x, int64_t n)
{
    int64_t cs[2] = {g->c * g->kh * g->kw, g->oh * g->ow}, ws[2] = {g->o, cs[0]};
    int64_t ms[2] = {g->o, cs[1]}, rs[3] = {g->o, g->oh, g->ow};
    mt_layout cl = dense(2, cs, b->ct), wl = dense(2, ws, b->ct), oi = image(out->l, n), om;
    unroll_image(g, b, x, n);
    rt_buf wb = {&wl, b->w}, cb = {&cl, b->cols};
    if (as_matrix(&oi, &om)) {
        rt_buf ob = {&om, out->base};
        rt_matmul(&ob, &wb, &cb);
        return;
    }
    mt_layout rm = dense(2, ms, b->ct), r3 = dense(3, rs, b->ct);
    rt_buf rb = {&rm, b->res}, rb3 = {&r3, b->res}, ob3 = {&oi, out->base};
    rt_matmul(&rb, &wb, &cb);
    rt_copy(&ob3, &rb3);
}

/* An unbatched [C, H, W] layout as [1, C, H, W] (PyTorch accepts both). */
static mt_layout batched(const mt_layout *l)
{
    mt_layout r = *l;
    if (l->ndim == 4)
        return r;
    assert(l->ndim == 3);
    for (int d = 3; d > 0; d--)
        r.shape[d] = l->shape[d - 1], r.strides[d] = l->strides[d - 1];
    r.shape[0] = 1, r.strides[0] = 0, r.ndim = 4;
    return r;
}

static void conv_batched(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
                         int64_t padding);

void rt_conv2d(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
               int64_t padding)
{
    mt_layout xl = batched(x->l), ol = batched(out->l);
    rt_buf xb = {&xl, x->base}, ob = {&ol, out->base};
    conv_batched(&ob, &xb, w, stride, padding);
}

/* rt_conv2d on 4-D x and out. */
static void conv_batched(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
                         int64_t padding)
{
    conv_geom g = geom_of(out->l, x->l, w->l, stride, padding);
    if (mt_numel(out->l) == 0)
        return;
    conv_bufs b = {.ct = compute_type(out->l->dtype)};
    int64_t sz = mt_dtype_size(b.ct), nx = g.c * g.h * g.w, nk = g.c * g.kh * g.kw;
    int64_t ncols = nk * g.oh * g.ow, nw = g.o * nk, nres = g.o * g.oh * g.ow;
    char *mem = rt_scratch_new((size_t)((nx + ncols + nw + nres) * sz),
                               "malloc (conv2d scratch)");
    if (!mem)
        return;
    b.x = mem, b.cols = mem + nx * sz, b.w = mem + (nx + ncols) * sz;
    b.res = mem + (nx + ncols + nw) * sz;
    int64_t wshape[4] = {g.o, g.c, g.kh, g.kw};
    mt_layout wd = dense(4, wshape, b.ct);
    rt_buf wdst = {&wd, b.w};
    rt_copy(&wdst, w);
    for (int64_t n = 0; n < g.n; n++)
        conv_image(&g, &b, out, x, n);
    free(mem);
}
