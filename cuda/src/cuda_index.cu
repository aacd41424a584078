/*
 * cuda_index.cu: index_select, t[idx], gather, cat and conv2d on the device.
 *
 * The three indexing ops share one kernel: each thread takes an output
 * element, finds its coordinates (row-major over the output's shape), reads
 * the index value that names its source row and moves the element's bytes
 * (the output has t's dtype).  The runtime checked every index value on the
 * host before the call (rt_exec.c), so the kernel's bounds test only keeps
 * a broken invariant from becoming a wild read; negative values count from
 * the end for t[idx], as on the CPU.  cat copies each non-empty part into
 * its narrow of the output with the copy kernels (casting to the promoted
 * dtype).  conv2d is direct: a thread per output element, accumulating in
 * f32 (f16, bf16, f32), f64, or wrapping int64 (integers), as the CPU's
 * im2col does, in another order; it is simple and correct, not tuned.
 */
#include "cuda_common.cuh"

/* ---- index, index_select, gather ---- */

enum { IX_INDEX, IX_SELECT, IX_GATHER };

typedef struct ix_args {
    mt_layout out, t, idx;
    char *o;
    const char *tb, *ib;
    int mode, dim, esize, isize;
    int64_t n;
} ix_args;

/* Where t's element for out's coordinates c lives, or -1 out of range. */
CU_HD int64_t ix_source(const ix_args &a, const int64_t *c)
{
    const mt_layout &t = a.t, &ix = a.idx;
    int64_t ioff = ix.offset, toff = t.offset;
    int axis = a.mode == IX_INDEX ? 0 : a.dim;
    if (a.mode == IX_INDEX) {
        for (int d = 0; d < ix.ndim; d++)
            ioff += c[d] * ix.strides[d];
        for (int d = ix.ndim; d < a.out.ndim; d++)
            toff += c[d] * t.strides[d - ix.ndim + 1];
    } else {
        for (int d = 0; d < t.ndim; d++)
            toff += d == a.dim ? 0 : c[d] * t.strides[d];
        if (a.mode == IX_SELECT)
            ioff += ix.ndim ? c[a.dim] * ix.strides[0] : 0;
        else
            for (int d = 0; d < ix.ndim; d++)
                ioff += c[d] * ix.strides[d];
    }
    int64_t v = cu_ld_i64(a.ib + ioff * a.isize, ix.dtype), size = t.shape[axis];
    v = v < 0 && a.mode == IX_INDEX ? v + size : v;
    return v < 0 || v >= size ? -1 : toff + v * t.strides[axis];
}

/* Output element i (row-major over out's shape). */
CU_HD void index_at(const ix_args &a, int64_t i)
{
    int64_t c[TL_MAX_DIMS], rest = i, ooff = a.out.offset;
    for (int d = a.out.ndim - 1; d >= 0; d--) {
        c[d] = rest % a.out.shape[d];
        rest /= a.out.shape[d];
        ooff += c[d] * a.out.strides[d];
    }
    int64_t src = ix_source(a, c);
    if (src >= 0)
        cu_move(a.o + ooff * a.esize, a.tb + src * a.esize, a.esize);
}

__global__ void index_kernel(ix_args a)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += step)
        index_at(a, i);
}

static void run_index(int mode, const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx)
{
    ix_args a = {*out->l, *t->l, *idx->l, (char *)out->base, (const char *)t->base,
                 (const char *)idx->base, mode, dim, mt_dtype_size(t->l->dtype),
                 mt_dtype_size(idx->l->dtype), mt_numel(out->l)};
    if (cu_error_pending() || a.n == 0)
        return;
    index_kernel<<<cu_grid(a.n), CU_THREADS>>>(a);
    cu_launched("index kernel");
}

void cu_index_select(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx)
{
    if (t->l->ndim == 0) /* a 0-dim t takes one index, 0: out is t */
        cu_copy(out, t);
    else
        run_index(IX_SELECT, out, t, dim, idx);
}

/* A 0-dim layout as the 1-D layout of its one element (size 1, stride 0). */
static mt_layout one_dim(const mt_layout *l)
{
    mt_layout r = *l;
    if (r.ndim == 0) {
        r.ndim = 1;
        r.shape[0] = 1;
        r.strides[0] = 0;
    }
    return r;
}

void cu_gather(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx)
{
    if (out->l->ndim == 0 || t->l->ndim == 0 || idx->l->ndim == 0) {
        /* a 0-dim operand (the others have at most one dim): one element along dim 0,
           as torch.gather(tensor(0.5), 0, zeros(3)) and gather(arange(5.), 0, tensor(3)) */
        mt_layout o1 = one_dim(out->l), t1 = one_dim(t->l), i1 = one_dim(idx->l);
        rt_buf ob = {&o1, out->base}, tb = {&t1, t->base}, ib = {&i1, idx->base};
        run_index(IX_GATHER, &ob, &tb, 0, &ib);
        return;
    }
    run_index(IX_GATHER, out, t, dim, idx);
}

void cu_index(const rt_buf *out, const rt_buf *t, const rt_buf *idx)
{
    run_index(IX_INDEX, out, t, 0, idx);
}

void cu_cat(const rt_buf *out, int n, const rt_buf *parts, int dim)
{
    int64_t at = 0;
    for (int i = 0; i < n && mt_numel(out->l) > 0; i++) {
        const mt_layout *pl = parts[i].l;
        if (mt_numel(pl) == 0)
            continue; /* includes PyTorch's legacy 1-D empty parts */
        mt_layout nl = *out->l;
        nl.offset += at * nl.strides[dim], nl.shape[dim] = pl->shape[dim];
        rt_buf nb = {&nl, out->base};
        cu_copy(&nb, &parts[i]);
        at += pl->shape[dim];
    }
}

/* ---- conv2d ---- */

typedef struct conv_args {
    mt_layout o, x, w; /* [N, O, OH, OW], [N, C, H, W], [O, C, KH, KW] */
    char *ob;
    const char *xb, *wb;
    int64_t stride, pad, n;
} conv_args;

CU_HD void conv_ld(const char *p, int dt, int64_t *v) { *v = cu_ld_i64(p, dt); }
CU_HD void conv_ld(const char *p, int dt, float *v) { *v = (float)cu_ld_f64(p, dt); }
CU_HD void conv_ld(const char *p, int dt, double *v) { *v = cu_ld_f64(p, dt); }

CU_HD int64_t conv_fma(int64_t acc, int64_t x, int64_t w)
{
    return (int64_t)((uint64_t)acc + (uint64_t)x * (uint64_t)w);
}
CU_HD float conv_fma(float acc, float x, float w) { return fmaf(x, w, acc); }
CU_HD double conv_fma(double acc, double x, double w) { return fma(x, w, acc); }

/* Output element i (row-major over [N, O, OH, OW]). */
template <typename ACC>
CU_HD void conv_at(const conv_args &a, int64_t i)
{
    const mt_layout &o = a.o, &x = a.x, &w = a.w;
    int xs = cu_size_of(x.dtype), ws = cu_size_of(w.dtype);
    int64_t ow = i % o.shape[3], oh = i / o.shape[3] % o.shape[2];
    int64_t oc = i / (o.shape[3] * o.shape[2]) % o.shape[1];
    int64_t nb = i / (o.shape[3] * o.shape[2] * o.shape[1]);
    ACC acc = 0;
    for (int64_t c = 0; c < x.shape[1]; c++)
        for (int64_t kh = 0; kh < w.shape[2]; kh++) {
            int64_t ih = oh * a.stride - a.pad + kh;
            if (ih < 0 || ih >= x.shape[2])
                continue;
            for (int64_t kw = 0; kw < w.shape[3]; kw++) {
                int64_t iw = ow * a.stride - a.pad + kw;
                if (iw < 0 || iw >= x.shape[3])
                    continue;
                ACC xv, wv;
                conv_ld(a.xb + (x.offset + nb * x.strides[0] + c * x.strides[1] +
                                ih * x.strides[2] + iw * x.strides[3]) * xs, x.dtype, &xv);
                conv_ld(a.wb + (w.offset + oc * w.strides[0] + c * w.strides[1] +
                                kh * w.strides[2] + kw * w.strides[3]) * ws, w.dtype, &wv);
                acc = conv_fma(acc, xv, wv);
            }
        }
    char *p = a.ob + (o.offset + nb * o.strides[0] + oc * o.strides[1] + oh * o.strides[2] +
                      ow * o.strides[3]) * cu_size_of(o.dtype);
    if (cu_is_integral(o.dtype))
        cu_st_i64(p, o.dtype, (int64_t)acc);
    else
        cu_st_f64(p, o.dtype, (double)acc);
}

template <typename ACC>
__global__ void conv_kernel(conv_args a)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += step)
        conv_at<ACC>(a, i);
}

void cu_conv2d(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
               int64_t padding)
{
    conv_args a = {*out->l, *x->l, *w->l, (char *)out->base, (const char *)x->base,
                   (const char *)w->base, stride, padding, mt_numel(out->l)};
    if (cu_error_pending() || a.n == 0)
        return;
    unsigned grid = cu_grid(a.n);
    if (out->l->dtype == TL_F64)
        conv_kernel<double><<<grid, CU_THREADS>>>(a);
    else if (mt_is_floating(out->l->dtype))
        conv_kernel<float><<<grid, CU_THREADS>>>(a);
    else
        conv_kernel<int64_t><<<grid, CU_THREADS>>>(a);
    cu_launched("conv2d kernel");
}
