/*
 * an_mem.c: the abstract memory: what C keeps in structs, arrays, globals
 * and the heap, and the pointers between them.
 *
 * A location is an object and a path of concrete keys: a variable of a
 * frame (by the frame's serial number; 0 is the globals), a heap block
 * (frame AN_HEAP), or the return register (AN_RET); then field keys (bit
 * offsets) and array indices.  Plain integer and tensor variables keep
 * their values in the frame's slots; everything else lives in one map
 * from location to cell.  A cell is an integer, a handle, a pointer (an
 * index into cx->ptrs, whose targets never change), or a marker that says
 * every location below it reads as zero (C's zero initialization, calloc,
 * memset) or as unknown (written by a function the analysis does not see).
 * A location never written and under no marker is uninitialized: a handle
 * there holds no tensor, an integer is unknown.
 *
 * The map is one flat array of entries with an open-addressing index, so
 * the state of a branch is saved and restored by copying two arrays.
 */
#include "an_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define DEAD INT_MIN /* loc.frame of a removed entry */

/* ---- the map ---- */

static uint64_t loc_hash(const an_loc *l)
{
    uint64_t h = 1469598103934665603ull;
    h = (h ^ (uint64_t)(uint32_t)l->frame) * 1099511628211ull;
    h = (h ^ (uint64_t)(uint32_t)l->var) * 1099511628211ull;
    for (int k = 0; k < l->n; k++)
        h = (h ^ (uint64_t)l->key[k]) * 1099511628211ull;
    return h ^ (h >> 29);
}

bool an_loc_eq(const an_loc *a, const an_loc *b)
{
    if (a->frame != b->frame || a->var != b->var || a->n != b->n)
        return false;
    for (int k = 0; k < a->n; k++)
        if (a->key[k] != b->key[k])
            return false;
    return true;
}

/* Is l at or below prefix p? */
static bool loc_under(const an_loc *l, const an_loc *p)
{
    if (l->frame != p->frame || l->var != p->var || l->n < p->n)
        return false;
    for (int k = 0; k < p->n; k++)
        if (l->key[k] != p->key[k])
            return false;
    return true;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static void index_rebuild(an_mem *m, int cap)
{
    int live = 0;
    for (int k = 0; k < m->n; k++) /* compact: drop removed entries */
        if (m->e[k].loc.frame != DEAD)
            m->e[live++] = m->e[k];
    m->n = live;
    m->n_dead = 0;
    m->index = xrealloc(m->index, sizeof *m->index * (size_t)cap);
    m->index_cap = cap;
    for (int k = 0; k < cap; k++)
        m->index[k] = -1;
    for (int k = 0; k < m->n; k++) {
        int h = (int)(loc_hash(&m->e[k].loc) & (uint64_t)(cap - 1));
        while (m->index[h] >= 0)
            h = (h + 1) & (cap - 1);
        m->index[h] = k;
    }
}

/* The entry at l, or -1; *slot is its index slot (or the free one). */
static int mem_find(const an_mem *m, const an_loc *l, int *slot)
{
    if (!m->index_cap)
        return -1;
    int h = (int)(loc_hash(l) & (uint64_t)(m->index_cap - 1));
    for (; m->index[h] != -1; h = (h + 1) & (m->index_cap - 1)) {
        int k = m->index[h];
        if (k >= 0 && an_loc_eq(&m->e[k].loc, l)) {
            if (slot)
                *slot = h;
            return k;
        }
    }
    if (slot)
        *slot = h;
    return -1;
}

static void mem_put(an_mem *m, const an_loc *l, const an_cell *c)
{
    int slot, k = mem_find(m, l, &slot);
    if (k >= 0) {
        m->e[k].cell = *c;
        return;
    }
    if ((m->n + 1) * 2 > m->index_cap) {
        index_rebuild(m, m->index_cap ? m->index_cap * 2 : 64);
        mem_find(m, l, &slot);
    }
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->e = xrealloc(m->e, sizeof *m->e * (size_t)m->cap);
    }
    m->e[m->n] = (an_entry){.loc = *l, .cell = *c};
    m->e[m->n].loc.elem = false;
    m->index[slot] = m->n++;
}

/* Remove entries at or below p (p itself too when self); returns how many. */
static int mem_remove_under(an_mem *m, const an_loc *p, bool self, int *handles, int max_handles,
                            int *n_handles)
{
    int gone = 0;
    for (int k = 0; k < m->n; k++) {
        an_entry *e = &m->e[k];
        if (e->loc.frame == DEAD || !loc_under(&e->loc, p) || (!self && e->loc.n == p->n))
            continue;
        if (e->cell.kind == AN_CELL_TENSOR && e->cell.handle >= 0 && handles && *n_handles < max_handles)
            handles[(*n_handles)++] = e->cell.handle;
        e->loc.frame = DEAD;
        gone++;
    }
    if (gone) {
        m->n_dead += gone;
        index_rebuild(m, m->index_cap); /* dead entries leave the index */
    }
    return gone;
}

void an_mem_copy_into(an_mem *dst, const an_mem *src)
{
    dst->n = src->n;
    dst->cap = src->n;
    dst->e = xrealloc(dst->e, sizeof *dst->e * (size_t)(src->n + 1));
    if (src->n)
        memcpy(dst->e, src->e, sizeof *src->e * (size_t)src->n);
    dst->index_cap = src->index_cap;
    dst->index = xrealloc(dst->index, sizeof *dst->index * (size_t)(src->index_cap + 1));
    if (src->index_cap)
        memcpy(dst->index, src->index, sizeof *src->index * (size_t)src->index_cap);
    dst->n_dead = src->n_dead;
}

void an_mem_free(an_mem *m)
{
    free(m->e);
    free(m->index);
    memset(m, 0, sizeof *m);
}

/* ---- frames and slots ---- */

an_frame *an_frame_by_serial(an_ctx *cx, int serial)
{
    if (serial == 0)
        return cx->gframe;
    for (int k = cx->depth - 1; k >= 0; k--)
        if (cx->stack[k]->serial == serial)
            return cx->stack[k];
    return cx->pending && cx->pending->serial == serial ? cx->pending : NULL;
}

/* Is l a plain variable held in a frame's slots? */
static bool loc_is_slot(const an_ctx *cx, const an_loc *l)
{
    return l->n == 0 && l->frame >= 0 && l->var >= 0 && cx->u->vars[l->var].kind != IR_VAR_OTHER;
}

an_loc an_loc_of_var(an_ctx *cx, int var)
{
    an_loc l = {.frame = cx->u->vars[var].is_global ? 0 : an_top(cx)->serial, .var = var};
    return l;
}

/* ---- reading and writing cells ---- */

/* The cell at l: the entry, else the nearest marker above it; false when
 * l was never written (uninitialized). */
static bool mem_read_at(const an_mem *m, const an_loc *l, an_cell *out, int *depth)
{
    int k = mem_find(m, l, NULL);
    *depth = l->n;
    if (k >= 0) {
        *out = m->e[k].cell;
        return true;
    }
    an_loc p = *l;
    while (p.n > 0) {
        p.n--;
        *depth = p.n;
        k = mem_find(m, &p, NULL);
        if (k >= 0 && (m->e[k].cell.kind == AN_CELL_ZERO || m->e[k].cell.kind == AN_CELL_UNKNOWN)) {
            *out = m->e[k].cell;
            return true;
        }
        if (k >= 0)
            return false; /* a scalar where an object was expected */
    }
    return false;
}

static bool mem_read(const an_mem *m, const an_loc *l, an_cell *out)
{
    int depth;
    return mem_read_at(m, l, out, &depth);
}

bool an_mem_read(an_ctx *cx, const an_loc *l, an_cell *out)
{
    if (loc_is_slot(cx, l)) {
        an_frame *f = an_frame_by_serial(cx, l->frame);
        if (!f)
            return false;
        int s = cx->slot[l->var];
        if (cx->u->vars[l->var].kind == IR_VAR_TENSOR)
            *out = (an_cell){.kind = AN_CELL_TENSOR, .handle = f->tensor[s]};
        else
            *out = (an_cell){.kind = AN_CELL_INT, .known = f->int_known[s], .i = f->ints[s]};
        return true;
    }
    return mem_read(&cx->mem, l, out);
}

/* The handle at l (AN_UNSET: none, AN_UNKNOWN: cannot be followed). */
int an_mem_handle(an_ctx *cx, const an_loc *l)
{
    an_cell c;
    if (!an_mem_read(cx, l, &c))
        return AN_UNSET;
    switch (c.kind) {
    case AN_CELL_TENSOR: return c.handle;
    case AN_CELL_ZERO: return AN_UNSET;
    case AN_CELL_PTR: return c.known && c.ptr < 0 ? AN_UNSET : AN_UNKNOWN;
    default: return AN_UNKNOWN;
    }
}

bool an_mem_int(an_ctx *cx, const an_loc *l, int64_t *out)
{
    an_cell c;
    if (!an_mem_read(cx, l, &c))
        return false;
    if (c.kind == AN_CELL_ZERO) {
        *out = 0;
        return true;
    }
    if (c.kind != AN_CELL_INT || !c.known)
        return false;
    *out = c.i;
    return true;
}

void an_mem_write(an_ctx *cx, const an_loc *l, const an_cell *c)
{
    if (loc_is_slot(cx, l)) {
        an_frame *f = an_frame_by_serial(cx, l->frame);
        if (!f)
            return;
        int s = cx->slot[l->var];
        if (cx->u->vars[l->var].kind == IR_VAR_TENSOR)
            f->tensor[s] = c->kind == AN_CELL_TENSOR ? c->handle
                           : c->kind == AN_CELL_ZERO ? AN_UNSET : AN_UNKNOWN;
        else {
            f->int_known[s] = c->kind == AN_CELL_ZERO || (c->kind == AN_CELL_INT && c->known);
            f->ints[s] = c->kind == AN_CELL_INT ? c->i : 0;
        }
        return;
    }
    if (l->frame > 0) {
        an_frame *f = an_frame_by_serial(cx, l->frame);
        if (f)
            f->n_mem++;
    }
    mem_put(&cx->mem, l, c);
}

/* ---- pointers ---- */

int an_ptr_intern(an_ctx *cx, const an_loc *l)
{
    if (cx->n_ptrs == cx->cap_ptrs) {
        cx->cap_ptrs = cx->cap_ptrs ? cx->cap_ptrs * 2 : 64;
        cx->ptrs = xrealloc(cx->ptrs, sizeof *cx->ptrs * (size_t)cx->cap_ptrs);
    }
    cx->ptrs[cx->n_ptrs] = *l;
    return cx->n_ptrs++;
}

/* l moved by off elements: only along an array. */
static bool loc_offset(an_loc *l, int64_t off)
{
    if (off == 0)
        return true;
    if (!l->elem || l->n == 0)
        return false;
    return !__builtin_add_overflow(l->key[l->n - 1], off, &l->key[l->n - 1]);
}

static void why_set(const char **why, const char *s)
{
    if (why && !*why)
        *why = s;
}

/* Follow the pointer held at *l: *l becomes its target. */
static bool loc_deref(an_ctx *cx, an_loc *l, const ir_expr *index, const char **why)
{
    an_cell c;
    if (!an_mem_read(cx, l, &c) || c.kind == AN_CELL_UNKNOWN || (c.kind == AN_CELL_PTR && !c.known) ||
        (c.kind != AN_CELL_PTR && c.kind != AN_CELL_ZERO)) {
        why_set(why, "a pointer the analysis cannot follow");
        return false;
    }
    if (c.kind == AN_CELL_ZERO || c.ptr < 0) {
        why_set(why, "a null pointer");
        return false;
    }
    *l = cx->ptrs[c.ptr];
    int64_t off = 0;
    if (index && !an_eval(cx, index, &off)) {
        why_set(why, "an index not known statically");
        return false;
    }
    if (!loc_offset(l, off)) {
        why_set(why, "pointer arithmetic outside an array");
        return false;
    }
    return true;
}

bool an_place_loc(an_ctx *cx, const ir_place *p, an_loc *out, int *bad_step, const char **why)
{
    *out = an_loc_of_var(cx, p->var);
    if (bad_step)
        *bad_step = -1;
    for (int k = 0; k < p->n_steps; k++) {
        const ir_step *st = &p->steps[k];
        int64_t i;
        switch (st->kind) {
        case IR_STEP_FIELD:
        case IR_STEP_INDEX:
            if (out->n == AN_MAX_PATH) {
                why_set(why, "a path deeper than the analysis follows");
                return false;
            }
            if (st->kind == IR_STEP_INDEX && !an_eval(cx, st->index, &i)) {
                if (bad_step)
                    *bad_step = k;
                why_set(why, "an index not known statically");
                return false;
            }
            out->key[out->n++] = st->kind == IR_STEP_FIELD ? st->key : i;
            out->elem = st->kind == IR_STEP_INDEX;
            break;
        case IR_STEP_DEREF:
            if (!loc_deref(cx, out, st->index, why))
                return false;
            break;
        }
    }
    return true;
}

bool an_ptr_eval(an_ctx *cx, const ir_ptr *p, an_cell *out)
{
    an_loc l;
    an_cell c;
    int64_t off = 0;
    *out = (an_cell){.kind = AN_CELL_PTR, .known = false, .ptr = -1};
    switch (p->kind) {
    case IR_PTR_NULL: out->known = true; return true;
    case IR_PTR_UNKNOWN: return false;
    case IR_PTR_HEAP:
        l = (an_loc){.frame = AN_HEAP, .var = cx->n_heap++, .n = 1, .elem = true};
        if (p->zeroed) {
            an_loc root = l;
            root.n = 0;
            mem_put(&cx->mem, &root, &(an_cell){.kind = AN_CELL_ZERO});
        }
        break;
    case IR_PTR_ADDR:
        if (!an_place_loc(cx, p->place, &l, NULL, NULL))
            return false;
        l.elem = p->elem;
        break;
    case IR_PTR_LOAD:
        if (!an_place_loc(cx, p->place, &l, NULL, NULL) || !an_mem_read(cx, &l, &c))
            return false;
        if (c.kind == AN_CELL_ZERO || (c.kind == AN_CELL_PTR && c.known && c.ptr < 0)) {
            out->known = true; /* null, plus an offset: still not a place */
            return !p->offset;
        }
        if (c.kind != AN_CELL_PTR || !c.known)
            return false;
        l = cx->ptrs[c.ptr];
        break;
    }
    if (p->offset && (!an_eval(cx, p->offset, &off) || !loc_offset(&l, off)))
        return false;
    out->known = true;
    out->ptr = an_ptr_intern(cx, &l);
    return true;
}

/* Two pointers compare when both are null or known: equal locations are
 * equal; elements of one array are ordered by index.  Anything else (two
 * objects, a pointer not followed) is not known. */
bool an_ptr_compare(void *ctx, const ir_expr *e, int64_t *out)
{
    an_ctx *cx = ctx;
    an_cell a, b;
    if (!an_ptr_eval(cx, e->pa, &a) || !an_ptr_eval(cx, e->pb, &b) || !a.known || !b.known)
        return false;
    int64_t d; /* a - b in elements */
    if (a.ptr < 0 || b.ptr < 0) {
        if (e->op != IR_OP_EQ && e->op != IR_OP_NE)
            return false;
        d = a.ptr == b.ptr ? 0 : 1;
    } else {
        const an_loc *x = &cx->ptrs[a.ptr], *y = &cx->ptrs[b.ptr];
        an_loc xp = *x, yp = *y;
        if (an_loc_eq(x, y)) {
            d = 0;
        } else if (x->n > 0 && x->n == y->n && x->elem && y->elem &&
                   (xp.n--, yp.n--, an_loc_eq(&xp, &yp))) {
            d = x->key[x->n - 1] - y->key[y->n - 1];
        } else if (e->op == IR_OP_EQ || e->op == IR_OP_NE) {
            d = 1; /* two different objects */
        } else {
            return false;
        }
    }
    return ir_op_binary(e->op, d, 0, out);
}

/* ---- whole objects ---- */

#define MAX_DROPPED 64

static void drop_handles(an_ctx *cx, const int *h, int n, int line, int col, const char *why)
{
    for (int k = 0; k < n; k++)
        an_handle_dropped(cx, h[k], -1, line, col, why);
}

void an_mem_fill(an_ctx *cx, const an_loc *l, bool zero, int line, int col)
{
    an_mem_fill_from(cx, l, zero ? -2 : -1, line, col);
}

void an_mem_fill_from(an_ctx *cx, const an_loc *l, int src, int line, int col)
{
    int handles[MAX_DROPPED], n = 0;
    bool zero = src == -2;
    an_cell marker = {.kind = zero ? AN_CELL_ZERO : AN_CELL_UNKNOWN, .i = src >= 0 ? src + 1 : 0};
    if (loc_is_slot(cx, l)) {
        an_cell old;
        if (an_mem_read(cx, l, &old) && old.kind == AN_CELL_TENSOR && old.handle >= 0)
            handles[n++] = old.handle;
        an_mem_write(cx, l, &marker);
    } else {
        mem_remove_under(&cx->mem, l, true, handles, MAX_DROPPED, &n);
        an_mem_write(cx, l, &marker);
    }
    if (zero)
        drop_handles(cx, handles, n, line, col, "overwritten");
}

/* The symbol's name for place p read at l under a marker at depth `depth`
 * filled from src: src's base plus p's last steps ("config" + ".dim"; "*p"
 * + ".n_layers" reads "p->n_layers"); p's own spelling otherwise. */
static const char *symbol_name(const ir_place *p, const an_loc *l, int depth,
                               const an_fill_src *src, char *buf, size_t size)
{
    int k = l->n - depth;
    if (!src || !p || k > p->n_steps)
        return p ? p->text : "?";
    size_t len = 0;
    const char *base = src->base;
    bool star = base[0] == '*', deref = (star || src->deref) && k > 0;
    len += (size_t)snprintf(buf, size, "%s", star && k > 0 ? base + 1 : base);
    for (int j = p->n_steps - k, key = depth; j < p->n_steps && len < size; j++, key++) {
        const ir_step *st = &p->steps[j];
        if (st->kind == IR_STEP_DEREF)
            return p->text; /* the path leaves the filled object: the read's own spelling */
        if (st->kind == IR_STEP_FIELD)
            len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                    deref && j == p->n_steps - k ? "->" : ".", st->name);
        else
            len += (size_t)snprintf(buf + len, size - len, "[%lld]", (long long)l->key[key]);
    }
    return buf;
}

bool an_mem_int_sx(an_ctx *cx, const an_loc *l, const ir_place *p, int line, int col, sx_int *out)
{
    an_cell c;
    int depth = l->n;
    bool found = loc_is_slot(cx, l) ? an_mem_read(cx, l, &c) : mem_read_at(&cx->mem, l, &c, &depth);
    if (!found)
        return false;
    if (c.kind == AN_CELL_ZERO) {
        *out = (sx_int){0, 0};
        return true;
    }
    if (c.kind == AN_CELL_INT && an_int_get(c.known, c.i, out))
        return true;
    if (c.kind != AN_CELL_INT && c.kind != AN_CELL_UNKNOWN)
        return false;
    const an_fill_src *src = c.kind == AN_CELL_UNKNOWN && c.i > 0 && c.i <= cx->n_fills
                             ? &cx->fills[c.i - 1] : NULL;
    char name[256];
    *out = an_new_symbol(cx, symbol_name(p, l, depth, src, name, sizeof name),
                         src ? src->origin : "run time",
                         src ? src->line : line, src ? src->col : col);
    an_cell w = {.kind = AN_CELL_INT};
    an_int_put(true, *out, &w.known, &w.i);
    an_mem_write(cx, l, &w);
    return true;
}

/* Does the object at l hold a live handle (so filling it with unknowns loses track)? */
bool an_mem_holds_handles(an_ctx *cx, const an_loc *l)
{
    if (loc_is_slot(cx, l)) {
        an_cell c;
        return an_mem_read(cx, l, &c) && c.kind == AN_CELL_TENSOR && c.handle >= 0 &&
               !cx->handles[c.handle].released;
    }
    for (int k = 0; k < cx->mem.n; k++) {
        const an_entry *e = &cx->mem.e[k];
        if (e->loc.frame != DEAD && e->cell.kind == AN_CELL_TENSOR && e->cell.handle >= 0 &&
            !cx->handles[e->cell.handle].released && loc_under(&e->loc, l))
            return true;
    }
    return false;
}

void an_mem_copy(an_ctx *cx, const an_loc *dst, const an_loc *src, int line, int col)
{
    int handles[MAX_DROPPED], n = 0, n_src = 0;
    an_cell marker;
    bool has_marker = mem_read(&cx->mem, src, &marker);
    an_entry *tmp = xrealloc(NULL, sizeof *tmp * (size_t)(cx->mem.n + 1));
    for (int k = 0; k < cx->mem.n; k++) {
        const an_entry *e = &cx->mem.e[k];
        if (e->loc.frame != DEAD && loc_under(&e->loc, src) && e->loc.n > src->n)
            tmp[n_src++] = *e;
    }
    if (!loc_under(src, dst) && !loc_under(dst, src))
        mem_remove_under(&cx->mem, dst, true, handles, MAX_DROPPED, &n);
    if (has_marker)
        an_mem_write(cx, dst, &marker);
    else if (!loc_is_slot(cx, dst))
        mem_remove_under(&cx->mem, dst, true, handles, MAX_DROPPED, &n);
    for (int k = 0; k < n_src; k++) {
        an_loc l = *dst;
        int extra = tmp[k].loc.n - src->n;
        if (l.n + extra > AN_MAX_PATH)
            continue;
        for (int j = 0; j < extra; j++)
            l.key[l.n++] = tmp[k].loc.key[src->n + j];
        an_mem_write(cx, &l, &tmp[k].cell);
    }
    free(tmp);
    drop_handles(cx, handles, n, line, col, "overwritten");
}

/* The frame's objects go away when it returns: handles only they held are lost. */
void an_mem_frame_exit(an_ctx *cx, an_frame *f, bool program_end)
{
    int handles[MAX_DROPPED], n = 0;
    if (!f->n_mem)
        return;
    for (int k = 0; k < cx->mem.n; k++) {
        an_entry *e = &cx->mem.e[k];
        if (e->loc.frame != f->serial)
            continue;
        if (e->cell.kind == AN_CELL_TENSOR && e->cell.handle >= 0 && n < MAX_DROPPED)
            handles[n++] = e->cell.handle;
        e->loc.frame = DEAD;
        cx->mem.n_dead++;
    }
    index_rebuild(&cx->mem, cx->mem.index_cap ? cx->mem.index_cap : 64);
    if (!program_end)
        drop_handles(cx, handles, n, cx->u->funcs[f->func]->end.line, cx->u->funcs[f->func]->end.col,
                     "out of scope");
}

bool an_mem_holds(const an_ctx *cx, int h)
{
    for (int k = 0; k < cx->mem.n; k++) {
        const an_entry *e = &cx->mem.e[k];
        if (e->loc.frame != DEAD && e->cell.kind == AN_CELL_TENSOR && e->cell.handle == h)
            return true;
    }
    return false;
}

/* ---- joining two arms ---- */

static bool same_cell(const an_ctx *cx, const an_cell *a, const an_cell *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case AN_CELL_INT: return a->known == b->known && a->i == b->i; /* a symbol, unknown: 0 */
    case AN_CELL_TENSOR: return a->handle == b->handle;
    case AN_CELL_PTR:
        if (a->known != b->known || !a->known)
            return a->known == b->known;
        if (a->ptr < 0 || b->ptr < 0)
            return a->ptr == b->ptr;
        return an_loc_eq(&cx->ptrs[a->ptr], &cx->ptrs[b->ptr]);
    default: return true;
    }
}

/* What the current arm holds where the other held something else. */
static an_cell weaker(an_ctx *cx, const an_cell *mine, const an_cell *theirs)
{
    if (mine->kind == AN_CELL_TENSOR && mine->handle >= 0) {
        if (theirs->kind != AN_CELL_TENSOR || theirs->handle < 0 ||
            !an_same_layout_handles(cx, mine->handle, theirs->handle))
            cx->handles[mine->handle].known = false;
        if (theirs->kind != AN_CELL_TENSOR || theirs->handle < 0 ||
            cx->handles[theirs->handle].sl != cx->handles[mine->handle].sl)
            cx->handles[mine->handle].sl = 0;
        return *mine;
    }
    if (mine->kind == AN_CELL_TENSOR || theirs->kind == AN_CELL_TENSOR)
        return (an_cell){.kind = AN_CELL_TENSOR, .handle = AN_UNKNOWN};
    if (mine->kind == AN_CELL_PTR || theirs->kind == AN_CELL_PTR)
        return (an_cell){.kind = AN_CELL_PTR, .known = false, .ptr = -1};
    return (an_cell){.kind = AN_CELL_INT, .known = false};
}

void an_mem_join(an_ctx *cx, const an_mem *other)
{
    an_cell theirs, mine;
    static const an_cell uninit = {.kind = AN_CELL_UNKNOWN};
    int n = cx->mem.n;
    for (int k = 0; k < n; k++) {
        an_entry *e = &cx->mem.e[k];
        if (e->loc.frame == DEAD)
            continue;
        if (!mem_read(other, &e->loc, &theirs))
            theirs = uninit;
        if (!same_cell(cx, &e->cell, &theirs))
            e->cell = weaker(cx, &e->cell, &theirs);
    }
    for (int k = 0; k < other->n; k++) {
        const an_entry *o = &other->e[k];
        if (o->loc.frame == DEAD || mem_find(&cx->mem, &o->loc, NULL) >= 0)
            continue;
        if (!mem_read(&cx->mem, &o->loc, &mine))
            mine = uninit;
        if (!same_cell(cx, &mine, &o->cell)) {
            an_cell w = weaker(cx, &mine, &o->cell);
            mem_put(&cx->mem, &o->loc, &w);
        }
    }
}

bool an_mem_steady(an_ctx *cx, const an_mem *other, bool (*same_handle)(void *, int, int),
                   void *ctx)
{
    an_cell theirs;
    int live = 0, live_other = 0;
    for (int k = 0; k < cx->mem.n; k++) {
        const an_entry *e = &cx->mem.e[k];
        if (e->loc.frame == DEAD)
            continue;
        live++;
        if (mem_find(other, &e->loc, NULL) < 0 || !mem_read(other, &e->loc, &theirs) ||
            theirs.kind != e->cell.kind)
            return false;
        if (e->cell.kind == AN_CELL_TENSOR ? !same_handle(ctx, theirs.handle, e->cell.handle)
                                           : !same_cell(cx, &theirs, &e->cell))
            return false;
    }
    for (int k = 0; k < other->n; k++)
        live_other += other->e[k].loc.frame != DEAD;
    return live == live_other;
}
