/*
 * cuda_common.cuh: what the CUDA kernel files share.  C-like CUDA C++:
 * plain structs, no classes, templates only over element types and index
 * widths.  The host side checks every CUDA call (cu_ok) and every launch
 * (cu_launched); a failure becomes the pending error of cuda_rt.h.
 *
 * Element access is scalar.h's, the one source of the conversions that the
 * CPU kernels and the emulated device use too: values move through int64
 * (integers and bool, exact, narrowing wraps) or double (floats); floats go
 * to integers by x86's truncation rule; f16 and bf16 round to nearest even
 * with c10's NaNs.
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
#include "scalar.h" /* the conversions the CPU kernels use too */

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

/* scalar.h's conversions in the kernels' argument order (pointer first). */
CU_HD int cu_size_of(int dt) { return sc_size_of(dt); }
CU_HD double cu_ld_f64(const char *p, int dt) { return sc_load_f64(dt, p); }
CU_HD int64_t cu_ld_i64(const char *p, int dt) { return sc_load_i64(dt, p); }
CU_HD uint16_t cu_f32_to_f16_bits(float f) { return sc_f32_to_f16(f); }
CU_HD uint16_t cu_f32_to_bf16_bits(float f) { return sc_f32_to_bf16(f); }
CU_HD bool cu_is_integral(int dt) { return sc_is_integral(dt); }
CU_HD void cu_st_f64(char *p, int dt, double v) { sc_store_f64(dt, p, v); }
CU_HD void cu_st_i64(char *p, int dt, int64_t v) { sc_store_i64(dt, p, v); }
CU_HD void cu_convert(char *d, int ddt, const char *s, int sdt) { sc_convert(d, ddt, s, sdt); }
CU_HD int64_t cu_wrap_int(int64_t v, int dt) { return sc_wrap_int(v, dt); }
CU_HD double cu_round_float(double v, int dt) { return sc_round_float(v, dt); }

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

CU_HD float cu_wide(__half x) { return sc_f16_to_f32(__half_as_ushort(x)); }
CU_HD float cu_wide(__nv_bfloat16 x) { return sc_bf16_to_f32(__bfloat16_as_ushort(x)); }
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

#define CU_GOLDEN SC_GOLDEN

CU_HD uint64_t cu_mix(uint64_t z) { return sc_mix(z); }
CU_HD double cu_uniform(uint64_t base, uint64_t j) { return sc_uniform(base, j); }

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
