/*
 * cuda_alloc.c: device storages through the caching allocator.
 *
 * The policy (alloc_policy.h) decides everything: which block of which
 * segment a request gets, when a segment is created and when one is
 * released.  This file only carries out its decisions through the policy's
 * hooks: segment_alloc asks the backend for the segment's memory (cudaMalloc)
 * and segment_release gives it back (cudaFree).  A refused segment_alloc is
 * remembered (out of memory, or a device error) so that a request the policy
 * finally answers CA_ERR_OOM is reported with the real cause; a refusal
 * that a retry overcomes leaves nothing pending.
 *
 * The segment table maps segment ids (1, 2, 3 ... in creation order, so
 * appending keeps it sorted) to base addresses; a block's address is its
 * segment's base plus its offset.  The allocator is created with the first
 * request and dropped by cu_alloc_shutdown, which frees every segment.
 */
#include "cuda_rt.h"

#include <stdlib.h>
#include <string.h>

typedef struct seg_entry {
    ca_segment_id id;
    void *base;
    int64_t nbytes; /* bytes */
} seg_entry;

static ca_allocator *policy;
static seg_entry *segs;
static int64_t n_segs, cap_segs;
static tl_status refusal;          /* TL_OK, or why the last segment_alloc failed */
static const char *refusal_detail;

/* Index of segment id in the table (ids ascend), or -1. */
static int64_t seg_find(ca_segment_id id)
{
    int64_t lo = 0, hi = n_segs - 1;
    while (lo <= hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (segs[mid].id == id)
            return mid;
        if (segs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static bool seg_table_grow(void)
{
    if (n_segs < cap_segs)
        return true;
    int64_t cap = cap_segs ? 2 * cap_segs : 16;
    seg_entry *grown = realloc(segs, (size_t)cap * sizeof *grown);
    if (!grown)
        return false;
    segs = grown;
    cap_segs = cap;
    return true;
}

/* Hook: the policy wants segment seg of nbytes. */
static bool hook_segment_alloc(void *ctx, ca_segment_id seg, int64_t nbytes)
{
    (void)ctx;
    void *base = NULL;
    const char *detail = "out of memory";
    if (!seg_table_grow()) {
        refusal = TL_ERR_OUT_OF_MEMORY, refusal_detail = "host out of memory for the segment table";
        return false;
    }
    tl_status st = cu_backend_current()->mem_alloc(nbytes, &base, &detail);
    if (st != TL_OK) {
        /* a device error outranks a plain "full" from another attempt */
        if (refusal != TL_ERR_DEVICE)
            refusal = st, refusal_detail = detail;
        return false;
    }
    segs[n_segs++] = (seg_entry){seg, base, nbytes};
    return true;
}

/* Hook: the policy released segment seg.  Its blocks are free, but work
 * queued before their release may still read them: wait, then free. */
static void hook_segment_release(void *ctx, ca_segment_id seg, int64_t nbytes)
{
    (void)ctx, (void)nbytes;
    int64_t k = seg_find(seg);
    if (k < 0)
        return;
    cu_backend_current()->synchronize();
    cu_backend_current()->mem_free(segs[k].base);
    memmove(&segs[k], &segs[k + 1], (size_t)(n_segs - k - 1) * sizeof *segs);
    n_segs--;
}

static bool policy_ready(void)
{
    if (policy)
        return true;
    ca_config cfg = ca_config_default();
    cfg.hooks = (ca_hooks){NULL, hook_segment_alloc, hook_segment_release};
    policy = ca_new(&cfg);
    if (!policy)
        cu_fail(TL_ERR_OUT_OF_MEMORY, "caching allocator", "host out of memory for its tables");
    return policy != NULL;
}

static void report_failure(ca_status st)
{
    if (st == CA_ERR_OOM && refusal == TL_ERR_DEVICE)
        cu_fail(TL_ERR_DEVICE, "cudaMalloc", refusal_detail);
    else if (st == CA_ERR_OOM)
        cu_fail(TL_ERR_OUT_OF_MEMORY, "cudaMalloc",
                refusal == TL_OK ? "request too large for the caching allocator" : refusal_detail);
    else if (st == CA_ERR_NOMEM)
        cu_fail(TL_ERR_OUT_OF_MEMORY, "caching allocator", "host out of memory for its tables");
    else
        cu_fail(TL_ERR_OUT_OF_MEMORY, "caching allocator", ca_status_name(st));
}

bool cu_block_alloc(int64_t nbytes, cu_block *out)
{
    ca_block_info info;
    memset(out, 0, sizeof *out);
    if (!policy_ready())
        return false;
    refusal = TL_OK, refusal_detail = NULL;
    ca_status st = ca_malloc(policy, nbytes, &info);
    if (st != CA_OK) {
        out->segment_bytes = info.segment_size;
        report_failure(st);
        return false;
    }
    int64_t k = info.id ? seg_find(info.segment) : -1;
    out->ptr = k >= 0 ? (char *)segs[k].base + info.offset : NULL;
    out->block = info.id;
    out->segment = info.segment;
    out->block_bytes = info.size;
    out->segment_bytes = info.segment_size;
    return true;
}

void cu_block_free(ca_block_id block)
{
    if (policy && block)
        ca_free_block(policy, block);
}

void cu_alloc_stats(ca_stats *out)
{
    if (policy)
        ca_stats_get(policy, CA_SCOPE_ALL, out);
    else
        memset(out, 0, sizeof *out);
}

void cu_alloc_reset_peak(void)
{
    if (policy)
        ca_reset_peak(policy);
}

int64_t cu_empty_cache(void)
{
    return policy ? ca_empty_cache(policy) : 0;
}

int64_t cu_segments_held(void) { return n_segs; }

/* Live blocks would be a runtime bug; their segments are freed all the same. */
void cu_alloc_shutdown(void)
{
    if (policy)
        ca_empty_cache(policy);
    for (int64_t k = 0; k < n_segs; k++)
        cu_backend_current()->mem_free(segs[k].base);
    n_segs = 0;
    ca_free(policy);
    policy = NULL;
    free(segs);
    segs = NULL;
    cap_segs = 0;
}
