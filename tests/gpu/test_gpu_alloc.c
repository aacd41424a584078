/*
 * test_gpu_alloc.c: the caching allocator on the device against the
 * policy's predictions.
 *
 * The same requests go to the runtime (TL_CUDA storages, real cudaMalloc'd
 * segments) and to a policy run on its own (ca_new, no device): every
 * block's size and segment, and allocated / reserved bytes with their peaks,
 * must agree after every step; blocks of one segment must sit at their
 * offsets from each other; a freed block must be handed out again at the
 * same address; the device's own free-memory count (cudaMemGetInfo) must
 * drop by the reserved bytes and come back after emptying the cache.  An
 * impossible request must be TL_ERR_OUT_OF_MEMORY with CUDA's message, and
 * the runtime must go on working after it.
 */
#include "rt_internal.h"

#include "gpu_check.h"

#if defined(TL_HAVE_CUDA) && !defined(TL_GPU_FAKE)
#include <cuda_runtime_api.h>
#define CUDA_MEM_INFO 1
#endif

#define MiB (INT64_C(1) << 20)

static tl_status last_status;
static char last_message[512];

static void on_error(const tl_error *err, void *user)
{
    (void)user;
    last_status = err->status;
    snprintf(last_message, sizeof last_message, "%s", err->message);
}

/* Bytes of device memory in use (0 without the CUDA runtime API). */
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

typedef struct step {
    int64_t nbytes; /* >= 0: a request; -1: free request number `which` */
    int which;
} step;

/* The worked examples of docs/allocator.md in one run, plus reuse (step 11
 * takes the address step 9 freed) and fragmentation (steps 13 to 16). */
static const step steps[] = {
    {1, 0}, {600 * 1024, 0}, {3 * MiB / 2, 0}, {11 * MiB + 1, 0}, {19 * MiB, 0},
    {19 * MiB - 512, 0}, {512, 0}, {512, 0}, {-1, 6}, {4096, 0}, {-1, 9}, {4096, 0},
    {300, 0}, {8 * MiB, 0}, {8 * MiB, 0}, {-1, 13}, {9 * MiB, 0}, {-1, 4}, {25 * MiB, 0},
    {0, 0}, {-1, 2}, {1200000, 0}, {-1, 0}, {-1, 1}, {-1, 7},
};
enum { N_STEPS = sizeof steps / sizeof steps[0] };

static void check_stats(const ca_allocator *ref, int at)
{
    int failed_before = gpu_failures;
    ca_stats want;
    ca_stats_get(ref, CA_SCOPE_ALL, &want);
    tl_memory_stats got = tl_memory_stats_of(TL_CUDA);
    GPU_CHECK_EQ(got.allocated_bytes, want.allocated_bytes.current);
    GPU_CHECK_EQ(got.reserved_bytes, want.reserved_bytes.current);
    GPU_CHECK_EQ(got.peak_allocated_bytes, want.allocated_bytes.peak);
    GPU_CHECK_EQ(got.peak_reserved_bytes, want.reserved_bytes.peak);
    GPU_CHECK_EQ(cu_segments_held(), want.n_segments.current);
    if (gpu_failures > failed_before)
        fprintf(stderr, "  (after step %d)\n", at);
}

/* Block placement: size, segment, alignment, offsets within a segment. */
static void check_block(const ca_allocator *ref, tl_tensor *const *t, const ca_block_id *ids,
                        int k)
{
    ca_block_info info, other;
    if (!ids[k])
        return;
    ca_block_get(ref, ids[k], &info);
    GPU_CHECK_EQ(t[k]->storage->block_bytes, info.size);
    GPU_CHECK_EQ(t[k]->storage->segment, info.segment);
    GPU_CHECK_EQ((int64_t)((uintptr_t)t[k]->storage->data % 256), 0); /* cudaMalloc's promise */
    for (int j = 0; j < k; j++) {
        if (!t[j] || !ids[j] || ca_block_get(ref, ids[j], &other) != CA_OK ||
            other.segment != info.segment)
            continue;
        GPU_CHECK_EQ((char *)t[k]->storage->data - (char *)t[j]->storage->data,
                     info.offset - other.offset);
    }
}

static void check_sequence(void)
{
    tl_tensor *t[N_STEPS] = {0};
    ca_block_id ids[N_STEPS] = {0};
    void *freed_at[N_STEPS] = {0};
    ca_allocator *ref = ca_new(NULL);
    int64_t base = device_used();
    for (int k = 0; k < N_STEPS; k++) {
        if (steps[k].nbytes < 0) {
            int w = steps[k].which;
            freed_at[w] = t[w]->storage->data;
            tl_release(t[w]);
            t[w] = NULL;
            ca_free_block(ref, ids[w]);
        } else {
            ca_block_info info;
            GPU_CHECK(ca_malloc(ref, steps[k].nbytes, &info) == CA_OK);
            ids[k] = info.id;
            t[k] = tl_empty(TL_SHAPE(steps[k].nbytes), TL_U8, TL_CUDA);
            GPU_CHECK(t[k] != NULL);
            if (t[k])
                check_block(ref, t, ids, k);
        }
        check_stats(ref, k);
    }
    GPU_CHECK(t[11] && freed_at[9] && t[11]->storage->data == freed_at[9]);
    int64_t reserved = tl_memory_stats_of(TL_CUDA).reserved_bytes;
    if (mem_info()) {
        int64_t used = device_used() - base;
        printf("reserved by the policy %lld bytes, device memory taken %lld bytes\n",
               (long long)reserved, (long long)used);
        GPU_CHECK(used >= reserved);
        GPU_CHECK(used <= reserved + 64 * MiB);
    }
    for (int k = 0; k < N_STEPS; k++)
        if (t[k]) {
            tl_release(t[k]);
            ca_free_block(ref, ids[k]);
        }
    check_stats(ref, N_STEPS);
    GPU_CHECK_EQ(cu_empty_cache(), ca_empty_cache(ref));
    check_stats(ref, N_STEPS + 1);
    if (mem_info())
        GPU_CHECK(device_used() - base <= 4 * MiB); /* the segments went back to the device */
    (void)reserved, (void)base;
    ca_free(ref);
}

/* The device refuses: OOM with CUDA's message, and nothing stays broken. */
static void check_out_of_memory(void)
{
    tl_memory_stats before = tl_memory_stats_of(TL_CUDA);
    tl_set_error_handler(on_error, NULL);
    last_status = TL_OK;
    GPU_CHECK(tl_empty(TL_SHAPE(INT64_C(1) << 46), TL_U8, TL_CUDA) == NULL); /* 64 TiB */
    GPU_CHECK_EQ(last_status, TL_ERR_OUT_OF_MEMORY);
    GPU_CHECK(strstr(last_message, "CUDA out of memory: tried to allocate 70368744177664 bytes"));
    printf("message: %s\n", last_message);
    last_status = TL_OK;
    GPU_CHECK(tl_empty(TL_SHAPE(INT64_C(1) << 60), TL_U8, TL_CUDA) == NULL); /* PyTorch's 1 EiB */
    GPU_CHECK_EQ(last_status, TL_ERR_OUT_OF_MEMORY);
    last_status = TL_OK;
    tl_tensor *ok = tl_ones(TL_SHAPE(1000), TL_F32, TL_CUDA);
    GPU_CHECK(ok != NULL && last_status == TL_OK);
    GPU_CHECK(ok && tl_get(ok, TL_DIMS(999)) == 1.0);
    tl_release(ok);
    tl_memory_stats after = tl_memory_stats_of(TL_CUDA);
    GPU_CHECK_EQ(after.allocated_bytes, before.allocated_bytes);
    GPU_CHECK_EQ(after.n_live, before.n_live);
    tl_set_error_handler(NULL, NULL);
}

int main(void)
{
    int skip = gpu_require_device("test_gpu_alloc");
    if (skip)
        return skip;
#ifdef TL_GPU_FAKE
    fake.capacity = INT64_C(1) << 32;
#endif
    check_sequence();
    check_out_of_memory();
    return gpu_finish("test_gpu_alloc");
}
