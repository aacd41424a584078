/*
 * kernel_simd.c: rt_f32_map, the f32 functions of simd_math.h over an
 * array, on the widest instruction set the CPU has.  simd_math.h is compiled
 * three times: here for the baseline (SSE2 on x86-64, plain C elsewhere), in
 * kernel_simd_avx2.c for AVX2 with FMA, and in kernel_simd_avx512.c for
 * AVX-512F.  The variant is chosen once, on the first call (the CPU's
 * features through __builtin_cpu_supports); the narrower ones stay, as the
 * paths of CPUs without the wider sets, and the unit tests switch to each
 * with rt_simd_use to check it on every machine that runs it.
 */
#include <assert.h>
#include <stdatomic.h>

#include "kernels.h"
#include "simd_dot.h"
#include "simd_math.h"

static _Atomic int active = -1; /* an rt_simd, or -1 before the first call */

const char *rt_simd_name(rt_simd s)
{
    static const char *const names[] = {"base", "avx2", "avx512"};
    return names[s];
}

rt_simd rt_simd_best(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    if (rt_simd_avx512_map() && __builtin_cpu_supports("avx512f"))
        return RT_SIMD_AVX512;
    if (rt_simd_avx2_map() && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return RT_SIMD_AVX2;
#endif
    return RT_SIMD_BASE;
}

/* Threads that meet the first call together store the same answer. */
rt_simd rt_simd_active(void)
{
    int s = atomic_load_explicit(&active, memory_order_relaxed);
    if (s < 0) {
        s = (int)rt_simd_best();
        atomic_store_explicit(&active, s, memory_order_relaxed);
    }
    return (rt_simd)s;
}

void rt_simd_use(rt_simd s)
{
    assert(s <= rt_simd_best() && "rt_simd_use: the CPU or this build lacks it");
    atomic_store_explicit(&active, (int)s, memory_order_relaxed);
}

void rt_f32_map(rt_f32_fn fn, float *o, const float *x, int64_t n)
{
    switch (rt_simd_active()) {
    case RT_SIMD_AVX512: rt_simd_avx512_map()(fn, o, x, n); return;
    case RT_SIMD_AVX2: rt_simd_avx2_map()(fn, o, x, n); return;
    case RT_SIMD_BASE: sm_map(fn, o, x, n); return;
    }
}

void rt_f32_rows(const float *w, int64_t ld, const float *x, int64_t n, float *y, int64_t incy,
                 int64_t r0, int64_t r1)
{
    switch (rt_simd_active()) {
    case RT_SIMD_AVX512: rt_simd_avx512_rows()(w, ld, x, n, y, incy, r0, r1); return;
    case RT_SIMD_AVX2: rt_simd_avx2_rows()(w, ld, x, n, y, incy, r0, r1); return;
    case RT_SIMD_BASE: sd_rows(w, ld, x, n, y, incy, r0, r1); return;
    }
}

void rt_f32_cols(const float *w, int64_t ld, const float *x, int64_t incx, int64_t rows, float *y,
                 int64_t n)
{
    switch (rt_simd_active()) {
    case RT_SIMD_AVX512: rt_simd_avx512_cols()(w, ld, x, incx, rows, y, n); return;
    case RT_SIMD_AVX2: rt_simd_avx2_cols()(w, ld, x, incx, rows, y, n); return;
    case RT_SIMD_BASE: sd_cols(w, ld, x, incx, rows, y, n); return;
    }
}
