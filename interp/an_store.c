/*
 * an_store.c: statements on memory: loads, stores, copies, fills, through
 * the places of an_mem.c.
 */
#include "an_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory: loads, stores, copies, fills ---- */

/* A place that cannot be resolved: one note at the construct, and the
 * totals that depend on it are bounds. */
static void place_not_followed(an_ctx *cx, const ir_stmt *s, const ir_place *p, const char *why,
                               const char *what)
{
    an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                "not followed: %s '%s' (%s); totals that depend on it are bounds", what,
                p ? p->text : "?", why ? why : "not modelled");
    an_mark_bound(cx);
}

void an_exec_load(an_ctx *cx, const ir_stmt *s)
{
    an_loc l;
    const char *why = NULL;
    int h = AN_UNKNOWN;
    if (an_place_loc(cx, s->load.src, &l, NULL, &why))
        h = an_mem_handle(cx, &l);
    else
        place_not_followed(cx, s, s->load.src, why, "the tensor read from");
    if (h == AN_UNKNOWN && !why) {
        place_not_followed(cx, s, s->load.src, "its contents are not known here",
                           "the tensor read from");
    }
    *an_tensor_slot(cx, s->load.dst) = h;
}

/* A store at an index not known statically: every element may have
 * changed (a weak update), so the whole array becomes unknown; said when
 * it holds tensors or the store is one (host integers and pointers alone:
 * see weak_store_host). */
static void weak_store(an_ctx *cx, const ir_stmt *s, const ir_place *p, int bad_step,
                       const char *why)
{
    ir_place prefix = *p;
    an_loc l;
    prefix.n_steps = bad_step;
    bool found = an_place_loc(cx, &prefix, &l, NULL, NULL);
    if (found && s->store.kind != IR_VAR_TENSOR && !an_mem_holds_handles(cx, &l)) {
        an_mem_fill(cx, &l, false, s->loc.line, s->loc.col);
        return;
    }
    an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                "not followed: a store into '%s' at %s; every element is unknown from here, "
                "and totals that depend on them are bounds", p->text, why);
    an_mark_bound(cx);
    if (found)
        an_mem_fill(cx, &l, false, s->loc.line, s->loc.col);
}

/* A store of an integer or a pointer that may land on another element's
 * place (an index another index may name): the whole object, host memory
 * that holds no tensor, becomes unknown, a weak update with no note.
 * Nothing the analysis counts rests on it: a later read of it is a
 * run-time value (a symbol, as memory an unmodelled call wrote), and a
 * tensor reached through a pointer of it is not known, said where it is
 * read.  false: the object holds a tensor, and the caller says so. */
static bool weak_store_host(an_ctx *cx, const ir_stmt *s, const an_loc *l)
{
    if (s->store.kind == IR_VAR_TENSOR)
        return false;
    an_loc whole = *l;
    whole.n = 0;
    if (an_mem_holds_handles(cx, &whole))
        return false;
    an_mem_fill(cx, &whole, false, s->loc.line, s->loc.col);
    return true;
}

void an_exec_store(an_ctx *cx, const ir_stmt *s)
{
    an_loc l;
    an_cell c = {.kind = AN_CELL_INT};
    const char *why = NULL;
    int bad;
    int src = s->store.kind == IR_VAR_TENSOR ? an_tensor_of(cx, s->store.src) : AN_UNSET;
    switch (s->store.kind) {
    case IR_VAR_TENSOR:
        c = (an_cell){.kind = AN_CELL_TENSOR, .handle = src, .place = s->store.dst->text};
        break;
    case IR_VAR_INT: an_assign_int(cx, s->store.value, s->store.dst->text, &c.known, &c.i); break;
    case IR_VAR_OTHER: an_ptr_eval(cx, s->store.ptr, &c); break;
    }
    if (s->store.move && s->store.src >= 0) /* the temporary gives its handle to the place */
        *an_tensor_slot(cx, s->store.src) = AN_UNSET;
    if (!an_place_loc(cx, s->store.dst, &l, &bad, &why)) {
        if (bad >= 0)
            weak_store(cx, s, s->store.dst, bad, "an index not known statically");
        else
            place_not_followed(cx, s, s->store.dst, why, "a store into");
        return;
    }
    if (an_mem_may_alias(cx, &l)) { /* it may overwrite an element that another index names */
        if (weak_store_host(cx, s, &l))
            return;
        int last = -1;
        for (int k = 0; k < s->store.dst->n_steps; k++)
            if (s->store.dst->steps[k].kind == IR_STEP_INDEX)
                last = k;
        if (last >= 0)
            weak_store(cx, s, s->store.dst, last,
                       "an index that may name an element another index wrote");
        else
            place_not_followed(cx, s, s->store.dst, "an index that may be another's", "a store into");
        return;
    }
    int old = s->store.kind == IR_VAR_TENSOR ? an_mem_handle(cx, &l) : AN_UNSET;
    an_mem_write(cx, &l, &c);
    if (old != src)
        an_handle_dropped(cx, old, -1, s->loc.line, s->loc.col, "overwritten");
}

void an_exec_copy(an_ctx *cx, const ir_stmt *s)
{
    an_loc dst, src;
    const char *why = NULL;
    if (!an_place_loc(cx, s->copy.dst, &dst, NULL, &why)) {
        place_not_followed(cx, s, s->copy.dst, why, "a copy into");
        return;
    }
    if (!an_place_loc(cx, s->copy.src, &src, NULL, &why)) {
        place_not_followed(cx, s, s->copy.src, why, "a copy from");
        an_mem_fill(cx, &dst, false, s->loc.line, s->loc.col);
        return;
    }
    if (s->copy.arrays && dst.elem && src.elem) { /* memcpy of arrays from their first elements */
        if (dst.key[dst.n - 1] != 0 || src.key[src.n - 1] != 0) {
            place_not_followed(cx, s, s->copy.dst, "a copy between parts of arrays", "the bytes of");
            an_mem_fill(cx, &dst, false, s->loc.line, s->loc.col);
            return;
        }
        dst.n--;
        src.n--;
    }
    an_mem_copy(cx, &dst, &src, s->loc.line, s->loc.col);
    /* a temporary the front end made for a struct a call returned is dead
     * once copied: what it held is the destination's now */
    if (src.frame != AN_HEAP && src.frame != AN_RET && src.n == 0 && src.var >= 0 &&
        src.var < cx->u->n_vars && cx->u->vars[src.var].is_temp)
        an_mem_fill(cx, &src, true, s->loc.line, s->loc.col);
}

void an_exec_fill(an_ctx *cx, const ir_stmt *s)
{
    an_loc l;
    const char *why = NULL;
    if (!an_place_loc(cx, s->fill.dst, &l, NULL, &why)) {
        if (!s->fill.zero)
            return; /* an object the analysis never knew: nothing is lost */
        place_not_followed(cx, s, s->fill.dst, why, "a zeroing of");
        return;
    }
    if (!s->fill.zero && an_mem_holds_handles(cx, &l)) {
        an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                    "not followed: the tensors held in '%s' (%s); totals that depend on them "
                    "are bounds", s->fill.dst->text, s->fill.why ? s->fill.why : "not modelled");
        an_mark_bound(cx);
    }
    if (s->fill.zero) {
        an_mem_fill(cx, &l, true, s->loc.line, s->loc.col);
        return;
    }
    /* what a call wrote there: integers read from it are symbols named after
     * the place (config.dim) and the call (fread) */
    tl_xgrow(cx->mem.fills, &cx->mem.cap_fills, (size_t)cx->mem.n_fills + 1, 16);
    const char *by = s->fill.why ? strstr(s->fill.why, " by ") : NULL;
    char *origin = by ? tl_xasprintf("%.*s", (int)strcspn(by + 4, "( "), by + 4)
                       : an_strdup("run time"); /* freed with cx->mem.fills */
    const ir_place *dst = s->fill.dst;
    cx->mem.fills[cx->mem.n_fills] = (an_fill_src){
        .base = dst->text, .origin = origin, .line = s->loc.line, .col = s->loc.col,
        .deref = dst->n_steps > 0 && dst->steps[dst->n_steps - 1].kind == IR_STEP_DEREF,
        .data = s->fill.data};
    an_mem_fill_from(cx, &l, cx->mem.n_fills++, s->loc.line, s->loc.col);
    if (s->fill.data && l.n == 0 && l.frame != AN_HEAP && l.frame != AN_RET && l.var >= 0 &&
        cx->u->vars[l.var].kind == IR_VAR_INT) { /* an integer variable: its value now */
        an_cell v = {.kind = AN_CELL_INT};
        an_int_put(true, an_new_value_symbol(cx, dst->text, origin, s->loc.line, s->loc.col),
                   &v.known, &v.i);
        an_mem_write(cx, &l, &v);
    }
}
