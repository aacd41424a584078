/*
 * rt_core.c: handles, storages, memory statistics and the error channel.
 *
 * Every storage is counted in its device's statistics from allocation to
 * free; live bytes are the sum of nbytes of storages with refs > 0.  The
 * live handle list lets the exit-time reclaim free what the program never
 * released, so the runtime frees everything it allocates.
 *
 * Storage memory comes from the device's allocator: CPU storages from
 * aligned_alloc (block bytes = nbytes), CUDA storages from the caching
 * allocator (cuda_rt.h: block bytes are the policy's block, and the CUDA
 * statistics' allocated and reserved bytes are the policy's).  At exit,
 * after every storage is released, cu_shutdown frees the cached segments.
 */
#include "rt_internal.h"
#include "cuda_rt.h"
#include "kernels.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static tl_memory_stats stats[2];
static int64_t all_live, all_peak; /* bytes, both devices together */
static tl_tensor live_head = {.prev = &live_head, .next = &live_head};
static tl_tensor *graveyard[RT_GRAVEYARD];
static int64_t n_graveyard, next_handle_id, next_storage_id;
static tl_error last_error;
static char last_message[512];
static tl_error_handler handler;
static void *handler_user;
static rt_rng global_rng = {0};
static bool exit_registered;

static void ensure_started(void)
{
    if (exit_registered)
        return;
    exit_registered = true;
    atexit(rt_shutdown);
    rt_trace_autostart();
}

struct rt_rng *rt_global_rng(void) { return &global_rng; }

void tl_manual_seed(uint64_t seed) { global_rng.state = seed; }

const tl_memory_stats *rt_stats(tl_device d) { return &stats[d == TL_CUDA]; }

void rt_stats_alloc(tl_device d, int64_t nbytes, int64_t block_bytes)
{
    tl_memory_stats *s = &stats[d == TL_CUDA];
    s->live_bytes += nbytes;
    s->allocated_bytes += block_bytes;
    if (d == TL_CPU)
        s->reserved_bytes = s->allocated_bytes;
    s->n_live++;
    s->n_allocs++;
    all_live += nbytes;
    if (all_live > all_peak)
        all_peak = all_live;
    if (s->live_bytes > s->peak_bytes)
        s->peak_bytes = s->live_bytes;
}

void rt_stats_transient(tl_device d, int64_t nbytes)
{
    tl_memory_stats *s = &stats[d == TL_CUDA];
    if (all_live + nbytes > all_peak)
        all_peak = all_live + nbytes;
    if (s->live_bytes + nbytes > s->peak_bytes)
        s->peak_bytes = s->live_bytes + nbytes;
}

void rt_stats_free(tl_device d, int64_t nbytes, int64_t block_bytes)
{
    tl_memory_stats *s = &stats[d == TL_CUDA];
    s->live_bytes -= nbytes;
    s->allocated_bytes -= block_bytes;
    if (d == TL_CPU)
        s->reserved_bytes = s->allocated_bytes;
    s->n_live--;
    all_live -= nbytes;
}

int64_t rt_live_total(void) { return all_live; }
int64_t rt_peak_total(void) { return all_peak; }

/* CUDA: allocated and reserved bytes and their peaks are the caching allocator's. */
tl_memory_stats tl_memory_stats_of(tl_device device)
{
    tl_memory_stats s = *rt_stats(device);
    ca_stats cs;
    if (device != TL_CUDA) {
        s.peak_allocated_bytes = s.peak_reserved_bytes = s.peak_bytes;
        return s;
    }
    cu_alloc_stats(&cs);
    s.allocated_bytes = cs.allocated_bytes.current;
    s.reserved_bytes = cs.reserved_bytes.current;
    s.peak_allocated_bytes = cs.allocated_bytes.peak;
    s.peak_reserved_bytes = cs.reserved_bytes.peak;
    return s;
}

void tl_reset_peak(tl_device device)
{
    tl_memory_stats *s = &stats[device == TL_CUDA];
    s->peak_bytes = s->live_bytes;
    if (device == TL_CUDA)
        cu_alloc_reset_peak();
}

/* CUDA: built with it and a device found.  Exit handlers run in reverse
 * order of registration: the reclaim is registered again once the CUDA
 * runtime has started, so that it frees device memory before anything the
 * CUDA runtime registered for its own teardown. */
bool tl_device_available(tl_device device)
{
    static bool cuda_exit_registered;
    if (device == TL_CPU)
        return true;
    ensure_started();
    bool ok = device == TL_CUDA && cu_available();
    if (ok && !cuda_exit_registered) {
        cuda_exit_registered = true;
        atexit(rt_shutdown);
    }
    return ok;
}

#define RT_HUGE_PAGE ((size_t)2 << 20) /* bytes */
#define RT_SMALL_MAX 16384 /* bytes: freed CPU memory this small is kept for reuse */
#define RT_SMALL_KEEP 16   /* blocks kept per 64-byte size class */

/* Freed CPU blocks of up to RT_SMALL_MAX bytes, by size class (64-byte
 * units), reused by the next storage of the class: a program that
 * allocates and releases small tensors in a loop (a decoder's token step)
 * takes warm memory without a trip through aligned_alloc and free.  Not
 * counted in any statistic (a storage's bytes are counted from its
 * allocation to its free, as before); freed at exit. */
static void *small_blocks[RT_SMALL_MAX / 64][RT_SMALL_KEEP];
static int n_small_blocks[RT_SMALL_MAX / 64];

/* The class of a 64-byte-aligned block of size bytes, or -1. */
static int small_class(size_t size)
{
    return size > 0 && size <= RT_SMALL_MAX ? (int)(size / 64) - 1 : -1;
}

static void cpu_memory_free(void *data, int64_t nbytes)
{
    int c = small_class(((size_t)nbytes + 63) & ~(size_t)63);
    if (data && c >= 0 && n_small_blocks[c] < RT_SMALL_KEEP) {
        small_blocks[c][n_small_blocks[c]++] = data;
        return;
    }
    free(data);
}

static void small_blocks_free(void)
{
    for (int c = 0; c < RT_SMALL_MAX / 64; c++)
        while (n_small_blocks[c] > 0)
            free(small_blocks[c][--n_small_blocks[c]]);
}

/* CPU storages are 64-byte aligned (vector loads never straddle a line).
 * Storages of 2 MiB and more are 2 MiB aligned and asked to be backed by
 * transparent huge pages: first touching 256 MiB then costs about 30 ms of
 * page faults instead of about 140 ms (measured on this project's machines). */
static bool cpu_memory_new(const rt_site *site, rt_storage *s, int64_t nbytes)
{
    bool huge = (size_t)nbytes >= RT_HUGE_PAGE;
    size_t align = huge ? RT_HUGE_PAGE : 64;
    size_t size = ((size_t)nbytes + align - 1) & ~(align - 1);
    int c = huge ? -1 : small_class(size);
    if (c >= 0 && n_small_blocks[c] > 0) {
        s->data = small_blocks[c][--n_small_blocks[c]];
        return true;
    }
    if (nbytes == 0 || (s->data = aligned_alloc(align, size))) {
#ifdef MADV_HUGEPAGE
        if (huge)
            madvise(s->data, size, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
        return true;
    }
    rt_raise(site, TL_ERR_OUT_OF_MEMORY, "CPU out of memory: tried to allocate %lld bytes",
             (long long)nbytes);
    return false;
}

/* A block of the caching allocator; its failure is raised with the CUDA message. */
static bool cuda_memory_new(const rt_site *site, rt_storage *s, int64_t nbytes)
{
    cu_block b;
    cu_error e = {TL_ERR_DEVICE, "cudaMalloc", "unknown error"};
    if (cu_block_alloc(nbytes, &b)) {
        s->data = b.ptr, s->block = b.block, s->segment = b.segment;
        s->block_bytes = b.block_bytes;
        return true;
    }
    cu_error_take(&e);
    if (e.status == TL_ERR_OUT_OF_MEMORY)
        rt_raise(site, e.status, "CUDA out of memory: tried to allocate %lld bytes (the caching "
                 "allocator needed a segment of %lld bytes): %s: %s", (long long)nbytes,
                 (long long)b.segment_bytes, e.call, e.detail);
    else
        rt_raise(site, e.status, "CUDA error while allocating %lld bytes: %s: %s",
                 (long long)nbytes, e.call, e.detail);
    return false;
}

/* Records of freed storages and handles the graveyard forgot, kept for the
 * next ones (a small-tensor loop makes and frees one of each per call);
 * what is reused is memory underneath: ids, statistics and the trace are
 * as for a fresh allocation.  Freed at exit. */
#define RT_SPARE 64
static rt_storage *spare_storages[RT_SPARE];
static tl_tensor *spare_handles[RT_SPARE];
static int n_spare_storages, n_spare_handles;

static rt_storage *record_new(void)
{
    if (n_spare_storages == 0)
        return calloc(1, sizeof(rt_storage));
    rt_storage *s = spare_storages[--n_spare_storages];
    memset(s, 0, sizeof *s);
    return s;
}

static void record_free(rt_storage *s)
{
    if (n_spare_storages < RT_SPARE)
        spare_storages[n_spare_storages++] = s;
    else
        free(s);
}

static void spares_free(void)
{
    while (n_spare_storages > 0)
        free(spare_storages[--n_spare_storages]);
    while (n_spare_handles > 0)
        free(spare_handles[--n_spare_handles]);
}

rt_storage *rt_storage_new(const rt_site *site, tl_device device, int64_t nbytes)
{
    ensure_started();
    rt_storage *s = record_new();
    if (!s) {
        rt_raise(site, TL_ERR_OUT_OF_MEMORY, "host out of memory for a storage record");
        return NULL;
    }
    s->block_bytes = nbytes;
    if (!(device == TL_CUDA ? cuda_memory_new : cpu_memory_new)(site, s, nbytes)) {
        record_free(s);
        return NULL;
    }
    s->nbytes = nbytes;
    s->device = device;
    s->id = next_storage_id++;
    rt_stats_alloc(device, s->nbytes, s->block_bytes);
    rt_trace_alloc(site, s);
    return s;
}

rt_storage *rt_storage_external(const rt_site *site, void *data, int64_t nbytes)
{
    ensure_started();
    rt_storage *s = record_new();
    if (!s) {
        rt_raise(site, TL_ERR_OUT_OF_MEMORY, "host out of memory for a storage record");
        return NULL;
    }
    s->data = data;
    s->nbytes = nbytes;
    s->device = TL_CPU;
    s->external = true;
    s->id = next_storage_id++;
    rt_trace_alloc(site, s);
    return s;
}

/* The grown copy of s's memory on its device, or NULL after raising.  The
 * CPU zeroes the new tail; CUDA leaves it as resize_ does, uninitialized. */
static void *grown_memory(const rt_site *site, rt_storage *s, int64_t nbytes, cu_block *b)
{
    rt_storage tmp = {0};
    if (s->device == TL_CUDA) {
        if (!cuda_memory_new(site, &tmp, nbytes))
            return NULL;
        *b = (cu_block){tmp.data, tmp.block, tmp.segment, tmp.block_bytes, 0};
        if (s->nbytes > 0) {
            mt_layout l = {.ndim = 1, .shape = {s->nbytes}, .strides = {1}, .dtype = TL_U8,
                           .device = TL_CUDA, .storage_nbytes = s->nbytes};
            rt_buf src = {&l, s->data}, dst = {&l, tmp.data};
            cu_transfer(&dst, TL_CUDA, &src, TL_CUDA);
        }
        return tmp.data;
    }
    if (!cpu_memory_new(site, &tmp, nbytes))
        return NULL;
    if (s->nbytes > 0)
        memcpy(tmp.data, s->data, (size_t)s->nbytes);
    memset((char *)tmp.data + s->nbytes, 0, (size_t)(nbytes - s->nbytes));
    b->block_bytes = nbytes;
    return tmp.data;
}

bool rt_storage_grow(const rt_site *site, rt_storage *s, int64_t nbytes)
{
    cu_block b = {0};
    if (nbytes <= s->nbytes)
        return true;
    void *data = grown_memory(site, s, nbytes, &b);
    if (!data)
        return false;
    if (s->device == TL_CUDA) {
        cu_block_free(s->block);
        s->block = b.block, s->segment = b.segment;
    } else {
        free(s->data);
    }
    rt_stats_free(s->device, s->nbytes, s->block_bytes);
    stats[s->device == TL_CUDA].n_allocs--; /* the same storage, grown: not a new allocation */
    s->data = data;
    s->nbytes = nbytes;
    s->block_bytes = b.block_bytes;
    rt_stats_alloc(s->device, s->nbytes, s->block_bytes);
    return true;
}

static void storage_unref(const rt_site *site, rt_storage *s)
{
    if (--s->refs > 0)
        return;
    if (s->external) {
        rt_trace_free(site, s);
        record_free(s);
        return;
    }
    rt_stats_free(s->device, s->nbytes, s->block_bytes);
    rt_trace_free(site, s);
    if (s->device == TL_CUDA)
        cu_block_free(s->block);
    else
        cpu_memory_free(s->data, s->nbytes);
    record_free(s);
}

tl_tensor *rt_handle_new(const mt_layout *l, rt_storage *s)
{
    ensure_started();
    tl_tensor *t = n_spare_handles > 0 ? spare_handles[--n_spare_handles] : malloc(sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->magic = RT_MAGIC_LIVE;
    t->l = *l;
    t->l.storage_nbytes = s->nbytes;
    t->storage = s;
    t->id = next_handle_id++;
    s->refs++;
    t->next = &live_head;
    t->prev = live_head.prev;
    live_head.prev->next = t;
    live_head.prev = t;
    return t;
}

bool rt_check_handle(const rt_site *site, const tl_tensor *t)
{
    if (!t) {
        rt_raise(site, TL_ERR_BAD_ARGUMENT, "a tensor argument is NULL");
        return false;
    }
    if (t->magic == RT_MAGIC_LIVE)
        return true;
    rt_raise(site, TL_ERR_RELEASED, t->magic == RT_MAGIC_RELEASED
             ? "use of a tensor handle after tl_release" : "not a tensor handle");
    return false;
}

/* The oldest released handle is forgotten: its memory serves a new handle. */
static void bury(tl_tensor *t)
{
    int64_t slot = n_graveyard++ % RT_GRAVEYARD;
    tl_tensor *old = graveyard[slot];
    graveyard[slot] = t;
    if (old && n_spare_handles < RT_SPARE)
        spare_handles[n_spare_handles++] = old;
    else
        free(old);
}

void rt_handle_release(const rt_site *site, tl_tensor *t)
{
    t->prev->next = t->next;
    t->next->prev = t->prev;
    t->magic = RT_MAGIC_RELEASED;
    storage_unref(site, t->storage);
    t->storage = NULL;
    bury(t);
}

void tl_release_at(const char *file, int line, tl_tensor *t)
{
    rt_site site = {file, line, MT_OP_release};
    if (!t)
        return;
    if (t->magic == RT_MAGIC_RELEASED) {
        rt_raise(&site, TL_ERR_RELEASED, "double release: the handle was already released");
        return;
    }
    if (rt_check_handle(&site, t))
        rt_handle_release(&site, t);
}

void(tl_release)(tl_tensor *t) { tl_release_at(NULL, 0, t); }

void rt_reclaim(void)
{
    rt_site site = {NULL, 0, MT_OP_release};
    while (live_head.next != &live_head)
        rt_handle_release(&site, live_head.next);
}

/* Runs once, however often it is registered. */
void rt_shutdown(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    rt_trace_exit();
    rt_reclaim();
    for (int64_t k = 0; k < RT_GRAVEYARD; k++) {
        free(graveyard[k]);
        graveyard[k] = NULL;
    }
    small_blocks_free();
    spares_free();
    rt_memo_free();
    cu_shutdown();
    tl_trace_close();
}

/* ---- errors ---- */

static const char *const status_names[TL_N_STATUS] = {
    "ok", "invalid-view", "bad-dim", "shape-mismatch", "dtype-mismatch", "overlapping-write",
    "use-after-release", "bad-argument", "device", "out-of-memory",
};

const char *tl_status_name(tl_status status)
{
    return (unsigned)status < TL_N_STATUS ? status_names[status] : "unknown";
}

void tl_set_error_handler(tl_error_handler h, void *user)
{
    handler = h;
    handler_user = user;
}

const tl_error *tl_last_error(void) { return &last_error; }

void tl_clear_error(void) { memset(&last_error, 0, sizeof last_error); }

void rt_raise(const rt_site *site, tl_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    last_error = (tl_error){status, site->op < MT_N_OPS ? mt_ops[site->op].name : "?", site->file,
                            site->line, last_message};
    rt_trace_error(site, status, last_message);
    if (handler) {
        handler(&last_error, handler_user);
        return;
    }
    fprintf(stderr, "%s:%d: error: tl_%s: %s [%s]\n", site->file ? site->file : "<unknown>",
            site->line, last_error.op, last_message, tl_status_name(status));
    exit(1);
}
