/*
 * an_snap.c: the interpreter's state saved and restored whole (a branch's
 * arms and a loop's trials run from one snapshot), and the comparisons of
 * layouts that the joins of two states use.
 */
#include "an_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- branches: snapshot, run both arms, keep the heavier ---- */


void *an_dup_mem(const void *p, size_t n)
{
    void *q = tl_xmalloc(n);
    if (n)
        memcpy(q, p, n);
    return q;
}


/* memcpy that accepts the null pointers of empty tables (n == 0). */
void an_put_mem(void *dst, const void *src, size_t n)
{
    if (n)
        memcpy(dst, src, n);
}

/* ---- the tensors: handles, storages' references and frees, CUDA blocks ---- */

static void snap_tens_take(const an_ctx *cx, an_snap_tens *t)
{
    t->n_handles = cx->tens.n_handles;
    t->handles = an_dup_mem(cx->tens.handles, sizeof *cx->tens.handles * (size_t)t->n_handles);
    t->n_storages = cx->r->n_storages;
    t->refs = an_dup_mem(cx->tens.refs, sizeof *cx->tens.refs * (size_t)t->n_storages);
    t->live_storage = an_dup_mem(cx->tens.live_storage, sizeof(bool) * (size_t)t->n_storages);
    t->storages = an_dup_mem(cx->r->storages, sizeof *cx->r->storages * (size_t)t->n_storages);
    t->cuda = cx->tens.cuda ? ca_clone(cx->tens.cuda) : NULL;
    if (cx->tens.cuda && !t->cuda)
        tl_out_of_memory(0); /* ca_clone fails only for want of memory */
    t->n_cuda_block = cx->tens.cap_cuda_block;
    t->cuda_block =
        an_dup_mem(cx->tens.cuda_block, sizeof(int64_t) * (size_t)cx->tens.cap_cuda_block);
}

/* Storages made since t are no longer live (their arm is gone). */
static void snap_tens_restore(an_ctx *cx, const an_snap_tens *t)
{
    an_put_mem(cx->tens.handles, t->handles, sizeof *cx->tens.handles * (size_t)t->n_handles);
    an_put_mem(cx->tens.refs, t->refs, sizeof *cx->tens.refs * (size_t)t->n_storages);
    an_put_mem(cx->tens.live_storage, t->live_storage, sizeof(bool) * (size_t)t->n_storages);
    for (int s = 0; s < t->n_storages; s++) {
        an_storage *st = &cx->r->storages[s];
        st->free_line = t->storages[s].free_line;
        st->free_col = t->storages[s].free_col;
        st->free_func = t->storages[s].free_func;
        st->free_event = t->storages[s].free_event;
        st->retire_event = t->storages[s].retire_event;
        st->discarded = t->storages[s].discarded;
    }
    for (int s = t->n_storages; s < cx->r->n_storages; s++) {
        cx->tens.live_storage[s] = false;
        cx->r->storages[s].discarded = true;
    }
    if (!t->cuda)
        return;
    /* blocks of storages made since are gone with the arm */
    ca_free(cx->tens.cuda);
    cx->tens.cuda = ca_clone(t->cuda);
    if (!cx->tens.cuda)
        tl_out_of_memory(0);
    if (cx->tens.cap_cuda_block)
        memset(cx->tens.cuda_block, 0, sizeof(int64_t) * (size_t)cx->tens.cap_cuda_block);
    if (t->n_cuda_block)
        an_put_mem(cx->tens.cuda_block, t->cuda_block, sizeof(int64_t) * (size_t)t->n_cuda_block);
}

static void snap_tens_free(an_snap_tens *t)
{
    free(t->handles);
    free(t->refs);
    free(t->live_storage);
    free(t->storages);
    ca_free(t->cuda);
    free(t->cuda_block);
}

/* ---- the control: the call stack's frames and their variables, the globals ---- */

/* A frame's variables, compacted: entry j is variable func_vars[f][j]. */
static void snap_frame(const an_ctx *cx, const an_frame *fr, int **t, int64_t **i, bool **kn)
{
    int n = cx->vars.n_func_vars[fr->func];
    const int *ids = cx->vars.func_vars[fr->func];
    *t = tl_xmalloc(sizeof(int) * (size_t)(n + 1));
    *i = tl_xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    *kn = tl_xmalloc(sizeof(bool) * (size_t)(n + 1));
    for (int j = 0; j < n; j++) {
        (*t)[j] = fr->tensor[cx->vars.slot[ids[j]]];
        (*i)[j] = fr->ints[cx->vars.slot[ids[j]]];
        (*kn)[j] = fr->int_known[cx->vars.slot[ids[j]]];
    }
}

static void snap_ctl_take(const an_ctx *cx, an_snap_ctl *c)
{
    c->depth = cx->ctl.depth;
    size_t d = (size_t)c->depth + 1; /* as deep as the stack is (+1: none is NULL) */
    c->frames = tl_xmalloc(sizeof *c->frames * d);
    c->tensors = tl_xmalloc(sizeof *c->tensors * d);
    c->ints = tl_xmalloc(sizeof *c->ints * d);
    c->known = tl_xmalloc(sizeof *c->known * d);
    for (int k = 0; k < cx->ctl.depth; k++) {
        c->frames[k] = *cx->ctl.stack[k];
        snap_frame(cx, cx->ctl.stack[k], &c->tensors[k], &c->ints[k], &c->known[k]);
    }
    int g = cx->vars.n_globals;
    c->g_tensor = an_dup_mem(cx->ctl.gframe->tensor, sizeof(int) * (size_t)g);
    c->g_ints = an_dup_mem(cx->ctl.gframe->ints, sizeof(int64_t) * (size_t)g);
    c->g_known = an_dup_mem(cx->ctl.gframe->int_known, sizeof(bool) * (size_t)g);
}

static void snap_ctl_restore(an_ctx *cx, const an_snap_ctl *c)
{
    for (int k = 0; k < c->depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            fr->tensor[cx->vars.slot[ids[j]]] = c->tensors[k][j];
            fr->ints[cx->vars.slot[ids[j]]] = c->ints[k][j];
            fr->int_known[cx->vars.slot[ids[j]]] = c->known[k][j];
        }
        fr->line = c->frames[k].line;
        fr->n_mem = c->frames[k].n_mem;
    }
    int g = cx->vars.n_globals;
    an_put_mem(cx->ctl.gframe->tensor, c->g_tensor, sizeof(int) * (size_t)g);
    an_put_mem(cx->ctl.gframe->ints, c->g_ints, sizeof(int64_t) * (size_t)g);
    an_put_mem(cx->ctl.gframe->int_known, c->g_known, sizeof(bool) * (size_t)g);
}

static void snap_ctl_free(an_snap_ctl *c)
{
    for (int k = 0; k < c->depth; k++) {
        free(c->tensors[k]);
        free(c->ints[k]);
        free(c->known[k]);
    }
    free(c->frames);
    free(c->tensors);
    free(c->ints);
    free(c->known);
    free(c->g_tensor);
    free(c->g_ints);
    free(c->g_known);
}

/* ---- the whole state ---- */

void an_snap_take(an_ctx *cx, snapshot *sn)
{
    cx->acct.n_steps++; /* work --max-steps counts: nested loop trials take one per level */
    sn->out.n_events = cx->r->n_events;
    sn->acct.live = cx->acct.live;
    sn->acct.live_sx = cx->acct.live_sx;
    snap_tens_take(cx, &sn->tens);
    snap_ctl_take(cx, &sn->ctl);
    memset(&sn->mem, 0, sizeof sn->mem);
    an_mem_copy_into(&sn->mem, &cx->mem.cells);
}

/* Restore the state of sn (the event log is the caller's: an_drop_events). */
void an_snap_restore(an_ctx *cx, const snapshot *sn)
{
    cx->acct.live = sn->acct.live;
    cx->acct.live_sx = sn->acct.live_sx;
    snap_tens_restore(cx, &sn->tens);
    snap_ctl_restore(cx, &sn->ctl);
    an_mem_copy_into(&cx->mem.cells, &sn->mem);
    an_ctx_check(cx, false);
}

void an_snap_free(snapshot *sn)
{
    snap_tens_free(&sn->tens);
    snap_ctl_free(&sn->ctl);
    an_mem_free(&sn->mem);
}

bool an_same_layout(const mt_layout *a, const mt_layout *b)
{
    if (a->ndim != b->ndim || a->dtype != b->dtype || a->device != b->device ||
        a->offset != b->offset)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return false;
    return true;
}

/* Layouts over symbols a and b (an_slayout ids + 1, 0: none) are the same:
 * the same id, or equal shapes, strides, offset, dtype and device. */
bool an_same_slayout(const an_ctx *cx, int a, int b)
{
    if (a == b)
        return true;
    if (a == 0 || b == 0)
        return false;
    const an_slayout *p = &cx->r->slayouts[a - 1], *q = &cx->r->slayouts[b - 1];
    if (p->ndim != q->ndim || p->dtype != q->dtype || p->device != q->device ||
        !sx_same(p->offset, q->offset) || !sx_same(p->storage_nbytes, q->storage_nbytes))
        return false;
    for (int d = 0; d < p->ndim; d++)
        if (!sx_same(p->shape[d], q->shape[d]) || !sx_same(p->strides[d], q->strides[d]))
            return false;
    return true;
}

bool an_same_layout_handles(an_ctx *cx, int a, int b)
{
    return a >= 0 && b >= 0 && a < cx->tens.n_handles && b < cx->tens.n_handles &&
        cx->tens.handles[a].known && cx->tens.handles[b].known &&
        an_same_layout(&cx->tens.handles[a].l, &cx->tens.handles[b].l);
}
