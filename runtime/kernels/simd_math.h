/*
 * simd_math.h: exp, sigmoid, silu, tanh, gelu and rsqrt of f32 on the
 * lanes of simd_lanes.h, and sm_map, the flat loop that applies one of them
 * to an array.  One text, compiled once per instruction set: by
 * kernel_simd.c (SSE2, or plain C off x86), by kernel_simd_avx2.c (AVX2
 * with FMA) and by kernel_simd_avx512.c (AVX-512F).  The polynomials are simd_poly.h's, fitted by
 * scripts/fit_simd_poly.py.  Everything computes in f32, as PyTorch's float
 * kernels do; the measured errors are in docs/performance.md and bounded by
 * tests/unit/test_simd_math.c.
 *
 * exp(x): n = round(x log2 e), r = x - n ln 2 (Cody and Waite: n * SM_LN2_HI
 * is exact, SM_LN2_LO carries the rest), e^r = 1 + r + r^2 P(r), and the
 * result is that times 2^n.  The parts are kept apart (sm_exp_parts): a
 * product with e^r rounds once (sm_exp_times), and the scaling comes last,
 * as two factors 2^(n/2) (sm_pow2), so that a result that is subnormal
 * rounds once.  x is clamped to [SM_EXP_MIN, 89] first: e^89
 * overflows, e^SM_EXP_MIN underflows even when multiplied by 112.
 *
 * sigmoid(x) = 1 / (1 + e) for x >= 0 and e / (1 + e) below, with
 * e = e^-|x|: nothing overflows and small results keep their accuracy.
 * silu(x) = x sigmoid(x), computed as x / (1 + e) and x e / (1 + e).  In
 * both, e's 2^n multiplies last.

 * tanh(x): with a = |x|, a + a^3 P(a^2) for a <= SM_TANH_SMALL, 1 - 2 /
 * (e^2a + 1) above, then x's sign.
 *
 * gelu(x) = x Phi(x), the erf form (PyTorch's default), through the normal
 * tail Q(a) = erfc(a / sqrt 2) / 2 = e^(-a^2/2) g(a) with g fitted in
 * t = 2 / (2 + a) (simd_poly.h): gelu(x) = x Q(-x) below 0, so that results
 * in the negative tail keep their relative accuracy down to underflow (the
 * form 0.5 x (1 + erf(x / sqrt 2)) loses it in 1 + erf), and x - x Q(x)
 * above.
 * a^2 reaches 210: its rounding would cost e^(-a^2/2) up to 100 ulp, so a^2
 * is kept as two floats (vf_square).
 *
 * rsqrt(x) = 1 / sqrt(x), each step correctly rounded.
 *
 * Special values are the ones PyTorch's float kernels give: NaN stays NaN;
 * exp(-inf) = 0, exp(inf) = inf; sigmoid(-inf) = 0, sigmoid(inf) = 1;
 * tanh(+-inf) = +-1; silu(inf) = gelu(inf) = inf; silu(-inf) and gelu(-inf)
 * are NaN, as PyTorch's (its kernels multiply -inf by 0; the limit would be
 * -0, but the ground truth is PyTorch's); silu and tanh keep the sign of -0,
 * gelu(-0) is +0 (PyTorch's too).
 */
#ifndef TL_SIMD_MATH_H
#define TL_SIMD_MATH_H

#include <assert.h>
#include <float.h>
#include <math.h>

#include "kernels.h"
#include "simd_lanes.h"
#include "simd_poly.h"

#define SM_EXP_MIN (-112.0f)
#define SM_EXP_MAX 89.0f

/* c[0] + c[1] x + ... + c[n-1] x^(n-1), by Horner's rule. */
static inline vf sm_poly(vf x, const float *c, int n)
{
    vf p = vf_set(c[n - 1]);
    for (int k = n - 2; k >= 0; k--)
        p = vf_fma(p, x, vf_set(c[k]));
    return p;
}

/* 2^n, n in [-162, 128], as two factors 2^(n/2), each a normal number:
 * v s1 s2 is v 2^n with a subnormal result rounded once. */
typedef struct sm_pow2 {
    vf s1, s2;
} sm_pow2;

static inline sm_pow2 sm_pow2_of(vi n)
{
    vi n1 = vi_half(n), n2 = vi_sub(n, n1), bias = vi_set(127);
    return (sm_pow2){vi_exponent_bits(vi_add(n1, bias)), vi_exponent_bits(vi_add(n2, bias))};
}

static inline vf sm_times_pow2(vf v, sm_pow2 p) { return vf_mul(vf_mul(v, p.s1), p.s2); }

static inline vf sm_scale(vf v, vi n) { return sm_times_pow2(v, sm_pow2_of(n)); }

/* e^x = (1 + q) 2^n, q in [-0.30, 0.42]: the caller rounds 1 + q itself, or
 * multiplies by it in one rounding (sm_exp_times). */
typedef struct sm_exp_parts {
    vf q;
    vi n;
} sm_exp_parts;

/* n = round(s log2 e) and hi - n ln 2 (exact but for SM_LN2_LO's part), for
 * s = hi, or s = hi + lo with lo small, which the caller then adds. */
static inline vf sm_exp_reduce(vf s, vf hi, vi *n)
{
    *n = vf_round_int(vf_mul(s, vf_set(SM_LOG2E)));
    vf nf = vi_to_vf(*n);
    vf r = vf_fma(nf, vf_set(-SM_LN2_HI), hi); /* exact */
    return vf_fma(nf, vf_set(-SM_LN2_LO), r);
}

/* e^r - 1 = r + r^2 P(r), |r| <= ln2 / 2. */
static inline vf sm_exp_poly(vf r)
{
    vf p = sm_poly(r, SM_EXP_POLY, (int)(sizeof SM_EXP_POLY / sizeof *SM_EXP_POLY));
    return vf_fma(vf_mul(r, r), p, r);
}

/* f (1 + e.q), rounded once with FMA. */
static inline vf sm_exp_times(sm_exp_parts e, vf f) { return vf_fma(e.q, f, f); }

/* e^x with x clamped (NaN goes through the clamp: vf_min and vf_max return
 * their second operand for it). */
static inline sm_exp_parts sm_exp_clamped(vf x)
{
    sm_exp_parts e;
    x = vf_max(vf_set(SM_EXP_MIN), vf_min(vf_set(SM_EXP_MAX), x));
    e.q = sm_exp_poly(sm_exp_reduce(x, x, &e.n));
    return e;
}

static inline vf sm_exp(vf x)
{
    sm_exp_parts e = sm_exp_clamped(x);
    return sm_scale(vf_add(vf_set(1.0f), e.q), e.n);
}

/* f sigmoid(x): f / (1 + e) for x >= 0, 2^n (f (1 + q) / (1 + e)) below,
 * where e = e^-|x| = (1 + q) 2^n (one division either way: the scaling
 * picks 2^n or 1).  Below SM_EXP_MIN, e is clamped and the result rounds to
 * 0 with any f in [SM_EXP_MIN, 1]. */
static inline vf sm_sigmoid_times(vf x, vf f)
{
    vf zero = vf_set(0.0f), one = vf_set(1.0f);
    sm_exp_parts e = sm_exp_clamped(vf_sub(zero, vf_abs(x)));
    sm_pow2 p = sm_pow2_of(e.n);
    vf d = vf_add(one, sm_times_pow2(vf_add(one, e.q), p));
    vb below = vf_lt(x, zero);
    vf r = vf_div(vf_select(below, sm_exp_times(e, f), f), d);
    p.s1 = vf_select(below, p.s1, one);
    p.s2 = vf_select(below, p.s2, one);
    return sm_times_pow2(r, p);
}

static inline vf sm_sigmoid(vf x) { return sm_sigmoid_times(x, vf_set(1.0f)); }

/* x sigmoid(x), x clamped to SM_EXP_MIN as the factor: x e^x rounds to -0
 * below it; silu(-inf) is NaN, PyTorch's (the clamp alone would give -0). */
static inline vf sm_silu(vf x)
{
    vf r = sm_sigmoid_times(x, vf_max(vf_set(SM_EXP_MIN), x));
    return vf_select(vf_lt(x, vf_set(-FLT_MAX)), vf_set(NAN), r); /* -inf: PyTorch's NaN */
}

/* tanh(|x|) with x's sign: the polynomial's x + x^3 P would turn -0 into +0. */
static inline vf sm_tanh(vf x)
{
    vf one = vf_set(1.0f), ax = vf_abs(x), z = vf_mul(ax, ax);
    vf p = sm_poly(z, SM_TANH_POLY, (int)(sizeof SM_TANH_POLY / sizeof *SM_TANH_POLY));
    vf small = vf_fma(vf_mul(z, ax), p, ax);
    vf big = vf_sub(one, vf_div(vf_set(2.0f), vf_add(sm_exp(vf_add(ax, ax)), one)));
    vf r = vf_select(vf_gt(ax, vf_set(SM_TANH_SMALL)), big, small);
    return vf_xor(r, vf_and_bits(x, 0x80000000u));
}

/* Q(a) = g (1 + e.q) 2^e.n for 0 <= a <= SM_GELU_A_MAX (or NaN): the parts
 * of e^(-a^2/2), and g. */
static inline sm_exp_parts sm_normal_tail(vf a, vf *g)
{
    vf lo, hi = vf_square(a, &lo); /* a^2 = hi + lo */
    hi = vf_mul(hi, vf_set(-0.5f));
    lo = vf_mul(lo, vf_set(-0.5f));
    sm_exp_parts e;
    e.q = sm_exp_poly(vf_add(sm_exp_reduce(vf_add(hi, lo), hi, &e.n), lo));
    vf t = vf_div(vf_set(SM_GELU_T_SCALE), vf_add(vf_set(SM_GELU_T_SCALE), a));
    vf u = vf_fma(t, vf_set(SM_GELU_U_SCALE), vf_set(SM_GELU_U_SHIFT));
    *g = vf_mul(t, sm_poly(u, SM_GELU_POLY, (int)(sizeof SM_GELU_POLY / sizeof *SM_GELU_POLY)));
    return e;
}

/* x Q(-x) below 0, x - x Q(x) above, x clamped to +-SM_GELU_A_MAX where it
 * multiplies Q: beyond, x Q(|x|) rounds to 0 (-0 below, x above), and an
 * infinity never meets Q's 0 (gelu(inf) = inf; gelu(-inf) would be -0, and
 * is NaN, PyTorch's). */
static inline vf sm_gelu(vf x)
{
    vf g, amax = vf_set(SM_GELU_A_MAX);
    vf xc = vf_max(vf_set(-SM_GELU_A_MAX), vf_min(amax, x)); /* NaN goes through */
    sm_exp_parts e = sm_normal_tail(vf_abs(xc), &g);
    sm_pow2 p = sm_pow2_of(e.n);
    vf below = sm_times_pow2(sm_exp_times(e, vf_mul(xc, g)), p);
    vf above = vf_fnma(xc, sm_times_pow2(sm_exp_times(e, g), p), x);
    vf r = vf_select(vf_lt(x, vf_set(0.0f)), below, above);
    return vf_select(vf_lt(x, vf_set(-FLT_MAX)), vf_set(NAN), r); /* -inf: PyTorch's NaN */
}

static inline vf sm_rsqrt(vf x) { return vf_div(vf_set(1.0f), vf_sqrt(x)); }

typedef vf (*sm_lane_fn)(vf x);

/* o[i] = f(x[i]) for i < n.  The tail is padded to a full vector, so that a
 * value gives the same bits at every position.  Inlined into each case of
 * sm_map, where f is a constant. */
static inline __attribute__((always_inline)) void sm_loop(sm_lane_fn f, float *o,
                                                          const float *x, int64_t n)
{
    int64_t i = 0;
    for (; i + VF_LANES <= n; i += VF_LANES)
        vf_store(o + i, f(vf_load(x + i)));
    if (i < n) {
        float pad[VF_LANES] = {0};
        memcpy(pad, x + i, (size_t)(n - i) * sizeof *pad);
        vf_store(pad, f(vf_load(pad)));
        memcpy(o + i, pad, (size_t)(n - i) * sizeof *pad);
    }
}

static void sm_map(rt_f32_fn fn, float *o, const float *x, int64_t n)
{
    switch (fn) {
    case RT_F32_EXP: sm_loop(sm_exp, o, x, n); return;
    case RT_F32_SIGMOID: sm_loop(sm_sigmoid, o, x, n); return;
    case RT_F32_SILU: sm_loop(sm_silu, o, x, n); return;
    case RT_F32_TANH: sm_loop(sm_tanh, o, x, n); return;
    case RT_F32_GELU: sm_loop(sm_gelu, o, x, n); return;
    case RT_F32_RSQRT: sm_loop(sm_rsqrt, o, x, n); return;
    }
    assert(!"sm_map: not an f32 function");
}

#endif /* TL_SIMD_MATH_H */
