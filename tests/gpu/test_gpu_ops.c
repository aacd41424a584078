/*
 * test_gpu_ops.c: every op on CUDA against the CPU runtime, on small tensors.
 *
 * Each case builds its inputs on the CPU (the CPU's generator, seeded per
 * case), moves them to the device under test, runs the op there, and the
 * results of the two runs are compared: shape, strides, offset and dtype
 * exactly; values bit for bit where the CUDA kernels promise the CPU's exact
 * rules (copies, casts, integer arithmetic, indexing), else within a
 * tolerance scaled by the result's largest magnitude (float arithmetic in
 * another order: sums, matmul, conv, exp).  The layouts exercise every copy
 * path of cuda_copy.cu (memcpy, vectorized cast, misaligned cast, tiled
 * transpose with ragged edges, strided, broadcast, reshape order) and every
 * group size of the reductions and softmax.
 */
#include "rt_internal.h"

#include "gpu_check.h"

#include <stdint.h>

typedef tl_tensor *(*case_fn)(tl_device d);

typedef struct op_case {
    const char *name;
    case_fn run;
    double tol; /* 0: bit for bit (NaN equals NaN); else relative to max |value| */
} op_case;

/* ---- inputs: made on the CPU, moved to d ---- */

static tl_tensor *on(tl_device d, tl_tensor *cpu) { return tl_to_device(cpu, d); }

static tl_tensor *rn(tl_device d, tl_ints shape, tl_dtype dt)
{
    return on(d, tl_to(tl_randn(shape, TL_F32, TL_CPU), dt));
}

/* Integers in [lo, hi) of dtype dt. */
static tl_tensor *ri(tl_device d, tl_ints shape, int64_t lo, int64_t hi, tl_dtype dt)
{
    return on(d, tl_to(tl_randint(lo, hi, shape, TL_CPU), dt));
}

/* ---- creation ---- */

static tl_tensor *c_zeros(tl_device d) { return tl_zeros(TL_SHAPE(3, 70), TL_I16, d); }
static tl_tensor *c_ones(tl_device d) { return tl_ones(TL_SHAPE(5, 7, 3), TL_BF16, d); }
static tl_tensor *c_full(tl_device d) { return tl_full(TL_SHAPE(1000), -2.75, TL_F16, d); }
static tl_tensor *c_full_f64(tl_device d) { return tl_full(TL_SHAPE(9, 9), 1e300, TL_F64, d); }
static tl_tensor *c_arange_f16(tl_device d) { return tl_arange(3000, TL_F16, d); }
static tl_tensor *c_arange_u8(tl_device d) { return tl_arange(600, TL_U8, d); }
static tl_tensor *c_scalar(tl_device d) { return tl_scalar(-7.0, TL_I8, d); }
static tl_tensor *c_empty(tl_device d) { return tl_empty(TL_SHAPE(4, 0, 3), TL_F32, d); }
static tl_tensor *c_randn(tl_device d) { return tl_randn(TL_SHAPE(33, 17), TL_F32, d); }
static tl_tensor *c_randn_f16(tl_device d) { return tl_randn(TL_SHAPE(2, 3, 513), TL_F16, d); }

/* ---- copies and layouts ---- */

static tl_tensor *c_transpose_f16(tl_device d)
{
    return tl_contiguous(tl_transpose(rn(d, TL_SHAPE(3, 37, 45), TL_F16), 1, 2));
}
static tl_tensor *c_transpose_u8(tl_device d)
{
    return tl_contiguous(tl_transpose(ri(d, TL_SHAPE(70, 33), 0, 255, TL_U8), 0, 1));
}
static tl_tensor *c_transpose_f32(tl_device d)
{
    return tl_contiguous(tl_permute(rn(d, TL_SHAPE(4, 65, 2, 40), TL_F32), TL_DIMS(2, 3, 0, 1)));
}
static tl_tensor *c_transpose_i64(tl_device d)
{
    return tl_contiguous(tl_t(ri(d, TL_SHAPE(100, 64), -1000, 1000, TL_I64)));
}
static tl_tensor *c_cast_transposed(tl_device d) /* dtype and layout change: strided */
{
    return tl_contiguous(tl_to(tl_transpose(rn(d, TL_SHAPE(40, 50), TL_F16), 0, 1), TL_F32));
}
static tl_tensor *c_to_preserves(tl_device d) /* dense permuted: strides kept, contiguous cast */
{
    return tl_to(tl_transpose(rn(d, TL_SHAPE(16, 64, 48), TL_F16), 1, 2), TL_F32);
}
static tl_tensor *c_misaligned_cast(tl_device d)
{
    return tl_to(tl_slice(rn(d, TL_SHAPE(1001), TL_BF16), 0, 1, 1001, 1), TL_F64);
}
static tl_tensor *c_slice_clone(tl_device d)
{
    return tl_clone(tl_slice(rn(d, TL_SHAPE(9, 30), TL_F32), 1, 3, 29, 4));
}
static tl_tensor *c_broadcast(tl_device d)
{
    return tl_contiguous(tl_expand(rn(d, TL_SHAPE(1, 5, 1), TL_F32), TL_SHAPE(4, 5, 6)));
}
static tl_tensor *c_reshape_copy(tl_device d)
{
    return tl_reshape(tl_transpose(rn(d, TL_SHAPE(6, 10), TL_F64), 0, 1), TL_SHAPE(3, 20));
}
static tl_tensor *c_channels_last(tl_device d)
{
    return tl_to_format(rn(d, TL_SHAPE(2, 3, 5, 7), TL_F32), TL_CHANNELS_LAST);
}
static tl_tensor *c_copy_broadcast_cast(tl_device d)
{
    tl_tensor *t = tl_zeros(TL_SHAPE(3, 4, 5), TL_I32, d);
    tl_copy_(t, rn(d, TL_SHAPE(4, 1), TL_F64));
    return t;
}
static tl_tensor *c_copy_from_cpu(tl_device d)
{
    tl_tensor *t = tl_zeros(TL_SHAPE(8, 6), TL_F16, d);
    tl_copy_(tl_slice(t, 0, 0, 8, 2), tl_transpose(tl_randn(TL_SHAPE(6, 4), TL_F32, TL_CPU), 0, 1));
    return t;
}
static tl_tensor *c_copy_to_cpu(tl_device d)
{
    tl_tensor *t = tl_zeros(TL_SHAPE(5, 3), TL_I64, TL_CPU);
    tl_copy_(t, tl_t(ri(d, TL_SHAPE(3, 5), -50, 50, TL_I16)));
    return on(d, t);
}

/* ---- elementwise ---- */

static tl_tensor *c_add_bcast(tl_device d)
{
    return tl_add(rn(d, TL_SHAPE(4, 1, 6), TL_F16), rn(d, TL_SHAPE(3, 1), TL_F32));
}
static tl_tensor *c_sub_perm(tl_device d)
{
    tl_tensor *a = tl_permute(rn(d, TL_SHAPE(5, 6, 7), TL_BF16), TL_DIMS(2, 0, 1));
    return tl_sub(a, rn(d, TL_SHAPE(7, 5, 6), TL_BF16));
}
static tl_tensor *c_mul_int(tl_device d)
{
    return tl_mul(ri(d, TL_SHAPE(50, 3), -128, 128, TL_I8), ri(d, TL_SHAPE(3), 0, 256, TL_U8));
}
static tl_tensor *c_add_i8_wrap(tl_device d) /* a 0-dim i64 is cast to i8 first */
{
    return tl_add(ri(d, TL_SHAPE(40), -128, 128, TL_I8), on(d, tl_scalar(300, TL_I64, TL_CPU)));
}
static tl_tensor *c_div_int(tl_device d)
{
    return tl_div(ri(d, TL_SHAPE(30), -9, 9, TL_I32), ri(d, TL_SHAPE(30), 1, 5, TL_I64));
}
static tl_tensor *c_bool_ops(tl_device d)
{
    tl_tensor *a = ri(d, TL_SHAPE(20), 0, 2, TL_BOOL), *b = ri(d, TL_SHAPE(20), 0, 2, TL_BOOL);
    return tl_cat(TL_LIST(tl_add(a, b), tl_mul(a, b)), 0);
}
static tl_tensor *c_scalar_ops(tl_device d)
{
    return tl_add_scalar(tl_mul_scalar(rn(d, TL_SHAPE(100), TL_F16), 1.0007), -0.1);
}
static tl_tensor *c_scalar_int(tl_device d)
{
    return tl_mul_scalar(ri(d, TL_SHAPE(64), -1000, 1000, TL_I32), 0.5);
}
static tl_tensor *c_cpu_scalar_operand(tl_device d)
{
    return tl_mul(rn(d, TL_SHAPE(3, 4), TL_F32), tl_scalar(-1.5, TL_F64, TL_CPU));
}
static tl_tensor *c_neg_u8(tl_device d) { return tl_neg(ri(d, TL_SHAPE(300), 0, 256, TL_U8)); }
static tl_tensor *c_exp(tl_device d) { return tl_exp(rn(d, TL_SHAPE(7, 300), TL_F32)); }
static tl_tensor *c_exp_f64(tl_device d) { return tl_exp(rn(d, TL_SHAPE(50), TL_F64)); }
static tl_tensor *c_exp_int(tl_device d) { return tl_exp(ri(d, TL_SHAPE(10), -5, 5, TL_I16)); }
static tl_tensor *c_relu(tl_device d)
{
    return tl_relu(tl_transpose(rn(d, TL_SHAPE(40, 30), TL_BF16), 0, 1));
}
static tl_tensor *c_relu_i32(tl_device d) { return tl_relu(ri(d, TL_SHAPE(99), -9, 9, TL_I32)); }
static tl_tensor *c_inplace(tl_device d)
{
    tl_tensor *t = rn(d, TL_SHAPE(6, 5), TL_F16);
    tl_add_(t, rn(d, TL_SHAPE(5), TL_F32));
    tl_sub_(tl_slice(t, 0, 1, 6, 2), rn(d, TL_SHAPE(3, 1), TL_F16));
    tl_mul_scalar_(t, -3.0);
    return t;
}
static tl_tensor *c_inplace_int(tl_device d)
{
    tl_tensor *t = ri(d, TL_SHAPE(4, 8), -100, 100, TL_I32);
    tl_add_(t, ri(d, TL_SHAPE(8), -(INT64_C(1) << 40), INT64_C(1) << 40, TL_I64));
    return t;
}
static tl_tensor *c_fill_zero_set(tl_device d)
{
    tl_tensor *t = rn(d, TL_SHAPE(5, 6), TL_F64);
    tl_fill_(tl_slice(t, 1, 0, 6, 3), 2.5);
    tl_zero_(tl_select(t, 0, 2));
    tl_set(t, TL_DIMS(-1, -1), 42.0);
    tl_set(t, TL_DIMS(0, 1), tl_get(t, TL_DIMS(4, 5)) + 1.0);
    return t;
}

/* ---- reductions and softmax ---- */

static tl_tensor *c_sum_rows_thread(tl_device d) /* many strided rows: a thread per row */
{
    return tl_sum(rn(d, TL_SHAPE(20, 2000), TL_F32), 0, false);
}
static tl_tensor *c_sum_rows_warp(tl_device d) /* contiguous rows: a warp per row */
{
    return tl_sum(rn(d, TL_SHAPE(300, 77), TL_F32), 1, true);
}
static tl_tensor *c_sum_long_row(tl_device d) /* one row: a block */
{
    return tl_sum(rn(d, TL_SHAPE(100000), TL_F32), 0, false);
}
static tl_tensor *c_mean_mid(tl_device d) { return tl_mean(rn(d, TL_SHAPE(7, 33, 65), TL_F16), 1, false); }
static tl_tensor *c_mean_f64(tl_device d) { return tl_mean(rn(d, TL_SHAPE(3, 4, 5), TL_F64), -1, true); }
static tl_tensor *c_sum_int(tl_device d) { return tl_sum(ri(d, TL_SHAPE(6, 70), -9, 9, TL_I32), 1, false); }
static tl_tensor *c_sum_bool(tl_device d) { return tl_sum(ri(d, TL_SHAPE(50, 3), 0, 2, TL_BOOL), 0, false); }
static tl_tensor *c_sum_empty(tl_device d) { return tl_sum(tl_zeros(TL_SHAPE(3, 0), TL_F32, d), 1, false); }
static tl_tensor *c_mean_empty(tl_device d) { return tl_mean(tl_zeros(TL_SHAPE(0, 4), TL_F32, d), 0, false); }
static tl_tensor *c_sum_0dim(tl_device d) { return tl_sum(on(d, tl_scalar(3.0, TL_F32, TL_CPU)), 0, false); }
static tl_tensor *c_softmax_last(tl_device d) { return tl_softmax(rn(d, TL_SHAPE(5, 70, 300), TL_F32), 2); }
static tl_tensor *c_softmax_first(tl_device d) { return tl_softmax(rn(d, TL_SHAPE(50, 2000), TL_F32), 0); }
static tl_tensor *c_softmax_f16(tl_device d) { return tl_softmax(rn(d, TL_SHAPE(4, 1000), TL_F16), 1); }
static tl_tensor *c_softmax_f64(tl_device d) { return tl_softmax(rn(d, TL_SHAPE(3, 9), TL_F64), 0); }

/* ---- matmul ---- */

static tl_tensor *c_mm_f32(tl_device d)
{
    return tl_matmul(rn(d, TL_SHAPE(33, 65), TL_F32), rn(d, TL_SHAPE(65, 17), TL_F32));
}
static tl_tensor *c_mm_trans(tl_device d)
{
    return tl_matmul(tl_t(rn(d, TL_SHAPE(40, 30), TL_F32)), tl_t(rn(d, TL_SHAPE(20, 40), TL_F32)));
}
static tl_tensor *c_mm_batched(tl_device d)
{
    return tl_matmul(rn(d, TL_SHAPE(2, 1, 3, 4), TL_F64), rn(d, TL_SHAPE(5, 4, 6), TL_F64));
}
static tl_tensor *c_mm_vec_mat(tl_device d)
{
    return tl_matmul(rn(d, TL_SHAPE(7), TL_F32), rn(d, TL_SHAPE(3, 7, 5), TL_F32));
}
static tl_tensor *c_mm_mat_vec(tl_device d)
{
    return tl_matmul(rn(d, TL_SHAPE(6, 7), TL_F32), rn(d, TL_SHAPE(7), TL_F32));
}
static tl_tensor *c_mm_dot(tl_device d)
{
    return tl_matmul(rn(d, TL_SHAPE(100), TL_F64), rn(d, TL_SHAPE(100), TL_F64));
}
static tl_tensor *c_mm_f16(tl_device d)
{
    return tl_matmul(rn(d, TL_SHAPE(4, 64, 128), TL_F16), rn(d, TL_SHAPE(4, 128, 32), TL_F16));
}
static tl_tensor *c_mm_bf16_block2(tl_device d) /* worksheet block 2: h @ w.t() */
{
    return tl_matmul(rn(d, TL_SHAPE(8, 4096), TL_BF16), tl_t(rn(d, TL_SHAPE(512, 4096), TL_BF16)));
}
static tl_tensor *c_mm_packed(tl_device d) /* no unit stride: packed first */
{
    tl_tensor *b = tl_slice(tl_slice(rn(d, TL_SHAPE(20, 30), TL_F32), 0, 0, 20, 2), 1, 0, 30, 3);
    return tl_matmul(rn(d, TL_SHAPE(5, 10), TL_F32), b);
}
static tl_tensor *c_mm_int(tl_device d)
{
    return tl_matmul(ri(d, TL_SHAPE(2, 9, 8), -1000, 1000, TL_I64), ri(d, TL_SHAPE(8, 3), -1000, 1000, TL_I64));
}
static tl_tensor *c_mm_i16_wrap(tl_device d)
{
    return tl_matmul(ri(d, TL_SHAPE(5, 40), -300, 300, TL_I16), ri(d, TL_SHAPE(40, 4), -300, 300, TL_I16));
}
static tl_tensor *c_mm_empty_k(tl_device d)
{
    return tl_matmul(tl_zeros(TL_SHAPE(3, 0), TL_F32, d), tl_zeros(TL_SHAPE(0, 4), TL_F32, d));
}

/* ---- conv2d ---- */

static tl_tensor *c_conv(tl_device d)
{
    return tl_conv2d(rn(d, TL_SHAPE(2, 3, 9, 11), TL_F32), rn(d, TL_SHAPE(4, 3, 3, 3), TL_F32), 1, 1);
}
static tl_tensor *c_conv_strided_cl(tl_device d)
{
    tl_tensor *x = tl_to_format(rn(d, TL_SHAPE(1, 4, 12, 12), TL_F32), TL_CHANNELS_LAST);
    return tl_conv2d(x, rn(d, TL_SHAPE(6, 4, 3, 2), TL_F32), 2, 1);
}
static tl_tensor *c_conv_unbatched_f16(tl_device d)
{
    return tl_conv2d(rn(d, TL_SHAPE(2, 6, 6), TL_F16), rn(d, TL_SHAPE(3, 2, 2, 2), TL_F16), 1, 0);
}
static tl_tensor *c_conv_int(tl_device d)
{
    return tl_conv2d(ri(d, TL_SHAPE(1, 2, 5, 5), -9, 9, TL_I32), ri(d, TL_SHAPE(2, 2, 3, 3), -9, 9, TL_I32), 1, 2);
}
static tl_tensor *c_conv_f64(tl_device d)
{
    return tl_conv2d(rn(d, TL_SHAPE(1, 1, 4, 4), TL_F64), rn(d, TL_SHAPE(1, 1, 4, 4), TL_F64), 1, 0);
}

/* ---- indexing ---- */

static tl_tensor *c_index(tl_device d)
{
    return tl_index(rn(d, TL_SHAPE(10, 3, 4), TL_F16), ri(d, TL_SHAPE(2, 5), -10, 10, TL_I64));
}
static tl_tensor *c_index_select(tl_device d)
{
    return tl_index_select(rn(d, TL_SHAPE(4, 9, 2), TL_F32), 1, ri(d, TL_SHAPE(12), 0, 9, TL_I32));
}
static tl_tensor *c_gather(tl_device d)
{
    return tl_gather(rn(d, TL_SHAPE(5, 6, 7), TL_BF16), 2, ri(d, TL_SHAPE(5, 4, 9), 0, 7, TL_I64));
}
static tl_tensor *c_gather_dim0(tl_device d)
{
    return tl_gather(ri(d, TL_SHAPE(8, 3), -99, 99, TL_I64), 0, ri(d, TL_SHAPE(4, 3), 0, 8, TL_I64));
}
static tl_tensor *c_cat(tl_device d)
{
    tl_tensor *a = rn(d, TL_SHAPE(2, 3), TL_F16), *b = ri(d, TL_SHAPE(2, 5), -9, 9, TL_I32);
    return tl_cat(TL_LIST(a, tl_zeros(TL_SHAPE(0), TL_F32, d), b, tl_t(rn(d, TL_SHAPE(1, 2), TL_F32))), 1);
}
static tl_tensor *c_worksheet_gather(tl_device d) /* block 3 at 1/64 size */
{
    tl_tensor *emb = rn(d, TL_SHAPE(500, 64), TL_BF16);
    return tl_to(tl_index(emb, ri(d, TL_SHAPE(4, 32), 0, 500, TL_I64)), TL_F32);
}

static const op_case cases[] = {
    {"zeros", c_zeros, 0}, {"ones", c_ones, 0}, {"full f16", c_full, 0},
    {"full f64", c_full_f64, 0}, {"arange f16", c_arange_f16, 0}, {"arange u8", c_arange_u8, 0},
    {"scalar", c_scalar, 0}, {"empty", c_empty, 0}, {"randn", c_randn, 1e-6},
    {"randn f16", c_randn_f16, 1e-3},
    {"transpose f16", c_transpose_f16, 0}, {"transpose u8", c_transpose_u8, 0},
    {"permute f32", c_transpose_f32, 0}, {"transpose i64", c_transpose_i64, 0},
    {"cast + transpose", c_cast_transposed, 0}, {"to keeps strides", c_to_preserves, 0},
    {"misaligned cast", c_misaligned_cast, 0}, {"slice clone", c_slice_clone, 0},
    {"broadcast", c_broadcast, 0}, {"reshape copy", c_reshape_copy, 0},
    {"channels last", c_channels_last, 0}, {"copy_ bcast cast", c_copy_broadcast_cast, 0},
    {"copy_ from cpu", c_copy_from_cpu, 0}, {"copy_ to cpu", c_copy_to_cpu, 0},
    {"add bcast", c_add_bcast, 0}, {"sub permuted", c_sub_perm, 0}, {"mul int", c_mul_int, 0},
    {"add i8 wrap", c_add_i8_wrap, 0}, {"div int", c_div_int, 0}, {"bool ops", c_bool_ops, 0},
    {"scalar ops", c_scalar_ops, 0}, {"scalar int", c_scalar_int, 0},
    {"cpu scalar", c_cpu_scalar_operand, 0}, {"neg u8", c_neg_u8, 0}, {"exp", c_exp, 1e-6},
    {"exp f64", c_exp_f64, 1e-14}, {"exp int", c_exp_int, 1e-6}, {"relu", c_relu, 0},
    {"relu i32", c_relu_i32, 0}, {"in place", c_inplace, 0}, {"in place int", c_inplace_int, 0},
    {"fill zero set", c_fill_zero_set, 0},
    {"sum thread rows", c_sum_rows_thread, 1e-5}, {"sum warp rows", c_sum_rows_warp, 1e-5},
    {"sum long row", c_sum_long_row, 1e-5}, {"mean f16", c_mean_mid, 1e-3},
    {"mean f64", c_mean_f64, 1e-13}, {"sum int", c_sum_int, 0}, {"sum bool", c_sum_bool, 0},
    {"sum empty", c_sum_empty, 0}, {"mean empty", c_mean_empty, 0}, {"sum 0-dim", c_sum_0dim, 0},
    {"softmax last", c_softmax_last, 1e-5}, {"softmax first", c_softmax_first, 1e-5},
    {"softmax f16", c_softmax_f16, 1e-3}, {"softmax f64", c_softmax_f64, 1e-13},
    {"matmul f32", c_mm_f32, 1e-5}, {"matmul transposed", c_mm_trans, 1e-5},
    {"matmul batched f64", c_mm_batched, 1e-13}, {"matmul 1-D @ 3-D", c_mm_vec_mat, 1e-5},
    {"matmul 2-D @ 1-D", c_mm_mat_vec, 1e-5}, {"matmul dot", c_mm_dot, 1e-13},
    {"matmul f16", c_mm_f16, 2e-3}, {"matmul bf16 block 2", c_mm_bf16_block2, 1e-2},
    {"matmul packed", c_mm_packed, 1e-5}, {"matmul i64", c_mm_int, 0},
    {"matmul i16 wrap", c_mm_i16_wrap, 0}, {"matmul k = 0", c_mm_empty_k, 0},
    {"conv2d", c_conv, 1e-5}, {"conv2d stride cl", c_conv_strided_cl, 1e-5},
    {"conv2d unbatched f16", c_conv_unbatched_f16, 2e-3}, {"conv2d int", c_conv_int, 0},
    {"conv2d f64", c_conv_f64, 1e-13},
    {"index", c_index, 0}, {"index_select", c_index_select, 0}, {"gather", c_gather, 0},
    {"gather dim 0", c_gather_dim0, 0}, {"cat", c_cat, 0}, {"worksheet gather", c_worksheet_gather, 0},
};

/* ---- comparison ---- */

/* A CPU, contiguous f64 copy of t's values (t may live on either device). */
static tl_tensor *as_f64(tl_tensor *t)
{
    return tl_contiguous(tl_to(tl_to_device(t, TL_CPU), TL_F64));
}

static const double *values_of(tl_tensor *c) { return (const double *)c->storage->data + c->l.offset; }

static bool same_layout(const tl_tensor *a, const tl_tensor *b)
{
    if (tl_ndim(a) != tl_ndim(b) || tl_dtype_of(a) != tl_dtype_of(b) ||
        tl_storage_offset(a) != tl_storage_offset(b))
        return false;
    for (int k = 0; k < tl_ndim(a); k++)
        if (tl_size(a, k) != tl_size(b, k) || tl_stride(a, k) != tl_stride(b, k))
            return false;
    return true;
}

/* Bit for bit: the same-dtype bytes of both, NaN == NaN for floats. */
static bool same_bits(tl_tensor *cpu, tl_tensor *dev)
{
    tl_tensor *a = tl_contiguous(cpu), *b = tl_contiguous(tl_to_device(dev, TL_CPU));
    int64_t n = tl_numel(a), size = tl_element_size(tl_dtype_of(a));
    const char *pa = (const char *)a->storage->data + a->l.offset * size;
    const char *pb = (const char *)b->storage->data + b->l.offset * size;
    const double *fa = values_of(as_f64(a)), *fb = values_of(as_f64(b));
    for (int64_t k = 0; k < n; k++)
        if (memcmp(pa + k * size, pb + k * size, (size_t)size) != 0 && !(isnan(fa[k]) && isnan(fb[k])))
            return false;
    return true;
}

/* max |a - b| <= tol * max(1, max |a|). */
static double worst_error(tl_tensor *cpu, tl_tensor *dev)
{
    tl_tensor *a = as_f64(cpu), *b = as_f64(dev);
    const double *x = values_of(a), *y = values_of(b);
    double scale = 1, worst = 0;
    for (int64_t k = 0; k < tl_numel(a); k++)
        scale = fabs(x[k]) > scale ? fabs(x[k]) : scale;
    for (int64_t k = 0; k < tl_numel(a); k++) {
        if (isnan(x[k]) || isnan(y[k])) {
            worst = isnan(x[k]) && isnan(y[k]) ? worst : INFINITY;
            continue;
        }
        double e = fabs(x[k] - y[k]) / scale;
        worst = e > worst ? e : worst;
    }
    return worst;
}

static void run_case(const op_case *c, uint64_t seed)
{
    tl_manual_seed(seed);
    tl_tensor *cpu = c->run(TL_CPU);
    tl_manual_seed(seed);
    tl_tensor *dev = c->run(TL_CUDA);
    if (!cpu || !dev || tl_device_of(dev) != TL_CUDA) {
        GPU_CHECK(!"case ran on both devices");
        fprintf(stderr, "  case %s\n", c->name);
        return;
    }
    bool layout = same_layout(cpu, dev);
    double err = c->tol == 0 ? (same_bits(cpu, dev) ? 0 : INFINITY) : worst_error(cpu, dev);
    gpu_checks++;
    if (layout && err <= c->tol)
        return;
    gpu_failures++;
    fprintf(stderr, "case %s: %s, error %.3g (tolerance %.1g)\n", c->name,
            layout ? "same layout" : "LAYOUTS DIFFER", err, c->tol);
}

/* Every pair of dtypes over edge values, contiguous and transposed: bit for bit. */
static void check_casts(void)
{
    static const double v[] = {0, -0.0, 1.5, -2.5, 300.7, -129, 255, 256, 65504, 70000, 1e-8,
                                1e10, -1e10, 3.5e38, INFINITY, -INFINITY, NAN, 123456789012.0};
    enum { N = sizeof v / sizeof v[0] };
    tl_tensor *base = tl_zeros(TL_SHAPE(N, 2), TL_F64, TL_CPU);
    for (int k = 0; k < N; k++)
        tl_set(base, TL_DIMS(k, 0), v[k]), tl_set(base, TL_DIMS(k, 1), -v[k]);
    for (int s = TL_BOOL; s <= TL_F64; s++) {
        tl_tensor *src = tl_to(base, (tl_dtype)s), *gsrc = tl_to_device(src, TL_CUDA);
        for (int d = TL_BOOL; d <= TL_F64; d++) {
            tl_tensor *a = tl_to(src, (tl_dtype)d), *b = tl_to(gsrc, (tl_dtype)d);
            tl_tensor *at = tl_contiguous(tl_to(tl_t(src), (tl_dtype)d));
            tl_tensor *bt = tl_contiguous(tl_to(tl_t(gsrc), (tl_dtype)d));
            gpu_checks++;
            if (same_bits(a, b) && same_bits(at, bt))
                continue;
            gpu_failures++;
            fprintf(stderr, "cast %s -> %s differs from the CPU\n", tl_dtype_name((tl_dtype)s),
                    tl_dtype_name((tl_dtype)d));
        }
    }
}

/* The device's randn is the CPU's draw sequence; randint keeps its range. */
static void check_random(void)
{
    tl_manual_seed(7);
    tl_tensor *g = tl_randn(TL_SHAPE(1000, 999), TL_F32, TL_CUDA);
    tl_tensor *m = tl_mean(tl_flatten(g, 0, 1), 0, false);
    tl_tensor *sq = tl_mean(tl_flatten(tl_mul(g, g), 0, 1), 0, false);
    GPU_CHECK(fabs(tl_get(m, TL_SHAPE0)) < 0.01);
    GPU_CHECK(fabs(tl_get(sq, TL_SHAPE0) - 1.0) < 0.01);
    tl_tensor *again = tl_randn(TL_SHAPE(1000, 999), TL_F32, TL_CUDA);
    GPU_CHECK(tl_get(again, TL_DIMS(0, 0)) != tl_get(g, TL_DIMS(0, 0))); /* the state moved on */
    tl_tensor *ri = tl_randint(-5, 3, TL_SHAPE(100000), TL_CUDA);
    tl_tensor *lo = tl_sum(tl_to(ri, TL_F64), 0, false);
    double mean = tl_get(lo, TL_SHAPE0) / 100000;
    GPU_CHECK(fabs(mean - (-1.5)) < 0.05);
    tl_tensor *host = tl_to_device(ri, TL_CPU);
    bool in_range = true;
    for (int64_t k = 0; k < 100000; k++) {
        double x = tl_get(host, TL_DIMS(k));
        in_range = in_range && x >= -5 && x < 3;
    }
    GPU_CHECK(in_range);
}

/* Elements read and written one at a time, and tl_print's device read. */
static void check_element_access(void)
{
    tl_tensor *g = tl_to_device(tl_arange(24, TL_I32, TL_CPU), TL_CUDA);
    tl_tensor *v = tl_permute(tl_view(g, TL_SHAPE(2, 3, 4)), TL_DIMS(2, 0, 1));
    GPU_CHECK(tl_get(v, TL_DIMS(3, 1, 2)) == 23);
    tl_set(v, TL_DIMS(3, 1, 2), -5);
    GPU_CHECK(tl_get(g, TL_DIMS(23)) == -5);
    tl_print(v);
}

int main(void)
{
    int skip = gpu_require_device("test_gpu_ops");
    if (skip)
        return skip;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        run_case(&cases[k], 1000 + k);
    check_casts();
    check_random();
    check_element_access();
    GPU_CHECK(cu_synchronize());
    GPU_CHECK(tl_last_error()->status == TL_OK);
    return gpu_finish("test_gpu_ops");
}
