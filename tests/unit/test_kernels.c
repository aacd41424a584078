/*
 * test_kernels.c: the CPU kernels against PyTorch's answers and naive loops.
 * Every hexadecimal bit pattern and integer result below was printed by
 * torch 1.13 (e.g. torch.tensor([x]).to(torch.float16).view(torch.int16));
 * floating results of sums, softmax, matmul and conv are compared with
 * double-precision naive loops at the tolerances the kernels promise.
 * Layouts are built by hand (transposes, slices, broadcasts, channels-last).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* ---- test tensors ---- */

typedef struct tt {
    mt_layout l;
    void *data; /* owned when owner */
    bool owner;
} tt;

static mt_layout layout(tl_dtype dt, int ndim, const int64_t *shape, const int64_t *strides,
                        int64_t offset)
{
    mt_layout l;
    memset(&l, 0, sizeof l);
    l.ndim = ndim, l.dtype = dt, l.device = TL_CPU, l.offset = offset;
    int64_t stride = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        l.shape[d] = shape[d];
        l.strides[d] = strides ? strides[d] : stride;
        stride *= shape[d];
    }
    return l;
}

/* A contiguous zeroed tensor with room for `extra` more elements. */
static tt tt_new(tl_dtype dt, int ndim, const int64_t *shape)
{
    tt t = {layout(dt, ndim, shape, NULL, 0), NULL, true};
    int64_t n = mt_numel(&t.l);
    t.data = calloc((size_t)(n > 0 ? n : 1), (size_t)mt_dtype_size(dt));
    t.l.storage_nbytes = n * mt_dtype_size(dt);
    return t;
}

/* Another layout over t's storage (not owning). */
static tt tt_view(const tt *t, int ndim, const int64_t *shape, const int64_t *strides,
                  int64_t offset)
{
    tt v = {layout(t->l.dtype, ndim, shape, strides, offset), t->data, false};
    v.l.storage_nbytes = t->l.storage_nbytes;
    return v;
}

static void tt_free(tt *t)
{
    if (t->owner)
        free(t->data);
    t->data = NULL;
}

static rt_buf B(const tt *t)
{
    return (rt_buf){&t->l, t->data};
}

static int64_t offset_of(const mt_layout *l, const int64_t *idx)
{
    int64_t off = l->offset;
    for (int d = 0; d < l->ndim; d++)
        off += idx[d] * l->strides[d];
    return off;
}

static void unravel(const mt_layout *l, int64_t i, int64_t *idx)
{
    for (int d = l->ndim - 1; d >= 0; d--)
        idx[d] = i % l->shape[d], i /= l->shape[d];
}

/* Element i (row-major) of t as a double. */
static double at(const tt *t, int64_t i)
{
    int64_t idx[TL_MAX_DIMS];
    unravel(&t->l, i, idx);
    return rt_load(t->l.dtype, (char *)t->data + offset_of(&t->l, idx) * mt_dtype_size(t->l.dtype));
}

static void put(const tt *t, int64_t i, double v)
{
    int64_t idx[TL_MAX_DIMS];
    unravel(&t->l, i, idx);
    rt_store(t->l.dtype, (char *)t->data + offset_of(&t->l, idx) * mt_dtype_size(t->l.dtype), v);
}

/* Raw bits of element i (row-major). */
static uint64_t bits_at(const tt *t, int64_t i)
{
    int64_t idx[TL_MAX_DIMS];
    uint64_t b = 0;
    unravel(&t->l, i, idx);
    int sz = mt_dtype_size(t->l.dtype);
    memcpy(&b, (char *)t->data + offset_of(&t->l, idx) * sz, (size_t)sz);
    return b;
}

/* Deterministic pseudo-random values in [-4, 4). */
static double noise(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * 0x1.0p-53 * 8.0 - 4.0;
}

static void fill_noise(const tt *t, uint64_t seed)
{
    int64_t n = mt_numel(&t->l);
    for (int64_t i = 0; i < n; i++) {
        double v = noise(&seed);
        put(t, i, mt_is_floating(t->l.dtype) ? v : floor(v * 16));
    }
}

static void assert_close(double got, double want, double rtol, double atol, const char *what,
                         int64_t i)
{
    bool ok = (isnan(got) && isnan(want)) || got == want ||
              fabs(got - want) <= atol + rtol * fabs(want);
    if (!ok) {
        print_error("%s[%lld]: got %.17g, want %.17g\n", what, (long long)i, got, want);
        fail();
    }
}

static uint16_t f16_of(const tt *t, int64_t i)
{
    return (uint16_t)bits_at(t, i);
}

/* ---- conversions ---- */

static void test_f16_bits(void **state)
{
    (void)state;
    const struct { float x; uint16_t f16, bf16; } cases[] = {
        {1.0f, 0x3c00, 0x3f80},       {65504.0f, 0x7bff, 0x4780}, {65520.0f, 0x7c00, 0x4780},
        {65519.99f, 0x7bff, 0x4780},  {1e-8f, 0x0000, 0x322c},    {6e-8f, 0x0001, 0x3381},
        {3e-8f, 0x0001, 0x3301},      {2.98e-8f, 0x0000, 0x3300}, {INFINITY, 0x7c00, 0x7f80},
        {-0.0f, 0x8000, 0x8000},      {1e-5f, 0x00a8, 0x3728},    {0.1f, 0x2e66, 0x3dcd},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        assert_int_equal(rt_f32_to_f16(cases[k].x), cases[k].f16);
        assert_int_equal(rt_f32_to_bf16(cases[k].x), cases[k].bf16);
    }
    assert_int_equal(rt_f32_to_f16(NAN), 0x7e00);
    assert_int_equal(rt_f32_to_f16(-NAN), 0xfe00);
    assert_int_equal(rt_f32_to_bf16(NAN), 0x7fc0); /* c10's scalar rule; torch's AVX2 copy gives 0xffff */
    uint32_t payload = 0x7fffe000u, out;
    float f;
    memcpy(&f, &payload, 4);
    assert_int_equal(rt_f32_to_f16(f), 0x7e00); /* payloads are dropped */
    f = rt_f16_to_f32(0x7d01);                  /* signalling NaN is quieted */
    memcpy(&out, &f, 4);
    assert_int_equal(out, 0x7fe02000u);
    f = rt_bf16_to_f32(0x7f81);
    memcpy(&out, &f, 4);
    assert_int_equal(out, 0x7f810000u);
    assert_true(rt_f16_to_f32(0x0001) == 0x1p-24f && rt_f16_to_f32(0x7bff) == 65504.0f);
}

/* f64 -> f16 / bf16 round through f32 (double rounding), like c10::Half(float(x)). */
static void test_f64_through_f32(void **state)
{
    (void)state;
    int64_t one = 1;
    tt d = tt_new(TL_F64, 1, &one), h = tt_new(TL_F16, 1, &one), b = tt_new(TL_BF16, 1, &one);
    put(&d, 0, 1.0 + 0x1p-11 + 0x1p-40);
    rt_buf hb = B(&h), db = B(&d), bb = B(&b);
    rt_copy(&hb, &db);
    assert_int_equal(f16_of(&h, 0), 0x3c00);
    put(&d, 0, 1.0 + 0x1p-8 + 0x1p-40);
    rt_copy(&bb, &db);
    assert_int_equal(f16_of(&b, 0), 0x3f80);
    tt_free(&d), tt_free(&h), tt_free(&b);
}

/* The SSE2 loops of rt_copy agree with the scalar reference on every f16 and many f32. */
static void test_simd_matches_scalar(void **state)
{
    (void)state;
    int64_t n = 65536 + 5;
    tt h = tt_new(TL_F16, 1, &n), f = tt_new(TL_F32, 1, &n), h2 = tt_new(TL_F16, 1, &n);
    tt b2 = tt_new(TL_BF16, 1, &n);
    uint16_t *hp = h.data;
    float *fp = f.data;
    for (int64_t i = 0; i < n; i++)
        hp[i] = (uint16_t)i;
    rt_buf hb = B(&h), fb = B(&f), h2b = B(&h2), b2b = B(&b2);
    rt_copy(&fb, &hb);
    for (int64_t i = 0; i < n; i++) {
        float want = rt_f16_to_f32(hp[i]);
        assert_memory_equal(&fp[i], &want, 4);
    }
    uint64_t s = 42;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t u = (uint32_t)(s >> 32);
        if (i % 3 == 0) /* near the f16 range: rounding, subnormals, overflow */
            u = (u & 0x807fffffu) | ((uint32_t)(100 + (s >> 20) % 60) << 23);
        memcpy(&fp[i], &u, 4);
    }
    rt_copy(&h2b, &fb);
    rt_copy(&b2b, &fb);
    for (int64_t i = 0; i < n; i++) {
        assert_int_equal(((uint16_t *)h2.data)[i], rt_f32_to_f16(fp[i]));
        assert_int_equal(((uint16_t *)b2.data)[i], rt_f32_to_bf16(fp[i]));
    }
    tt_free(&h), tt_free(&f), tt_free(&h2), tt_free(&b2);
}

/* Float -> integer: x86's truncation rule, as torch 1.13 printed it. */
static void test_float_to_int(void **state)
{
    (void)state;
    const double x[12] = {3e9, -3e9, 300.0, -1.0, 1e20, -1e20, NAN, INFINITY, 255.9, -128.5,
                          70000.0, 2.5e9};
    const int64_t want[5][12] = {
        {0, 0, 44, -1, 0, 0, 0, 0, -1, -128, 112, 0},                          /* i8 */
        {0, 0, 44, 255, 0, 0, 0, 0, 255, 128, 112, 0},                         /* u8 */
        {0, 0, 300, -1, 0, 0, 0, 0, 255, -128, 4464, 0},                       /* i16 */
        {INT32_MIN, INT32_MIN, 300, -1, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, 255, -128,
         70000, INT32_MIN},                                                    /* i32 */
        {3000000000, -3000000000, 300, -1, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, 255, -128,
         70000, 2500000000},                                                   /* i64 */
    };
    const tl_dtype ints[5] = {TL_I8, TL_U8, TL_I16, TL_I32, TL_I64};
    const tl_dtype floats[2] = {TL_F32, TL_F64};
    int64_t n = 12;
    for (int fi = 0; fi < 2; fi++) {
        tt src = tt_new(floats[fi], 1, &n);
        for (int64_t i = 0; i < n; i++)
            put(&src, i, x[i]);
        for (int k = 0; k < 5; k++) {
            tt dst = tt_new(ints[k], 1, &n);
            rt_buf db = B(&dst), sb = B(&src);
            rt_copy(&db, &sb);
            for (int64_t i = 0; i < n; i++) {
                int64_t cell = 0;
                rt_store(ints[k], &cell, x[i]); /* the scalar rule agrees */
                assert_true(rt_load(ints[k], &cell) == at(&dst, i));
                assert_true(at(&dst, i) == (double)want[k][i]);
            }
            tt_free(&dst);
        }
        tt_free(&src);
    }
    tt b = tt_new(TL_BOOL, 1, &n), f = tt_new(TL_F32, 1, &n);
    for (int64_t i = 0; i < n; i++)
        put(&f, i, i == 3 ? -0.0 : x[i]);
    rt_buf bb = B(&b), fb = B(&f);
    rt_copy(&bb, &fb);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(((uint8_t *)b.data)[i], i == 3 ? 0 : 1); /* NaN is true, -0 false */
    tt_free(&b), tt_free(&f);
}

/* Every dtype pair: rt_copy agrees with rt_load + rt_store (the reference rules). */
static void test_cast_table(void **state)
{
    (void)state;
    const double vals[10] = {0, 1, -1, 2.5, -2.75, 300, 65504, 1e-3, 3e9, -7};
    int64_t n = 10;
    for (int s = TL_BOOL; s <= TL_F64; s++)
        for (int d = TL_BOOL; d <= TL_F64; d++) {
            tt src = tt_new((tl_dtype)s, 1, &n), dst = tt_new((tl_dtype)d, 1, &n);
            for (int64_t i = 0; i < n; i++)
                put(&src, i, vals[i]);
            rt_buf db = B(&dst), sb = B(&src);
            rt_copy(&db, &sb);
            for (int64_t i = 0; i < n; i++) {
                uint64_t want = 0; /* the values are exact in double, so this is the rule */
                rt_store((tl_dtype)d, &want, at(&src, i));
                if (mt_is_integral((tl_dtype)s, true) && mt_is_integral((tl_dtype)d, false)) {
                    int64_t v = (int64_t)at(&src, i); /* integer narrowing keeps the low bytes */
                    want = 0;
                    memcpy(&want, &v, (size_t)mt_dtype_size((tl_dtype)d));
                }
                if (bits_at(&dst, i) != want) {
                    print_error("%s -> %s [%lld] (%g): got %#llx want %#llx\n",
                                mt_dtype_name((tl_dtype)s), mt_dtype_name((tl_dtype)d),
                                (long long)i, at(&src, i), (unsigned long long)bits_at(&dst, i),
                                (unsigned long long)want);
                    fail();
                }
            }
            tt_free(&src), tt_free(&dst);
        }
}

/* ---- copies ---- */

/* dst gets src (broadcast, cast) through rt_copy; compare with element-wise rt_load/rt_store. */
static void check_copy(const tt *dst, const tt *src)
{
    rt_buf db = B(dst), sb = B(src);
    rt_copy(&db, &sb);
    int64_t n = mt_numel(&dst->l), idx[TL_MAX_DIMS], sidx[TL_MAX_DIMS];
    int shift = dst->l.ndim - src->l.ndim;
    for (int64_t i = 0; i < n; i++) {
        unravel(&dst->l, i, idx);
        for (int d = 0; d < src->l.ndim; d++)
            sidx[d] = src->l.shape[d] == 1 ? 0 : idx[d + shift];
        int64_t so = offset_of(&src->l, sidx);
        uint64_t want = 0;
        int ssz = mt_dtype_size(src->l.dtype);
        if (src->l.dtype == dst->l.dtype)
            memcpy(&want, (char *)src->data + so * ssz, (size_t)ssz);
        else
            rt_store(dst->l.dtype, &want, rt_load(src->l.dtype, (char *)src->data + so * ssz));
        if (bits_at(dst, i) != want) {
            print_error("copy element %lld: got %#llx want %#llx\n", (long long)i,
                        (unsigned long long)bits_at(dst, i), (unsigned long long)want);
            fail();
        }
    }
}

/* Transposed views of every element size (odd sizes hit the scalar tile edges). */
static void test_copy_transposed(void **state)
{
    (void)state;
    const tl_dtype dts[5] = {TL_U8, TL_F16, TL_F32, TL_F64, TL_I16};
    int64_t shape[3] = {3, 37, 1061}, tshape[3] = {3, 1061, 37};
    int64_t tstrides[3] = {37 * 1061, 1, 1061};
    for (int k = 0; k < 5; k++) {
        tt base = tt_new(dts[k], 3, shape), dst = tt_new(dts[k], 3, tshape);
        fill_noise(&base, 7 + (uint64_t)k);
        tt tv = tt_view(&base, 3, tshape, tstrides, 0); /* base.transpose(1, 2) */
        check_copy(&dst, &tv);                          /* .contiguous() */
        tt f32 = tt_new(TL_F32, 3, tshape);
        check_copy(&f32, &tv); /* cast while transposing */
        tt_free(&base), tt_free(&dst), tt_free(&f32);
    }
}

/* to(f32) of a transposed f16 tensor keeps its strides: a contiguous cast after sorting. */
static void test_copy_permuted_cast(void **state)
{
    (void)state;
    int64_t shape[3] = {2, 33, 70}, pshape[3] = {2, 70, 33}, pst[3] = {33 * 70, 1, 70};
    tt base = tt_new(TL_F16, 3, shape), out = tt_new(TL_F32, 3, shape);
    fill_noise(&base, 3);
    tt src = tt_view(&base, 3, pshape, pst, 0), dst = tt_view(&out, 3, pshape, pst, 0);
    check_copy(&dst, &src);
    tt_free(&base), tt_free(&out);
}

/* Broadcast sources (stride 0), strided slices, offsets, 0-dim and empty tensors. */
static void test_copy_broadcast_strided(void **state)
{
    (void)state;
    int64_t row = 5, shape[2] = {4, 5}, col[2] = {4, 1};
    tt r = tt_new(TL_I32, 1, &row), c = tt_new(TL_F64, 2, col), dst = tt_new(TL_F32, 2, shape);
    fill_noise(&r, 1), fill_noise(&c, 2);
    check_copy(&dst, &r); /* [5] -> [4, 5] */
    check_copy(&dst, &c); /* [4, 1] -> [4, 5] */
    int64_t big[2] = {8, 12}, sl[2] = {4, 5}, slst[2] = {24, 2};
    tt s = tt_new(TL_I64, 2, big), d2 = tt_new(TL_I64, 2, big);
    fill_noise(&s, 3);
    tt sv = tt_view(&s, 2, sl, slst, 13), dv = tt_view(&d2, 2, sl, slst, 1);
    check_copy(&dv, &sv); /* s[1::2, 1::2] into d2[0::2, 1::2] */
    tt scalar = tt_new(TL_F16, 0, NULL), one = tt_new(TL_I8, 0, NULL);
    put(&scalar, 0, -3.5);
    check_copy(&one, &scalar);
    assert_true(at(&one, 0) == -3.0);
    int64_t zero[2] = {0, 3};
    tt e = tt_new(TL_F32, 2, zero), e2 = tt_new(TL_F32, 2, zero);
    rt_buf eb = B(&e), e2b = B(&e2);
    rt_copy(&eb, &e2b);
    tt_free(&r), tt_free(&c), tt_free(&dst), tt_free(&s), tt_free(&d2);
    tt_free(&scalar), tt_free(&one), tt_free(&e), tt_free(&e2);
}

/* Same-dtype copies move raw bits: NaN payloads survive. */
static void test_copy_raw_bits(void **state)
{
    (void)state;
    int64_t n = 3;
    tt a = tt_new(TL_F16, 1, &n), b = tt_new(TL_F16, 1, &n);
    ((uint16_t *)a.data)[0] = 0x7d01, ((uint16_t *)a.data)[1] = 0xffff;
    rt_buf ab = B(&a), bb = B(&b);
    rt_copy(&bb, &ab);
    assert_int_equal(((uint16_t *)b.data)[0], 0x7d01);
    assert_int_equal(((uint16_t *)b.data)[1], 0xffff);
    tt_free(&a), tt_free(&b);
}

static void test_fill_arange(void **state)
{
    (void)state;
    int64_t shape[2] = {3, 1500}, n = 3000;
    tt f = tt_new(TL_F32, 2, shape), h = tt_new(TL_F16, 1, &n), i8 = tt_new(TL_U8, 1, &n);
    rt_buf fb = B(&f), hb = B(&h), ib = B(&i8);
    rt_fill(&fb, 1.5);
    rt_fill(&fb, 0.0); /* memset path */
    rt_fill(&fb, 2.25);
    for (int64_t i = 0; i < 4500; i++)
        assert_true(at(&f, i) == 2.25);
    rt_arange(&hb);
    assert_true(at(&h, 2049) == 2048.0 && at(&h, 2050) == 2050.0 && at(&h, 2051) == 2052.0);
    rt_arange(&ib);
    assert_true(at(&i8, 299) == 43.0); /* wraps like torch's int casts */
    int64_t tshape[2] = {1500, 3}, tst[2] = {1, 1500};
    tt tv = tt_view(&f, 2, tshape, tst, 0); /* arange into a transposed view: row-major */
    rt_buf tb = B(&tv);
    rt_arange(&tb);
    assert_true(at(&tv, 4) == 4.0 && at(&f, 1) == 3.0);
    tt_free(&f), tt_free(&h), tt_free(&i8);
}

/* ---- elementwise ---- */

static void test_binary_broadcast(void **state)
{
    (void)state;
    int64_t sa[2] = {4, 3}, sb = 3;
    tt a = tt_new(TL_F32, 2, sa), b = tt_new(TL_F32, 1, &sb), o = tt_new(TL_F32, 2, sa);
    fill_noise(&a, 1), fill_noise(&b, 2);
    rt_buf ob = B(&o), ab = B(&a), bb = B(&b);
    const rt_binop ops[4] = {RT_ADD, RT_SUB, RT_MUL, RT_DIV};
    for (int k = 0; k < 4; k++) {
        rt_binary(ops[k], &ob, &ab, &bb);
        for (int64_t i = 0; i < 12; i++) {
            float x = (float)at(&a, i), y = (float)at(&b, i % 3);
            float want = k == 0 ? x + y : k == 1 ? x - y : k == 2 ? x * y : x / y;
            assert_true((float)at(&o, i) == want);
        }
    }
    int64_t sc[3] = {2, 1, 3}, sd[2] = {4, 1}, so[3] = {2, 4, 3};
    tt c = tt_new(TL_I32, 3, sc), d = tt_new(TL_F64, 2, sd), o2 = tt_new(TL_F64, 3, so);
    fill_noise(&c, 3), fill_noise(&d, 4);
    rt_buf o2b = B(&o2), cb = B(&c), db = B(&d);
    rt_binary(RT_ADD, &o2b, &cb, &db); /* [2,1,3] + [4,1] -> [2,4,3] */
    for (int64_t i = 0; i < 24; i++)
        assert_true(at(&o2, i) == at(&c, (i / 12) * 3 + i % 3) + at(&d, (i / 3) % 4));
    tt_free(&a), tt_free(&b), tt_free(&o), tt_free(&c), tt_free(&d), tt_free(&o2);
}

/* Integer arithmetic wraps; bool + is or, * is and (torch 1.13's results). */
static void test_binary_integers(void **state)
{
    (void)state;
    int64_t two = 2;
    tt u = tt_new(TL_U8, 1, &two), uo = tt_new(TL_U8, 1, &two);
    put(&u, 0, 200), put(&u, 1, 100);
    rt_buf ub = B(&u), uob = B(&uo);
    rt_binary(RT_ADD, &uob, &ub, &ub);
    assert_true(at(&uo, 0) == 144 && at(&uo, 1) == 200);
    rt_binary(RT_MUL, &uob, &ub, &ub);
    assert_true(at(&uo, 0) == 64 && at(&uo, 1) == 16);
    rt_unary(RT_NEG, &uob, &ub);
    assert_true(at(&uo, 0) == 56 && at(&uo, 1) == 156);
    tt s = tt_new(TL_I16, 1, &two), so = tt_new(TL_I16, 1, &two);
    put(&s, 0, 30000), put(&s, 1, -30000);
    rt_buf sb = B(&s), sob = B(&so);
    rt_binary(RT_MUL, &sob, &sb, &sb);
    assert_true(at(&so, 0) == -5888 && at(&so, 1) == -5888);
    tt l = tt_new(TL_I64, 1, &two), lo = tt_new(TL_I64, 1, &two);
    ((int64_t *)l.data)[0] = INT64_C(1) << 62, ((int64_t *)l.data)[1] = INT64_MIN;
    rt_buf lb = B(&l), lob = B(&lo);
    rt_binary(RT_ADD, &lob, &lb, &lb);
    assert_true(((int64_t *)lo.data)[0] == INT64_MIN && ((int64_t *)lo.data)[1] == 0);
    tt m = tt_new(TL_I32, 1, &two), mo = tt_new(TL_I32, 1, &two);
    put(&m, 0, 2147483647), put(&m, 1, 5);
    rt_buf mb = B(&m), mob = B(&mo);
    rt_binary_scalar(RT_ADD, &mob, &mb, 1.0); /* out i32 here: the kernel computes in out */
    assert_true(at(&mo, 0) == -2147483648.0 && at(&mo, 1) == 6);
    tt b = tt_new(TL_BOOL, 1, &two), c = tt_new(TL_BOOL, 1, &two), bo = tt_new(TL_BOOL, 1, &two);
    put(&b, 0, 1), put(&b, 1, 0), put(&c, 0, 1), put(&c, 1, 1);
    rt_buf bb = B(&b), cb = B(&c), bob = B(&bo);
    rt_binary(RT_ADD, &bob, &bb, &cb);
    assert_true(at(&bo, 0) == 1 && at(&bo, 1) == 1);
    rt_binary(RT_MUL, &bob, &bb, &cb);
    assert_true(at(&bo, 0) == 1 && at(&bo, 1) == 0);
    tt i8 = tt_new(TL_U8, 1, &two), j8 = tt_new(TL_I8, 1, &two), o16 = tt_new(TL_I16, 1, &two);
    put(&i8, 0, 200), put(&j8, 0, 100);
    rt_buf i8b = B(&i8), j8b = B(&j8), o16b = B(&o16);
    rt_binary(RT_ADD, &o16b, &i8b, &j8b); /* u8 + i8 -> i16: 300 */
    assert_true(at(&o16, 0) == 300);
    tt_free(&u), tt_free(&uo), tt_free(&s), tt_free(&so), tt_free(&l), tt_free(&lo);
    tt_free(&m), tt_free(&mo), tt_free(&b), tt_free(&c), tt_free(&bo);
    tt_free(&i8), tt_free(&j8), tt_free(&o16);
}

/* Integer / integer: the meta function picks f32, the kernel converts and divides. */
static void test_int_div(void **state)
{
    (void)state;
    int64_t two = 2;
    tt a = tt_new(TL_I32, 1, &two), b = tt_new(TL_I32, 1, &two), o = tt_new(TL_F32, 1, &two);
    put(&a, 0, 7), put(&a, 1, -7), put(&b, 0, 2), put(&b, 1, 2);
    rt_buf ob = B(&o), ab = B(&a), bb = B(&b);
    rt_binary(RT_DIV, &ob, &ab, &bb);
    assert_true(at(&o, 0) == 3.5 && at(&o, 1) == -3.5);
    rt_binary_scalar(RT_MUL, &ob, &ab, 0.1); /* i32 * 0.1 -> f32, 0.1 as float */
    assert_true((float)at(&o, 0) == 7 * 0.1f);
    tt_free(&a), tt_free(&b), tt_free(&o);
}

/* f16 / bf16 compute in f32 and round once; scalars round to the tensor's dtype first. */
static void test_half_arithmetic(void **state)
{
    (void)state;
    int64_t n = 6;
    const uint16_t x[6] = {0x6400, 0x4200, 0x2e66, 0x63d1, 0xc740, 0x7bff};
    const uint16_t mul[6] = {0x6401, 0x4202, 0x2e68, 0x63d3, 0xc742, 0x7c00};
    const uint16_t add[6] = {0x6400, 0x42ab, 0x36ee, 0x63d2, 0xc6eb, 0x7bff};
    const uint16_t div[6] = {0x5d55, 0x36db, 0x2844, 0x56f3, 0xb946, 0x7555};
    const uint16_t inplace[6] = {0x6400, 0x42ab, 0x2e68, 0x63d1, 0xc726, 0x7c00};
    const double other[6] = {0.0001, 0.3333, 1e-4, 0.2, 0.1, 16.0};
    const double divisor[6] = {3, 7, 3, 9, 11, 3};
    tt a = tt_new(TL_F16, 1, &n), o = tt_new(TL_F16, 1, &n), f = tt_new(TL_F32, 1, &n);
    tt dv = tt_new(TL_F16, 1, &n), s0 = tt_new(TL_F32, 0, NULL);
    memcpy(a.data, x, sizeof x);
    rt_buf ab = B(&a), ob = B(&o), fb = B(&f), dvb = B(&dv), s0b = B(&s0);
    rt_binary_scalar(RT_MUL, &ob, &ab, 1.0007);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(f16_of(&o, i), mul[i]);
    put(&s0, 0, 1.0007); /* a 0-dim f32 tensor: result type f16, same answer */
    rt_binary(RT_MUL, &ob, &ab, &s0b);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(f16_of(&o, i), mul[i]);
    rt_binary_scalar(RT_ADD, &ob, &ab, 0.3333);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(f16_of(&o, i), add[i]);
    for (int64_t i = 0; i < n; i++)
        put(&dv, i, divisor[i]), put(&f, i, other[i]);
    rt_binary(RT_DIV, &ob, &ab, &dvb);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(f16_of(&o, i), div[i]);
    rt_binary_inplace(RT_ADD, &ab, &fb); /* f16 += f32: computed in f32, rounded once */
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(f16_of(&a, i), inplace[i]);
    int64_t four = 4;
    const uint16_t mixed[4] = {0x6800, 0x6802, 0xc100, 0x7c00};
    const double ints[4] = {2049, 2051, -3, 70000};
    tt i = tt_new(TL_I32, 1, &four), h = tt_new(TL_F16, 1, &four), ho = tt_new(TL_F16, 1, &four);
    for (int64_t k = 0; k < 4; k++)
        put(&i, k, ints[k]), put(&h, k, 0.5);
    rt_buf ib = B(&i), hb = B(&h), hob = B(&ho);
    rt_binary(RT_ADD, &hob, &ib, &hb); /* i32 + f16 -> f16: ints round to f16 first */
    for (int64_t k = 0; k < 4; k++)
        assert_int_equal(f16_of(&ho, k), mixed[k]);
    const uint16_t bx[4] = {0x3f80, 0x4049, 0xbb24, 0x4396}, bsum[4] = {0x4000, 0x40c9, 0xbba4, 0x4416};
    const uint16_t bexp[4] = {0x402e, 0x41b9, 0x3f7f, 0x7f80};
    tt bf = tt_new(TL_BF16, 1, &four), bo = tt_new(TL_BF16, 1, &four);
    memcpy(bf.data, bx, sizeof bx);
    rt_buf bfb = B(&bf), bob = B(&bo);
    rt_binary(RT_ADD, &bob, &bfb, &bfb);
    for (int64_t k = 0; k < 4; k++)
        assert_int_equal(f16_of(&bo, k), bsum[k]);
    rt_unary(RT_EXP, &bob, &bfb);
    for (int64_t k = 0; k < 4; k++)
        assert_int_equal(f16_of(&bo, k), bexp[k]);
    rt_binary_scalar(RT_MUL, &bob, &bfb, 1.0007);
    for (int64_t k = 0; k < 4; k++)
        assert_int_equal(f16_of(&bo, k), bx[k]);
    tt_free(&a), tt_free(&o), tt_free(&f), tt_free(&dv), tt_free(&s0);
    tt_free(&i), tt_free(&h), tt_free(&ho), tt_free(&bf), tt_free(&bo);
}

/* Long, permuted and in-place operands (chunked and direct paths). */
static void test_binary_layouts(void **state)
{
    (void)state;
    int64_t shape[2] = {300, 41}, tshape[2] = {41, 300}, tst[2] = {1, 41};
    tt a = tt_new(TL_F32, 2, shape), b = tt_new(TL_F64, 2, shape), o = tt_new(TL_F32, 2, shape);
    fill_noise(&a, 5), fill_noise(&b, 6);
    tt at_ = tt_view(&a, 2, tshape, tst, 0), bt = tt_view(&b, 2, tshape, tst, 0);
    tt ot = tt_view(&o, 2, tshape, tst, 0); /* a permuted output, as PyTorch gives a.T + b.T */
    rt_buf ob = B(&ot), ab = B(&at_), bb = B(&bt);
    rt_binary(RT_MUL, &ob, &ab, &bb);
    for (int64_t i = 0; i < 300 * 41; i++)
        assert_true((float)at(&o, i) == (float)at(&a, i) * (float)at(&b, i));
    tt c = tt_new(TL_F32, 2, shape);
    memcpy(c.data, a.data, 300 * 41 * 4);
    rt_buf cb = B(&c), ab2 = B(&a);
    rt_mul_scalar_inplace(&cb, 2.0);       /* c *= 2 */
    rt_binary_inplace(RT_SUB, &cb, &ab2);  /* c -= a: back to a, exactly */
    assert_memory_equal(c.data, a.data, 300 * 41 * 4);
    rt_binary_inplace(RT_SUB, &ab2, &ab2); /* a -= a */
    for (int64_t i = 0; i < 300 * 41; i++)
        assert_true(at(&a, i) == 0.0);
    tt_free(&a), tt_free(&b), tt_free(&o), tt_free(&c);
}

/* Broadcasts that cannot merge: chunks cut dim 0 in blocks, or a middle dim with carries. */
static void test_binary_chunks(void **state)
{
    (void)state;
    const int64_t shapes[2][3] = {{50, 30, 7}, {3, 500, 7}};
    for (int k = 0; k < 2; k++) {
        const int64_t *so = shapes[k];
        int64_t sa[3] = {so[0], 1, so[2]}, sb[2] = {so[1], 1};
        tt a = tt_new(TL_I32, 3, sa), b = tt_new(TL_I16, 2, sb), o = tt_new(TL_I64, 3, so);
        fill_noise(&a, 31), fill_noise(&b, 32);
        rt_buf ob = B(&o), ab = B(&a), bb = B(&b);
        rt_binary(RT_SUB, &ob, &ab, &bb); /* [n0,1,n2] - [n1,1] -> [n0,n1,n2] */
        for (int64_t i = 0; i < so[0] * so[1] * so[2]; i++) {
            int64_t i0 = i / (so[1] * so[2]), i1 = (i / so[2]) % so[1], i2 = i % so[2];
            assert_true(at(&o, i) == at(&a, i0 * so[2] + i2) - at(&b, i1));
        }
        tt_free(&a), tt_free(&b), tt_free(&o);
    }
}

/* Sum of a transposed integer tensor into i64, keepdim. */
static void test_reduce_strided_int(void **state)
{
    (void)state;
    int64_t shape[2] = {37, 1500}, tshape[2] = {1500, 37}, tst[2] = {1, 1500}, os[2] = {1, 37};
    tt a = tt_new(TL_I8, 2, shape), o = tt_new(TL_I64, 2, os);
    fill_noise(&a, 41);
    tt t = tt_view(&a, 2, tshape, tst, 0);
    rt_buf ob = B(&o), tb = B(&t);
    rt_reduce(RT_SUM, &ob, &tb, 0, true); /* a.T.sum(0, keepdim=True) */
    for (int64_t j = 0; j < 37; j++) {
        double want = 0;
        for (int64_t i = 0; i < 1500; i++)
            want += at(&a, j * 1500 + i);
        assert_true(at(&o, j) == want);
    }
    tt_free(&a), tt_free(&o);
}

static void test_unary(void **state)
{
    (void)state;
    int64_t n = 2000;
    tt a = tt_new(TL_F32, 1, &n), o = tt_new(TL_F32, 1, &n);
    fill_noise(&a, 9);
    put(&a, 0, -0.0), put(&a, 1, NAN), put(&a, 2, -1.0);
    rt_buf ab = B(&a), ob = B(&o);
    rt_unary(RT_RELU, &ob, &ab);
    assert_true(signbit(at(&o, 0)) && isnan(at(&o, 1)) && at(&o, 2) == 0.0); /* torch: -0., nan, 0. */
    for (int64_t i = 3; i < n; i++)
        assert_true(at(&o, i) == (at(&a, i) < 0 ? 0 : at(&a, i)));
    rt_unary(RT_EXP, &ob, &ab);
    for (int64_t i = 2; i < n; i++)
        assert_close(at(&o, i), exp(at(&a, i)), 1e-6, 0, "exp", i);
    rt_unary(RT_NEG, &ob, &ab);
    assert_true(at(&o, 0) == 0.0 && !signbit(at(&o, 0)));
    const double edge[9] = {-100, -87.5, -103.9, 88.5, 89, NAN, INFINITY, -INFINITY, -0.0};
    for (int64_t i = 0; i < 9; i++)
        put(&a, i, edge[i]);
    rt_unary(RT_EXP, &ob, &ab); /* subnormal results, overflow, specials; tail lanes padded */
    for (int64_t i = 0; i < 9; i++) {
        float want = (float)exp(edge[i]), got = (float)at(&o, i);
        assert_true((isnan(want) && isnan(got)) || want == got ||
                    fabsf(got - want) <= 2 * (nextafterf(fabsf(want), INFINITY) - fabsf(want)));
    }
    int64_t two = 2;
    tt i = tt_new(TL_I32, 1, &two), f = tt_new(TL_F32, 1, &two);
    put(&i, 0, 1), put(&i, 1, 2);
    rt_buf ib = B(&i), fb = B(&f);
    rt_unary(RT_EXP, &fb, &ib); /* exp of an integer tensor: f32 out */
    assert_true((float)at(&f, 1) == expf(2.0f));
    tt_free(&a), tt_free(&o), tt_free(&i), tt_free(&f);
}

/* ---- reductions and softmax ---- */

/* Naive sum of a (3-D contiguous) over dim, in double. */
static double naive_sum(const tt *a, int dim, int64_t o)
{
    const int64_t *s = a->l.shape;
    int64_t rest[2], k = 0, idx[3];
    for (int d = 0; d < 3; d++)
        if (d != dim)
            rest[k++] = s[d];
    int64_t i1 = o % rest[1], i0 = o / rest[1];
    double sum = 0;
    for (int64_t r = 0; r < s[dim]; r++) {
        k = 0;
        for (int d = 0; d < 3; d++)
            idx[d] = d == dim ? r : (k++ == 0 ? i0 : i1);
        sum += at(a, (idx[0] * s[1] + idx[1]) * s[2] + idx[2]);
    }
    return sum;
}

static void test_reduce(void **state)
{
    (void)state;
    int64_t shape[3] = {5, 1100, 7};
    tt a = tt_new(TL_F32, 3, shape);
    fill_noise(&a, 11);
    for (int dim = 0; dim < 3; dim++) {
        int64_t os[2], k = 0;
        for (int d = 0; d < 3; d++)
            if (d != dim)
                os[k++] = shape[d];
        tt o = tt_new(TL_F32, 2, os), m = tt_new(TL_F32, 2, os);
        rt_buf ob = B(&o), mb = B(&m), ab = B(&a);
        rt_reduce(RT_SUM, &ob, &ab, dim, false);
        rt_reduce(RT_MEAN, &mb, &ab, dim, false);
        for (int64_t i = 0; i < os[0] * os[1]; i++) {
            double want = naive_sum(&a, dim, i);
            assert_close(at(&o, i), want, 1e-5, 1e-5, "sum", i);
            assert_close(at(&m, i), want / (double)shape[dim], 1e-5, 1e-6, "mean", i);
        }
        tt_free(&o), tt_free(&m);
    }
    int64_t ks[3] = {5, 1, 7};
    tt kd = tt_new(TL_F32, 3, ks);
    rt_buf kb = B(&kd), ab = B(&a);
    rt_reduce(RT_SUM, &kb, &ab, 1, true); /* keepdim */
    for (int64_t i = 0; i < 35; i++)
        assert_close(at(&kd, i), naive_sum(&a, 1, i), 1e-5, 1e-5, "keepdim", i);
    int64_t ls[3] = {2, 70001, 1}, los[2] = {2, 1};
    tt l = tt_new(TL_F64, 3, ls), lo = tt_new(TL_F64, 2, los);
    fill_noise(&l, 12);
    rt_buf lb = B(&l), lob = B(&lo);
    rt_reduce(RT_MEAN, &lob, &lb, 1, false); /* rows longer than a chunk (65536) */
    for (int64_t i = 0; i < 2; i++)
        assert_close(at(&lo, i), naive_sum(&l, 1, i) / 70001.0, 1e-12, 1e-15, "long mean", i);
    tt_free(&a), tt_free(&kd), tt_free(&l), tt_free(&lo);
}

static void test_reduce_special(void **state)
{
    (void)state;
    int64_t n = 3001, two = 2, zero_shape[2] = {3, 0}, three = 3;
    tt ones = tt_new(TL_F16, 1, &n), m = tt_new(TL_F16, 0, NULL);
    rt_buf ob = B(&ones), mb = B(&m);
    rt_fill(&ob, 1.0);
    rt_reduce(RT_MEAN, &mb, &ob, 0, false);
    assert_true(at(&m, 0) == 1.0); /* torch 1.13: sum 3000 (f16) / 3000 (3001 as f16) */
    rt_reduce(RT_SUM, &mb, &ob, 0, false);
    assert_true(at(&m, 0) == 3000.0);
    tt big = tt_new(TL_F16, 1, &two), bs = tt_new(TL_F16, 0, NULL);
    put(&big, 0, 65504), put(&big, 1, 65504);
    rt_buf bb = B(&big), bsb = B(&bs);
    rt_reduce(RT_MEAN, &bsb, &bb, 0, false);
    assert_true(isinf(at(&bs, 0))); /* the f16 sum overflows first, as in torch */
    tt i = tt_new(TL_I32, 1, &two), is = tt_new(TL_I64, 0, NULL);
    put(&i, 0, 2147483647), put(&i, 1, 2147483647);
    rt_buf ib = B(&i), isb = B(&is);
    rt_reduce(RT_SUM, &isb, &ib, 0, false); /* int sums accumulate in i64 */
    assert_true(*(int64_t *)is.data == INT64_C(4294967294));
    tt e = tt_new(TL_F32, 2, zero_shape), es = tt_new(TL_F32, 1, &three);
    rt_buf eb = B(&e), esb = B(&es);
    rt_reduce(RT_SUM, &esb, &eb, 1, false);
    assert_true(at(&es, 0) == 0.0 && at(&es, 2) == 0.0);
    rt_reduce(RT_MEAN, &esb, &eb, 1, false);
    assert_true(isnan(at(&es, 1)));
    tt_free(&ones), tt_free(&m), tt_free(&big), tt_free(&bs), tt_free(&i), tt_free(&is);
    tt_free(&e), tt_free(&es);
}

static void check_softmax(tl_dtype dt, int64_t rows, int64_t n, double tol)
{
    int64_t shape[2] = {n, rows}, tshape[2] = {rows, n}, tst[2] = {1, rows};
    tt base = tt_new(dt, 2, shape), out = tt_new(dt, 2, tshape);
    fill_noise(&base, 13);
    tt a = tt_view(&base, 2, tshape, tst, 0); /* transposed input: softmax over a strided dim */
    rt_buf ob = B(&out), ab = B(&a);
    rt_softmax(&ob, &ab, 1);
    for (int64_t r = 0; r < rows; r++) {
        double m = -INFINITY, s = 0, total = 0;
        for (int64_t j = 0; j < n; j++)
            m = fmax(m, at(&a, r * n + j));
        for (int64_t j = 0; j < n; j++)
            s += exp(at(&a, r * n + j) - m);
        for (int64_t j = 0; j < n; j++) {
            assert_close(at(&out, r * n + j), exp(at(&a, r * n + j) - m) / s, tol, 1e-7, "softmax",
                         r * n + j);
            total += at(&out, r * n + j);
        }
        assert_close(total, 1.0, tol * 10, 0, "row sum", r);
    }
    tt_free(&base), tt_free(&out);
}

static void test_softmax(void **state)
{
    (void)state;
    check_softmax(TL_F32, 7, 33, 1e-5);
    check_softmax(TL_F64, 3, 2500, 1e-12);
    check_softmax(TL_F64, 2, 70000, 1e-12); /* rows longer than a chunk (65536) */
    check_softmax(TL_F32, 1, 70000, 1e-5);
    check_softmax(TL_BF16, 4, 9, 1e-2);
    tt s = tt_new(TL_F32, 0, NULL), so = tt_new(TL_F32, 0, NULL);
    put(&s, 0, 2.0);
    rt_buf sb = B(&s), sob = B(&so);
    rt_softmax(&sob, &sb, 0);
    assert_true(at(&so, 0) == 1.0);
    tt_free(&s), tt_free(&so);
}

/* ---- matmul ---- */

static void test_matmul_small(void **state)
{
    (void)state;
    const double want[4] = {58, 64, 139, 154};
    const tl_dtype dts[5] = {TL_F32, TL_F64, TL_I64, TL_I32, TL_BF16};
    int64_t sa[2] = {2, 3}, sb[2] = {3, 2}, so[2] = {2, 2};
    for (int k = 0; k < 5; k++) {
        tt a = tt_new(dts[k], 2, sa), b = tt_new(dts[k], 2, sb), o = tt_new(dts[k], 2, so);
        for (int64_t i = 0; i < 6; i++)
            put(&a, i, (double)(i + 1)), put(&b, i, (double)(i + 7));
        rt_buf ob = B(&o), ab = B(&a), bb = B(&b);
        rt_matmul(&ob, &ab, &bb);
        for (int64_t i = 0; i < 4; i++)
            assert_true(at(&o, i) == want[i]);
        tt_free(&a), tt_free(&b), tt_free(&o);
    }
}

/* out[..] = a[..] @ b[..] with torch.matmul's rules, checked by a naive loop. */
static void check_matmul(const tt *o, const tt *a, const tt *b, double tol)
{
    rt_buf ob = B(o), ab = B(a), bb = B(b);
    rt_matmul(&ob, &ab, &bb);
    mt_layout al = a->l, bl = b->l, ol = o->l;
    bool a1 = al.ndim == 1, b1 = bl.ndim == 1;
    int64_t K = al.shape[al.ndim - 1], M = a1 ? 1 : al.shape[al.ndim - 2];
    int64_t N = b1 ? 1 : bl.shape[bl.ndim - 1], n = mt_numel(&ol), idx[TL_MAX_DIMS];
    for (int64_t e = 0; e < n; e++) {
        int64_t batch = e / (M * N), i = (e / N) % M, j = e % N, ai[TL_MAX_DIMS], bi[TL_MAX_DIMS];
        int nbo = ol.ndim - (a1 ? 0 : 1) - (b1 ? 0 : 1), nba = al.ndim - 2, nbb = bl.ndim - 2;
        int64_t r = batch;
        for (int d = nbo - 1; d >= 0; d--)
            idx[d] = r % ol.shape[d], r /= ol.shape[d];
        for (int d = 0; d < nba; d++)
            ai[d] = al.shape[d] == 1 ? 0 : idx[d + nbo - nba];
        for (int d = 0; d < nbb; d++)
            bi[d] = bl.shape[d] == 1 ? 0 : idx[d + nbo - nbb];
        double s = 0;
        for (int64_t k = 0; k < K; k++) {
            int64_t pa[TL_MAX_DIMS], pb[TL_MAX_DIMS];
            memcpy(pa, ai, sizeof ai), memcpy(pb, bi, sizeof bi);
            if (a1)
                pa[0] = k;
            else
                pa[al.ndim - 2] = i, pa[al.ndim - 1] = k;
            if (b1)
                pb[0] = k;
            else
                pb[bl.ndim - 2] = k, pb[bl.ndim - 1] = j;
            s += rt_load(al.dtype, (char *)a->data + offset_of(&al, pa) * mt_dtype_size(al.dtype)) *
                 rt_load(bl.dtype, (char *)b->data + offset_of(&bl, pb) * mt_dtype_size(bl.dtype));
        }
        assert_close(at(o, e), s, tol, tol, "matmul", e);
    }
}

static void test_matmul_shapes(void **state)
{
    (void)state;
    int64_t s3 = 3, s23[2] = {2, 3}, s32[2] = {3, 2}, s2 = 2, s223[3] = {2, 2, 3};
    int64_t s222[3] = {2, 2, 2}, a4[4] = {2, 1, 2, 3}, b3[3] = {3, 3, 2}, o4[4] = {2, 3, 2, 2};
    tt v = tt_new(TL_F32, 1, &s3), m23 = tt_new(TL_F32, 2, s23), m32 = tt_new(TL_F32, 2, s32);
    tt b223 = tt_new(TL_F32, 3, s223), a4t = tt_new(TL_F64, 4, a4), b3t = tt_new(TL_F64, 3, b3);
    fill_noise(&v, 1), fill_noise(&m23, 2), fill_noise(&m32, 3), fill_noise(&b223, 4);
    fill_noise(&a4t, 5), fill_noise(&b3t, 6);
    tt dot = tt_new(TL_F32, 0, NULL), vm = tt_new(TL_F32, 1, &s2), mv = tt_new(TL_F32, 1, &s2);
    tt bm = tt_new(TL_F32, 3, s222), o4t = tt_new(TL_F64, 4, o4);
    check_matmul(&dot, &v, &v, 1e-6);     /* [3] @ [3] -> [] */
    check_matmul(&vm, &v, &m32, 1e-6);    /* [3] @ [3,2] -> [2] */
    check_matmul(&mv, &m23, &v, 1e-6);    /* [2,3] @ [3] -> [2] */
    check_matmul(&bm, &b223, &m32, 1e-6); /* [2,2,3] @ [3,2] -> [2,2,2] */
    check_matmul(&o4t, &a4t, &b3t, 1e-12); /* [2,1,2,3] @ [3,3,2] -> [2,3,2,2] */
    tt_free(&v), tt_free(&m23), tt_free(&m32), tt_free(&b223), tt_free(&a4t), tt_free(&b3t);
    tt_free(&dot), tt_free(&vm), tt_free(&mv), tt_free(&bm), tt_free(&o4t);
}

/* Transposed operands go to BLAS as Trans; a sliced one is packed; a strided output too. */
static void test_matmul_layouts(void **state)
{
    (void)state;
    int64_t s[2] = {40, 30}, t[2] = {30, 40}, tst[2] = {1, 30}, sl[2] = {40, 20};
    int64_t slst[2] = {30, 1}, os[2] = {30, 20}, big[2] = {60, 20}, ost[2] = {40, 2};
    tt a = tt_new(TL_F32, 2, s), b = tt_new(TL_F32, 2, s), o = tt_new(TL_F32, 2, os);
    tt o2 = tt_new(TL_F32, 2, big);
    fill_noise(&a, 8), fill_noise(&b, 9);
    tt aT = tt_view(&a, 2, t, tst, 0);       /* a.T: [30, 40], BLAS Trans */
    tt bsl = tt_view(&b, 2, sl, slst, 5);    /* b[:, 5:25]: [40, 20], lda 30 */
    tt ov = tt_view(&o2, 2, os, ost, 1);     /* a strided output: through a temporary */
    check_matmul(&o, &aT, &bsl, 1e-5);
    check_matmul(&ov, &aT, &bsl, 1e-5);
    int64_t pst[2] = {25, 2};
    tt bpk = tt_view(&o2, 2, sl, pst, 0);   /* no unit stride: packed */
    fill_noise(&o2, 11);
    check_matmul(&o, &aT, &bpk, 1e-5);
    int64_t hs[2] = {30, 30}, hst[2] = {1, 40};
    tt h = tt_new(TL_BF16, 2, t), ho = tt_new(TL_BF16, 2, hs);
    fill_noise(&h, 10);
    tt hT = tt_view(&h, 2, s, hst, 0);
    check_matmul(&ho, &h, &hT, 1e-2);       /* bf16: f32 accumulation, one rounding */
    tt_free(&a), tt_free(&b), tt_free(&o), tt_free(&o2), tt_free(&h), tt_free(&ho);
}

/* ---- indexing ---- */

static void test_index_select_gather(void **state)
{
    (void)state;
    int64_t ts[2] = {3, 4}, three = 3, os[2] = {3, 3};
    tt t = tt_new(TL_F32, 2, ts), idx = tt_new(TL_I32, 1, &three), o = tt_new(TL_F32, 2, os);
    for (int64_t i = 0; i < 12; i++)
        put(&t, i, (double)i);
    put(&idx, 0, 3), put(&idx, 1, 0), put(&idx, 2, 3);
    rt_buf ob = B(&o), tb = B(&t), ib = B(&idx);
    rt_index_select(&ob, &tb, 1, &ib); /* t.index_select(1, [3, 0, 3]) */
    const double want[9] = {3, 0, 3, 7, 4, 7, 11, 8, 11};
    for (int64_t i = 0; i < 9; i++)
        assert_true(at(&o, i) == want[i]);
    int64_t gs[2] = {2, 2};
    tt gi = tt_new(TL_I64, 2, gs), go = tt_new(TL_F32, 2, gs);
    put(&gi, 0, 1), put(&gi, 1, 2), put(&gi, 2, 0), put(&gi, 3, 1);
    rt_buf gib = B(&gi), gob = B(&go);
    rt_gather(&gob, &tb, 0, &gib); /* torch.gather(t, 0, [[1,2],[0,1]]) -> [[4,9],[0,5]] */
    assert_true(at(&go, 0) == 4 && at(&go, 1) == 9 && at(&go, 2) == 0 && at(&go, 3) == 5);
    rt_gather(&gob, &tb, 1, &gib); /* torch.gather(t, 1, ...) -> [[1,2],[4,5]] */
    assert_true(at(&go, 0) == 1 && at(&go, 1) == 2 && at(&go, 2) == 4 && at(&go, 3) == 5);
    int64_t tTs[2] = {4, 3}, tTst[2] = {1, 4};
    tt tT = tt_view(&t, 2, tTs, tTst, 0); /* t.T */
    rt_buf ttb = B(&tT);
    rt_gather(&gob, &ttb, 1, &gib); /* gather(t.T, 1, ...) -> [[4,8],[1,5]] */
    assert_true(at(&go, 0) == 4 && at(&go, 1) == 8 && at(&go, 2) == 1 && at(&go, 3) == 5);
    tt_free(&t), tt_free(&idx), tt_free(&o), tt_free(&gi), tt_free(&go);
}

static void test_index_rows(void **state)
{
    (void)state;
    int64_t ts[2] = {4, 3}, is[2] = {2, 2}, os[3] = {2, 2, 3};
    tt t = tt_new(TL_I16, 2, ts), idx = tt_new(TL_I64, 2, is), o = tt_new(TL_I16, 3, os);
    for (int64_t i = 0; i < 12; i++)
        put(&t, i, (double)(10 * i));
    put(&idx, 0, 3), put(&idx, 1, -4), put(&idx, 2, 1), put(&idx, 3, -1);
    rt_buf ob = B(&o), tb = B(&t), ib = B(&idx);
    rt_index(&ob, &tb, &ib); /* t[[[3, -4], [1, -1]]] */
    const int rows[4] = {3, 0, 1, 3};
    for (int64_t i = 0; i < 12; i++)
        assert_true(at(&o, i) == 10.0 * (rows[i / 3] * 3 + i % 3));
    tt_free(&t), tt_free(&idx), tt_free(&o);
}

static void test_cat(void **state)
{
    (void)state;
    int64_t s1[2] = {2, 3}, s2[2] = {2, 1}, se = 0, so[2] = {2, 4}, sd[2] = {4, 3};
    tt a = tt_new(TL_F32, 2, s1), b = tt_new(TL_I32, 2, s2), e = tt_new(TL_F32, 1, &se);
    tt o = tt_new(TL_F32, 2, so), o0 = tt_new(TL_F32, 2, sd);
    fill_noise(&a, 1), fill_noise(&b, 2);
    rt_buf parts[3] = {B(&a), B(&e), B(&b)}, ob = B(&o);
    rt_cat(&ob, 3, parts, 1); /* cat([a, empty, b], 1): legacy 1-D empty part skipped */
    for (int64_t i = 0; i < 8; i++)
        assert_true(at(&o, i) == (i % 4 < 3 ? at(&a, (i / 4) * 3 + i % 4) : at(&b, i / 4)));
    int64_t s1st[2] = {3, 1};
    tt av = tt_view(&a, 2, s1, s1st, 0);
    rt_buf p0[2] = {B(&av), B(&a)}, o0b = B(&o0);
    rt_cat(&o0b, 2, p0, 0);
    for (int64_t i = 0; i < 12; i++)
        assert_true(at(&o0, i) == at(&a, i % 6));
    tt_free(&a), tt_free(&b), tt_free(&e), tt_free(&o), tt_free(&o0);
}

/* ---- conv2d ---- */

static void check_conv(const tt *o, const tt *x, const tt *w, int64_t stride, int64_t pad,
                       double tol)
{
    rt_buf ob = B(o), xb = B(x), wb = B(w);
    rt_conv2d(&ob, &xb, &wb, stride, pad);
    const int64_t *xs = x->l.shape, *ws = w->l.shape;
    for (int64_t e = 0; e < mt_numel(&o->l); e++) {
        int64_t oi[TL_MAX_DIMS] = {0}, n, co, y, xx;
        unravel(&o->l, e, oi);
        n = oi[0], co = oi[1], y = oi[2], xx = oi[3];
        double s = 0;
        for (int64_t c = 0; c < xs[1]; c++)
            for (int64_t i = 0; i < ws[2]; i++)
                for (int64_t j = 0; j < ws[3]; j++) {
                    int64_t iy = y * stride - pad + i, ix = xx * stride - pad + j;
                    if (iy < 0 || iy >= xs[2] || ix < 0 || ix >= xs[3])
                        continue;
                    int64_t xi[4] = {n, c, iy, ix}, wi[4] = {co, c, i, j};
                    s += rt_load(x->l.dtype, (char *)x->data +
                                                 offset_of(&x->l, xi) * mt_dtype_size(x->l.dtype)) *
                         rt_load(w->l.dtype, (char *)w->data +
                                                 offset_of(&w->l, wi) * mt_dtype_size(w->l.dtype));
                }
        assert_close(at(o, e), s, tol, tol, "conv2d", e);
    }
}

static void test_conv2d(void **state)
{
    (void)state;
    int64_t xs[4] = {2, 3, 7, 6}, ws[4] = {4, 3, 3, 2}, os[4] = {2, 4, 4, 4};
    tt x = tt_new(TL_F32, 4, xs), w = tt_new(TL_F32, 4, ws), o = tt_new(TL_F32, 4, os);
    fill_noise(&x, 21), fill_noise(&w, 22);
    check_conv(&o, &x, &w, 2, 1, 1e-5); /* stride 2, padding 1 */
    int64_t cl[4] = {7 * 6 * 3, 1, 6 * 3, 3}, ocl[4] = {4 * 4 * 4, 1, 4 * 4, 4};
    tt xc = tt_new(TL_F32, 4, xs), oc = tt_new(TL_F32, 4, os);
    fill_noise(&xc, 23);
    tt xcl = tt_view(&xc, 4, xs, cl, 0), ocv = tt_view(&oc, 4, os, ocl, 0); /* channels-last */
    check_conv(&ocv, &xcl, &w, 2, 1, 1e-5);
    int64_t os1[4] = {2, 4, 5, 5};
    tt xd = tt_new(TL_F64, 4, xs), wd = tt_new(TL_F64, 4, ws), od = tt_new(TL_F64, 4, os1);
    fill_noise(&xd, 24), fill_noise(&wd, 25);
    check_conv(&od, &xd, &wd, 1, 0, 1e-12);
    tt xi = tt_new(TL_I64, 4, xs), wi = tt_new(TL_I64, 4, ws), oi = tt_new(TL_I64, 4, os1);
    fill_noise(&xi, 26), fill_noise(&wi, 27);
    check_conv(&oi, &xi, &wi, 1, 0, 0);
    tt_free(&x), tt_free(&w), tt_free(&o), tt_free(&xc), tt_free(&oc);
    tt_free(&xd), tt_free(&wd), tt_free(&od), tt_free(&xi), tt_free(&wi), tt_free(&oi);
}

/* ---- random ---- */

static void test_rand(void **state)
{
    (void)state;
    int64_t n = 20001;
    tt a = tt_new(TL_F32, 1, &n), b = tt_new(TL_F32, 1, &n), r = tt_new(TL_I64, 1, &n);
    rt_rng g1 = {5}, g2 = {5};
    rt_buf ab = B(&a), bb = B(&b), rb = B(&r);
    rt_randn(&ab, &g1);
    rt_randn(&bb, &g2);
    assert_memory_equal(a.data, b.data, (size_t)n * 4); /* one seed, one sequence */
    double s = 0, s2 = 0;
    for (int64_t i = 0; i < n; i++)
        s += at(&a, i), s2 += at(&a, i) * at(&a, i);
    assert_true(fabs(s / (double)n) < 0.05 && fabs(s2 / (double)n - 1.0) < 0.05);
    rt_randn(&bb, &g2);
    assert_true(memcmp(a.data, b.data, (size_t)n * 4) != 0); /* the state advanced */
    rt_randint(&rb, -3, 4, &g1);
    int seen[7] = {0};
    for (int64_t i = 0; i < n; i++) {
        int64_t v = ((int64_t *)r.data)[i];
        assert_true(v >= -3 && v < 4);
        seen[v + 3] = 1;
    }
    for (int k = 0; k < 7; k++)
        assert_true(seen[k]);
    tt_free(&a), tt_free(&b), tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_bits),
        cmocka_unit_test(test_f64_through_f32),
        cmocka_unit_test(test_simd_matches_scalar),
        cmocka_unit_test(test_float_to_int),
        cmocka_unit_test(test_cast_table),
        cmocka_unit_test(test_copy_transposed),
        cmocka_unit_test(test_copy_permuted_cast),
        cmocka_unit_test(test_copy_broadcast_strided),
        cmocka_unit_test(test_copy_raw_bits),
        cmocka_unit_test(test_fill_arange),
        cmocka_unit_test(test_binary_broadcast),
        cmocka_unit_test(test_binary_integers),
        cmocka_unit_test(test_int_div),
        cmocka_unit_test(test_half_arithmetic),
        cmocka_unit_test(test_binary_layouts),
        cmocka_unit_test(test_binary_chunks),
        cmocka_unit_test(test_unary),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_reduce_special),
        cmocka_unit_test(test_reduce_strided_int),
        cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_matmul_small),
        cmocka_unit_test(test_matmul_shapes),
        cmocka_unit_test(test_matmul_layouts),
        cmocka_unit_test(test_index_select_gather),
        cmocka_unit_test(test_index_rows),
        cmocka_unit_test(test_cat),
        cmocka_unit_test(test_conv2d),
        cmocka_unit_test(test_rand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
