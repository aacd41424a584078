/*
 * check_writes.c: the rules about writes that land somewhere the program
 * may not expect: an in-place update through a view that silently changes
 * a tensor read later (write-through-view), and tl_set on a tensor whose
 * stride-0 dims make many elements share one cell (expanded-element-write).
 *
 * In-place arithmetic (add_, sub_, mul_scalar_, the optimizer's lerp_,
 * addcmul_, addcdiv_, sqrt_, index_add_ ...) and tl_set read like updates
 * of a value; copy_, fill_, zero_ and out= forms say "write into this
 * destination" and are taken at their word.
 */
#include "check_internal.h"

#include <stdlib.h>

/* Read-modify-write calls: their first operand is read and written. */
static bool ck_is_update(mt_op op)
{
    switch (op) {
    case MT_OP_add_: case MT_OP_sub_: case MT_OP_mul_scalar_: case MT_OP_set: case MT_OP_mul_:
    case MT_OP_div_: case MT_OP_add_scalar_: case MT_OP_sqrt_: case MT_OP_addcmul_:
    case MT_OP_addcdiv_: case MT_OP_lerp_: case MT_OP_index_add_:
        return true;
    default:
        return false;
    }
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

/* Whether operand k of e only receives a write (copy_, fill_, zero_, an
 * out= destination, the set destination): its old contents are not read. */
static bool ck_only_written(const an_event *e, int k)
{
    return k == 0 && (e->op == MT_OP_copy_ || e->op == MT_OP_fill_ || e->op == MT_OP_zero_ ||
                      e->op == MT_OP_set || e->op == MT_OP_matmul_out ||
                      e->op == MT_OP_softmax_out);
}

/* Whether operand k of e writes every element it reaches with no regard
 * for their old contents (tl_set writes one element: no). */
static bool ck_resets(const an_event *e, int k)
{
    return ck_only_written(e, k) && e->op != MT_OP_set;
}

/* The elements [lo, hi] operand k of event e reached in that execution:
 * what that execution's layout reached (a view made in a loop, or by a
 * helper, is one value whose offset and shape move). */
static bool ck_event_span(const ck_ctx *cx, const an_event *e, int k, int64_t *lo, int64_t *hi)
{
    (void)cx;
    if (e->in_value[k] < 0 || e->in_offset[k] < 0 || e->in_reach[k] < -1)
        return false;
    *lo = e->in_offset[k];
    *hi = e->in_offset[k] + e->in_reach[k]; /* below lo when empty */
    return true;
}

/* Whether operand ka of event a and operand kb of event b may reach a
 * common element (spans not known: they may). */
static bool ck_may_meet(const ck_ctx *cx, const an_event *a, int ka, const an_event *b, int kb)
{
    int64_t al, ah, bl, bh;
    if (!ck_event_span(cx, a, ka, &al, &ah) || !ck_event_span(cx, b, kb, &bl, &bh))
        return true;
    return al <= bh && bl <= ah && al <= ah && bl <= bh;
}

static bool ck_made_as_buffer(const ck_ctx *cx, int s);

/* Whether operand ka of event a reaches every element operand kb of b reaches. */
static bool ck_covers(const ck_ctx *cx, const an_event *a, int ka, const an_event *b, int kb)
{
    int64_t al, ah, bl, bh;
    int s = a->in_storage[ka];
    /* the buffer that made the storage (zeros, empty, full: dense from its
     * start) reaches all of it, whether its spans are numbers or formulas */
    if (s >= 0 && b->in_storage[kb] == s && a->in_value[ka] >= 0 &&
        a->in_value[ka] == cx->r->storages[s].value && ck_made_as_buffer(cx, s))
        return true;
    if (!ck_event_span(cx, a, ka, &al, &ah) || !ck_event_span(cx, b, kb, &bl, &bh))
        return false;
    const an_value *v = &cx->r->values[a->in_value[ka]];
    return al <= bl && bh <= ah && mt_is_non_overlapping_and_dense(&v->l);
}

/* Whether event e reads storage s through operand j (not a write-only destination). */
static bool ck_reads(const an_event *e, int j, int s)
{
    return e->in_storage[j] == s && e->in_value[j] >= 0 && !ck_only_written(e, j);
}

/* A storage made by zeros, empty or full: a buffer to be filled, whose
 * first contents nobody expects to keep. */
static bool ck_made_as_buffer(const ck_ctx *cx, int s)
{
    const an_storage *st = &cx->r->storages[s];
    mt_op made = st->value >= 0 ? cx->r->values[st->value].op : MT_N_OPS;
    return made == MT_OP_zeros || made == MT_OP_empty || made == MT_OP_full;
}

/* Whether reset event r's operand 0 may reach every element write event
 * w's operand 0 writes where their spans are formulas (a loop summarised
 * over sizes read at run time: `k = tl_select(cache, 0, pos);
 * tl_matmul_out(k, ...); rope(k)`): in the same pass (w's call site did not
 * write that storage between them), the reset is taken to cover the write.  The check
 * cannot compare the spans, and a warning it cannot stand by is not given. */
static bool ck_covers_unknown(const ck_ctx *cx, int64_t r, int64_t w)
{
    const an_event *re = ck_event(cx, r), *we = ck_event(cx, w);
    int64_t lo, hi;
    if (re->in_value[0] < 0 || we->in_value[0] < 0 ||
        (ck_event_span(cx, re, 0, &lo, &hi) && ck_event_span(cx, we, 0, &lo, &hi)))
        return false; /* (spans that are numbers: ck_covers) */
    for (int64_t k = r + 1; k < w; k++) {
        const an_event *e = ck_event(cx, k);
        if (e->func == we->func && e->line == we->line && e->col == we->col && e->n_in > 0 &&
            e->in_storage[0] == we->in_storage[0])
            return false;
    }
    return true;
}

/* The last event before w on storage s that overwrote, without reading,
 * every element w's operand 0 writes (copy_, fill_, zero_, an out=), or -1. */
static int64_t ck_last_reset(const ck_ctx *cx, int64_t w, int s)
{
    const an_event *we = ck_event(cx, w);
    int64_t n = ck_list_len(&cx->storage_uses, s), last = -1;
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n && uses[k] < w; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (e->kind == AN_EV_CALL && e->n_in > 0 && e->in_storage[0] == s && ck_resets(e, 0) &&
            (ck_covers(cx, e, 0, we, 0) || ck_covers_unknown(cx, uses[k], w)))
            last = uses[k];
    }
    return last;
}

/* Whether event a's call stands before event b's in the source: a read
 * by it after b ran is a later iteration of a loop around both. */
static bool ck_stands_before(const an_event *a, const an_event *b)
{
    return a->line < b->line || (a->line == b->line && a->col < b->col);
}

/* Whether write event we, through view t of the value that made storage s,
 * reached every element handle u (that value or a view of it) reads at
 * event re: the tensor was changed whole through its own alias (a
 * flattened view of a gradient written in place), and what u reads is what
 * the program wrote on purpose. */
static bool ck_whole_alias_write(const ck_ctx *cx, const an_event *we, int s, int t, int u,
                                 const an_event *re)
{
    int made = cx->r->storages[s].value;
    if (made < 0 || t == made || !ck_descends(cx, t, made) || !ck_descends(cx, u, made))
        return false;
    for (int j = 0; j < re->n_in && j < AN_EV_MAX_IN; j++)
        if (re->in_value[j] == u && !ck_covers(cx, we, 0, re, j))
            return false;
    return true;
}

/* Whether handle u, reading at event re after write w (through view t, on
 * storage s), still expects the contents w overwrote.  With no reset of
 * them since the storage was made: when they are the data it was made with
 * (randn, a copy, a result; not a buffer made to be filled).  Otherwise:
 * when u (or the tensor it views) put them there (copy_ or out= through
 * it: a fill_ or zero_ only clears) or read them after their reset and
 * before w, and reads them again later in the same pass, not at a call
 * that stands before the write (a later iteration of a loop that carries
 * its state: parameters, moments, caches are updated to be read so).  When
 * the handle that put them there wrote them again through a view of itself
 * (its alias, reshaped to be written), nobody expects the old contents;
 * nor when the tensor that made them was written through its alias over
 * every element the reader reads. */
static bool ck_expects_old(const ck_ctx *cx, int64_t w, int s, int t, int u, const an_event *re)
{
    const an_event *we = ck_event(cx, w);
    int64_t reset = ck_last_reset(cx, w, s);
    if (reset < 0 && ck_whole_alias_write(cx, we, s, t, u, re))
        return false;
    if (reset < 0 && !ck_made_as_buffer(cx, s))
        return true;
    if (ck_stands_before(re, we))
        return false; /* a later iteration */
    if (reset >= 0) {
        const an_event *z = ck_event(cx, reset);
        int owner = z->in_value[0];
        if (owner >= 0 && ck_descends(cx, t, owner))
            return false; /* the handle that put them there changed them, through its alias */
        if (z->op != MT_OP_fill_ && z->op != MT_OP_zero_ && owner >= 0 && ck_descends(cx, u, owner))
            return true;
    }
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n && uses[k] < w; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (uses[k] <= reset || (e->value >= 0 && e->storage == s))
            continue; /* before the reset, or only makes a view */
        for (int j = 0; j < e->n_in && j < AN_EV_MAX_IN; j++) {
            int v = e->in_value[j];
            if (ck_reads(e, j, s) && !(j == 0 && ck_is_update(e->op)) && !ck_descends(cx, v, t) &&
                ck_descends(cx, u, v) && ck_may_meet(cx, e, j, we, 0))
                return true; /* u, or a tensor u views, read them (accumulating is no read) */
        }
    }
    return false;
}

/* The first read after write event w (through view t, on storage s) of
 * elements w wrote, through a handle other than t and its own views, that
 * still expects the old contents; its event index, the handle in *reader. */
static int64_t ck_later_read(const ck_ctx *cx, int64_t w, int s, int t, int *reader)
{
    const an_event *we = ck_event(cx, w);
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (uses[k] <= w || (e->value >= 0 && e->storage == s))
            continue; /* earlier, or only makes a view */
        if (e->kind == AN_EV_CALL && e->n_in > 0 && e->in_storage[0] == s && ck_resets(e, 0) &&
            ck_covers(cx, e, 0, we, 0))
            return -1; /* overwritten before anyone read the change */
        for (int j = 0; j < e->n_in && j < AN_EV_MAX_IN; j++) {
            int u = e->in_value[j];
            if (ck_reads(e, j, s) && !ck_descends(cx, u, t) && ck_may_meet(cx, e, j, we, 0) &&
                ck_expects_old(cx, w, s, t, u, e)) {
                *reader = u;
                return uses[k];
            }
        }
    }
    return -1;
}

/* A read, after write event w through view t, of elements that write
 * changed, through t itself or its views, by a call that stands before
 * the write in the source, after the write's call site ran again (again,
 * the event of its next execution): so a later iteration of the loop
 * around both.
 * Accumulating into the same destination again is not such a read, nor a
 * read of contents reset in between.  Its event index, or -1. */
static int64_t ck_later_self_read(const ck_ctx *cx, int64_t w, int64_t again, int s, int t)
{
    int64_t wl, wh, rl, rh;
    const an_event *we = ck_event(cx, w);
    if (again < 0 || !ck_event_span(cx, we, 0, &wl, &wh))
        return -1;
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (uses[k] <= w || (e->value >= 0 && e->storage == s))
            continue;
        if (e->kind == AN_EV_CALL && e->n_in > 0 && e->in_storage[0] == s && ck_resets(e, 0) &&
            ck_covers(cx, e, 0, we, 0))
            return -1; /* overwritten before the next read */
        if (uses[k] <= again || !ck_stands_before(e, we))
            continue; /* the same pass as the write (a helper defined above is no loop) */
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

static void ck_report_write(ck_ctx *cx, const an_event *e, int s, int t, int reader,
                            const an_event *read, bool later_iteration)
{
    const an_value *view = &cx->r->values[t];
    int made = cx->r->storages[s].value; /* the storage written: the view's of this execution */
    char *vl = ck_value_label(cx, t), *base = ck_value_label(cx, made >= 0 ? made
                                                                           : ck_view_root(cx, t));
    char *rl = ck_value_label(cx, reader), *at = ck_line_text(cx, read->line);
    an_diag *d = ck_diag_add(cx, CK_write_through_view, e->line, e->col,
                             later_iteration
                                 ? "tl_%s writes through %s, a view of %s: the changed elements "
                                   "are read again through %s at line %s in a later iteration"
                                 : "tl_%s writes through %s, a view of %s: %s is read again at "
                                   "line %s and sees the change",
                             mt_ops[e->op].name, vl, base, rl, at);
    free(at);
    ck_note(d, view->line, view->col, "tl_%s makes a view that shares the storage, not a copy; "
            "clone it if the change must stay local", mt_ops[view->op].name);
    ck_note(d, read->line, read->col, "read here, after the write");
    free(vl);
    free(base);
    free(rl);
}

/* The event of the next execution of write pick k's call site, or -1. */
static int64_t ck_next_same_site(const ck_ctx *cx, int64_t k)
{
    const an_event *e = ck_event(cx, cx->picks[CK_PICK_WRITE][k]);
    for (int64_t n = k + 1; n < cx->n_picks[CK_PICK_WRITE]; n++) {
        const an_event *f = ck_event(cx, cx->picks[CK_PICK_WRITE][n]);
        if (f->func == e->func && f->line == e->line && f->col == e->col)
            return cx->picks[CK_PICK_WRITE][n];
    }
    return -1;
}

/* An in-place update (add_, sub_, mul_scalar_, the optimizer's lerp_,
 * addcmul_ ..., tl_set) through a view writes the storage the view shares.
 * It warns when a handle that still expects the overwritten contents reads
 * them afterwards: one that read them before the write (since they were
 * last reset by a copy_, fill_, zero_ or out= write), or any other handle
 * when they are the data the storage was made with (the seed's
 * `x = batch[i]; x -= x.mean()` that changes batch for the next epoch).  A
 * buffer made to be filled (zeros, empty, full) and written through views
 * (an arena's activations and gradients) is read as what was written.
 * Regions are compared per execution: slices of one arena that do not
 * overlap never meet.  The loop-carried case: the same view, in a later
 * iteration, reads elements an earlier one changed. */
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
        if (j >= 0) {
            ck_report_write(cx, e, s, t, reader, ck_event(cx, j), false);
            continue;
        }
        j = ck_later_self_read(cx, i, ck_next_same_site(cx, k), s, t);
        if (j >= 0)
            ck_report_write(cx, e, s, t, t, ck_event(cx, j), true);
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
