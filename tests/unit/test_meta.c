/*
 * test_meta.c: the layout algebra against hand-checked PyTorch answers:
 * PyTorch's computeStride, the TensorIterator layout rule,
 * preserve_format, the seed worksheet's Block 1-3 at full size, and Lab 1.
 * Every expected number here was printed by torch 1.13.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "meta.h"

static mt_layout dense(tl_ints shape, tl_dtype dt, tl_device dev)
{
    mt_layout l;
    memset(&l, 0, sizeof l);
    l.ndim = shape.n;
    memcpy(l.shape, shape.v, sizeof l.shape);
    mt_contiguous_strides(l.ndim, l.shape, l.strides);
    l.dtype = dt;
    l.device = dev;
    l.storage_nbytes = mt_nbytes(&l);
    return l;
}

/* Runs op on one or two layouts with integer args and one tl_ints. */
static mt_result run(mt_op op, const mt_layout *a, const mt_layout *b, tl_ints s, int64_t i0,
                     int64_t i1)
{
    mt_call c;
    mt_result r;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.in[0] = a;
    c.in[1] = b;
    c.n_in = b ? 2 : (a ? 1 : 0);
    c.s[0] = s;
    c.i[0] = i0;
    c.i[1] = i1;
    mt_run(&c, &r);
    return r;
}

static void expect_strides(const mt_result *r, tl_ints st)
{
    assert_int_equal(r->status, TL_OK);
    assert_int_equal(r->out.ndim, st.n);
    for (int d = 0; d < st.n; d++)
        assert_int_equal(r->out.strides[d], st.v[d]);
}

static void test_compute_stride(void **state)
{
    (void)state;
    int64_t out[8];
    /* x(4,6).T reshape(24): no view */
    assert_false(mt_compute_stride(2, (int64_t[]){6, 4}, (int64_t[]){1, 6}, 1, (int64_t[]){24}, out));
    /* (6,4;1,6) -> (6,2,2): view (1,12,6) */
    assert_true(mt_compute_stride(2, (int64_t[]){6, 4}, (int64_t[]){1, 6}, 3, (int64_t[]){6, 2, 2}, out));
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 12);
    assert_int_equal(out[2], 6);
    /* x[:, :3] = (4,3;6,1) -> 12: no view */
    assert_false(mt_compute_stride(2, (int64_t[]){4, 3}, (int64_t[]){6, 1}, 1, (int64_t[]){12}, out));
    /* (4,1,6;6,99,1) -> 24: size-1 dims are transparent */
    assert_true(mt_compute_stride(3, (int64_t[]){4, 1, 6}, (int64_t[]){6, 99, 1}, 1, (int64_t[]){24}, out));
    assert_int_equal(out[0], 1);
    /* expand (3,4;1,0) -> view(3,2,2): (1,0,0) */
    assert_true(mt_compute_stride(2, (int64_t[]){3, 4}, (int64_t[]){1, 0}, 3, (int64_t[]){3, 2, 2}, out));
    assert_int_equal(out[1], 0);
    assert_int_equal(out[2], 0);
}

/* Lab 1: t = arange(24).reshape(2,3,4) and its views. */
static void test_lab1(void **state)
{
    (void)state;
    mt_layout t = dense(TL_SHAPE(2, 3, 4), TL_F32, TL_CPU);
    mt_result r = run(MT_OP_transpose, &t, NULL, TL_SHAPE0, 0, 1);
    expect_strides(&r, TL_SHAPE(4, 12, 1));
    r = run(MT_OP_slice, &t, NULL, TL_SHAPE0, 1, 1);
    mt_call c = {.op = MT_OP_slice, .n_in = 1, .in = {&t}, .i = {1, 1, TL_END, 1}};
    mt_run(&c, &r);
    expect_strides(&r, TL_SHAPE(12, 4, 1));
    assert_int_equal(r.out.offset, 4);
    c = (mt_call){.op = MT_OP_slice, .n_in = 1, .in = {&t}, .i = {2, 0, TL_END, 2}};
    mt_run(&c, &r);
    expect_strides(&r, TL_SHAPE(12, 4, 2));
    r = run(MT_OP_flatten, &t, NULL, TL_SHAPE0, 0, -1);
    assert_int_equal(r.kind, MT_KIND_VIEW);
    mt_layout tt = run(MT_OP_transpose, &t, NULL, TL_SHAPE0, 0, 1).out;
    r = run(MT_OP_flatten, &tt, NULL, TL_SHAPE0, 0, -1);
    assert_int_equal(r.kind, MT_KIND_NEW); /* the surprise: a new buffer */
    assert_int_equal(r.alloc_nbytes, 96);
    r = run(MT_OP_contiguous, &t, NULL, TL_SHAPE0, 0, 0);
    assert_int_equal(r.kind, MT_KIND_VIEW);
}

/* Worksheet Block 1 at full size on CUDA. */
static void test_block1(void **state)
{
    (void)state;
    mt_layout x = dense(TL_SHAPE(16, 1024, 4096), TL_F16, TL_CUDA);
    assert_int_equal(mt_nbytes(&x), 134217728);
    mt_layout a = run(MT_OP_transpose, &x, NULL, TL_SHAPE0, 1, 2).out;
    mt_result rb = run(MT_OP_contiguous, &a, NULL, TL_SHAPE0, 0, 0);
    assert_int_equal(rb.kind, MT_KIND_NEW);
    assert_int_equal(rb.alloc_nbytes, 134217728);
    mt_result rc = run(MT_OP_reshape, &rb.out, NULL, TL_SHAPE(16 * 4096, 1024), 0, 0);
    assert_int_equal(rc.kind, MT_KIND_VIEW);
    mt_call cd = {.op = MT_OP_to, .n_in = 1, .in = {&rc.out}, .dtype = TL_F32};
    mt_result rd;
    mt_run(&cd, &rd);
    assert_int_equal(rd.alloc_nbytes, 268435456);
    assert_int_equal(rd.read_bytes + rd.written_bytes, 402653184); /* 384 MiB moved */
    mt_call ce = {.op = MT_OP_slice, .n_in = 1, .in = {&rd.out}, .i = {1, 0, 512, 1}};
    mt_result re;
    mt_run(&ce, &re);
    assert_int_equal(re.kind, MT_KIND_VIEW);
    expect_strides(&re, TL_SHAPE(1024, 1));
    mt_result rf = run(MT_OP_clone, &re.out, NULL, TL_SHAPE0, 0, 0);
    assert_int_equal(rf.alloc_nbytes, 134217728);
    expect_strides(&rf, TL_SHAPE(512, 1));
}

/* Block 2: q = reshape of a permuted view copies 64 KiB. */
static void test_block2(void **state)
{
    (void)state;
    mt_layout w = dense(TL_SHAPE(4096, 4096), TL_BF16, TL_CUDA);
    mt_layout h = dense(TL_SHAPE(8, 4096), TL_BF16, TL_CUDA);
    mt_result wt = run(MT_OP_t, &w, NULL, TL_SHAPE0, 0, 0);
    assert_int_equal(wt.kind, MT_KIND_VIEW);
    mt_result y = run(MT_OP_matmul, &h, &wt.out, TL_SHAPE0, 0, 0);
    assert_int_equal(y.alloc_nbytes, 65536);
    mt_result z = run(MT_OP_view, &y.out, NULL, TL_SHAPE(2, 4, 4096), 0, 0);
    assert_int_equal(z.kind, MT_KIND_VIEW);
    mt_result p = run(MT_OP_permute, &z.out, NULL, TL_SHAPE(1, 0, 2), 0, 0);
    expect_strides(&p, TL_SHAPE(4096, 16384, 1));
    mt_result q = run(MT_OP_reshape, &p.out, NULL, TL_SHAPE(4, 8192), 0, 0);
    assert_int_equal(q.kind, MT_KIND_NEW);
    assert_int_equal(q.alloc_nbytes, 65536);
    assert_non_null(strstr(q.msg, "do not merge"));
}

/* Block 3: gather allocates 64 MiB; the f32 cast 128 MiB. */
static void test_block3(void **state)
{
    (void)state;
    mt_layout ids = dense(TL_SHAPE(4, 2048), TL_I64, TL_CUDA);
    mt_layout emb = dense(TL_SHAPE(32000, 4096), TL_BF16, TL_CUDA);
    assert_int_equal(mt_nbytes(&emb), 262144000);
    mt_result h = run(MT_OP_index, &emb, &ids, TL_SHAPE0, 0, 0);
    assert_int_equal(h.kind, MT_KIND_NEW);
    assert_int_equal(h.alloc_nbytes, 67108864);
    mt_call cf = {.op = MT_OP_to, .n_in = 1, .in = {&h.out}, .dtype = TL_F32};
    mt_result f;
    mt_run(&cf, &f);
    assert_int_equal(f.alloc_nbytes, 134217728);
}

/* TensorIterator: a + b follows the first full-size operand's permutation. */
static void test_iter_layout(void **state)
{
    (void)state;
    mt_layout base = dense(TL_SHAPE(2, 3, 4), TL_F32, TL_CPU);
    mt_layout a = run(MT_OP_permute, &base, NULL, TL_SHAPE(2, 0, 1), 0, 0).out;
    mt_layout b = dense(TL_SHAPE(4, 2, 3), TL_F32, TL_CPU);
    expect_strides((mt_result[]){run(MT_OP_add, &a, &b, TL_SHAPE0, 0, 0)}, TL_SHAPE(1, 12, 4));
    expect_strides((mt_result[]){run(MT_OP_add, &b, &a, TL_SHAPE0, 0, 0)}, TL_SHAPE(6, 3, 1));
    mt_layout bias = dense(TL_SHAPE(3), TL_F32, TL_CPU);
    expect_strides((mt_result[]){run(MT_OP_add, &bias, &a, TL_SHAPE0, 0, 0)}, TL_SHAPE(1, 12, 4));
}

static void test_errors(void **state)
{
    (void)state;
    mt_layout x = dense(TL_SHAPE(2, 3, 4), TL_F32, TL_CPU);
    mt_layout p = run(MT_OP_permute, &x, NULL, TL_SHAPE(2, 0, 1), 0, 0).out;
    assert_int_equal(run(MT_OP_view, &p, NULL, TL_SHAPE(24), 0, 0).status, TL_ERR_INVALID_VIEW);
    assert_int_equal(run(MT_OP_view, &x, NULL, TL_SHAPE(5, 5), 0, 0).status, TL_ERR_SHAPE_MISMATCH);
    assert_int_equal(run(MT_OP_transpose, &x, NULL, TL_SHAPE0, 0, 3).status, TL_ERR_BAD_DIM);
    mt_layout e = run(MT_OP_expand, &x, NULL, TL_SHAPE(2, 2, 3, 4), 0, 0).out;
    assert_int_equal(run(MT_OP_add_, &e, &x, TL_SHAPE0, 0, 0).status, TL_ERR_OVERLAPPING_WRITE);
    mt_layout big = dense(TL_SHAPE(2, 3, 4), TL_F32, TL_CPU);
    mt_call c = {.op = MT_OP_empty, .s = {TL_SHAPE(INT64_C(1) << 40, INT64_C(1) << 30)},
                 .dtype = TL_F32};
    mt_result r;
    (void)big;
    assert_int_equal(mt_run(&c, &r), TL_ERR_OUT_OF_MEMORY);
}

/* TensorIterator's device rule (compute_types in TensorIterator.cpp): the
 * common device is the first non-CPU operand's; a 0-dim CPU input may join
 * a CUDA op (one of them), a CUDA 0-dim input may not join a CPU op, and an
 * in-place op's self is an output, never a CPU scalar. */
static void test_devices(void **state)
{
    (void)state;
    mt_layout cpu3 = dense(TL_SHAPE(3), TL_F32, TL_CPU), cuda3 = dense(TL_SHAPE(3), TL_F32, TL_CUDA);
    mt_layout cpu0 = dense(TL_SHAPE0, TL_F32, TL_CPU), cuda0 = dense(TL_SHAPE0, TL_F32, TL_CUDA);
    mt_result r = run(MT_OP_add, &cuda3, &cpu0, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_OK);
    assert_int_equal(r.out.device, TL_CUDA);
    r = run(MT_OP_add, &cpu0, &cuda3, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_OK);
    assert_int_equal(r.out.device, TL_CUDA);
    r = run(MT_OP_mul, &cpu0, &cuda0, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_OK);
    assert_int_equal(r.out.device, TL_CUDA);
    r = run(MT_OP_add, &cpu3, &cuda0, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_ERR_DEVICE);
    assert_non_null(strstr(r.msg, "cuda and cpu"));
    r = run(MT_OP_add, &cpu3, &cuda3, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_ERR_DEVICE);
    r = run(MT_OP_add_, &cuda3, &cpu0, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_OK);
    r = run(MT_OP_add_, &cpu3, &cuda3, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_ERR_DEVICE);
    r = run(MT_OP_sub_, &cpu3, &cuda0, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_ERR_DEVICE);
    r = run(MT_OP_add_, &cpu0, &cuda0, TL_SHAPE0, 0, 0); /* self is the output */
    assert_int_equal(r.status, TL_ERR_DEVICE);
    r = run(MT_OP_copy_, &cpu3, &cuda3, TL_SHAPE0, 0, 0); /* copy_ crosses devices */
    assert_int_equal(r.status, TL_OK);
    r = run(MT_OP_matmul, &cpu3, &cuda3, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_ERR_DEVICE);
    /* t[idx] moves idx to t's device (make_info); index_select does not */
    mt_layout t = dense(TL_SHAPE(4, 3), TL_F32, TL_CUDA), ix = dense(TL_SHAPE(2), TL_I64, TL_CPU);
    r = run(MT_OP_index, &t, &ix, TL_SHAPE0, 0, 0);
    assert_int_equal(r.status, TL_OK);
    assert_int_equal(r.out.device, TL_CUDA);
    assert_int_equal(r.read_bytes, 2 * 3 * 4 + 3 * 16);
    mt_call c = {.op = MT_OP_index_select, .n_in = 2, .in = {&t, &ix}, .i = {0}};
    mt_run(&c, &r);
    assert_int_equal(r.status, TL_ERR_DEVICE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute_stride), cmocka_unit_test(test_lab1),
        cmocka_unit_test(test_block1),         cmocka_unit_test(test_block2),
        cmocka_unit_test(test_block3),         cmocka_unit_test(test_iter_layout),
        cmocka_unit_test(test_errors),         cmocka_unit_test(test_devices),
    };
    return cmocka_run_group_tests_name("meta", tests, NULL, NULL);
}
