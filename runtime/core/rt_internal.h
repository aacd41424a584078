/*
 * rt_internal.h: the runtime's objects.  A storage is a refcounted byte
 * buffer; a handle (struct tl_tensor) is a layout over one storage and
 * holds one reference.  Released handles are kept, marked, in a bounded
 * graveyard so that a later use is reported as use-after-release instead of
 * reading freed memory; at exit every live handle and storage is freed.
 * The runtime is single-threaded by contract.
 */
#ifndef TL_RT_INTERNAL_H
#define TL_RT_INTERNAL_H

#define TL_NO_CALLSITE_MACROS
#include "meta.h"

#include <stdarg.h>
#include <stdio.h>

#define RT_MAGIC_LIVE 0x544c4956u     /* "TLIV" */
#define RT_MAGIC_RELEASED 0x544c5244u /* "TLRD" */
#define RT_GRAVEYARD 65536            /* released handles remembered for use-after-release */

typedef struct rt_storage {
    int64_t refs;       /* handles pointing into it */
    int64_t nbytes;     /* bytes requested (numel x element size) */
    int64_t block_bytes; /* bytes the device allocator charged */
    void *data;         /* host memory, or device memory for TL_CUDA */
    tl_device device;
    int64_t id;         /* allocation sequence number, stable within a run */
    int64_t block;      /* TL_CUDA: the caching allocator's block id (0: none) */
    int64_t segment;    /* TL_CUDA: the segment holding the block (0: none) */
    bool external;      /* the caller's memory (tl_from_blob): not counted, never freed */
} rt_storage;

struct tl_tensor {
    uint32_t magic;
    mt_layout l;
    rt_storage *storage;
    int64_t id;                   /* handle sequence number */
    struct tl_tensor *prev, *next; /* the live list */
};

/* The user's call site of the current API call. */
typedef struct rt_site {
    const char *file; /* NULL when called without the macros */
    int line;
    mt_op op;
} rt_site;

/* ---- rt_core.c: handles, storages, statistics, errors ---- */
tl_tensor *rt_handle_new(const mt_layout *l, rt_storage *s);
rt_storage *rt_storage_new(const rt_site *site, tl_device device, int64_t nbytes);
/* A CPU storage over the caller's nbytes at data: 0 bytes allocated or counted. */
rt_storage *rt_storage_external(const rt_site *site, void *data, int64_t nbytes);
/* resize_: the storage's memory grows to nbytes (contents kept, the rest
 * zeroed; every handle into it sees the new memory); false after raising. */
bool rt_storage_grow(const rt_site *site, rt_storage *s, int64_t nbytes);
/* Check that t is a live handle; raises and returns false otherwise. */
bool rt_check_handle(const rt_site *site, const tl_tensor *t);
void rt_handle_release(const rt_site *site, tl_tensor *t);
/* Report an error through the handler (the default exits). */
void rt_raise(const rt_site *site, tl_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rt_stats_alloc(tl_device d, int64_t nbytes, int64_t block_bytes);
void rt_stats_free(tl_device d, int64_t nbytes, int64_t block_bytes);
/* nbytes allocated and freed within one call (an op's temporaries): the
 * peak counts them on top of what is live; no storage, no allocation count. */
void rt_stats_transient(tl_device d, int64_t nbytes);
/* rt_api_train.c: the data-dependent checks of index_add (index values in
 * range) and cross_entropy (targets in range unless ignored); false after raising. */
bool rt_train_data_check(const rt_site *site, const mt_call *c, tl_tensor *const *t);
const tl_memory_stats *rt_stats(tl_device d);
/* Live and peak bytes over both devices together. */
int64_t rt_live_total(void);
int64_t rt_peak_total(void);
/* The process-wide generator of randn/randint. */
struct rt_rng *rt_global_rng(void);
/* Run the exit-time reclaim once (also registered with atexit). */
void rt_shutdown(void);
/* Release every live handle, as at exit, and keep the runtime usable (tests). */
void rt_reclaim(void);

/* ---- rt_exec.c: one API call ---- */
typedef struct rt_outcome {
    tl_tensor *t;  /* the new handle, or NULL */
    double value;  /* tl_get */
    bool ok;
} rt_outcome;
rt_outcome rt_exec(const rt_site *site, va_list *ap);

/* ---- rt_memo.c: the meta functions' verdicts per call site ---- */
/* mt_run, or the result of the equal call this site made before. */
tl_status rt_meta_run(const rt_site *site, const mt_call *c, mt_result *r);
void rt_memo_free(void);

/* ---- rt_trace.c: the allocation trace ---- */
void rt_trace_call(const rt_site *site, const mt_result *r, const tl_tensor *t);
void rt_trace_alloc(const rt_site *site, const rt_storage *s);
void rt_trace_free(const rt_site *site, const rt_storage *s);
void rt_trace_error(const rt_site *site, tl_status status, const char *message);
void rt_trace_exit(void);
void rt_trace_autostart(void);

#endif /* TL_RT_INTERNAL_H */
