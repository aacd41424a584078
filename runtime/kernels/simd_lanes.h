/*
 * simd_lanes.h: f32 lanes and the few operations simd_math.h needs, for
 * the instruction set the including file is compiled for: sixteen lanes of
 * AVX-512 (kernel_simd_avx512.c, built with -mavx512f -mfma), eight of AVX2
 * with FMA (kernel_simd_avx2.c, built with -mavx2 -mfma), four of SSE2
 * (baseline x86-64), or one plain float anywhere else or when
 * SM_LANES_PORTABLE is defined (the unit test compiles that one too).
 *
 * vf holds floats, vi 32-bit integers, vb a comparison's result (a mask
 * register on AVX-512, a vector of all-ones or zero lanes on the others;
 * only vf_select reads it).  All
 * functions are static inline: each translation unit gets its own copy,
 * compiled for its own instruction set.  vf_min and vf_max return their
 * second operand when either is NaN, as SSE's minps and maxps do, on every
 * path.  vf_fma (a b + c) and vf_fnma (c - a b) round once with FMA,
 * twice (a product, a sum) without;
 * vf_square splits a square into two floats, exactly with FMA, by cutting
 * the operand without.
 */
#ifndef TL_SIMD_LANES_H
#define TL_SIMD_LANES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__AVX512F__) && !defined(SM_LANES_PORTABLE)
#include <immintrin.h>

enum { VF_LANES = 16 };
typedef __m512 vf;
typedef __m512i vi;
typedef __mmask16 vb;

static inline vf vf_set(float v) { return _mm512_set1_ps(v); }
static inline vf vf_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void vf_store(float *p, vf v) { _mm512_storeu_ps(p, v); }
static inline vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return _mm512_div_ps(a, b); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return _mm512_fnmadd_ps(a, b, c); }
static inline vf vf_sqrt(vf a) { return _mm512_sqrt_ps(a); }
static inline vf vf_min(vf a, vf b) { return _mm512_min_ps(a, b); }
static inline vf vf_max(vf a, vf b) { return _mm512_max_ps(a, b); }
static inline vf vf_and_bits(vf a, uint32_t m)
{
    return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32((int)m)));
}
static inline vf vf_xor(vf a, vf b)
{
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}
static inline vb vf_lt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline vb vf_gt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
static inline vf vf_select(vb m, vf a, vf b) { return _mm512_mask_blend_ps(m, b, a); }
static inline vi vf_round_int(vf a) { return _mm512_cvtps_epi32(a); }
static inline vf vi_to_vf(vi a) { return _mm512_cvtepi32_ps(a); }
static inline vi vi_set(int32_t v) { return _mm512_set1_epi32(v); }
static inline vi vi_add(vi a, vi b) { return _mm512_add_epi32(a, b); }
static inline vi vi_sub(vi a, vi b) { return _mm512_sub_epi32(a, b); }
static inline vi vi_half(vi a) { return _mm512_srai_epi32(a, 1); }
static inline vf vi_exponent_bits(vi a) { return _mm512_castsi512_ps(_mm512_slli_epi32(a, 23)); }
/* a^2 = hi + *lo exactly: the fused multiply-add gives the product's rounding error */
static inline vf vf_square(vf a, vf *lo)
{
    vf hi = _mm512_mul_ps(a, a);
    *lo = _mm512_fmsub_ps(a, a, hi);
    return hi;
}

/* The lanes' sum, halving (lane i plus lane i + w/2, w = 16 down to 2):
 * the order GCC's vectorised reductions end in, kept in registers. */
static inline float vf_hsum(vf a)
{
    __m256 lo = _mm512_castps512_ps256(a);
    __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1));
    __m256 s8 = _mm256_add_ps(hi, lo);
    __m128 s4 = _mm_add_ps(_mm256_extractf128_ps(s8, 1), _mm256_castps256_ps128(s8));
    __m128 s2 = _mm_add_ps(_mm_movehl_ps(s4, s4), s4);
    return _mm_cvtss_f32(_mm_add_ss(_mm_shuffle_ps(s2, s2, 1), s2));
}

#elif defined(__AVX2__) && defined(__FMA__) && !defined(SM_LANES_PORTABLE)
#include <immintrin.h>

enum { VF_LANES = 8 };
typedef __m256 vf;
typedef __m256i vi;
typedef __m256 vb;

static inline vf vf_set(float v) { return _mm256_set1_ps(v); }
static inline vf vf_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void vf_store(float *p, vf v) { _mm256_storeu_ps(p, v); }
static inline vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return _mm256_div_ps(a, b); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return _mm256_fnmadd_ps(a, b, c); }
static inline vf vf_sqrt(vf a) { return _mm256_sqrt_ps(a); }
static inline vf vf_min(vf a, vf b) { return _mm256_min_ps(a, b); }
static inline vf vf_max(vf a, vf b) { return _mm256_max_ps(a, b); }
static inline vf vf_and_bits(vf a, uint32_t m)
{
    return _mm256_and_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32((int)m)));
}
static inline vf vf_xor(vf a, vf b) { return _mm256_xor_ps(a, b); }
static inline vb vf_lt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline vb vf_gt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline vf vf_select(vb m, vf a, vf b) { return _mm256_blendv_ps(b, a, m); }
static inline vi vf_round_int(vf a) { return _mm256_cvtps_epi32(a); }
static inline vf vi_to_vf(vi a) { return _mm256_cvtepi32_ps(a); }
static inline vi vi_set(int32_t v) { return _mm256_set1_epi32(v); }
static inline vi vi_add(vi a, vi b) { return _mm256_add_epi32(a, b); }
static inline vi vi_sub(vi a, vi b) { return _mm256_sub_epi32(a, b); }
static inline vi vi_half(vi a) { return _mm256_srai_epi32(a, 1); }
static inline vf vi_exponent_bits(vi a) { return _mm256_castsi256_ps(_mm256_slli_epi32(a, 23)); }
/* a^2 = hi + *lo exactly: the fused multiply-add gives the product's rounding error */
static inline vf vf_square(vf a, vf *lo)
{
    vf hi = _mm256_mul_ps(a, a);
    *lo = _mm256_fmsub_ps(a, a, hi);
    return hi;
}

/* The lanes' sum, halving (lane i plus lane i + w/2, w = 8 down to 2). */
static inline float vf_hsum(vf a)
{
    __m128 s4 = _mm_add_ps(_mm256_extractf128_ps(a, 1), _mm256_castps256_ps128(a));
    __m128 s2 = _mm_add_ps(_mm_movehl_ps(s4, s4), s4);
    return _mm_cvtss_f32(_mm_add_ss(_mm_shuffle_ps(s2, s2, 1), s2));
}

#elif defined(__SSE2__) && !defined(SM_LANES_PORTABLE)
#include <emmintrin.h>

enum { VF_LANES = 4 };
typedef __m128 vf;
typedef __m128i vi;
typedef __m128 vb;

static inline vf vf_set(float v) { return _mm_set1_ps(v); }
static inline vf vf_load(const float *p) { return _mm_loadu_ps(p); }
static inline void vf_store(float *p, vf v) { _mm_storeu_ps(p, v); }
static inline vf vf_add(vf a, vf b) { return _mm_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return _mm_div_ps(a, b); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return _mm_sub_ps(c, _mm_mul_ps(a, b)); }
static inline vf vf_sqrt(vf a) { return _mm_sqrt_ps(a); }
static inline vf vf_min(vf a, vf b) { return _mm_min_ps(a, b); }
static inline vf vf_max(vf a, vf b) { return _mm_max_ps(a, b); }
static inline vf vf_and_bits(vf a, uint32_t m)
{
    return _mm_and_ps(a, _mm_castsi128_ps(_mm_set1_epi32((int)m)));
}
static inline vf vf_xor(vf a, vf b) { return _mm_xor_ps(a, b); }
static inline vb vf_lt(vf a, vf b) { return _mm_cmplt_ps(a, b); }
static inline vb vf_gt(vf a, vf b) { return _mm_cmpgt_ps(a, b); }
static inline vf vf_select(vb m, vf a, vf b)
{
    return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}
static inline vi vf_round_int(vf a) { return _mm_cvtps_epi32(a); }
static inline vf vi_to_vf(vi a) { return _mm_cvtepi32_ps(a); }
static inline vi vi_set(int32_t v) { return _mm_set1_epi32(v); }
static inline vi vi_add(vi a, vi b) { return _mm_add_epi32(a, b); }
static inline vi vi_sub(vi a, vi b) { return _mm_sub_epi32(a, b); }
static inline vi vi_half(vi a) { return _mm_srai_epi32(a, 1); }
static inline vf vi_exponent_bits(vi a) { return _mm_castsi128_ps(_mm_slli_epi32(a, 23)); }

/* The lanes' sum, halving (lane i plus lane i + w/2, w = 4 down to 2). */
static inline float vf_hsum(vf a)
{
    __m128 s2 = _mm_add_ps(_mm_movehl_ps(a, a), a);
    return _mm_cvtss_f32(_mm_add_ss(_mm_shuffle_ps(s2, s2, 1), s2));
}

#else

enum { VF_LANES = 1 };
typedef float vf;
typedef int32_t vi;
typedef bool vb;

static inline uint32_t vf_bits(float a) { uint32_t u; memcpy(&u, &a, sizeof u); return u; }
static inline float vf_from_bits(uint32_t u) { float a; memcpy(&a, &u, sizeof a); return a; }

static inline vf vf_set(float v) { return v; }
static inline vf vf_load(const float *p) { return *p; }
static inline void vf_store(float *p, vf v) { *p = v; }
static inline vf vf_add(vf a, vf b) { return a + b; }
static inline vf vf_sub(vf a, vf b) { return a - b; }
static inline vf vf_mul(vf a, vf b) { return a * b; }
static inline vf vf_div(vf a, vf b) { return a / b; }
static inline vf vf_fma(vf a, vf b, vf c) { return a * b + c; }
static inline vf vf_fnma(vf a, vf b, vf c) { return c - a * b; }
static inline vf vf_sqrt(vf a) { return sqrtf(a); }
static inline vf vf_min(vf a, vf b) { return a < b ? a : b; }
static inline vf vf_max(vf a, vf b) { return a > b ? a : b; }
static inline vf vf_and_bits(vf a, uint32_t m) { return vf_from_bits(vf_bits(a) & m); }
static inline vf vf_xor(vf a, vf b) { return vf_from_bits(vf_bits(a) ^ vf_bits(b)); }
static inline vb vf_lt(vf a, vf b) { return a < b; }
static inline vb vf_gt(vf a, vf b) { return a > b; }
static inline vf vf_select(vb m, vf a, vf b) { return m ? a : b; }
/* NaN (the only value the kernels pass that has no integer) gives 0, as
 * the lanes give a value that the NaN in the other factor then hides */
static inline vi vf_round_int(vf a) { return a == a ? (int32_t)lrintf(a) : 0; }
static inline vf vi_to_vf(vi a) { return (float)a; }
static inline vi vi_set(int32_t v) { return v; }
static inline vi vi_add(vi a, vi b) { return a + b; }
static inline vi vi_sub(vi a, vi b) { return a - b; }
static inline vi vi_half(vi a) { return a >= 0 ? a / 2 : -((1 - a) / 2); } /* floor(a / 2) */
static inline vf vi_exponent_bits(vi a) { return vf_from_bits((uint32_t)a << 23); }
static inline float vf_hsum(vf a) { return a; }

#endif

/* The f32 with all bits of a's sign cleared: |a|. */
static inline vf vf_abs(vf a) { return vf_and_bits(a, 0x7fffffffu); }

#if !(defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))) || defined(SM_LANES_PORTABLE)
/* a^2 = hi + *lo, a >= 0, to 2^-35 a^2 without a fused multiply-add: h = a cut
 * to 12 significant bits squares exactly, and a^2 - h^2 = (a - h)(a + h).
 * *lo is then up to 2^-10 a^2, not below hi's last bit. */
static inline vf vf_square(vf a, vf *lo)
{
    vf h = vf_and_bits(a, 0xfffff000u);
    *lo = vf_mul(vf_sub(a, h), vf_add(a, h));
    return vf_mul(h, h);
}
#endif

#endif /* TL_SIMD_LANES_H */
