/*
 * xalloc.c: the tool's allocation helpers and its out-of-memory exit (see
 * xalloc.h).
 *
 * The exit writes its message with write(2) from a stack buffer: it runs
 * when malloc has just failed, perhaps while another thread holds stdio's
 * locks, so it calls nothing that allocates or locks.
 */
#include "xalloc.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OOM_EXIT = 2 }; /* docs/exit-codes.md: the command could not do its job */

static void (*on_failure)(void *ctx);
static void *on_failure_ctx;
/* Allocations left before the helpers refuse one; -1: never (tl_xalloc_fail_after). */
static _Atomic int64_t fail_budget = -1;

_Noreturn void tl_out_of_memory(size_t nbytes)
{
    char msg[96];
    int n = nbytes ? snprintf(msg, sizeof msg, "tensorlint: out of memory (allocating %zu bytes)\n",
                              nbytes)
                   : snprintf(msg, sizeof msg, "tensorlint: out of memory\n");
    if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
        n = 0; /* nothing left to tell: the exit code still says it */
    if (on_failure)
        on_failure(on_failure_ctx);
    _exit(OOM_EXIT);
}

void tl_xalloc_on_failure(void (*fn)(void *ctx), void *ctx)
{
    on_failure = fn;
    on_failure_ctx = ctx;
}

int64_t tl_xalloc_fail_after(int64_t n)
{
    return atomic_exchange(&fail_budget, n < 0 ? -1 : n);
}

/* Whether the test hook refuses this allocation. */
static bool refused(void)
{
    if (atomic_load_explicit(&fail_budget, memory_order_relaxed) < 0)
        return false;
    return atomic_fetch_sub_explicit(&fail_budget, 1, memory_order_relaxed) == 0;
}

void *tl_xmalloc(size_t nbytes)
{
    void *p = refused() ? NULL : malloc(nbytes ? nbytes : 1);
    if (!p)
        tl_out_of_memory(nbytes);
    return p;
}

void *tl_xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        tl_out_of_memory(SIZE_MAX);
    void *p = refused() ? NULL : n && size ? calloc(n, size) : calloc(1, 1);
    if (!p)
        tl_out_of_memory(n * size);
    return p;
}

void *tl_xrealloc(void *p, size_t nbytes)
{
    void *q = refused() ? NULL : realloc(p, nbytes ? nbytes : 1); /* realloc(p, 0) would free p */
    if (!q)
        tl_out_of_memory(nbytes);
    return q;
}

void *tl_xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        tl_out_of_memory(SIZE_MAX);
    return tl_xrealloc(p, n * size);
}

char *tl_xstrdup(const char *s)
{
    s = s ? s : "";
    size_t n = strlen(s) + 1;
    return memcpy(tl_xmalloc(n), s, n);
}

char *tl_xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = tl_xmalloc(len + 1);
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *tl_xvasprintf(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0) /* more than INT_MAX bytes */
        tl_out_of_memory((size_t)INT_MAX + 1);
    char *s = tl_xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

char *tl_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = tl_xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

FILE *tl_xmemstream(char **buf, size_t *len)
{
    FILE *f = refused() ? NULL : open_memstream(buf, len);
    if (!f)
        tl_out_of_memory(0);
    return f;
}

void tl_xmemstream_close(FILE *m)
{
    bool lost = ferror(m) != 0;
    if (fclose(m) != 0 || lost)
        tl_out_of_memory(0);
}

/* items of *cap elements grown to hold need: twice *cap, or min_cap from
 * 0, and need when that is more.  A capacity past max (what the caller's
 * cap type holds) or whose bytes size_t cannot count is out of memory. */
static void *xgrow(void *items, size_t *cap, size_t need, size_t min_cap, size_t max,
                   size_t elem_size)
{
    if (need <= *cap)
        return items;
    if (elem_size && max > SIZE_MAX / elem_size)
        max = SIZE_MAX / elem_size;
    if (need > max)
        tl_out_of_memory(SIZE_MAX);
    size_t next = *cap == 0 ? (min_cap ? min_cap : 1) : *cap > max / 2 ? max : 2 * *cap;
    if (next > max)
        next = max;
    if (next < need)
        next = need;
    items = tl_xreallocarray(items, next, elem_size);
    *cap = next;
    return items;
}

void *tl_xgrow_size(void *items, size_t *cap, size_t need, size_t min_cap, size_t elem_size)
{
    return xgrow(items, cap, need, min_cap, SIZE_MAX, elem_size);
}

void *tl_xgrow_int(void *items, int *cap, size_t need, size_t min_cap, size_t elem_size)
{
    size_t c = *cap > 0 ? (size_t)*cap : 0;
    items = xgrow(items, &c, need, min_cap, INT_MAX, elem_size);
    *cap = (int)c;
    return items;
}

void *tl_xgrow_unsigned(void *items, unsigned *cap, size_t need, size_t min_cap, size_t elem_size)
{
    size_t c = *cap;
    items = xgrow(items, &c, need, min_cap, UINT_MAX, elem_size);
    *cap = (unsigned)c;
    return items;
}

void *tl_xgrow_i64(void *items, int64_t *cap, size_t need, size_t min_cap, size_t elem_size)
{
    size_t c = *cap > 0 ? (size_t)*cap : 0;
    items = xgrow(items, &c, need, min_cap, (size_t)INT64_MAX, elem_size);
    *cap = (int64_t)c;
    return items;
}
