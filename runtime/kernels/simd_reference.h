/*
 * simd_reference.h: what rt_f32_map's functions are measured against, in
 * double precision, and the error of an f32 result in ulp.  Not part of the
 * library: tests/unit/test_simd_math.c bounds the errors with it and
 * bench/bench_ulp.c measures them over every f32 value.  Special values are
 * PyTorch's (torch 1.13's float kernels): silu(-inf) and gelu(-inf) are NaN
 * (its -inf x 0), where the limit would be -0.
 */
#ifndef TL_SIMD_REFERENCE_H
#define TL_SIMD_REFERENCE_H

#include <float.h>
#include <math.h>

#include "kernels.h"

static const char *const sm_ref_names[] = {"exp", "sigmoid", "silu", "tanh", "gelu", "rsqrt"};
_Static_assert(sizeof sm_ref_names / sizeof *sm_ref_names == RT_F32_RSQRT + 1,
               "one name per rt_f32_fn");

static inline double sm_ref_sigmoid(double x)
{
    return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
}

/* x Phi(x) with Phi through erfc, accurate in both tails. */
static inline double sm_ref_gelu(double x)
{
    if (x == -INFINITY)
        return NAN; /* PyTorch's */
    return x >= 0 ? x * (1 - 0.5 * erfc(x * M_SQRT1_2)) : x * 0.5 * erfc(-x * M_SQRT1_2);
}

static inline double sm_reference(rt_f32_fn fn, double x)
{
    switch (fn) {
    case RT_F32_EXP: return exp(x);
    case RT_F32_SIGMOID: return sm_ref_sigmoid(x);
    case RT_F32_SILU: return x == -INFINITY ? NAN : x * sm_ref_sigmoid(x); /* PyTorch's */
    case RT_F32_TANH: return tanh(x);
    case RT_F32_GELU: return sm_ref_gelu(x);
    case RT_F32_RSQRT: return 1 / sqrt(x);
    }
    return NAN;
}

/* |got - ref| in ulp of ref's f32 binade (2^-149 below the normals);
 * INFINITY for a NaN, or an infinity, where the reference has none (or
 * the reverse). */
static inline double sm_ulp_error(float got, double ref)
{
    float want = (float)ref;
    if (isnan(ref) || isnan(got))
        return isnan(ref) && isnan(got) ? 0 : INFINITY;
    if (isinf(want) || isinf(got))
        return got == want ? 0 : INFINITY;
    double a = fabs(ref);
    int e = a < FLT_MIN ? -126 : ilogb(a);
    return fabs((double)got - ref) / ldexp(1.0, e - 23);
}

#endif /* TL_SIMD_REFERENCE_H */
