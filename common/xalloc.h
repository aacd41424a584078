/*
 * xalloc.h: the tool's allocation helpers (prefix tl_x) and its one
 * out-of-memory policy (docs/design.md, "Errors and out of memory").
 *
 * Every allocation of the tool -- front end, interpreter, symbolic sizes,
 * checks, report writers, diagrams, language server, command-line driver
 * -- goes through these helpers, and none of them returns NULL.  When the
 * system refuses memory they write one line on standard error,
 *
 *     tensorlint: out of memory (allocating N bytes)
 *
 * and end the process at once with exit code 2 (docs/exit-codes.md): with
 * _exit, after the failure hook below, so that no atexit handler, no
 * stdio flush and no leak check runs in a process whose state is half
 * built (and whose other threads, under check -j, are still working).
 * There is no silent abort(), no crash report and no core dump.
 *
 * A request of 0 bytes gets 1, so NULL only ever means failure, and a
 * count times a size that overflows size_t is a failure too.
 *
 * The runtime (libtensorlint: runtime/, cuda/) never uses these: it runs
 * inside the user's program, and reports a failed allocation to it as
 * TL_ERR_OUT_OF_MEMORY (tl_set_error_handler in tensorlint/tensor.h).
 */
#ifndef TL_XALLOC_H
#define TL_XALLOC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The out-of-memory exit: the message (nbytes is what was asked for; 0 when
 * unknown: a library such as Graphviz or stdio failed), the failure hook,
 * then _exit(2).  For allocations made outside these helpers. */
_Noreturn void tl_out_of_memory(size_t nbytes);

void *tl_xmalloc(size_t nbytes);
void *tl_xcalloc(size_t n, size_t size);             /* zeroed */
void *tl_xrealloc(void *p, size_t nbytes);
void *tl_xreallocarray(void *p, size_t n, size_t size); /* n * size bytes, checked */
char *tl_xstrdup(const char *s);                      /* a copy of "" when s is NULL */
char *tl_xstrndup(const char *s, size_t n);
char *tl_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *tl_xvasprintf(const char *fmt, va_list ap);
/* open_memstream(buf, len), never NULL; close it with tl_xmemstream_close,
 * which ends the process when a write was lost for want of memory (the
 * only way a memory stream fails), so *buf is never a silently cut text. */
FILE *tl_xmemstream(char **buf, size_t *len);
void tl_xmemstream_close(FILE *m);

/* The tool's one growing array: makes items (an array of *cap elements of
 * its type) hold at least need elements.  When *cap is less, the new
 * capacity is twice *cap (min_cap when *cap is 0), or need when that is
 * more, and items is reallocated (one allocation; the new elements are not
 * initialised); otherwise nothing changes.  A capacity the cap's type or
 * size_t cannot hold is out of memory, never a wrapped size.  cap points
 * to an int, unsigned, size_t or int64_t; items is assigned.
 *
 *     tl_xgrow(v->items, &v->cap, (size_t)v->n + 1, 16);
 *     v->items[v->n++] = x;
 */
#define tl_xgrow(items, cap, need, min_cap)                                                  \
    ((items) = _Generic((cap), int *: tl_xgrow_int, unsigned *: tl_xgrow_unsigned,           \
                        size_t *: tl_xgrow_size, int64_t *: tl_xgrow_i64)(                    \
         (items), (cap), (need), (min_cap), sizeof *(items)))
void *tl_xgrow_int(void *items, int *cap, size_t need, size_t min_cap, size_t elem_size);
void *tl_xgrow_unsigned(void *items, unsigned *cap, size_t need, size_t min_cap, size_t elem_size);
void *tl_xgrow_size(void *items, size_t *cap, size_t need, size_t min_cap, size_t elem_size);
void *tl_xgrow_i64(void *items, int64_t *cap, size_t need, size_t min_cap, size_t elem_size);

/* fn(ctx) runs on the out-of-memory exit before the process ends (NULL:
 * nothing runs); one at a time.  It must not allocate: the command-line
 * driver removes its unfinished -o temporary file (tools/cli_out.c). */
void tl_xalloc_on_failure(void (*fn)(void *ctx), void *ctx);

/* For tests: the next n allocations of the helpers succeed (as far as the
 * system allows) and the one after fails as if the system refused it; n < 0
 * (the default) turns this off.  Returns how many were left of the previous
 * setting (-1: it was off), so a test can count a run's allocations. */
int64_t tl_xalloc_fail_after(int64_t n);

#endif /* TL_XALLOC_H */
