/*
 * alloc_policy.c: PyTorch's CUDA caching allocator policy over integer ids.
 *
 * Approach: blocks and segments live in two slot tables (arrays whose freed
 * slots are recycled); a block names its segment and its address neighbours
 * by slot, so the blocks of a segment form a doubly linked list in offset
 * order.  Each pool keeps its free blocks in an array sorted by (size,
 * segment id, offset): best fit is a binary search, as PyTorch's std::set
 * ordered by (stream, size, address) is.  Segment ids stand in for addresses,
 * so ties between equal sizes go to the older segment, then the lower offset.
 * Live allocations are found by id in an array sorted by id (ids only grow).
 *
 * Invariants: the blocks of a segment tile it exactly; a block is free iff
 * its id is 0, and every free block is in its pool's sorted array; two free
 * blocks are never neighbours after a free; an oversize free block (>=
 * max_split_size) is always a whole segment, because max_split_size is a
 * multiple of 1 MiB of at least 20 MiB.  Every table has room for two more
 * blocks and one more segment before a request changes anything, so a
 * request either fails for host memory (CA_ERR_NOMEM) before changing
 * anything, or runs to the end; ca_verify checks the rest.  A broken
 * invariant aborts (CA_ASSERT, on in every build).
 */
#include "alloc_policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CA_MIB 1048576 /* bytes */

#define CA_ASSERT(cond) ((cond) ? (void)0 : ca_die(__FILE__, __LINE__, #cond))

static void ca_die(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: allocator policy invariant broken: %s\n", file, line, what);
    abort();
}

typedef struct ca_blk {
    ca_block_id id;     /* allocation id while allocated; 0 while free */
    int64_t size;       /* bytes */
    int64_t offset;     /* bytes from the start of the segment */
    int64_t requested;  /* bytes asked for while allocated; 0 while free */
    int32_t seg;        /* slot of the owning segment */
    int32_t prev, next; /* slots of the address neighbours; -1 at the segment's ends */
} ca_blk;

typedef struct ca_seg {
    ca_segment_id id;
    int64_t size;  /* bytes */
    ca_pool pool;
    int32_t head;  /* slot of the block at offset 0 */
    bool used;     /* the slot holds a segment */
} ca_seg;

typedef struct ca_live {
    ca_block_id id;
    int32_t slot; /* block slot */
} ca_live;

struct ca_allocator {
    ca_config cfg;
    ca_blk *blocks;        /* block slots [0, n_blocks) ever used */
    int32_t n_blocks;
    int32_t cap_blocks;    /* slots allocated in blocks, spare_blocks, free_sets, live */
    int32_t *spare_blocks; /* recycled block slots, a stack */
    int32_t n_spare_blocks;
    ca_seg *segs;          /* segment slots [0, n_segs) ever used */
    int32_t n_segs;
    int32_t cap_segs;      /* slots allocated in segs, spare_segs, released */
    int32_t *spare_segs;   /* recycled segment slots, a stack */
    int32_t n_spare_segs;
    int32_t *free_sets[2]; /* per pool: free block slots sorted by (size, segment id, offset) */
    int32_t n_free[2];
    ca_live *live;         /* live allocations sorted by id */
    int32_t n_live;
    ca_segment_id *released; /* segments released by the last malloc or empty_cache */
    int32_t n_released;
    ca_block_id next_block_id;
    ca_segment_id next_segment_id;
    ca_stats stats[CA_N_SCOPES];
    ca_counters counters;
};

/* ---- the rules ---- */

static bool is_power_of_two(int64_t x)
{
    return x > 0 && (x & (x - 1)) == 0;
}

/* The largest power of two <= x (x > 0). */
static int64_t floor_power_of_two(int64_t x)
{
    int64_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return p;
}

/* roundup_power2_next_division: a power of two stays; otherwise round up to
 * the next of `divisions` equal steps between the powers of two around size
 * (a divisions that is not a power of two counts as the one below it). */
static int64_t round_power2_division(int64_t size, int64_t divisions)
{
    if (is_power_of_two(size))
        return size;
    int64_t floor2 = floor_power_of_two(size);
    int64_t step = floor2 / floor_power_of_two(divisions);
    CA_ASSERT(step >= CA_MIN_BLOCK_SIZE);
    int64_t down = size & ~(step - 1);
    return down == size ? size : down + step;
}

/* round_size: < 512 -> 512; with divisions > 1 and size > 512 * divisions,
 * the power-of-two division above; else up to a multiple of 512. */
int64_t ca_round_size(int64_t nbytes, int64_t divisions)
{
    CA_ASSERT(nbytes >= 0 && nbytes < CA_MAX_REQUEST);
    if (nbytes < CA_MIN_BLOCK_SIZE)
        return CA_MIN_BLOCK_SIZE;
    if (divisions > 1 && divisions <= nbytes / CA_MIN_BLOCK_SIZE &&
        nbytes > CA_MIN_BLOCK_SIZE * divisions)
        return round_power2_division(nbytes, divisions);
    return (nbytes + CA_MIN_BLOCK_SIZE - 1) / CA_MIN_BLOCK_SIZE * CA_MIN_BLOCK_SIZE;
}

/* get_allocation_size: <= 1 MiB -> a 2 MiB segment; < 10 MiB -> 20 MiB;
 * else the size rounded up to 2 MiB. */
int64_t ca_allocation_size(int64_t rounded)
{
    CA_ASSERT(rounded > 0 && rounded <= CA_MAX_REQUEST);
    if (rounded <= CA_SMALL_SIZE)
        return CA_SMALL_BUFFER;
    if (rounded < CA_MIN_LARGE_ALLOC)
        return CA_LARGE_BUFFER;
    return (rounded + CA_ROUND_LARGE - 1) / CA_ROUND_LARGE * CA_ROUND_LARGE;
}

/* get_pool: small_blocks for sizes <= kSmallSize, else large_blocks. */
ca_pool ca_pool_for(int64_t rounded)
{
    return rounded <= CA_SMALL_SIZE ? CA_POOL_SMALL : CA_POOL_LARGE;
}

/* should_split: small pool: the rest is >= 512; large pool: the request is
 * below max_split_size and the rest is > 1 MiB. */
static bool should_split(const ca_allocator *a, ca_pool p, int64_t have, int64_t size)
{
    int64_t rest = have - size;
    if (p == CA_POOL_SMALL)
        return rest >= CA_MIN_BLOCK_SIZE;
    return size < a->cfg.max_split_size && rest > CA_SMALL_SIZE;
}

/* ---- configuration ---- */

ca_config ca_config_default(void)
{
    return (ca_config){.max_split_size = CA_UNLIMITED, .roundup_power2_divisions = 0,
                       .capacity = CA_UNLIMITED, .expandable_segments = false};
}

const char *ca_config_error(const ca_config *cfg)
{
    int64_t split = cfg->max_split_size, div = cfg->roundup_power2_divisions;
    if (split != CA_UNLIMITED && (split < CA_LARGE_BUFFER || split % CA_MIB != 0))
        return "max_split_size must be CA_UNLIMITED or a multiple of 1 MiB of at least 20 MiB";
    if (div < 0 || (div > 1 && !is_power_of_two(div)))
        return "roundup_power2_divisions must be 0, 1 or a power of two";
    if (cfg->capacity < 0)
        return "capacity must not be negative";
    if (cfg->expandable_segments)
        return "expandable segments are not modelled";
    return NULL;
}

/* ---- slot tables ---- */

static bool grow_slots(int32_t **v, int32_t cap)
{
    int32_t *w = realloc(*v, sizeof *w * (size_t)cap);
    if (w)
        *v = w;
    return w != NULL;
}

static ca_status grow_blocks(ca_allocator *a, int32_t cap)
{
    ca_blk *b = realloc(a->blocks, sizeof *b * (size_t)cap);
    if (b)
        a->blocks = b;
    ca_live *l = b ? realloc(a->live, sizeof *l * (size_t)cap) : NULL;
    if (l)
        a->live = l;
    if (!l || !grow_slots(&a->spare_blocks, cap) || !grow_slots(&a->free_sets[0], cap) ||
        !grow_slots(&a->free_sets[1], cap))
        return CA_ERR_NOMEM;
    a->cap_blocks = cap;
    return CA_OK;
}

static ca_status grow_segs(ca_allocator *a, int32_t cap)
{
    ca_seg *g = realloc(a->segs, sizeof *g * (size_t)cap);
    if (g)
        a->segs = g;
    ca_segment_id *r = g ? realloc(a->released, sizeof *r * (size_t)cap) : NULL;
    if (r)
        a->released = r;
    if (!r || !grow_slots(&a->spare_segs, cap))
        return CA_ERR_NOMEM;
    a->cap_segs = cap;
    return CA_OK;
}
static int32_t next_cap(int32_t cap)
{
    return cap == 0 ? 16 : cap > INT32_MAX / 2 ? -1 : cap * 2;
}

/* Room for two more blocks and one more segment; a hit table limit
 * (2^30 slots) is reported as CA_ERR_NOMEM. */
static ca_status reserve(ca_allocator *a)
{
    ca_status st = CA_OK;
    if (a->n_blocks + 2 > a->cap_blocks)
        st = next_cap(a->cap_blocks) < 0 ? CA_ERR_NOMEM : grow_blocks(a, next_cap(a->cap_blocks));
    if (st == CA_OK && a->n_segs + 1 > a->cap_segs)
        st = next_cap(a->cap_segs) < 0 ? CA_ERR_NOMEM : grow_segs(a, next_cap(a->cap_segs));
    return st;
}

static int32_t blk_new(ca_allocator *a)
{
    int32_t b = a->n_spare_blocks > 0 ? a->spare_blocks[--a->n_spare_blocks] : a->n_blocks++;
    CA_ASSERT(b < a->cap_blocks);
    a->blocks[b] = (ca_blk){.prev = -1, .next = -1};
    return b;
}

static void blk_drop(ca_allocator *a, int32_t b)
{
    a->blocks[b].size = 0;
    a->spare_blocks[a->n_spare_blocks++] = b;
}

static int32_t seg_new(ca_allocator *a)
{
    int32_t s = a->n_spare_segs > 0 ? a->spare_segs[--a->n_spare_segs] : a->n_segs++;
    CA_ASSERT(s < a->cap_segs);
    a->segs[s] = (ca_seg){.used = true};
    return s;
}

static void seg_drop(ca_allocator *a, int32_t s)
{
    a->segs[s].used = false;
    a->spare_segs[a->n_spare_segs++] = s;
}

static ca_pool pool_of(const ca_allocator *a, int32_t b)
{
    return a->segs[a->blocks[b].seg].pool;
}

/* ---- free blocks, sorted per pool ---- */

/* Block x sorts before (size, segment id, offset)? */
static bool blk_before(const ca_allocator *a, int32_t x, int64_t size, ca_segment_id seg,
                       int64_t offset)
{
    const ca_blk *k = &a->blocks[x];
    ca_segment_id xs = a->segs[k->seg].id;
    if (k->size != size)
        return k->size < size;
    return xs != seg ? xs < seg : k->offset < offset;
}

/* First position whose block is not before block b's key (b's place). */
static int32_t free_place(const ca_allocator *a, ca_pool p, int32_t b)
{
    const ca_blk *k = &a->blocks[b];
    ca_segment_id seg = a->segs[k->seg].id;
    int32_t lo = 0, hi = a->n_free[p];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (blk_before(a, a->free_sets[p][mid], k->size, seg, k->offset))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* First position whose block has at least size bytes (lower_bound). */
static int32_t free_lower_bound(const ca_allocator *a, ca_pool p, int64_t size)
{
    int32_t lo = 0, hi = a->n_free[p];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (a->blocks[a->free_sets[p][mid]].size < size)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void free_insert(ca_allocator *a, int32_t b)
{
    ca_pool p = pool_of(a, b);
    int32_t i = free_place(a, p, b), *v = a->free_sets[p];
    CA_ASSERT(a->n_free[p] < a->cap_blocks);
    memmove(v + i + 1, v + i, sizeof *v * (size_t)(a->n_free[p] - i));
    v[i] = b;
    a->n_free[p]++;
}

static void free_erase(ca_allocator *a, int32_t b)
{
    ca_pool p = pool_of(a, b);
    int32_t i = free_place(a, p, b), *v = a->free_sets[p];
    CA_ASSERT(i < a->n_free[p] && v[i] == b);
    memmove(v + i, v + i + 1, sizeof *v * (size_t)(a->n_free[p] - i - 1));
    a->n_free[p]--;
}

/* ---- live allocations by id ---- */

static int32_t live_find(const ca_allocator *a, ca_block_id id)
{
    int32_t lo = 0, hi = a->n_live;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (a->live[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->n_live && a->live[lo].id == id ? lo : -1;
}

static void live_erase(ca_allocator *a, int32_t i)
{
    memmove(a->live + i, a->live + i + 1, sizeof *a->live * (size_t)(a->n_live - i - 1));
    a->n_live--;
}

/* ---- statistics ---- */

/* increase_stat / decrease_stat: the peak follows every rise. */
static void stat_add(ca_stat *s, int64_t delta)
{
    s->current += delta;
    CA_ASSERT(s->current >= 0);
    if (s->current > s->peak)
        s->peak = s->current;
}

static ca_scope scope_of(ca_pool p)
{
    return p == CA_POOL_SMALL ? CA_SCOPE_SMALL : CA_SCOPE_LARGE;
}

/* An allocation of a block of size bytes (sign +1) or its free (-1). */
static void stats_block(ca_allocator *a, ca_pool p, int sign, int64_t size, int64_t requested)
{
    ca_stats *scopes[2] = {&a->stats[CA_SCOPE_ALL], &a->stats[scope_of(p)]};
    for (int i = 0; i < 2; i++) {
        stat_add(&scopes[i]->allocated_bytes, sign * size);
        stat_add(&scopes[i]->active_bytes, sign * size);
        stat_add(&scopes[i]->requested_bytes, sign * requested);
        stat_add(&scopes[i]->n_allocations, sign);
        stat_add(&scopes[i]->n_active, sign);
    }
}

/* A segment of size bytes created (sign +1) or released (-1). */
static void stats_segment(ca_allocator *a, ca_pool p, int sign, int64_t size)
{
    ca_stats *scopes[2] = {&a->stats[CA_SCOPE_ALL], &a->stats[scope_of(p)]};
    for (int i = 0; i < 2; i++) {
        stat_add(&scopes[i]->reserved_bytes, sign * size);
        stat_add(&scopes[i]->n_segments, sign);
    }
}

/* ---- segments ---- */

/* alloc_block: one cudaMalloc of nbytes, refused past the capacity (as
 * PyTorch refuses past set_per_process_memory_fraction) or by the hook.
 * Returns the slot of the segment's single block, not yet in a free set. */
static int32_t segment_create(ca_allocator *a, ca_pool p, int64_t nbytes)
{
    const ca_hooks *h = &a->cfg.hooks;
    if (nbytes > a->cfg.capacity - a->stats[CA_SCOPE_ALL].reserved_bytes.current)
        return -1;
    if (h->segment_alloc && !h->segment_alloc(h->ctx, a->next_segment_id, nbytes))
        return -1;
    int32_t s = seg_new(a), b = blk_new(a);
    a->segs[s] = (ca_seg){.id = a->next_segment_id++, .size = nbytes, .pool = p, .head = b,
                          .used = true};
    a->blocks[b].size = nbytes;
    a->blocks[b].seg = s;
    stats_segment(a, p, +1, nbytes);
    a->counters.n_segment_allocs++;
    return b;
}

/* release_block: cudaFree of a cached segment, whose one block is free. */
static void segment_release(ca_allocator *a, int32_t b)
{
    const ca_blk *k = &a->blocks[b];
    int32_t s = k->seg;
    ca_seg g = a->segs[s];
    CA_ASSERT(k->id == 0 && k->prev < 0 && k->next < 0 && k->size == g.size);
    free_erase(a, b);
    blk_drop(a, b);
    seg_drop(a, s);
    a->released[a->n_released++] = g.id;
    stats_segment(a, g.pool, -1, g.size);
    a->counters.n_segment_frees++;
    if (a->cfg.hooks.segment_release)
        a->cfg.hooks.segment_release(a->cfg.hooks.ctx, g.id, g.size);
}

static bool is_whole_segment(const ca_allocator *a, int32_t b)
{
    return a->blocks[b].prev < 0 && a->blocks[b].next < 0;
}

/* release_blocks: every cached segment of pool p, smallest first. */
static void release_pool(ca_allocator *a, ca_pool p)
{
    int32_t i = 0;
    while (i < a->n_free[p]) {
        int32_t b = a->free_sets[p][i];
        if (is_whole_segment(a, b))
            segment_release(a, b);
        else
            i++;
    }
}

/* release_cached_blocks: every cached segment, large pool first. */
static void release_cached(ca_allocator *a)
{
    release_pool(a, CA_POOL_LARGE);
    release_pool(a, CA_POOL_SMALL);
}

/* release_available_cached_blocks: only with a split limit.  Release the
 * smallest oversize cached segment of at least max(size, max_split_size);
 * failing that, the largest oversize ones until that many bytes are gone.
 * True if enough went (what went stays gone either way). */
static bool release_oversize(ca_allocator *a, ca_pool p, int64_t size)
{
    int64_t limit = a->cfg.max_split_size;
    if (limit == CA_UNLIMITED)
        return false;
    int64_t want = size < limit ? limit : size, gone = 0;
    int32_t i = free_lower_bound(a, p, want);
    if (i < a->n_free[p]) {
        segment_release(a, a->free_sets[p][i]);
        return true;
    }
    while (gone < want && a->n_free[p] > 0) {
        int32_t b = a->free_sets[p][a->n_free[p] - 1];
        if (a->blocks[b].size < limit)
            break;
        gone += a->blocks[b].size;
        segment_release(a, b);
    }
    return gone >= want;
}

/* ---- blocks ---- */

/* get_free_block: the smallest free block of the pool with room; an oversize
 * block (>= max_split_size) serves only an oversize request, and only when
 * it is less than kLargeBuffer (20 MiB) bigger than the request. */
static int32_t free_best_fit(const ca_allocator *a, ca_pool p, int64_t size)
{
    int32_t i = free_lower_bound(a, p, size);
    if (i == a->n_free[p])
        return -1;
    int32_t b = a->free_sets[p][i];
    int64_t have = a->blocks[b].size, limit = a->cfg.max_split_size;
    if (size < limit && have >= limit)
        return -1;
    if (size >= limit && have >= size + CA_LARGE_BUFFER)
        return -1;
    return b;
}

/* malloc's search: a cached block; else a new segment; else release oversize
 * cached segments and try again; else release every cached segment and try
 * a last time (a retry).  -1: out of memory. */
static int32_t block_obtain(ca_allocator *a, ca_pool p, int64_t size, bool *fresh)
{
    int64_t seg_bytes = ca_allocation_size(size);
    int32_t b = free_best_fit(a, p, size);
    if (b >= 0) {
        free_erase(a, b);
        return b;
    }
    *fresh = true;
    b = segment_create(a, p, seg_bytes);
    if (b < 0 && release_oversize(a, p, size))
        b = segment_create(a, p, seg_bytes);
    if (b < 0) {
        release_cached(a);
        a->counters.n_alloc_retries++;
        b = segment_create(a, p, seg_bytes);
    }
    return b;
}

/* alloc_found_block's split: block b keeps its first size bytes; the rest
 * becomes a new free block right after it. */
static void block_split(ca_allocator *a, int32_t b, int64_t size)
{
    int32_t r = blk_new(a);
    ca_blk *k = &a->blocks[b], *rest = &a->blocks[r];
    *rest = (ca_blk){.size = k->size - size, .offset = k->offset + size, .seg = k->seg,
                     .prev = b, .next = k->next};
    if (k->next >= 0)
        a->blocks[k->next].prev = r;
    k->next = r;
    k->size = size;
    free_insert(a, r);
}

/* alloc_found_block: split when should_split says so, then hand b out. */
static void block_take(ca_allocator *a, int32_t b, int64_t size, int64_t requested)
{
    ca_pool p = pool_of(a, b);
    if (should_split(a, p, a->blocks[b].size, size))
        block_split(a, b, size);
    ca_blk *k = &a->blocks[b];
    k->id = a->next_block_id++;
    k->requested = requested;
    a->live[a->n_live++] = (ca_live){.id = k->id, .slot = b};
    stats_block(a, p, +1, k->size, requested);
}

/* dst takes over src's place before it in the address list. */
static void unlink_prev(ca_allocator *a, ca_blk *d, int32_t dst, const ca_blk *s)
{
    d->offset = s->offset;
    d->prev = s->prev;
    if (d->prev >= 0)
        a->blocks[d->prev].next = dst;
    else
        a->segs[d->seg].head = dst;
}

/* dst takes over src's place after it in the address list. */
static void unlink_next(ca_allocator *a, ca_blk *d, int32_t dst, const ca_blk *s)
{
    d->next = s->next;
    if (d->next >= 0)
        a->blocks[d->next].prev = dst;
}

/* try_merge_blocks: a free neighbour src is absorbed into dst. */
static void block_merge(ca_allocator *a, int32_t dst, int32_t src)
{
    if (src < 0 || a->blocks[src].id != 0)
        return;
    free_erase(a, src);
    ca_blk *d = &a->blocks[dst];
    const ca_blk *s = &a->blocks[src];
    if (d->prev == src)
        unlink_prev(a, d, dst, s);
    else
        unlink_next(a, d, dst, s);
    d->size += s->size;
    blk_drop(a, src);
}

static void block_describe(const ca_allocator *a, int32_t b, ca_block_info *out)
{
    const ca_blk *k = &a->blocks[b];
    const ca_seg *g = &a->segs[k->seg];
    *out = (ca_block_info){.id = k->id, .segment = g->id, .offset = k->offset, .size = k->size,
                           .requested = k->requested, .segment_size = g->size, .pool = g->pool};
}

/* ---- the public calls ---- */

ca_allocator *ca_new(const ca_config *cfg)
{
    ca_config c = cfg ? *cfg : ca_config_default();
    if (ca_config_error(&c))
        return NULL;
    ca_allocator *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->cfg = c;
    a->next_block_id = 1;
    a->next_segment_id = 1;
    return a;
}

static void *dup_array(const void *p, int32_t n, size_t elem, bool *ok)
{
    if (!p || n <= 0)
        return NULL;
    void *q = malloc((size_t)n * elem);
    if (!q) {
        *ok = false;
        return NULL;
    }
    memcpy(q, p, (size_t)n * elem);
    return q;
}

/* A copy with arrays of its own: the analyzer saves the allocator's state
 * before the arms of a branch and goes back to it. */
ca_allocator *ca_clone(const ca_allocator *a)
{
    bool ok = true;
    ca_allocator *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *a;
    c->blocks = dup_array(a->blocks, a->cap_blocks, sizeof *a->blocks, &ok);
    c->spare_blocks = dup_array(a->spare_blocks, a->cap_blocks, sizeof *a->spare_blocks, &ok);
    c->free_sets[0] = dup_array(a->free_sets[0], a->cap_blocks, sizeof *a->free_sets[0], &ok);
    c->free_sets[1] = dup_array(a->free_sets[1], a->cap_blocks, sizeof *a->free_sets[1], &ok);
    c->live = dup_array(a->live, a->cap_blocks, sizeof *a->live, &ok);
    c->segs = dup_array(a->segs, a->cap_segs, sizeof *a->segs, &ok);
    c->spare_segs = dup_array(a->spare_segs, a->cap_segs, sizeof *a->spare_segs, &ok);
    c->released = dup_array(a->released, a->cap_segs, sizeof *a->released, &ok);
    if (!ok) {
        ca_free(c);
        return NULL;
    }
    return c;
}

void ca_free(ca_allocator *a)
{
    if (!a)
        return;
    free(a->blocks);
    free(a->spare_blocks);
    free(a->segs);
    free(a->spare_segs);
    free(a->free_sets[0]);
    free(a->free_sets[1]);
    free(a->live);
    free(a->released);
    free(a);
}

/* The request could not be served: say which segment was refused. */
static ca_status report_oom(ca_allocator *a, int64_t size, ca_block_info *out)
{
    a->counters.n_ooms++;
    out->segment_size = ca_allocation_size(size);
    out->pool = ca_pool_for(size);
    return CA_ERR_OOM;
}

/* malloc: round, find or create a block, split it, hand it out. */
ca_status ca_malloc(ca_allocator *a, int64_t nbytes, ca_block_info *out)
{
    *out = (ca_block_info){0};
    if (nbytes < 0)
        return CA_ERR_INVALID;
    out->requested = nbytes;
    if (nbytes >= CA_MAX_REQUEST)
        return CA_ERR_OOM;
    a->n_released = 0;
    ca_status st = nbytes == 0 ? CA_OK : reserve(a);
    if (nbytes == 0 || st != CA_OK)
        return st;
    int64_t size = ca_round_size(nbytes, a->cfg.roundup_power2_divisions);
    bool fresh = false;
    int32_t b = block_obtain(a, ca_pool_for(size), size, &fresh);
    if (b < 0)
        return report_oom(a, size, out);
    block_take(a, b, size, nbytes);
    block_describe(a, b, out);
    out->new_segment = fresh;
    return CA_OK;
}

/* free + free_block: stats drop by the block's size and request, then the
 * block merges with its free neighbours and goes back to its pool. */
ca_status ca_free_block(ca_allocator *a, ca_block_id id)
{
    if (id == 0)
        return CA_OK;
    int32_t i = live_find(a, id);
    if (i < 0)
        return CA_ERR_INVALID;
    int32_t b = a->live[i].slot;
    live_erase(a, i);
    ca_blk *k = &a->blocks[b];
    stats_block(a, pool_of(a, b), -1, k->size, k->requested);
    k->id = 0;
    k->requested = 0;
    block_merge(a, b, a->blocks[b].prev);
    block_merge(a, b, a->blocks[b].next);
    free_insert(a, b);
    return CA_OK;
}

int64_t ca_empty_cache(ca_allocator *a)
{
    a->n_released = 0;
    release_cached(a);
    return a->n_released;
}

const ca_segment_id *ca_released_get(const ca_allocator *a, int64_t *n_ids)
{
    *n_ids = a->n_released;
    return a->released;
}

ca_status ca_block_get(const ca_allocator *a, ca_block_id id, ca_block_info *out)
{
    int32_t i = id == 0 ? -1 : live_find(a, id);
    if (i < 0)
        return CA_ERR_INVALID;
    block_describe(a, a->live[i].slot, out);
    return CA_OK;
}

void ca_stats_get(const ca_allocator *a, ca_scope scope, ca_stats *out)
{
    CA_ASSERT(scope >= CA_SCOPE_ALL && scope < CA_N_SCOPES);
    *out = a->stats[scope];
}

void ca_counters_get(const ca_allocator *a, ca_counters *out)
{
    *out = a->counters;
}

static void stat_reset_peak(ca_stat *s)
{
    s->peak = s->current;
}

void ca_reset_peak(ca_allocator *a)
{
    for (int i = 0; i < CA_N_SCOPES; i++) {
        ca_stats *s = &a->stats[i];
        stat_reset_peak(&s->allocated_bytes);
        stat_reset_peak(&s->reserved_bytes);
        stat_reset_peak(&s->active_bytes);
        stat_reset_peak(&s->requested_bytes);
        stat_reset_peak(&s->n_allocations);
        stat_reset_peak(&s->n_active);
        stat_reset_peak(&s->n_segments);
    }
}

const char *ca_status_name(ca_status s)
{
    switch (s) {
    case CA_OK: return "ok";
    case CA_ERR_OOM: return "out of memory";
    case CA_ERR_INVALID: return "invalid argument";
    case CA_ERR_NOMEM: return "host out of memory";
    }
    return "unknown status";
}

/* ---- ca_verify ---- */

/* What a walk over every segment adds up, per scope. */
typedef struct ca_tally {
    int64_t allocated[CA_N_SCOPES], requested[CA_N_SCOPES]; /* bytes */
    int64_t reserved[CA_N_SCOPES];                          /* bytes */
    int64_t n_allocated[CA_N_SCOPES], n_segments[CA_N_SCOPES], n_free;
} ca_tally;

static void tally_add(int64_t *v, ca_pool p, int64_t x)
{
    v[CA_SCOPE_ALL] += x;
    v[scope_of(p)] += x;
}

/* One block: linked to its neighbour, the right size, in the right list. */
static bool verify_block(const ca_allocator *a, int32_t s, int32_t b, int64_t at, ca_tally *t)
{
    const ca_blk *k = &a->blocks[b];
    ca_pool p = a->segs[s].pool;
    if (k->seg != s || k->offset != at || k->size <= 0 || k->size % CA_MIN_BLOCK_SIZE != 0)
        return false;
    if (k->next >= 0 && a->blocks[k->next].prev != b)
        return false;
    if (k->id == 0) {
        t->n_free++;
        int32_t i = free_place(a, p, b);
        bool lone = k->next < 0 || a->blocks[k->next].id != 0;
        return lone && i < a->n_free[p] && a->free_sets[p][i] == b;
    }
    tally_add(t->allocated, p, k->size);
    tally_add(t->requested, p, k->requested);
    tally_add(t->n_allocated, p, 1);
    return live_find(a, k->id) >= 0 && a->live[live_find(a, k->id)].slot == b;
}

static bool verify_segment(const ca_allocator *a, int32_t s, ca_tally *t)
{
    const ca_seg *g = &a->segs[s];
    int64_t at = 0;
    if (a->blocks[g->head].prev >= 0)
        return false;
    for (int32_t b = g->head; b >= 0; b = a->blocks[b].next) {
        if (!verify_block(a, s, b, at, t))
            return false;
        at += a->blocks[b].size;
    }
    tally_add(t->reserved, g->pool, g->size);
    tally_add(t->n_segments, g->pool, 1);
    return at == g->size;
}

static bool verify_sorted(const ca_allocator *a)
{
    for (int p = 0; p < 2; p++)
        for (int32_t i = 1; i < a->n_free[p]; i++) {
            const ca_blk *k = &a->blocks[a->free_sets[p][i]];
            if (!blk_before(a, a->free_sets[p][i - 1], k->size, a->segs[k->seg].id, k->offset))
                return false;
        }
    for (int32_t i = 1; i < a->n_live; i++)
        if (a->live[i - 1].id >= a->live[i].id)
            return false;
    return true;
}

static bool verify_stats(const ca_allocator *a, const ca_tally *t)
{
    for (int i = 0; i < CA_N_SCOPES; i++) {
        const ca_stats *s = &a->stats[i];
        if (s->allocated_bytes.current != t->allocated[i] ||
            s->active_bytes.current != t->allocated[i] ||
            s->requested_bytes.current != t->requested[i] ||
            s->reserved_bytes.current != t->reserved[i] ||
            s->n_allocations.current != t->n_allocated[i] ||
            s->n_segments.current != t->n_segments[i] ||
            s->allocated_bytes.peak < s->allocated_bytes.current ||
            s->reserved_bytes.peak < s->reserved_bytes.current)
            return false;
    }
    return true;
}

bool ca_verify(const ca_allocator *a)
{
    ca_tally t = {0};
    for (int32_t s = 0; s < a->n_segs; s++)
        if (a->segs[s].used && !verify_segment(a, s, &t))
            return false;
    if (t.n_free != a->n_free[0] + a->n_free[1])
        return false;
    if (t.n_allocated[CA_SCOPE_ALL] != a->n_live)
        return false;
    if (a->stats[CA_SCOPE_ALL].reserved_bytes.current > a->cfg.capacity)
        return false;
    return verify_sorted(a) && verify_stats(a, &t);
}
