/*
 * simd_dot.h: f32 matrix-vector products over the lanes of simd_lanes.h,
 * compiled once per instruction set as simd_math.h is (kernel_simd.c and
 * its AVX2 and AVX-512 siblings).  A decoder's token step is made of them:
 * a weight matrix times the activation vector, the keys so far times the
 * query, the attention weights times the values.
 *
 * Row products (y[r] = w[r, :] . x): one accumulator of VF_LANES lanes per
 * row, fed by fused multiply-adds in the order of k; the lanes are then
 * summed by halving (lane i plus lane i + w/2, w = VF_LANES/2 down to 1),
 * and the tail of n % VF_LANES elements added one by one.  This is the
 * order in which GCC vectorises llama2.c's `val += w[i * n + j] * x[j]` at
 * -Ofast, so on the same instruction set the two agree bit for bit.
 *
 * Column products (y[j] = sum over r of x[r] w[r, j]): y starts at 0 and
 * takes one fused multiply-add per row, rows in order, as llama2.c's
 * `xb[i] += a * v[i]` does.
 */
#ifndef TL_SIMD_DOT_H
#define TL_SIMD_DOT_H

#include <math.h>
#include <stdint.h>

#include "simd_lanes.h"

/* a b + c, rounded once where the lanes' vf_fma is fused (AVX2, AVX-512). */
static inline float sd_madd(float a, float b, float c)
{
#if defined(__FMA__) && !defined(SM_LANES_PORTABLE)
    return fmaf(a, b, c);
#else
    return a * b + c;
#endif
}

/* One row's product, the order above. */
static inline float sd_dot(const float *w, const float *x, int64_t n)
{
    int64_t nv = n - n % VF_LANES;
    vf a = vf_set(0.0f);
    for (int64_t k = 0; k < nv; k += VF_LANES)
        a = vf_fma(vf_load(w + k), vf_load(x + k), a);
    float s = vf_hsum(a);
    for (int64_t k = nv; k < n; k++)
        s = sd_madd(w[k], x[k], s);
    return s;
}

/* y[r * incy] = w[r * ld + 0 .. n) . x[0 .. n) for r in [r0, r1), a row at a
 * time: the weights stream from memory once per token, so the loop is bound
 * by their bandwidth, and one stream at a time is what the prefetchers
 * follow best (four rows interleaved measured slower, bench/llama2c.sh). */
static void sd_rows(const float *w, int64_t ld, const float *x, int64_t n, float *y, int64_t incy,
                    int64_t r0, int64_t r1)
{
    for (int64_t r = r0; r < r1; r++)
        y[r * incy] = sd_dot(w + r * ld, x, n);
}

/* y[0 .. n) = sum over r in [0, rows) of x[r * incx] w[r * ld + 0 .. n), rows in order. */
static void sd_cols(const float *w, int64_t ld, const float *x, int64_t incx, int64_t rows,
                    float *y, int64_t n)
{
    int64_t nv = n - n % VF_LANES;
    for (int64_t j = 0; j < n; j++)
        y[j] = 0.0f;
    for (int64_t r = 0; r < rows; r++) {
        const float *wr = w + r * ld;
        float a = x[r * incx];
        vf av = vf_set(a);
        for (int64_t j = 0; j < nv; j += VF_LANES)
            vf_store(y + j, vf_fma(av, vf_load(wr + j), vf_load(y + j)));
        for (int64_t j = nv; j < n; j++)
            y[j] = sd_madd(a, wr[j], y[j]);
    }
}

#endif /* TL_SIMD_DOT_H */
