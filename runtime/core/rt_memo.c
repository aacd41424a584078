/*
 * rt_memo.c: the meta functions' verdicts, remembered per call site.
 *
 * mt_run is a pure function of its call: the op, the operands' layouts,
 * their storages' identities, the scalar and list arguments.  A program
 * calls the same site with the same arguments over and over (a decoder's
 * token step, a training loop), and for a small tensor running the meta
 * function -- validating every layout, broadcasting, TensorIterator's
 * output strides, formatting the reason text the runtime never shows --
 * cost more than the arithmetic.  So the last successful call of each
 * (site, operands) slot is kept with its result, and a call equal to it
 * field by field takes that result instead of running mt_run again.
 *
 * Invariants: only successful calls are kept (a failing call runs mt_run
 * every time, so its message is PyTorch's); equality compares every field
 * mt_run can read (a layout's whole shape and stride arrays, a list's n
 * values), so a hit returns exactly what mt_run would; the reason text (mt_result.msg) of a hit is empty: the
 * runtime reads msg only on error.  The table is one allocation, made on
 * first use and freed at exit (rt_memo_free).  Single-threaded, as the
 * runtime is.
 */
#include "rt_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RT_MEMO_SLOTS 1024 /* a power of two */
#define RT_MEMO_OPS 4      /* calls with more operands are not kept */
#define RT_MEMO_RESULT offsetof(mt_result, msg) /* bytes of a result kept: all but msg */

typedef struct memo_entry {
    const char *file; /* the site; NULL without the call-site macros */
    int line;
    bool used;
    mt_call call;                      /* in[] point into layouts[] */
    mt_layout layouts[RT_MEMO_OPS];
    unsigned char result[RT_MEMO_RESULT]; /* the mt_result, less its msg */
} memo_entry;

static memo_entry *memo;
static bool memo_failed; /* the table could not be allocated: run mt_run always */

/* A list's n values (past n, unpacking leaves them unset and nothing reads them). */
static bool ints_equal(const mt_ints *a, const mt_ints *b)
{
    return a->n == b->n && (a->n <= 0 || memcmp(a->v, b->v, sizeof a->v[0] * (size_t)a->n) == 0);
}

static bool layout_equal(const mt_layout *a, const mt_layout *b)
{
    return a->ndim == b->ndim && a->offset == b->offset && a->dtype == b->dtype &&
           a->device == b->device && a->storage_nbytes == b->storage_nbytes &&
           memcmp(a->shape, b->shape, sizeof a->shape) == 0 &&
           memcmp(a->strides, b->strides, sizeof a->strides) == 0;
}

/* Every field of the calls that mt_run reads; f bit for bit (a NaN equals itself). */
static bool call_equal(const mt_call *a, const mt_call *b)
{
    if (a->op != b->op || a->n_in != b->n_in || memcmp(a->i, b->i, sizeof a->i) != 0 ||
        !ints_equal(&a->s[0], &b->s[0]) || !ints_equal(&a->s[1], &b->s[1]) ||
        memcmp(&a->f, &b->f, sizeof a->f) != 0 || a->b != b->b || a->dtype != b->dtype ||
        a->device != b->device || a->format != b->format ||
        a->has_storage_ids != b->has_storage_ids || a->ptr != b->ptr)
        return false;
    for (int k = 0; k < a->n_in; k++)
        if (a->storage[k] != b->storage[k] || a->external[k] != b->external[k] ||
            !layout_equal(a->in[k], b->in[k]))
            return false;
    return true;
}

/* The slot of a site and its operands: a loop over layers calls one site
 * with another layer's weights (another offset, another storage) each
 * time, and each keeps its own slot. */
static memo_entry *memo_slot(const rt_site *site, const mt_call *c)
{
    if (!memo && !memo_failed && !(memo = calloc(RT_MEMO_SLOTS, sizeof *memo)))
        memo_failed = true;
    if (!memo)
        return NULL;
    uint64_t h = (uint64_t)(uintptr_t)site->file * 0x9e3779b97f4a7c15u;
    h ^= (uint64_t)site->line * 0xff51afd7ed558ccdu + (uint64_t)c->op;
    for (int k = 0; k < c->n_in && k < RT_MEMO_OPS; k++)
        h = (h ^ ((uint64_t)c->in[k]->offset + (uint64_t)c->storage[k] * 0x100000001b3u)) *
            0xc4ceb9fe1a85ec53u;
    return &memo[(h >> 32) & (RT_MEMO_SLOTS - 1)];
}

static void memo_keep(memo_entry *e, const rt_site *site, const mt_call *c, const mt_result *r)
{
    e->file = site->file, e->line = site->line, e->used = true;
    e->call = *c;
    for (int k = 0; k < c->n_in; k++) {
        e->layouts[k] = *c->in[k];
        e->call.in[k] = &e->layouts[k];
    }
    memcpy(e->result, r, RT_MEMO_RESULT);
}

tl_status rt_meta_run(const rt_site *site, const mt_call *c, mt_result *r)
{
    memo_entry *e = c->n_in <= RT_MEMO_OPS ? memo_slot(site, c) : NULL;
    if (e && e->used && e->file == site->file && e->line == site->line && call_equal(&e->call, c)) {
        memcpy(r, e->result, RT_MEMO_RESULT);
        r->msg[0] = '\0';
        return TL_OK;
    }
    if (mt_run(c, r) == TL_OK && e)
        memo_keep(e, site, c, r);
    return r->status;
}

void rt_memo_free(void)
{
    free(memo);
    memo = NULL;
}
