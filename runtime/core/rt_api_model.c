/*
 * rt_api_model.c: the public entry points of the ops for real models
 * (tensor.h, "ops for real models"), written as rt_api.c writes the others:
 * each tl_X_at hands its arguments, in ops.def signature order, to rt_exec;
 * each plain tl_X is the same call without a site.  Variadic promotion:
 * bools, dtypes and devices travel as int, host pointers as const void *.
 */
#include "rt_internal.h"

static rt_outcome call(const char *file, int line, mt_op op, ...)
{
    rt_site site = {file, line, op};
    va_list ap;
    va_start(ap, op);
    rt_outcome o = rt_exec(&site, &ap);
    va_end(ap);
    return o;
}

tl_tensor *tl_sqrt_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_sqrt, t).t;
}

tl_tensor *(tl_sqrt)(tl_tensor *t) { return tl_sqrt_at(NULL, 0, t); }

tl_tensor *tl_rsqrt_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_rsqrt, t).t;
}

tl_tensor *(tl_rsqrt)(tl_tensor *t) { return tl_rsqrt_at(NULL, 0, t); }

tl_tensor *tl_log_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_log, t).t;
}

tl_tensor *(tl_log)(tl_tensor *t) { return tl_log_at(NULL, 0, t); }

tl_tensor *tl_sin_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_sin, t).t;
}

tl_tensor *(tl_sin)(tl_tensor *t) { return tl_sin_at(NULL, 0, t); }

tl_tensor *tl_cos_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_cos, t).t;
}

tl_tensor *(tl_cos)(tl_tensor *t) { return tl_cos_at(NULL, 0, t); }

tl_tensor *tl_tanh_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_tanh, t).t;
}

tl_tensor *(tl_tanh)(tl_tensor *t) { return tl_tanh_at(NULL, 0, t); }

tl_tensor *tl_sigmoid_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_sigmoid, t).t;
}

tl_tensor *(tl_sigmoid)(tl_tensor *t) { return tl_sigmoid_at(NULL, 0, t); }

tl_tensor *tl_silu_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_silu, t).t;
}

tl_tensor *(tl_silu)(tl_tensor *t) { return tl_silu_at(NULL, 0, t); }

tl_tensor *tl_gelu_at(const char *file, int line, tl_tensor *t)
{
    return call(file, line, MT_OP_gelu, t).t;
}

tl_tensor *(tl_gelu)(tl_tensor *t) { return tl_gelu_at(NULL, 0, t); }

tl_tensor *tl_pow_scalar_at(const char *file, int line, tl_tensor *t, double s)
{
    return call(file, line, MT_OP_pow_scalar, t, s).t;
}

tl_tensor *(tl_pow_scalar)(tl_tensor *t, double s) { return tl_pow_scalar_at(NULL, 0, t, s); }

tl_tensor *tl_div_scalar_at(const char *file, int line, tl_tensor *t, double s)
{
    return call(file, line, MT_OP_div_scalar, t, s).t;
}

tl_tensor *(tl_div_scalar)(tl_tensor *t, double s) { return tl_div_scalar_at(NULL, 0, t, s); }

tl_tensor *tl_maximum_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call(file, line, MT_OP_maximum, a, b).t;
}

tl_tensor *(tl_maximum)(tl_tensor *a, tl_tensor *b) { return tl_maximum_at(NULL, 0, a, b); }

tl_tensor *tl_minimum_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call(file, line, MT_OP_minimum, a, b).t;
}

tl_tensor *(tl_minimum)(tl_tensor *a, tl_tensor *b) { return tl_minimum_at(NULL, 0, a, b); }

tl_tensor *tl_max_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim)
{
    return call(file, line, MT_OP_max, t, dim, (int)keepdim).t;
}

tl_tensor *(tl_max)(tl_tensor *t, int64_t dim, bool keepdim) { return tl_max_at(NULL, 0, t, dim, keepdim); }

tl_tensor *tl_argmax_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim)
{
    return call(file, line, MT_OP_argmax, t, dim, (int)keepdim).t;
}

tl_tensor *(tl_argmax)(tl_tensor *t, int64_t dim, bool keepdim) { return tl_argmax_at(NULL, 0, t, dim, keepdim); }

tl_tensor *tl_where_at(const char *file, int line, tl_tensor *cond, tl_tensor *a, tl_tensor *b)
{
    return call(file, line, MT_OP_where, cond, a, b).t;
}

tl_tensor *(tl_where)(tl_tensor *cond, tl_tensor *a, tl_tensor *b) { return tl_where_at(NULL, 0, cond, a, b); }

tl_tensor *tl_masked_fill_at(const char *file, int line, tl_tensor *t, tl_tensor *mask, double value)
{
    return call(file, line, MT_OP_masked_fill, t, mask, value).t;
}

tl_tensor *(tl_masked_fill)(tl_tensor *t, tl_tensor *mask, double value) { return tl_masked_fill_at(NULL, 0, t, mask, value); }

tl_tensor *tl_triu_at(const char *file, int line, tl_tensor *t, int64_t diagonal)
{
    return call(file, line, MT_OP_triu, t, diagonal).t;
}

tl_tensor *(tl_triu)(tl_tensor *t, int64_t diagonal) { return tl_triu_at(NULL, 0, t, diagonal); }

tl_tensor *tl_tril_at(const char *file, int line, tl_tensor *t, int64_t diagonal)
{
    return call(file, line, MT_OP_tril, t, diagonal).t;
}

tl_tensor *(tl_tril)(tl_tensor *t, int64_t diagonal) { return tl_tril_at(NULL, 0, t, diagonal); }

tl_tensor *tl_stack_at(const char *file, int line, tl_list list, int64_t dim)
{
    return call(file, line, MT_OP_stack, list, dim).t;
}

tl_tensor *(tl_stack)(tl_list list, int64_t dim) { return tl_stack_at(NULL, 0, list, dim); }

tl_tensor *tl_eq_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call(file, line, MT_OP_eq, a, b).t;
}

tl_tensor *(tl_eq)(tl_tensor *a, tl_tensor *b) { return tl_eq_at(NULL, 0, a, b); }

tl_tensor *tl_lt_at(const char *file, int line, tl_tensor *a, tl_tensor *b)
{
    return call(file, line, MT_OP_lt, a, b).t;
}

tl_tensor *(tl_lt)(tl_tensor *a, tl_tensor *b) { return tl_lt_at(NULL, 0, a, b); }

void tl_mul__at(const char *file, int line, tl_tensor *t, tl_tensor *other)
{
    call(file, line, MT_OP_mul_, t, other);
}

void (tl_mul_)(tl_tensor *t, tl_tensor *other) { tl_mul__at(NULL, 0, t, other); }

void tl_div__at(const char *file, int line, tl_tensor *t, tl_tensor *other)
{
    call(file, line, MT_OP_div_, t, other);
}

void (tl_div_)(tl_tensor *t, tl_tensor *other) { tl_div__at(NULL, 0, t, other); }

void tl_add_scalar__at(const char *file, int line, tl_tensor *t, double s)
{
    call(file, line, MT_OP_add_scalar_, t, s);
}

void (tl_add_scalar_)(tl_tensor *t, double s) { tl_add_scalar__at(NULL, 0, t, s); }

void tl_matmul_out_at(const char *file, int line, tl_tensor *out, tl_tensor *a, tl_tensor *b)
{
    call(file, line, MT_OP_matmul_out, out, a, b);
}

void (tl_matmul_out)(tl_tensor *out, tl_tensor *a, tl_tensor *b) { tl_matmul_out_at(NULL, 0, out, a, b); }

void tl_softmax_out_at(const char *file, int line, tl_tensor *out, tl_tensor *t, int64_t dim)
{
    call(file, line, MT_OP_softmax_out, out, t, dim);
}

void (tl_softmax_out)(tl_tensor *out, tl_tensor *t, int64_t dim) { tl_softmax_out_at(NULL, 0, out, t, dim); }

tl_tensor *tl_from_data_at(const char *file, int line, const void *ptr, tl_ints shape, tl_dtype dtype, tl_device device)
{
    return call(file, line, MT_OP_from_data, ptr, shape, (int)dtype, (int)device).t;
}

tl_tensor *(tl_from_data)(const void *ptr, tl_ints shape, tl_dtype dtype, tl_device device) { return tl_from_data_at(NULL, 0, ptr, shape, dtype, device); }

tl_tensor *tl_from_blob_at(const char *file, int line, void *ptr, tl_ints shape, tl_dtype dtype)
{
    return call(file, line, MT_OP_from_blob, (const void *)ptr, shape, (int)dtype).t;
}

tl_tensor *(tl_from_blob)(void *ptr, tl_ints shape, tl_dtype dtype) { return tl_from_blob_at(NULL, 0, ptr, shape, dtype); }

void tl_copy_to_host_at(const char *file, int line, tl_tensor *t, void *ptr, int64_t nbytes)
{
    call(file, line, MT_OP_copy_to_host, t, (const void *)ptr, nbytes);
}

void (tl_copy_to_host)(tl_tensor *t, void *ptr, int64_t nbytes) { tl_copy_to_host_at(NULL, 0, t, ptr, nbytes); }
