/*
 * simd_exp.h: exp of f32, four lanes at a time (SSE2), shared by the
 * elementwise kernels (kernel_compute.c) and the f32 activations
 * (kernel_model.c).
 *
 * Cephes' expf polynomial after n = round(x / ln 2), scaled by 2^n in two
 * steps so that subnormal results round once.  Checked on every float in
 * [-104.5, 89.5]: within 1 ulp of the correctly rounded exp (99.2% exact);
 * glibc's expf and PyTorch's Sleef expf are 1-ulp functions too.
 */
#ifndef TL_SIMD_EXP_H
#define TL_SIMD_EXP_H

#if defined(__SSE2__)
#include <emmintrin.h>

static inline __m128 exp4(__m128 x)
{
    /* min/max return their second operand for NaN: NaN goes through */
    x = _mm_max_ps(_mm_set1_ps(-104.0f), _mm_min_ps(_mm_set1_ps(89.0f), x));
    __m128i n = _mm_cvtps_epi32(_mm_mul_ps(x, _mm_set1_ps(1.44269504088896341f)));
    __m128 nf = _mm_cvtepi32_ps(n);
    __m128 r = _mm_sub_ps(_mm_sub_ps(x, _mm_mul_ps(nf, _mm_set1_ps(0.693359375f))),
                          _mm_mul_ps(nf, _mm_set1_ps(-2.12194440e-4f)));
    __m128 p = _mm_set1_ps(1.9875691500e-4f);
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(1.3981999507e-3f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(8.3334519073e-3f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(4.1665795894e-2f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(1.6666665459e-1f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(5.0000001201e-1f));
    p = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_mul_ps(p, r), r), r), _mm_set1_ps(1.0f));
    __m128i n1 = _mm_srai_epi32(n, 1), n2 = _mm_sub_epi32(n, n1);
    __m128 s1 = _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(n1, _mm_set1_epi32(127)), 23));
    __m128 s2 = _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(n2, _mm_set1_epi32(127)), 23));
    return _mm_mul_ps(_mm_mul_ps(p, s1), s2);
}
#endif

#endif
