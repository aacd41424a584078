/*
 * test_cuda_helpers.cu: the CUDA kernels' logic, run on the host.
 *
 * Two parts, both without a GPU (nvcc compiles this file; it launches
 * nothing):
 *  - the element helpers of cuda/src/cuda_common.cuh (__host__ __device__)
 *    against the CPU kernels, bit for bit: every dtype conversion over edge
 *    and random values, rounding through a common dtype, the vectorized
 *    copy's float casts, a plan's operand offsets (against a brute-force walk
 *    of the layouts, broadcasting included), randn's per-element draws;
 *  - the kernels themselves, emulated: the kernel files are included here,
 *    and each kernel's body (the __host__ __device__ function its grid-stride
 *    loop calls per element, row, vector or tile) runs over the whole index
 *    space on the host.  Results are compared with the CPU runtime on the
 *    same inputs: bit for bit for copies, casts, elementwise ops, indexing and
 *    integer matmul; within rounding for sums, softmax and conv.  The cuBLAS
 *    call's argument mapping (row-major data as column-major C^T = B^T A^T,
 *    OP_T, leading dimensions, batch strides) is checked by a reference GEMM
 *    with cuBLAS's documented semantics standing in for cuBLAS.
 * What remains for a GPU: warp shuffles and block barriers, the launch
 * geometry, and cuBLAS itself (tests/gpu).  Exit status 1 on any mismatch.
 */
#include "cuda_common.cuh"

extern "C" {
#include "rt_internal.h"
}

#include "../../cuda/src/cuda_compute.cu"
#include "../../cuda/src/cuda_copy.cu"
#include "../../cuda/src/cuda_index.cu"
#include "../../cuda/src/cuda_matmul.cu"

#include <stdio.h>
#include <stdlib.h>

static int failures, checks;

static void check(bool ok, const char *what, int a, int b, double v)
{
    checks++;
    if (ok)
        return;
    if (failures++ < 20)
        fprintf(stderr, "mismatch: %s (dtypes %d, %d, value %.17g)\n", what, a, b, v);
}

static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 127.5, -128.5, 255.0,
                              256.0, 300.7, -129.0, 32767.9, 65504.0, 65520.0, 70000.0, 1e-8,
                              6e-8, 1e-40, 2147483647.0, 2147483648.0, -2147483649.0, 1e10,
                              -1e10, 9.3e18, -9.3e18, 3.4e38, 3.5e38, 1e300, INFINITY, -INFINITY,
                              NAN, 0.1, 1.0 / 3.0, 123456789012.0, 16777217.0};

/* Values to convert: the edge values and random ones over many magnitudes. */
static int test_values(double *v, int cap)
{
    int n = 0;
    for (size_t k = 0; k < sizeof edge / sizeof edge[0] && n < cap; k++)
        v[n++] = edge[k];
    srand(1);
    while (n < cap) {
        double m = (double)rand() / RAND_MAX * 2 - 1;
        v[n++] = ldexp(m, rand() % 140 - 40);
    }
    return n;
}

static bool same_value_bits(tl_dtype dt, const void *a, const void *b)
{
    int size = mt_dtype_size(dt);
    if (memcmp(a, b, (size_t)size) == 0)
        return true;
    return mt_is_floating(dt) && isnan(rt_load(dt, a)) && isnan(rt_load(dt, b));
}

/* cu_convert (the strided copy's rule) against rt_copy, every dtype pair. */
static void check_conversions(void)
{
    double v[400];
    int n = test_values(v, 400);
    for (int s = TL_BOOL; s <= TL_F64; s++)
        for (int d = TL_BOOL; d <= TL_F64; d++)
            for (int k = 0; k < n; k++) {
                uint64_t src = 0, want = 0, got = 0;
                rt_store((tl_dtype)s, &src, v[k]);
                mt_layout sl = {}, dl = {};
                sl.dtype = (tl_dtype)s, dl.dtype = (tl_dtype)d;
                rt_buf sb = {&sl, &src}, db = {&dl, &want};
                rt_copy(&db, &sb);
                cu_convert((char *)&got, d, (const char *)&src, s);
                check(same_value_bits((tl_dtype)d, &want, &got), "cu_convert", s, d, v[k]);
            }
}

/* cu_round_float and cu_wrap_int: a value as a dtype holds it. */
static void check_rounding(void)
{
    double v[400];
    int n = test_values(v, 400);
    for (int d = TL_F16; d <= TL_F64; d++)
        for (int k = 0; k < n; k++) {
            uint64_t cell = 0;
            rt_store((tl_dtype)d, &cell, v[k]);
            double want = rt_load((tl_dtype)d, &cell), got = cu_round_float(v[k], d);
            check(memcmp(&want, &got, sizeof got) == 0 || (isnan(want) && isnan(got)),
                  "cu_round_float", d, d, v[k]);
        }
    for (int d = TL_BOOL; d <= TL_I64; d++)
        for (int k = 0; k < 64; k++) {
            int64_t x = (int64_t)((uint64_t)rand() << 33 ^ (uint64_t)rand() << 7 ^ (uint64_t)k);
            uint64_t want = 0;
            mt_layout sl = {}, dl = {};
            sl.dtype = TL_I64, dl.dtype = (tl_dtype)d;
            rt_buf sb = {&sl, &x}, db = {&dl, &want};
            rt_copy(&db, &sb);
            int64_t held = d == TL_I64 ? (int64_t)want : (int64_t)rt_load((tl_dtype)d, &want);
            check(cu_wrap_int(x, d) == held, "cu_wrap_int", d, d, (double)x);
        }
}

/* The vectorized cast's cu_wide / cu_put against rt_copy, one source dtype. */
template <typename S>
static void check_float_casts_from(tl_dtype sdt, const double *v, int n)
{
    for (int k = 0; k < n; k++) {
        uint64_t src = 0;
        rt_store(sdt, &src, v[k]);
        S x;
        memcpy((void *)&x, &src, sizeof x);
        for (int d = TL_F16; d <= TL_F64; d++) {
            uint64_t want = 0, got = 0;
            mt_layout sl = {}, dl = {};
            sl.dtype = sdt, dl.dtype = (tl_dtype)d;
            rt_buf sb = {&sl, &src}, db = {&dl, &want};
            rt_copy(&db, &sb);
            if (d == TL_F16)
                cu_put((__half *)&got, cu_wide(x));
            else if (d == TL_BF16)
                cu_put((__nv_bfloat16 *)&got, cu_wide(x));
            else if (d == TL_F32)
                cu_put((float *)&got, cu_wide(x));
            else
                cu_put((double *)&got, cu_wide(x));
            check(same_value_bits((tl_dtype)d, &want, &got), "cu_put(cu_wide)", sdt, d, v[k]);
        }
    }
}

static void check_float_casts(void)
{
    double v[400];
    int n = test_values(v, 400);
    check_float_casts_from<__half>(TL_F16, v, n);
    check_float_casts_from<__nv_bfloat16>(TL_BF16, v, n);
    check_float_casts_from<float>(TL_F32, v, n);
    check_float_casts_from<double>(TL_F64, v, n);
}

/* ---- plans ---- */

typedef struct pair {
    int64_t a, b;
} pair;

static int cmp_pair(const void *x, const void *y)
{
    const pair *p = (const pair *)x, *q = (const pair *)y;
    return p->a != q->a ? (p->a < q->a ? -1 : 1) : (p->b > q->b) - (p->b < q->b);
}

/* The offsets src (right-aligned, broadcast) and dst give each element, brute force. */
static int64_t brute_pairs(const mt_layout *dst, const mt_layout *src, pair *out)
{
    int64_t n = mt_numel(dst), idx[TL_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        int64_t so = src->offset;
        for (int d = 0; d < src->ndim; d++) {
            int od = d + dst->ndim - src->ndim;
            so += (src->shape[d] == 1 ? 0 : idx[od]) * src->strides[d];
        }
        out[k] = (pair){mt_element_offset(dst, idx), so};
        for (int d = dst->ndim - 1; d >= 0 && ++idx[d] == dst->shape[d]; d--)
            idx[d] = 0;
    }
    return n;
}

template <typename IDX>
static void plan_pairs(const cu_plan *p, pair *out)
{
    for (int64_t i = 0; i < p->numel; i++) {
        int64_t off[2];
        cu_plan_offsets<IDX, 2>(*p, (IDX)i, off);
        out[i] = (pair){off[0], off[1]};
    }
}

static mt_layout layout(int ndim, const int64_t *shape, const int64_t *strides, int64_t offset)
{
    mt_layout l = {};
    l.ndim = ndim, l.offset = offset, l.dtype = TL_F32;
    memcpy(l.shape, shape, sizeof(int64_t) * (size_t)ndim);
    if (strides)
        memcpy(l.strides, strides, sizeof(int64_t) * (size_t)ndim);
    else
        mt_contiguous_strides(ndim, shape, l.strides);
    return l;
}

static void check_plan(const char *what, const mt_layout *dst, const mt_layout *src)
{
    const mt_layout *ls[2] = {dst, src};
    cu_plan p;
    int64_t n = mt_numel(dst);
    pair *want = (pair *)malloc(sizeof(pair) * (size_t)n), *got = (pair *)malloc(sizeof(pair) * (size_t)n);
    if (!mt_plan_init(&p, 2, ls) || !want || !got) {
        check(false, what, 0, 0, 0);
        free(want), free(got);
        return;
    }
    brute_pairs(dst, src, want);
    qsort(want, (size_t)n, sizeof *want, cmp_pair);
    for (int w = 0; w < 2; w++) {
        if (w == 0)
            plan_pairs<uint32_t>(&p, got);
        else
            plan_pairs<uint64_t>(&p, got);
        qsort(got, (size_t)n, sizeof *got, cmp_pair);
        check(memcmp(want, got, sizeof(pair) * (size_t)n) == 0, what, w, p.nd, (double)n);
    }
    free(want), free(got);
}

static void check_plans(void)
{
    int64_t s3[3] = {4, 5, 6}, t3[3] = {4, 6, 5}, tst[3] = {30, 1, 6};
    int64_t sl[3] = {4, 3, 6}, slst[3] = {60, 12, 1}, b1[2] = {5, 1}, p4[4] = {2, 3, 4, 5};
    int64_t p4st[4] = {1, 2, 6, 24}, cl[4] = {2, 3, 4, 5}, clst[4] = {60, 1, 15, 3};
    mt_layout c3 = layout(3, s3, NULL, 0), tr = layout(3, t3, tst, 0), dt = layout(3, t3, NULL, 0);
    mt_layout sv = layout(3, sl, slst, 7), ds = layout(3, sl, NULL, 0);
    mt_layout bc = layout(2, b1, NULL, 3), c4 = layout(4, p4, NULL, 0);
    mt_layout perm = layout(4, p4, p4st, 0), chl = layout(4, cl, clst, 0);
    check_plan("contiguous", &c3, &c3);
    check_plan("transpose", &dt, &tr);
    check_plan("slice", &ds, &sv);
    check_plan("broadcast", &c3, &bc);
    check_plan("permuted dst", &perm, &c4);
    check_plan("channels last", &chl, &c4);
    check_plan("into a slice", &sv, &ds);
}

/* ---- randn ---- */

static void check_randn(int ndim, const int64_t *shape)
{
    mt_layout l = layout(ndim, shape, NULL, 0);
    l.dtype = TL_F64;
    int64_t n = mt_numel(&l), row = ndim ? shape[ndim - 1] : 1;
    double *want = (double *)malloc(sizeof(double) * (size_t)(n ? n : 1));
    rt_rng rng = {12345};
    rt_buf b = {&l, want};
    rt_randn(&b, &rng);
    for (int64_t i = 0; i < n; i++) {
        double got = cu_randn_value(12345, row, i);
        check(memcmp(&got, &want[i], sizeof got) == 0, "cu_randn_value", ndim, (int)row, (double)i);
    }
    check(rng.state == 12345 + cu_randn_draws(n, row) * CU_GOLDEN, "randn draws", ndim,
          (int)row, (double)n);
    free(want);
}

static void check_layout_offsets(void)
{
    int64_t sh[3] = {3, 4, 5}, st[3] = {1, 3, 12};
    mt_layout l = layout(3, sh, st, 2);
    int64_t idx[3] = {0, 0, 0};
    for (int64_t i = 0; i < 60; i++) {
        check(cu_layout_offset(l, i) == mt_element_offset(&l, idx), "cu_layout_offset", 0, 0, (double)i);
        for (int d = 2; d >= 0 && ++idx[d] == sh[d]; d--)
            idx[d] = 0;
    }
}

/* ---- the kernels, emulated ---- */

/* A CPU tensor with ref's layout and dtype, zeroed, for an emulated kernel's output. */
static tl_tensor *like(tl_tensor *ref)
{
    int64_t size = tl_element_size(tl_dtype_of(ref));
    tl_tensor *s = tl_zeros(TL_SHAPE(ref->storage->nbytes / size), tl_dtype_of(ref), TL_CPU);
    tl_ints shape = {ref->l.ndim, {0}}, strides = {ref->l.ndim, {0}};
    for (int d = 0; d < ref->l.ndim; d++)
        shape.v[d] = ref->l.shape[d], strides.v[d] = ref->l.strides[d];
    return tl_as_strided(s, shape, strides, ref->l.offset);
}

static rt_buf buf(tl_tensor *t) { return (rt_buf){&t->l, t->storage->data}; }

/* Same layout, same bits (NaN equals NaN), or within tol of max(1, max |x|). */
static void expect(const char *what, tl_tensor *want, tl_tensor *got, double tol)
{
    tl_tensor *a = tl_contiguous(tl_to(want, TL_F64)), *b = tl_contiguous(tl_to(got, TL_F64));
    const double *x = (const double *)a->storage->data + a->l.offset;
    const double *y = (const double *)b->storage->data + b->l.offset;
    double scale = 1, worst = 0;
    for (int64_t k = 0; k < tl_numel(a); k++)
        scale = fabs(x[k]) > scale ? fabs(x[k]) : scale;
    for (int64_t k = 0; k < tl_numel(a); k++) {
        bool nan = isnan(x[k]) || isnan(y[k]);
        double e = nan ? (isnan(x[k]) && isnan(y[k]) ? 0 : INFINITY) : fabs(x[k] - y[k]) / scale;
        worst = e > worst ? e : worst;
    }
    bool bits = true;
    if (tol == 0) {
        tl_tensor *c = tl_contiguous(want), *d = tl_contiguous(got);
        int64_t n = tl_numel(c) * tl_element_size(tl_dtype_of(c));
        const char *p = (const char *)c->storage->data + c->l.offset * tl_element_size(tl_dtype_of(c));
        const char *q = (const char *)d->storage->data + d->l.offset * tl_element_size(tl_dtype_of(d));
        for (int64_t k = 0; k < tl_numel(c); k++)
            bits = bits && (memcmp(p + k * (n / (tl_numel(c) ? tl_numel(c) : 1)),
                                   q + k * (n / (tl_numel(c) ? tl_numel(c) : 1)),
                                   (size_t)(n / (tl_numel(c) ? tl_numel(c) : 1))) == 0 ||
                            (isnan(x[k]) && isnan(y[k])));
    }
    check(tl_dtype_of(want) == tl_dtype_of(got) && tl_numel(want) == tl_numel(got) && bits &&
          worst <= tol, what, tl_dtype_of(want), tl_dtype_of(got), worst);
}

/* cu_copy's path, with each kernel's body run over its whole index space. */
static cu_copy_path emulate_copy(const rt_buf *dst, const rt_buf *src)
{
    cu_copy_plan cp;
    if (!cu_copy_plan_make(&cp, dst->l, src->l))
        return CU_COPY_MEMCPY;
    const cu_plan *p = &cp.p;
    copy_args a = {*p, (char *)dst->base, (const char *)src->base, dst->l->dtype, src->l->dtype,
                   mt_dtype_size(dst->l->dtype), mt_dtype_size(src->l->dtype)};
    int ds = a.dsize, ss = a.ssize;
    char *d = (char *)dst->base + p->offset[0] * ds;
    const char *s = (const char *)src->base + p->offset[1] * ss;
    switch (cp.path) {
    case CU_COPY_MEMCPY: memcpy(d, s, (size_t)(p->numel * ds)); break;
    case CU_COPY_CONTIG:
        if (dst->l->dtype == TL_F32 && src->l->dtype == TL_F16 && (uintptr_t)s % 16 == 0 &&
            (uintptr_t)d % 16 == 0) {
            for (int64_t v = 0; v < p->numel / 8; v++)
                cast_vec_at((const __half *)s, (float *)d, v);
            for (int64_t i = p->numel / 8 * 8; i < p->numel; i++)
                cu_put((float *)d + i, cu_wide(((const __half *)s)[i]));
            break;
        }
        for (int64_t i = 0; i < p->numel; i++)
            copy_strided_at<uint64_t>(a, (uint64_t)i);
        break;
    case CU_COPY_TRANSPOSE: {
        tile_args t = tile_args_of(&cp, dst, src);
        for (int64_t k = 0; k < t.total; k++) {
            tile_at o = tile_origin(t, k);
            for (int64_t r = o.r0; r < o.r0 + TILE && r < t.rows; r++)
                for (int64_t c = o.c0; c < o.c0 + TILE && c < t.cols; c++)
                    memcpy(t.d + tile_dst(t, o, r, c) * ds, t.s + tile_src(t, o, r, c) * ss,
                           (size_t)ds);
        }
        break;
    }
    case CU_COPY_STRIDED:
        for (int64_t i = 0; i < p->numel; i++)
            copy_strided_at<uint32_t>(a, (uint32_t)i);
        break;
    case CU_COPY_RESHAPE:
        for (int64_t i = 0; i < mt_numel(dst->l); i++)
            copy_reshape_at(*dst->l, (char *)dst->base, *src->l, (const char *)src->base, i);
        break;
    }
    return cp.path;
}

static void emu_copy_case(const char *what, tl_tensor *dst_ref, tl_tensor *src, cu_copy_path path)
{
    tl_tensor *got = like(dst_ref);
    rt_buf d = buf(got), s = buf(src);
    check(emulate_copy(&d, &s) == path, what, (int)path, 0, 0);
    expect(what, dst_ref, got, 0);
}

static tl_tensor *rn(tl_ints shape, tl_dtype dt) { return tl_to(tl_randn(shape, TL_F32, TL_CPU), dt); }

static tl_tensor *ri(tl_ints shape, int64_t lo, int64_t hi, tl_dtype dt)
{
    return tl_to(tl_randint(lo, hi, shape, TL_CPU), dt);
}

static void check_copies(void)
{
    tl_tensor *a = tl_transpose(rn(TL_SHAPE(3, 37, 45), TL_F16), 1, 2);
    emu_copy_case("transpose f16", tl_contiguous(a), a, CU_COPY_TRANSPOSE);
    tl_tensor *b = tl_permute(rn(TL_SHAPE(4, 65, 2, 40), TL_F32), TL_DIMS(2, 3, 0, 1));
    emu_copy_case("permute f32", tl_contiguous(b), b, CU_COPY_TRANSPOSE);
    tl_tensor *c = tl_t(ri(TL_SHAPE(70, 33), 0, 255, TL_U8));
    emu_copy_case("transpose u8", tl_contiguous(c), c, CU_COPY_TRANSPOSE);
    tl_tensor *e = tl_to_format(rn(TL_SHAPE(2, 40, 5, 7), TL_F64), TL_CHANNELS_LAST);
    tl_tensor *e0 = tl_contiguous(e);
    emu_copy_case("channels last back", e0, e, CU_COPY_TRANSPOSE);
    tl_tensor *f = rn(TL_SHAPE(1003), TL_F16);
    emu_copy_case("vector cast", tl_to(f, TL_F32), f, CU_COPY_CONTIG);
    tl_tensor *g = tl_slice(rn(TL_SHAPE(1001), TL_BF16), 0, 1, 1001, 1);
    emu_copy_case("misaligned cast", tl_to(g, TL_F64), g, CU_COPY_CONTIG);
    tl_tensor *h = tl_slice(rn(TL_SHAPE(9, 30), TL_F32), 1, 3, 29, 4);
    emu_copy_case("slice", tl_clone(h), h, CU_COPY_STRIDED);
    tl_tensor *k = tl_expand(rn(TL_SHAPE(1, 5, 1), TL_I32), TL_SHAPE(4, 5, 6));
    emu_copy_case("broadcast", tl_contiguous(k), k, CU_COPY_STRIDED);
    tl_tensor *m = tl_transpose(rn(TL_SHAPE(40, 50), TL_F16), 0, 1);
    emu_copy_case("cast and transpose", tl_contiguous(tl_to(m, TL_F32)), m, CU_COPY_STRIDED);
    tl_tensor *n = tl_contiguous(rn(TL_SHAPE(6, 10), TL_F64)), *flat = tl_zeros(TL_SHAPE(60), TL_F32, TL_CPU);
    rt_buf fb = buf(flat), nb = buf(n);
    rt_copy(&fb, &nb); /* rt_copy's row-major fallback: shapes that do not broadcast */
    emu_copy_case("reshape order", flat, n, CU_COPY_RESHAPE);
    tl_tensor *q = rn(TL_SHAPE(300), TL_F32);
    emu_copy_case("memcpy", tl_clone(q), q, CU_COPY_MEMCPY);
}

/* cu_binary / cu_unary / in place: ew_prepare, then every element's body. */
static void emulate_ew(ew_args *a, int n, const rt_buf *const *ops, bool unary)
{
    if (!ew_prepare(a, n, ops))
        return;
    for (int64_t i = 0; i < a->p.numel; i++) {
        if (a->cd == TL_F16 || a->cd == TL_BF16 || a->cd == TL_F32)
            unary ? unary_at<float, uint32_t>(*a, (uint32_t)i)
                  : binary_at<float, uint32_t>(*a, scalar_of<float>(*a), (uint32_t)i);
        else if (a->cd == TL_F64)
            unary ? unary_at<double, uint64_t>(*a, (uint64_t)i)
                  : binary_at<double, uint64_t>(*a, scalar_of<double>(*a), (uint64_t)i);
        else
            unary ? unary_at<int64_t, uint32_t>(*a, (uint32_t)i)
                  : binary_at<int64_t, uint32_t>(*a, scalar_of<int64_t>(*a), (uint32_t)i);
    }
}

static void emu_binary(const char *what, rt_binop op, tl_tensor *want, tl_tensor *x, tl_tensor *y)
{
    tl_tensor *got = like(want);
    rt_buf o = buf(got), a = buf(x), b = buf(y);
    const rt_buf *ops[3] = {&o, &a, &b};
    ew_args args = {};
    args.cd = got->l.dtype, args.op = op;
    emulate_ew(&args, 3, ops, false);
    expect(what, want, got, 0);
}

static void emu_scalar(const char *what, rt_binop op, tl_tensor *want, tl_tensor *x, double s)
{
    tl_tensor *got = like(want);
    rt_buf o = buf(got), a = buf(x);
    const rt_buf *ops[2] = {&o, &a};
    ew_args args = {};
    args.cd = got->l.dtype, args.op = op, args.scalar = true, args.dt[2] = got->l.dtype;
    rt_store(got->l.dtype, &args.cell, s);
    emulate_ew(&args, 2, ops, false);
    expect(what, want, got, 0);
}

/* exp: libm implementations differ in the last bit (1e-6 relative); the rest is exact. */
static void emu_unary(const char *what, rt_unop op, tl_tensor *want, tl_tensor *x)
{
    tl_tensor *got = like(want);
    rt_buf o = buf(got), a = buf(x);
    const rt_buf *ops[2] = {&o, &a};
    ew_args args = {};
    args.cd = got->l.dtype, args.op = op;
    emulate_ew(&args, 2, ops, true);
    expect(what, want, got, op == RT_EXP ? 1e-6 : 0);
}

static void check_elementwise(void)
{
    tl_tensor *a = rn(TL_SHAPE(4, 1, 6), TL_F16), *b = rn(TL_SHAPE(3, 1), TL_F32);
    emu_binary("add broadcast", RT_ADD, tl_add(a, b), a, b);
    tl_tensor *c = tl_permute(rn(TL_SHAPE(5, 6, 7), TL_BF16), TL_DIMS(2, 0, 1));
    tl_tensor *d = rn(TL_SHAPE(7, 5, 6), TL_BF16);
    emu_binary("sub permuted", RT_SUB, tl_sub(c, d), c, d);
    tl_tensor *e = ri(TL_SHAPE(50, 3), -128, 128, TL_I8), *f = ri(TL_SHAPE(3), 0, 256, TL_U8);
    emu_binary("mul int", RT_MUL, tl_mul(e, f), e, f);
    tl_tensor *g = ri(TL_SHAPE(40), -128, 128, TL_I8), *h = tl_scalar(300, TL_I64, TL_CPU);
    emu_binary("add i8 wraps the 0-dim i64", RT_ADD, tl_add(g, h), g, h);
    tl_tensor *i = ri(TL_SHAPE(30), -9, 9, TL_I32), *j = ri(TL_SHAPE(30), 1, 5, TL_I64);
    emu_binary("true division", RT_DIV, tl_div(i, j), i, j);
    tl_tensor *k = ri(TL_SHAPE(20), 0, 2, TL_BOOL), *l = ri(TL_SHAPE(20), 0, 2, TL_BOOL);
    emu_binary("bool or", RT_ADD, tl_add(k, l), k, l);
    emu_binary("bool and", RT_MUL, tl_mul(k, l), k, l);
    tl_tensor *m = rn(TL_SHAPE(100), TL_F16);
    emu_scalar("scalar f16", RT_MUL, tl_mul_scalar(m, 1.0007), m, 1.0007);
    tl_tensor *n = ri(TL_SHAPE(64), -1000, 1000, TL_I32);
    emu_scalar("scalar int", RT_MUL, tl_mul_scalar(n, 0.5), n, 0.5);
    emu_unary("neg u8", RT_NEG, tl_neg(f), f);
    tl_tensor *o = rn(TL_SHAPE(7, 300), TL_F32);
    emu_unary("exp", RT_EXP, tl_exp(o), o);
    tl_tensor *q = tl_transpose(rn(TL_SHAPE(40, 30), TL_BF16), 0, 1);
    emu_unary("relu", RT_RELU, tl_relu(q), q);
    tl_tensor *r = ri(TL_SHAPE(16), -5, 5, TL_I16);
    emu_unary("exp of int", RT_EXP, tl_exp(r), r);
    /* in place: t += other, computed in the promoted dtype, into t's */
    tl_tensor *t = rn(TL_SHAPE(6, 5), TL_F16), *u = rn(TL_SHAPE(5), TL_F32);
    tl_tensor *want = tl_clone(t), *got = tl_clone(t);
    tl_add_(want, u);
    rt_buf gb = buf(got), ub = buf(u);
    const rt_buf *ops[3] = {&gb, &gb, &ub};
    const mt_layout *ls[2] = {&got->l, &u->l};
    ew_args args = {};
    args.cd = mt_result_type(2, ls), args.op = RT_ADD;
    emulate_ew(&args, 3, ops, false);
    expect("in place", want, got, 0);
}

/* cu_reduce with warp-sized groups: each lane's part, then their sum. */
static void emu_reduce(const char *what, rt_redop op, tl_tensor *x, int dim, bool keepdim,
                       double tol)
{
    tl_tensor *want = op == RT_SUM ? tl_sum(x, dim, keepdim) : tl_mean(x, dim, keepdim);
    tl_tensor *got = like(want);
    rt_buf o = buf(got), a = buf(x);
    row_args r;
    int64_t dd;
    mt_wrap_dim(dim, x->l.ndim, &dd);
    if (!reduce_prepare(&r, op, &o, &a, (int)dd, keepdim))
        return;
    for (int64_t row = 0; row < r.p.numel; row++) {
        int64_t off[2];
        cu_plan_offsets<int64_t, 2>(r.p, row, off);
        double sf = 0;
        unsigned long long si = 0;
        for (int lane = 0; lane < 32; lane++)
            sf += row_part_f(r, off, lane, 32), si += row_part_i(r, off, lane, 32);
        if (mt_is_floating(got->l.dtype))
            reduce_store_f(r, off, sf);
        else
            reduce_store_i(r, off, si);
    }
    expect(what, want, got, tol);
}

static void emu_softmax(const char *what, tl_tensor *x, int dim, double tol)
{
    tl_tensor *want = tl_softmax(x, dim), *got = like(want);
    rt_buf o = buf(got), a = buf(x);
    row_args r;
    int64_t dd;
    mt_wrap_dim(dim, x->l.ndim, &dd);
    if (!softmax_prepare(&r, &o, &a, (int)dd))
        return;
    for (int64_t row = 0; row < r.p.numel; row++) {
        int64_t off[2];
        cu_plan_offsets<int64_t, 2>(r.p, row, off);
        float m = -INFINITY;
        double s = 0;
        for (int lane = 0; lane < 32; lane++) {
            float v = softmax_part_max<float>(r, off, lane, 32);
            m = v > m ? v : m;
        }
        for (int lane = 0; lane < 32; lane++)
            s += softmax_part_sum<float>(r, off, m, lane, 32);
        for (int lane = 0; lane < 32; lane++)
            softmax_part_write<float>(r, off, m, s, lane, 32);
    }
    expect(what, want, got, tol);
}

static void check_rows(void)
{
    emu_reduce("sum dim 0", RT_SUM, rn(TL_SHAPE(20, 200), TL_F32), 0, false, 1e-6);
    emu_reduce("sum keepdim", RT_SUM, rn(TL_SHAPE(30, 77), TL_F32), 1, true, 1e-6);
    emu_reduce("mean f16 mid", RT_MEAN, rn(TL_SHAPE(7, 33, 65), TL_F16), 1, false, 1e-3);
    emu_reduce("mean f64 permuted", RT_MEAN, tl_permute(rn(TL_SHAPE(3, 4, 5), TL_F64), TL_DIMS(2, 0, 1)), -1, true, 1e-14);
    emu_reduce("sum int", RT_SUM, ri(TL_SHAPE(6, 70), -9, 9, TL_I32), 1, false, 0);
    emu_reduce("sum bool", RT_SUM, ri(TL_SHAPE(50, 3), 0, 2, TL_BOOL), 0, false, 0);
    emu_softmax("softmax last", rn(TL_SHAPE(5, 7, 300), TL_F32), 2, 1e-6);
    emu_softmax("softmax first", rn(TL_SHAPE(50, 20), TL_F32), 0, 1e-6);
    emu_softmax("softmax f16", rn(TL_SHAPE(4, 100), TL_F16), 1, 1e-3);
}

static void emu_index(const char *what, int mode, tl_tensor *want, tl_tensor *t, int dim,
                      tl_tensor *idx)
{
    tl_tensor *got = like(want);
    ix_args a = {got->l, t->l, idx->l, (char *)got->storage->data, (const char *)t->storage->data,
                 (const char *)idx->storage->data, mode, dim, tl_element_size(tl_dtype_of(t)),
                 tl_element_size(tl_dtype_of(idx)), tl_numel(got)};
    for (int64_t i = 0; i < a.n; i++)
        index_at(a, i);
    expect(what, want, got, 0);
}

static void check_indexing(void)
{
    tl_tensor *t = rn(TL_SHAPE(10, 3, 4), TL_F16), *ix = ri(TL_SHAPE(2, 5), -10, 10, TL_I64);
    emu_index("index", IX_INDEX, tl_index(t, ix), t, 0, ix);
    tl_tensor *u = tl_transpose(rn(TL_SHAPE(4, 9, 2), TL_F32), 0, 2), *sel = ri(TL_SHAPE(12), 0, 9, TL_I32);
    emu_index("index_select", IX_SELECT, tl_index_select(u, 1, sel), u, 1, sel);
    tl_tensor *v = rn(TL_SHAPE(5, 6, 7), TL_BF16), *gi = ri(TL_SHAPE(5, 4, 9), 0, 7, TL_I64);
    emu_index("gather", IX_GATHER, tl_gather(v, 2, gi), v, 2, gi);
}

template <typename ACC>
static void emu_conv(const char *what, tl_tensor *x, tl_tensor *w, int64_t stride, int64_t pad,
                     double tol)
{
    tl_tensor *want = tl_conv2d(x, w, stride, pad), *got = like(want);
    conv_args a = {got->l, x->l, w->l, (char *)got->storage->data, (const char *)x->storage->data,
                   (const char *)w->storage->data, stride, pad, tl_numel(got)};
    for (int64_t i = 0; i < a.n; i++)
        conv_at<ACC>(a, i);
    expect(what, want, got, tol);
}

static void check_conv(void)
{
    emu_conv<float>("conv2d", rn(TL_SHAPE(2, 3, 9, 11), TL_F32), rn(TL_SHAPE(4, 3, 3, 3), TL_F32), 1, 1, 1e-5);
    emu_conv<float>("conv2d channels last", tl_to_format(rn(TL_SHAPE(1, 4, 12, 12), TL_F32), TL_CHANNELS_LAST),
                    rn(TL_SHAPE(6, 4, 3, 2), TL_F32), 2, 1, 1e-5);
    emu_conv<int64_t>("conv2d int", ri(TL_SHAPE(1, 2, 5, 5), -9, 9, TL_I32), ri(TL_SHAPE(2, 2, 3, 3), -9, 9, TL_I32), 1, 2, 0);
}

/* ---- matmul: the integer kernel, and the cuBLAS mapping against a reference ---- */

/* cuBLAS's documented semantics, column-major: C = op(A) op(B) per batch. */
cublasStatus_t cu_blas_gemm_strided_batched(cublasHandle_t h, cublasOperation_t ta,
                                            cublasOperation_t tb, int m, int n, int k,
                                            const void *alpha, const void *a, cudaDataType at,
                                            int lda, long long sa, const void *b,
                                            cudaDataType bt, int ldb, long long sb,
                                            const void *beta, void *c, cudaDataType ct, int ldc,
                                            long long sc, int count, cublasComputeType_t compute)
{
    (void)h, (void)alpha, (void)beta, (void)bt, (void)compute;
    int dt = at == CUDA_R_16F ? TL_F16 : at == CUDA_R_16BF ? TL_BF16 : at == CUDA_R_32F ? TL_F32 : TL_F64;
    int es = cu_size_of(dt);
    check(at == bt && at == ct && lda >= (ta == CUBLAS_OP_N ? m : k) &&
          ldb >= (tb == CUBLAS_OP_N ? k : n) && ldc >= m, "cuBLAS argument rules", m, n, k);
    for (int q = 0; q < count; q++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                double acc = 0;
                for (int l = 0; l < k; l++) {
                    int64_t ai = ta == CUBLAS_OP_N ? i + (int64_t)l * lda : l + (int64_t)i * lda;
                    int64_t bi = tb == CUBLAS_OP_N ? l + (int64_t)j * ldb : j + (int64_t)l * ldb;
                    acc += cu_ld_f64((const char *)a + (q * sa + ai) * es, dt) *
                           cu_ld_f64((const char *)b + (q * sb + bi) * es, dt);
                }
                cu_st_f64((char *)c + (q * sc + i + (int64_t)j * ldc) * es, dt, acc);
            }
    return CUBLAS_STATUS_SUCCESS;
}

cublasHandle_t cu_blas(void) { return (cublasHandle_t)&failures; /* any non-NULL handle */ }

static void emu_matmul(const char *what, tl_tensor *x, tl_tensor *y, double tol)
{
    tl_tensor *want = tl_matmul(x, y), *got = like(want);
    rt_buf o = buf(got), a = buf(x), b = buf(y);
    bool blas = mt_is_floating(x->l.dtype);
    cu_mm_plan mp;
    if (!cu_mm_plan_make(&mp, &got->l, &x->l, &y->l, blas))
        return;
    if (!blas) {
        imm_args args = {mp, (char *)o.base, (const char *)a.base, (const char *)b.base,
                         got->l.dtype, x->l.dtype, y->l.dtype, tl_element_size(got->l.dtype),
                         tl_element_size(x->l.dtype), tl_element_size(y->l.dtype)};
        for (int64_t i = 0; i < mp.n_batch * mp.m * mp.n; i++)
            int_matmul_at(args, i);
    } else {
        check(mp.a.blas_ok && mp.b.blas_ok && mp.c.blas_ok, what, 0, 0, 0);
        gemm_batches(&mp, got->l.dtype, &o, &a, &b);
    }
    expect(what, want, got, tol);
}

static void check_matmul(void)
{
    emu_matmul("matmul f32", rn(TL_SHAPE(33, 65), TL_F32), rn(TL_SHAPE(65, 17), TL_F32), 1e-5);
    emu_matmul("matmul transposed", tl_t(rn(TL_SHAPE(40, 30), TL_F32)), tl_t(rn(TL_SHAPE(20, 40), TL_F32)), 1e-5);
    emu_matmul("matmul batched broadcast", rn(TL_SHAPE(2, 1, 3, 4), TL_F64), rn(TL_SHAPE(5, 4, 6), TL_F64), 1e-13);
    emu_matmul("matmul batched transposed", tl_transpose(rn(TL_SHAPE(3, 7, 5), TL_F32), 1, 2),
               rn(TL_SHAPE(3, 7, 4), TL_F32), 1e-5);
    emu_matmul("matmul 1-D @ 3-D", rn(TL_SHAPE(7), TL_F32), rn(TL_SHAPE(3, 7, 5), TL_F32), 1e-5);
    emu_matmul("matmul 2-D @ 1-D strided", rn(TL_SHAPE(6, 7), TL_F32),
               tl_slice(rn(TL_SHAPE(14), TL_F32), 0, 0, 14, 2), 1e-5);
    emu_matmul("matmul dot", rn(TL_SHAPE(100), TL_F64), rn(TL_SHAPE(100), TL_F64), 1e-13);
    emu_matmul("matmul bf16", rn(TL_SHAPE(8, 256), TL_BF16), tl_t(rn(TL_SHAPE(64, 256), TL_BF16)), 1e-2);
    emu_matmul("matmul i64", ri(TL_SHAPE(2, 9, 8), -1000, 1000, TL_I64), ri(TL_SHAPE(8, 3), -1000, 1000, TL_I64), 0);
    emu_matmul("matmul i16 wraps", ri(TL_SHAPE(5, 40), -300, 300, TL_I16), ri(TL_SHAPE(40, 4), -300, 300, TL_I16), 0);
}

int main(void)
{
    int64_t r0[1] = {7}, r1[2] = {3, 5}, r2[2] = {2, 600}, r3[2] = {4, 513}, r4[3] = {2, 2, 1};
    check_conversions();
    check_rounding();
    check_float_casts();
    check_plans();
    check_layout_offsets();
    check_randn(0, r0);
    check_randn(1, r0);
    check_randn(2, r1);
    check_randn(2, r2);
    check_randn(2, r3);
    check_randn(3, r4);
    tl_manual_seed(3);
    check_copies();
    check_elementwise();
    check_rows();
    check_indexing();
    check_conv();
    check_matmul();
    printf("test_cuda_helpers: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
