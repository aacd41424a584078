/*
 * alloc_policy.h: the caching allocator's policy, as in PyTorch's
 * c10/cuda/CUDACachingAllocator.cpp (DeviceCachingAllocator), in plain C.
 *
 * Two users share it.  The CUDA runtime asks the policy where a request goes
 * and calls cudaMalloc / cudaFree only when the policy creates or releases a
 * segment (through the hooks below, or by reading new_segment and
 * ca_released_get).  The analyzer runs the same policy with no device to
 * predict block bytes (allocated_bytes) and segment bytes (reserved_bytes).
 *
 * Model: one device, one stream, no CUDA graphs, expandable_segments off,
 * no garbage_collection_threshold (docs/allocator.md lists what is left out).
 * A segment is one cudaMalloc; it is cut into blocks that tile it.  Requests
 * are rounded (ca_round_size), served best-fit from the free blocks of their
 * pool (small: <= 1 MiB, large: the rest), split when the rules allow, and
 * merged with free neighbours on free.  A segment whose single block is free
 * is "cached": ca_empty_cache, or a request that would not fit, releases it.
 *
 * Output never holds pointers: blocks and segments are named by integer ids
 * (1, 2, 3, ... in creation order, never reused; 0 means "none").  Offsets
 * are from the start of the segment.  All sizes are bytes in int64_t.
 * The policy is deterministic: the same calls give the same ids and stats.
 */
#ifndef TL_ALLOC_POLICY_H
#define TL_ALLOC_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PyTorch's constants (CUDACachingAllocator.cpp, top of namespace Native). */
#define CA_MIN_BLOCK_SIZE 512          /* bytes; kMinBlockSize: every block is a multiple */
#define CA_SMALL_SIZE 1048576          /* bytes; kSmallSize: largest "small" request */
#define CA_SMALL_BUFFER 2097152        /* bytes; kSmallBuffer: small-pool segment */
#define CA_LARGE_BUFFER 20971520       /* bytes; kLargeBuffer: segment for 1-10 MiB requests */
#define CA_MIN_LARGE_ALLOC 10485760    /* bytes; kMinLargeAlloc: from here, segments fit the request */
#define CA_ROUND_LARGE 2097152         /* bytes; kRoundLarge: rounding of those segments */
#define CA_MAX_REQUEST 1152921504606846976LL /* bytes; 1 EiB: PyTorch refuses this and more */
#define CA_UNLIMITED INT64_MAX         /* max_split_size and capacity: no limit */

typedef int64_t ca_block_id;   /* a live allocation; 0: none (the 0-byte request) */
typedef int64_t ca_segment_id; /* a segment; 0: none */

typedef enum ca_status {
    CA_OK = 0,
    CA_ERR_OOM,     /* the device (capacity or segment_alloc hook) refused, even after releasing the cache */
    CA_ERR_INVALID, /* a bad argument: negative size, unknown or already freed id, bad config */
    CA_ERR_NOMEM    /* the host ran out of memory for the policy's own tables */
} ca_status;

typedef enum ca_pool { CA_POOL_SMALL, CA_POOL_LARGE } ca_pool;

/* Which statistics: both pools together (PyTorch's "all"), or one pool. */
typedef enum ca_scope { CA_SCOPE_ALL, CA_SCOPE_SMALL, CA_SCOPE_LARGE, CA_N_SCOPES } ca_scope;

/* Optional callbacks for the CUDA runtime; the analyzer leaves them NULL.
 * They run inside ca_malloc / ca_empty_cache and must not call back into
 * the allocator. */
typedef struct ca_hooks {
    void *ctx; /* passed back to each hook */
    /* The policy wants a new segment of nbytes to be named seg: cudaMalloc it
     * and return true, or return false for "out of memory" (the policy then
     * releases cached segments and retries, as PyTorch does).  A refused id
     * is offered again by the next attempt. */
    bool (*segment_alloc)(void *ctx, ca_segment_id seg, int64_t nbytes);
    /* The policy released segment seg of nbytes: cudaFree it. */
    void (*segment_release)(void *ctx, ca_segment_id seg, int64_t nbytes);
} ca_hooks;

typedef struct ca_config {
    int64_t max_split_size;           /* bytes; CA_UNLIMITED, or a multiple of 1 MiB >= 20 MiB
                                         (PYTORCH_CUDA_ALLOC_CONF max_split_size_mb) */
    int64_t roundup_power2_divisions; /* 0 or 1: off; else a power of two, for every size
                                         (the single-value form of roundup_power2_divisions) */
    int64_t capacity;                 /* bytes of segments the device may hold; CA_UNLIMITED */
    bool expandable_segments;         /* must be false: expandable segments are not modelled */
    ca_hooks hooks;
} ca_config;

/* What ca_malloc handed out, or what ca_block_get finds. */
typedef struct ca_block_info {
    ca_block_id id;          /* 0 for a 0-byte request: no block */
    ca_segment_id segment;   /* the segment holding the block; 0 for no block */
    int64_t offset;          /* bytes from the start of the segment */
    int64_t size;            /* bytes; the block after any split: what allocated_bytes counts */
    int64_t requested;       /* bytes asked for: what requested_bytes counts */
    int64_t segment_size;    /* bytes of the segment; on CA_ERR_OOM: the segment that was refused */
    ca_pool pool;
    bool new_segment;        /* this call created the segment (the runtime's cudaMalloc) */
} ca_block_info;

/* A PyTorch Stat: current value and its high-water mark since ca_new or ca_reset_peak. */
typedef struct ca_stat {
    int64_t current;
    int64_t peak;
} ca_stat;

typedef struct ca_stats {
    ca_stat allocated_bytes; /* bytes: block sizes of live allocations */
    ca_stat reserved_bytes;  /* bytes: segment sizes */
    ca_stat active_bytes;    /* bytes: as allocated_bytes (one stream, no pending events) */
    ca_stat requested_bytes; /* bytes: sizes as asked, before rounding */
    ca_stat n_allocations;   /* live allocations ("allocation") */
    ca_stat n_active;        /* live allocations ("active") */
    ca_stat n_segments;      /* segments ("segment") */
} ca_stats;

/* Allocator-wide event counts, never reset (PyTorch's num_* fields). */
typedef struct ca_counters {
    int64_t n_alloc_retries;  /* requests that released the whole cache and tried again */
    int64_t n_ooms;           /* requests answered CA_ERR_OOM */
    int64_t n_segment_allocs; /* segments created ("num_device_alloc") */
    int64_t n_segment_frees;  /* segments released ("num_device_free") */
} ca_counters;

typedef struct ca_allocator ca_allocator;

/* ---- the rules, as pure functions (the analyzer may call them alone) ----
 * Sizes must lie in [0, CA_MAX_REQUEST); outside it they abort (ca_malloc
 * checks its argument first). */

/* round_size: < 512 -> 512; with divisions d > 1 and size > 512*d, the next
 * of d equal steps between powers of two; else up to a multiple of 512. */
int64_t ca_round_size(int64_t nbytes, int64_t divisions);
/* get_allocation_size: the segment a cache miss creates for a rounded size. */
int64_t ca_allocation_size(int64_t rounded);
/* get_pool: small for rounded sizes <= 1 MiB, large above. */
ca_pool ca_pool_for(int64_t rounded);

/* ---- the allocator ---- */

/* The defaults: no split limit, no power-of-two rounding, unlimited capacity. */
ca_config ca_config_default(void);
/* NULL when cfg is usable, else why not (a static string). */
const char *ca_config_error(const ca_config *cfg);
/* A new, empty allocator; cfg NULL means the defaults.  NULL if cfg is
 * invalid (see ca_config_error) or the host is out of memory. */
ca_allocator *ca_new(const ca_config *cfg);
/* Frees the policy's tables.  Live blocks and cached segments are dropped
 * without hooks: the runtime frees its device memory itself. */
void ca_free(ca_allocator *a);
/* A deep copy of a's state (NULL when out of memory). */
ca_allocator *ca_clone(const ca_allocator *a);

/* PyTorch's malloc: a block of at least nbytes.  *out is filled on CA_OK
 * (and its segment_size on CA_ERR_OOM).  nbytes == 0 is CA_OK with id 0 and
 * no block, like PyTorch's null pointer.  Segments released on the way are
 * listed by ca_released_get. */
ca_status ca_malloc(ca_allocator *a, int64_t nbytes, ca_block_info *out);
/* PyTorch's free: the block returns to its pool and merges with free
 * neighbours.  id 0 is a no-op; an unknown id is CA_ERR_INVALID. */
ca_status ca_free_block(ca_allocator *a, ca_block_id id);
/* emptyCache: releases every segment that is entirely free (large pool,
 * then small, each smallest first).  Returns how many. */
int64_t ca_empty_cache(ca_allocator *a);
/* The segments released by the last ca_malloc or ca_empty_cache, in order;
 * *n_ids gets the count.  Valid until the next call that changes a. */
const ca_segment_id *ca_released_get(const ca_allocator *a, int64_t *n_ids);

/* A live block's placement; CA_ERR_INVALID if id is not live. */
ca_status ca_block_get(const ca_allocator *a, ca_block_id id, ca_block_info *out);
void ca_stats_get(const ca_allocator *a, ca_scope scope, ca_stats *out);
void ca_counters_get(const ca_allocator *a, ca_counters *out);
/* resetPeakStats: every peak becomes its current value. */
void ca_reset_peak(ca_allocator *a);
/* Checks every internal invariant (blocks tile their segments, the free
 * lists are sorted and complete, no two free neighbours, stats add up).
 * Returns false at the first broken one; for tests. */
bool ca_verify(const ca_allocator *a);

const char *ca_status_name(ca_status s);

#ifdef __cplusplus
}
#endif

#endif /* TL_ALLOC_POLICY_H */
