/*
 * test_alloc_policy.c: the caching allocator policy against worked examples.
 *
 * Each example is computed by hand from PyTorch's rules (docs/allocator.md)
 * and the arithmetic is written next to it, so a failing number can be
 * checked with a pencil.  Every test also runs ca_verify after each step.
 * Units: B bytes, KiB = 1024 B, MiB = 1048576 B.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_policy.h"

#define KIB 1024LL
#define MIB 1048576LL

static ca_allocator *new_default(void)
{
    ca_allocator *a = ca_new(NULL);
    assert_non_null(a);
    return a;
}

static ca_block_info alloc_ok(ca_allocator *a, int64_t nbytes)
{
    ca_block_info b;
    assert_int_equal(ca_malloc(a, nbytes, &b), CA_OK);
    assert_true(ca_verify(a));
    return b;
}

static void free_ok(ca_allocator *a, ca_block_id id)
{
    assert_int_equal(ca_free_block(a, id), CA_OK);
    assert_true(ca_verify(a));
}

static ca_stats stats_of(const ca_allocator *a)
{
    ca_stats s;
    ca_stats_get(a, CA_SCOPE_ALL, &s);
    return s;
}

static ca_counters counters_of(const ca_allocator *a)
{
    ca_counters c;
    ca_counters_get(a, &c);
    return c;
}

/* ---- the rules alone ---- */

static void test_round_size(void **state)
{
    (void)state;
    assert_int_equal(ca_round_size(1, 0), 512);           /* < 512 -> 512 */
    assert_int_equal(ca_round_size(512, 0), 512);
    assert_int_equal(ca_round_size(513, 0), 1024);        /* ceil(513/512) = 2 blocks */
    assert_int_equal(ca_round_size(4000, 0), 4096);       /* ceil(4000/512) = 8 -> 8*512 */
    assert_int_equal(ca_round_size(68, 0), 512);
    assert_int_equal(ca_round_size(1200000, 0), 1200128); /* ceil(1200000/512) = 2344 */
    assert_int_equal(ca_round_size(1200000, 1), 1200128); /* 1 division: off */
    /* 4 divisions, 1200000 > 512*4: between 1 MiB and 2 MiB the steps are
     * 1 MiB / 4 = 262144; 1048576 + 262144 = 1310720. */
    assert_int_equal(ca_round_size(1200000, 4), 1310720);
    /* 4 divisions but 1200 <= 512*4 = 2048: plain rounding, ceil(1200/512)*512. */
    assert_int_equal(ca_round_size(1200, 4), 1536);
    assert_int_equal(ca_round_size(2 * MIB, 4), 2 * MIB); /* a power of two stays */
    /* 8 divisions, 5000000: floor 4194304, step 524288; 5000000 lies in
     * step 9 (9*524288 = 4718592), so up to 10*524288 = 5242880. */
    assert_int_equal(ca_round_size(5000000, 8), 5242880);
    assert_int_equal(ca_round_size(5242880, 8), 5242880); /* on a step: stays */
}

static void test_allocation_size_and_pool(void **state)
{
    (void)state;
    assert_int_equal(ca_allocation_size(512), 2 * MIB);
    assert_int_equal(ca_allocation_size(1 * MIB), 2 * MIB);         /* <= 1 MiB: small */
    assert_int_equal(ca_allocation_size(1 * MIB + 512), 20 * MIB);  /* < 10 MiB: 20 MiB */
    assert_int_equal(ca_allocation_size(10 * MIB - 512), 20 * MIB);
    assert_int_equal(ca_allocation_size(10 * MIB), 10 * MIB);       /* >= 10 MiB: ceil to 2 MiB */
    assert_int_equal(ca_allocation_size(10 * MIB + 512), 12 * MIB);
    assert_int_equal(ca_pool_for(1 * MIB), CA_POOL_SMALL);
    assert_int_equal(ca_pool_for(1 * MIB + 512), CA_POOL_LARGE);
}

/* ---- worked examples ---- */

/* 1 B: round_size -> 512, small pool, miss -> 2 MiB segment; the rest
 * 2097152 - 512 = 2096640 >= 512, so the block is split to 512. */
static void test_one_byte(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info b = alloc_ok(a, 1);
    assert_int_equal(b.id, 1);
    assert_int_equal(b.segment, 1);
    assert_true(b.new_segment);
    assert_int_equal(b.pool, CA_POOL_SMALL);
    assert_int_equal(b.offset, 0);
    assert_int_equal(b.size, 512);
    assert_int_equal(b.requested, 1);
    assert_int_equal(b.segment_size, 2 * MIB);
    ca_stats s = stats_of(a);
    assert_int_equal(s.allocated_bytes.current, 512);
    assert_int_equal(s.active_bytes.current, 512);
    assert_int_equal(s.requested_bytes.current, 1);
    assert_int_equal(s.reserved_bytes.current, 2 * MIB);
    assert_int_equal(s.n_segments.current, 1);
    assert_int_equal(s.n_allocations.current, 1);
    ca_free(a);
}

/* 600 KiB = 614400 B = 1200 * 512: already a multiple of 512; <= 1 MiB so
 * small pool, 2 MiB segment; rest 2097152 - 614400 = 1482752 >= 512: split. */
static void test_600_kib(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info b = alloc_ok(a, 600 * KIB);
    assert_int_equal(b.size, 614400);
    assert_int_equal(b.pool, CA_POOL_SMALL);
    assert_int_equal(b.segment_size, 2 * MIB);
    assert_int_equal(stats_of(a).allocated_bytes.current, 614400);
    assert_int_equal(stats_of(a).reserved_bytes.current, 2 * MIB);
    ca_free(a);
}

/* 1.5 MiB = 1572864 B: > 1 MiB so large pool; < 10 MiB so a 20 MiB segment;
 * rest 20971520 - 1572864 = 19398656 > 1 MiB and no split limit: split. */
static void test_one_and_a_half_mib(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info b = alloc_ok(a, 3 * MIB / 2);
    assert_int_equal(b.pool, CA_POOL_LARGE);
    assert_int_equal(b.segment_size, 20 * MIB);
    assert_int_equal(b.size, 1572864);
    assert_int_equal(stats_of(a).allocated_bytes.current, 1572864);
    assert_int_equal(stats_of(a).reserved_bytes.current, 20 * MIB);
    ca_free(a);
}

/* 11 MiB + 1 B = 11534337 B: rounds to 11534848 (11 MiB + 512); >= 10 MiB so
 * the segment is ceil(11534848 / 2 MiB) * 2 MiB = 12 MiB = 12582912; rest
 * 12582912 - 11534848 = 1048064 = 1 MiB - 512, not > 1 MiB: no split, and the
 * block, so allocated_bytes, is the whole 12 MiB. */
static void test_eleven_mib_plus_one(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info b = alloc_ok(a, 11 * MIB + 1);
    assert_int_equal(b.segment_size, 12 * MIB);
    assert_int_equal(b.size, 12 * MIB);
    assert_int_equal(b.requested, 11534337);
    ca_stats s = stats_of(a);
    assert_int_equal(s.allocated_bytes.current, 12582912);
    assert_int_equal(s.requested_bytes.current, 11534337);
    assert_int_equal(s.reserved_bytes.current, 12582912);
    ca_free(a);
}

/* The large-pool split boundary.  19 MiB = 19922944 B: segment ceil to
 * 2 MiB = 20 MiB, rest exactly 1 MiB, not > 1 MiB: unsplit, block 20 MiB.
 * 19 MiB - 512: rest 1 MiB + 512 > 1 MiB: split, block 19 MiB - 512. */
static void test_large_split_boundary(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    assert_int_equal(alloc_ok(a, 19 * MIB).size, 20 * MIB);
    assert_int_equal(alloc_ok(a, 19 * MIB - 512).size, 19 * MIB - 512);
    assert_int_equal(stats_of(a).reserved_bytes.current, 40 * MIB);
    ca_free(a);
}

/* Two 512 B requests: the first creates segment 1 and leaves 2096640 B free
 * at offset 512; the second fits there (best fit), at offset 512. */
static void test_two_small_share_a_segment(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info x = alloc_ok(a, 512), y = alloc_ok(a, 512);
    assert_int_equal(x.segment, 1);
    assert_int_equal(y.segment, 1);
    assert_false(y.new_segment);
    assert_int_equal(x.offset, 0);
    assert_int_equal(y.offset, 512);
    assert_int_equal(y.id, 2);
    ca_block_info g;
    assert_int_equal(ca_block_get(a, y.id, &g), CA_OK);
    assert_int_equal(g.segment, 1);
    assert_int_equal(g.offset, 512);
    assert_int_equal(g.size, 512);
    assert_false(g.new_segment); /* only ca_malloc's answer says "new" */
    ca_stats s = stats_of(a);
    assert_int_equal(s.allocated_bytes.current, 1024);
    assert_int_equal(s.reserved_bytes.current, 2 * MIB);
    assert_int_equal(s.n_segments.current, 1);
    ca_free(a);
}

/* 4096 B at offset 0 (A) and 4096 (B); free A leaves a 4096 B hole that B
 * keeps from merging.  The next 4096 B request fits the hole exactly (the
 * other free block is 2097152 - 8192 B): same segment, offset 0, a new id. */
static void test_free_then_reuse(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info x = alloc_ok(a, 4096), y = alloc_ok(a, 4096);
    assert_int_equal(y.offset, 4096);
    free_ok(a, x.id);
    assert_int_equal(stats_of(a).allocated_bytes.current, 4096);
    ca_block_info z = alloc_ok(a, 4096);
    assert_int_equal(z.segment, x.segment);
    assert_int_equal(z.offset, 0);
    assert_int_equal(z.size, 4096);
    assert_false(z.new_segment);
    assert_int_equal(z.id, 3);
    ca_stats s = stats_of(a);
    assert_int_equal(s.reserved_bytes.current, 2 * MIB);
    assert_int_equal(s.reserved_bytes.peak, 2 * MIB);
    assert_int_equal(s.n_segments.peak, 1);
    ca_free(a);
}

/* A, B, C of 512 B at offsets 0, 512, 1024; the rest (2097152 - 1536 B) at
 * 1536.  Free A: a lone 512 B hole.  Free C: it merges with the rest into
 * 2097152 - 1024 = 2096128 B at 1024, so 1 MiB now lands at offset 1024
 * (without the merge it would be 1536).  Free that, then B: B merges with A
 * before it and the 2096128 B after it into one 2 MiB block, a whole free
 * segment, which ca_empty_cache releases. */
static void test_free_merges_neighbours(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info x = alloc_ok(a, 512), y = alloc_ok(a, 512), z = alloc_ok(a, 512);
    assert_int_equal(z.offset, 1024);
    free_ok(a, x.id);
    free_ok(a, z.id);
    ca_block_info w = alloc_ok(a, 1 * MIB);
    assert_int_equal(w.offset, 1024);
    free_ok(a, w.id);
    free_ok(a, y.id);
    assert_int_equal(ca_empty_cache(a), 1);
    int64_t n = 0;
    const ca_segment_id *ids = ca_released_get(a, &n);
    assert_int_equal(n, 1);
    assert_int_equal(ids[0], 1);
    assert_int_equal(stats_of(a).reserved_bytes.current, 0);
    assert_int_equal(stats_of(a).reserved_bytes.peak, 2 * MIB);
    ca_free(a);
}

/* The tail of a batch loop: 10017 rows of f32, 1000 rows a batch.  Ten
 * batches of 1000 * 4 = 4000 B round to 4096 B; each is freed before the
 * next, so it reuses the same block.  The last batch of 17 rows, 68 B,
 * rounds to 512 B.  All in one 2 MiB segment. */
static void test_batch_tail(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    for (int i = 0; i < 10; i++) {
        ca_block_info b = alloc_ok(a, 1000 * 4);
        assert_int_equal(b.size, 4096);
        assert_int_equal(b.offset, 0);
        assert_int_equal(b.new_segment, i == 0);
        free_ok(a, b.id);
    }
    ca_block_info tail = alloc_ok(a, 17 * 4);
    assert_int_equal(tail.size, 512);
    assert_int_equal(tail.requested, 68);
    ca_stats s = stats_of(a);
    assert_int_equal(s.allocated_bytes.current, 512);
    assert_int_equal(s.allocated_bytes.peak, 4096);
    assert_int_equal(s.requested_bytes.peak, 4000);
    assert_int_equal(s.reserved_bytes.peak, 2 * MIB);
    assert_int_equal(counters_of(a).n_segment_allocs, 1);
    ca_free(a);
}

/* A = 8 MiB: large, < 10 MiB -> 20 MiB segment, split (rest 12 MiB).
 * B = 8 MiB: best fit is that 12 MiB, split (rest 4 MiB), B at 8 MiB.
 * Free A: an 8 MiB hole at 0, B keeps it apart from the 4 MiB at 16 MiB.
 * 9 MiB fits neither hole: a second 20 MiB segment; reserved 40 MiB for
 * 17 MiB allocated. */
static void test_fragmentation(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info x = alloc_ok(a, 8 * MIB), y = alloc_ok(a, 8 * MIB);
    assert_int_equal(y.segment, x.segment);
    assert_int_equal(y.offset, 8 * MIB);
    free_ok(a, x.id);
    ca_block_info z = alloc_ok(a, 9 * MIB);
    assert_true(z.new_segment);
    assert_int_equal(z.segment, 2);
    assert_int_equal(z.size, 9 * MIB);
    ca_stats s = stats_of(a);
    assert_int_equal(s.reserved_bytes.current, 40 * MIB);
    assert_int_equal(s.allocated_bytes.current, 17 * MIB);
    ca_free(a);
}

/* Capacity 40 MiB.  12 MiB -> segment 1 of 12 MiB, freed: cached.
 * 20 MiB -> segment 2 of 20 MiB (32 MiB reserved).  16 MiB: the cached
 * 12 MiB is too small; 32 + 16 = 48 > 40, so release the cache (segment 1,
 * 20 MiB left) and retry: 20 + 16 = 36 <= 40, segment 3.  8 MiB -> a 20 MiB
 * segment: 36 + 20 > 40, nothing cached to release: out of memory. */
static void test_out_of_memory(void **state)
{
    (void)state;
    ca_config cfg = ca_config_default();
    cfg.capacity = 40 * MIB;
    ca_allocator *a = ca_new(&cfg);
    assert_non_null(a);
    free_ok(a, alloc_ok(a, 12 * MIB).id);
    alloc_ok(a, 20 * MIB);
    ca_block_info c = alloc_ok(a, 16 * MIB);
    assert_int_equal(c.segment, 3);
    int64_t n = 0;
    const ca_segment_id *ids = ca_released_get(a, &n);
    assert_int_equal(n, 1);
    assert_int_equal(ids[0], 1);
    assert_int_equal(stats_of(a).reserved_bytes.current, 36 * MIB);
    assert_int_equal(counters_of(a).n_alloc_retries, 1);
    ca_block_info d;
    assert_int_equal(ca_malloc(a, 8 * MIB, &d), CA_ERR_OOM);
    assert_int_equal(d.id, 0);
    assert_int_equal(d.segment_size, 20 * MIB);
    assert_true(ca_verify(a));
    ca_counters k = counters_of(a);
    assert_int_equal(k.n_ooms, 1);
    assert_int_equal(k.n_alloc_retries, 2);
    assert_int_equal(stats_of(a).reserved_bytes.current, 36 * MIB);
    assert_int_equal(stats_of(a).allocated_bytes.current, 36 * MIB);
    ca_free(a);
}

/* PyTorch hands out a null pointer for 0 bytes: no block, no stats. */
static void test_zero_bytes(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info b = alloc_ok(a, 0);
    assert_int_equal(b.id, 0);
    assert_int_equal(b.segment, 0);
    assert_int_equal(b.size, 0);
    assert_false(b.new_segment);
    assert_int_equal(ca_free_block(a, 0), CA_OK);
    ca_stats s = stats_of(a);
    assert_int_equal(s.allocated_bytes.peak, 0);
    assert_int_equal(s.reserved_bytes.peak, 0);
    assert_int_equal(s.n_allocations.peak, 0);
    ca_free(a);
}

/* ---- max_split_size ---- */

static ca_allocator *new_split_limited(int64_t capacity)
{
    ca_config cfg = ca_config_default();
    cfg.max_split_size = 20 * MIB;
    cfg.capacity = capacity;
    ca_allocator *a = ca_new(&cfg);
    assert_non_null(a);
    return a;
}

/* max_split_size 20 MiB.  30 MiB: a 30 MiB segment, never split (30 >= 20).
 * Freed, it is an oversize cached block.  1.5 MiB may not take it (below
 * the limit): a new 20 MiB segment, split as usual.  25 MiB may: 30 < 25 +
 * 20, so it gets the whole 30 MiB block, unsplit; allocated counts 30 MiB. */
static void test_oversize_blocks(void **state)
{
    (void)state;
    ca_allocator *a = new_split_limited(CA_UNLIMITED);
    free_ok(a, alloc_ok(a, 30 * MIB).id);
    ca_block_info small = alloc_ok(a, 3 * MIB / 2);
    assert_true(small.new_segment);
    assert_int_equal(small.segment, 2);
    assert_int_equal(small.size, 3 * MIB / 2);
    ca_block_info big = alloc_ok(a, 25 * MIB);
    assert_false(big.new_segment);
    assert_int_equal(big.segment, 1);
    assert_int_equal(big.size, 30 * MIB);
    assert_int_equal(stats_of(a).allocated_bytes.current, 30 * MIB + 3 * MIB / 2);
    assert_int_equal(stats_of(a).requested_bytes.current, 25 * MIB + 3 * MIB / 2);
    assert_int_equal(stats_of(a).reserved_bytes.current, 50 * MIB); /* 30 + 20 */
    ca_free(a);
}

/* An oversize request does not take a cached block 20 MiB or more larger:
 * 44 MiB cached, 22 MiB asked: 44 >= 22 + 20, so a new 22 MiB segment. */
static void test_oversize_waste_limit(void **state)
{
    (void)state;
    ca_allocator *a = new_split_limited(CA_UNLIMITED);
    free_ok(a, alloc_ok(a, 44 * MIB).id);
    ca_block_info b = alloc_ok(a, 22 * MIB);
    assert_true(b.new_segment);
    assert_int_equal(b.segment_size, 22 * MIB);
    assert_int_equal(stats_of(a).reserved_bytes.current, 66 * MIB);
    ca_free(a);
}

/* With a split limit, a miss first releases oversize cached segments only.
 * Capacity 64 MiB: 44 MiB cached, 512 B live in a 2 MiB segment (46 MiB).
 * 22 MiB may not reuse 44 MiB (waste rule); 46 + 22 = 68 > 64.  The
 * smallest cached block >= max(22, 20) MiB is the 44 MiB one: released,
 * then 2 + 22 = 24 <= 64 fits, without a full release (no retry). */
static void test_release_oversize_one(void **state)
{
    (void)state;
    ca_allocator *a = new_split_limited(64 * MIB);
    free_ok(a, alloc_ok(a, 44 * MIB).id);
    alloc_ok(a, 512);
    ca_block_info b = alloc_ok(a, 22 * MIB);
    assert_int_equal(b.segment, 3);
    int64_t n = 0;
    const ca_segment_id *ids = ca_released_get(a, &n);
    assert_int_equal(n, 1);
    assert_int_equal(ids[0], 1);
    assert_int_equal(counters_of(a).n_alloc_retries, 0);
    assert_int_equal(stats_of(a).reserved_bytes.current, 24 * MIB);
    ca_free(a);
}

/* No single cached block is big enough: release the largest oversize ones
 * until the request's size is gone.  Capacity 62 MiB, cached 20 MiB
 * (segment 1) and 22 MiB (segment 2), 42 MiB reserved.  30 MiB: no cached
 * block >= 30; 42 + 30 = 72 > 62.  Release 22 (22 < 30), then 20 (42 >= 30):
 * segments 2 then 1.  0 + 30 fits: segment 3. */
static void test_release_oversize_several(void **state)
{
    (void)state;
    ca_allocator *a = new_split_limited(62 * MIB);
    ca_block_info p = alloc_ok(a, 20 * MIB), q = alloc_ok(a, 22 * MIB);
    free_ok(a, p.id);
    free_ok(a, q.id);
    ca_block_info r = alloc_ok(a, 30 * MIB);
    assert_int_equal(r.segment, 3);
    int64_t n = 0;
    const ca_segment_id *ids = ca_released_get(a, &n);
    assert_int_equal(n, 2);
    assert_int_equal(ids[0], 2);
    assert_int_equal(ids[1], 1);
    assert_int_equal(stats_of(a).reserved_bytes.current, 30 * MIB);
    ca_free(a);
}

/* ---- roundup_power2_divisions in a request ---- */

/* 4 divisions: 1200000 B -> 1310720 (see test_round_size), large pool,
 * 20 MiB segment, split (rest 19660800 > 1 MiB). */
static void test_power2_divisions_request(void **state)
{
    (void)state;
    ca_config cfg = ca_config_default();
    cfg.roundup_power2_divisions = 4;
    ca_allocator *a = ca_new(&cfg);
    assert_non_null(a);
    ca_block_info b = alloc_ok(a, 1200000);
    assert_int_equal(b.size, 1310720);
    assert_int_equal(b.pool, CA_POOL_LARGE);
    assert_int_equal(stats_of(a).requested_bytes.current, 1200000);
    ca_free(a);
}

/* ---- cache, stats, errors ---- */

/* empty_cache releases only entirely free segments, large pool first.
 * 12 MiB -> segment 1 (12 MiB, stays live); 512 B -> segment 2 (2 MiB,
 * small); 2 MiB -> segment 3 (20 MiB, large, split).  Free the last two:
 * segment 3 goes before segment 2; 12 MiB stays reserved. */
static void test_empty_cache(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    alloc_ok(a, 12 * MIB);
    ca_block_info s = alloc_ok(a, 512), l = alloc_ok(a, 2 * MIB);
    assert_int_equal(l.segment, 3);
    free_ok(a, s.id);
    free_ok(a, l.id);
    assert_int_equal(ca_empty_cache(a), 2);
    int64_t n = 0;
    const ca_segment_id *ids = ca_released_get(a, &n);
    assert_int_equal(n, 2);
    assert_int_equal(ids[0], 3);
    assert_int_equal(ids[1], 2);
    assert_int_equal(stats_of(a).reserved_bytes.current, 12 * MIB);
    assert_int_equal(stats_of(a).n_segments.current, 1);
    assert_int_equal(counters_of(a).n_segment_frees, 2);
    assert_int_equal(ca_empty_cache(a), 0);
    ca_free(a);
}

/* Per-pool scopes add up to the total; reset_peak brings peaks down. */
static void test_scopes_and_peaks(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info s = alloc_ok(a, 1000), l = alloc_ok(a, 3 * MIB);
    ca_stats small, large;
    ca_stats_get(a, CA_SCOPE_SMALL, &small);
    ca_stats_get(a, CA_SCOPE_LARGE, &large);
    assert_int_equal(small.allocated_bytes.current, 1024);    /* ceil(1000/512)*512 */
    assert_int_equal(small.reserved_bytes.current, 2 * MIB);
    assert_int_equal(large.allocated_bytes.current, 3 * MIB);
    assert_int_equal(large.reserved_bytes.current, 20 * MIB);
    free_ok(a, l.id);
    free_ok(a, s.id);
    ca_empty_cache(a);
    ca_stats t = stats_of(a);
    assert_int_equal(t.allocated_bytes.peak, 3 * MIB + 1024);
    assert_int_equal(t.requested_bytes.peak, 3 * MIB + 1000);
    assert_int_equal(t.reserved_bytes.peak, 22 * MIB);
    assert_int_equal(t.n_active.peak, 2);
    ca_reset_peak(a);
    t = stats_of(a);
    assert_int_equal(t.allocated_bytes.peak, 0);
    assert_int_equal(t.reserved_bytes.peak, 0);
    assert_int_equal(t.n_segments.peak, 0);
    ca_free(a);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    ca_allocator *a = new_default();
    ca_block_info b;
    assert_int_equal(ca_malloc(a, -1, &b), CA_ERR_INVALID);
    assert_int_equal(ca_malloc(a, CA_MAX_REQUEST, &b), CA_ERR_OOM); /* PyTorch: > 1 EB */
    assert_int_equal(ca_free_block(a, 7), CA_ERR_INVALID);
    ca_block_info x = alloc_ok(a, 100);
    free_ok(a, x.id);
    assert_int_equal(ca_free_block(a, x.id), CA_ERR_INVALID);       /* double free */
    assert_int_equal(ca_block_get(a, x.id, &b), CA_ERR_INVALID);
    assert_int_equal(counters_of(a).n_ooms, 0);
    ca_free(a);
}

static void test_config_errors(void **state)
{
    (void)state;
    ca_config cfg = ca_config_default();
    assert_null(ca_config_error(&cfg));
    cfg.max_split_size = 10 * MIB; /* PyTorch: max_split_size_mb must be >= 20 */
    assert_non_null(ca_config_error(&cfg));
    assert_null(ca_new(&cfg));
    cfg.max_split_size = 20 * MIB + 1;
    assert_non_null(ca_config_error(&cfg));
    cfg = ca_config_default();
    cfg.roundup_power2_divisions = 3;
    assert_non_null(ca_config_error(&cfg));
    cfg = ca_config_default();
    cfg.expandable_segments = true;
    assert_null(ca_new(&cfg));
    cfg = ca_config_default();
    cfg.capacity = -1;
    assert_non_null(ca_config_error(&cfg));
    assert_string_equal(ca_status_name(CA_ERR_OOM), "out of memory");
    ca_free(NULL);
}

/* ---- hooks: the runtime's cudaMalloc / cudaFree ---- */

typedef struct device_log {
    int64_t free_bytes; /* what the simulated device still has */
    char text[512];
} device_log;

static bool dev_alloc(void *ctx, ca_segment_id seg, int64_t nbytes)
{
    device_log *d = ctx;
    bool ok = nbytes <= d->free_bytes;
    size_t n = strlen(d->text);
    snprintf(d->text + n, sizeof d->text - n, "malloc %lld %lld %s; ", (long long)seg,
             (long long)(nbytes / MIB), ok ? "ok" : "refused");
    if (ok)
        d->free_bytes -= nbytes;
    return ok;
}

static void dev_release(void *ctx, ca_segment_id seg, int64_t nbytes)
{
    device_log *d = ctx;
    size_t n = strlen(d->text);
    snprintf(d->text + n, sizeof d->text - n, "free %lld %lld; ", (long long)seg,
             (long long)(nbytes / MIB));
    d->free_bytes += nbytes;
}

/* A device of 30 MiB.  12 MiB: segment 1, then cached.  20 MiB: 12 + 20 >
 * 30, the device refuses id 2; the cache is released (free 1) and id 2 is
 * offered again, now granted.  empty_cache and ca_free call nothing more
 * while segment 2 is live. */
static void test_hooks(void **state)
{
    (void)state;
    device_log d = {.free_bytes = 30 * MIB};
    ca_config cfg = ca_config_default();
    cfg.hooks = (ca_hooks){.ctx = &d, .segment_alloc = dev_alloc, .segment_release = dev_release};
    ca_allocator *a = ca_new(&cfg);
    assert_non_null(a);
    free_ok(a, alloc_ok(a, 12 * MIB).id);
    ca_block_info b = alloc_ok(a, 20 * MIB);
    assert_int_equal(b.segment, 2);
    assert_true(b.new_segment);
    assert_string_equal(d.text, "malloc 1 12 ok; malloc 2 20 refused; free 1 12; malloc 2 20 ok; ");
    assert_int_equal(ca_empty_cache(a), 0);
    free_ok(a, b.id);
    assert_int_equal(ca_empty_cache(a), 1);
    assert_int_equal(d.free_bytes, 30 * MIB);
    ca_free(a);
}

/* ---- many operations ---- */

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* A fixed pseudo-random mix of sizes (512 B to 24 MiB), frees, empty_cache
 * and a capacity that forces releases and some out-of-memory answers.
 * Returns a checksum of everything handed out, for the determinism test. */
static uint64_t run_mix(int64_t max_split)
{
    ca_config cfg = ca_config_default();
    cfg.capacity = 256 * MIB;
    cfg.max_split_size = max_split;
    ca_allocator *a = ca_new(&cfg);
    assert_non_null(a);
    ca_block_id live[64] = {0};
    uint64_t seed = 42, sum = 0;
    for (int step = 0; step < 4000; step++) {
        uint64_t r = lcg(&seed);
        int slot = (int)(r % 64);
        if (live[slot]) {
            free_ok(a, live[slot]);
            live[slot] = 0;
        } else if (r % 97 == 0) {
            ca_empty_cache(a);
        } else {
            int64_t n = (int64_t)(lcg(&seed) % (r % 3 == 0 ? 24 * MIB : 64 * KIB)) + 1;
            ca_block_info b;
            ca_status st = ca_malloc(a, n, &b);
            assert_true(st == CA_OK || st == CA_ERR_OOM);
            live[slot] = b.id;
            sum = sum * 31 + (uint64_t)(b.id + b.segment * 7 + b.offset * 13 + b.size);
        }
        assert_true(ca_verify(a));
    }
    for (int i = 0; i < 64; i++)
        free_ok(a, live[i]);
    ca_empty_cache(a);
    assert_int_equal(stats_of(a).reserved_bytes.current, 0);
    assert_int_equal(stats_of(a).allocated_bytes.current, 0);
    ca_free(a);
    return sum;
}

static void test_mix_is_consistent_and_deterministic(void **state)
{
    (void)state;
    assert_true(run_mix(CA_UNLIMITED) == run_mix(CA_UNLIMITED));
    assert_true(run_mix(20 * MIB) == run_mix(20 * MIB));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_size),
        cmocka_unit_test(test_allocation_size_and_pool),
        cmocka_unit_test(test_one_byte),
        cmocka_unit_test(test_600_kib),
        cmocka_unit_test(test_one_and_a_half_mib),
        cmocka_unit_test(test_eleven_mib_plus_one),
        cmocka_unit_test(test_large_split_boundary),
        cmocka_unit_test(test_two_small_share_a_segment),
        cmocka_unit_test(test_free_then_reuse),
        cmocka_unit_test(test_free_merges_neighbours),
        cmocka_unit_test(test_batch_tail),
        cmocka_unit_test(test_fragmentation),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_zero_bytes),
        cmocka_unit_test(test_oversize_blocks),
        cmocka_unit_test(test_oversize_waste_limit),
        cmocka_unit_test(test_release_oversize_one),
        cmocka_unit_test(test_release_oversize_several),
        cmocka_unit_test(test_power2_divisions_request),
        cmocka_unit_test(test_empty_cache),
        cmocka_unit_test(test_scopes_and_peaks),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_hooks),
        cmocka_unit_test(test_mix_is_consistent_and_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
