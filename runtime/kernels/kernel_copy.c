/*
 * kernel_copy.c: rt_copy (broadcast + cast + any strides), rt_fill, rt_arange.
 *
 * rt_copy first turns the two layouts into a plan: src is right-aligned to
 * dst's shape (stride 0 on broadcast dims), size-1 dims are dropped, dims are
 * sorted by dst stride (outermost first, so a permuted dst is walked in memory
 * order) and adjacent dims that are contiguous in both operands are merged.
 * (A src with dst's element count but a shape that does not broadcast -- reshape,
 * flatten -- is copied in row-major order: the row-major side is viewed in the
 * other's shape.)  What is left picks one of three loops:
 *   rows       both inner strides 1: memmove per row (same dtype) or a
 *              contiguous cast loop (SSE2 for f16/bf16 <-> f32);
 *   transpose  dst inner stride 1 and src stride 1 on another dim: tiles of
 *              32 bytes x 1 KiB (measured best on a 16x1024x4096 f16 tensor),
 *              SSE2 8x8 / 4x4 / 2x2 register transposes per element size;
 *   strided    an odometer over the outer dims, a strided typed inner loop.
 * Type dispatch happens once per loop through cast_table[dst][src]; no loop
 * switches per element.  Conversions are scalar.h's (shared with the CUDA
 * kernels); same-dtype copies move raw bits, so NaN payloads survive.
 *
 * Invariants: every loop reads each src element at most once per dst element
 * and writes each dst element once; nothing is allocated.
 */
#include <assert.h>
#include <string.h>

#include "kernels.h"
#include "scalar.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

_Static_assert(TL_BOOL == 0 && TL_F64 == 9, "cast_table is indexed by tl_dtype");

enum { N_DTYPES = TL_F64 + 1 };

/* Storage type of each dtype: bool is one byte, f16 and bf16 are raw bits. */
typedef uint8_t el_BOOL;
typedef uint8_t el_U8;
typedef int8_t el_I8;
typedef int16_t el_I16;
typedef int32_t el_I32;
typedef int64_t el_I64;
typedef uint16_t el_F16;
typedef uint16_t el_BF16;
typedef float el_F32;
typedef double el_F64;

/* ---- one element: source -> domain (i: int64, f: float, d: double) ---- */

static inline int64_t get_BOOL(uint8_t x) { return x != 0; }
static inline int64_t get_U8(uint8_t x) { return x; }
static inline int64_t get_I8(int8_t x) { return x; }
static inline int64_t get_I16(int16_t x) { return x; }
static inline int64_t get_I32(int32_t x) { return x; }
static inline int64_t get_I64(int64_t x) { return x; }
static inline float get_F16(uint16_t x) { return sc_f16_to_f32(x); }
static inline float get_BF16(uint16_t x) { return sc_bf16_to_f32(x); }
static inline float get_F32(float x) { return x; }
static inline double get_F64(double x) { return x; }

/* ---- domain -> destination: scalar.h's rules (a float widens to double exactly) ---- */

#define PUT_INT(D, T)                                                                  \
    static inline T put_##D##_i(int64_t x) { return (T)x; }                            \
    static inline T put_##D##_f(float x) { return (T)sc_trunc_i32(x); }                   \
    static inline T put_##D##_d(double x) { return (T)sc_trunc_i32(x); }
PUT_INT(I8, int8_t)
PUT_INT(I16, int16_t)
PUT_INT(I32, int32_t)
#undef PUT_INT

static inline uint8_t put_BOOL_i(int64_t x) { return x != 0; }
static inline uint8_t put_BOOL_f(float x) { return x != 0; }
static inline uint8_t put_BOOL_d(double x) { return x != 0; }
static inline uint8_t put_U8_i(int64_t x) { return (uint8_t)x; }
static inline uint8_t put_U8_f(float x) { return (uint8_t)(uint32_t)sc_trunc_i32(x); }
static inline uint8_t put_U8_d(double x) { return (uint8_t)(uint32_t)sc_trunc_i32(x); }
static inline int64_t put_I64_i(int64_t x) { return x; }
static inline int64_t put_I64_f(float x) { return sc_trunc_i64(x); }
static inline int64_t put_I64_d(double x) { return sc_trunc_i64(x); }
static inline uint16_t put_F16_i(int64_t x) { return sc_f32_to_f16((float)x); }
static inline uint16_t put_F16_f(float x) { return sc_f32_to_f16(x); }
static inline uint16_t put_F16_d(double x) { return sc_f32_to_f16((float)x); }
static inline uint16_t put_BF16_i(int64_t x) { return sc_f32_to_bf16((float)x); }
static inline uint16_t put_BF16_f(float x) { return sc_f32_to_bf16(x); }
static inline uint16_t put_BF16_d(double x) { return sc_f32_to_bf16((float)x); }
static inline float put_F32_i(int64_t x) { return (float)x; }
static inline float put_F32_f(float x) { return x; }
static inline float put_F32_d(double x) { return (float)x; }
static inline double put_F64_i(int64_t x) { return (double)x; }
static inline double put_F64_f(float x) { return x; }

/* ---- typed loops: d[i*ds] = convert(s[i*ss]), strides in elements ---- */

typedef void (*cast_fn)(char *d, int64_t ds, const char *s, int64_t ss, int64_t n);

#define CAST_LOOP(D, S, DOM)                                                                \
    static void cast_##D##_##S(char *d, int64_t ds, const char *s, int64_t ss, int64_t n) { \
        el_##D *dp = (el_##D *)(void *)d;                                                   \
        const el_##S *sp = (const el_##S *)(const void *)s;                                 \
        if (ds == 1 && ss == 1) {                                                           \
            for (int64_t i = 0; i < n; i++)                                                 \
                dp[i] = put_##D##_##DOM(get_##S(sp[i]));                                    \
            return;                                                                         \
        }                                                                                   \
        for (int64_t i = 0; i < n; i++)                                                     \
            dp[i * ds] = put_##D##_##DOM(get_##S(sp[i * ss]));                              \
    }

/* Same dtype: raw bits (NaN payloads and odd bool bytes survive). */
#define RAW_LOOP(T)                                                                         \
    static void raw_##T(char *d, int64_t ds, const char *s, int64_t ss, int64_t n) {        \
        T *dp = (T *)(void *)d;                                                             \
        const T *sp = (const T *)(const void *)s;                                           \
        if (ds == 1 && ss == 1) {                                                           \
            memmove(dp, sp, (size_t)n * sizeof(T));                                         \
            return;                                                                         \
        }                                                                                   \
        for (int64_t i = 0; i < n; i++)                                                     \
            dp[i * ds] = sp[i * ss];                                                        \
    }
RAW_LOOP(uint8_t)
RAW_LOOP(uint16_t)
RAW_LOOP(uint32_t)
RAW_LOOP(uint64_t)
#undef RAW_LOOP

/* Every (dst, src) pair except same-dtype pairs (raw_*) and the f16/bf16 <-> f32 pairs
 * (written out below). */
CAST_LOOP(BOOL, U8, i) CAST_LOOP(BOOL, I8, i) CAST_LOOP(BOOL, I16, i) CAST_LOOP(BOOL, I32, i)
CAST_LOOP(BOOL, I64, i) CAST_LOOP(BOOL, F16, f) CAST_LOOP(BOOL, BF16, f)
CAST_LOOP(BOOL, F32, f) CAST_LOOP(BOOL, F64, d)
CAST_LOOP(U8, BOOL, i) CAST_LOOP(U8, I8, i) CAST_LOOP(U8, I16, i) CAST_LOOP(U8, I32, i)
CAST_LOOP(U8, I64, i) CAST_LOOP(U8, F16, f) CAST_LOOP(U8, BF16, f) CAST_LOOP(U8, F32, f)
CAST_LOOP(U8, F64, d)
CAST_LOOP(I8, BOOL, i) CAST_LOOP(I8, U8, i) CAST_LOOP(I8, I16, i) CAST_LOOP(I8, I32, i)
CAST_LOOP(I8, I64, i) CAST_LOOP(I8, F16, f) CAST_LOOP(I8, BF16, f) CAST_LOOP(I8, F32, f)
CAST_LOOP(I8, F64, d)
CAST_LOOP(I16, BOOL, i) CAST_LOOP(I16, U8, i) CAST_LOOP(I16, I8, i) CAST_LOOP(I16, I32, i)
CAST_LOOP(I16, I64, i) CAST_LOOP(I16, F16, f) CAST_LOOP(I16, BF16, f) CAST_LOOP(I16, F32, f)
CAST_LOOP(I16, F64, d)
CAST_LOOP(I32, BOOL, i) CAST_LOOP(I32, U8, i) CAST_LOOP(I32, I8, i) CAST_LOOP(I32, I16, i)
CAST_LOOP(I32, I64, i) CAST_LOOP(I32, F16, f) CAST_LOOP(I32, BF16, f) CAST_LOOP(I32, F32, f)
CAST_LOOP(I32, F64, d)
CAST_LOOP(I64, BOOL, i) CAST_LOOP(I64, U8, i) CAST_LOOP(I64, I8, i) CAST_LOOP(I64, I16, i)
CAST_LOOP(I64, I32, i) CAST_LOOP(I64, F16, f) CAST_LOOP(I64, BF16, f) CAST_LOOP(I64, F32, f)
CAST_LOOP(I64, F64, d)
CAST_LOOP(F16, BOOL, i) CAST_LOOP(F16, U8, i) CAST_LOOP(F16, I8, i) CAST_LOOP(F16, I16, i)
CAST_LOOP(F16, I32, i) CAST_LOOP(F16, I64, i) CAST_LOOP(F16, BF16, f) CAST_LOOP(F16, F64, d)
CAST_LOOP(BF16, BOOL, i) CAST_LOOP(BF16, U8, i) CAST_LOOP(BF16, I8, i) CAST_LOOP(BF16, I16, i)
CAST_LOOP(BF16, I32, i) CAST_LOOP(BF16, I64, i) CAST_LOOP(BF16, F16, f)
CAST_LOOP(BF16, F64, d)
CAST_LOOP(F32, BOOL, i) CAST_LOOP(F32, U8, i) CAST_LOOP(F32, I8, i) CAST_LOOP(F32, I16, i)
CAST_LOOP(F32, I32, i) CAST_LOOP(F32, I64, i) CAST_LOOP(F32, F64, d)
CAST_LOOP(F64, BOOL, i) CAST_LOOP(F64, U8, i) CAST_LOOP(F64, I8, i) CAST_LOOP(F64, I16, i)
CAST_LOOP(F64, I32, i) CAST_LOOP(F64, I64, i) CAST_LOOP(F64, F16, f) CAST_LOOP(F64, BF16, f)
CAST_LOOP(F64, F32, f)

/* ---- f16 / bf16 <-> f32, contiguous runs: SSE2 versions of kernel_convert.c ---- */

#if defined(__SSE2__)
/* w holds (uint32_t)h << 16 per lane; c10's fp16_ieee_to_fp32_value, four at a time. */
static inline __m128 f16x4_to_f32(__m128i w)
{
    __m128i sign = _mm_and_si128(w, _mm_set1_epi32((int)0x80000000u));
    __m128i two_w = _mm_add_epi32(w, w);
    __m128i nbits = _mm_add_epi32(_mm_srli_epi32(two_w, 4), _mm_set1_epi32(0xE0 << 23));
    __m128 norm = _mm_mul_ps(_mm_castsi128_ps(nbits), _mm_set1_ps(0x1.0p-112f));
    __m128i dbits = _mm_or_si128(_mm_srli_epi32(two_w, 17), _mm_set1_epi32(126 << 23));
    __m128 denorm = _mm_sub_ps(_mm_castsi128_ps(dbits), _mm_set1_ps(0.5f));
    __m128i is_den = _mm_cmplt_epi32(_mm_srli_epi32(two_w, 1), _mm_set1_epi32(1 << 26));
    __m128i bits = _mm_or_si128(_mm_and_si128(is_den, _mm_castps_si128(denorm)),
                                _mm_andnot_si128(is_den, _mm_castps_si128(norm)));
    return _mm_castsi128_ps(_mm_or_si128(sign, bits));
}

/* c10's fp16_ieee_from_fp32_value, four at a time; the half sits in the low 16 bits. */
static inline __m128i f32x4_to_f16(__m128 f)
{
    __m128i w = _mm_castps_si128(f);
    __m128i abs_w = _mm_and_si128(w, _mm_set1_epi32(0x7FFFFFFF));
    __m128 base = _mm_mul_ps(_mm_mul_ps(_mm_castsi128_ps(abs_w), _mm_set1_ps(0x1.0p+112f)),
                             _mm_set1_ps(0x1.0p-110f));
    __m128i bias = _mm_and_si128(w, _mm_set1_epi32(0x7F800000));
    __m128i low = _mm_set1_epi32(0x38800000);
    __m128i keep = _mm_cmpgt_epi32(bias, low);
    bias = _mm_or_si128(_mm_and_si128(keep, bias), _mm_andnot_si128(keep, low));
    bias = _mm_add_epi32(bias, _mm_set1_epi32(0x07800000));
    __m128i bits = _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(bias), base));
    __m128i nonsign = _mm_add_epi32(_mm_and_si128(_mm_srli_epi32(bits, 13), _mm_set1_epi32(0x7C00)),
                                    _mm_and_si128(bits, _mm_set1_epi32(0x0FFF)));
    __m128i nan = _mm_cmpgt_epi32(abs_w, _mm_set1_epi32(0x7F800000));
    __m128i r = _mm_or_si128(_mm_and_si128(nan, _mm_set1_epi32(0x7E00)), _mm_andnot_si128(nan, nonsign));
    return _mm_or_si128(r, _mm_srli_epi32(_mm_and_si128(w, _mm_set1_epi32((int)0x80000000u)), 16));
}

/* c10's round_to_nearest_even, four at a time (NaN -> 0x7FC0). */
static inline __m128i f32x4_to_bf16(__m128 f)
{
    __m128i u = _mm_castps_si128(f);
    __m128i lsb = _mm_and_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(1));
    __m128i r = _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(u, _mm_set1_epi32(0x7FFF)), lsb), 16);
    __m128i nan = _mm_castps_si128(_mm_cmpunord_ps(f, f));
    return _mm_or_si128(_mm_and_si128(nan, _mm_set1_epi32(0x7FC0)), _mm_andnot_si128(nan, r));
}

/* Eight 32-bit lanes holding values below 0x10000 -> eight uint16_t. */
static inline __m128i pack_u16(__m128i lo, __m128i hi)
{
    const __m128i k = _mm_set1_epi32(0x8000);
    __m128i p = _mm_packs_epi32(_mm_sub_epi32(lo, k), _mm_sub_epi32(hi, k));
    return _mm_xor_si128(p, _mm_set1_epi16((short)0x8000));
}

static int64_t f16_to_f32_simd(float *d, const uint16_t *s, int64_t n, bool bf16)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i lo = _mm_unpacklo_epi16(_mm_setzero_si128(), h);
        __m128i hi = _mm_unpackhi_epi16(_mm_setzero_si128(), h);
        _mm_storeu_ps(d + i, bf16 ? _mm_castsi128_ps(lo) : f16x4_to_f32(lo));
        _mm_storeu_ps(d + i + 4, bf16 ? _mm_castsi128_ps(hi) : f16x4_to_f32(hi));
    }
    return i;
}

static int64_t f32_to_f16_simd(uint16_t *d, const float *s, int64_t n, bool bf16)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128 a = _mm_loadu_ps(s + i), b = _mm_loadu_ps(s + i + 4);
        __m128i h = bf16 ? pack_u16(f32x4_to_bf16(a), f32x4_to_bf16(b))
                         : pack_u16(f32x4_to_f16(a), f32x4_to_f16(b));
        _mm_storeu_si128((__m128i *)(void *)(d + i), h);
    }
    return i;
}
#else
static int64_t f16_to_f32_simd(float *d, const uint16_t *s, int64_t n, bool bf16)
{
    (void)d, (void)s, (void)n, (void)bf16;
    return 0;
}
static int64_t f32_to_f16_simd(uint16_t *d, const float *s, int64_t n, bool bf16)
{
    (void)d, (void)s, (void)n, (void)bf16;
    return 0;
}
#endif

/* The four pairs PyTorch programs convert most: vector body, scalar tail and strides. */
#define HALF_PAIR(D, S, DOM, SIMD, BF)                                                      \
    static void cast_##D##_##S(char *d, int64_t ds, const char *s, int64_t ss, int64_t n) { \
        el_##D *dp = (el_##D *)(void *)d;                                                   \
        const el_##S *sp = (const el_##S *)(const void *)s;                                 \
        int64_t i = (ds == 1 && ss == 1) ? SIMD(dp, sp, n, BF) : 0;                         \
        for (; i < n; i++)                                                                  \
            dp[i * ds] = put_##D##_##DOM(get_##S(sp[i * ss]));                              \
    }
HALF_PAIR(F32, F16, f, f16_to_f32_simd, false)
HALF_PAIR(F32, BF16, f, f16_to_f32_simd, true)
HALF_PAIR(F16, F32, f, f32_to_f16_simd, false)
HALF_PAIR(BF16, F32, f, f32_to_f16_simd, true)
#undef HALF_PAIR
#undef CAST_LOOP

#define CAST_ROW(D)                                                                         \
    {cast_##D##_BOOL, cast_##D##_U8, cast_##D##_I8, cast_##D##_I16, cast_##D##_I32,         \
     cast_##D##_I64, cast_##D##_F16, cast_##D##_BF16, cast_##D##_F32, cast_##D##_F64}
#define cast_BOOL_BOOL raw_uint8_t
#define cast_U8_U8 raw_uint8_t
#define cast_I8_I8 raw_uint8_t
#define cast_I16_I16 raw_uint16_t
#define cast_I32_I32 raw_uint32_t
#define cast_I64_I64 raw_uint64_t
#define cast_F16_F16 raw_uint16_t
#define cast_BF16_BF16 raw_uint16_t
#define cast_F32_F32 raw_uint32_t
#define cast_F64_F64 raw_uint64_t

/* cast_table[dst][src] */
static const cast_fn cast_table[N_DTYPES][N_DTYPES] = {
    CAST_ROW(BOOL), CAST_ROW(U8),  CAST_ROW(I8),   CAST_ROW(I16), CAST_ROW(I32),
    CAST_ROW(I64),  CAST_ROW(F16), CAST_ROW(BF16), CAST_ROW(F32), CAST_ROW(F64),
};
#undef CAST_ROW

/* ---- the plan ---- */

typedef struct copy_plan {
    int nd;
    int64_t n[TL_MAX_DIMS];  /* elements per dim, outer to inner */
    int64_t ds[TL_MAX_DIMS]; /* dst strides, elements */
    int64_t ss[TL_MAX_DIMS]; /* src strides, elements (0: broadcast) */
    char *d;                 /* dst element (0, ..., 0) */
    const char *s;           /* src element (0, ..., 0) */
    int dsz, ssz;            /* element sizes, bytes */
    tl_dtype dt, st;
} copy_plan;

/* Right-align src to dst's shape, drop size-1 dims; false when dst is empty. */
static bool plan_init(copy_plan *p, const rt_buf *dst, const rt_buf *src)
{
    const mt_layout *dl = dst->l, *sl = src->l;
    assert(sl->ndim <= dl->ndim);
    p->nd = 0;
    for (int i = 0; i < dl->ndim; i++) {
        int j = i - (dl->ndim - sl->ndim);
        if (dl->shape[i] == 0)
            return false;
        assert(j < 0 || sl->shape[j] == dl->shape[i] || sl->shape[j] == 1);
        if (dl->shape[i] == 1)
            continue;
        p->n[p->nd] = dl->shape[i];
        p->ds[p->nd] = dl->strides[i];
        p->ss[p->nd] = (j >= 0 && sl->shape[j] != 1) ? sl->strides[j] : 0;
        p->nd++;
    }
    p->dt = dl->dtype, p->st = sl->dtype;
    p->dsz = mt_dtype_size(p->dt), p->ssz = mt_dtype_size(p->st);
    p->d = (char *)dst->base + dl->offset * p->dsz;
    p->s = (const char *)src->base + sl->offset * p->ssz;
    return true;
}

static void plan_swap(copy_plan *p, int i, int j)
{
    int64_t n = p->n[i], ds = p->ds[i], ss = p->ss[i];
    p->n[i] = p->n[j], p->ds[i] = p->ds[j], p->ss[i] = p->ss[j];
    p->n[j] = n, p->ds[j] = ds, p->ss[j] = ss;
}

/* Stable insertion sort: larger dst stride outer, ties by src stride. */
static void plan_sort(copy_plan *p)
{
    for (int i = 1; i < p->nd; i++)
        for (int j = i; j > 0; j--) {
            bool outer = p->ds[j] > p->ds[j - 1] ||
                         (p->ds[j] == p->ds[j - 1] && p->ss[j] > p->ss[j - 1]);
            if (!outer)
                break;
            plan_swap(p, j, j - 1);
        }
}

/* Merge dim i+1 into dim i wherever both operands step through them as one. */
static void plan_coalesce(copy_plan *p)
{
    int k = 0;
    for (int i = 1; i < p->nd; i++) {
        if (p->ds[k] == p->ds[i] * p->n[i] && p->ss[k] == p->ss[i] * p->n[i]) {
            p->n[k] *= p->n[i], p->ds[k] = p->ds[i], p->ss[k] = p->ss[i];
            continue;
        }
        k++;
        p->n[k] = p->n[i], p->ds[k] = p->ds[i], p->ss[k] = p->ss[i];
    }
    p->nd = p->nd > 0 ? k + 1 : 0;
}

/* ---- odometer over the dims a loop does not handle itself ---- */

typedef struct odometer {
    int nd;
    int64_t n[TL_MAX_DIMS], ds[TL_MAX_DIMS], ss[TL_MAX_DIMS], idx[TL_MAX_DIMS];
    int64_t doff, soff; /* current offsets, elements */
} odometer;

/* All dims of p except skip_a and skip_b (-1: none). */
static void odo_init(odometer *o, const copy_plan *p, int skip_a, int skip_b)
{
    o->nd = 0, o->doff = 0, o->soff = 0;
    for (int i = 0; i < p->nd; i++) {
        if (i == skip_a || i == skip_b)
            continue;
        o->n[o->nd] = p->n[i], o->ds[o->nd] = p->ds[i], o->ss[o->nd] = p->ss[i];
        o->idx[o->nd++] = 0;
    }
}

static bool odo_next(odometer *o)
{
    for (int i = o->nd - 1; i >= 0; i--) {
        if (++o->idx[i] < o->n[i]) {
            o->doff += o->ds[i], o->soff += o->ss[i];
            return true;
        }
        o->doff -= (o->n[i] - 1) * o->ds[i], o->soff -= (o->n[i] - 1) * o->ss[i];
        o->idx[i] = 0;
    }
    return false;
}

/* ---- the three loops ---- */

/* Both inner strides are 1. */
static void run_rows(const copy_plan *p)
{
    odometer o;
    odo_init(&o, p, p->nd - 1, -1);
    cast_fn f = cast_table[p->dt][p->st];
    int64_t n = p->n[p->nd - 1];
    do
        f(p->d + o.doff * p->dsz, 1, p->s + o.soff * p->ssz, 1, n);
    while (odo_next(&o));
}

/* Same dtype, inner src stride 0: one value repeated along a dst row. */
typedef void (*fill_fn)(char *d, int64_t ds, const char *v, int64_t n);

#define FILL_LOOP(T)                                                                        \
    static void fill_##T(char *d, int64_t ds, const char *v, int64_t n) {                   \
        T x, *dp = (T *)(void *)d;                                                          \
        memcpy(&x, v, sizeof x);                                                            \
        for (int64_t i = 0; i < n; i++)                                                     \
            dp[i * ds] = x;                                                                 \
    }
FILL_LOOP(uint8_t)
FILL_LOOP(uint16_t)
FILL_LOOP(uint32_t)
FILL_LOOP(uint64_t)
#undef FILL_LOOP

static fill_fn fill_for_size(int sz)
{
    switch (sz) {
    case 1: return fill_uint8_t;
    case 2: return fill_uint16_t;
    case 4: return fill_uint32_t;
    default: return fill_uint64_t;
    }
}

/* A dst row of one repeated value: memset when its bytes are all equal (zeros). */
static void fill_row(fill_fn fill, char *d, int64_t ds, const char *v, int sz, int64_t n)
{
    bool bytes_equal = true;
    for (int i = 1; i < sz; i++)
        bytes_equal = bytes_equal && v[i] == v[0];
    if (ds == 1 && bytes_equal)
        memset(d, v[0], (size_t)(n * sz));
    else
        fill(d, ds, v, n);
}

static void run_strided(const copy_plan *p)
{
    odometer o;
    int in = p->nd - 1;
    odo_init(&o, p, in, -1);
    cast_fn f = cast_table[p->dt][p->st];
    fill_fn fill = p->dt == p->st && p->ss[in] == 0 ? fill_for_size(p->dsz) : NULL;
    do {
        char *d = p->d + o.doff * p->dsz;
        const char *s = p->s + o.soff * p->ssz;
        if (fill)
            fill_row(fill, d, p->ds[in], s, p->dsz, p->n[in]);
        else
            f(d, p->ds[in], s, p->ss[in], p->n[in]);
    } while (odo_next(&o));
}

/* A tile: d[a*da + b] = s[a + b*sb] for a < na, b < nb (dst rows a, src rows b). */
typedef void (*tile_fn)(char *d, int64_t da, const char *s, int64_t sb, int64_t na, int64_t nb);

#define TILE_SCALAR(T)                                                                      \
    static void tile_##T(char *d, int64_t da, const char *s, int64_t sb, int64_t na,        \
                         int64_t nb) {                                                      \
        T *dp = (T *)(void *)d;                                                             \
        const T *sp = (const T *)(const void *)s;                                           \
        for (int64_t a = 0; a < na; a++)                                                    \
            for (int64_t b = 0; b < nb; b++)                                                \
                dp[a * da + b] = sp[a + b * sb];                                            \
    }
TILE_SCALAR(uint8_t)
TILE_SCALAR(uint16_t)
TILE_SCALAR(uint32_t)
TILE_SCALAR(uint64_t)
#undef TILE_SCALAR

#if defined(__SSE2__)
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

/* The register kernels are written out without arrays or loops: at -O2 GCC
 * keeps arrays of __m128i on the stack. */
#define LD8(p) _mm_loadl_epi64((const __m128i *)(const void *)(p))
#define ST8(p, v) _mm_storel_epi64((__m128i *)(void *)(p), (v))

/* 8x8 bytes: src rows b (8 bytes each) become dst rows a. */
static inline void kern_u8(uint8_t *d, int64_t da, const uint8_t *s, int64_t sb)
{
    __m128i t0 = _mm_unpacklo_epi8(LD8(s), LD8(s + sb));
    __m128i t1 = _mm_unpacklo_epi8(LD8(s + 2 * sb), LD8(s + 3 * sb));
    __m128i t2 = _mm_unpacklo_epi8(LD8(s + 4 * sb), LD8(s + 5 * sb));
    __m128i t3 = _mm_unpacklo_epi8(LD8(s + 6 * sb), LD8(s + 7 * sb));
    __m128i u0 = _mm_unpacklo_epi16(t0, t1), u1 = _mm_unpackhi_epi16(t0, t1);
    __m128i u2 = _mm_unpacklo_epi16(t2, t3), u3 = _mm_unpackhi_epi16(t2, t3);
    __m128i v0 = _mm_unpacklo_epi32(u0, u2), v1 = _mm_unpackhi_epi32(u0, u2);
    __m128i v2 = _mm_unpacklo_epi32(u1, u3), v3 = _mm_unpackhi_epi32(u1, u3);
    ST8(d, v0);
    ST8(d + da, _mm_unpackhi_epi64(v0, v0));
    ST8(d + 2 * da, v1);
    ST8(d + 3 * da, _mm_unpackhi_epi64(v1, v1));
    ST8(d + 4 * da, v2);
    ST8(d + 5 * da, _mm_unpackhi_epi64(v2, v2));
    ST8(d + 6 * da, v3);
    ST8(d + 7 * da, _mm_unpackhi_epi64(v3, v3));
}
#undef LD8
#undef ST8

/* 8x8 of 16-bit elements. */
static inline void kern_u16(uint16_t *d, int64_t da, const uint16_t *s, int64_t sb)
{
    __m128i r0 = LD(s), r1 = LD(s + sb), r2 = LD(s + 2 * sb), r3 = LD(s + 3 * sb);
    __m128i r4 = LD(s + 4 * sb), r5 = LD(s + 5 * sb), r6 = LD(s + 6 * sb), r7 = LD(s + 7 * sb);
    __m128i t0 = _mm_unpacklo_epi16(r0, r1), t1 = _mm_unpackhi_epi16(r0, r1);
    __m128i t2 = _mm_unpacklo_epi16(r2, r3), t3 = _mm_unpackhi_epi16(r2, r3);
    __m128i t4 = _mm_unpacklo_epi16(r4, r5), t5 = _mm_unpackhi_epi16(r4, r5);
    __m128i t6 = _mm_unpacklo_epi16(r6, r7), t7 = _mm_unpackhi_epi16(r6, r7);
    __m128i u0 = _mm_unpacklo_epi32(t0, t2), u1 = _mm_unpackhi_epi32(t0, t2);
    __m128i u2 = _mm_unpacklo_epi32(t1, t3), u3 = _mm_unpackhi_epi32(t1, t3);
    __m128i u4 = _mm_unpacklo_epi32(t4, t6), u5 = _mm_unpackhi_epi32(t4, t6);
    __m128i u6 = _mm_unpacklo_epi32(t5, t7), u7 = _mm_unpackhi_epi32(t5, t7);
    ST(d, _mm_unpacklo_epi64(u0, u4));
    ST(d + da, _mm_unpackhi_epi64(u0, u4));
    ST(d + 2 * da, _mm_unpacklo_epi64(u1, u5));
    ST(d + 3 * da, _mm_unpackhi_epi64(u1, u5));
    ST(d + 4 * da, _mm_unpacklo_epi64(u2, u6));
    ST(d + 5 * da, _mm_unpackhi_epi64(u2, u6));
    ST(d + 6 * da, _mm_unpacklo_epi64(u3, u7));
    ST(d + 7 * da, _mm_unpackhi_epi64(u3, u7));
}

/* 4x4 of 32-bit elements. */
static inline void kern_u32(uint32_t *d, int64_t da, const uint32_t *s, int64_t sb)
{
    __m128i r0 = LD(s), r1 = LD(s + sb), r2 = LD(s + 2 * sb), r3 = LD(s + 3 * sb);
    __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpackhi_epi32(r0, r1);
    __m128i t2 = _mm_unpacklo_epi32(r2, r3), t3 = _mm_unpackhi_epi32(r2, r3);
    ST(d, _mm_unpacklo_epi64(t0, t2));
    ST(d + da, _mm_unpackhi_epi64(t0, t2));
    ST(d + 2 * da, _mm_unpacklo_epi64(t1, t3));
    ST(d + 3 * da, _mm_unpackhi_epi64(t1, t3));
}

/* 2x2 of 64-bit elements. */
static inline void kern_u64(uint64_t *d, int64_t da, const uint64_t *s, int64_t sb)
{
    __m128i r0 = LD(s), r1 = LD(s + sb);
    ST(d, _mm_unpacklo_epi64(r0, r1));
    ST(d + da, _mm_unpackhi_epi64(r0, r1));
}
#undef LD
#undef ST

/* Register kernels over the K-aligned part of a tile, scalar tile for the edges. */
#define TILE_SIMD(T, K)                                                                     \
    static void tile_simd_##T(char *d, int64_t da, const char *s, int64_t sb, int64_t na,   \
                              int64_t nb) {                                                 \
        T *dp = (T *)(void *)d;                                                             \
        const T *sp = (const T *)(const void *)s;                                           \
        int64_t ma = na - na % K, mb = nb - nb % K;                                         \
        for (int64_t b = 0; b < mb; b += K)                                                 \
            for (int64_t a = 0; a < ma; a += K)                                             \
                kern_##T(dp + a * da + b, da, sp + a + b * sb, sb);                         \
        tile_##T((char *)(dp + ma * da), da, (const char *)(sp + ma), sb, na - ma, nb);     \
        tile_##T((char *)(dp + mb), da, (const char *)(sp + mb * sb), sb, ma, nb - mb);     \
    }
#define kern_uint8_t kern_u8
#define kern_uint16_t kern_u16
#define kern_uint32_t kern_u32
#define kern_uint64_t kern_u64
TILE_SIMD(uint8_t, 8)
TILE_SIMD(uint16_t, 8)
TILE_SIMD(uint32_t, 4)
TILE_SIMD(uint64_t, 2)
#undef TILE_SIMD

static tile_fn tile_for_size(int sz)
{
    switch (sz) {
    case 1: return tile_simd_uint8_t;
    case 2: return tile_simd_uint16_t;
    case 4: return tile_simd_uint32_t;
    default: return tile_simd_uint64_t;
    }
}
#else
static tile_fn tile_for_size(int sz)
{
    switch (sz) {
    case 1: return tile_uint8_t;
    case 2: return tile_uint16_t;
    case 4: return tile_uint32_t;
    default: return tile_uint64_t;
    }
}
#endif

/* Cast while transposing: transpose the tile into a stage buffer in the source
 * dtype (at most 32 KiB: see transpose_2d), then cast its rows contiguously. */
static void tile_cast(const copy_plan *p, char *d, int64_t da, const char *s, int64_t sb,
                      int64_t na, int64_t nb)
{
    uint64_t stage[4096];
    assert(na * nb * p->ssz <= (int64_t)sizeof stage);
    tile_for_size(p->ssz)((char *)stage, nb, s, sb, na, nb);
    cast_fn f = cast_table[p->dt][p->st];
    for (int64_t a = 0; a < na; a++)
        f(d + a * da * p->dsz, 1, (const char *)stage + a * nb * p->ssz, 1, nb);
}

/* One 2-D transpose (dims a, b) in tiles of 32 bytes of a by 1 KiB of b. */
static void transpose_2d(const copy_plan *p, char *d, int64_t da, const char *s, int64_t sb,
                         int64_t na, int64_t nb)
{
    int sz = p->dsz > p->ssz ? p->dsz : p->ssz;
    int64_t ta = 32 / sz, tb = 1024 / sz;
    tile_fn tile = p->dt == p->st ? tile_for_size(p->dsz) : NULL;
    for (int64_t b0 = 0; b0 < nb; b0 += tb)
        for (int64_t a0 = 0; a0 < na; a0 += ta) {
            int64_t ma = na - a0 < ta ? na - a0 : ta, mb = nb - b0 < tb ? nb - b0 : tb;
            char *dtile = d + (a0 * da + b0) * p->dsz;
            const char *stile = s + (a0 + b0 * sb) * p->ssz;
            if (tile)
                tile(dtile, da, stile, sb, ma, mb);
            else
                tile_cast(p, dtile, da, stile, sb, ma, mb);
        }
}

/* Dst inner stride 1, src stride 1 on dim k. */
static void run_transpose(const copy_plan *p, int k)
{
    odometer o;
    int in = p->nd - 1;
    odo_init(&o, p, k, in);
    do
        transpose_2d(p, p->d + o.doff * p->dsz, p->ds[k], p->s + o.soff * p->ssz, p->ss[in],
                     p->n[k], p->n[in]);
    while (odo_next(&o));
}

/* The dim other than the innermost where src is contiguous, or -1. */
static int src_unit_dim(const copy_plan *p)
{
    for (int i = 0; i < p->nd - 1; i++)
        if (p->ss[i] == 1)
            return i;
    return -1;
}

/* src right-aligned to dst's shape: every dim equal or 1. */
static bool broadcasts_to(const mt_layout *s, const mt_layout *d)
{
    if (s->ndim > d->ndim)
        return false;
    for (int j = 0; j < s->ndim; j++) {
        int64_t n = s->shape[j], m = d->shape[j + d->ndim - s->ndim];
        if (n != 1 && n != m)
            return false;
    }
    return true;
}

/* Dense row-major strides (size-1 dims ignored), any offset. */
static bool is_row_major(const mt_layout *l)
{
    int64_t stride = 1;
    for (int d = l->ndim - 1; d >= 0; d--) {
        if (l->shape[d] != 1 && l->strides[d] != stride)
            return false;
        stride *= l->shape[d];
    }
    return true;
}

/* The row-major layout l has, seen with shape's dims. */
static mt_layout with_shape(const mt_layout *l, const mt_layout *shape)
{
    mt_layout r = *l;
    int64_t stride = 1;
    r.ndim = shape->ndim;
    for (int d = shape->ndim - 1; d >= 0; d--)
        r.shape[d] = shape->shape[d], r.strides[d] = stride, stride *= shape->shape[d];
    return r;
}

/* Element by element, row-major on both sides (neither side is row-major). */
static void copy_elementwise(const rt_buf *dst, const rt_buf *src)
{
    const mt_layout *dl = dst->l, *sl = src->l;
    cast_fn f = cast_table[dl->dtype][sl->dtype];
    int dsz = mt_dtype_size(dl->dtype), ssz = mt_dtype_size(sl->dtype);
    for (int64_t i = 0, n = mt_numel(dl); i < n; i++) {
        int64_t doff = dl->offset, soff = sl->offset;
        for (int64_t d = dl->ndim - 1, r = i; d >= 0; d--)
            doff += (r % dl->shape[d]) * dl->strides[d], r /= dl->shape[d];
        for (int64_t d = sl->ndim - 1, r = i; d >= 0; d--)
            soff += (r % sl->shape[d]) * sl->strides[d], r /= sl->shape[d];
        f((char *)dst->base + doff * dsz, 1, (const char *)src->base + soff * ssz, 1, 1);
    }
}

/* Same number of elements, shapes that do not broadcast (reshape, flatten): row-major
 * order.  One side is usually row-major (a new storage) and is viewed in the other's shape. */
static void copy_reshaped(const rt_buf *dst, const rt_buf *src)
{
    assert(mt_numel(dst->l) == mt_numel(src->l));
    mt_layout v;
    if (is_row_major(dst->l)) {
        v = with_shape(dst->l, src->l);
        rt_buf d = {&v, dst->base};
        rt_copy(&d, src);
    } else if (is_row_major(src->l)) {
        v = with_shape(src->l, dst->l);
        rt_buf s = {&v, src->base};
        rt_copy(dst, &s);
    } else {
        copy_elementwise(dst, src);
    }
}

/* dst = src broadcast and cast; a src of dst's numel in another shape is copied row-major. */
/* The loop for a sorted, merged plan. */
static void run_plan(const copy_plan *p)
{
    if (p->nd == 0) {
        cast_table[p->dt][p->st](p->d, 1, p->s, 1, 1);
        return;
    }
    int in = p->nd - 1, k = src_unit_dim(p);
    if (p->ds[in] == 1 && p->ss[in] == 1)
        run_rows(p);
    else if (p->ds[in] == 1 && k >= 0)
        run_transpose(p, k);
    else
        run_strided(p);
}

enum { PARALLEL_MIN_ELEMENTS = 1 << 20 }; /* below this a copy runs on one thread */

/* Rows [begin, end) of the outermost dim of the plan. */
static void run_plan_range(void *ctx, int64_t begin, int64_t end)
{
    copy_plan p = *(const copy_plan *)ctx;
    p.d += begin * p.ds[0] * p.dsz;
    p.s += begin * p.ss[0] * p.ssz;
    p.n[0] = end - begin;
    if (p.n[0] > 0)
        run_plan(&p);
}

void rt_copy(const rt_buf *dst, const rt_buf *src)
{
    int64_t n = mt_numel(dst->l);
    if (n == 0)
        return;
    if (!broadcasts_to(src->l, dst->l)) {
        copy_reshaped(dst, src);
        return;
    }
    copy_plan p;
    if (!plan_init(&p, dst, src))
        return;
    plan_sort(&p);
    plan_coalesce(&p);
    if (n < PARALLEL_MIN_ELEMENTS || p.nd == 0) {
        run_plan(&p);
        return;
    }
    /* split the outermost dim; each thread also first-touches its part of dst */
    rt_parallel_for(p.n[0], p.nd > 1 ? 1 : PARALLEL_MIN_ELEMENTS / 4, run_plan_range, &p);
}

/* A layout of one element at p, for broadcasting. */
static mt_layout scalar_layout(tl_dtype d)
{
    mt_layout l = {.ndim = 0, .offset = 0, .dtype = d, .device = TL_CPU};
    l.storage_nbytes = mt_dtype_size(d);
    return l;
}

void rt_fill(const rt_buf *dst, double v)
{
    uint64_t cell = 0; /* aligned for every dtype */
    rt_store(dst->l->dtype, &cell, v);
    mt_layout l = scalar_layout(dst->l->dtype);
    rt_buf src = {&l, &cell};
    rt_copy(dst, &src);
}

enum { ARANGE_CHUNK = 1024 }; /* elements */

/* One dst row segment [j0, j0 + n) of the last dim gets values v0, v0 + 1, ... */
static void arange_segment(const rt_buf *dst, int64_t offset, int64_t stride, int64_t v0,
                           int64_t n)
{
    int64_t ival[ARANGE_CHUNK];
    double fval[ARANGE_CHUNK];
    bool floating = mt_is_floating(dst->l->dtype);
    for (int64_t i = 0; i < n; i++)
        ival[i] = v0 + i, fval[i] = (double)(v0 + i);
    mt_layout dl = {.ndim = 1, .shape = {n}, .strides = {stride}, .offset = offset,
                    .dtype = dst->l->dtype, .device = TL_CPU};
    mt_layout sl = {.ndim = 1, .shape = {n}, .strides = {1}, .dtype = floating ? TL_F64 : TL_I64,
                    .device = TL_CPU};
    rt_buf d = {&dl, dst->base}, s = {&sl, floating ? (void *)fval : (void *)ival};
    rt_copy(&d, &s);
}

/* Row-major order over dst's own layout: rows of the last dim, in segments. */
void rt_arange(const rt_buf *dst)
{
    const mt_layout *l = dst->l;
    int64_t numel = mt_numel(l);
    if (numel == 0)
        return;
    int64_t row = l->ndim > 0 ? l->shape[l->ndim - 1] : 1;
    int64_t stride = l->ndim > 0 ? l->strides[l->ndim - 1] : 1;
    for (int64_t first = 0; first < numel; first += row) {
        int64_t offset = l->offset, rest = first / row;
        for (int i = l->ndim - 2; i >= 0; i--)
            offset += (rest % l->shape[i]) * l->strides[i], rest /= l->shape[i];
        for (int64_t j = 0; j < row; j += ARANGE_CHUNK) {
            int64_t n = row - j < ARANGE_CHUNK ? row - j : ARANGE_CHUNK;
            arange_segment(dst, offset + j * stride, stride, first + j, n);
        }
    }
}
