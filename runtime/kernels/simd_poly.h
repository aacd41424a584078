/*
 * simd_poly.h: the polynomial coefficients of simd_math.h's f32 kernels.
 * Written by scripts/fit_simd_poly.py (minimax fits of relative error,
 * rounded to f32); do not edit, rerun it.  Lowest degree first.
 */
#ifndef TL_SIMD_POLY_H
#define TL_SIMD_POLY_H

#define SM_LOG2E 1.442695e+00f
#define SM_LN2_HI 6.9314575e-01f /* ln 2 to 16 bits: n * SM_LN2_HI is exact */
#define SM_LN2_LO 1.4286068e-06f /* ln 2 - SM_LN2_HI */
#define SM_TANH_SMALL 6.25e-01f
#define SM_GELU_A_MAX 1.45e+01f
#define SM_GELU_T_SCALE 2.e+00f
#define SM_GELU_U_SCALE 2.275862e+00f /* u = SM_GELU_U_SCALE t + SM_GELU_U_SHIFT */
#define SM_GELU_U_SHIFT -1.2758621e+00f /* maps t's range onto [-1, 1] */

/* e^r = 1 + r + r^2 P(r), |r| <= 0.3466 */
static const float SM_EXP_POLY[5] = {4.9999994e-01f, 1.6666521e-01f, 4.166839e-02f, 8.368716e-03f, 1.3814602e-03f};
/* tanh x = x + x^3 P(x^2), 0 <= x <= SM_TANH_SMALL */
static const float SM_TANH_POLY[5] = {-3.333328e-01f, 1.3331442e-01f, -5.3739715e-02f, 2.0639088e-02f, -5.7049873e-03f};
/* erfc(a / sqrt 2) / 2 = e^(-a^2/2) t P(u), t = SM_GELU_T_SCALE / (SM_GELU_T_SCALE + a), 0 <= a <= SM_GELU_A_MAX */
static const float SM_GELU_POLY[12] = {3.5646802e-01f, 1.4797504e-01f, 5.9915306e-03f, -1.2226811e-02f, 9.3698583e-04f, 1.3468997e-03f, -5.367932e-04f, -2.2103613e-05f, 1.0855418e-04f, -4.092671e-05f, -8.359467e-06f, 7.976445e-06f};

#endif /* TL_SIMD_POLY_H */
