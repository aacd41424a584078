/*
 * kernel_walk.h: the general element walk of the CPU kernels that favour
 * one simple loop over speed (the model ops, kernel_model.c, and the
 * training ops, kernel_train.c): the written tensor's elements in row-major
 * order with a multi-index, each operand read through its broadcast
 * strides (0 where it has size 1 or lacks the dim).  Offsets are in
 * elements, from each operand's storage offset.
 */
#ifndef TL_KERNEL_WALK_H
#define TL_KERNEL_WALK_H

#include <stdbool.h>
#include <string.h>

#include "kernels.h"

enum { KW_MAX_OPS = 5 }; /* operands: 0 is written, the others read */

typedef struct kw_walk {
    int nd, n;
    int64_t shape[TL_MAX_DIMS], pos[TL_MAX_DIMS];
    const rt_buf *b[KW_MAX_OPS];
    int64_t st[KW_MAX_OPS][TL_MAX_DIMS]; /* elements */
    int64_t off[KW_MAX_OPS];             /* elements, current */
} kw_walk;

/* A walk of b[0]'s shape over the n operands b[0 .. n). */
static inline void kw_init(kw_walk *w, int n, const rt_buf *const *b)
{
    memset(w, 0, sizeof *w);
    const mt_layout *o = b[0]->l;
    w->nd = o->ndim, w->n = n;
    memcpy(w->shape, o->shape, sizeof w->shape);
    for (int k = 0; k < n; k++) {
        const mt_layout *l = b[k]->l;
        w->b[k] = b[k];
        w->off[k] = l->offset;
        for (int d = 0; d < w->nd; d++) {
            int ld = l->ndim - w->nd + d;
            w->st[k][d] = ld < 0 || (l->shape[ld] == 1 && w->shape[d] != 1) ? 0 : l->strides[ld];
        }
    }
}

/* Operand k's current element. */
static inline void *kw_ptr(const kw_walk *w, int k)
{
    return (char *)w->b[k]->base + w->off[k] * mt_dtype_size(w->b[k]->l->dtype);
}

/* Steps to the next element; false after the last. */
static inline bool kw_next(kw_walk *w)
{
    for (int d = w->nd - 1; d >= 0; d--) {
        for (int k = 0; k < w->n; k++)
            w->off[k] += w->st[k][d];
        if (++w->pos[d] < w->shape[d])
            return true;
        for (int k = 0; k < w->n; k++)
            w->off[k] -= w->st[k][d] * w->shape[d];
        w->pos[d] = 0;
    }
    return false;
}

static inline int64_t kw_numel(const mt_layout *l)
{
    int64_t n = 1;
    for (int d = 0; d < l->ndim; d++)
        n *= l->shape[d];
    return n;
}

#endif
