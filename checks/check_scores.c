/*
 * check_scores.c: attention scores computed at full size in every step of
 * a decoding loop (scores-full-size-in-loop).
 *
 * A decoder that generates one token per step has, at step pos, keys for
 * positions 0..pos only: the rest of its key cache (or of its token
 * buffer) is not written yet.  The scores it needs grow with the step.  The
 * mistake is a score matmul that reads the whole buffer at every step: the
 * same full-size result each time, most of it for positions that hold
 * nothing yet, masked away or cut off afterwards.
 *
 * Everything is read off the event log.  A matmul (or matmul_out) site is
 * reported when
 *   1. it ran at least twice, and every execution made a result of the same
 *      bytes and moved the same bytes (the work does not grow with the step);
 *   2. it computes attention scores: after its first execution, and before
 *      its second, its result reaches a tl_softmax (through at most
 *      CK_MAX_HOPS calls: scaling, masking, views) whose probabilities reach
 *      an operand of a matmul (the attention's context);
 *   3. in at least two executions, and in at least half of them, it reads
 *      ahead of a buffer the loop fills: one of its operands, or an operand
 *      of a call made since its previous execution that its operands come
 *      from, covers a storage that
 *        - an in-place call wrote since the previous execution, at elements
 *          no earlier call had written (the loop fills it as it goes) and
 *          within the region read, and
 *        - still has elements in the region read that no call has written.
 *
 * Regions are hulls in elements: [offset, offset + extent) of the handle's
 * layout at its first execution, with the offset of this execution.  A write
 * whose region is not known covers the whole storage and is never "new", so
 * what is unknown keeps the rule quiet.  A training loop reads whole batches
 * that no step fills; a decoder that attends over positions 0..pos reads
 * only what is written, and its scores grow; cross-attention reads a memory
 * that is whole before the loop; a ring-buffer cache is full after its
 * first turn: none of them is reported.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    CK_MAX_HOPS = 6,     /* calls followed from the scores to the softmax, and on to a matmul */
    CK_MAX_DEPTH = 8,    /* calls followed back from the matmul's operands */
    CK_MAX_VISITS = 64   /* calls looked at per execution when following back */
};

typedef struct ck_extent {
    int64_t lo, hi;      /* elements: [lo, hi) of a storage */
} ck_extent;

typedef struct ck_cover {  /* elements of one storage written: sorted, disjoint, apart */
    int64_t n, cap;
    ck_extent *iv;
    bool all;            /* a write of a region not known: any element may be written */
} ck_cover;

typedef struct ck_write {
    int storage;
    int64_t event;
    bool known;          /* ext is the region written; else it may be any */
    bool fresh;          /* it wrote elements that no earlier write had written */
    ck_extent ext;
} ck_write;

typedef struct ck_cursor {  /* a storage's writes applied up to some event */
    int64_t next;        /* index in ck_writes.w of the next write to apply */
    ck_cover cover;
} ck_cursor;

typedef struct ck_writes {  /* every in-place write, by storage, then in log order */
    int64_t n;
    ck_write *w;
    ck_cursor **cursor;  /* per storage, made on first use */
    int n_storages;
} ck_writes;

typedef struct ck_ahead {   /* what one execution reads ahead of */
    int storage;
    int64_t write;       /* a write that filled part of the region read, since the last run */
    int64_t unwritten;   /* elements of the region read that no call has written */
    int64_t read;        /* elements of the region read */
    int64_t reader;      /* the call that reads it: the matmul, or one its operands come from */
    bool direct;         /* the reader is the matmul */
} ck_ahead;

static bool ck_is_matmul(mt_op op) { return op == MT_OP_matmul || op == MT_OP_matmul_out; }

static bool ck_is_softmax(mt_op op) { return op == MT_OP_softmax || op == MT_OP_softmax_out; }

/* The first operand read as an input: an in-place or out= call's operand 0
 * is the tensor it writes. */
static int ck_first_read(const an_event *e) { return mt_ops[e->op].family == MT_INPLACE; }

static int ck_n_read(const an_event *e) { return e->n_in < AN_EV_MAX_IN ? e->n_in : AN_EV_MAX_IN; }

/* The hull of the elements a handle made by value reaches at offset. */
static bool ck_extent_of(const ck_ctx *cx, int value, int64_t offset, ck_extent *out)
{
    if (value < 0 || value >= cx->r->n_values || offset < 0)
        return false;
    const an_value *v = &cx->r->values[value];
    if (!v->known || v->error)
        return false;
    int64_t span = 1;
    for (int d = 0; d < v->l.ndim; d++) {
        if (v->l.shape[d] == 0 || v->l.strides[d] < 0)
            return false;
        span += (v->l.shape[d] - 1) * v->l.strides[d];
    }
    *out = (ck_extent){offset, offset + span};
    return true;
}

/* Elements of x that cover c does not hold. */
static int64_t ck_cover_gaps(const ck_cover *c, ck_extent x)
{
    if (c->all)
        return 0;
    int64_t lo = 0, hi = c->n, gaps = 0, cur = x.lo;
    while (lo < hi) { /* the first interval ending after x.lo */
        int64_t mid = lo + (hi - lo) / 2;
        if (c->iv[mid].hi <= x.lo)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int64_t k = lo; k < c->n && cur < x.hi && c->iv[k].lo < x.hi; k++) {
        if (c->iv[k].lo > cur)
            gaps += c->iv[k].lo - cur;
        cur = c->iv[k].hi;
    }
    return cur < x.hi ? gaps + x.hi - cur : gaps;
}

/* Add x to c, merging the intervals it touches. */
static void ck_cover_add(ck_cover *c, ck_extent x)
{
    int64_t k = 0, j;
    while (k < c->n && c->iv[k].hi < x.lo)
        k++;
    for (j = k; j < c->n && c->iv[j].lo <= x.hi; j++) {
        x.lo = c->iv[j].lo < x.lo ? c->iv[j].lo : x.lo;
        x.hi = c->iv[j].hi > x.hi ? c->iv[j].hi : x.hi;
    }
    if (j == k) /* nothing merged: one more interval */
        tl_xgrow(c->iv, &c->cap, (size_t)c->n + 1, 8);
    memmove(c->iv + k + 1, c->iv + j, sizeof *c->iv * (size_t)(c->n - j));
    c->iv[k] = x;
    c->n += k + 1 - j;
}

static void ck_cover_apply(ck_cover *c, const ck_write *w)
{
    if (w->known)
        ck_cover_add(c, w->ext);
    else
        c->all = true;
}

static int ck_cmp_write(const void *a, const void *b)
{
    const ck_write *x = a, *y = b;
    if (x->storage != y->storage)
        return x->storage < y->storage ? -1 : 1;
    return x->event < y->event ? -1 : x->event > y->event;
}

/* Every write of the log, each marked fresh or not. */
static ck_writes ck_writes_collect(const ck_ctx *cx)
{
    int64_t n = cx->n_picks[CK_PICK_WRITE];
    ck_writes ws = {.w = tl_xcalloc((size_t)n + 1, sizeof(ck_write)),
                    .cursor = tl_xcalloc((size_t)cx->r->n_storages + 1, sizeof(ck_cursor *)),
                    .n_storages = cx->r->n_storages};
    for (int64_t k = 0; k < n; k++) {
        int64_t i = cx->picks[CK_PICK_WRITE][k];
        const an_event *e = ck_event(cx, i);
        if (e->storage < 0 || e->storage >= cx->r->n_storages || e->error)
            continue;
        ck_write *w = &ws.w[ws.n++];
        *w = (ck_write){.storage = e->storage, .event = i};
        w->known = e->n_in > 0 && ck_extent_of(cx, e->in_value[0], e->in_offset[0], &w->ext);
    }
    qsort(ws.w, (size_t)ws.n, sizeof *ws.w, ck_cmp_write);
    ck_cover c = {0};
    for (int64_t k = 0; k < ws.n; k++) {
        if (k == 0 || ws.w[k].storage != ws.w[k - 1].storage) {
            c.n = 0;
            c.all = false;
        }
        ws.w[k].fresh = ws.w[k].known && ck_cover_gaps(&c, ws.w[k].ext) > 0;
        ck_cover_apply(&c, &ws.w[k]);
    }
    free(c.iv);
    return ws;
}

static void ck_writes_free(ck_writes *ws)
{
    for (int s = 0; ws->cursor && s < ws->n_storages; s++)
        if (ws->cursor[s]) {
            free(ws->cursor[s]->cover.iv);
            free(ws->cursor[s]);
        }
    free(ws->cursor);
    free(ws->w);
}

/* The index of the first write of storage s at or after event from (ws->n: none). */
static int64_t ck_writes_from(const ck_writes *ws, int s, int64_t from)
{
    int64_t lo = 0, hi = ws->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        const ck_write *w = &ws->w[mid];
        if (w->storage < s || (w->storage == s && w->event < from))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Elements of x that no write of storage s before event at has written.  A
 * cursor per storage replays its writes; the queries mostly come in the
 * order of the log, and one that goes back starts the replay over. */
static int64_t ck_unwritten(ck_writes *ws, int s, int64_t at, ck_extent x)
{
    ck_cursor *c = ws->cursor[s];
    int64_t first = ck_writes_from(ws, s, 0);
    if (!c) {
        c = ws->cursor[s] = tl_xcalloc(1, sizeof *c);
        c->next = first;
    }
    if (c->next > first && ws->w[c->next - 1].event >= at) {
        c->next = first;
        c->cover.n = 0;
        c->cover.all = false;
    }
    for (; c->next < ws->n && ws->w[c->next].storage == s && ws->w[c->next].event < at;
         c->next++)
        ck_cover_apply(&c->cover, &ws->w[c->next]);
    return ck_cover_gaps(&c->cover, x);
}

/* Whether an unknown branch in events (lo, hi) has an arm the log does not
 * follow that writes in place: a write the rule would not see. */
static bool ck_alt_writes_between(const ck_ctx *cx, int64_t lo, int64_t hi)
{
    const an_report *r = cx->r;
    for (int k = 0; k < r->n_alts; k++) {
        const an_alt *a = &r->alts[k];
        if (a->at <= lo || a->at >= hi)
            continue;
        for (int64_t i = a->first; i < a->first + a->len && i < r->n_alt_events; i++)
            if (r->alt_events[i].kind == AN_EV_CALL && ck_op_writes(r->alt_events[i].op))
                return true;
    }
    return false;
}

/* Region x of storage s, read at event at: whether a write since event lo
 * filled new elements inside it while part of it is still unwritten. */
static bool ck_reads_ahead_of(ck_writes *ws, int s, ck_extent x, int64_t lo, int64_t at,
                              ck_ahead *out)
{
    for (int64_t k = ck_writes_from(ws, s, lo + 1);
         k < ws->n && ws->w[k].storage == s && ws->w[k].event < at; k++) {
        const ck_write *w = &ws->w[k];
        if (!w->fresh || w->ext.hi <= x.lo || w->ext.lo >= x.hi)
            continue;
        int64_t gaps = ck_unwritten(ws, s, at, x);
        if (gaps == 0)
            return false;
        *out = (ck_ahead){.storage = s, .write = w->event, .unwritten = gaps,
                          .read = x.hi - x.lo, .reader = at};
        return true;
    }
    return false;
}

typedef struct ck_back {    /* following one execution's operands back */
    const ck_ctx *cx;
    ck_writes *ws;
    int64_t lo;          /* the previous execution of the site, or -1 */
    int visits;
} ck_back;

/* Whether call e (at event at) reads ahead of a buffer the loop fills, itself
 * or through the calls since b->lo that made its operands. */
static bool ck_back_reads_ahead(ck_back *b, const an_event *e, int64_t at, int depth,
                                ck_ahead *out)
{
    const ck_ctx *cx = b->cx;
    for (int k = ck_first_read(e); k < ck_n_read(e); k++) {
        int s = e->in_storage[k];
        ck_extent x;
        if (s < 0 || s >= cx->r->n_storages || b->visits++ > CK_MAX_VISITS)
            continue;
        if (ck_extent_of(cx, e->in_value[k], e->in_offset[k], &x) &&
            ck_reads_ahead_of(b->ws, s, x, b->lo, at, out)) {
            out->direct = depth == 0;
            return true;
        }
        int64_t made = cx->storage_event[s];
        if (depth < CK_MAX_DEPTH && made > b->lo && made < at &&
            ck_back_reads_ahead(b, ck_event(cx, made), made, depth + 1, out))
            return true;
    }
    return false;
}

/* Whether a call keeps each score where it was: views, copies and casts,
 * elementwise scaling and masking (not a matmul, a reduction or a gather). */
static bool ck_keeps_positions(mt_op op)
{
    switch (mt_ops[op].family) {
    case MT_VIEW: case MT_VIEW_OR_COPY:
        return true;
    default:
        break;
    }
    switch (op) {
    case MT_OP_clone: case MT_OP_add: case MT_OP_sub: case MT_OP_mul: case MT_OP_div:
    case MT_OP_add_scalar: case MT_OP_mul_scalar: case MT_OP_div_scalar: case MT_OP_neg:
    case MT_OP_tanh: case MT_OP_pow_scalar: case MT_OP_maximum: case MT_OP_minimum:
    case MT_OP_where: case MT_OP_masked_fill: case MT_OP_triu: case MT_OP_tril:
        return true;
    default:
        return false;
    }
}

/* The storage a call's result is in: a new one, or an out= form's out. */
static int ck_result_storage(const an_event *e) { return e->storage; }

/* Whether a call of op (ck_is_softmax or ck_is_matmul) reads storage s, directly or
 * through at most hops calls that keep the positions (each making a new
 * storage from the last), in events (from, to); its event, or -1.  Views
 * share the storage, so a use through a view is a use of s. */
static int64_t ck_flows_to(const ck_ctx *cx, int s, int64_t from, int64_t to,
                           bool (*op)(mt_op), int hops)
{
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n; k++) {
        int64_t i = uses[k];
        const an_event *u = ck_event(cx, i);
        bool reads = false;
        if (i <= from || i >= to)
            continue;
        for (int j = ck_first_read(u); j < ck_n_read(u) && !reads; j++)
            reads = u->in_storage[j] == s;
        if (!reads)
            continue;
        if (op(u->op))
            return i;
        int t = ck_result_storage(u);
        if (hops > 0 && ck_keeps_positions(u->op) && u->value >= 0 && t >= 0 && t != s &&
            cx->storage_event[t] == i) {
            int64_t found = ck_flows_to(cx, t, i, to, op, hops - 1);
            if (found >= 0)
                return found;
        }
    }
    return -1;
}

/* Condition 2: the result of execution at is softmaxed, and the
 * probabilities weight something in a matmul, before event to. */
static int64_t ck_attention_softmax(const ck_ctx *cx, int64_t at, int64_t to)
{
    int s = ck_result_storage(ck_event(cx, at));
    int64_t sm = ck_flows_to(cx, s, at, to, ck_is_softmax, CK_MAX_HOPS);
    if (sm < 0)
        return -1;
    int p = ck_result_storage(ck_event(cx, sm));
    return ck_flows_to(cx, p, sm, to, ck_is_matmul, CK_MAX_HOPS) >= 0 ? sm : -1;
}

/* Condition 1: every execution made the same bytes and moved the same bytes. */
static bool ck_fixed_size(const ck_ctx *cx, const int64_t *ev, int64_t n)
{
    const an_event *first = ck_event(cx, ev[0]);
    if (first->storage < 0 || first->storage >= cx->r->n_storages)
        return false;
    int64_t bytes = cx->r->storages[first->storage].nbytes;
    for (int64_t j = 0; j < n; j++) {
        const an_event *e = ck_event(cx, ev[j]);
        if (e->error || e->poison || e->resized || e->storage < 0 ||
            cx->r->storages[e->storage].nbytes != bytes || e->moved_bytes != first->moved_bytes)
            return false;
    }
    return bytes > 0 && first->moved_bytes > 0;
}

typedef struct ck_site {
    int64_t *ev;         /* its executions, in order */
    int64_t n;
} ck_site;

/* The value whose layout the site's result has: the matmul's, or the out's. */
static int ck_result_value(const an_event *e)
{
    return e->op == MT_OP_matmul_out ? (e->n_in > 0 ? e->in_value[0] : -1) : e->value;
}

/* "nothing allocated, 2 KiB moved per step, 32 KiB in all" */
static char *ck_step_cost(int64_t alloc, int64_t moved, int64_t n)
{
    if (alloc <= 0)
        return tl_xasprintf("nothing allocated, %s moved per step, %s in all", ck_bytes(moved).s,
                            ck_bytes(moved * n).s);
    return tl_xasprintf("%s allocated and %s moved per step, %s and %s in all", ck_bytes(alloc).s,
                        ck_bytes(moved).s, ck_bytes(alloc * n).s, ck_bytes(moved * n).s);
}

static void ck_report_scores(ck_ctx *cx, const ck_site *site, int64_t softmax,
                             const ck_ahead *ahead, int64_t n_ahead, int64_t pct)
{
    const an_report *r = cx->r;
    const an_event *first = ck_event(cx, site->ev[0]), *reader = ck_event(cx, ahead->reader);
    int res = ck_result_value(first), maker = r->storages[ahead->storage].value;
    const an_value *x = &r->values[res];
    bool out = first->op == MT_OP_matmul_out, direct = ahead->direct;
    int64_t n = site->n;
    char *label = ck_value_label(cx, res), *shape = ck_tuple(x->l.ndim, x->l.shape);
    char *buffer = maker >= 0 ? ck_value_label(cx, maker) : tl_xasprintf("%s", "a buffer");
    char *cost = ck_step_cost(out ? 0 : r->storages[first->storage].nbytes, first->moved_bytes, n);
    char *read_at = ck_line_text(cx, reader->line);
    char *via = direct ? tl_xasprintf("%s", "")
                       : tl_xasprintf(" (read by tl_%s at line %s)", mt_ops[reader->op].name,
                                      read_at);
    free(read_at);
    an_diag *d = ck_diag_add(
        cx, CK_scores_full_size_in_loop, first->line, first->col,
        "tl_%s %s %s, %s %s attention scores, at the same full size in each of its %lld "
        "executions, from all of %s%s, which the loop fills one position per step: in %lld "
        "executions part of it is not written yet (%lld%% on average), and the scores of those "
        "positions are computed for nothing (%s); %s", mt_ops[first->op].name,
        out ? "writes" : "computes", label, shape, mt_dtype_name(x->l.dtype), (long long)n,
        buffer, via, (long long)n_ahead, (long long)pct, cost,
        direct ? "narrow the keys to the positions written so far (pos + 1) before the matmul, "
                 "so that the scores grow with the step"
               : "keep the keys and values of past positions in a cache and score only the "
                 "step's query against positions 0..pos");
    if (d) {
        const an_event *w = ck_event(cx, ahead->write), *sm = ck_event(cx, softmax);
        const char *name = maker >= 0 && r->values[maker].name ? r->values[maker].name : NULL;
        ck_note(d, w->line, w->col, "the loop writes the next position of %s%s%s here",
                name ? "'" : "the buffer", name ? name : "", name ? "'" : "");
        if (!direct)
            ck_note(d, reader->line, reader->col, "all of it is read here, at every step");
        ck_note(d, sm->line, sm->col, "the scores are normalised here and then weight the values");
    }
    free(label);
    free(shape);
    free(buffer);
    free(cost);
    free(via);
}

/* One matmul site: conditions 1 to 3 of the file's comment. */
static void ck_check_scores_site(ck_ctx *cx, ck_writes *ws, const ck_site *site)
{
    int res = ck_result_value(ck_event(cx, site->ev[0]));
    if (site->n < 2 || res < 0 || !cx->r->values[res].known ||
        !ck_fixed_size(cx, site->ev, site->n))
        return;
    int64_t softmax = ck_attention_softmax(cx, site->ev[0], site->ev[1]);
    if (softmax < 0)
        return;
    ck_ahead found = {.storage = -1}, one;
    int64_t n_ahead = 0, unwritten = 0, read = 0;
    for (int64_t j = 0; j < site->n; j++) {
        ck_back b = {.cx = cx, .ws = ws, .lo = j > 0 ? site->ev[j - 1] : -1};
        if (ck_alt_writes_between(cx, b.lo, site->ev[j]) ||
            !ck_back_reads_ahead(&b, ck_event(cx, site->ev[j]), site->ev[j], 0, &one))
            continue;
        if (found.storage < 0)
            found = one;
        n_ahead++;
        unwritten += one.unwritten;
        read += one.read;
    }
    if (n_ahead < 2 || 2 * n_ahead < site->n)
        return;
    /* the share unwritten, over every execution (those that read nothing ahead count 0) */
    int64_t pct = read > 0 ? (int64_t)(100.0 * (double)unwritten / (double)read *
                                       (double)n_ahead / (double)site->n + 0.5) : 0;
    ck_report_scores(cx, site, softmax, &found, n_ahead, pct);
}

typedef struct ck_key {
    int64_t event;
    int func, line, col;
    mt_op op;
} ck_key;

static int ck_cmp_key(const void *a, const void *b)
{
    const ck_key *x = a, *y = b;
    if (x->func != y->func)
        return x->func - y->func;
    if (x->line != y->line)
        return x->line - y->line;
    if (x->col != y->col)
        return x->col - y->col;
    if (x->op != y->op)
        return (int)x->op - (int)y->op;
    return x->event < y->event ? -1 : x->event > y->event;
}

static bool ck_same_key(const ck_key *a, const ck_key *b)
{
    return a->func == b->func && a->line == b->line && a->col == b->col && a->op == b->op;
}

/* Score matmuls that read the whole of a buffer a decoding loop fills one
 * position per step, at the same full size each step: the positions not
 * written yet cost their share of every step's bytes.  Sites are
 * (function, line, column, op): an out= call has no value. */
void ck_rule_scores_full_size_in_loop(ck_ctx *cx)
{
    const an_report *r = cx->r;
    if (!cx->log_complete)
        return;
    int64_t n = 0;
    ck_key *keys = tl_xmalloc(sizeof *keys * (size_t)(r->n_events + 1));
    for (int64_t i = 0; i < r->n_events; i++) {
        const an_event *e = &r->events[i];
        if (e->kind == AN_EV_CALL && ck_is_matmul(e->op))
            keys[n++] = (ck_key){i, e->func, e->line, e->col, e->op};
    }
    qsort(keys, (size_t)n, sizeof *keys, ck_cmp_key);
    ck_writes ws = {0};
    int64_t *ev = tl_xmalloc(sizeof *ev * (size_t)(n + 1));
    for (int64_t k = 0, end; k < n; k = end) {
        for (end = k; end < n && ck_same_key(&keys[k], &keys[end]); end++)
            ev[end - k] = keys[end].event;
        if (end - k < 2)
            continue;
        if (!ws.w)
            ws = ck_writes_collect(cx);
        ck_check_scores_site(cx, &ws, &(ck_site){ev, end - k});
    }
    ck_writes_free(&ws);
    free(ev);
    free(keys);
}
