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

void an_snap_take(an_ctx *cx, snapshot *sn)
{
    cx->acct.n_steps++; /* work --max-steps counts: nested loop trials take one per level */
    sn->n_handles = cx->tens.n_handles;
    sn->live = cx->acct.live;
    sn->live_sx = cx->acct.live_sx;
    sn->n_events = cx->r->n_events;
    sn->handles =
        an_dup_mem(cx->tens.handles, sizeof *cx->tens.handles * (size_t)cx->tens.n_handles);
    sn->n_storages = cx->r->n_storages;
    sn->refs = an_dup_mem(cx->tens.refs, sizeof *cx->tens.refs * (size_t)sn->n_storages);
    sn->live_storage = an_dup_mem(cx->tens.live_storage, sizeof(bool) * (size_t)sn->n_storages);
    sn->storages = an_dup_mem(cx->r->storages, sizeof *cx->r->storages * (size_t)sn->n_storages);
    sn->depth = cx->ctl.depth;
    size_t d = (size_t)sn->depth + 1; /* as deep as the stack is (+1: none is NULL) */
    sn->frames = tl_xmalloc(sizeof *sn->frames * d);
    sn->tensors = tl_xmalloc(sizeof *sn->tensors * d);
    sn->ints = tl_xmalloc(sizeof *sn->ints * d);
    sn->known = tl_xmalloc(sizeof *sn->known * d);
    for (int k = 0; k < cx->ctl.depth; k++) {
        sn->frames[k] = *cx->ctl.stack[k];
        snap_frame(cx, cx->ctl.stack[k], &sn->tensors[k], &sn->ints[k], &sn->known[k]);
    }
    int g = cx->vars.n_globals;
    sn->g_tensor = an_dup_mem(cx->ctl.gframe->tensor, sizeof(int) * (size_t)g);
    sn->g_ints = an_dup_mem(cx->ctl.gframe->ints, sizeof(int64_t) * (size_t)g);
    sn->g_known = an_dup_mem(cx->ctl.gframe->int_known, sizeof(bool) * (size_t)g);
    memset(&sn->mem, 0, sizeof sn->mem);
    an_mem_copy_into(&sn->mem, &cx->mem.cells);
    sn->cuda = cx->tens.cuda ? ca_clone(cx->tens.cuda) : NULL;
    if (cx->tens.cuda && !sn->cuda)
        tl_out_of_memory(0); /* ca_clone fails only for want of memory */
    sn->n_cuda_block = cx->tens.cap_cuda_block;
    sn->cuda_block =
        an_dup_mem(cx->tens.cuda_block, sizeof(int64_t) * (size_t)cx->tens.cap_cuda_block);
}

/* Restore the state of sn; storages made since are no longer live. */
void an_snap_restore(an_ctx *cx, const snapshot *sn)
{
    an_put_mem(cx->tens.handles, sn->handles, sizeof *cx->tens.handles * (size_t)sn->n_handles);
    cx->acct.live = sn->live;
    cx->acct.live_sx = sn->live_sx;
    an_put_mem(cx->tens.refs, sn->refs, sizeof *cx->tens.refs * (size_t)sn->n_storages);
    an_put_mem(cx->tens.live_storage, sn->live_storage, sizeof(bool) * (size_t)sn->n_storages);
    for (int s = 0; s < sn->n_storages; s++) {
        an_storage *st = &cx->r->storages[s];
        st->free_line = sn->storages[s].free_line;
        st->free_col = sn->storages[s].free_col;
        st->free_func = sn->storages[s].free_func;
        st->free_event = sn->storages[s].free_event;
        st->retire_event = sn->storages[s].retire_event;
        st->discarded = sn->storages[s].discarded;
    }
    for (int s = sn->n_storages; s < cx->r->n_storages; s++) {
        cx->tens.live_storage[s] = false;
        cx->r->storages[s].discarded = true;
    }
    for (int k = 0; k < sn->depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            fr->tensor[cx->vars.slot[ids[j]]] = sn->tensors[k][j];
            fr->ints[cx->vars.slot[ids[j]]] = sn->ints[k][j];
            fr->int_known[cx->vars.slot[ids[j]]] = sn->known[k][j];
        }
        fr->line = sn->frames[k].line;
        fr->n_mem = sn->frames[k].n_mem;
    }
    int g = cx->vars.n_globals;
    an_put_mem(cx->ctl.gframe->tensor, sn->g_tensor, sizeof(int) * (size_t)g);
    an_put_mem(cx->ctl.gframe->ints, sn->g_ints, sizeof(int64_t) * (size_t)g);
    an_put_mem(cx->ctl.gframe->int_known, sn->g_known, sizeof(bool) * (size_t)g);
    an_mem_copy_into(&cx->mem.cells, &sn->mem);
    if (sn->cuda) { /* blocks of storages made since are gone with the arm */
        ca_free(cx->tens.cuda);
        cx->tens.cuda = ca_clone(sn->cuda);
        if (!cx->tens.cuda)
            tl_out_of_memory(0);
        if (cx->tens.cap_cuda_block)
            memset(cx->tens.cuda_block, 0, sizeof(int64_t) * (size_t)cx->tens.cap_cuda_block);
        if (sn->n_cuda_block)
            an_put_mem(cx->tens.cuda_block, sn->cuda_block,
                       sizeof(int64_t) * (size_t)sn->n_cuda_block);
    }
    an_ctx_check(cx, false);
}

void an_snap_free(snapshot *sn)
{
    free(sn->handles);
    free(sn->refs);
    free(sn->live_storage);
    free(sn->storages);
    for (int k = 0; k < sn->depth; k++) {
        free(sn->tensors[k]);
        free(sn->ints[k]);
        free(sn->known[k]);
    }
    free(sn->frames);
    free(sn->tensors);
    free(sn->ints);
    free(sn->known);
    free(sn->g_tensor);
    free(sn->g_ints);
    free(sn->g_known);
    an_mem_free(&sn->mem);
    ca_free(sn->cuda);
    free(sn->cuda_block);
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
