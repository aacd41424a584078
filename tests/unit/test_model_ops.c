/*
 * test_model_ops.c: what the PyTorch fixtures cannot show about the ops for
 * real models, through the public API: a tl_from_blob storage is the
 * caller's memory (0 live bytes, writes land in the caller's buffer, the
 * buffer survives the last release); an out= resize grows the storage in
 * place of the old one, keeps what was there, and earlier views see the
 * growth; tl_copy_to_host writes row-major bytes and refuses a short buffer;
 * the data checks (a NULL host pointer, a mask byte that is not 0 or 1)
 * fail at the call.  Values are PyTorch's (torch 1.13).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <tensorlint/tensor.h>

static void on_error(const tl_error *err, void *user)
{
    (void)err;
    (void)user;
}

static int setup(void **state)
{
    (void)state;
    tl_set_error_handler(on_error, NULL);
    tl_clear_error();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tl_set_error_handler(NULL, NULL);
    return 0;
}

/* from_blob: no bytes counted, the caller's memory read and written in place. */
static void test_from_blob_is_external(void **state)
{
    (void)state;
    float buf[6] = {1, 2, 3, 4, 5, 6};
    int64_t live = tl_memory_stats_of(TL_CPU).live_bytes;
    tl_tensor *t = tl_from_blob(buf, TL_SHAPE(2, 3), TL_F32);
    assert_non_null(t);
    assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, live);
    assert_int_equal(tl_storage_nbytes(t), 24);
    tl_tensor *tt = tl_t(t);
    assert_true(tl_shares_storage(t, tt));
    assert_true(tl_get(tt, TL_SHAPE(2, 1)) == 6.0f);
    tl_mul_scalar_(t, 2.0);
    assert_true(buf[5] == 12.0f); /* written through into the caller's buffer */
    tl_tensor *s = tl_sum(t, 1, false);
    assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, live + 8);
    assert_true(tl_get(s, TL_SHAPE(0)) == 12.0f && tl_get(s, TL_SHAPE(1)) == 30.0f);
    tl_release(s);
    tl_release(tt);
    tl_release(t);
    assert_true(buf[0] == 2.0f); /* never freed: still the caller's */
    assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, live);
}

/* from_data copies: a later change of the host buffer does not reach the tensor. */
static void test_from_data_copies(void **state)
{
    (void)state;
    int64_t buf[3] = {7, -8, 9};
    tl_tensor *t = tl_from_data(buf, TL_SHAPE(3), TL_I64, TL_CPU);
    buf[0] = 0;
    assert_true(tl_get(t, TL_SHAPE(0)) == 7.0 && tl_get(t, TL_SHAPE(1)) == -8.0);
    assert_int_equal(tl_storage_nbytes(t), 24);
    tl_release(t);
}

/* matmul_out into a 4-element out whose view v was taken first: the storage
 * grows to 8 floats (32 B), v shares it and still sees its first 4. */
static void test_out_resize_grows_in_place(void **state)
{
    (void)state;
    float a_data[6] = {1, 2, 3, 4, 5, 6}, b_data[12] = {1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0};
    tl_tensor *a = tl_from_data(a_data, TL_SHAPE(2, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_from_data(b_data, TL_SHAPE(3, 4), TL_F32, TL_CPU);
    tl_tensor *out = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_tensor *v = tl_view(out, TL_SHAPE(2, 2));
    int64_t live = tl_memory_stats_of(TL_CPU).live_bytes;
    tl_clear_error();
    tl_matmul_out(out, a, b);
    assert_int_equal(tl_last_error()->status, TL_OK);
    assert_int_equal(tl_ndim(out), 2);
    assert_int_equal(tl_size(out, 1), 4);
    assert_int_equal(tl_storage_nbytes(out), 32);
    assert_int_equal(tl_storage_nbytes(v), 32);
    assert_true(tl_shares_storage(out, v));
    assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, live + 16);
    /* torch: out = [[1, 2, 2, 1], [4, 5, 5, 4]], and v, its first 4 elements, [[1, 2], [2, 1]] */
    assert_true(tl_get(out, TL_SHAPE(1, 1)) == 5.0f && tl_get(out, TL_SHAPE(1, 3)) == 4.0f);
    assert_true(tl_get(v, TL_SHAPE(1, 0)) == 2.0f && tl_get(v, TL_SHAPE(1, 1)) == 1.0f);
    /* the right shape now: written in place, nothing grows */
    tl_matmul_out(out, a, b);
    assert_int_equal(tl_memory_stats_of(TL_CPU).live_bytes, live + 16);
    tl_release(v);
    tl_release(out);
    tl_release(b);
    tl_release(a);
}

/* An out over a from_blob buffer cannot grow (PyTorch: not resizable). */
static void test_out_over_blob_cannot_grow(void **state)
{
    (void)state;
    float buf[4] = {0};
    tl_tensor *o = tl_from_blob(buf, TL_SHAPE(4), TL_F32);
    tl_tensor *a = tl_ones(TL_SHAPE(2, 3), TL_F32, TL_CPU);
    tl_tensor *b = tl_ones(TL_SHAPE(3, 4), TL_F32, TL_CPU);
    tl_clear_error();
    tl_matmul_out(o, a, b);
    assert_int_equal(tl_last_error()->status, TL_ERR_BAD_ARGUMENT);
    assert_string_equal(tl_last_error()->message, "Trying to resize storage that is not resizable");
    tl_release(b);
    tl_release(a);
    tl_release(o);
}

/* copy_to_host: t.contiguous() bytes, row-major; a short buffer is refused. */
static void test_copy_to_host(void **state)
{
    (void)state;
    float host[6] = {0}, shortbuf[2] = {0};
    tl_tensor *x = tl_arange(6, TL_F32, TL_CPU);
    tl_tensor *m = tl_view(x, TL_SHAPE(2, 3));
    tl_tensor *t = tl_t(m); /* (3, 2): 0 3 1 4 2 5 */
    tl_clear_error();
    tl_copy_to_host(t, host, sizeof host);
    assert_int_equal(tl_last_error()->status, TL_OK);
    const float want[6] = {0, 3, 1, 4, 2, 5};
    assert_memory_equal(host, want, sizeof want);
    tl_clear_error();
    tl_copy_to_host(t, shortbuf, sizeof shortbuf);
    assert_int_equal(tl_last_error()->status, TL_ERR_BAD_ARGUMENT);
    assert_true(shortbuf[0] == 0.0f);
    tl_release(t);
    tl_release(m);
    tl_release(x);
}

/* Data checks: a NULL host pointer with bytes to move; a mask byte of 2. */
static void test_data_checks(void **state)
{
    (void)state;
    tl_clear_error();
    assert_null(tl_from_data(NULL, TL_SHAPE(3), TL_F32, TL_CPU));
    assert_int_equal(tl_last_error()->status, TL_ERR_BAD_ARGUMENT);
    tl_clear_error();
    tl_tensor *empty = tl_from_blob(NULL, TL_SHAPE(0, 3), TL_F32); /* nothing to read */
    assert_non_null(empty);
    tl_release(empty);
    tl_tensor *x = tl_zeros(TL_SHAPE(4), TL_F32, TL_CPU);
    tl_tensor *mask = tl_arange(4, TL_I64, TL_CPU);
    tl_clear_error();
    assert_null(tl_masked_fill(x, mask, 1.0));
    assert_int_equal(tl_last_error()->status, TL_ERR_BAD_ARGUMENT);
    assert_string_equal(tl_last_error()->message, "Mask tensor can take 0 and 1 values only");
    tl_release(mask);
    tl_release(x);
}

/* A causal mask and softmax the way a decoder builds them: masked_fill with
 * -inf, then softmax_out into a preallocated buffer. */
static void test_causal_softmax_out(void **state)
{
    (void)state;
    tl_tensor *idx = tl_arange(3, TL_I64, TL_CPU);
    tl_tensor *row = tl_view(idx, TL_SHAPE(3, 1));
    tl_tensor *col = tl_view(idx, TL_SHAPE(1, 3));
    tl_tensor *future = tl_lt(row, col);
    tl_tensor *scores = tl_zeros(TL_SHAPE(3, 3), TL_F32, TL_CPU);
    tl_tensor *masked = tl_masked_fill(scores, future, -INFINITY);
    tl_tensor *probs = tl_empty(TL_SHAPE(3, 3), TL_F32, TL_CPU);
    tl_clear_error();
    tl_softmax_out(probs, masked, -1);
    assert_int_equal(tl_last_error()->status, TL_OK);
    /* torch: rows [1, 0, 0], [0.5, 0.5, 0], [1/3, 1/3, 1/3] */
    assert_true(tl_get(probs, TL_SHAPE(0, 0)) == 1.0f && tl_get(probs, TL_SHAPE(0, 1)) == 0.0f);
    assert_true(fabs(tl_get(probs, TL_SHAPE(1, 1)) - 0.5) < 1e-7);
    assert_true(fabs(tl_get(probs, TL_SHAPE(2, 2)) - 1.0 / 3) < 1e-7);
    tl_release(probs);
    tl_release(masked);
    tl_release(scores);
    tl_release(future);
    tl_release(col);
    tl_release(row);
    tl_release(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_blob_is_external),
        cmocka_unit_test(test_from_data_copies),
        cmocka_unit_test(test_out_resize_grows_in_place),
        cmocka_unit_test(test_out_over_blob_cannot_grow),
        cmocka_unit_test(test_copy_to_host),
        cmocka_unit_test(test_data_checks),
        cmocka_unit_test(test_causal_softmax_out),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
