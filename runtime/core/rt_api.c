/*
 * rt_api.c: the public entry points.  Each tl_X_at receives the user's file
 * and line from the call-site macro and hands its arguments, in the order
 * of its ops.def signature, to rt_exec; each plain tl_X is the same call
 * without a site.  Written out once per op so that every public symbol is
 * a real function with the header's exact prototype.
 */
#include "rt_internal.h"

#include <math.h>

static tl_tensor *call_tensor(const char *file, int line, mt_op op, ...)
{
    rt_site site = {file, line, op};
    va_list ap;
    va_start(ap, op);
    rt_outcome o = rt_exec(&site, &ap);
    va_end(ap);
    return o.t;
}

static void call_void(const char *file, int line, mt_op op, ...)
{
    rt_site site = {file, line, op};
    va_list ap;
    va_start(ap, op);
    rt_exec(&site, &ap);
    va_end(ap);
}

static double call_double(const char *file, int line, mt_op op, ...)
{
    rt_site site = {file, line, op};
    va_list ap;
    va_start(ap, op);
    rt_outcome o = rt_exec(&site, &ap);
    va_end(ap);
    return o.ok ? o.value : NAN;
}

tl_tensor *tl_empty_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device)
{
    return call_tensor(file, line, MT_OP_empty, shape, dtype, device);
}

tl_tensor *(tl_empty)(tl_ints shape, tl_dtype dtype, tl_device device) { return tl_empty_at(NULL, 0, shape, dtype, device); }

tl_tensor *tl_zeros_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device)
{
    return call_tensor(file, line, MT_OP_zeros, shape, dtype, device);
}

tl_tensor *(tl_zeros)(tl_ints shape, tl_dtype dtype, tl_device device) { return tl_zeros_at(NULL, 0, shape, dtype, device); }

tl_tensor *tl_ones_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device)
{
    return call_tensor(file, line, MT_OP_ones, shape, dtype, device);
}

tl_tensor *(tl_ones)(tl_ints shape, tl_dtype dtype, tl_device device) { return tl_ones_at(NULL, 0, shape, dtype, device); }

tl_tensor *tl_randn_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device)
{
    return call_tensor(file, line, MT_OP_randn, shape, dtype, device);
}

tl_tensor *(tl_randn)(tl_ints shape, tl_dtype dtype, tl_device device) { return tl_randn_at(NULL, 0, shape, dtype, device); }

tl_tensor *tl_full_at(const char *file, int line, tl_ints shape, double value, tl_dtype dtype, tl_device device)
{
    return call_tensor(file, line, MT_OP_full, shape, value, dtype, device);
}

tl_tensor *(tl_full)(tl_ints shape, double value, tl_dtype dtype, tl_device device) { return tl_full_at(NULL, 0, shape, value, dtype, device); }

tl_tensor *tl_arange_at(const char *file, int line, int64_t n, tl_dtype dtype, tl_device device)
{
    return call_tensor(file, line, MT_OP_arange, n, dtype, device);
}

tl_tensor *(tl_arange)(int64_t n, tl_dtype dtype, tl_device device) { return tl_arange_at(NULL, 0, n, dtype, device); }

tl_tensor *tl_randint_at(const char *file, int line, int64_t low, int64_t high, tl_ints shape, tl_device device)
{
    return call_tensor(file, line, MT_OP_randint, low, high, shape, device);
}

tl_tensor *(tl_randint)(int64_t low, int64_t high, tl_ints shape, tl_device device) { return tl_randint_at(NULL, 0, low, high, shape, device); }

tl_tensor *tl_scalar_at(const char *file, int line, double value, tl_dtype dtype, tl_device device)
{
    return call_tensor(file, line, MT_OP_scalar, value, dtype, device);
}

tl_tensor *(tl_scalar)(double value, tl_dtype dtype, tl_device device) { return tl_scalar_at(NULL, 0, value, dtype, device); }

tl_tensor *tl_view_at(const char *file, int line, tl_tensor *t, tl_ints shape)
{
    return call_tensor(file, line, MT_OP_view, t, shape);
}

tl_tensor *(tl_view)(tl_tensor *t, tl_ints shape) { return tl_view_at(NULL, 0, t, shape); }

tl_tensor *tl_transpose_at(const char *file, int line, tl_tensor *t, int64_t d0, int64_t d1)
{
    return call_tensor(file, line, MT_OP_transpose, t, d0, d1);
}

tl_tensor *(tl_transpose)(tl_tensor *t, int64_t d0, int64_t d1) { return tl_transpose_at(NULL, 0, t, d0, d1); }

tl_tensor *tl_t_at(const char *file, int line, tl_tensor *t)
{
    return call_tensor(file, line, MT_OP_t, t);
}

tl_tensor *(tl_t)(tl_tensor *t) { return tl_t_at(NULL, 0, t); }

tl_tensor *tl_permute_at(const char *file, int line, tl_tensor *t, tl_ints dims)
{
    return call_tensor(file, line, MT_OP_permute, t, dims);
}

tl_tensor *(tl_permute)(tl_tensor *t, tl_ints dims) { return tl_permute_at(NULL, 0, t, dims); }

tl_tensor *tl_slice_at(const char *file, int line, tl_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step)
{
    return call_tensor(file, line, MT_OP_slice, t, dim, start, end, step);
}

tl_tensor *(tl_slice)(tl_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step) { return tl_slice_at(NULL, 0, t, dim, start, end, step); }

tl_tensor *tl_narrow_at(const char *file, int line, tl_tensor *t, int64_t dim, int64_t start, int64_t length)
{
    return call_tensor(file, line, MT_OP_narrow, t, dim, start, length);
}

tl_tensor *(tl_narrow)(tl_tensor *t, int64_t dim, int64_t start, int64_t length) { return tl_narrow_at(NULL, 0, t, dim, start, length); }

tl_tensor *tl_select_at(const char *file, int line, tl_tensor *t, int64_t dim, int64_t index)
{
    return call_tensor(file, line, MT_OP_select, t, dim, index);
}

tl_tensor *(tl_select)(tl_tensor *t, int64_t dim, int64_t index) { return tl_select_at(NULL, 0, t, dim, index); }

tl_tensor *tl_unsqueeze_at(const char *file, int line, tl_tensor *t, int64_t dim)
{
    return call_tensor(file, line, MT_OP_unsqueeze, t, dim);
}

tl_tensor *(tl_unsqueeze)(tl_tensor *t, int64_t dim) { return tl_unsqueeze_at(NULL, 0, t, dim); }

tl_tensor *tl_squeeze_at(const char *file, int line, tl_tensor *t, int64_t dim)
{
    return call_tensor(file, line, MT_OP_squeeze, t, dim);
}

tl_tensor *(tl_squeeze)(tl_tensor *t, int64_t dim) { return tl_squeeze_at(NULL, 0, t, dim); }

tl_tensor *tl_expand_at(const char *file, int line, tl_tensor *t, tl_ints shape)
{
    return call_tensor(file, line, MT_OP_expand, t, shape);
}

tl_tensor *(tl_expand)(tl_tensor *t, tl_ints shape) { return tl_expand_at(NULL, 0, t, shape); }

tl_tensor *tl_as_strided_at(const char *file, int line, tl_tensor *t, tl_ints shape, tl_ints strides, int64_t offset)
{
    return call_tensor(file, line, MT_OP_as_strided, t, shape, strides, offset);
}

tl_tensor *(tl_as_strided)(tl_tensor *t, tl_ints shape, tl_ints strides, int64_t offset) { return tl_as_strided_at(NULL, 0, t, shape, strides, offset); }

tl_tensor *tl_reshape_at(const char *file, int line, tl_tensor *t, tl_ints shape)
{
    return call_tensor(file, line, MT_OP_reshape, t, shape);
}

tl_tensor *(tl_reshape)(tl_tensor *t, tl_ints shape) { return tl_reshape_at(NULL, 0, t, shape); }

tl_tensor *tl_flatten_at(const char *file, int line, tl_tensor *t, int64_t start_dim, int64_t end_dim)
{
    return call_tensor(file, line, MT_OP_flatten, t, start_dim, end_dim);
}

tl_tensor *(tl_flatten)(tl_tensor *t, int64_t start_dim, int64_t end_dim) { return tl_flatten_at(NULL, 0, t, start_dim, end_dim); }

tl_tensor *tl_contiguous_at(const char *file, int line, tl_tensor *t)
{
    return call_tensor(file, line, MT_OP_contiguous, t);
}

tl_tensor *(tl_contiguous)(tl_tensor *t) { return tl_contiguous_at(NULL, 0, t); }

tl_tensor *tl_to_at(const char *file, int line, tl_tensor *t, tl_dtype dtype)
{
    return call_tensor(file, line, MT_OP_to, t, dtype);
}

tl_tensor *(tl_to)(tl_tensor *t, tl_dtype dtype) { return tl_to_at(NULL, 0, t, dtype); }

tl_tensor *tl_to_device_at(const char *file, int line, tl_tensor *t, tl_device device)
{
    return call_tensor(file, line, MT_OP_to_device, t, device);
}

tl_tensor *(tl_to_device)(tl_tensor *t, tl_device device) { return tl_to_device_at(NULL, 0, t, device); }

tl_tensor *tl_to_format_at(const char *file, int line, tl_tensor *t, tl_format format)
{
    return call_tensor(file, line, MT_OP_to_format, t, format);
}

tl_tensor *(tl_to_format)(tl_tensor *t, tl_format format) { return tl_to_format_at(NULL, 0, t, format); }

tl_tensor *tl_clone_at(const char *file, int line, tl_tensor *t)
{
    return call_tensor(file, line, MT_OP_clone, t);
}

tl_tensor *(tl_clone)(tl_tensor *t) { return tl_clone_at(NULL, 0, t); }

tl_tensor *tl_index_at(const char *file, int line, tl_tensor *t, tl_tensor *idx)
{
    return call_tensor(file, line, MT_OP_index, t, idx);
}

tl_tensor *(tl_index)(tl_tensor *t, tl_tensor *idx) { return tl_index_at(NULL, 0, t, idx); }

tl_tensor *tl_index_select_at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *idx)
{
    return call_tensor(file, line, MT_OP_index_select, t, dim, idx);
}

tl_tensor *(tl_index_select)(tl_tensor *t, int64_t dim, tl_tensor *idx) { return tl_index_select_at(NULL, 0, t, dim, idx); }

tl_tensor *tl_gather_at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *idx)
{
    return call_tensor(file, line, MT_OP_gather, t, dim, idx);
}

tl_tensor *(tl_gather)(tl_tensor *t, int64_t dim, tl_tensor *idx) { return tl_gather_at(NULL, 0, t, dim, idx); }

tl_tensor *tl_cat_at(const char *file, int line, tl_list list, int64_t dim)
{
    return call_tensor(file, line, MT_OP_cat, list, dim);
}

tl_tensor *(tl_cat)(tl_list list, int64_t dim) { return tl_cat_at(NULL, 0, list, dim); }

tl_tensor *tl_add_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call_tensor(file, line, MT_OP_add, a, b);
}

tl_tensor *(tl_add)(tl_tensor *a, tl_tensor *b) { return tl_add_at(NULL, 0, a, b); }

tl_tensor *tl_sub_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call_tensor(file, line, MT_OP_sub, a, b);
}

tl_tensor *(tl_sub)(tl_tensor *a, tl_tensor *b) { return tl_sub_at(NULL, 0, a, b); }

tl_tensor *tl_mul_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call_tensor(file, line, MT_OP_mul, a, b);
}

tl_tensor *(tl_mul)(tl_tensor *a, tl_tensor *b) { return tl_mul_at(NULL, 0, a, b); }

tl_tensor *tl_div_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call_tensor(file, line, MT_OP_div, a, b);
}

tl_tensor *(tl_div)(tl_tensor *a, tl_tensor *b) { return tl_div_at(NULL, 0, a, b); }

tl_tensor *tl_add_scalar_at(const char *file, int line, tl_tensor *t, double s)
{
    return call_tensor(file, line, MT_OP_add_scalar, t, s);
}

tl_tensor *(tl_add_scalar)(tl_tensor *t, double s) { return tl_add_scalar_at(NULL, 0, t, s); }

tl_tensor *tl_mul_scalar_at(const char *file, int line, tl_tensor *t, double s)
{
    return call_tensor(file, line, MT_OP_mul_scalar, t, s);
}

tl_tensor *(tl_mul_scalar)(tl_tensor *t, double s) { return tl_mul_scalar_at(NULL, 0, t, s); }

tl_tensor *tl_neg_at(const char *file, int line, tl_tensor *t)
{
    return call_tensor(file, line, MT_OP_neg, t);
}

tl_tensor *(tl_neg)(tl_tensor *t) { return tl_neg_at(NULL, 0, t); }

tl_tensor *tl_exp_at(const char *file, int line, tl_tensor *t)
{
    return call_tensor(file, line, MT_OP_exp, t);
}

tl_tensor *(tl_exp)(tl_tensor *t) { return tl_exp_at(NULL, 0, t); }

tl_tensor *tl_relu_at(const char *file, int line, tl_tensor *t)
{
    return call_tensor(file, line, MT_OP_relu, t);
}

tl_tensor *(tl_relu)(tl_tensor *t) { return tl_relu_at(NULL, 0, t); }

tl_tensor *tl_sum_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim)
{
    return call_tensor(file, line, MT_OP_sum, t, dim, keepdim);
}

tl_tensor *(tl_sum)(tl_tensor *t, int64_t dim, bool keepdim) { return tl_sum_at(NULL, 0, t, dim, keepdim); }

tl_tensor *tl_mean_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim)
{
    return call_tensor(file, line, MT_OP_mean, t, dim, keepdim);
}

tl_tensor *(tl_mean)(tl_tensor *t, int64_t dim, bool keepdim) { return tl_mean_at(NULL, 0, t, dim, keepdim); }

tl_tensor *tl_softmax_at(const char *file, int line, tl_tensor *t, int64_t dim)
{
    return call_tensor(file, line, MT_OP_softmax, t, dim);
}

tl_tensor *(tl_softmax)(tl_tensor *t, int64_t dim) { return tl_softmax_at(NULL, 0, t, dim); }

tl_tensor *tl_matmul_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call_tensor(file, line, MT_OP_matmul, a, b);
}

tl_tensor *(tl_matmul)(tl_tensor *a, tl_tensor *b) { return tl_matmul_at(NULL, 0, a, b); }

tl_tensor *tl_conv2d_at(const char *file, int line, tl_tensor *x, tl_tensor *w, int64_t stride, int64_t padding)
{
    return call_tensor(file, line, MT_OP_conv2d, x, w, stride, padding);
}

tl_tensor *(tl_conv2d)(tl_tensor *x, tl_tensor *w, int64_t stride, int64_t padding) { return tl_conv2d_at(NULL, 0, x, w, stride, padding); }

void tl_add__at(const char *file, int line, tl_tensor *t, tl_tensor *other)
{
    call_void(file, line, MT_OP_add_, t, other);
}

void (tl_add_)(tl_tensor *t, tl_tensor *other) { tl_add__at(NULL, 0, t, other); }

void tl_sub__at(const char *file, int line, tl_tensor *t, tl_tensor *other)
{
    call_void(file, line, MT_OP_sub_, t, other);
}

void (tl_sub_)(tl_tensor *t, tl_tensor *other) { tl_sub__at(NULL, 0, t, other); }

void tl_mul_scalar__at(const char *file, int line, tl_tensor *t, double s)
{
    call_void(file, line, MT_OP_mul_scalar_, t, s);
}

void (tl_mul_scalar_)(tl_tensor *t, double s) { tl_mul_scalar__at(NULL, 0, t, s); }

void tl_fill__at(const char *file, int line, tl_tensor *t, double v)
{
    call_void(file, line, MT_OP_fill_, t, v);
}

void (tl_fill_)(tl_tensor *t, double v) { tl_fill__at(NULL, 0, t, v); }

void tl_zero__at(const char *file, int line, tl_tensor *t)
{
    call_void(file, line, MT_OP_zero_, t);
}

void (tl_zero_)(tl_tensor *t) { tl_zero__at(NULL, 0, t); }

void tl_copy__at(const char *file, int line, tl_tensor *dst, tl_tensor *src)
{
    call_void(file, line, MT_OP_copy_, dst, src);
}

void (tl_copy_)(tl_tensor *dst, tl_tensor *src) { tl_copy__at(NULL, 0, dst, src); }

void tl_set_at(const char *file, int line, tl_tensor *t, tl_ints index, double value)
{
    call_void(file, line, MT_OP_set, t, index, value);
}

void (tl_set)(tl_tensor *t, tl_ints index, double value) { tl_set_at(NULL, 0, t, index, value); }

double tl_get_at(const char *file, int line, tl_tensor *t, tl_ints index)
{
    return call_double(file, line, MT_OP_get, t, index);
}

double (tl_get)(tl_tensor *t, tl_ints index) { return tl_get_at(NULL, 0, t, index); }
