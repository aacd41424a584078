/*
 * bench_ulp.c: the error of rt_f32_map's functions (exp, sigmoid, silu,
 * tanh, gelu, rsqrt) in f32 ulp against a double-precision reference, over
 * every f32 bit pattern (2^32 values: both zeros, subnormals, normals, both
 * infinities, NaNs), on each instruction set the CPU runs (the baseline and,
 * where present, AVX2 with FMA and AVX-512).  Prints one JSON line per function and
 * variant: the largest error, the input where it occurs, the largest error
 * among results that are normal numbers, and how many results were off by
 * more than half an ulp (not correctly rounded).  A NaN where the reference
 * is not (or the reverse), or an infinity where the reference is finite, is
 * counted in "wrong".  docs/performance.md quotes these figures.
 *
 *     build-release/bench/bench_ulp            # all functions, 1-3 minutes each
 *     build-release/bench/bench_ulp gelu tanh  # some of them
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "simd_reference.h"

enum { BLOCK = 1 << 16 };

typedef struct sweep {
    double max, max_normal; /* ulp */
    float at, at_normal;    /* the inputs where they occur */
    long long n_wrong, n_over_half;
} sweep;

static void sweep_block(const float *x, const float *y, const double *ref, sweep *s)
{
    for (int i = 0; i < BLOCK; i++) {
        double e = sm_ulp_error(y[i], ref[i]);
        if (isinf(e)) {
            s->n_wrong++;
            continue;
        }
        s->n_over_half += e > 0.5;
        if (e > s->max)
            s->max = e, s->at = x[i];
        if (fabs(ref[i]) >= FLT_MIN && e > s->max_normal)
            s->max_normal = e, s->at_normal = x[i];
    }
}

static void run(rt_f32_fn fn, int n_simd, const rt_simd *simd)
{
    static float x[BLOCK], y[BLOCK];
    static double ref[BLOCK];
    sweep s[RT_SIMD_AVX512 + 1] = {{0}};
    for (uint64_t base = 0; base < (uint64_t)1 << 32; base += BLOCK) {
        for (int i = 0; i < BLOCK; i++) {
            uint32_t bits = (uint32_t)(base + (uint64_t)i);
            memcpy(&x[i], &bits, sizeof bits);
            ref[i] = sm_reference(fn, (double)x[i]);
        }
        for (int k = 0; k < n_simd; k++) {
            rt_simd_use(simd[k]);
            rt_f32_map(fn, y, x, BLOCK);
            sweep_block(x, y, ref, &s[k]);
        }
    }
    for (int k = 0; k < n_simd; k++)
        printf("{\"fn\":\"%s\",\"simd\":\"%s\",\"max_ulp\":%.3f,\"at\":%.9g,"
               "\"max_ulp_normal\":%.3f,\"at_normal\":%.9g,"
               "\"over_half_ulp\":%lld,\"wrong\":%lld}\n",
               sm_ref_names[fn], rt_simd_name(simd[k]), s[k].max, (double)s[k].at,
               s[k].max_normal, (double)s[k].at_normal, s[k].n_over_half, s[k].n_wrong);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    rt_simd simd[] = {RT_SIMD_BASE, RT_SIMD_AVX2, RT_SIMD_AVX512};
    int n_simd = (int)rt_simd_best() + 1; /* each variant a superset of the one before */
    for (int f = 0; f <= RT_F32_RSQRT; f++) {
        bool wanted = argc == 1;
        for (int a = 1; a < argc; a++)
            wanted |= strcmp(argv[a], sm_ref_names[f]) == 0;
        if (wanted)
            run((rt_f32_fn)f, n_simd, simd);
    }
    return 0;
}
