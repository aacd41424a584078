/*
 * kernel_simd_avx512.c: simd_math.h compiled for AVX-512 (sixteen lanes,
 * fused multiply-adds, comparison masks).  runtime/CMakeLists.txt gives this
 * file -mavx512f -mfma on x86 and no other; kernel_simd.c calls it only
 * when the CPU has AVX-512F.  Built for another architecture it holds no
 * kernel, and says so.
 */
#include "kernels.h"

#if defined(__AVX512F__)
#include "simd_dot.h"
#include "simd_math.h"

rt_f32_map_fn rt_simd_avx512_map(void) { return sm_map; }
rt_f32_rows_fn rt_simd_avx512_rows(void) { return sd_rows; }
rt_f32_cols_fn rt_simd_avx512_cols(void) { return sd_cols; }
#else
rt_f32_map_fn rt_simd_avx512_map(void) { return NULL; }
rt_f32_rows_fn rt_simd_avx512_rows(void) { return NULL; }
rt_f32_cols_fn rt_simd_avx512_cols(void) { return NULL; }
#endif
