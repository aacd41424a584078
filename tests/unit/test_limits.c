/*
 * test_limits.c: sizes, strides, offsets and byte counts at the edge of 64
 * bits.  Every expected answer was printed by torch 1.13 (shapes on the
 * meta device) unless a comment says why tensorlint differs; the same
 * errors must come out of the runtime (tl_*_at with a handler) as out of
 * mt_run, since both run the one rule.  Runs under UBSan: a wrapped
 * product anywhere in rules/ fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "meta.h"

#define P62 (INT64_C(1) << 62)
#define P61 (INT64_C(1) << 61)
#define P40 (INT64_C(1) << 40)

static mt_layout dense(tl_ints shape, tl_dtype dt)
{
    mt_layout l;
    memset(&l, 0, sizeof l);
    l.ndim = shape.n;
    memcpy(l.shape, shape.v, sizeof l.shape);
    mt_contiguous_strides(l.ndim, l.shape, l.strides);
    l.dtype = dt;
    l.storage_nbytes = mt_nbytes(&l);
    return l;
}

static mt_call call(mt_op op, const mt_layout *a, const mt_layout *b)
{
    mt_call c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.in[0] = a;
    c.in[1] = b;
    c.n_in = b ? 2 : (a ? 1 : 0);
    c.dtype = TL_F32;
    return c;
}

static void expect_error(const mt_call *c, tl_status st, const char *msg)
{
    mt_result r;
    assert_int_equal(mt_run(c, &r), st);
    assert_non_null(strstr(r.msg, msg));
}

static mt_result expect_ok(const mt_call *c)
{
    mt_result r;
    tl_status st = mt_run(c, &r);
    if (st != TL_OK)
        fail_msg("%s", r.msg);
    assert_true(mt_layout_valid(&r.out));
    return r;
}

/* torch.empty(1).expand(2**62, 2**62): numel: integer multiplication overflow. */
static void test_expand_numel(void **state)
{
    (void)state;
    mt_layout x = dense((tl_ints){1, {1}}, TL_F32);
    mt_call c = call(MT_OP_expand, &x, NULL);
    c.s[0] = (tl_ints){2, {P62, P62}};
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "numel: integer multiplication overflow");
    c.s[0] = (tl_ints){2, {P61, 4}}; /* 2^63 elements: one past INT64_MAX */
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "numel: integer multiplication overflow");
    c.s[0] = (tl_ints){3, {0, P62, P62}}; /* torch multiplies left to right: 0 first is fine */
    mt_result r = expect_ok(&c);
    assert_int_equal(r.out.strides[0], 0);
    assert_int_equal(r.out.strides[1], 0);
    mt_layout z = dense((tl_ints){2, {1, 0}}, TL_F32); /* torch.empty(1, 0).expand(2**62, 0) */
    c = call(MT_OP_expand, &z, NULL);
    c.s[0] = (tl_ints){2, {P62, 0}};
    r = expect_ok(&c);
    assert_int_equal(r.out.shape[0], P62);
    assert_int_equal(r.out.strides[0], 0);
}

/* A view torch accepts whose bytes exceed 2^63-1: tensorlint stops there
 * (torch stops at the first op that reads it, which tensorlint could not count). */
static void test_view_bytes(void **state)
{
    (void)state;
    mt_layout x = dense((tl_ints){1, {1}}, TL_F32);
    mt_call c = call(MT_OP_expand, &x, NULL);
    c.s[0] = (tl_ints){2, {P61, 2}}; /* 2^62 elements of 4 bytes */
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "more than 2^63-1 bytes");
    c.s[0] = (tl_ints){2, {INT64_C(1) << 60, 1}}; /* 2^62 bytes: fits */
    expect_ok(&c);
}

/* torch.empty(sizes, device='meta'): Storage size calculation overflowed. */
static void test_create(void **state)
{
    (void)state;
    mt_call c = call(MT_OP_empty, NULL, NULL);
    c.s[0] = (tl_ints){3, {P62, P62, 0}};
    expect_error(&c, TL_ERR_OUT_OF_MEMORY,
                 "Storage size calculation overflowed with sizes=[4611686018427387904, "
                 "4611686018427387904, 0]");
    c.s[0] = (tl_ints){1, {P61}}; /* 2^63 bytes of f32 */
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed");
    c.s[0] = (tl_ints){2, {P61, 0}}; /* numel first, then bytes: 0 */
    expect_ok(&c);
    /* torch.empty(0, 2**62, 2**62): strides (0, 2**62, 1), the first wrapped as torch wraps it */
    c.s[0] = (tl_ints){3, {0, P62, P62}};
    mt_result r = expect_ok(&c);
    assert_int_equal(r.out.strides[0], 0);
    assert_int_equal(r.out.strides[1], P62);
    assert_int_equal(r.out.strides[2], 1);
    assert_int_equal(r.alloc_nbytes, 0);
    c.s[0] = (tl_ints){1, {INT64_MAX}}; /* torch.empty(2**63-1, dtype=int8): fits */
    c.dtype = TL_I8;
    r = expect_ok(&c);
    assert_int_equal(r.alloc_nbytes, INT64_MAX);
    c.op = MT_OP_arange; /* torch.arange(2**62, dtype=float32, device='meta') */
    c.dtype = TL_F32;
    c.i[0] = P62;
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed");
}

/* Slices with extreme bounds and steps. */
static void test_slice(void **state)
{
    (void)state;
    mt_layout y = dense((tl_ints){1, {10}}, TL_F32);
    mt_call c = call(MT_OP_slice, &y, NULL);
    /* y[0:10:2**63-1] is element 0 alone.  torch 1.13 computes (len + step - 1)
     * / step in int64, which wraps, and answers shape (0,); tensorlint answers
     * Python's (list(range(10))[::2**63-1] == [0]). */
    c.i[0] = 0, c.i[1] = 0, c.i[2] = INT64_MAX, c.i[3] = INT64_MAX;
    mt_result r = expect_ok(&c);
    assert_int_equal(r.out.shape[0], 1);
    assert_int_equal(r.out.strides[0], INT64_MAX);
    /* y[3:2**63-1:2**62]: shape (1,), stride 2**62, offset 3 */
    c.i[1] = 3, c.i[3] = P62;
    r = expect_ok(&c);
    assert_int_equal(r.out.shape[0], 1);
    assert_int_equal(r.out.strides[0], P62);
    assert_int_equal(r.out.offset, 3);
    /* y[2**62:]: shape (0,), offset 10; y[-2**63:] clamps to the start */
    c.i[1] = P62, c.i[3] = 1;
    r = expect_ok(&c);
    assert_int_equal(r.out.shape[0], 0);
    assert_int_equal(r.out.offset, 10);
    c.i[1] = INT64_MIN;
    r = expect_ok(&c);
    assert_int_equal(r.out.shape[0], 10);
    /* torch.empty(10, 4)[0:2**63-1:2**62]: shape (1, 4), stride 4 x 2**62 wraps to 0 as torch's */
    mt_layout w = dense((tl_ints){2, {10, 4}}, TL_F32);
    c = call(MT_OP_slice, &w, NULL);
    c.i[0] = 0, c.i[1] = 0, c.i[2] = INT64_MAX, c.i[3] = P62;
    r = expect_ok(&c);
    assert_int_equal(r.out.shape[0], 1);
    assert_int_equal(r.out.strides[0], 0);
    /* narrow with length near 2^63 */
    c = call(MT_OP_narrow, &w, NULL);
    c.i[0] = 0, c.i[1] = 1, c.i[2] = INT64_MAX;
    expect_error(&c, TL_ERR_BAD_DIM, "exceeds dimension size");
    c.i[1] = INT64_MIN, c.i[2] = 1;
    expect_error(&c, TL_ERR_BAD_DIM, "start out of range");
}

/* Strides near 2^63 reach past what 64 bits count. */
static void test_as_strided(void **state)
{
    (void)state;
    mt_layout x = dense((tl_ints){2, {2, 2}}, TL_F32);
    mt_call c = call(MT_OP_as_strided, &x, NULL);
    c.s[0] = (tl_ints){2, {2, 2}};
    c.s[1] = (tl_ints){2, {P62, P62}};
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed with sizes=[2, 2] "
                 "and strides=[4611686018427387904, 4611686018427387904]");
    c.s[0] = (tl_ints){2, {P62, P62}};
    c.s[1] = (tl_ints){2, {0, 0}};
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "numel: integer multiplication overflow");
    /* torch 1.13 accepts offset 2**62 here: (2**62 + 4) x 4 bytes wraps to 12; not a storage of 16 */
    c.s[0] = (tl_ints){2, {2, 2}};
    c.s[1] = (tl_ints){2, {1, 1}};
    c.i[0] = P62;
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed");
    c.i[0] = INT64_MAX;
    c.s[1] = (tl_ints){2, {INT64_MAX, INT64_MAX}};
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed");
}

/* Results whose shape is fine but whose bytes are not. */
static void test_compute(void **state)
{
    (void)state;
    mt_layout one = dense((tl_ints){2, {1, 1}}, TL_F32);
    mt_call c = call(MT_OP_expand, &one, NULL);
    c.s[0] = (tl_ints){2, {P40, 1}};
    mt_layout a = expect_ok(&c).out;
    c.s[0] = (tl_ints){2, {1, P40}};
    mt_layout b = expect_ok(&c).out;
    /* torch.empty(1).expand(2**40,1) + torch.empty(1).expand(1,2**40) */
    c = call(MT_OP_add, &a, &b);
    expect_error(&c, TL_ERR_OUT_OF_MEMORY,
                 "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]");
    /* sum of a 2^62-element bool tensor into i64 keeps 2^62 elements of 8 bytes */
    mt_layout big = dense((tl_ints){2, {P62, 1}}, TL_BOOL);
    c = call(MT_OP_sum, &big, NULL);
    c.i[0] = 1, c.b = true;
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "Storage size calculation overflowed");
    /* conv2d padding 2**62: torch prints a wrapped negative size; tensorlint says it overflows */
    mt_layout x = dense((tl_ints){4, {1, 1, 4, 4}}, TL_F32);
    mt_layout w = dense((tl_ints){4, {1, 1, 1, 1}}, TL_F32);
    c = call(MT_OP_conv2d, &x, &w);
    c.i[0] = 1, c.i[1] = P62;
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "conv2d: the input padded by 4611686018427387904");
    c.i[0] = P62, c.i[1] = 0; /* stride 2**62: (1, 1, 1, 1) */
    assert_int_equal(expect_ok(&c).out.shape[2], 1);
}

/* matmul of a k = 0 operand: torch's message flattens a, (6x0), with no division by 0
 * (found by fuzz_rules). */
static void test_matmul_empty(void **state)
{
    (void)state;
    mt_layout a = dense((tl_ints){3, {2, 3, 0}}, TL_F32);
    mt_layout b = dense((tl_ints){2, {4, 5}}, TL_F32);
    mt_call c = call(MT_OP_matmul, &a, &b);
    expect_error(&c, TL_ERR_SHAPE_MISMATCH, "mat1 and mat2 shapes cannot be multiplied (6x0 and 4x5)");
}

/* cat whose sizes add up past 2^63 (views of one storage, so torch could hold them):
 * torch 1.13 wraps the sum and reports "negative dimension -4611686018427387904". */
static void test_cat(void **state)
{
    (void)state;
    mt_layout one = dense((tl_ints){1, {1}}, TL_I8);
    mt_call c = call(MT_OP_expand, &one, NULL);
    c.s[0] = (tl_ints){1, {P62}};
    mt_layout e = expect_ok(&c).out;
    c = call(MT_OP_cat, &e, &e);
    c.n_in = 3;
    c.in[2] = &e;
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "torch.cat(): the sizes of dimension 0");
}

/* view's message holds 8 twenty-digit sizes without overrunning its buffer. */
static void test_view_message(void **state)
{
    (void)state;
    mt_layout x = dense((tl_ints){1, {4}}, TL_F32);
    mt_call c = call(MT_OP_view, &x, NULL);
    int64_t e18 = INT64_C(1000000000000000000);
    c.s[0] = (tl_ints){8, {e18, 0, e18, e18, e18, e18, e18, e18}};
    expect_error(&c, TL_ERR_SHAPE_MISMATCH, "shape '[1000000000000000000, 0, 1000000000000000000");
    c.s[0] = (tl_ints){2, {P62, P62}}; /* torch: shape '[..]' is invalid for input of size 4 */
    expect_error(&c, TL_ERR_SHAPE_MISMATCH, "is invalid for input of size 4");
    c.s[0] = (tl_ints){3, {P62, P62, -1}};
    expect_error(&c, TL_ERR_SHAPE_MISMATCH, "is invalid for input of size 4");
    /* torch.empty(0).view(2**62, 2**62, 0) overflows numel left to right;
     * .view(0, 2**62, 2**62) is fine, strides (0, 2**62, 1) */
    mt_layout z = dense((tl_ints){1, {0}}, TL_F32);
    c = call(MT_OP_view, &z, NULL);
    c.s[0] = (tl_ints){3, {P62, P62, 0}};
    expect_error(&c, TL_ERR_OUT_OF_MEMORY, "numel: integer multiplication overflow");
    c.s[0] = (tl_ints){3, {0, P62, P62}};
    mt_result r = expect_ok(&c);
    assert_int_equal(r.out.strides[0], 0);
    assert_int_equal(r.out.strides[1], P62);
}

/* mt_run refuses operands that are not valid layouts instead of computing with them. */
static void test_invalid_operand(void **state)
{
    (void)state;
    mt_layout x = dense((tl_ints){2, {2, 2}}, TL_F32);
    x.shape[0] = P62, x.shape[1] = P62;
    mt_call c = call(MT_OP_clone, &x, NULL);
    expect_error(&c, TL_ERR_BAD_ARGUMENT, "operand 0 is not a valid layout");
    x = dense((tl_ints){1, {4}}, TL_F32);
    x.offset = -1;
    expect_error(&c, TL_ERR_BAD_ARGUMENT, "operand 0 is not a valid layout");
    x.offset = 0, x.ndim = 9;
    expect_error(&c, TL_ERR_BAD_ARGUMENT, "operand 0 is not a valid layout");
    x = dense((tl_ints){1, {4}}, TL_F32);
    c = call(MT_OP_view, &x, NULL);
    c.s[0].n = 9;
    expect_error(&c, TL_ERR_BAD_ARGUMENT, "a tl_ints holds 0 to 8 values, not 9");
}

static tl_status last_status;
static char last_msg[256];

static void on_error(const tl_error *err, void *user)
{
    (void)user;
    last_status = err->status;
    snprintf(last_msg, sizeof last_msg, "%s", err->message ? err->message : "");
}

/* The runtime raises the same errors at the call, through the same rule. */
static void test_runtime(void **state)
{
    (void)state;
    tl_set_error_handler(on_error, NULL);
    tl_tensor *x = tl_zeros(TL_SHAPE(1), TL_F32, TL_CPU);
    assert_non_null(x);
    assert_null(tl_expand(x, TL_SHAPE(P62, P62)));
    assert_int_equal(last_status, TL_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(last_msg, "numel: integer multiplication overflow"));
    assert_null(tl_zeros(TL_SHAPE(P40, INT64_C(1) << 30), TL_F32, TL_CPU));
    assert_int_equal(last_status, TL_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(last_msg, "Storage size calculation overflowed"));
    tl_tensor *s = tl_slice(x, 0, 0, TL_END, INT64_MAX);
    assert_non_null(s);
    assert_int_equal(tl_size(s, 0), 1);
    tl_release(s);
    tl_release(x);
    tl_set_error_handler(NULL, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expand_numel), cmocka_unit_test(test_view_bytes),
        cmocka_unit_test(test_create),       cmocka_unit_test(test_slice),
        cmocka_unit_test(test_as_strided),   cmocka_unit_test(test_compute),
        cmocka_unit_test(test_cat),          cmocka_unit_test(test_matmul_empty),          cmocka_unit_test(test_view_message),
        cmocka_unit_test(test_invalid_operand), cmocka_unit_test(test_runtime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
