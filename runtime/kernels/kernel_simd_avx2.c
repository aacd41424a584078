/*
 * kernel_simd_avx2.c: simd_math.h compiled for AVX2 with FMA (eight lanes,
 * fused multiply-adds).  runtime/CMakeLists.txt gives this file -mavx2
 * -mfma on x86 and no other; kernel_simd.c calls it only when the CPU has
 * both.  Built for another architecture it holds no kernel, and says so.
 */
#include "kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include "simd_dot.h"
#include "simd_math.h"

rt_f32_map_fn rt_simd_avx2_map(void) { return sm_map; }
rt_f32_rows_fn rt_simd_avx2_rows(void) { return sd_rows; }
rt_f32_cols_fn rt_simd_avx2_cols(void) { return sd_cols; }
#else
rt_f32_map_fn rt_simd_avx2_map(void) { return NULL; }
rt_f32_rows_fn rt_simd_avx2_rows(void) { return NULL; }
rt_f32_cols_fn rt_simd_avx2_cols(void) { return NULL; }
#endif
