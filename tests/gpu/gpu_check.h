/*
 * gpu_check.h: what the GPU tests share.  Plain C, no test framework (the
 * GPU machine gets a bundle of binaries and as few libraries as possible).
 * A test program exits 77 when no CUDA device is usable (ctest then reports
 * it skipped), 1 when a check failed, 0 otherwise.  The same programs run
 * on the emulated device when TL_CUDA_EMULATION=1 (tests/gpu.cmake).  Failures print the
 * check's file and line and keep going, so one run shows every mismatch.
 */
#ifndef TL_GPU_CHECK_H
#define TL_GPU_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tensorlint/tensor.h>

#include "cuda_rt.h"

enum { GPU_SKIP = 77 };

static int gpu_failures, gpu_checks;

static inline void gpu_check_at(const char *file, int line, int ok, const char *what)
{
    gpu_checks++;
    if (ok)
        return;
    gpu_failures++;
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

#define GPU_CHECK(cond) gpu_check_at(__FILE__, __LINE__, (cond) != 0, #cond)

/* Equal integers, both printed on failure. */
static inline void gpu_check_eq_at(const char *file, int line, long long got, long long want,
                            const char *what)
{
    gpu_checks++;
    if (got == want)
        return;
    gpu_failures++;
    fprintf(stderr, "%s:%d: %s: got %lld, want %lld\n", file, line, what, got, want);
}

#define GPU_CHECK_EQ(got, want) gpu_check_eq_at(__FILE__, __LINE__, (got), (want), #got)

#ifdef TL_GPU_FAKE
#include "fake_backend.h"

/* The host build of a GPU test: the fake backend plays the device. */
static int gpu_require_device(const char *test)
{
    fake_install(1);
    printf("%s: on the fake backend (CPU kernels), checking the test itself\n", test);
    return 0;
}
#else
/* 77 unless a CUDA device is usable; the reason goes to stdout.  With
 * TL_CUDA_EMULATION=1 the device is the emulated one (host memory, host
 * kernels, the real caching allocator): ctest's "emulation" label. */
static int gpu_require_device(const char *test)
{
    if (tl_device_available(TL_CUDA)) {
        if (cu_emulated())
            printf("%s: on the emulated CUDA device (TL_CUDA_EMULATION)\n", test);
        return 0;
    }
    printf("%s: skipped: %s\n", test, cu_unavailable_reason());
    return GPU_SKIP;
}
#endif

static inline int gpu_finish(const char *test)
{
    printf("%s: %d checks, %d failed\n", test, gpu_checks, gpu_failures);
    return gpu_failures ? 1 : 0;
}

#endif /* TL_GPU_CHECK_H */
