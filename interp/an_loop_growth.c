/*
 * an_loop_growth.c: the summary of a counted loop whose state grows from one
 * iteration to the next (a cache lengthened by tl_cat, a counter, arrays
 * filled or emptied as segments), proved by induction from a generalised
 * state.  an_loop.c runs the trial and the probes it uses.
 */
#include "an_loop_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- growth: a loop whose state steps from one iteration to the next ----
 *
 * A running concatenation (a cache lengthened every step), a view whose
 * offset walks along a buffer, a counter the body steps, an array filled
 * or emptied one element per iteration: no one iteration stands for the
 * others, but the state at the start of the iteration whose counter is l
 * is a formula S(l).  Iteration 1 ends in S(v0 + 1) (s1).  S(l) is read off
 * two states:
 *
 *  - forward: the first probe, counter la, ends in S(la + 1) (a).  A value
 *    becomes, at l: x1 where the two agree; x1 + (l - v0 - 1)*(xa - x1)
 *    where it steps by a constant; xa with la := l - 1 where it is the
 *    counter's function.  An array element the probe wrote at the counter
 *    (w[la]) beside the one iteration 1 wrote (w[v0]) makes a segment: the
 *    elements v0 .. l - 1, alike, with one storage for all of them.
 *  - backward (when the probe cannot run from s1: it releases w[la] while
 *    iteration 1 left w[v0 + 1] first): the state before the loop, s0, is
 *    S(v0); a value becomes x1 + (l - v0 - 1)*(x1 - x0).
 *
 * A tensor whose layout changes gets a handle of the layout at l and, where
 * it held a storage of its own, a storage of the bytes at l in place of
 * iteration 1's.  The state is rebuilt that way at l = lb, a fresh counter,
 * and one probe from it must end in S(lb + 1) (the element it wrote at lb
 * joins the segment): by induction that is every iteration 2..trips.  The
 * totals sum that probe's effect over the iterations; the state after the
 * loop is its end at lb = hi. */

typedef struct gen_ctx {
    an_ctx *cx;
    const snapshot *o;      /* the other state: a (forward) or s0 (backward) */
    bool back;
    sx_int A, L, k, lm1;    /* la (forward), lb, lb - v0 - 1, lb - 1 */
    int n_storages_new;     /* storages from this index on were made by the iteration that ends in
                               the later state (a forward, s1 backward) */
    int *map;               /* per handle of s1: the handle standing for it at lb, or -1 */
    int n_map;
    int *made, *replaced;   /* storages made for the state at lb, iteration 1's they replace */
    int n_made, cap_made;
    bool ok;
} gen_ctx;

/* x (x1 at s1, xo in the other state) at the start of iteration lb. */
static bool gen_value(const gen_ctx *g, sx_int x1, sx_int xo, sx_int *out)
{
    if (!sx_usable(x1) || !sx_usable(xo))
        return false;
    if (sx_same(x1, xo))
        *out = x1;
    else if (g->back)
        *out = sx_add(x1, sx_mul(g->k, sx_sub(x1, xo)));
    else if (sx_depends_on(xo, g->A))
        *out = sx_subst(xo, g->A, g->lm1);
    else
        *out = sx_add(x1, sx_mul(g->k, sx_sub(xo, x1)));
    return sx_usable(*out);
}

static bool gen_int(const gen_ctx *g, bool *k1, int64_t *v1, bool ko, int64_t vo)
{
    sx_int x1, xo, x;
    if (*k1 == ko && *v1 == vo)
        return true;
    if (!an_int_get(*k1, *v1, &x1) || !an_int_get(ko, vo, &xo) || !gen_value(g, x1, xo, &x))
        return false;
    an_int_put(true, x, k1, v1);
    return true;
}

/* A handle's layout over symbols; false when it has none. */
static bool sl_form(const an_ctx *cx, const an_handle *h, an_slayout *out)
{
    if (h->known)
        an_sl_of_layout(&h->l, out);
    else if (h->sl > 0)
        *out = cx->r->slayouts[h->sl - 1];
    else
        return false;
    return true;
}

static bool storage_bytes(const an_storage *st, sx_int *out)
{
    if (st->external || (!st->symbolic && st->nbytes < 0))
        return false;
    *out = st->symbolic ? st->nbytes_sx : (sx_int){st->nbytes, 0};
    return true;
}

/* Storage st's bytes become b (live when it is). */
static void set_storage_bytes(an_ctx *cx, int st, sx_int b)
{
    an_storage *s = &cx->r->storages[st];
    sx_int old;
    if (!storage_bytes(s, &old))
        return;
    if (cx->tens.live_storage[st]) {
        cx->acct.live_sx = sx_add(cx->acct.live_sx, sx_sub(b, old));
        cx->acct.sym_events++;
    }
    s->symbolic = true;
    s->nbytes = s->block_bytes = s->alloc_bytes = s->made_nbytes = -1;
    s->nbytes_sx = b;
}

/* Storage st leaves the live set: the state at lb holds another in its
 * place (or a segment's storage holds its bytes). */
static void retire_storage(an_ctx *cx, int st)
{
    an_storage *s = &cx->r->storages[st];
    cx->tens.refs[st] = 0;
    cx->tens.live_storage[st] = false;
    s->retire_event = cx->r->n_events;
    if (s->symbolic)
        cx->acct.live_sx = sx_sub(cx->acct.live_sx, s->nbytes_sx);
    else
        cx->acct.live -= s->nbytes;
}

static void made_push(gen_ctx *g, int made, int replaced)
{
    if (g->n_made == g->cap_made) {
        g->cap_made = g->cap_made ? 2 * g->cap_made : 8;
        g->made = tl_xrealloc(g->made, sizeof *g->made * (size_t)g->cap_made);
        g->replaced = tl_xrealloc(g->replaced, sizeof *g->replaced * (size_t)g->cap_made);
    }
    g->made[g->n_made] = made;
    g->replaced[g->n_made++] = replaced;
}

/* A storage for what st (now, in s1) and so (the other state) stand for at lb:
 * each iteration makes one, the next releases it. */
static int gen_storage(gen_ctx *g, int st, int so)
{
    an_ctx *cx = g->cx;
    const snapshot *o = g->o;
    sx_int b1, bo, bg;
    int fresh = g->back ? st : so; /* the one the later iteration made */
    if (fresh < g->n_storages_new || so >= o->tens.n_storages || cx->tens.refs[st] != 1 ||
        o->tens.refs[so] != 1 || !storage_bytes(&cx->r->storages[st], &b1) ||
        !storage_bytes(&o->tens.storages[so], &bo) || !gen_value(g, b1, bo, &bg))
        return -1;
    const an_storage *sy = g->back ? &cx->r->storages[st] : &o->tens.storages[so];
    retire_storage(cx, st);
    int made = an_storage_new_sx(cx, sy->func, sy->value, sy->alloc_line, sy->alloc_col,
                                 sy->device, bg);
    cx->r->storages[made].summarised = true;
    cx->tens.refs[made] = 0;
    made_push(g, made, st);
    return made;
}

/* Pointer targets px (s1) and py (the other state) at lb: the same place
 * but for keys that are the counter's formulas (layers[0].wq, layers[la].wq). */
static bool gen_place(gen_ctx *g, int px, int py, int *out)
{
    an_loc a = g->cx->mem.ptrs[px], b = g->cx->mem.ptrs[py];
    if (a.frame != b.frame || a.var != b.var || a.n != b.n || a.elem != b.elem)
        return false;
    for (int j = 0; j < a.n; j++) {
        sx_int v;
        if (a.key[j] != b.key[j] &&
            (a.key[j] == AN_KEY_SEG || b.key[j] == AN_KEY_SEG ||
             !gen_value(g, an_key_sx(a.key[j]), an_key_sx(b.key[j]), &v) ||
             !an_key_of(v, &a.key[j])))
            return false;
    }
    *out = an_ptr_intern(g->cx, &a);
    return true;
}

/* Handle h1 (s1) and ho (the other state) of one place: the handle at lb. */
static int gen_handle(gen_ctx *g, int h1, int ho)
{
    an_ctx *cx = g->cx;
    steady_ctx sc = {cx, g->o};
    if (h1 < 0 || ho < 0 || an_loop_steady_handles(&sc, ho, h1)) {
        g->ok &= h1 >= 0 || h1 == ho;
        return h1;
    }
    if (h1 < g->n_map && g->map[h1] >= 0)
        return g->map[h1];
    const an_handle *x = &cx->tens.handles[h1], *y = &g->o->tens.handles[ho];
    an_slayout X, Y, G;
    if (h1 >= g->n_map || x->released || y->released || x->poison || y->poison ||
        x->seg_elem != y->seg_elem || (x->seg_elem && x->storage != y->storage) ||
        x->offset_unknown || y->offset_unknown ||
        !sl_form(cx, x, &X) || !sl_form(cx, y, &Y) || X.ndim != Y.ndim || X.dtype != Y.dtype ||
        X.device != Y.device || X.device == TL_CUDA || x->storage < 0 || y->storage < 0) {
        g->ok = false;
        return h1;
    }
    G = X;
    G.contiguous = g->back ? X.contiguous : Y.contiguous;
    bool ok = gen_value(g, X.offset, Y.offset, &G.offset) &&
              gen_value(g, X.storage_nbytes, Y.storage_nbytes, &G.storage_nbytes);
    for (int d = 0; d < X.ndim && ok; d++)
        ok = gen_value(g, X.shape[d], Y.shape[d], &G.shape[d]) &&
             gen_value(g, X.strides[d], Y.strides[d], &G.strides[d]);
    an_handle nh = *x;
    nh.ident_unsure = true; /* (the handle of whichever iteration made it) */
    nh.known = false;
    nh.sl = an_slayout_add(cx, &G);
    if (ok && x->seg_elem) /* an element read from an array: the element read at lb */
        ok = gen_place(g, x->seg_place, y->seg_place, &nh.seg_place);
    if (ok && y->storage != x->storage) /* its own storage, made again each iteration */
        ok = (nh.storage = gen_storage(g, x->storage, y->storage)) >= 0;
    if (!ok) {
        g->ok = false;
        return h1;
    }
    cx->tens.refs[nh.storage]++;
    int h = an_handle_new(cx, &nh);
    cx->tens.handles[h1].released = true; /* what it stood for is the new handle's */
    if (x->storage == nh.storage)
        cx->tens.refs[nh.storage]--;
    g->map[h1] = h;
    return h;
}

/* A segment's cell (mine: s1's, theirs: the other state's) at lb. */
static bool gen_seg(gen_ctx *g, an_cell *mine, const an_cell *theirs)
{
    an_ctx *cx = g->cx;
    if (!theirs->seg || mine->handle != theirs->handle || mine->i != theirs->i ||
        mine->known != theirs->known)
        return false;
    an_seg s1 = cx->mem.segs[mine->ptr], so = cx->mem.segs[theirs->ptr], sg = s1;
    if (!sx_same(s1.elem_bytes, so.elem_bytes) || s1.storage != so.storage ||
        !gen_value(g, s1.lo, so.lo, &sg.lo) || !gen_value(g, s1.hi, so.hi, &sg.hi) ||
        !gen_value(g, s1.full_bytes, so.full_bytes, &sg.full_bytes))
        return false;
    mine->ptr = an_seg_add(cx, &sg);
    return true;
}

static bool gen_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    gen_ctx *g = ctx;
    if (mine->kind == AN_CELL_PTR) { /* p = &layers[l]: the place at lb */
        if (an_cell_same(g->cx, mine, theirs))
            return true;
        return mine->known && theirs->known && mine->ptr >= 0 && theirs->ptr >= 0 &&
               gen_place(g, mine->ptr, theirs->ptr, &mine->ptr);
    }
    if (mine->seg || theirs->seg)
        return mine->seg && gen_seg(g, mine, theirs);
    if (mine->kind == AN_CELL_INT)
        return gen_int(g, &mine->known, &mine->i, theirs->known, theirs->i);
    mine->handle = gen_handle(g, mine->handle, theirs->handle);
    return g->ok;
}

/* How many places (variables, memory) hold handle h in the state now. */
static int holders(an_ctx *cx, int h)
{
    int n = 0;
    for (int k = 0; k < cx->ctl.depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++)
            n += !borrowed(cx, cx->vars.func_vars[fr->func][j]) &&
                 fr->tensor[cx->vars.slot[cx->vars.func_vars[fr->func][j]]] == h;
    }
    for (int v = 0; v < cx->vars.n_globals; v++)
        n += cx->ctl.gframe->tensor[v] == h;
    for (int k = 0; k < cx->mem.cells.n; k++)
        n += cx->mem.cells.e[k].loc.frame != INT_MIN &&
            cx->mem.cells.e[k].cell.kind == AN_CELL_TENSOR && cx->mem.cells.e[k].cell.handle == h;
    return n;
}

/* An element e (now, in cx->mem.cells) that the iteration wrote and that becomes
 * one more element of a segment: an integer of the segment's value, or a
 * tensor of its layout, held only there, whose storage is its own (bytes
 * *elem; 0 for a view of the segment's storage). */
static bool seg_element(an_ctx *cx, const an_cell *c, const an_cell *tmpl, sx_int *elem,
                        int *storage)
{
    if (c->seg || c->kind != tmpl->kind)
        return false;
    if (c->kind == AN_CELL_INT)
        return c->known == tmpl->known && c->i == tmpl->i && (c->known || c->i > 0);
    if (c->kind != AN_CELL_TENSOR || c->handle < 0 || tmpl->handle < 0)
        return false;
    const an_handle *h = &cx->tens.handles[c->handle];
    an_slayout X, Y;
    if (h->released || h->poison || h->seg_elem || h->offset_unknown || h->storage < 0 ||
        !sl_form(cx, h, &X) || !sl_form(cx, &cx->tens.handles[tmpl->handle], &Y) ||
        X.ndim != Y.ndim || X.dtype != Y.dtype || X.device != Y.device || X.device == TL_CUDA ||
        !sx_same(X.offset, Y.offset) || holders(cx, c->handle) != 1)
        return false;
    for (int d = 0; d < X.ndim; d++)
        if (!sx_same(X.shape[d], Y.shape[d]) || !sx_same(X.strides[d], Y.strides[d]))
            return false;
    *storage = h->storage;
    if (cx->tens.refs[h->storage] != 1 || cx->r->storages[h->storage].device == TL_CUDA)
        return false;
    return storage_bytes(&cx->r->storages[h->storage], elem);
}

/* Handle x views storage y_storage with layout Y but for the offset. */
static bool view_like(an_ctx *cx, const an_handle *x, const an_slayout *Y, int y_storage)
{
    an_slayout X;
    if (x->released || x->poison || x->seg_elem || x->offset_unknown || x->storage < 0 ||
        x->storage != y_storage || !sl_form(cx, x, &X) || X.ndim != Y->ndim ||
        X.dtype != Y->dtype || X.device != Y->device || X.device == TL_CUDA)
        return false;
    for (int d = 0; d < X.ndim; d++)
        if (!sx_same(X.shape[d], Y->shape[d]) || !sx_same(X.strides[d], Y->strides[d]))
            return false;
    return true;
}

/* Is cell c (held only there) the view a segment of views (its cell's
 * handle `tmpl`) has at index k? */
static bool view_element(an_ctx *cx, const an_cell *c, int tmpl, const an_seg *sg, sx_int k)
{
    an_slayout T, X;
    if (c->seg || c->kind != AN_CELL_TENSOR || c->handle < 0 || tmpl < 0 ||
        !sl_form(cx, &cx->tens.handles[tmpl], &T))
        return false;
    T.offset = sx_subst(T.offset, sg->idx, k);
    const an_handle *h = &cx->tens.handles[c->handle];
    return view_like(cx, h, &T, sg->storage) && sl_form(cx, h, &X) &&
           sx_same(X.offset, T.offset) && holders(cx, c->handle) == 1;
}

/* The place p with its key at j replaced by k (another element of the array). */
static an_loc loc_with_key(const an_loc *p, int j, int64_t k)
{
    an_loc l = *p;
    l.key[j] = k;
    return l;
}

/* The position of the one key of l that is a formula in sym (w[l], or
 * layers[l].wq: an index, then maybe fields); -1 when none, -2 when more. */
static int key_pos(const an_loc *l, sx_int sym)
{
    int at = -1;
    for (int j = 0; j < l->n; j++)
        if (an_key_is_sym(l->key[j]) && sx_depends_on(an_key_sx(l->key[j]), sym))
            at = at == -1 ? j : -2;
    return at;
}

/* The position of l's segment key, or -1. */
static int seg_pos(const an_loc *l)
{
    for (int j = 0; j < l->n; j++)
        if (l->key[j] == AN_KEY_SEG)
            return j;
    return -1;
}

/* Forward: an element the probe wrote at its counter (w[la + d]) next to
 * the one iteration 1 wrote (w[v0 + d]) makes the segment v0 + d .. lb + d
 * - 1 in the state now (s1), and in *other (a copy of a's memory, to walk
 * beside it).  False when the probe wrote some element at its counter that
 * does not fit. */
/* Forward, views (rows[l] = tl_select(w, 0, l)): iteration 1's element c1
 * (at k1 = v0 + d, under `first`) and the probe's (handle ho of state o, at
 * la + d, under at_o) view one storage at offsets one formula in the index
 * gives: the segment k1 .. lb + d - 1 of such views, under `seg`. */
static bool form_view_segment(gen_ctx *g, an_mem *other, const an_loc *first, const an_loc *seg,
                              const an_loc *at_o, an_cell c1, int ho, sx_int k1, sx_int d,
                              sx_int lo, sx_int hi, int line)
{
    an_ctx *cx = g->cx;
    const an_handle *y = &g->o->tens.handles[ho];
    an_slayout Y, X1;
    if (y->released || y->poison || y->seg_elem || y->offset_unknown || !sl_form(cx, y, &Y) ||
        !view_like(cx, &cx->tens.handles[c1.handle], &Y, y->storage) ||
        holders(cx, c1.handle) != 1 || !sl_form(cx, &cx->tens.handles[c1.handle], &X1))
        return false;
    sx_int idx = sx_symbol_near("index", "loop", line, 0, k1);
    sx_int at = sx_subst(Y.offset, g->A, sx_sub(idx, d)); /* the offset at index idx */
    if (!sx_usable(at) || !sx_same(sx_subst(at, idx, k1), X1.offset))
        return false;
    an_handle rep = cx->tens.handles[c1.handle];
    rep.ident_unsure = true;
    X1.offset = at;
    rep.known = false;
    rep.sl = an_slayout_add(cx, &X1);
    an_seg sg = {.lo = lo, .hi = hi, .elem_bytes = {0, 0}, .idx = idx,
                 .storage = rep.storage, .first = -1, .full_bytes = {0, 0}};
    an_cell sc = c1; /* its reference to the storage is the segment's */
    sc.seg = true;
    cx->tens.handles[c1.handle].released = true;
    sc.handle = an_handle_new(cx, &rep);
    sc.ptr = an_seg_add(cx, &sg);
    an_mem_remove(&cx->mem.cells, first);
    an_mem_put(&cx->mem.cells, seg, &sc);
    an_mem_remove(other, first);
    an_mem_remove(other, at_o);
    an_mem_put(other, seg, &sc);
    return true;
}

static bool form_segments(gen_ctx *g, an_mem *other, sx_int v0, int dir, int line)
{
    an_ctx *cx = g->cx;
    const an_mem *am = &g->o->mem;
    for (int k = 0; k < am->n; k++) {
        const an_entry *e = &am->e[k];
        int at = e->loc.frame == INT_MIN ? -1 : key_pos(&e->loc, g->A);
        if (at == -1)
            continue; /* not written at the counter */
        if (at < 0)
            return false;
        sx_int key = an_key_sx(e->loc.key[at]), d = sx_sub(key, g->A);
        int64_t k1, kseg = AN_KEY_SEG;
        if (sx_depends_on(d, g->A) || !an_key_of(sx_add(v0, d), &k1))
            return false;
        /* the elements written so far: v0 + d .. lb + d - 1 up, lb + d + 1 .. v0 + d down */
        sx_int one = {1, 0};
        sx_int lo = dir > 0 ? sx_add(v0, d) : sx_add(sx_add(g->L, one), d);
        sx_int hi = dir > 0 ? sx_add(g->L, d) : sx_add(sx_add(v0, one), d);
        an_loc first = loc_with_key(&e->loc, at, k1), seg = loc_with_key(&e->loc, at, kseg);
        int f = an_mem_find(&cx->mem.cells, &first);
        if (f < 0 || an_mem_find(&cx->mem.cells, &seg) >= 0)
            return false;
        an_cell c1 = cx->mem.cells.e[f].cell;
        sx_int elem = {0, 0}, elem_o = {0, 0};
        int st = -1, st_o = -1;
        if (c1.kind == AN_CELL_TENSOR && e->cell.kind == AN_CELL_TENSOR && !c1.seg &&
            c1.handle >= 0 && e->cell.handle >= 0 && cx->tens.handles[c1.handle].storage >= 0 &&
            cx->tens.handles[c1.handle].storage == g->o->tens.handles[e->cell.handle].storage) {
            an_loc at_o = e->loc;
            if (!form_view_segment(g, other, &first, &seg, &at_o, c1, e->cell.handle,
                                   sx_add(v0, d), d, lo, hi, line))
                return false;
            continue;
        }
        if (!seg_element(cx, &c1, &c1, &elem, &st))
            return false;
        if (c1.kind == AN_CELL_TENSOR) { /* a's element: the same layout, a storage as large */
            const an_handle *ho = &g->o->tens.handles[e->cell.handle],
                            *h1 = &cx->tens.handles[c1.handle];
            steady_ctx sc = {cx, g->o};
            if (e->cell.kind != AN_CELL_TENSOR || e->cell.handle < 0 || ho->released ||
                !an_loop_steady_handles(&sc, e->cell.handle, c1.handle) ||
                (st_o = ho->storage) < g->n_storages_new || st_o >= g->o->tens.n_storages ||
                g->o->tens.refs[st_o] != 1 || !storage_bytes(&g->o->tens.storages[st_o], &elem_o) ||
                !sx_same(elem, elem_o) || h1->storage < 0)
                return false;
        } else if (e->cell.kind != AN_CELL_INT || e->cell.known != c1.known ||
                   e->cell.i != c1.i) {
            return false;
        }
        an_seg sg = {.lo = lo, .hi = hi, .elem_bytes = elem,
                     .storage = -1, .first = c1.kind == AN_CELL_TENSOR ? st : -1,
                     .full_bytes = sx_mul(sx_sub(hi, lo), elem)};
        an_cell sc1 = c1;
        sc1.seg = true;
        if (c1.kind == AN_CELL_TENSOR) { /* one handle, one storage for the elements so far */
            an_handle rep = cx->tens.handles[c1.handle];
            rep.ident_unsure = true;
            const an_storage first_st = cx->r->storages[st];
            retire_storage(cx, st);
            sg.storage = rep.storage =
                an_storage_new_sx(cx, first_st.func, rep.value, first_st.alloc_line,
                                  first_st.alloc_col, first_st.device,
                                  sx_mul(sx_sub(sg.hi, sg.lo), elem));
            cx->r->storages[sg.storage].summarised = true;
            cx->tens.refs[sg.storage] = 1;
            made_push(g, sg.storage, st);
            cx->tens.handles[c1.handle].released = true;
            sc1.handle = an_handle_new(cx, &rep);
        }
        sc1.ptr = an_seg_add(cx, &sg);
        an_mem_remove(&cx->mem.cells, &first);
        an_mem_put(&cx->mem.cells, &seg, &sc1);
        an_mem_remove(other, &first);
        an_mem_remove(other, &e->loc);
        an_mem_put(other, &seg, &sc1);
    }
    return true;
}

/* After the probe: an element written next to a segment (past its end
 * counting up, before its start counting down) joins it. */
static void absorb_segments(an_ctx *cx, int dir)
{
    for (int k = 0; k < cx->mem.cells.n; k++) {
        an_entry *e = &cx->mem.cells.e[k];
        if (e->loc.frame == INT_MIN || !e->cell.seg)
            continue;
        an_seg sg = cx->mem.segs[e->cell.ptr];
        int64_t kh;
        int at = seg_pos(&e->loc);
        sx_int next_k = dir > 0 ? sg.hi : sx_sub(sg.lo, (sx_int){1, 0});
        if (at < 0 || !an_key_of(next_k, &kh))
            continue;
        an_loc next = loc_with_key(&e->loc, at, kh);
        int j = an_mem_find(&cx->mem.cells, &next);
        sx_int elem;
        int st = -1;
        an_cell tmpl = e->cell;
        if (sg.idx.e != 0) { /* views: the one at hi, its reference the segment's */
            if (j < 0 || !view_element(cx, &cx->mem.cells.e[j].cell, tmpl.handle, &sg, next_k))
                continue;
            cx->tens.handles[cx->mem.cells.e[j].cell.handle].released = true;
            cx->tens.refs[sg.storage]--;
        } else if (j < 0 || !seg_element(cx, &cx->mem.cells.e[j].cell, &tmpl, &elem, &st) ||
                   (tmpl.kind == AN_CELL_TENSOR && !sx_same(elem, sg.elem_bytes))) {
            continue;
        } else if (tmpl.kind == AN_CELL_TENSOR) {
            cx->tens.handles[cx->mem.cells.e[j].cell.handle].released = true;
            retire_storage(cx, st);
            an_storage *ss = &cx->r->storages[sg.storage];
            ss->nbytes_sx = sx_add(ss->nbytes_sx, elem);
            cx->acct.live_sx = sx_add(cx->acct.live_sx, elem);
        }
        if (tmpl.kind == AN_CELL_TENSOR && sg.idx.e == 0)
            sg.full_bytes = sx_add(sg.full_bytes, elem);
        if (dir > 0)
            sg.hi = sx_add(sg.hi, (sx_int){1, 0});
        else
            sg.lo = next_k;
        an_mem_remove(&cx->mem.cells, &next); /* e stays where it is: removal only marks */
        e->cell.ptr = an_seg_add(cx, &sg);
    }
}

/* The state now (s1) rebuilt as the state at the start of iteration lb. */
static bool generalise(an_ctx *cx, loop_sum *ls, gen_ctx *g)
{
    const snapshot *o = g->o;
    if (cx->ctl.depth != o->ctl.depth)
        return false;
    for (int k = 0; k < cx->ctl.depth && g->ok; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func] && g->ok; j++) {
            int sl = cx->vars.slot[ids[j]];
            if (borrowed(cx, ids[j]))
                continue;
            fr->tensor[sl] = gen_handle(g, fr->tensor[sl], o->ctl.tensors[k][j]);
            if (ids[j] != ls->var)
                g->ok &= gen_int(g, &fr->int_known[sl], &fr->ints[sl], o->ctl.known[k][j],
                                 o->ctl.ints[k][j]);
        }
    }
    an_frame *gf = cx->ctl.gframe;
    for (int v = 0; v < cx->vars.n_globals && g->ok; v++) {
        gf->tensor[v] = gen_handle(g, gf->tensor[v], o->ctl.g_tensor[v]);
        if (cx->vars.global_vars[v] != ls->var)
            g->ok &=
                gen_int(g, &gf->int_known[v], &gf->ints[v], o->ctl.g_known[v], o->ctl.g_ints[v]);
    }
    if (!g->ok)
        return false;
    an_mem other = {0};
    an_mem_copy_into(&other, &o->mem);
    bool ok = (g->back || form_segments(g, &other, ls->v0, ls->dir, ls->s->loc.line)) &&
              an_mem_map(cx, &other, gen_cell, g);
    an_mem_free(&other);
    /* storages both states hold whose bytes step (a segment's, as it empties) */
    int n =
        ls->s1.tens.n_storages < o->tens.n_storages ? ls->s1.tens.n_storages : o->tens.n_storages;
    for (int st = 0; st < n && ok; st++) {
        sx_int b1, bo, bg;
        if (!cx->tens.live_storage[st] || !o->tens.live_storage[st] ||
            !storage_bytes(&cx->r->storages[st], &b1) ||
            !storage_bytes(&o->tens.storages[st], &bo) || sx_same(b1, bo))
            continue;
        ok = gen_value(g, b1, bo, &bg);
        if (ok)
            set_storage_bytes(cx, st, bg);
    }
    return ok && g->ok;
}

static bool ind_same(const ind_ctx *c, sx_int start, sx_int end)
{
    if (c->at_zero) /* (L is a quantity: where it stands in start, it is 0 too) */
        return sx_same(sx_refine(sx_subst(end, c->L, (sx_int){0, 0})),
                       sx_refine(sx_subst(start, c->L, (sx_int){0, 0})));
    return sx_same(end, sx_subst(start, c->L, c->L1));
}

static bool ind_int(const ind_ctx *c, bool ks, int64_t vs, bool ke, int64_t ve)
{
    sx_int xs, xe;
    if (!an_int_get(ks, vs, &xs) || !an_int_get(ke, ve, &xe))
        return ks == ke && vs == ve;
    return ind_same(c, xs, xe);
}

static bool ind_handle(const ind_ctx *c, int hs, int he)
{
    if (hs < 0 || he < 0)
        return hs == he;
    if (hs >= c->start->tens.n_handles)
        return false;
    const an_handle *x = &c->start->tens.handles[hs], *y = &c->cx->tens.handles[he];
    an_slayout X, Y;
    if (x->released || y->released)
        return x->released == y->released;
    if (x->offset_unknown || y->offset_unknown || !sl_form(c->cx, x, &X) ||
        !sl_form(c->cx, y, &Y) || X.ndim != Y.ndim || X.dtype != Y.dtype ||
        X.device != Y.device)
        return false;
    bool same = ind_same(c, X.offset, Y.offset);
    for (int d = 0; d < X.ndim && same; d++)
        same = ind_same(c, X.shape[d], Y.shape[d]) && ind_same(c, X.strides[d], Y.strides[d]);
    return same;
}

/* A pointer at the start (to a place whose keys are formulas in the
 * counter) and at the end: the same place at the next iteration. */
static bool ind_ptr(const ind_ctx *c, const an_cell *start, const an_cell *end)
{
    if (start->known != end->known || !start->known || start->ptr < 0 || end->ptr < 0)
        return an_cell_same(c->cx, start, end);
    an_loc a = c->cx->mem.ptrs[start->ptr], b = c->cx->mem.ptrs[end->ptr];
    if (a.frame != b.frame || a.var != b.var || a.n != b.n || a.elem != b.elem)
        return false;
    for (int j = 0; j < a.n; j++) {
        if (a.key[j] == AN_KEY_SEG || b.key[j] == AN_KEY_SEG) {
            if (a.key[j] != b.key[j])
                return false;
        } else if (!ind_same(c, an_key_sx(a.key[j]), an_key_sx(b.key[j]))) {
            return false;
        }
    }
    return true;
}

static bool ind_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    const ind_ctx *c = ctx;
    if (mine->kind == AN_CELL_PTR)
        return ind_ptr(c, theirs, mine);
    if (mine->seg || theirs->seg) {
        if (!mine->seg || !theirs->seg || mine->handle != theirs->handle ||
            mine->known != theirs->known || mine->i != theirs->i)
            return false;
        const an_seg *se = &c->cx->mem.segs[mine->ptr], *ss = &c->cx->mem.segs[theirs->ptr];
        return ind_same(c, ss->lo, se->lo) && ind_same(c, ss->hi, se->hi) &&
               ind_same(c, ss->full_bytes, se->full_bytes) &&
               sx_same(ss->elem_bytes, se->elem_bytes) && ss->storage == se->storage;
    }
    if (mine->kind == AN_CELL_INT)
        return ind_int(c, theirs->known, theirs->i, mine->known, mine->i);
    return ind_handle(c, theirs->handle, mine->handle);
}

bool an_loop_induction_holds(an_ctx *cx, const ind_ctx *c)
{
    const snapshot *st = c->start;
    if (cx->ctl.depth != st->ctl.depth ||
        !ind_same(c, live_total(st->acct.live, st->acct.live_sx),
                  live_total(cx->acct.live, cx->acct.live_sx)))
        return false;
    for (int k = 0; k < cx->ctl.depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            int sl = cx->vars.slot[ids[j]];
            if (borrowed(cx, ids[j]))
                continue;
            if (!ind_handle(c, st->ctl.tensors[k][j], fr->tensor[sl]) ||
                !ind_int(c, st->ctl.known[k][j], st->ctl.ints[k][j], fr->int_known[sl],
                         fr->ints[sl]))
                return false;
        }
    }
    an_frame *gf = cx->ctl.gframe;
    for (int v = 0; v < cx->vars.n_globals; v++)
        if (!ind_handle(c, st->ctl.g_tensor[v], gf->tensor[v]) ||
            !ind_int(c, st->ctl.g_known[v], st->ctl.g_ints[v], gf->int_known[v], gf->ints[v]))
            return false;
    for (int s = 0; s < st->tens.n_storages; s++) { /* what both hold has its bytes at lb + 1 */
        sx_int bs, be;
        if (st->tens.live_storage[s] != cx->tens.live_storage[s])
            continue; /* freed or made: the live bytes say whether that balances */
        if (st->tens.live_storage[s] && storage_bytes(&st->tens.storages[s], &bs) &&
            storage_bytes(&cx->r->storages[s], &be) && !ind_same(c, bs, be))
            return false;
    }
    return an_mem_map(cx, &st->mem, ind_cell, (void *)c);
}

/* After the loop: the probe's end with lb := hi, the last iteration's. */
typedef struct final_ctx {
    an_ctx *cx;
    sx_int L, hi;
    int64_t n_handles0;
} final_ctx;

static void final_int(const final_ctx *c, bool *known, int64_t *v)
{
    sx_int x;
    if (an_int_get(*known, *v, &x) && sx_depends_on(x, c->L))
        an_int_put(true, sx_subst(x, c->L, c->hi), known, v);
}

static bool final_cell(void *ctx, an_cell *mine, const an_cell *theirs)
{
    const final_ctx *c = ctx;
    (void)theirs;
    if (mine->kind == AN_CELL_PTR && mine->known && mine->ptr >= 0) { /* the last place */
        an_loc l = c->cx->mem.ptrs[mine->ptr];
        bool changed = false;
        for (int j = 0; j < l.n; j++) {
            int64_t k;
            sx_int x = an_key_sx(l.key[j]);
            if (an_key_is_sym(l.key[j]) && sx_depends_on(x, c->L) &&
                an_key_of(sx_subst(x, c->L, c->hi), &k)) {
                l.key[j] = k;
                changed = true;
            }
        }
        if (changed)
            mine->ptr = an_ptr_intern(c->cx, &l);
        return true;
    }
    if (mine->seg) {
        an_seg sg = c->cx->mem.segs[mine->ptr];
        sg.lo = sx_subst(sg.lo, c->L, c->hi);
        sg.hi = sx_subst(sg.hi, c->L, c->hi);
        sg.full_bytes = sx_subst(sg.full_bytes, c->L, c->hi);
        mine->ptr = an_seg_add(c->cx, &sg);
    }
    if (mine->kind == AN_CELL_INT)
        final_int(c, &mine->known, &mine->i);
    return true;
}

static void finish_state(an_ctx *cx, const final_ctx *c)
{
    for (int k = 0; k < cx->ctl.depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            int sl = cx->vars.slot[ids[j]];
            final_int(c, &fr->int_known[sl], &fr->ints[sl]);
        }
    }
    for (int v = 0; v < cx->vars.n_globals; v++)
        final_int(c, &cx->ctl.gframe->int_known[v], &cx->ctl.gframe->ints[v]);
    an_mem_map(cx, NULL, final_cell, (void *)c);
    for (int64_t h = c->n_handles0; h < cx->tens.n_handles; h++) {
        an_handle *hd = &cx->tens.handles[h];
        if (hd->known || hd->sl <= 0)
            continue;
        an_slayout l = cx->r->slayouts[hd->sl - 1];
        l.offset = sx_subst(l.offset, c->L, c->hi);
        l.storage_nbytes = sx_subst(l.storage_nbytes, c->L, c->hi);
        for (int d = 0; d < l.ndim; d++) {
            l.shape[d] = sx_subst(l.shape[d], c->L, c->hi);
            l.strides[d] = sx_subst(l.strides[d], c->L, c->hi);
        }
        hd->sl = an_slayout_add(cx, &l);
    }
    for (int st = 0; st < cx->r->n_storages; st++) {
        an_storage *s = &cx->r->storages[st];
        if (s->symbolic)
            s->nbytes_sx = sx_subst(s->nbytes_sx, c->L, c->hi);
    }
    cx->acct.live_sx = sx_subst(cx->acct.live_sx, c->L, c->hi);
    an_seg_collect(cx); /* a loop that released every element */
}

/* From s1 (the state is there again): the growth summary, forward from
 * the first probe's state a or backward from the state before the loop. */
bool an_loop_growth_summary(an_ctx *cx, loop_sum *ls, const snapshot *s0, bool back)
{
    sx_int L = an_loop_counter_symbol(cx, ls->s, ls->var, ls->v0, ls->dir);
    ls->lb = L.e;
    ls->marks1 = cx->acct.n_bound_marks; /* an undone probe's marks do not count */
    int facts = an_loop_counter_facts(L, ls->lo, ls->hi);
    int64_t n_handles0 = cx->tens.n_handles;
    gen_ctx g = {.cx = cx, .o = back ? s0 : &ls->a, .back = back,
                 .A = {0, back ? 0 : ls->la}, .L = L,
                 /* iterations since the second: (L - v0 - dir)/dir */
                 .k = sx_mul((sx_int){ls->dir, 0}, sx_sub(L, sx_add(ls->v0, (sx_int){ls->dir, 0}))),
                 .lm1 = sx_sub(L, (sx_int){ls->dir, 0}),
                 .n_storages_new = back ? s0->tens.n_storages : ls->n_storages1,
                 .n_map = (int)cx->tens.n_handles, .ok = true};
    g.map = tl_xmalloc(sizeof *g.map * (size_t)(g.n_map + 1));
    for (int h = 0; h < g.n_map; h++)
        g.map[h] = -1;
    bool ok = false, taken = false;
    snapshot start;
    if (!generalise(cx, ls, &g)) {
        an_loop_fail(ls,
                     "its state changes from one iteration to the next in a way no formula in the "
                     "counter follows");
        goto out;
    }
    bool *known;
    int64_t *slot = an_int_slot(cx, ls->var, &known);
    an_int_put(true, L, known, slot);
    an_snap_take(cx, &start);
    taken = true;
    for (int k = 0; k < ls->n; k++)
        an_loop_fr_effect(&cx->r->funcs[k], &ls->eff[6 * k + 2], &ls->eff[6 * k + 3]);
    free(ls->runsa);
    ls->runsa = an_loop_runs_take(cx);
    if (!an_loop_probe_body(cx, ls->s, ls->var, L, (sx_int){ls->dir, 0}) ||
        !an_loop_probe_plain(cx, ls))
        goto out;
    absorb_segments(cx, ls->dir);
    ind_ctx ic = {cx, &start, L, sx_add(L, (sx_int){ls->dir, 0}), false}; /* the next one's */
    if (!an_loop_induction_holds(cx, &ic)) {
        an_loop_fail(ls,
                     "its state changes from one iteration to the next in a way no formula in the "
                     "counter follows");
        goto out;
    }
    if (!an_loop_sum_effects(cx, ls, 1, false))
        goto out;
    for (int m = 0; m < g.n_made; m++) { /* each stood for a storage the probe freed */
        const an_storage *made = &cx->r->storages[g.made[m]];
        bool seg = false;
        for (int k = 0; k < cx->mem.cells.n && !seg; k++)
            seg = cx->mem.cells.e[k].loc.frame != INT_MIN && cx->mem.cells.e[k].cell.seg &&
                  cx->mem.segs[cx->mem.cells.e[k].cell.ptr].storage == g.made[m];
        if (seg)
            continue; /* a segment's: it lives on */
        if (made->free_line == 0) {
            an_loop_fail(ls, "a tensor an iteration replaces is not released");
            goto out;
        }
        an_storage *first = &cx->r->storages[g.replaced[m]];
        first->free_line = made->free_line;
        first->free_col = made->free_col;
        first->free_func = made->free_func;
        first->free_event = made->free_event;
    }
    sx_forget_facts(facts);
    facts = -1;
    if (!an_loop_loop_assumptions(ls->assumptions1, g.A, L, ls->lo, ls->hi, ls->s->loc.line)) {
        an_loop_fail(ls, "a condition an iteration relies on does not hold for every iteration");
        goto out;
    }
    /* the state after the loop: the end of its last iteration's */
    finish_state(cx, &(final_ctx){cx, L, ls->dir > 0 ? ls->hi : ls->lo, n_handles0});
    ok = true;
out:
    if (facts >= 0)
        sx_forget_facts(facts);
    if (taken)
        an_snap_free(&start);
    free(g.map);
    free(g.made);
    free(g.replaced);
    return ok;
}
