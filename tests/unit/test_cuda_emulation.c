/*
 * test_cuda_emulation.c: the emulated CUDA device (TL_CUDA_EMULATION) and
 * the conversions the CPU kernels, the CUDA kernels and the emulation share
 * (runtime/kernels/scalar.h).
 *
 * Each test picks its backend by setting TL_CUDA_EMULATION and reinstalling
 * the default backend (cu_backend_use(NULL) reads the variable again).  The
 * emulated device is checked for what a program sees: tensors on "cuda",
 * the caching allocator's blocks, segments and statistics, CUDA's randint
 * streams, out of memory, and the device rules of mixed-device operands
 * (PyTorch's TensorIterator: one CPU 0-dim operand may join a CUDA op, a
 * CUDA 0-dim operand may not join a CPU op, an in-place op's self is an
 * output).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "cuda_rt.h"
#include "kernels.h"
#include "scalar.h"

#define MiB (INT64_C(1) << 20)

static tl_status last_status;
static char last_message[512];

static void on_error(const tl_error *err, void *user)
{
    (void)user;
    last_status = err->status;
    snprintf(last_message, sizeof last_message, "%s", err->message);
}

/* Every storage released, every segment freed, then the backend chosen by
 * TL_CUDA_EMULATION=value (NULL: unset). */
static void use_emulation(const char *value)
{
    rt_reclaim();
    cu_shutdown();
    if (value)
        setenv("TL_CUDA_EMULATION", value, 1);
    else
        unsetenv("TL_CUDA_EMULATION");
    cu_backend_use(NULL);
    tl_set_error_handler(on_error, NULL);
    last_status = TL_OK;
    last_message[0] = 0;
}

static int setup(void **state)
{
    (void)state;
    use_emulation("1");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rt_reclaim();
    cu_empty_cache();
    assert_int_equal(cu_emulation_held(), 0);
    use_emulation(NULL);
    tl_set_error_handler(NULL, NULL);
    return 0;
}

/* ---- choosing the backend ---- */

static void test_choice(void **state)
{
    (void)state;
    use_emulation("1");
    assert_true(tl_device_available(TL_CUDA));
    assert_true(cu_emulated());
    assert_string_equal(cu_backend_asked(), "emulation");

    use_emulation("auto"); /* the built-in backend finds no device here */
    if (cu_backend_builtin()->device_count(&(const char *){NULL}) == 0) {
        assert_true(tl_device_available(TL_CUDA));
        assert_true(cu_emulated());
    } else {
        assert_false(cu_emulated());
    }

    use_emulation("yes");
    assert_false(tl_device_available(TL_CUDA));
    assert_null(tl_zeros(TL_SHAPE(4), TL_F32, TL_CUDA));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_non_null(strstr(last_message, "TL_CUDA_EMULATION is set to something other than"));

    use_emulation("0");
    assert_false(cu_emulated());
    assert_string_equal(cu_backend_current()->name, cu_backend_builtin()->name);
    use_emulation(NULL);
    assert_false(cu_emulated());
    assert_null(cu_backend_asked()); /* nothing asked for a device yet */
}

/* Without the variable and without a GPU, a TL_CUDA tensor is the old clear error. */
static void test_no_device_without_variable(void **state)
{
    (void)state;
    use_emulation(NULL);
    if (tl_device_available(TL_CUDA))
        skip(); /* a GPU is there */
    assert_null(tl_ones(TL_SHAPE(2), TL_F32, TL_CUDA));
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_non_null(strstr(last_message, "needs a CUDA device, and none is usable"));
}

/* ---- the caching allocator on the emulated device ---- */

static void test_allocator(void **state)
{
    (void)state;
    tl_tensor *a = tl_empty(TL_SHAPE(1), TL_U8, TL_CUDA);       /* 512 B block, 2 MiB segment */
    tl_tensor *b = tl_empty(TL_SHAPE(3 * MiB / 2), TL_U8, TL_CUDA); /* large pool: 20 MiB */
    assert_int_equal(tl_device_of(a), TL_CUDA);
    tl_memory_stats s = tl_memory_stats_of(TL_CUDA);
    assert_int_equal(s.allocated_bytes, 512 + 3 * MiB / 2);
    assert_int_equal(s.reserved_bytes, 2 * MiB + 20 * MiB);
    assert_int_equal(s.live_bytes, 1 + 3 * MiB / 2);
    assert_int_equal(cu_emulation_held(), s.reserved_bytes);
    assert_int_equal(cu_segments_held(), 2);
    void *at = b->storage->data;
    tl_release(b);
    tl_tensor *c = tl_empty(TL_SHAPE(3 * MiB / 2), TL_U8, TL_CUDA); /* the freed block again */
    assert_ptr_equal(c->storage->data, at);
    assert_int_equal(tl_memory_stats_of(TL_CUDA).reserved_bytes, 22 * MiB);
    tl_release(a);
    tl_release(c);
    assert_int_equal(tl_memory_stats_of(TL_CUDA).allocated_bytes, 0);
    assert_int_equal(tl_memory_stats_of(TL_CUDA).peak_reserved_bytes, 22 * MiB);
    assert_int_equal(cu_empty_cache(), 2);
    assert_int_equal(cu_emulation_held(), 0);
}

/* More than the host's memory: CUDA's out of memory, and the runtime goes on. */
static void test_out_of_memory(void **state)
{
    (void)state;
    assert_null(tl_empty(TL_SHAPE(INT64_C(1) << 46), TL_U8, TL_CUDA)); /* 64 TiB */
    assert_int_equal(last_status, TL_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(last_message, "CUDA out of memory: tried to allocate 70368744177664"));
    last_status = TL_OK;
    tl_tensor *t = tl_full(TL_SHAPE(3), 2.5, TL_F32, TL_CUDA);
    assert_non_null(t);
    assert_true(tl_get(t, TL_DIMS(2)) == 2.5);
    assert_int_equal(tl_memory_stats_of(TL_CUDA).n_live, 1);
}

/* ---- kernels: the CUDA kernels' results ---- */

/* CUDA's randint: element i from its own stream, one draw per element. */
static void test_randint_streams(void **state)
{
    (void)state;
    tl_manual_seed(42);
    tl_tensor *r = tl_randint(-5, 1000, TL_SHAPE(3, 7), TL_CUDA);
    tl_tensor *again = tl_randint(0, 2, TL_SHAPE(2), TL_CUDA);
    for (int64_t i = 0; i < 21; i++)
        assert_true(tl_get(r, TL_DIMS(i / 7, i % 7)) ==
                    (double)sc_randint_value(42, -5, 1005, i));
    uint64_t next = 42 + 21 * SC_GOLDEN; /* one draw per element of r */
    assert_true(tl_get(again, TL_DIMS(1)) == (double)sc_randint_value(next, 0, 2, 1));
}

/* Copies, casts and arithmetic equal the CPU's bit for bit (the CUDA
 * kernels' contract); the data lives in the caching allocator's blocks. */
static void test_values_match_cpu(void **state)
{
    (void)state;
    tl_manual_seed(7);
    tl_tensor *x = tl_randn(TL_SHAPE(4, 5), TL_F32, TL_CUDA);
    tl_manual_seed(7);
    tl_tensor *xc = tl_randn(TL_SHAPE(4, 5), TL_F32, TL_CPU);
    tl_tensor *h = tl_to(tl_t(x), TL_F16), *hc = tl_to(tl_t(xc), TL_F16);
    tl_tensor *y = tl_add(tl_mul_scalar(h, 3.0), h), *yc = tl_add(tl_mul_scalar(hc, 3.0), hc);
    tl_tensor *back = tl_to_device(y, TL_CPU);
    assert_int_equal(tl_device_of(y), TL_CUDA);
    assert_int_equal(tl_device_of(back), TL_CPU);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            assert_true(tl_get(back, TL_DIMS(i, j)) == tl_get(yc, TL_DIMS(i, j)));
}

/* A row whose sum depends on the order: 2^53, then 1 at position `one`, then
 * -2^53 at `neg`.  Lane l of a group of g threads adds elements l, l + g, ... */
static double row_sum(int64_t rows, int64_t n, int dim, int64_t one, int64_t neg)
{
    tl_tensor *c = tl_zeros(dim == 1 ? TL_SHAPE(rows, n) : TL_SHAPE(n, rows), TL_F64, TL_CPU);
    tl_set(c, TL_DIMS(0, 0), 0x1p53);
    tl_set(c, dim == 1 ? TL_DIMS(0, one) : TL_DIMS(one, 0), 1.0);
    tl_set(c, dim == 1 ? TL_DIMS(0, neg) : TL_DIMS(neg, 0), -0x1p53);
    tl_tensor *s = tl_sum(tl_to_device(c, TL_CUDA), dim, false);
    return tl_get(s, TL_DIMS(0));
}

/* Sums in the GPU's order: a thread per strided row (in order: 2^53 + 1 is
 * 2^53), a warp per row when rows are many, a block for few rows (2^53 and
 * -2^53 meet in one lane first, then the lanes' 1 is kept). */
static void test_sum_order(void **state)
{
    (void)state;
    assert_true(row_sum(1024, 64, 0, 1, 32) == 0.0);   /* 1024 strided rows: one thread each */
    assert_true(row_sum(64, 64, 1, 1, 32) == 1.0);     /* 64 rows: a warp, lanes 0 and 32 meet */
    assert_true(row_sum(1023, 64, 0, 1, 32) == 1.0);   /* 1023 strided rows: a warp each */
    assert_true(row_sum(1, 512, 1, 1, 256) == 1.0);    /* one row: a block of 256 lanes */
    tl_tensor *x = tl_full(TL_SHAPE(3, 5), 0.1, TL_F32, TL_CUDA);
    tl_tensor *m = tl_mean(x, 1, true), *p = tl_softmax(x, 1);
    assert_true(tl_get(m, TL_DIMS(2, 0)) == (double)(float)((float)(0.1f * 5.0) / 5.0f));
    assert_true(fabs(tl_get(p, TL_DIMS(1, 4)) - 0.2) < 1e-7);
}

/* ---- device rules (PyTorch's compute_types), now runnable ---- */

static void test_device_rules(void **state)
{
    (void)state;
    tl_tensor *g = tl_full(TL_SHAPE(3), 1.0, TL_F32, TL_CUDA);
    tl_tensor *c = tl_full(TL_SHAPE(3), 2.0, TL_F32, TL_CPU);
    tl_tensor *c0 = tl_scalar(4.0, TL_F32, TL_CPU), *g0 = tl_scalar(8.0, TL_F32, TL_CUDA);

    tl_tensor *sum = tl_add(g, c0); /* a CPU 0-dim operand joins a CUDA op */
    assert_non_null(sum);
    assert_int_equal(tl_device_of(sum), TL_CUDA);
    assert_true(tl_get(sum, TL_DIMS(2)) == 5.0);
    tl_add_(g, c0); /* in place, the CPU 0-dim operand too */
    assert_int_equal(last_status, TL_OK);
    assert_true(tl_get(g, TL_DIMS(0)) == 5.0);

    assert_null(tl_add(c, g0)); /* a CUDA 0-dim operand may not join a CPU op */
    assert_int_equal(last_status, TL_ERR_DEVICE);
    assert_non_null(strstr(last_message, "Expected all tensors to be on the same device"));
    last_status = TL_OK;
    tl_add_(c, g0); /* nor a CPU in-place op */
    assert_int_equal(last_status, TL_ERR_DEVICE);
    last_status = TL_OK;
    tl_sub_(g, c); /* an in-place op's operand on the other device */
    assert_int_equal(last_status, TL_ERR_DEVICE);
    last_status = TL_OK;
    tl_add_(c, g);
    assert_int_equal(last_status, TL_ERR_DEVICE);
    last_status = TL_OK;
    tl_add_(c0, g0); /* self is an output, never a "CPU scalar" */
    assert_int_equal(last_status, TL_ERR_DEVICE);
    last_status = TL_OK;
    tl_copy_(c, g); /* copy_ crosses devices */
    assert_int_equal(last_status, TL_OK);
    assert_true(tl_get(c, TL_DIMS(1)) == 5.0);
    assert_true(tl_get(g, TL_DIMS(1)) == 5.0); /* the failed calls wrote nothing */
}

/* ---- scalar.h: the shared conversions at their edges ---- */

static void test_scalar_edges(void **state)
{
    (void)state;
    assert_int_equal(sc_f32_bits(sc_f16_to_f32(0x7C01)), 0x7FC02000u); /* sNaN quieted */
    assert_int_equal(sc_f32_bits(sc_f16_to_f32(0xFE00)), 0xFFC00000u);
    assert_true(sc_f16_to_f32(0x0001) == 0x1p-24f);
    assert_true(sc_f16_to_f32(0xFC00) == -INFINITY);
    assert_int_equal(sc_f32_to_f16(65519.0f), 0x7BFF);
    assert_int_equal(sc_f32_to_f16(65520.0f), 0x7C00);       /* rounds to inf */
    assert_int_equal(sc_f32_to_f16(0x1p-25f), 0x0000);       /* a tie: to even */
    assert_int_equal(sc_f32_to_f16(0x1.8p-25f), 0x0001);
    assert_int_equal(sc_f32_to_f16(-NAN), 0xFE00);
    assert_int_equal(sc_f32_to_bf16(NAN), 0x7FC0);
    assert_int_equal(sc_f32_to_bf16(1.00390625f), 0x3F80);   /* 1 + 2^-8: a tie, to even */
    assert_int_equal(sc_trunc_i32(3e9), INT32_MIN);
    assert_int_equal(sc_trunc_i64(NAN), INT64_MIN);
    int8_t i8;
    sc_store_f64(TL_I8, &i8, 300.0);
    assert_int_equal(i8, 44);
    uint8_t u8;
    sc_store_f64(TL_U8, &u8, -1.0);
    assert_int_equal(u8, 255);
}

/* The bulk copy loops (kernel_copy.c) agree with the scalar rule on every f16. */
static void test_bulk_matches_scalar(void **state)
{
    (void)state;
    uint16_t h[65536];
    float f[65536];
    for (int k = 0; k < 65536; k++)
        h[k] = (uint16_t)k;
    mt_layout lh = {.ndim = 1, .shape = {65536}, .strides = {1}, .dtype = TL_F16};
    mt_layout lf = lh;
    lf.dtype = TL_F32;
    rt_copy(&(rt_buf){&lf, f}, &(rt_buf){&lh, h});
    for (int k = 0; k < 65536; k++)
        assert_int_equal(sc_f32_bits(f[k]), sc_f32_bits(sc_f16_to_f32((uint16_t)k)));
    rt_copy(&(rt_buf){&lh, h}, &(rt_buf){&lf, f});
    for (int k = 0; k < 65536; k++)
        assert_int_equal(h[k], sc_f32_to_f16(f[k]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_choice, teardown),
        cmocka_unit_test_teardown(test_no_device_without_variable, teardown),
        cmocka_unit_test_setup_teardown(test_allocator, setup, teardown),
        cmocka_unit_test_setup_teardown(test_out_of_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_randint_streams, setup, teardown),
        cmocka_unit_test_setup_teardown(test_values_match_cpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sum_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_device_rules, setup, teardown),
        cmocka_unit_test(test_scalar_edges),
        cmocka_unit_test(test_bulk_matches_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
