/*
 * test_simd_math.c: the f32 functions of rt_f32_map (simd_math.h) against a
 * double-precision reference, on every variant this machine can run: the
 * baseline (SSE2 on x86-64), AVX2 with FMA and AVX-512 where the CPU has
 * them (all through the runtime, switched with rt_simd_use), and the plain-C lanes
 * that other architectures build (simd_math.h compiled into this file).
 * Each function's error is bounded over a sweep of 2^32 / SWEEP_STEP bit
 * patterns spread over all of f32 (subnormals, both tails, infinities,
 * NaNs); the bounds are the largest errors bench/bench_ulp.c measured over
 * every f32 (docs/performance.md), rounded up.  Special values are
 * PyTorch's (torch 1.13's float kernels), silu(-inf) and gelu(-inf) NaN
 * among them (its -inf x 0), where the limit would be -0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SM_LANES_PORTABLE
#include "simd_math.h" /* sm_map on plain-C lanes */
#include "simd_reference.h"

enum { SWEEP_STEP = 4099, N_FNS = RT_F32_RSQRT + 1 };

/* ulp, any result (subnormal ones in units of 2^-149) */
static const double max_ulp[N_FNS] = {1.05, 2.5, 2.85, 1.4, 5.4, 1.5};

/* ---- the variants ---- */

typedef struct variant {
    const char *name;
    rt_simd simd;
    bool portable; /* simd_math.h on plain-C lanes, compiled here */
} variant;

static const variant variants[] = {
    {"base", RT_SIMD_BASE, false},
    {"avx2", RT_SIMD_AVX2, false},
    {"avx512", RT_SIMD_AVX512, false},
    {"portable", RT_SIMD_BASE, true},
};

static bool variant_runs(const variant *v)
{
    return v->portable || v->simd <= rt_simd_best();
}

static void variant_map(const variant *v, rt_f32_fn fn, float *o, const float *x, int64_t n)
{
    if (v->portable) {
        sm_map(fn, o, x, n);
        return;
    }
    rt_simd_use(v->simd);
    rt_f32_map(fn, o, x, n);
}

static int restore_best(void **state)
{
    (void)state;
    rt_simd_use(rt_simd_best());
    return 0;
}

/* ---- accuracy over the sweep ---- */

enum { N_SWEEP = (int)(((uint64_t)1 << 32) / SWEEP_STEP) + 1 };

static float sweep_x[N_SWEEP], sweep_y[N_SWEEP];

static void sweep_inputs(void)
{
    for (int i = 0; i < N_SWEEP; i++) {
        uint32_t bits = (uint32_t)((uint64_t)i * SWEEP_STEP);
        memcpy(&sweep_x[i], &bits, sizeof bits);
    }
}

static void check_sweep(const variant *v, rt_f32_fn fn)
{
    double worst = 0;
    float worst_x = 0;
    variant_map(v, fn, sweep_y, sweep_x, N_SWEEP);
    for (int i = 0; i < N_SWEEP; i++) {
        double e = sm_ulp_error(sweep_y[i], sm_reference(fn, (double)sweep_x[i]));
        if (e > worst)
            worst = e, worst_x = sweep_x[i];
    }
    print_message("%-8s %-7s max %.3f ulp at %.9g (bound %.2f)\n", v->name, sm_ref_names[fn], worst,
                  (double)worst_x, max_ulp[fn]);
    assert_true(worst <= max_ulp[fn]);
}

static void test_accuracy(void **state)
{
    (void)state;
    sweep_inputs();
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++)
        if (variant_runs(&variants[k]))
            for (int fn = 0; fn < N_FNS; fn++)
                check_sweep(&variants[k], (rt_f32_fn)fn);
}

/* ---- special values ---- */

typedef struct special {
    rt_f32_fn fn;
    float x, want; /* compared bit for bit (so the sign of a zero), NaN as NaN */
} special;

static const special specials[] = {
    {RT_F32_EXP, NAN, NAN},          {RT_F32_EXP, INFINITY, INFINITY},
    {RT_F32_EXP, -INFINITY, 0.0f},   {RT_F32_EXP, -0.0f, 1.0f},
    {RT_F32_EXP, 89.0f, INFINITY},   {RT_F32_EXP, -104.0f, 0.0f},
    {RT_F32_SIGMOID, NAN, NAN},      {RT_F32_SIGMOID, INFINITY, 1.0f},
    {RT_F32_SIGMOID, -INFINITY, 0.0f}, {RT_F32_SIGMOID, -0.0f, 0.5f},
    {RT_F32_SIGMOID, 200.0f, 1.0f},  {RT_F32_SIGMOID, -200.0f, 0.0f},
    {RT_F32_SILU, NAN, NAN},         {RT_F32_SILU, INFINITY, INFINITY},
    {RT_F32_SILU, -INFINITY, NAN},   {RT_F32_SILU, -0.0f, -0.0f},
    {RT_F32_SILU, -200.0f, -0.0f},   {RT_F32_SILU, 200.0f, 200.0f},
    {RT_F32_SILU, -1e30f, -0.0f},
    {RT_F32_TANH, NAN, NAN},         {RT_F32_TANH, INFINITY, 1.0f},
    {RT_F32_TANH, -INFINITY, -1.0f}, {RT_F32_TANH, -0.0f, -0.0f},
    {RT_F32_TANH, 1e-40f, 1e-40f},   {RT_F32_TANH, -20.0f, -1.0f},
    {RT_F32_GELU, NAN, NAN},         {RT_F32_GELU, INFINITY, INFINITY},
    {RT_F32_GELU, -INFINITY, NAN},   {RT_F32_GELU, -0.0f, 0.0f},
    {RT_F32_GELU, -20.0f, -0.0f},    {RT_F32_GELU, 20.0f, 20.0f},
    {RT_F32_GELU, 1e30f, 1e30f},     {RT_F32_GELU, -1e30f, -0.0f},
    {RT_F32_RSQRT, NAN, NAN},        {RT_F32_RSQRT, 0.0f, INFINITY},
    {RT_F32_RSQRT, -0.0f, -INFINITY}, {RT_F32_RSQRT, INFINITY, 0.0f},
    {RT_F32_RSQRT, -1.0f, NAN},      {RT_F32_RSQRT, 4.0f, 0.5f},
};

static bool same_value(float got, float want)
{
    return isnan(want) ? isnan(got) : memcmp(&got, &want, sizeof got) == 0;
}

static void test_special_values(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        if (!variant_runs(&variants[k]))
            continue;
        for (size_t s = 0; s < sizeof specials / sizeof *specials; s++) {
            float got;
            variant_map(&variants[k], specials[s].fn, &got, &specials[s].x, 1);
            if (!same_value(got, specials[s].want))
                print_message("%s %s(%g) = %g, want %g\n", variants[k].name,
                              sm_ref_names[specials[s].fn], (double)specials[s].x, (double)got,
                              (double)specials[s].want);
            assert_true(same_value(got, specials[s].want));
        }
    }
}

/* ---- positions: full vectors, tails, in place ---- */

/* Each value gives the same bits wherever it sits (a full vector or the
 * padded tail, any array length), and o may be x. */
static void test_positions(void **state)
{
    (void)state;
    enum { N = 37 };
    float x[N], y[N], one, in_place[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i - 18) * 0.37f;
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        if (!variant_runs(&variants[k]))
            continue;
        for (int fn = 0; fn < N_FNS; fn++) {
            for (int n = 1; n <= N; n++) {
                variant_map(&variants[k], (rt_f32_fn)fn, y, x, n);
                variant_map(&variants[k], (rt_f32_fn)fn, &one, &x[n - 1], 1);
                assert_true(same_value(y[n - 1], one));
            }
            memcpy(in_place, x, sizeof x);
            variant_map(&variants[k], (rt_f32_fn)fn, in_place, in_place, N);
            assert_memory_equal(in_place, y, sizeof y);
        }
    }
}

/* The runtime starts on the best variant the CPU runs. */
static void test_dispatch(void **state)
{
    (void)state;
    print_message("best variant on this CPU: %s\n", rt_simd_name(rt_simd_best()));
    assert_int_equal(rt_simd_active(), rt_simd_best());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dispatch), /* first: before any rt_simd_use */
        cmocka_unit_test_teardown(test_accuracy, restore_best),
        cmocka_unit_test_teardown(test_special_values, restore_best),
        cmocka_unit_test_teardown(test_positions, restore_best),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
