/*
 * cuda_common.cuh: what the CUDA kernel files share.  C-like CUDA C++:
 * plain structs, no classes, templates only over element types and index
 * widths.  The host side checks every CUDA call (cu_ok) and every launch
 * (cu_launched); a failure becomes the pending error of cuda_rt.h.
 *
 * Element access follows kernels.h's conversion rules (kernel_convert.c):
 * values move through one of two domains, int64 (integers and bool, exact,
 * narrowing wraps) and double (floats: f16/bf16/f32 widen exactly); floats
 * go to integers by x86's truncation rule (a value that does not fit the
 * 32-bit, or for i64 the 64-bit, range gives the "integer indefinite"
 * INT32_MIN / INT64_MIN, of which i8/u8/i16 keep the low bits); f64 goes to
 * f16/bf16 through f32; f16 and bf16 round to nearest even, and a NaN
 * becomes c10's canonical 0x7E00 (sign kept) / 0x7FC0, as on the CPU.
 */
#ifndef TL_CUDA_COMMON_CUH
#define TL_CUDA_COMMON_CUH

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

/* The runtime's headers are C and have no linkage blocks of their own. */
extern "C" {
#include "cuda_rt.h"
}

enum { CU_THREADS = 256 }; /* threads per block of the elementwise kernels */

/* ---- host: checks and launch geometry (cuda_device.cu) ---- */

/* true on cudaSuccess; else the failure is recorded under call's name. */
bool cu_ok(cudaError_t e, const char *call);
/* Checks the last launch (configuration errors, a sticky earlier fault). */
bool cu_launched(const char *kernel);
bool cu_blas_ok(cublasStatus_t s, const char *call);
/* The cuBLAS handle, created on first use (cuBLAS loaded then); NULL with
 * the failure recorded. */
cublasHandle_t cu_blas(void);
/* cublasGemmStridedBatchedEx through the loaded library (CUBLAS_GEMM_DEFAULT). */
cublasStatus_t cu_blas_gemm_strided_batched(cublasHandle_t h, cublasOperation_t ta,
                                            cublasOperation_t tb, int m, int n, int k,
                                            const void *alpha, const void *a, cudaDataType at,
                                            int lda, long long sa, const void *b,
                                            cudaDataType bt, int ldb, long long sb,
                                            const void *beta, void *c, cudaDataType ct, int ldc,
                                            long long sc, int count, cublasComputeType_t compute);
/* Most blocks a grid-stride kernel is given: a few waves of the device. */
int64_t cu_max_blocks(void);
/* Blocks for n items at CU_THREADS per block. */
unsigned cu_grid(int64_t n);

/* ---- element loads and stores by dtype (host and device: the host build
 * is checked against the CPU kernels by tests/unit/test_cuda_helpers.cu) ---- */

#define CU_HD __host__ __device__ __forceinline__

/* Bytes per element (tensor.h's order: 1,1,1,2,4,8,2,2,4,8). */
CU_HD int cu_size_of(int dt)
{
    switch (dt) {
    case TL_I16: case TL_F16: case TL_BF16: return 2;
    case TL_I32: case TL_F32: return 4;
    case TL_I64: case TL_F64: return 8;
    default: return 1;
    }
}

CU_HD double cu_ld_f64(const char *p, int dt)
{
    switch (dt) {
    case TL_BOOL: return *(const uint8_t *)p != 0;
    case TL_U8: return *(const uint8_t *)p;
    case TL_I8: return *(const int8_t *)p;
    case TL_I16: return *(const int16_t *)p;
    case TL_I32: return *(const int32_t *)p;
    case TL_I64: return (double)*(const int64_t *)p;
    case TL_F16: return __half2float(*(const __half *)p);
    case TL_BF16: return __bfloat162float(*(const __nv_bfloat16 *)p);
    case TL_F32: return *(const float *)p;
    default: return *(const double *)p;
    }
}

CU_HD int32_t cu_trunc_i32(double v)
{
    return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}

CU_HD int64_t cu_trunc_i64(double v)
{
    return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
}

/* Integer dtypes exactly; floats by the truncation rule. */
CU_HD int64_t cu_ld_i64(const char *p, int dt)
{
    switch (dt) {
    case TL_BOOL: return *(const uint8_t *)p != 0;
    case TL_U8: return *(const uint8_t *)p;
    case TL_I8: return *(const int8_t *)p;
    case TL_I16: return *(const int16_t *)p;
    case TL_I32: return *(const int32_t *)p;
    case TL_I64: return *(const int64_t *)p;
    default: return cu_trunc_i64(cu_ld_f64(p, dt));
    }
}

CU_HD uint16_t cu_f32_to_f16_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (f != f)
        return (uint16_t)((u >> 16 & 0x8000u) | 0x7E00u);
    return __half_as_ushort(__float2half_rn(f));
}

CU_HD uint16_t cu_f32_to_bf16_bits(float f)
{
    if (f != f)
        return 0x7FC0;
    return __bfloat16_as_ushort(__float2bfloat16_rn(f));
}

CU_HD bool cu_is_integral(int dt) { return dt <= TL_I64; }

/* A double into dtype dt (floats to integers by truncation). */
CU_HD void cu_st_f64(char *p, int dt, double v)
{
    switch (dt) {
    case TL_BOOL: *(uint8_t *)p = v != 0; return;
    case TL_U8: *(uint8_t *)p = (uint8_t)(uint32_t)cu_trunc_i32(v); return;
    case TL_I8: *(int8_t *)p = (int8_t)cu_trunc_i32(v); return;
    case TL_I16: *(int16_t *)p = (int16_t)cu_trunc_i32(v); return;
    case TL_I32: *(int32_t *)p = cu_trunc_i32(v); return;
    case TL_I64: *(int64_t *)p = cu_trunc_i64(v); return;
    case TL_F16: *(uint16_t *)p = cu_f32_to_f16_bits((float)v); return;
    case TL_BF16: *(uint16_t *)p = cu_f32_to_bf16_bits((float)v); return;
    case TL_F32: *(float *)p = (float)v; return;
    default: *(double *)p = v; return;
    }
}

/* An int64 into dtype dt (integers wrap; floats round once). */
CU_HD void cu_st_i64(char *p, int dt, int64_t v)
{
    switch (dt) {
    case TL_BOOL: *(uint8_t *)p = v != 0; return;
    case TL_U8: *(uint8_t *)p = (uint8_t)v; return;
    case TL_I8: *(int8_t *)p = (int8_t)v; return;
    case TL_I16: *(int16_t *)p = (int16_t)v; return;
    case TL_I32: *(int32_t *)p = (int32_t)v; return;
    case TL_I64: *(int64_t *)p = v; return;
    case TL_F16: *(uint16_t *)p = cu_f32_to_f16_bits((float)v); return;
    case TL_BF16: *(uint16_t *)p = cu_f32_to_bf16_bits((float)v); return;
    case TL_F32: *(float *)p = (float)v; return;
    default: *(double *)p = (double)v; return;
    }
}

/* dst = src, one element, any two dtypes (the copy rule). */
CU_HD void cu_convert(char *d, int ddt, const char *s, int sdt)
{
    if (cu_is_integral(sdt))
        cu_st_i64(d, ddt, cu_ld_i64(s, sdt));
    else
        cu_st_f64(d, ddt, cu_ld_f64(s, sdt));
}

/* An integer value as dtype dt holds it (wraps; bool is != 0). */
CU_HD int64_t cu_wrap_int(int64_t v, int dt)
{
    switch (dt) {
    case TL_BOOL: return v != 0;
    case TL_U8: return (uint8_t)v;
    case TL_I8: return (int8_t)v;
    case TL_I16: return (int16_t)v;
    case TL_I32: return (int32_t)v;
    default: return v;
    }
}

/* A value as floating dtype dt holds it (f64 untouched). */
CU_HD double cu_round_float(double v, int dt)
{
    switch (dt) {
    case TL_F16: return __half2float(__ushort_as_half(cu_f32_to_f16_bits((float)v)));
    case TL_BF16: return __bfloat162float(__ushort_as_bfloat16(cu_f32_to_bf16_bits((float)v)));
    case TL_F32: return (float)v;
    default: return v;
    }
}

/* Copy one element of size bytes (raw bits). */
CU_HD void cu_move(char *d, const char *s, int size)
{
    switch (size) {
    case 1: *(uint8_t *)d = *(const uint8_t *)s; return;
    case 2: *(uint16_t *)d = *(const uint16_t *)s; return;
    case 4: *(uint32_t *)d = *(const uint32_t *)s; return;
    default: *(uint64_t *)d = *(const uint64_t *)s; return;
    }
}

/* ---- offsets of a plan's operands for a linear index ---- */

/* Offsets (elements) of the first n operands of p at linear index i,
 * row-major over p's shape.  IDX is the width of the division.  (The loops
 * over N are unrolled by the device compiler without being asked.) */
template <typename IDX, int N>
CU_HD void cu_plan_offsets(const cu_plan &p, IDX i, int64_t (&off)[N])
{
    for (int k = 0; k < N; k++)
        off[k] = p.offset[k];
    for (int d = p.nd - 1; d > 0; d--) {
        IDX size = (IDX)p.shape[d], c = i % size;
        i /= size;
        for (int k = 0; k < N; k++)
            off[k] += (int64_t)c * p.st[k][d];
    }
    for (int k = 0; k < N; k++)
        off[k] += (int64_t)i * p.st[k][0];
}

/* Offset (elements) of row-major index i of a layout (no merging: any shape). */
CU_HD int64_t cu_layout_offset(const mt_layout &l, int64_t i)
{
    int64_t off = l.offset;
    for (int d = l.ndim - 1; d >= 0; d--) {
        int64_t c = i % l.shape[d];
        i /= l.shape[d];
        off += c * l.strides[d];
    }
    return off;
}

/* ---- floating casts of the vectorized copy: widen, then round once ---- */

CU_HD float cu_wide(__half x) { return __half2float(x); }
CU_HD float cu_wide(__nv_bfloat16 x) { return __bfloat162float(x); }
CU_HD float cu_wide(float x) { return x; }
CU_HD double cu_wide(double x) { return x; }

CU_HD void cu_put(__half *d, double v)
{
    *d = __ushort_as_half(cu_f32_to_f16_bits((float)v));
}
CU_HD void cu_put(__nv_bfloat16 *d, double v)
{
    *d = __ushort_as_bfloat16(cu_f32_to_bf16_bits((float)v));
}
CU_HD void cu_put(float *d, double v) { *d = (float)v; }
CU_HD void cu_put(double *d, double v) { *d = v; }

/* ---- randomness: kernel_rand.c's generator, counter-based ---- */

#define CU_GOLDEN 0x9E3779B97F4A7C15ull

CU_HD uint64_t cu_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Draw j (0-based) of a call starting at state base, as splitmix64 makes it:
 * [0, 1) with 53 random bits. */
CU_HD double cu_uniform(uint64_t base, uint64_t j)
{
    return (double)(cu_mix(base + (j + 1) * CU_GOLDEN) >> 11) * 0x1.0p-53;
}

/* randn's element i (row-major) with rows of `row` elements: Box-Muller on
 * the pair of draws kernel_rand.c gives it (rows use row + (row odd) draws). */
CU_HD double cu_randn_value(uint64_t base, int64_t row, int64_t i)
{
    int64_t r = i / row, c = i % row, per_row = row + (row & 1);
    uint64_t j = (uint64_t)(r * per_row + (c & ~(int64_t)1));
    double u1 = 1.0 - cu_uniform(base, j), u2 = cu_uniform(base, j + 1);
    double rad = sqrt(-2.0 * log(u1)), theta = 2.0 * 3.14159265358979323846 * u2;
    return (c & 1) ? rad * sin(theta) : rad * cos(theta);
}

/* Draws a randn call of n elements with rows of `row` uses. */
CU_HD uint64_t cu_randn_draws(int64_t n, int64_t row)
{
    return (uint64_t)(n / row * (row + (row & 1)));
}

/* ---- the kernel table's entries (kernels.h's meanings) ---- */

/* cuda_copy.cu */
void cu_copy(const rt_buf *dst, const rt_buf *src);
void cu_fill(const rt_buf *dst, double v);
void cu_arange(const rt_buf *dst);
void cu_randn(const rt_buf *dst, rt_rng *rng);
void cu_randint(const rt_buf *dst, int64_t low, int64_t high, rt_rng *rng);
/* cuda_compute.cu */
void cu_binary(rt_binop op, const rt_buf *out, const rt_buf *a, const rt_buf *b);
void cu_binary_scalar(rt_binop op, const rt_buf *out, const rt_buf *a, double s);
void cu_unary(rt_unop op, const rt_buf *out, const rt_buf *a);
void cu_binary_inplace(rt_binop op, const rt_buf *t, const rt_buf *other);
void cu_mul_scalar_inplace(const rt_buf *t, double s);
void cu_reduce(rt_redop op, const rt_buf *out, const rt_buf *a, int dim, bool keepdim);
void cu_softmax(const rt_buf *out, const rt_buf *a, int dim);
/* cuda_index.cu */
void cu_index_select(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx);
void cu_gather(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx);
void cu_index(const rt_buf *out, const rt_buf *t, const rt_buf *idx);
void cu_cat(const rt_buf *out, int n, const rt_buf *parts, int dim);
void cu_conv2d(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
               int64_t padding);
/* cuda_matmul.cu */
void cu_matmul(const rt_buf *out, const rt_buf *a, const rt_buf *b);

#endif /* TL_CUDA_COMMON_CUH */
