/*
 * cuda_device.cu: the CUDA backend (cuda_rt.h's cu_backend_cuda): device
 * discovery, raw device memory (cudaMalloc / cudaFree), copies, the cuBLAS
 * handle (cuBLAS is loaded with dlopen on first use), the checks every CUDA
 * call goes through, and the kernel table.
 *
 * Everything runs on the legacy default stream, so device work, copies and
 * cuBLAS calls are ordered among themselves and a block the caching
 * allocator hands out again is never still in use.  Kernels are launched
 * asynchronously; a fault inside one surfaces at the next call that waits
 * for the device (an element read, a transfer, a scratch free, exit) and is
 * reported there as TL_ERR_DEVICE with CUDA's message.  Failing calls never
 * abort: each returns false and records the first failure.  No managed
 * memory is used.
 */
#include "cuda_common.cuh"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static int n_sms;             /* multiprocessors of device 0 */
static cublasHandle_t blas;   /* created on first use */
static char *why;             /* why no device is usable (heap) */

/* ---- checks ---- */

static tl_status status_of(cudaError_t e)
{
    return e == cudaErrorMemoryAllocation ? TL_ERR_OUT_OF_MEMORY : TL_ERR_DEVICE;
}

bool cu_ok(cudaError_t e, const char *call)
{
    if (e == cudaSuccess)
        return true;
    cu_fail(status_of(e), call, cudaGetErrorString(e));
    return false;
}

bool cu_launched(const char *kernel)
{
    return cu_ok(cudaGetLastError(), kernel);
}

/* ---- cuBLAS, loaded on the first matmul ----
 * Linking libcublas would cost every program that loads libtensorlint about
 * 80 ms at start (libcublasLt's relocations), CPU-only programs included;
 * dlopen defers that to the first TL_CUDA matmul. */

#define CU_STR(x) #x
#define CU_XSTR(x) CU_STR(x)
#define CU_CUBLAS_SONAME "libcublas.so." CU_XSTR(CUBLAS_VER_MAJOR)

/* The C entry point (the header also has a C++ overload with a cudaDataType compute type). */
typedef cublasStatus_t (*cu_gemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                     int, int, const void *, const void *, cudaDataType, int,
                                     long long, const void *, cudaDataType, int, long long,
                                     const void *, void *, cudaDataType, int, long long, int,
                                     cublasComputeType_t, cublasGemmAlgo_t);

static struct {
    void *lib;
    decltype(&cublasCreate_v2) create;
    decltype(&cublasDestroy_v2) destroy;
    cu_gemm_fn gemm;
    decltype(&cublasGetStatusString) status_string;
} cublas;

static bool cublas_load(void)
{
    if (cublas.lib)
        return true;
    void *lib = dlopen(CU_CUBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        cu_fail(TL_ERR_DEVICE, "dlopen " CU_CUBLAS_SONAME, "cuBLAS could not be loaded");
        return false;
    }
    cublas.create = (decltype(cublas.create))dlsym(lib, "cublasCreate_v2");
    cublas.destroy = (decltype(cublas.destroy))dlsym(lib, "cublasDestroy_v2");
    cublas.gemm = (decltype(cublas.gemm))dlsym(lib, "cublasGemmStridedBatchedEx");
    cublas.status_string = (decltype(cublas.status_string))dlsym(lib, "cublasGetStatusString");
    if (!cublas.create || !cublas.destroy || !cublas.gemm || !cublas.status_string) {
        dlclose(lib);
        cu_fail(TL_ERR_DEVICE, "dlsym " CU_CUBLAS_SONAME, "a cuBLAS entry point is missing");
        return false;
    }
    cublas.lib = lib;
    return true;
}

bool cu_blas_ok(cublasStatus_t s, const char *call)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return true;
    cu_fail(s == CUBLAS_STATUS_ALLOC_FAILED ? TL_ERR_OUT_OF_MEMORY : TL_ERR_DEVICE, call,
            cublas.status_string ? cublas.status_string(s) : "cuBLAS error");
    return false;
}

cublasHandle_t cu_blas(void)
{
    if (!blas && cublas_load() && !cu_blas_ok(cublas.create(&blas), "cublasCreate"))
        blas = NULL;
    return blas;
}

cublasStatus_t cu_blas_gemm_strided_batched(cublasHandle_t h, cublasOperation_t ta,
                                            cublasOperation_t tb, int m, int n, int k,
                                            const void *alpha, const void *a, cudaDataType at,
                                            int lda, long long sa, const void *b,
                                            cudaDataType bt, int ldb, long long sb,
                                            const void *beta, void *c, cudaDataType ct, int ldc,
                                            long long sc, int count, cublasComputeType_t compute)
{
    return cublas.gemm(h, ta, tb, m, n, k, alpha, a, at, lda, sa, b, bt, ldb, sb, beta, c, ct,
                       ldc, sc, count, compute, CUBLAS_GEMM_DEFAULT);
}

int64_t cu_max_blocks(void)
{
    return (int64_t)(n_sms > 0 ? n_sms : 132) * 8;
}

unsigned cu_grid(int64_t n)
{
    return (unsigned)cu_blocks_for(n, CU_THREADS, cu_max_blocks());
}

/* ---- the backend ---- */

/* "call: CUDA's message", kept until the next question or shutdown. */
static const char *why_text(const char *call, cudaError_t e)
{
    const char *msg = cudaGetErrorString(e);
    size_t n = strlen(call) + strlen(msg) + 3;
    free(why);
    why = (char *)malloc(n);
    if (!why)
        return msg;
    snprintf(why, n, "%s: %s", call, msg);
    cudaGetLastError();
    return why;
}

/* cudaGetDeviceCount leaves its output untouched without a driver (error 35). */
static int device_count(const char **reason)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        *reason = why_text("cudaGetDeviceCount", e);
        return 0;
    }
    if (n <= 0) {
        *reason = "cudaGetDeviceCount found no CUDA device";
        return 0;
    }
    e = cudaSetDevice(0);
    if (e != cudaSuccess) {
        *reason = why_text("cudaSetDevice", e);
        return 0;
    }
    e = cudaDeviceGetAttribute(&n_sms, cudaDevAttrMultiProcessorCount, 0);
    if (e != cudaSuccess) {
        *reason = why_text("cudaDeviceGetAttribute", e);
        return 0;
    }
    return n;
}

/* Out of memory is not sticky: it is cleared so that the retry can succeed. */
static tl_status mem_alloc(int64_t nbytes, void **ptr, const char **detail)
{
    cudaError_t e = cudaMalloc(ptr, (size_t)nbytes);
    if (e == cudaSuccess)
        return TL_OK;
    *ptr = NULL;
    *detail = cudaGetErrorString(e);
    cudaGetLastError();
    return status_of(e);
}

static void mem_free(void *ptr)
{
    cudaError_t e = cudaFree(ptr);
    if (e != cudaErrorCudartUnloading)
        cu_ok(e, "cudaFree");
}

static bool copy(void *dst, const void *src, int64_t nbytes, cu_copy_kind kind)
{
    if (kind == CU_DEVICE_TO_DEVICE)
        return cu_ok(cudaMemcpyAsync(dst, src, (size_t)nbytes, cudaMemcpyDeviceToDevice, 0),
                     "cudaMemcpyAsync (device to device)");
    if (kind == CU_HOST_TO_DEVICE)
        return cu_ok(cudaMemcpy(dst, src, (size_t)nbytes, cudaMemcpyHostToDevice),
                     "cudaMemcpy (host to device)");
    return cu_ok(cudaMemcpy(dst, src, (size_t)nbytes, cudaMemcpyDeviceToHost),
                 "cudaMemcpy (device to host)");
}

static bool synchronize(void)
{
    return cu_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

static void shutdown(void)
{
    if (blas)
        cublas.destroy(blas);
    blas = NULL;
    free(why);
    why = NULL;
}

/* ---- the kernel table (cuda_copy.cu, cuda_compute.cu, cuda_index.cu, cuda_matmul.cu,
 * cuda_model.cu) ---- */

extern "C" void cu_model(const mt_call *c, const rt_buf *out, int n, const rt_buf *in);

static const cu_kernels kernels = {
    cu_copy, cu_fill, cu_arange, cu_randn, cu_randint, cu_binary, cu_binary_scalar, cu_unary,
    cu_reduce, cu_softmax, cu_matmul, cu_conv2d, cu_index_select, cu_gather, cu_index, cu_cat,
    cu_binary_inplace, cu_mul_scalar_inplace, cu_model,
};

extern "C" const cu_backend cu_backend_cuda = {
    "cuda", device_count, mem_alloc, mem_free, copy, synchronize, shutdown, &kernels,
};
