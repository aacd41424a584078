/*
 * check_writes.c: the rules about writes that land somewhere the program
 * may not expect: an in-place update through a view that silently changes
 * a tensor read later (write-through-view), and tl_set on a tensor whose
 * stride-0 dims make many elements share one cell (expanded-element-write).
 *
 * In-place arithmetic (add_, sub_, mul_scalar_) and tl_set read like
 * updates of a value; copy_, fill_ and zero_ say "write into this
 * destination" and are taken at their word.
 */
#include "check_internal.h"

#include <stdlib.h>

static bool ck_is_update(mt_op op)
{
    return op == MT_OP_add_ || op == MT_OP_sub_ || op == MT_OP_mul_scalar_ || op == MT_OP_set;
}

/* Whether value u is t or a view made (directly or not) from t. */
static bool ck_descends(const ck_ctx *cx, int u, int t)
{
    for (int steps = 0; u >= 0 && steps < cx->r->n_values; steps++) {
        if (u == t)
            return true;
        if (cx->r->values[u].kind != MT_KIND_VIEW)
            return false;
        u = cx->r->values[u].view_of;
    }
    return false;
}

/* Whether operand k of e only receives a write (copy_, fill_, zero_, set destination). */
static bool ck_only_written(const an_event *e, int k)
{
    return k == 0 && (e->op == MT_OP_copy_ || e->op == MT_OP_fill_ || e->op == MT_OP_zero_ ||
                      e->op == MT_OP_set);
}

/* The elements [lo, hi] of its storage a layout can reach. */
static void ck_span_of(const mt_layout *l, int64_t *lo, int64_t *hi)
{
    *lo = *hi = l->offset;
    for (int d = 0; d < l->ndim; d++) {
        if (l->shape[d] == 0) {
            *hi = *lo - 1; /* empty */
            return;
        }
        int64_t reach = (l->shape[d] - 1) * l->strides[d];
        if (reach < 0)
            *lo += reach;
        else
            *hi += reach;
    }
}

/* Whether the elements values a and b reach may overlap (unknown layouts do). */
static bool ck_may_overlap(const ck_ctx *cx, int a, int b)
{
    const an_value *x = &cx->r->values[a], *y = &cx->r->values[b];
    int64_t xl, xh, yl, yh;
    if (!x->known || !y->known)
        return true;
    ck_span_of(&x->l, &xl, &xh);
    ck_span_of(&y->l, &yl, &yh);
    return xl <= yh && yl <= xh && xl <= xh && yl <= yh;
}

/* The first read after event w of storage s, through a handle other than
 * view t and its own views that reaches the elements t reaches; its event
 * index, the handle in *reader. */
static int64_t ck_later_read(const ck_ctx *cx, int64_t w, int s, int t, int *reader)
{
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (uses[k] <= w || (e->value >= 0 && e->storage == s))
            continue; /* earlier, or only makes a view */
        for (int j = 0; j < e->n_in && j < AN_EV_MAX_IN; j++) {
            int u = e->in_value[j];
            if (e->in_storage[j] == s && u >= 0 && !ck_descends(cx, u, t) &&
                !ck_only_written(e, j) && ck_may_overlap(cx, u, t)) {
                *reader = u;
                return uses[k];
            }
        }
    }
    return -1;
}

/* The elements [lo, hi] operand k of event e reached in that execution:
 * its value's shape and strides at the event's own offset. */
static bool ck_event_span(const ck_ctx *cx, const an_event *e, int k, int64_t *lo, int64_t *hi)
{
    const an_value *v = &cx->r->values[e->in_value[k]];
    if (!v->known || e->in_offset[k] < 0)
        return false;
    mt_layout l = v->l;
    l.offset = e->in_offset[k];
    ck_span_of(&l, lo, hi);
    return *lo <= *hi;
}

/* A storage made to be written into (zeros, empty, full) whose contents
 * nothing read before write event w, other than through view t and its own
 * views: an output buffer being filled or accumulated into, not data
 * being changed under a reader. */
static bool ck_fresh_buffer(const ck_ctx *cx, int64_t w, int s, int t)
{
    const an_storage *st = &cx->r->storages[s];
    mt_op made = st->value >= 0 ? cx->r->values[st->value].op : MT_N_OPS;
    if (made != MT_OP_zeros && made != MT_OP_empty && made != MT_OP_full)
        return false;
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n && uses[k] < w; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (e->value >= 0 && e->storage == s)
            continue; /* makes a view */
        for (int j = 0; j < e->n_in && j < AN_EV_MAX_IN; j++)
            if (e->in_storage[j] == s && !ck_only_written(e, j) && !(j == 0 && ck_is_update(e->op)) &&
                (e->in_value[j] < 0 || !ck_descends(cx, e->in_value[j], t)))
                return false; /* read as data (accumulating into it is not) */
    }
    return true;
}

/* A read, after write event w through view t, of elements that write
 * changed, through t itself or its views, by a call that stands before
 * the write in the source: so a later iteration of the loop around both.
 * Accumulating into the same destination again is not such a read.  Its
 * event index, or -1. */
static int64_t ck_later_self_read(const ck_ctx *cx, int64_t w, int s, int t)
{
    int64_t wl, wh, rl, rh;
    const an_event *we = ck_event(cx, w);
    if (!ck_event_span(cx, we, 0, &wl, &wh))
        return -1;
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (uses[k] <= w || (e->value >= 0 && e->storage == s) || e->line > we->line ||
            (e->line == we->line && e->col >= we->col))
            continue;
        for (int j = 0; j < e->n_in && j < AN_EV_MAX_IN; j++) {
            int u = e->in_value[j];
            if (e->in_storage[j] != s || u < 0 || !ck_descends(cx, u, t) || ck_only_written(e, j) ||
                (j == 0 && ck_is_update(e->op)) || !ck_event_span(cx, e, j, &rl, &rh))
                continue;
            if (rl <= wh && wl <= rh)
                return uses[k];
        }
    }
    return -1;
}

static void ck_report_write(ck_ctx *cx, const an_event *e, int t, int reader, const an_event *read,
                            bool later_iteration)
{
    const an_value *view = &cx->r->values[t];
    char *vl = ck_value_label(cx, t), *base = ck_value_label(cx, ck_view_root(cx, t));
    char *rl = ck_value_label(cx, reader);
    an_diag *d = ck_diag_add(cx, CK_write_through_view, e->line, e->col,
                             later_iteration
                                 ? "tl_%s writes through %s, a view of %s: the changed elements "
                                   "are read again through %s at line %d in a later iteration"
                                 : "tl_%s writes through %s, a view of %s: %s is read again at "
                                   "line %d and sees the change",
                             mt_ops[e->op].name, vl, base, rl, read->line);
    ck_note(d, view->line, view->col, "tl_%s makes a view that shares the storage, not a copy; "
            "clone it if the change must stay local", mt_ops[view->op].name);
    ck_note(d, read->line, read->col, "read here, after the write");
    free(vl);
    free(base);
    free(rl);
}

/* An in-place update (add_, sub_, mul_scalar_, tl_set) through a view
 * writes the storage the view shares: when the base, or another view of
 * it, is read afterwards, that read sees the change (the seed's
 * `x = batch[i]; x -= x.mean()` that changes batch for the next epoch).
 * A buffer made to be filled (zeros, empty) and read only after the
 * writes is an output, not a changed input.  The loop-carried case: the
 * same view, in a later iteration, reads elements an earlier one changed. */
void ck_rule_write_through_view(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int64_t k = 0; k < cx->n_picks[CK_PICK_WRITE]; k++) {
        int64_t i = cx->picks[CK_PICK_WRITE][k];
        const an_event *e = ck_event(cx, i);
        int t = e->n_in > 0 ? e->in_value[0] : -1, s = e->n_in > 0 ? e->in_storage[0] : -1;
        if (e->kind != AN_EV_CALL || !ck_is_update(e->op) || t < 0 || s < 0 ||
            r->values[t].kind != MT_KIND_VIEW || r->storages[s].discarded)
            continue;
        int reader = -1;
        int64_t j = ck_later_read(cx, i, s, t, &reader);
        if (j >= 0 && !ck_fresh_buffer(cx, i, s, t)) {
            ck_report_write(cx, e, t, reader, ck_event(cx, j), false);
            continue;
        }
        j = ck_later_self_read(cx, i, s, t);
        if (j >= 0)
            ck_report_write(cx, e, t, t, ck_event(cx, j), true);
    }
}

/* tl_set on a tensor with a stride-0 dim of size > 1 writes the one cell
 * that every element along the broadcast dims maps to (PyTorch's
 * `e[0, 0] = 5` on an expanded tensor): product of those sizes elements
 * change at once. */
void ck_rule_expanded_element_write(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int64_t k = 0; k < cx->n_picks[CK_PICK_WRITE]; k++) {
        const an_event *e = ck_event(cx, cx->picks[CK_PICK_WRITE][k]);
        int t = e->n_in > 0 ? e->in_value[0] : -1;
        if (e->kind != AN_EV_CALL || e->op != MT_OP_set || t < 0 || !r->values[t].known ||
            !mt_has_internal_overlap(&r->values[t].l))
            continue;
        char *label = ck_value_label(cx, t);
        an_diag *d = ck_diag_add(cx, CK_expanded_element_write, e->line, e->col,
                                 "tl_set writes one cell that %lld logical elements of %s share "
                                 "(its stride-0 dims): all of them change",
                                 (long long)ck_broadcast_factor(&r->values[t].l), label);
        int cause = ck_broadcast_cause(cx, t);
        if (cause >= 0)
            ck_note(d, r->values[cause].line, r->values[cause].col,
                    "the stride-0 dims come from tl_%s here; clone it to write one element",
                    mt_ops[r->values[cause].op].name);
        free(label);
    }
}
