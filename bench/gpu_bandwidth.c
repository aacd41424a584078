/*
 * gpu_bandwidth.c: copy and cast bandwidth of the CUDA runtime, against the
 * device's peak (run by bench/gpu-check.sh).
 *
 * The worksheet's tensor: x = randn(16, 1024, 4096) f16 on the device,
 * a = x.transpose(1, 2).  Timed: a.contiguous() (the tiled transpose),
 * b.to(f32) with b contiguous (the vectorized cast), a.to(f32) (the same cast
 * in a's memory order, since to() keeps dense strides), b.clone() (a device
 * memcpy through the runtime) and a raw cudaMemcpyAsync of the same bytes.
 * Each measurement is a batch of BATCH calls between two CUDA events (host
 * launch overhead overlaps the device work), per-call time = batch / BATCH;
 * after a warm-up batch, the median of REPS batches.  Results are released
 * after each batch, so the caching allocator serves every timed call from
 * its cache: no cudaMalloc is timed.  Bytes moved = bytes read + written.
 *
 * Peak: 2 x memory clock x bus width (cudaDevAttrMemoryClockRate, in kHz,
 * and cudaDevAttrGlobalMemoryBusWidth); the memcpy figure is the practical
 * peak.  Output: a markdown table on stdout.  Exit 77 without a device;
 * with --probe, only whether a device is usable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <tensorlint/tensor.h>

enum { REPS = 9, BATCH = 8 };

typedef struct bench {
    tl_tensor *a, *b;     /* a: transposed view of x; b: a.contiguous() */
    void *raw_src;        /* cudaMemcpy source and destinations, outside the allocator */
    void *raw_dst[BATCH];
    int64_t nbytes;       /* bytes of x */
} bench;

typedef enum op { OP_CONTIGUOUS, OP_TO_F32, OP_TO_F32_T, OP_CLONE, OP_MEMCPY, N_OPS } op;

static const char *const op_names[N_OPS] = {
    "a.contiguous() (transpose, f16)", "b.to(f32) (contiguous cast)",
    "a.to(f32) (cast, strides kept)", "b.clone() (runtime memcpy)", "cudaMemcpyAsync (raw)",
};

static bool ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return true;
    fprintf(stderr, "gpu_bandwidth: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

static int64_t bytes_moved(const bench *bn, op o)
{
    return o == OP_TO_F32 || o == OP_TO_F32_T ? bn->nbytes * 3 : bn->nbytes * 2;
}

static tl_tensor *run_one(const bench *bn, op o, int i)
{
    switch (o) {
    case OP_CONTIGUOUS: return tl_contiguous(bn->a);
    case OP_TO_F32: return tl_to(bn->b, TL_F32);
    case OP_TO_F32_T: return tl_to(bn->a, TL_F32);
    case OP_CLONE: return tl_clone(bn->b);
    default:
        ok(cudaMemcpyAsync(bn->raw_dst[i], bn->raw_src, (size_t)bn->nbytes,
                           cudaMemcpyDeviceToDevice, 0), "cudaMemcpyAsync");
        return NULL;
    }
}

/* Milliseconds per call of one batch; < 0 on a CUDA failure. */
static float time_batch(const bench *bn, op o, cudaEvent_t start, cudaEvent_t stop)
{
    tl_tensor *out[BATCH];
    float ms = -1;
    if (!ok(cudaEventRecord(start, 0), "cudaEventRecord"))
        return -1;
    for (int i = 0; i < BATCH; i++)
        out[i] = run_one(bn, o, i);
    if (ok(cudaEventRecord(stop, 0), "cudaEventRecord") &&
        ok(cudaEventSynchronize(stop), "cudaEventSynchronize") &&
        ok(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime"))
        ms /= BATCH;
    for (int i = 0; i < BATCH; i++)
        tl_release(out[i]);
    return ms;
}

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* Median of REPS batches after one warm-up batch. */
static float median_ms(const bench *bn, op o, cudaEvent_t start, cudaEvent_t stop)
{
    float t[REPS];
    if (time_batch(bn, o, start, stop) < 0)
        return -1;
    for (int r = 0; r < REPS; r++)
        if ((t[r] = time_batch(bn, o, start, stop)) < 0)
            return -1;
    qsort(t, REPS, sizeof t[0], cmp_float);
    return t[REPS / 2];
}

/* Theoretical bytes per second: DDR (2 transfers per clock) x bus width. */
static double peak_bytes_per_s(int *clock_khz, int *bus_bits)
{
    *clock_khz = *bus_bits = 0;
    if (!ok(cudaDeviceGetAttribute(clock_khz, cudaDevAttrMemoryClockRate, 0), "memory clock") ||
        !ok(cudaDeviceGetAttribute(bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0), "bus width"))
        return 0;
    return 2.0 * (double)*clock_khz * 1e3 * (double)*bus_bits / 8.0;
}

static bool setup(bench *bn)
{
    tl_tensor *x = tl_randn(TL_SHAPE(16, 1024, 4096), TL_F16, TL_CUDA);
    bn->a = tl_transpose(x, 1, 2);
    bn->b = tl_contiguous(bn->a);
    tl_release(x); /* a keeps x's storage alive */
    bn->nbytes = tl_nbytes(bn->b);
    if (!ok(cudaMalloc(&bn->raw_src, (size_t)bn->nbytes), "cudaMalloc"))
        return false;
    for (int i = 0; i < BATCH; i++)
        if (!ok(cudaMalloc(&bn->raw_dst[i], (size_t)bn->nbytes), "cudaMalloc"))
            return false;
    return ok(cudaMemset(bn->raw_src, 1, (size_t)bn->nbytes), "cudaMemset");
}

static void teardown(bench *bn)
{
    cudaFree(bn->raw_src);
    for (int i = 0; i < BATCH; i++)
        cudaFree(bn->raw_dst[i]);
    tl_release(bn->a);
    tl_release(bn->b);
}

static void print_row(const char *name, int64_t bytes, float ms, double peak, double memcpy_bps)
{
    double bps = bytes / (ms * 1e-3);
    printf("| %-32s | %9.1f | %8.4f | %7.1f | %6.1f%% | %6.1f%% |\n", name, bytes / 1048576.0, ms,
           bps / 1e9, peak > 0 ? 100.0 * bps / peak : 0.0,
           memcpy_bps > 0 ? 100.0 * bps / memcpy_bps : 0.0);
}

/* With --probe: only say whether a device is usable (exit 0 or 77). */
int main(int argc, char **argv)
{
    struct cudaDeviceProp prop;
    bench bn = {0};
    cudaEvent_t start, stop;
    float ms[N_OPS];
    int clock_khz, bus_bits;
    if (!tl_device_available(TL_CUDA)) {
        printf("gpu_bandwidth: skipped, no usable CUDA device\n");
        return 77;
    }
    if (argc > 1 && strcmp(argv[1], "--probe") == 0) {
        printf("a CUDA device is usable\n");
        return 0;
    }
    if (!ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties") || !setup(&bn) ||
        !ok(cudaEventCreate(&start), "cudaEventCreate") ||
        !ok(cudaEventCreate(&stop), "cudaEventCreate"))
        return 1;
    double peak = peak_bytes_per_s(&clock_khz, &bus_bits);
    for (int o = 0; o < N_OPS; o++)
        if ((ms[o] = median_ms(&bn, (op)o, start, stop)) < 0)
            return 1;
    double memcpy_bps = bytes_moved(&bn, OP_MEMCPY) / (ms[OP_MEMCPY] * 1e-3);
    printf("device: %s, %d SMs, memory clock %d kHz, bus %d bits: theoretical %.0f GB/s\n",
           prop.name, prop.multiProcessorCount, clock_khz, bus_bits, peak / 1e9);
    printf("tensor: 16 x 1024 x 4096 f16 (%.0f MiB); median of %d batches of %d calls\n\n",
           bn.nbytes / 1048576.0, REPS, BATCH);
    printf("| %-32s | %9s | %8s | %7s | %7s | %7s |\n", "op", "MiB moved", "ms", "GB/s",
           "of peak", "of memcpy");
    printf("|---|---:|---:|---:|---:|---:|\n");
    for (int o = 0; o < N_OPS; o++)
        print_row(op_names[o], bytes_moved(&bn, (op)o), ms[o], peak, memcpy_bps);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    teardown(&bn);
    return tl_last_error()->status == TL_OK ? 0 : 1;
}
