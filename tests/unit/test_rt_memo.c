/*
 * test_rt_memo.c: the runtime's per-site memo of the meta functions
 * (runtime/core/rt_memo.c) and its reuse of handle and storage memory
 * never change what a call returns or what it counts.
 *
 * Each case calls one site (one source line, so one memo slot per
 * operand set) with arguments that differ in one field the meta function
 * reads -- shape, strides, dtype, offset, a scalar dim, the storage's size
 * after a resize -- and checks each result against the answer the meta
 * function gives for it alone; a failing call after successes at the
 * same site must still raise with PyTorch's message; and a loop that
 * allocates and frees small tensors must count every allocation and byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <tensorlint/tensor.h>

static tl_status last_status;
static char last_message[512];

static void on_error(const tl_error *err, void *user)
{
    (void)user;
    last_status = err->status;
    strncpy(last_message, err->message, sizeof last_message - 1);
}

/* One site for every call of the loop below: the memo's case. */
static tl_tensor *add_here(tl_tensor *a, tl_tensor *b) { return tl_add(a, b); }

static void test_one_site_many_shapes(void **state)
{
    (void)state;
    tl_tensor *x = tl_ones(TL_SHAPE(4, 6), TL_F32, TL_CPU);
    tl_tensor *row = tl_ones(TL_SHAPE(6), TL_F32, TL_CPU);
    tl_tensor *col = tl_ones(TL_SHAPE(4, 1), TL_F64, TL_CPU);
    tl_tensor *xt = tl_t(x); /* (6, 4), strides (1, 6) */
    for (int round = 0; round < 3; round++) {
        tl_tensor *r1 = add_here(x, row), *r2 = add_here(x, col), *r3 = add_here(xt, xt);
        tl_tensor *r4 = add_here(x, x);
        assert_int_equal(tl_size(r1, 0), 4), assert_int_equal(tl_size(r1, 1), 6);
        assert_int_equal(tl_dtype_of(r1), TL_F32);
        assert_int_equal(tl_dtype_of(r2), TL_F64); /* promoted: another dtype, same shape */
        assert_int_equal(tl_size(r3, 0), 6), assert_int_equal(tl_stride(r3, 0), 1);
        assert_int_equal(tl_stride(r3, 1), 6); /* TensorIterator keeps the transposed layout */
        assert_int_equal(tl_stride(r4, 0), 6), assert_int_equal(tl_stride(r4, 1), 1);
        assert_true(tl_get(r1, TL_SHAPE(3, 5)) == 2.0 && tl_get(r3, TL_SHAPE(5, 3)) == 2.0);
        tl_release(r1), tl_release(r2), tl_release(r3), tl_release(r4);
    }
    tl_release(xt), tl_release(x), tl_release(row), tl_release(col);
}

static tl_tensor *narrow_here(tl_tensor *t, int64_t len) { return tl_narrow(t, 0, 1, len); }

/* Views from one site over one storage: the offset and size follow the call. */
static void test_one_site_views(void **state)
{
    (void)state;
    tl_tensor *x = tl_arange(10, TL_F32, TL_CPU);
    for (int64_t len = 1; len <= 9; len++) {
        tl_tensor *v = narrow_here(x, len);
        assert_int_equal(tl_size(v, 0), len);
        assert_true(tl_get(v, TL_SHAPE(0)) == 1.0 && tl_get(v, TL_SHAPE(len - 1)) == (double)len);
        tl_release(v);
    }
    tl_release(x);
}

/* A call that fails after the same site succeeded raises PyTorch's message. */
static void test_failure_after_success(void **state)
{
    (void)state;
    tl_tensor *a = tl_ones(TL_SHAPE(3), TL_F32, TL_CPU), *b = tl_ones(TL_SHAPE(3), TL_F32, TL_CPU);
    tl_tensor *c = tl_ones(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_set_error_handler(on_error, NULL);
    for (int k = 0; k < 3; k++) {
        tl_tensor *ok = add_here(a, b);
        last_status = TL_OK;
        tl_tensor *bad = add_here(a, c);
        assert_non_null(ok);
        assert_null(bad);
        assert_int_equal(last_status, TL_ERR_SHAPE_MISMATCH);
        assert_non_null(strstr(last_message, "The size of tensor a (3) must match the size of "
                                             "tensor b (4) at non-singleton dimension 0"));
        tl_release(ok);
    }
    tl_set_error_handler(NULL, NULL);
    tl_release(a), tl_release(b), tl_release(c);
}

static void matmul_out_here(tl_tensor *out, tl_tensor *a, tl_tensor *b) { tl_matmul_out(out, a, b); }

/* out= at one site: the first call resizes out (its storage grows), the
 * second, equal but for out's new layout and storage, must not. */
static void test_out_resized(void **state)
{
    (void)state;
    tl_tensor *a = tl_ones(TL_SHAPE(3, 5), TL_F32, TL_CPU), *b = tl_ones(TL_SHAPE(5, 2), TL_F32, TL_CPU);
    tl_tensor *out = tl_empty(TL_SHAPE(0), TL_F32, TL_CPU);
    tl_memory_stats s0 = tl_memory_stats_of(TL_CPU);
    for (int k = 0; k < 3; k++) {
        matmul_out_here(out, a, b);
        assert_int_equal(tl_size(out, 0), 3), assert_int_equal(tl_size(out, 1), 2);
        assert_true(tl_get(out, TL_SHAPE(2, 1)) == 5.0);
        assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, s0.live_bytes + 6 * 4);
    }
    assert_int_equal(tl_memory_stats_of(TL_CPU).n_allocs, s0.n_allocs); /* grown, not allocated */
    tl_release(a), tl_release(b), tl_release(out);
}

/* Reused memory underneath: every storage is still counted as allocated,
 * live until released, and in the peak; a released handle stays released. */
static void test_small_loop_accounting(void **state)
{
    (void)state;
    tl_tensor *a = tl_ones(TL_SHAPE(288), TL_F32, TL_CPU), *b = tl_ones(TL_SHAPE(288), TL_F32, TL_CPU);
    tl_reset_peak(TL_CPU);
    tl_memory_stats s0 = tl_memory_stats_of(TL_CPU);
    for (int k = 0; k < 1000; k++) {
        tl_tensor *c = add_here(a, b);
        tl_tensor *d = add_here(c, a);
        assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, s0.live_bytes + 2 * 288 * 4);
        tl_release(c), tl_release(d);
    }
    tl_memory_stats s1 = tl_memory_stats_of(TL_CPU);
    assert_int_equal(s1.n_allocs - s0.n_allocs, 2000);
    assert_int_equal(s1.live_bytes, s0.live_bytes);
    assert_int_equal(s1.n_live, s0.n_live);
    assert_int_equal(s1.peak_bytes, s0.live_bytes + 2 * 288 * 4);
    tl_tensor *gone = add_here(a, b);
    tl_release(gone);
    tl_set_error_handler(on_error, NULL);
    last_status = TL_OK;
    tl_tensor *again = add_here(gone, b);
    assert_null(again);
    assert_int_equal(last_status, TL_ERR_RELEASED);
    tl_set_error_handler(NULL, NULL);
    tl_release(a), tl_release(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_site_many_shapes),
        cmocka_unit_test(test_one_site_views),
        cmocka_unit_test(test_failure_after_success),
        cmocka_unit_test(test_out_resized),
        cmocka_unit_test(test_small_loop_accounting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
