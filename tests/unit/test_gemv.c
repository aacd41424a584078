/*
 * test_gemv.c: rt_f32_gemv (kernel_gemv.c, simd_dot.h) on every instruction
 * set the CPU has, against the order its comment promises, computed here
 * one scalar at a time: a row's product is VF_LANES running sums fed in
 * the order of k (fused multiply-adds on AVX2 and AVX-512, a product then
 * a sum on the baseline), the lanes summed by halving, the tail added one
 * by one; a column product is y[j] = 0, then one multiply-add per row, rows
 * in order.  Bit-for-bit equality, for matrices small enough for one thread
 * and large enough for the pool (kernel_parallel.c), strided x and y, and
 * sizes with and without a tail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static int lanes_of(rt_simd s) { return s == RT_SIMD_AVX512 ? 16 : s == RT_SIMD_AVX2 ? 8 : 4; }

static float madd(float a, float b, float c, bool fused) { return fused ? fmaf(a, b, c) : a * b + c; }

/* The promised order of one row's product. */
static float ref_dot(const float *w, const float *x, int64_t n, int lanes, bool fused)
{
    float acc[16] = {0};
    int64_t nv = n - n % lanes;
    for (int64_t k = 0; k < nv; k += lanes)
        for (int l = 0; l < lanes; l++)
            acc[l] = madd(w[k + l], x[k + l], acc[l], fused);
    for (int h = lanes / 2; h >= 1; h /= 2)
        for (int i = 0; i < h; i++)
            acc[i] = acc[i + h] + acc[i];
    float s = acc[0];
    for (int64_t k = nv; k < n; k++)
        s = madd(w[k], x[k], s, fused);
    return s;
}

static float *values(int64_t n, unsigned seed)
{
    float *v = malloc(sizeof *v * (size_t)n);
    assert_non_null(v);
    for (int64_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = (float)((seed >> 8) / 16777216.0 - 0.5);
    }
    return v;
}

/* y = M x and y = M^T x for one size, strides incx and incy, on simd s. */
static void check_size(rt_simd s, int64_t rows, int64_t cols, int64_t incx, int64_t incy)
{
    int lanes = lanes_of(s);
    bool fused = s != RT_SIMD_BASE;
    int64_t ld = cols + 3, nx = rows > cols ? rows : cols;
    float *m = values(rows * ld, 7), *x = values(nx * incx, 11);
    float *y = calloc((size_t)(nx * incy), sizeof *y), *xd = malloc(sizeof *xd * (size_t)nx);
    assert_non_null(y);
    assert_non_null(xd);
    rt_simd_use(s);
    for (int64_t k = 0; k < nx; k++)
        xd[k] = x[k * incx];
    assert_true(rt_f32_gemv(m, rows, cols, ld, false, x, incx, y, incy));
    for (int64_t r = 0; r < rows; r++)
        assert_true(y[r * incy] == ref_dot(m + r * ld, xd, cols, lanes, fused));
    if (incy == 1) {
        assert_true(rt_f32_gemv(m, rows, cols, ld, true, x, incx, y, 1));
        for (int64_t j = 0; j < cols; j++) {
            float want = 0.0f;
            for (int64_t r = 0; r < rows; r++)
                want = madd(xd[r], m[r * ld + j], want, fused);
            assert_true(y[j] == want);
        }
    }
    free(m), free(x), free(y), free(xd);
}

static void test_orders(void **state)
{
    (void)state;
    static const int64_t sizes[][2] = {{1, 1}, {3, 5}, {7, 16}, {9, 33}, {288, 288},
                                       {768, 288}, {288, 768}, {1000, 48}, {5, 4099}};
    for (int s = RT_SIMD_BASE; s <= (int)rt_simd_best(); s++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            check_size((rt_simd)s, sizes[k][0], sizes[k][1], 1, 1);
            check_size((rt_simd)s, sizes[k][0], sizes[k][1], 3, 2);
        }
    rt_simd_use(rt_simd_best());
}

/* Many loops in a row on the pool: every block of every loop is run once. */
typedef struct count_ctx {
    int64_t *hits;
} count_ctx;

static void count_range(void *ctx, int64_t begin, int64_t end)
{
    count_ctx *c = ctx;
    for (int64_t i = begin; i < end; i++)
        c->hits[i]++;
}

static void test_pool(void **state)
{
    (void)state;
    int64_t n = 10007, *hits = calloc((size_t)n, sizeof *hits);
    assert_non_null(hits);
    count_ctx c = {hits};
    for (int round = 0; round < 2000; round++)
        rt_parallel_for(n, 1, count_range, &c);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(hits[i], 2000);
    free(hits);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
