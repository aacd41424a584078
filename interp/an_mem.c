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
 * index into cx->mem.ptrs, whose targets never change), or a marker that says
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

static void index_rebuild(an_mem *m, int cap)
{
    int live = 0;
    for (int k = 0; k < m->n; k++) /* compact: drop removed entries */
        if (m->e[k].loc.frame != DEAD)
            m->e[live++] = m->e[k];
    m->n = live;
    m->n_dead = 0;
    m->index = tl_xrealloc(m->index, sizeof *m->index * (size_t)cap);
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

/* After removals: the removed entries stay where they are (in the index no
 * location matches them) until they are half of the map, then the map is
 * compacted.  A rebuild per removal made a program of many helper calls
 * with struct locals quadratic (every frame exit rebuilt the whole map). */
static void index_tidy(an_mem *m)
{
    if (m->n_dead * 2 > m->n)
        index_rebuild(m, m->index_cap ? m->index_cap : 64);
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
    tl_xgrow(m->e, &m->cap, (size_t)m->n + 1, 64);
    m->e[m->n] = (an_entry){.loc = *l, .cell = *c};
    m->e[m->n].loc.elem = false;
    m->index[slot] = m->n++;
    for (int k = 0; k < l->n && !m->has_sym; k++)
        m->has_sym = an_key_is_sym(l->key[k]) || l->key[k] == AN_KEY_SEG;
}

int an_mem_find(const an_mem *m, const an_loc *l) { return mem_find(m, l, NULL); }

void an_mem_put(an_mem *m, const an_loc *l, const an_cell *c) { mem_put(m, l, c); }

/* The entry at l goes; the others keep their places in m->e (a dead entry
 * stays in the index, where no location matches it, until a rebuild). */
void an_mem_remove(an_mem *m, const an_loc *l)
{
    int k = mem_find(m, l, NULL);
    if (k < 0)
        return;
    m->e[k].loc.frame = DEAD;
    m->n_dead++;
}

int an_seg_add(an_ctx *cx, const an_seg *sg)
{
    tl_xgrow(cx->mem.segs, &cx->mem.cap_segs, (size_t)cx->mem.n_segs + 1, 16);
    cx->mem.segs[cx->mem.n_segs] = *sg;
    return cx->mem.n_segs++;
}

bool an_key_of(sx_int v, int64_t *key)
{
    if (v.e == SX_TOO_BIG)
        return false;
    if (v.e == 0) {
        *key = v.c;
        return v.c > -AN_KEY_MAX && v.c < AN_KEY_MAX;
    }
    *key = AN_KEY_SYM + (int64_t)v.e;
    return true;
}

/* Remove entries at or below p (p itself too when self); returns how many. */
/* The handles an overwrite, a realloc or a scope's end takes out of memory,
 * each to be dropped after (all of them: a LOST event may be due for any). */
typedef struct an_dropped {
    int *h;
    int n, cap;
} an_dropped;

static void dropped_add(an_dropped *d, int h)
{
    tl_xgrow(d->h, &d->cap, (size_t)d->n + 1, 16);
    d->h[d->n++] = h;
}

static int mem_remove_under(an_mem *m, const an_loc *p, bool self, an_dropped *dropped)
{
    int gone = 0;
    for (int k = 0; k < m->n; k++) {
        an_entry *e = &m->e[k];
        if (e->loc.frame == DEAD || !loc_under(&e->loc, p) || (!self && e->loc.n == p->n))
            continue;
        if (e->cell.kind == AN_CELL_TENSOR && e->cell.handle >= 0 && dropped)
            dropped_add(dropped, e->cell.handle);
        e->loc.frame = DEAD;
        gone++;
    }
    m->n_dead += gone;
    index_tidy(m);
    return gone;
}

void an_mem_copy_into(an_mem *dst, const an_mem *src)
{
    dst->n = src->n;
    dst->cap = src->n;
    dst->e = tl_xrealloc(dst->e, sizeof *dst->e * (size_t)(src->n + 1));
    if (src->n)
        memcpy(dst->e, src->e, sizeof *src->e * (size_t)src->n);
    dst->index_cap = src->index_cap;
    dst->index = tl_xrealloc(dst->index, sizeof *dst->index * (size_t)(src->index_cap + 1));
    if (src->index_cap)
        memcpy(dst->index, src->index, sizeof *src->index * (size_t)src->index_cap);
    dst->n_dead = src->n_dead;
    dst->has_sym = src->has_sym;
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
        return cx->ctl.gframe;
    for (int k = cx->ctl.depth - 1; k >= 0; k--)
        if (cx->ctl.stack[k]->serial == serial)
            return cx->ctl.stack[k];
    return cx->ctl.pending && cx->ctl.pending->serial == serial ? cx->ctl.pending : NULL;
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

/* ---- indices that are formulas, and segments ---- */

typedef enum loc_rel {
    REL_APART,   /* provably different places */
    REL_ALIAS,   /* maybe the same place, maybe not */
    REL_IN_SEG,  /* l is an element of the segment entry e stands for */
    REL_NESTED   /* equal keys as far as both go: one is inside the other */
} loc_rel;

/* Is index k (sx) in the segment: 1 yes, 0 no, -1 not known. */
static int seg_holds(const an_seg *sg, sx_int k)
{
    bool ge, lt;
    if (sx_prove(k, SX_GE, sg->lo, &ge) && sx_prove(k, SX_LT, sg->hi, &lt)) {
        if (ge && lt)
            return 1;
        return 0;
    }
    if ((sx_prove(k, SX_LT, sg->lo, &lt) && lt) || (sx_prove(k, SX_GE, sg->hi, &ge) && ge))
        return 0;
    return -1;
}

/* How the entry at e relates to the place l. */
static loc_rel loc_relation(const an_ctx *cx, const an_entry *e, const an_loc *l)
{
    const an_loc *p = &e->loc;
    if (p->frame != l->frame || p->var != l->var)
        return REL_APART;
    int n = p->n < l->n ? p->n : l->n;
    for (int j = 0; j < n; j++) {
        int64_t a = p->key[j], b = l->key[j];
        if (a == b)
            continue;
        if (a == AN_KEY_SEG && b != AN_KEY_SEG && e->cell.seg) {
            int in = seg_holds(&cx->mem.segs[e->cell.ptr], an_key_sx(b));
            if (in == 0)
                return REL_APART;
            for (int r = j + 1; r < n; r++) /* a field of the elements: another's is apart */
                if (p->key[r] != l->key[r])
                    return !an_key_is_sym(p->key[r]) && !an_key_is_sym(l->key[r]) &&
                                   p->key[r] != AN_KEY_SEG && l->key[r] != AN_KEY_SEG
                               ? REL_APART
                               : REL_ALIAS;
            return in == 1 && l->n == p->n ? REL_IN_SEG : REL_ALIAS;
        }
        if (a == AN_KEY_SEG || b == AN_KEY_SEG)
            return REL_ALIAS;
        if (!an_key_is_sym(a) && !an_key_is_sym(b))
            return REL_APART;
        bool ne;
        return sx_prove(an_key_sx(a), SX_NE, an_key_sx(b), &ne) && ne ? REL_APART : REL_ALIAS;
    }
    return REL_NESTED;
}

static bool loc_has_sym(const an_loc *l)
{
    for (int k = 0; k < l->n; k++)
        if (an_key_is_sym(l->key[k]) || l->key[k] == AN_KEY_SEG)
            return true;
    return false;
}

/* A place no entry holds exactly: the segment it is an element of, or an
 * entry that may be the same place (then nothing is known there).  1: *out
 * is the segment's cell; -1: unknown; 0: neither. */
static int mem_scan(const an_ctx *cx, const an_mem *m, const an_loc *l, an_cell *out)
{
    if (!cx || (!m->has_sym && !loc_has_sym(l)))
        return 0;
    int found = 0;
    for (int k = 0; k < m->n; k++) {
        const an_entry *e = &m->e[k];
        if (e->loc.frame == DEAD)
            continue;
        switch (loc_relation(cx, e, l)) {
        case REL_IN_SEG: *out = e->cell; found = 1; break;
        case REL_ALIAS: return -1;
        default: break;
        }
    }
    return found;
}

bool an_mem_may_alias(an_ctx *cx, const an_loc *l)
{
    if (!cx->mem.cells.has_sym && !loc_has_sym(l))
        return false;
    for (int k = 0; k < cx->mem.cells.n; k++) {
        const an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame == DEAD || an_loc_eq(&e->loc, l))
            continue;
        loc_rel r = loc_relation(cx, e, l);
        if (r == REL_ALIAS || r == REL_IN_SEG)
            return true;
    }
    return false;
}

/* ---- reading and writing cells ---- */

static int seg_entry_of(const an_ctx *cx, const an_loc *l, int *pos);

/* The cell at l: the entry, else the segment it is an element of, else the
 * nearest marker above it; false when l was never written (uninitialized).
 * An entry that may be the same place as l makes it unknown. */
static bool mem_read_at(const an_ctx *cx, const an_mem *m, const an_loc *l, an_cell *out,
                        int *depth)
{
    int k = mem_find(m, l, NULL);
    *depth = l->n;
    if (k >= 0) {
        *out = m->e[k].cell;
        return true;
    }
    int sc = mem_scan(cx, m, l, out);
    if (sc != 0) {
        if (sc < 0)
            *out = (an_cell){.kind = AN_CELL_UNKNOWN};
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

static bool mem_read(const an_ctx *cx, const an_mem *m, const an_loc *l, an_cell *out)
{
    int depth;
    return mem_read_at(cx, m, l, out, &depth);
}

bool an_mem_reads_unknown(const an_ctx *cx, const an_mem *m, const an_loc *l)
{
    an_cell c;
    return !mem_read(cx, m, l, &c) || c.kind == AN_CELL_UNKNOWN ||
           (c.kind == AN_CELL_INT && !c.known && !c.seg);
}

bool an_mem_read(an_ctx *cx, const an_loc *l, an_cell *out)
{
    if (loc_is_slot(cx, l)) {
        an_frame *f = an_frame_by_serial(cx, l->frame);
        if (!f)
            return false;
        int s = cx->vars.slot[l->var];
        if (cx->u->vars[l->var].kind == IR_VAR_TENSOR)
            *out = (an_cell){.kind = AN_CELL_TENSOR, .handle = f->tensor[s]};
        else
            *out = (an_cell){.kind = AN_CELL_INT, .known = f->int_known[s], .i = f->ints[s]};
        return true;
    }
    return mem_read(cx, &cx->mem.cells, l, out);
}

/* The handle at l (AN_UNSET: none, AN_UNKNOWN: cannot be followed). */
int an_mem_handle(an_ctx *cx, const an_loc *l)
{
    an_cell c;
    if (!an_mem_read(cx, l, &c))
        return AN_UNSET;
    switch (c.kind) {
    case AN_CELL_TENSOR:
        if (c.seg && c.handle >= 0) { /* an element of a segment: a handle of its own */
            an_handle h = cx->tens.handles[c.handle];
            sx_int idx = cx->mem.segs[c.ptr].idx;
            int pos;
            if (idx.e != 0 && h.sl > 0 && seg_entry_of(cx, l, &pos) >= 0) { /* a view: its
                                                                          layout at this index */
                an_slayout x = cx->r->slayouts[h.sl - 1];
                sx_int k = an_key_sx(l->key[pos]);
                x.offset = sx_subst(x.offset, idx, k);
                for (int d = 0; d < x.ndim; d++) {
                    x.shape[d] = sx_subst(x.shape[d], idx, k);
                    x.strides[d] = sx_subst(x.strides[d], idx, k);
                }
                h.sl = an_slayout_add(cx, &x);
            }
            h.seg_elem = true;
            h.seg_place = an_ptr_intern(cx, l);
            return an_handle_new(cx, &h);
        }
        return c.handle;
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
        int s = cx->vars.slot[l->var];
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
    mem_put(&cx->mem.cells, l, c);
}

/* ---- pointers ---- */

int an_ptr_intern(an_ctx *cx, const an_loc *l)
{
    tl_xgrow(cx->mem.ptrs, &cx->mem.cap_ptrs, (size_t)cx->mem.n_ptrs + 1, 64);
    cx->mem.ptrs[cx->mem.n_ptrs] = *l;
    return cx->mem.n_ptrs++;
}

/* l moved by off elements: only along an array. */
static bool loc_offset(an_loc *l, sx_int off)
{
    if (off.e == 0 && off.c == 0)
        return true;
    if (!l->elem || l->n == 0 || l->key[l->n - 1] == AN_KEY_SEG)
        return false;
    int64_t *k = &l->key[l->n - 1];
    if (off.e == 0 && !an_key_is_sym(*k))
        return !__builtin_add_overflow(*k, off.c, k) && *k > -AN_KEY_MAX && *k < AN_KEY_MAX;
    return an_key_of(sx_add(an_key_sx(*k), off), k);
}

/* An index that is a formula already (no read of it would make a new
 * symbol): a counter being summarised, a size read at run time. */
static bool is_formula(an_ctx *cx, const ir_expr *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case IR_EXPR_CONST: return true;
    case IR_EXPR_VAR: {
        bool *known;
        if (e->var < 0)
            return false;
        int64_t *v = an_int_slot(cx, e->var, &known);
        return *known || *v > 0;
    }
    case IR_EXPR_UNARY: return e->op == IR_OP_NEG && is_formula(cx, e->a);
    case IR_EXPR_BINARY:
        return (e->op == IR_OP_ADD || e->op == IR_OP_SUB || e->op == IR_OP_MUL) &&
               is_formula(cx, e->a) && is_formula(cx, e->b);
    default: return false;
    }
}

/* The index e: known, or a formula (*off); false when neither. */
static bool index_of(an_ctx *cx, const ir_expr *e, sx_int *off)
{
    int64_t i;
    if (an_eval(cx, e, &i)) {
        *off = (sx_int){i, 0};
        return true;
    }
    return is_formula(cx, e) && an_eval_sx(cx, e, off) && off->e != SX_TOO_BIG;
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
    *l = cx->mem.ptrs[c.ptr];
    sx_int off = {0, 0};
    if (index && !index_of(cx, index, &off)) {
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
        int64_t i = 0;
        sx_int ix;
        switch (st->kind) {
        case IR_STEP_FIELD:
        case IR_STEP_INDEX:
            if (out->n == AN_MAX_PATH) {
                why_set(why, "a path deeper than the analysis follows");
                return false;
            }
            if (st->kind == IR_STEP_INDEX && (!index_of(cx, st->index, &ix) || !an_key_of(ix, &i))) {
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

/* realloc of a pointer that is not the start of a heap block the analysis
 * made (or not known): what it points to is no longer known, and neither
 * is the result. */
static void realloc_not_followed(an_ctx *cx, const ir_ptr *p, const an_cell *old)
{
    if (!old->known || old->ptr < 0)
        return; /* a pointer the analysis lost: its uses say so */
    an_loc o = cx->mem.ptrs[old->ptr];
    an_frame *top = an_top(cx);
    if (o.frame == AN_FUNC)
        return;
    if (an_mem_holds_handles(cx, &o)) {
        an_diag_add(cx, AN_NOTE, "unsupported", top->line, top->col,
                    "not followed: the tensors held in '%s' (given to realloc(), which the "
                    "analysis follows only for the start of a heap block); totals that depend "
                    "on them are bounds",
                    p->old->kind == IR_PTR_LOAD || p->old->kind == IR_PTR_ADDR ? p->old->place->text
                                                                               : "?");
        an_mark_bound(cx);
    }
    an_mem_fill(cx, &o, false, top->line, top->col);
}

/* realloc(old, size): a new heap block with old's cells; old's block is gone. */
static bool ptr_realloc(an_ctx *cx, const ir_ptr *p, an_loc *l)
{
    an_cell old;
    an_frame *top = an_top(cx);
    bool got = an_ptr_eval(cx, p->old, &old);
    if (got && old.known && old.ptr < 0) { /* realloc(NULL, n) is malloc(n) */
        *l = (an_loc){.frame = AN_HEAP, .var = cx->mem.n_heap++, .n = 1, .elem = true};
        return true;
    }
    an_loc o = got && old.known ? cx->mem.ptrs[old.ptr] : (an_loc){.frame = INT_MIN};
    if (o.frame != AN_HEAP || o.n != 1 || o.key[0] != 0) {
        realloc_not_followed(cx, p, &old);
        return false;
    }
    int64_t size, count = -1; /* elements that stay; -1: not known (all cells stay) */
    if (p->elem_size > 0 && an_eval(cx, p->size, &size) && size >= 0 && size % p->elem_size == 0)
        count = size / p->elem_size;
    *l = (an_loc){.frame = AN_HEAP, .var = cx->mem.n_heap++, .n = 1, .elem = true};
    an_mem_realloc(cx, o.var, l->var, count, top->line, top->col);
    return true;
}

bool an_ptr_eval(an_ctx *cx, const ir_ptr *p, an_cell *out)
{
    an_loc l;
    an_cell c;
    sx_int off = {0, 0};
    *out = (an_cell){.kind = AN_CELL_PTR, .known = false, .ptr = -1};
    switch (p->kind) {
    case IR_PTR_NULL: out->known = true; return true;
    case IR_PTR_UNKNOWN: return false;
    case IR_PTR_FUNC:
        l = (an_loc){.frame = AN_FUNC, .var = p->func >= 0 ? p->func : -1 - p->ext};
        break;
    case IR_PTR_REALLOC:
        if (!ptr_realloc(cx, p, &l))
            return false;
        break;
    case IR_PTR_HEAP:
        l = (an_loc){.frame = AN_HEAP, .var = cx->mem.n_heap++, .n = 1, .elem = true};
        if (p->zeroed) {
            an_loc root = l;
            root.n = 0;
            mem_put(&cx->mem.cells, &root, &(an_cell){.kind = AN_CELL_ZERO});
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
        l = cx->mem.ptrs[c.ptr];
        break;
    }
    if (p->offset && (!index_of(cx, p->offset, &off) || !loc_offset(&l, off)))
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
        const an_loc *x = &cx->mem.ptrs[a.ptr], *y = &cx->mem.ptrs[b.ptr];
        an_loc xp = *x, yp = *y;
        if (an_loc_eq(x, y)) {
            d = 0;
        } else if (x->n > 0 && x->n == y->n && x->elem && y->elem &&
                   (xp.n--, yp.n--, an_loc_eq(&xp, &yp))) {
            if (an_key_is_sym(x->key[x->n - 1]) || an_key_is_sym(y->key[y->n - 1]) ||
                x->key[x->n - 1] == AN_KEY_SEG || y->key[y->n - 1] == AN_KEY_SEG)
                return false;
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

/* d's handles dropped (why: the reason a LOST event gives); d is emptied. */
static void drop_handles(an_ctx *cx, an_dropped *d, int line, int col, const char *why)
{
    for (int k = 0; k < d->n; k++)
        an_handle_dropped(cx, d->h[k], -1, line, col, why);
    free(d->h);
    *d = (an_dropped){NULL, 0, 0};
}

void an_mem_fill(an_ctx *cx, const an_loc *l, bool zero, int line, int col)
{
    an_mem_fill_from(cx, l, zero ? -2 : -1, line, col);
}

void an_mem_fill_from(an_ctx *cx, const an_loc *l, int src, int line, int col)
{
    an_dropped dropped = {NULL, 0, 0};
    bool zero = src == -2;
    an_cell marker = {.kind = zero ? AN_CELL_ZERO : AN_CELL_UNKNOWN, .i = src >= 0 ? src + 1 : 0};
    if (loc_is_slot(cx, l)) {
        an_cell old;
        if (an_mem_read(cx, l, &old) && old.kind == AN_CELL_TENSOR && old.handle >= 0)
            dropped_add(&dropped, old.handle);
        an_mem_write(cx, l, &marker);
    } else {
        mem_remove_under(&cx->mem.cells, l, true, &dropped);
        an_mem_write(cx, l, &marker);
    }
    if (zero)
        drop_handles(cx, &dropped, line, col, "overwritten");
    free(dropped.h);
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
        else if (an_key_is_sym(l->key[key]))
            return p->text; /* an index that is a formula: the read's own spelling */
        else
            len += (size_t)snprintf(buf + len, size - len, "[%lld]", (long long)l->key[key]);
    }
    return buf;
}

/* A value's symbol is its origin's: the fill and the path below the filled
 * place (l's keys from depth on).  config.dim read from the struct fread
 * filled, from a copy of it in another struct, or from a helper's parameter
 * it was passed to by value is one symbol, read once. */
static bool fill_read_find(const an_fill_src *src, const an_loc *l, int depth, sx_int *out)
{
    int n = l->n - depth;
    for (int k = 0; k < src->n_reads; k++) {
        const an_fill_read *r = &src->reads[k];
        if (r->n == n && memcmp(r->key, l->key + depth, sizeof *r->key * (size_t)n) == 0) {
            *out = r->v;
            return true;
        }
    }
    return false;
}

static void fill_read_add(an_fill_src *src, const an_loc *l, int depth, sx_int v)
{
    tl_xgrow(src->reads, &src->cap_reads, (size_t)src->n_reads + 1, 8);
    an_fill_read *r = &src->reads[src->n_reads++];
    memset(r, 0, sizeof *r);
    r->n = l->n - depth;
    memcpy(r->key, l->key + depth, sizeof *r->key * (size_t)r->n);
    r->v = v;
}

bool an_mem_int_sx(an_ctx *cx, const an_loc *l, const ir_place *p, int line, int col, sx_int *out)
{
    an_cell c;
    int depth = l->n;
    bool found = loc_is_slot(cx, l) ? an_mem_read(cx, l, &c)
                                    : mem_read_at(cx, &cx->mem.cells, l, &c, &depth);
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
    an_fill_src *src = c.kind == AN_CELL_UNKNOWN && c.i > 0 && c.i <= cx->mem.n_fills
                       ? &cx->mem.fills[c.i - 1] : NULL;
    if (!src || !fill_read_find(src, l, depth, out)) {
        char name[256];
        *out = (src && src->data ? an_new_value_symbol : an_new_symbol)(
            cx, symbol_name(p, l, depth, src, name, sizeof name), src ? src->origin : "run time",
            src ? src->line : line, src ? src->col : col);
        if (src)
            fill_read_add(src, l, depth, *out);
    }
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
               !cx->tens.handles[c.handle].released;
    }
    for (int k = 0; k < cx->mem.cells.n; k++) {
        const an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame != DEAD && e->cell.kind == AN_CELL_TENSOR && e->cell.handle >= 0 &&
            !cx->tens.handles[e->cell.handle].released && loc_under(&e->loc, l))
            return true;
    }
    return false;
}

void an_mem_copy(an_ctx *cx, const an_loc *dst, const an_loc *src, int line, int col)
{
    an_dropped dropped = {NULL, 0, 0};
    int n_src = 0;
    an_cell marker;
    bool has_marker = mem_read(cx, &cx->mem.cells, src, &marker);
    an_entry *tmp = tl_xrealloc(NULL, sizeof *tmp * (size_t)(cx->mem.cells.n + 1));
    for (int k = 0; k < cx->mem.cells.n; k++) {
        const an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame != DEAD && loc_under(&e->loc, src) && e->loc.n > src->n)
            tmp[n_src++] = *e;
    }
    if (!loc_under(src, dst) && !loc_under(dst, src))
        mem_remove_under(&cx->mem.cells, dst, true, &dropped);
    if (has_marker)
        an_mem_write(cx, dst, &marker);
    else if (!loc_is_slot(cx, dst))
        mem_remove_under(&cx->mem.cells, dst, true, &dropped);
    for (int k = 0; k < n_src; k++) {
        an_loc l = *dst;
        int extra = tmp[k].loc.n - src->n;
        if (l.n + extra > AN_MAX_PATH)
            continue;
        for (int j = 0; j < extra; j++)
            l.key[l.n++] = tmp[k].loc.key[src->n + j];
        an_cell c = tmp[k].cell;
        c.place = NULL; /* (the copy has a name of its own the store did not spell) */
        if (c.seg && c.kind == AN_CELL_TENSOR) {
            /* two copies of one run of tensors would each free them: neither is followed */
            c = (an_cell){.kind = AN_CELL_UNKNOWN};
            mem_put(&cx->mem.cells, &tmp[k].loc, &c);
        }
        an_mem_write(cx, &l, &c);
    }
    free(tmp);
    drop_handles(cx, &dropped, line, col, "overwritten");
}

void an_mem_realloc(an_ctx *cx, int from, int to, int64_t count, int line, int col)
{
    an_dropped dropped = {NULL, 0, 0};
    int n_moved = 0;
    an_loc root = {.frame = AN_HEAP, .var = from};
    an_entry *moved = tl_xmalloc(sizeof *moved * (size_t)(cx->mem.cells.n + 1));
    for (int k = 0; k < cx->mem.cells.n; k++) {
        an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame == DEAD || !loc_under(&e->loc, &root))
            continue;
        int64_t i = e->loc.n > 0 ? e->loc.key[0] : 0;
        bool gone = count >= 0 && e->loc.n > 0 && !an_key_is_sym(i) && i != AN_KEY_SEG &&
                    i >= count; /* past the new end (an index that is a formula stays) */
        if (!gone) {
            moved[n_moved] = *e;
            moved[n_moved++].loc.var = to;
        } else if (e->cell.kind == AN_CELL_TENSOR && e->cell.handle >= 0) {
            dropped_add(&dropped, e->cell.handle);
        }
        e->loc.frame = DEAD;
        cx->mem.cells.n_dead++;
    }
    index_rebuild(&cx->mem.cells, cx->mem.cells.index_cap ? cx->mem.cells.index_cap : 64);
    /* (a calloc block's zero marker moves too: the bytes it grew by read as
     * zeros, where C leaves them uninitialized and a read of them undefined) */
    for (int k = 0; k < n_moved; k++)
        mem_put(&cx->mem.cells, &moved[k].loc, &moved[k].cell);
    free(moved);
    drop_handles(cx, &dropped, line, col, "cut off by a realloc that shrank its block");
}

/* The frame's objects go away when it returns: handles only they held are lost. */
void an_mem_frame_exit(an_ctx *cx, an_frame *f, bool program_end)
{
    an_dropped dropped = {NULL, 0, 0};
    if (!f->n_mem)
        return;
    for (int k = 0; k < cx->mem.cells.n; k++) {
        an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame != f->serial)
            continue;
        if (e->cell.kind == AN_CELL_TENSOR && e->cell.handle >= 0)
            dropped_add(&dropped, e->cell.handle);
        e->loc.frame = DEAD;
        cx->mem.cells.n_dead++;
    }
    index_tidy(&cx->mem.cells);
    if (!program_end)
        drop_handles(cx, &dropped, cx->u->funcs[f->func]->end.line,
                     cx->u->funcs[f->func]->end.col, "out of scope");
    free(dropped.h);
}

bool an_mem_holds(const an_ctx *cx, int h)
{
    for (int k = 0; k < cx->mem.cells.n; k++) {
        const an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame != DEAD && e->cell.kind == AN_CELL_TENSOR && e->cell.handle == h)
            return true;
    }
    return false;
}

/* ---- joining two arms ---- */

static bool same_cell(const an_ctx *cx, const an_cell *a, const an_cell *b);

bool an_cell_same(const an_ctx *cx, const an_cell *a, const an_cell *b) { return same_cell(cx, a, b); }

static bool same_cell(const an_ctx *cx, const an_cell *a, const an_cell *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case AN_CELL_INT:
        return a->known == b->known && a->i == b->i && a->seg == b->seg &&
               (!a->seg || a->ptr == b->ptr); /* a symbol, unknown: 0 */
    case AN_CELL_TENSOR: return a->handle == b->handle && a->seg == b->seg && (!a->seg || a->ptr == b->ptr);
    case AN_CELL_PTR:
        if (a->known != b->known || !a->known)
            return a->known == b->known;
        if (a->ptr < 0 || b->ptr < 0)
            return a->ptr == b->ptr;
        return an_loc_eq(&cx->mem.ptrs[a->ptr], &cx->mem.ptrs[b->ptr]);
    default: return true;
    }
}

/* What the current arm holds where the other held something else. */
static an_cell weaker(an_ctx *cx, const an_cell *mine, const an_cell *theirs)
{
    if (mine->seg || theirs->seg) /* which elements are left differs: none is known */
        return (an_cell){.kind = AN_CELL_UNKNOWN};
    if (mine->kind == AN_CELL_TENSOR && mine->handle >= 0) {
        cx->tens.handles[mine->handle].ident_unsure = true; /* (the other arm held another) */
        if (theirs->kind != AN_CELL_TENSOR || theirs->handle < 0 ||
            !an_same_layout_handles(cx, mine->handle, theirs->handle))
            cx->tens.handles[mine->handle].known = false;
        if (theirs->kind != AN_CELL_TENSOR || theirs->handle < 0 ||
            !an_same_slayout(cx, cx->tens.handles[theirs->handle].sl,
                             cx->tens.handles[mine->handle].sl))
            cx->tens.handles[mine->handle].sl = 0;
        return *mine;
    }
    if (mine->kind == AN_CELL_TENSOR || theirs->kind == AN_CELL_TENSOR)
        return (an_cell){.kind = AN_CELL_TENSOR, .handle = AN_UNKNOWN};
    if (mine->kind == AN_CELL_PTR || theirs->kind == AN_CELL_PTR)
        return (an_cell){.kind = AN_CELL_PTR, .known = false, .ptr = -1};
    return (an_cell){.kind = AN_CELL_INT, .known = false};
}

/* Whether the join leaves the pair alone: a handle where only integers and
 * pointers are joined. */
static bool join_skips(bool scalars, const an_cell *a, const an_cell *b)
{
    return scalars && (a->kind == AN_CELL_TENSOR || b->kind == AN_CELL_TENSOR);
}

static bool fill_read_find(const an_fill_src *src, const an_loc *l, int depth, sx_int *out);

/* Does m hold at l the value cell c has: an integer an earlier read took
 * from the object a fill (fread, say) left unknown, which m still holds?
 * A fill's content is read once, one symbol for every read of the place:
 * an arm that read it and one that did not agree on its value. */
static bool same_fill_value(const an_ctx *cx, const an_mem *m, const an_loc *l, const an_cell *c)
{
    an_cell f;
    int depth;
    sx_int mine, read;
    if (c->kind != AN_CELL_INT || c->seg || !an_int_get(c->known, c->i, &mine) ||
        !mem_read_at(cx, m, l, &f, &depth) || f.kind != AN_CELL_UNKNOWN || f.i <= 0 ||
        f.i > cx->mem.n_fills)
        return false;
    return fill_read_find(&cx->mem.fills[f.i - 1], l, depth, &read) && sx_same(read, mine);
}

static void mem_join(an_ctx *cx, const an_mem *other, bool scalars)
{
    an_cell theirs, mine;
    static const an_cell uninit = {.kind = AN_CELL_UNKNOWN};
    int n = cx->mem.cells.n;
    for (int k = 0; k < n; k++) {
        an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame == DEAD)
            continue;
        if (!mem_read(cx, other, &e->loc, &theirs))
            theirs = uninit;
        if (!same_cell(cx, &e->cell, &theirs) && !join_skips(scalars, &e->cell, &theirs) &&
            !same_fill_value(cx, other, &e->loc, &e->cell))
            e->cell = weaker(cx, &e->cell, &theirs);
    }
    for (int k = 0; k < other->n; k++) {
        const an_entry *o = &other->e[k];
        if (o->loc.frame == DEAD || mem_find(&cx->mem.cells, &o->loc, NULL) >= 0)
            continue;
        if (!mem_read(cx, &cx->mem.cells, &o->loc, &mine))
            mine = uninit;
        if (same_fill_value(cx, &cx->mem.cells, &o->loc, &o->cell)) {
            mem_put(&cx->mem.cells, &o->loc, &o->cell); /* (the value the fill's read gave) */
        } else if (!same_cell(cx, &mine, &o->cell) && !join_skips(scalars, &mine, &o->cell)) {
            an_cell w = weaker(cx, &mine, &o->cell);
            mem_put(&cx->mem.cells, &o->loc, &w);
        }
    }
}

/* (the last step of a join of two arms, or of a loop's iterations: the
 * state is whole again) */
void an_mem_join(an_ctx *cx, const an_mem *other)
{
    mem_join(cx, other, false);
    an_ctx_check(cx, false);
}

void an_mem_join_scalars(an_ctx *cx, const an_mem *other)
{
    mem_join(cx, other, true);
    an_ctx_check(cx, false);
}

bool an_mem_map(an_ctx *cx, const an_mem *other,
                bool (*f)(void *ctx, an_cell *mine, const an_cell *theirs), void *ctx)
{
    return an_mem_map_extra(cx, other, f, NULL, ctx);
}

bool an_mem_map_extra(an_ctx *cx, const an_mem *other,
                      bool (*f)(void *ctx, an_cell *mine, const an_cell *theirs),
                      bool (*extra)(void *ctx, const an_loc *l, an_cell *mine), void *ctx)
{
    int live = 0, live_other = 0;
    for (int k = 0; k < cx->mem.cells.n; k++) {
        an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame == DEAD)
            continue;
        an_cell theirs = e->cell;
        if (other) {
            int j = mem_find(other, &e->loc, NULL);
            if (j < 0 && extra && extra(ctx, &e->loc, &e->cell))
                continue; /* (not counted: other has no such place) */
            if (j < 0 || other->e[j].cell.kind != e->cell.kind)
                return false;
            theirs = other->e[j].cell;
        }
        live++;
        bool ok = e->cell.kind == AN_CELL_INT || e->cell.kind == AN_CELL_TENSOR ||
                          e->cell.kind == AN_CELL_PTR
                      ? f(ctx, &e->cell, &theirs)
                      : same_cell(cx, &e->cell, &theirs);
        if (!ok)
            return false;
    }
    if (!other)
        return true;
    for (int k = 0; k < other->n; k++)
        live_other += other->e[k].loc.frame != DEAD;
    return live == live_other;
}

/* The entry of the segment that the element at place l belongs to, or -1;
 * *pos: the key of l that is the element's index (the last one, or one
 * before a field of an array of structs: layers[l].wq). */
static int seg_entry_of(const an_ctx *cx, const an_loc *l, int *pos)
{
    for (int j = l->n - 1; j >= 0; j--) {
        an_loc p = *l;
        p.key[j] = AN_KEY_SEG;
        int k = mem_find(&cx->mem.cells, &p, NULL);
        if (k >= 0 && cx->mem.cells.e[k].cell.seg) {
            *pos = j;
            return k;
        }
    }
    return -1;
}

void an_seg_release(an_ctx *cx, int h, int line, int col)
{
    an_handle *hd = &cx->tens.handles[h];
    const an_loc *l = &cx->mem.ptrs[hd->seg_place];
    int pos, k = seg_entry_of(cx, l, &pos);
    hd->released = true;
    if (k < 0)
        return;
    an_entry *e = &cx->mem.cells.e[k];
    an_seg sg = cx->mem.segs[e->cell.ptr];
    sx_int at = an_key_sx(l->key[pos]), last = sx_sub(sg.hi, (sx_int){1, 0});
    bool eq;
    if (sx_prove(at, SX_EQ, sg.lo, &eq) && eq) {
        sg.lo = sx_add(sg.lo, (sx_int){1, 0});
    } else if (sx_prove(at, SX_EQ, last, &eq) && eq) {
        sg.hi = last;
    } else { /* an element inside: the segment no longer says which are left */
        an_diag_add(cx, AN_NOTE, "unsupported", line, col,
                    "not followed: releasing an element in the middle of a run of array "
                    "elements; every element is unknown from here, and totals that depend on "
                    "them are bounds");
        an_mark_bound(cx);
        e->cell = (an_cell){.kind = AN_CELL_UNKNOWN};
        return;
    }
    sg.free_line = line;
    sg.free_col = col;
    sg.free_func = an_top(cx)->func;
    e->cell.ptr = an_seg_add(cx, &sg);
    if (sg.storage < 0)
        return;
    an_storage *st = &cx->r->storages[sg.storage];
    an_settle_peaks(cx); /* live bytes go down: record the peak's live set first */
    st->nbytes_sx = sx_sub(st->nbytes_sx, sg.elem_bytes);
    cx->acct.live_sx = sx_sub(cx->acct.live_sx, sg.elem_bytes);
    cx->acct.sym_events++;
    an_seg_collect(cx);
}

/* Free segment entry k, whose elements are all released. */
static void seg_free(an_ctx *cx, int k)
{
    an_entry *e = &cx->mem.cells.e[k];
    an_seg sg = cx->mem.segs[e->cell.ptr];
    int rep = e->cell.kind == AN_CELL_TENSOR ? e->cell.handle : -1;
    e->loc.frame = DEAD; /* the others keep their places: the caller walks them */
    cx->mem.cells.n_dead++;
    if (rep >= 0)
        cx->tens.handles[rep].released = true;
    if (sg.storage < 0 || sg.free_line == 0)
        return;
    an_storage *s = &cx->r->storages[sg.storage];
    an_storage_unref(cx, sg.storage, sg.free_func, sg.free_line, sg.free_col); /* of 0 bytes left */
    if (sg.full_bytes.e || sg.full_bytes.c)
        s->nbytes_sx = sg.full_bytes; /* what the elements took together, for the tables */
    if (sg.first >= 0) { /* iteration 1's element went with the rest */
        an_storage *f = &cx->r->storages[sg.first];
        f->free_line = s->free_line;
        f->free_col = s->free_col;
        f->free_func = s->free_func;
        f->free_event = s->free_event;
    }
}

void an_seg_collect(an_ctx *cx)
{
    for (int k = 0; k < cx->mem.cells.n; k++) {
        const an_entry *e = &cx->mem.cells.e[k];
        bool empty;
        if (e->loc.frame != DEAD && e->cell.seg &&
            sx_prove(cx->mem.segs[e->cell.ptr].hi, SX_LE, cx->mem.segs[e->cell.ptr].lo, &empty) &&
            empty)
            seg_free(cx, k); /* (removal only marks: k stays valid) */
    }
}

/* ---- who holds a storage: the peak's names ---- */

typedef struct holder {
    int storage;
    const char *name;  /* a variable or a place's spelling; NULL: a copy in memory */
    int view_of;       /* the value a view's storage was made by, -1: not a view */
} holder;

typedef struct holders {
    int n, cap;
    holder *h;
} holders;

static void holder_add(an_ctx *cx, holders *hs, int h, const char *name)
{
    if (h < 0 || h >= cx->tens.n_handles || cx->tens.handles[h].released)
        return;
    int s = cx->tens.handles[h].storage;
    if (s < cx->tens.root_first_storage || s >= cx->r->n_storages || !cx->tens.live_storage[s])
        return;
    tl_xgrow(hs->h, &hs->cap, (size_t)hs->n + 1, 64);
    int made_by = cx->r->storages[s].value;
    hs->h[hs->n++] = (holder){s, name, cx->tens.handles[h].value != made_by ? made_by : -1};
}

/* The tensor slots of frame f (function func, -1: the globals). */
static void frame_holders(an_ctx *cx, holders *hs, const an_frame *f, int func)
{
    int n = func < 0 ? cx->vars.n_globals : cx->vars.n_func_vars[func];
    for (int j = 0; j < n; j++) {
        int var = func < 0 ? cx->vars.global_vars[j] : cx->vars.func_vars[func][j];
        const ir_var *v = &cx->u->vars[var];
        if (v->kind != IR_VAR_TENSOR || v->is_borrow || v->is_carrier)
            continue;
        holder_add(cx, hs, f->tensor[cx->vars.slot[var]], v->is_temp ? NULL : v->name);
    }
    if (func >= 0)
        holder_add(cx, hs, f->ret_handle, "(the returned tensor)");
}

static int cmp_holder(const void *a, const void *b)
{
    const holder *x = a, *y = b;
    if (x->storage != y->storage)
        return x->storage < y->storage ? -1 : 1;
    if (!x->name || !y->name)
        return !x->name - !y->name; /* named first */
    if ((x->view_of >= 0) != (y->view_of >= 0))
        return x->view_of >= 0 ? 1 : -1; /* the storage's own handles before views */
    return strcmp(x->name, y->name);
}

/* hs->h[from, to) (one storage's, sorted) as one string of names. */
static char *holder_text(an_ctx *cx, const holder *h, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = tl_xmemstream(&text, &len);
    int named = 0;
    for (int k = 0; k < n; k++) {
        if (!h[k].name || (k > 0 && h[k - 1].name && strcmp(h[k - 1].name, h[k].name) == 0 &&
                           h[k - 1].view_of == h[k].view_of))
            continue;
        if (named++)
            fputc(AN_NAME_SEP, f);
        fputs(h[k].name, f);
        if (h[k].view_of >= 0) {
            const an_value *m = &cx->r->values[h[k].view_of];
            if (m->name)
                fprintf(f, " (view of %s)", m->name);
            else
                fprintf(f, " (view of the tl_%s result)", mt_ops[m->op].name);
        }
    }
    tl_xmemstream_close(f);
    if (named == 0) {
        free(text);
        return NULL;
    }
    return text;
}

void an_mem_holder_names(an_ctx *cx, char **names)
{
    holders hs = {0};
    frame_holders(cx, &hs, cx->ctl.gframe, -1);
    for (int k = 0; k < cx->ctl.depth; k++)
        frame_holders(cx, &hs, cx->ctl.stack[k], cx->ctl.stack[k]->func);
    for (int k = 0; k < cx->mem.cells.n; k++) {
        const an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame != DEAD && e->cell.kind == AN_CELL_TENSOR)
            holder_add(cx, &hs, e->cell.handle, e->cell.place);
    }
    if (hs.n > 1)
        qsort(hs.h, (size_t)hs.n, sizeof *hs.h, cmp_holder);
    for (int k = 0; k < hs.n;) {
        int j = k;
        while (j < hs.n && hs.h[j].storage == hs.h[k].storage)
            j++;
        names[hs.h[k].storage - cx->tens.root_first_storage] = holder_text(cx, hs.h + k, j - k);
        k = j;
    }
    free(hs.h);
}
