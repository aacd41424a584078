/*
 * an_ctx.c: the invariants of the interpreter's context, checked.
 *
 * Each part of an_ctx (an_internal.h) states its invariants where it is
 * defined; an_ctx_check asserts them in a debug build, at points where the
 * whole state must be consistent: a root's start and end, after a branch's
 * arms are joined, after a snapshot is put back.  The checks cost about as
 * much as a snapshot (a pass over the handles, storages and cells), and
 * NDEBUG removes them with the calls.
 */
#include "an_internal.h"

#ifndef NDEBUG

#include <assert.h>
#include <limits.h>

static void check_tensors(const an_ctx *cx)
{
    const an_tensors *t = &cx->tens;
    int n_storages = cx->r->n_storages;
    assert(t->n_handles >= 0 && t->n_handles <= t->cap_handles);
    assert(t->root_first_storage >= 0 && t->root_first_storage <= n_storages);
    assert(n_storages == 0 || t->cap_refs >= n_storages);
    for (int s = 0; s < n_storages; s++) {
        assert(t->refs[s] >= 0);
        assert(s >= t->root_first_storage || !t->live_storage[s]);
    }
    for (int64_t h = 0; h < t->n_handles; h++)
        assert(t->handles[h].storage >= -1 && t->handles[h].storage < n_storages);
    assert(t->cap_cuda_block >= 0);
}

/* The live bytes are the sum of the live storages' sizes: live of those
 * known as numbers, live_sx of those that are formulas (a size not known at
 * all counts in neither: the totals are lower bounds, an_storage_new). */
static int64_t live_storage_bytes(const an_ctx *cx)
{
    int64_t sum = 0;
    for (int s = 0; s < cx->r->n_storages; s++)
        if (cx->tens.live_storage[s] && cx->r->storages[s].nbytes > 0)
            sum += cx->r->storages[s].nbytes;
    return sum;
}

static sx_int live_storage_sx(const an_ctx *cx)
{
    sx_int sum = {0, 0};
    for (int s = 0; s < cx->r->n_storages; s++)
        if (cx->tens.live_storage[s] && cx->r->storages[s].symbolic)
            sum = sx_add(sum, cx->r->storages[s].nbytes_sx);
    return sum;
}

static void check_acct(const an_ctx *cx)
{
    const an_acct *a = &cx->acct;
    assert(a->live >= 0);
    assert(a->live == live_storage_bytes(cx));
    assert(sx_same(a->live_sx, live_storage_sx(cx)));
    assert(a->moved_total >= 0);
    assert(a->n_calls >= 0 && a->n_bound_marks >= 0 && a->sym_events >= 0);
    assert(a->exec_clock >= 0);
}

/* A cell names handles, pointers and segments that exist. */
static void check_cell(const an_ctx *cx, const an_cell *c)
{
    if (c->kind == AN_CELL_TENSOR && !c->seg)
        assert(c->handle == AN_UNSET || c->handle == AN_UNKNOWN ||
               (c->handle >= 0 && c->handle < cx->tens.n_handles));
    if (c->seg)
        assert(c->ptr >= 0 && c->ptr < cx->mem.n_segs);
    else if (c->kind == AN_CELL_PTR && c->known)
        assert(c->ptr >= -1 && c->ptr < cx->mem.n_ptrs);
}

static void check_memory(const an_ctx *cx)
{
    const an_memory *m = &cx->mem;
    const an_mem *e = &m->cells;
    assert(e->n >= 0 && e->n <= e->cap);
    assert(e->n_dead >= 0 && e->n_dead <= e->n);
    assert(e->index_cap == 0 || (e->index_cap & (e->index_cap - 1)) == 0);
    assert(e->index_cap == 0 || e->n < e->index_cap);
    for (int k = 0; k < e->n; k++)
        if (e->e[k].loc.frame != INT_MIN)
            check_cell(cx, &e->e[k].cell);
    assert(m->n_ptrs >= 0 && m->n_ptrs <= m->cap_ptrs);
    assert(m->n_fills >= 0 && m->n_fills <= m->cap_fills);
    assert(m->n_segs >= 0 && m->n_segs <= m->cap_segs);
    assert(m->n_heap >= 0);
}

static void check_control(const an_ctx *cx, bool at_root)
{
    const an_control *c = &cx->ctl;
    assert(c->depth >= 0 && c->depth <= AN_MAX_DEPTH);
    for (int k = 0; k < c->depth; k++) {
        const an_frame *f = c->stack[k];
        assert(f && f->func >= 0 && f->func < cx->u->n_funcs);
        assert(f->serial > 0 && f->serial <= c->next_serial);
        assert(f->host_loops >= 0 && f->host_loops <= f->loops);
    }
    assert(c->loop_depth >= 0 && c->if_depth >= 0 && c->summarising >= 0);
    assert(c->runs_unknown >= 0 && c->n_gotos >= 0);
    if (at_root)
        assert(c->depth == 0 && c->loop_depth == 0 && c->if_depth == 0 && c->summarising == 0);
}

static void check_symbols(const an_ctx *cx)
{
    const an_symbols *s = &cx->sym;
    assert(s->cap == 0 || (s->cap & (s->cap - 1)) == 0);
    assert(s->n_names >= 0 && (s->cap == 0 ? s->n_names == 0 : s->n_names < s->cap));
    assert(s->n_unknown_tokens >= 0);
}

void an_ctx_check(const an_ctx *cx, bool at_root)
{
    check_tensors(cx);
    check_acct(cx);
    check_memory(cx);
    check_control(cx, at_root);
    check_symbols(cx);
}

#endif /* NDEBUG */
