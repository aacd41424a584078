/*
 * test_gpu_worksheet.c: the seed worksheet's blocks at full size on CUDA.
 *
 * The sample programs themselves (samples/worksheet/) are compiled in
 * here, each main renamed, with DEVICE = TL_CUDA.  Before each block the
 * runtime is emptied (every handle released, the cache emptied, the peaks
 * reset), so each block starts on a fresh allocator, as the analyzer
 * assumes.  After it, the runtime's numbers must equal the analyzer's
 * predictions in tests/golden/worksheet_<block>.json: live and peak bytes
 * (the answer key's), and the caching allocator's allocated and reserved
 * peaks and the reserved bytes at the end.  The device's own count of used
 * memory (cudaMemGetInfo) must show the reserved bytes really taken.
 */
#include "gpu_check.h"

#include <jansson.h>

#if defined(TL_HAVE_CUDA) && !defined(TL_GPU_FAKE)
#include <cuda_runtime_api.h>
#define CUDA_MEM_INFO 1
#endif

#define DEVICE TL_CUDA
#define main worksheet_block1
#include "../../samples/worksheet/block1.c"
#undef main
#define main worksheet_block1_release
#include "../../samples/worksheet/block1_release.c"
#undef main
#define main worksheet_block2
#include "../../samples/worksheet/block2.c"
#undef main
#define main worksheet_block3
#include "../../samples/worksheet/block3.c"
#undef main
#define main worksheet_stretch
#include "../../samples/worksheet/stretch.c"
#undef main

void rt_reclaim(void); /* rt_internal.h: release every live handle */

#ifndef TL_SOURCE_DIR_DEFAULT
#define TL_SOURCE_DIR_DEFAULT "."
#endif

typedef struct block {
    const char *name;
    int (*run)(void);
} block;

static const block blocks[] = {
    {"block1", worksheet_block1}, {"block1_release", worksheet_block1_release},
    {"block2", worksheet_block2}, {"block3", worksheet_block3}, {"stretch", worksheet_stretch},
};

typedef struct numbers {
    int64_t peak_live, end_live, allocated_peak, reserved_peak, reserved_end;
} numbers;

static int64_t field(const json_t *f, const char *key)
{
    const json_t *v = json_object_get(f, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

/* The analyzer's numbers for main() of the block, from its golden report. */
static bool predicted(const char *name, numbers *out)
{
    char path[4096];
    const char *src = getenv("TL_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/golden/worksheet_%s.json",
             src && *src ? src : TL_SOURCE_DIR_DEFAULT, name);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    const json_t *f = json_array_get(json_object_get(root, "functions"), 0);
    if (!f) {
        fprintf(stderr, "%s: cannot read the analyzer's report: %s\n", path, err.text);
        json_decref(root);
        return false;
    }
    *out = (numbers){field(f, "peak_live_bytes"), field(f, "end_live_bytes"),
                     field(f, "cuda_allocated_peak_bytes"), field(f, "cuda_reserved_peak_bytes"),
                     field(f, "cuda_reserved_end_bytes")};
    json_decref(root);
    return true;
}

/* The device's own count of used memory is known: cudaMemGetInfo on a GPU,
 * the segments held on the emulated device; not on the fake backend. */
static bool mem_info(void)
{
#ifdef CUDA_MEM_INFO
    return true;
#else
    return cu_emulated();
#endif
}

/* Bytes of device memory in use (0 when mem_info() is false). */
static int64_t device_used(void)
{
    if (cu_emulated())
        return cu_emulation_held();
#ifdef CUDA_MEM_INFO
    size_t free_b = 0, total_b = 0;
    cudaDeviceSynchronize();
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
        return 0;
    return (int64_t)(total_b - free_b);
#else
    return 0;
#endif
}

static void fresh_runtime(void)
{
    rt_reclaim();
    cu_empty_cache();
    tl_reset_peak(TL_CUDA);
}

static void run_block(const block *b)
{
    numbers want, got;
    GPU_CHECK(predicted(b->name, &want));
    fresh_runtime();
    int64_t base = device_used();
    GPU_CHECK_EQ(b->run(), 0);
    GPU_CHECK(cu_synchronize());
    tl_memory_stats s = tl_memory_stats_of(TL_CUDA);
    int64_t taken = device_used() - base;
    got = (numbers){s.peak_bytes, s.live_bytes, s.peak_allocated_bytes, s.peak_reserved_bytes,
                    s.reserved_bytes};
    printf("| %-14s | %13lld | %13lld | %13lld | %13lld | %13lld | %13lld |\n", b->name,
           (long long)got.peak_live, (long long)got.end_live, (long long)got.allocated_peak,
           (long long)got.reserved_peak, (long long)got.reserved_end, (long long)taken);
    GPU_CHECK_EQ(got.peak_live, want.peak_live);
    GPU_CHECK_EQ(got.end_live, want.end_live);
    GPU_CHECK_EQ(got.allocated_peak, want.allocated_peak);
    GPU_CHECK_EQ(got.reserved_peak, want.reserved_peak);
    GPU_CHECK_EQ(got.reserved_end, want.reserved_end);
    if (mem_info())
        GPU_CHECK(taken >= got.reserved_end); /* the segments are real device memory */
}

/* Block k runs: no arguments run every block, else the blocks named. */
static bool wanted(int argc, char **argv, const char *name)
{
    for (int k = 1; k < argc; k++)
        if (strcmp(argv[k], name) == 0)
            return true;
    return argc <= 1;
}

/* test_gpu_worksheet [BLOCK...] */
int main(int argc, char **argv)
{
    int skip = gpu_require_device("test_gpu_worksheet");
    if (skip)
        return skip;
    for (int k = 1; k < argc; k++) {
        bool known = false;
        for (size_t j = 0; j < sizeof blocks / sizeof blocks[0]; j++)
            known = known || strcmp(argv[k], blocks[j].name) == 0;
        if (!known) {
            fprintf(stderr, "test_gpu_worksheet: no block named %s\n", argv[k]);
            return 2;
        }
    }
    printf("| block          |     peak live |      end live | alloc'd peak  | reserved peak |"
           "  reserved end | device taken  |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
        if (wanted(argc, argv, blocks[k].name))
            run_block(&blocks[k]);
    fresh_runtime();
    return gpu_finish("test_gpu_worksheet");
}
