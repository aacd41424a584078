/*
 * cuda_copy.cu: the device's data movement: copy (broadcast + cast + any
 * strides), fill, arange, randn, randint.
 *
 * A copy follows the path cuda_plan.c chooses (cu_copy_plan_make):
 *   memcpy     same dtype, both dense: cudaMemcpyAsync;
 *   contig     both dense, two floating dtypes: 8 elements per thread with
 *              16-byte loads and stores when both ends are 16-byte aligned;
 *   transpose  same dtype, dst dense along the last plan dim and src along
 *              another: 32 x 32 tiles through shared memory (reads and
 *              writes both coalesced), batch dims decomposed once per tile;
 *   strided    any other broadcast: one element per thread per step, the
 *              plan's offsets from one division per dim (32-bit division
 *              whenever the plan fits);
 *   reshape    same numel, shapes that do not broadcast: row-major order
 *              over each side's own shape (rt_copy's fallback).
 * Conversions are cuda_common.cuh's, i.e. the CPU's rules bit for bit.
 *
 * randn draws the CPU's exact uniform sequence (splitmix64 with the
 * golden-ratio increment, counter-based here: draw j of a call is a pure
 * function of the seed state and j) and follows kernel_rand.c's pairing
 * (Box-Muller per pair of a row, rows padded to an even count of draws), so
 * its values equal the CPU's up to libm rounding.  randint draws per element
 * with rejection from a per-element stream (scalar.h's sc_randint_value,
 * which the emulated device runs too): same distribution as the CPU, other
 * values.  Both advance the generator by the draws they used.
 */
#include "cuda_common.cuh"

/* ---- strided ---- */

typedef struct copy_args {
    cu_plan p;
    char *d;
    const char *s;
    int ddt, sdt, dsize, ssize;
} copy_args;

/* Element i of the plan. */
template <typename IDX>
CU_HD void copy_strided_at(const copy_args &a, IDX i)
{
    int64_t off[2];
    cu_plan_offsets<IDX, 2>(a.p, i, off);
    char *d = a.d + off[0] * a.dsize;
    const char *s = a.s + off[1] * a.ssize;
    if (a.ddt == a.sdt)
        cu_move(d, s, a.dsize);
    else
        cu_convert(d, a.ddt, s, a.sdt);
}

template <typename IDX>
__global__ void copy_strided(copy_args a)
{
    IDX n = (IDX)a.p.numel, step = (IDX)gridDim.x * blockDim.x;
    for (IDX i = (IDX)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        copy_strided_at<IDX>(a, i);
}

static void run_strided(const cu_plan *p, const rt_buf *dst, const rt_buf *src)
{
    copy_args a = {*p, (char *)dst->base, (const char *)src->base, dst->l->dtype, src->l->dtype,
                   mt_dtype_size(dst->l->dtype), mt_dtype_size(src->l->dtype)};
    if (cu_plan_fits_i32(p))
        copy_strided<uint32_t><<<cu_grid(p->numel), CU_THREADS>>>(a);
    else
        copy_strided<uint64_t><<<cu_grid(p->numel), CU_THREADS>>>(a);
    cu_launched("strided copy kernel");
}

/* ---- reshape: row-major on both sides ---- */

/* Element i in row-major order of both sides. */
CU_HD void copy_reshape_at(const mt_layout &dl, char *d, const mt_layout &sl, const char *s,
                           int64_t i)
{
    cu_convert(d + cu_layout_offset(dl, i) * cu_size_of(dl.dtype), dl.dtype,
               s + cu_layout_offset(sl, i) * cu_size_of(sl.dtype), sl.dtype);
}

__global__ void copy_reshape(mt_layout dl, char *d, mt_layout sl, const char *s, int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        copy_reshape_at(dl, d, sl, s, i);
}

static void run_reshape(const rt_buf *dst, const rt_buf *src)
{
    int64_t n = mt_numel(dst->l);
    copy_reshape<<<cu_grid(n), CU_THREADS>>>(*dst->l, (char *)dst->base, *src->l,
                                             (const char *)src->base, n);
    cu_launched("reshape copy kernel");
}

/* ---- contiguous casts between floating dtypes ---- */

template <typename T> struct __align__(16) vec8 {
    T v[8];
};

/* Vector v: elements 8v .. 8v + 7 through one 16-byte-aligned load and store. */
template <typename S, typename D>
CU_HD void cast_vec_at(const S *__restrict__ s, D *__restrict__ d, int64_t v)
{
    vec8<S> in = ((const vec8<S> *)s)[v];
    vec8<D> out;
    for (int k = 0; k < 8; k++)
        cu_put(&out.v[k], cu_wide(in.v[k]));
    ((vec8<D> *)d)[v] = out;
}

/* d[i] = s[i]; 8 per thread through 16-byte accesses when vec. */
template <typename S, typename D>
__global__ void cast_contig(const S *__restrict__ s, D *__restrict__ d, int64_t n, bool vec)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x, t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t head = 0;
    if (vec) {
        int64_t nv = n / 8;
        for (int64_t v = t; v < nv; v += step)
            cast_vec_at(s, d, v);
        head = nv * 8;
    }
    for (int64_t i = head + t; i < n; i += step)
        cu_put(&d[i], cu_wide(s[i]));
}

template <typename S, typename D>
static void launch_cast(const char *s, char *d, int64_t n)
{
    bool vec = ((uintptr_t)s % 16 == 0) && ((uintptr_t)d % 16 == 0);
    cast_contig<S, D><<<cu_grid(vec ? n / 8 + 1 : n), CU_THREADS>>>((const S *)s, (D *)d, n, vec);
}

template <typename S>
static bool cast_from(const char *s, char *d, int ddt, int64_t n)
{
    switch (ddt) {
    case TL_F16: launch_cast<S, __half>(s, d, n); return true;
    case TL_BF16: launch_cast<S, __nv_bfloat16>(s, d, n); return true;
    case TL_F32: launch_cast<S, float>(s, d, n); return true;
    case TL_F64: launch_cast<S, double>(s, d, n); return true;
    default: return false;
    }
}

/* A vectorized cast when both dtypes are floating (and differ); false otherwise. */
static bool run_contig_float(const char *s, int sdt, char *d, int ddt, int64_t n)
{
    if (!mt_is_floating((tl_dtype)sdt) || !mt_is_floating((tl_dtype)ddt) || sdt == ddt)
        return false;
    switch (sdt) {
    case TL_F16: return cast_from<__half>(s, d, ddt, n);
    case TL_BF16: return cast_from<__nv_bfloat16>(s, d, ddt, n);
    case TL_F32: return cast_from<float>(s, d, ddt, n);
    default: return cast_from<double>(s, d, ddt, n);
    }
}

static void run_contig(const cu_plan *p, const rt_buf *dst, const rt_buf *src)
{
    char *d = (char *)dst->base + p->offset[0] * mt_dtype_size(dst->l->dtype);
    const char *s = (const char *)src->base + p->offset[1] * mt_dtype_size(src->l->dtype);
    if (run_contig_float(s, src->l->dtype, d, dst->l->dtype, p->numel))
        cu_launched("contiguous cast kernel");
    else
        run_strided(p, dst, src);
}

/* ---- transpose through shared-memory tiles ---- */

enum { TILE = 32, TILE_ROWS = 8 }; /* a 32 x 32 tile, 32 x 8 threads */

typedef struct tile_args {
    cu_plan p;
    char *d;
    const char *s;
    int j;                     /* plan dim where src has stride 1; dst's is nd - 1 */
    int64_t rows, cols;        /* sizes of dims j and nd - 1 */
    int64_t n_tr, n_tc, total; /* tiles along rows, along cols, and in all (with batches) */
} tile_args;

/* Where tile t starts: its batch's offsets (the plan dims other than j and
 * nd - 1) and its first row (along j) and column (along nd - 1). */
typedef struct tile_at {
    int64_t doff, soff, r0, c0;
} tile_at;

CU_HD tile_at tile_origin(const tile_args &a, int64_t t)
{
    int64_t tc = t % a.n_tc, rest = t / a.n_tc, b = rest / a.n_tr;
    tile_at o = {a.p.offset[0], a.p.offset[1], rest % a.n_tr * TILE, tc * TILE};
    for (int d = a.p.nd - 2; d >= 0; d--) {
        if (d == a.j)
            continue;
        int64_t c = b % a.p.shape[d];
        b /= a.p.shape[d];
        o.doff += c * a.p.st[0][d];
        o.soff += c * a.p.st[1][d];
    }
    return o;
}

/* Source and destination element offsets of tile element (r, c), r along j. */
CU_HD int64_t tile_src(const tile_args &a, const tile_at &o, int64_t r, int64_t c)
{
    return o.soff + r + c * a.p.st[1][a.p.nd - 1];
}

CU_HD int64_t tile_dst(const tile_args &a, const tile_at &o, int64_t r, int64_t c)
{
    return o.doff + r * a.p.st[0][a.j] + c;
}

template <typename T, typename W>
__global__ void __launch_bounds__(TILE * TILE_ROWS) copy_transpose(tile_args a)
{
    __shared__ W tile[TILE][TILE + 1];
    const T *src = (const T *)a.s;
    T *dst = (T *)a.d;
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int64_t t = blockIdx.x; t < a.total; t += gridDim.x) {
        tile_at o = tile_origin(a, t);
#pragma unroll
        for (int k = 0; k < TILE; k += TILE_ROWS) {
            int64_t r = o.r0 + tx, c = o.c0 + ty + k;
            if (r < a.rows && c < a.cols)
                tile[ty + k][tx] = (W)src[tile_src(a, o, r, c)];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k += TILE_ROWS) {
            int64_t r = o.r0 + ty + k, c = o.c0 + tx;
            if (r < a.rows && c < a.cols)
                dst[tile_dst(a, o, r, c)] = (T)tile[tx][ty + k];
        }
        __syncthreads();
    }
}

static tile_args tile_args_of(const cu_copy_plan *cp, const rt_buf *dst, const rt_buf *src)
{
    const cu_plan *p = &cp->p;
    tile_args a = {*p, (char *)dst->base, (const char *)src->base, cp->tile_dim,
                   p->shape[cp->tile_dim], p->shape[p->nd - 1], 0, 0, 0};
    a.n_tr = (a.rows + TILE - 1) / TILE, a.n_tc = (a.cols + TILE - 1) / TILE;
    a.total = p->numel / (a.rows * a.cols) * a.n_tr * a.n_tc;
    return a;
}

static void run_transpose(const cu_copy_plan *cp, const rt_buf *dst, const rt_buf *src)
{
    tile_args a = tile_args_of(cp, dst, src);
    dim3 block(TILE, TILE_ROWS);
    unsigned grid = (unsigned)cu_blocks_for(a.total, 1, cu_max_blocks() * 4);
    switch (mt_dtype_size(dst->l->dtype)) {
    case 1: copy_transpose<uint8_t, uint32_t><<<grid, block>>>(a); break;
    case 2: copy_transpose<uint16_t, uint32_t><<<grid, block>>>(a); break;
    case 4: copy_transpose<uint32_t, uint32_t><<<grid, block>>>(a); break;
    default: copy_transpose<uint64_t, uint64_t><<<grid, block>>>(a); break;
    }
    cu_launched("transpose copy kernel");
}

void cu_copy(const rt_buf *dst, const rt_buf *src)
{
    cu_copy_plan cp;
    if (cu_error_pending() || !cu_copy_plan_make(&cp, dst->l, src->l))
        return;
    int dsize = mt_dtype_size(dst->l->dtype);
    switch (cp.path) {
    case CU_COPY_MEMCPY:
        cu_ok(cudaMemcpyAsync((char *)dst->base + cp.p.offset[0] * dsize,
                              (const char *)src->base + cp.p.offset[1] * dsize,
                              (size_t)(cp.p.numel * dsize), cudaMemcpyDeviceToDevice, 0),
              "cudaMemcpyAsync (copy)");
        break;
    case CU_COPY_CONTIG: run_contig(&cp.p, dst, src); break;
    case CU_COPY_TRANSPOSE: run_transpose(&cp, dst, src); break;
    case CU_COPY_STRIDED: run_strided(&cp.p, dst, src); break;
    case CU_COPY_RESHAPE: run_reshape(dst, src); break;
    }
}

/* ---- fill ---- */

template <typename T, typename IDX>
__global__ void fill_kernel(cu_plan p, T *d, T v)
{
    IDX n = (IDX)p.numel, step = (IDX)gridDim.x * blockDim.x;
    for (IDX i = (IDX)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[1];
        cu_plan_offsets<IDX, 1>(p, i, off);
        d[off[0]] = v;
    }
}

template <typename T>
static void launch_fill(const cu_plan *p, void *d, uint64_t bits)
{
    T v;
    memcpy(&v, &bits, sizeof v);
    if (cu_plan_fits_i32(p))
        fill_kernel<T, uint32_t><<<cu_grid(p->numel), CU_THREADS>>>(*p, (T *)d, v);
    else
        fill_kernel<T, uint64_t><<<cu_grid(p->numel), CU_THREADS>>>(*p, (T *)d, v);
}

/* v is converted on the host by the CPU's rule (rt_store); zeros are a memset. */
void cu_fill(const rt_buf *dst, double v)
{
    const mt_layout *ls[1] = {dst->l};
    cu_plan p;
    uint64_t bits = 0;
    if (cu_error_pending() || !mt_plan_init(&p, 1, ls))
        return;
    rt_store(dst->l->dtype, &bits, v);
    int size = mt_dtype_size(dst->l->dtype);
    if (cu_plan_dense(&p, 0) && (bits == 0 || size == 1)) {
        cu_ok(cudaMemsetAsync((char *)dst->base + p.offset[0] * size, (int)(bits & 0xFF),
                              (size_t)(p.numel * size), 0),
              "cudaMemsetAsync (fill)");
        return;
    }
    switch (size) {
    case 1: launch_fill<uint8_t>(&p, dst->base, bits); break;
    case 2: launch_fill<uint16_t>(&p, dst->base, bits); break;
    case 4: launch_fill<uint32_t>(&p, dst->base, bits); break;
    default: launch_fill<uint64_t>(&p, dst->base, bits); break;
    }
    cu_launched("fill kernel");
}

/* ---- arange ---- */

CU_HD void arange_at(const mt_layout &l, char *d, int64_t i)
{
    char *p = d + cu_layout_offset(l, i) * cu_size_of(l.dtype);
    if (l.dtype >= TL_F16)
        cu_st_f64(p, l.dtype, (double)i);
    else
        cu_st_i64(p, l.dtype, i);
}

__global__ void arange_kernel(mt_layout l, char *d, int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        arange_at(l, d, i);
}

void cu_arange(const rt_buf *dst)
{
    int64_t n = mt_numel(dst->l);
    if (cu_error_pending() || n == 0)
        return;
    arange_kernel<<<cu_grid(n), CU_THREADS>>>(*dst->l, (char *)dst->base, n);
    cu_launched("arange kernel");
}

/* ---- randomness ---- */

/* Rows of the last dim; each row uses row + (row odd) draws, pairs in order. */
__global__ void randn_kernel(mt_layout l, char *d, int size, uint64_t base, int64_t row,
                             int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        cu_st_f64(d + cu_layout_offset(l, i) * size, l.dtype, cu_randn_value(base, row, i));
}

void cu_randn(const rt_buf *dst, rt_rng *rng)
{
    const mt_layout *l = dst->l;
    int64_t n = mt_numel(l), row = l->ndim > 0 ? l->shape[l->ndim - 1] : 1;
    if (cu_error_pending() || n == 0)
        return;
    uint64_t base = rng->state;
    rng->state += cu_randn_draws(n, row) * CU_GOLDEN;
    randn_kernel<<<cu_grid(n), CU_THREADS>>>(*l, (char *)dst->base, mt_dtype_size(l->dtype),
                                             base, row, n);
    cu_launched("randn kernel");
}

__global__ void randint_kernel(mt_layout l, char *d, uint64_t base, int64_t low, uint64_t range,
                               int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        *(int64_t *)(d + cu_layout_offset(l, i) * 8) = sc_randint_value(base, low, range, i);
}

void cu_randint(const rt_buf *dst, int64_t low, int64_t high, rt_rng *rng)
{
    int64_t n = mt_numel(dst->l);
    if (cu_error_pending() || n == 0)
        return;
    uint64_t base = rng->state;
    rng->state += (uint64_t)n * CU_GOLDEN;
    randint_kernel<<<cu_grid(n), CU_THREADS>>>(*dst->l, (char *)dst->base, base, low,
                                               (uint64_t)high - (uint64_t)low, n);
    cu_launched("randint kernel");
}
