/*
 * check_facts.c: facts the rules share, derived once per run from the
 * interpreter's event log: the first CALL event of every call site, the
 * CALL that made every storage, per storage and per value the CALL events
 * that take it as an operand (compressed lists, in execution order), and
 * where each root's run ends.
 *
 * The log records at most AN_EV_MAX_IN operands per call; a call with more
 * (a long tl_cat) is "wide": it may use any storage, and the rules treat
 * it so.  Roots run one after another; a root's run is the stretch of the
 * log from the first event of its own function to the first event of the
 * next root's function.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

/* Room for n entries that are all written before they are read (no zeroing:
 * these arrays are large, and clearing them costs page faults). */
static void *ck_alloc_raw(size_t n, size_t size) { return tl_xreallocarray(NULL, n, size); }

const an_event *ck_event(const ck_ctx *cx, int64_t i) { return &cx->r->events[i]; }

static int ck_n_operands(const an_event *e)
{
    return e->n_in < AN_EV_MAX_IN ? e->n_in : AN_EV_MAX_IN;
}

/* Whether operand k repeats an earlier operand's id (add(x, x) uses x once). */
static bool ck_repeat(const int *ids, int k)
{
    for (int j = 0; j < k; j++)
        if (ids[j] == ids[k])
            return true;
    return false;
}

/* Per function of the unit: its rank among the roots, in the order they run, or -1. */
static int *ck_root_ranks(const an_report *r)
{
    int n = r->unit->n_funcs, rank = 0;
    int *ranks = tl_xcalloc((size_t)n + 1, sizeof(int));
    for (int f = 0; f < n; f++)
        ranks[f] = -1;
    for (int k = 0; k < r->n_funcs; k++)
        if (r->funcs[k].is_root && r->funcs[k].func >= 0 && r->funcs[k].func < n)
            ranks[r->funcs[k].func] = rank++;
    return ranks;
}

/* The kinds (1 << ck_pick) event e is one of: what some rules scan for. */
static unsigned ck_picks_of(const an_report *r, const an_event *e)
{
    if (e->kind == AN_EV_LOST)
        return 1u << CK_PICK_LOST;
    if (e->kind != AN_EV_CALL)
        return 0;
    unsigned m = 0;
    if (ck_op_writes(e->op))
        m |= 1u << CK_PICK_WRITE;
    if (e->op == MT_OP_conv2d)
        m |= 1u << CK_PICK_CONV;
    if (e->value >= 0 && e->value < r->n_values && !r->values[e->value].name)
        m |= 1u << CK_PICK_TEMP;
    if (e->n_in > AN_EV_MAX_IN)
        m |= 1u << CK_PICK_WIDE;
    return m;
}

/* The storage whose life list event e joins, or -1. */
static int ck_life_storage(const an_event *e)
{
    if (e->kind == AN_EV_CALL)
        return e->value >= 0 ? e->storage : -1;
    return e->storage;
}

typedef struct ck_builder {
    int *ranks;
    int cur;                 /* rank of the current root run */
} ck_builder;

/* Pass 1 for event i: first events, runs, spans, and the counts of every list. */
static void ck_count_event(ck_ctx *cx, ck_builder *b, int64_t i)
{
    const an_report *r = cx->r;
    const an_event *e = &r->events[i];
    int f = e->func, rank = f >= 0 && f < r->unit->n_funcs ? b->ranks[f] : -1;
    if (i == 0 || rank > b->cur) {
        b->cur = rank > b->cur ? rank : b->cur;
        cx->segments[cx->n_segments++] = (struct ck_segment){.begin = i, .root = -1};
    }
    struct ck_segment *sg = &cx->segments[cx->n_segments - 1];
    sg->end = i + 1;
    if (sg->root < 0 && rank >= 0)
        sg->root = f;
    if (f >= 0 && f < r->unit->n_funcs) {
        if (cx->func_first[f] < 0)
            cx->func_first[f] = i;
        cx->func_last[f] = i;
    }
    for (unsigned m = ck_picks_of(r, e), p = 0; m; m >>= 1, p++)
        cx->n_picks[p] += m & 1;
    int life = ck_life_storage(e);
    if (life >= 0 && life < r->n_storages)
        cx->storage_life.start[life]++;
    if (e->kind != AN_EV_CALL)
        return;
    if (e->value >= 0 && e->value < r->n_values && cx->value_event[e->value] < 0)
        cx->value_event[e->value] = i;
    int s = e->storage;
    if (s >= 0 && s < r->n_storages && cx->storage_event[s] < 0 &&
        r->storages[s].value == e->value && r->storages[s].alloc_event <= i)
        cx->storage_event[s] = i;
    for (int k = 0; k < ck_n_operands(e); k++)
        if (e->in_storage[k] >= 0 && e->in_storage[k] < r->n_storages &&
            !ck_repeat(e->in_storage, k))
            cx->storage_uses.start[e->in_storage[k]]++;
}

/* Pass 2, backwards, for event i: each list's entries go in from its end,
 * so its start offset ends up where it belongs and the lists stay in order. */
static void ck_fill_event(ck_ctx *cx, int64_t i)
{
    const an_report *r = cx->r;
    const an_event *e = &r->events[i];
    for (unsigned m = ck_picks_of(r, e), p = 0; m; m >>= 1, p++)
        if (m & 1)
            cx->picks[p][--cx->n_picks[p]] = i;
    int life = ck_life_storage(e);
    if (life >= 0 && life < r->n_storages)
        cx->storage_life.idx[--cx->storage_life.start[life]] = (ck_evix)i;
    for (int k = ck_n_operands(e) - 1; e->kind == AN_EV_CALL && k >= 0; k--) {
        int s = e->in_storage[k];
        if (s >= 0 && s < r->n_storages && !ck_repeat(e->in_storage, k))
            cx->storage_uses.idx[--cx->storage_uses.start[s]] = (ck_evix)i;
    }
}

/* Turn the counts start[k] into end offsets (one past list k; start[n] the
 * total) and make room for the entries; the backward fill then moves each
 * start[k] down to the beginning of list k. */
static void ck_list_offsets(ck_list *l, int n)
{
    for (int k = 1; k < n; k++)
        l->start[k] += l->start[k - 1];
    l->start[n] = n > 0 ? l->start[n - 1] : 0;
    l->idx = ck_alloc_raw((size_t)l->start[n] + 1, sizeof *l->idx);
}

void ck_facts_build(ck_ctx *cx)
{
    const an_report *r = cx->r;
    int ns = r->n_storages, nf = r->unit->n_funcs;
    ck_builder b = {.ranks = ck_root_ranks(r)};
    if (r->n_events >= INT32_MAX / (AN_EV_MAX_IN + 1)) {
        fprintf(stderr, "tensorlint: an event log of %lld events is too long for the checks\n",
                (long long)r->n_events);
        abort();
    }
    cx->value_event = tl_xcalloc((size_t)r->n_values + 1, sizeof(int64_t));
    cx->storage_event = tl_xcalloc((size_t)ns + 1, sizeof(int64_t));
    cx->func_first = tl_xcalloc((size_t)nf + 1, sizeof(int64_t));
    cx->func_last = tl_xcalloc((size_t)nf + 1, sizeof(int64_t));
    memset(cx->value_event, 0xff, sizeof(int64_t) * ((size_t)r->n_values + 1));
    memset(cx->storage_event, 0xff, sizeof(int64_t) * ((size_t)ns + 1));
    memset(cx->func_first, 0xff, sizeof(int64_t) * ((size_t)nf + 1));
    cx->segments = tl_xcalloc((size_t)nf + 2, sizeof *cx->segments);
    cx->storage_uses.start = tl_xcalloc((size_t)ns + 1, sizeof(ck_evix));
    cx->storage_life.start = tl_xcalloc((size_t)ns + 1, sizeof(ck_evix));
    for (int64_t i = 0; i < r->n_events; i++)
        ck_count_event(cx, &b, i);
    ck_list_offsets(&cx->storage_uses, ns);
    ck_list_offsets(&cx->storage_life, ns);
    int64_t counts[CK_N_PICKS];
    for (int p = 0; p < CK_N_PICKS; p++) {
        cx->picks[p] = ck_alloc_raw((size_t)cx->n_picks[p] + 1, sizeof(int64_t));
        counts[p] = cx->n_picks[p];
    }
    for (int64_t i = r->n_events - 1; i >= 0; i--)
        ck_fill_event(cx, i);
    memcpy(cx->n_picks, counts, sizeof counts);
    cx->wide = cx->picks[CK_PICK_WIDE];
    cx->n_wide = cx->n_picks[CK_PICK_WIDE];
    free(b.ranks);
}

void ck_facts_free(ck_ctx *cx)
{
    free(cx->value_event);
    free(cx->storage_event);
    free(cx->storage_uses.start);
    free(cx->storage_uses.idx);
    free(cx->storage_life.start);
    free(cx->storage_life.idx);
    free(cx->segments);
    free(cx->func_first);
    free(cx->func_last);
    for (int p = 0; p < CK_N_PICKS; p++)
        free(cx->picks[p]);
}

int ck_segment_of(const ck_ctx *cx, int64_t i)
{
    int lo = 0, hi = cx->n_segments - 1;
    while (lo < hi) { /* the last run beginning at or before i */
        int mid = (lo + hi + 1) / 2;
        if (cx->segments[mid].begin <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int ck_operand(const ck_ctx *cx, int value, int k)
{
    int64_t i = value >= 0 ? cx->value_event[value] : -1;
    if (i < 0)
        return -1;
    const an_event *e = &cx->r->events[i];
    return k < ck_n_operands(e) ? e->in_value[k] : -1;
}

int ck_view_root(const ck_ctx *cx, int value)
{
    for (int steps = 0; value >= 0 && steps < cx->r->n_values; steps++) {
        const an_value *v = &cx->r->values[value];
        if (v->kind != MT_KIND_VIEW || v->view_of < 0)
            return value;
        value = v->view_of;
    }
    return value;
}

bool ck_value_allocates(const ck_ctx *cx, int value)
{
    const an_value *v = &cx->r->values[value];
    return v->executed && v->known && !v->error && v->kind == MT_KIND_NEW &&
           ck_value_bytes(cx, value) > 0 && !cx->r->storages[v->storage].discarded;
}

bool ck_storage_counts(const an_storage *st)
{
    return st->nbytes > 0 || (st->symbolic && !st->external);
}

bool ck_value_allocates_any(const ck_ctx *cx, int value)
{
    const an_value *v = &cx->r->values[value];
    if (v->known || v->sl <= 0)
        return ck_value_allocates(cx, value);
    return v->executed && !v->error && v->kind == MT_KIND_NEW && v->storage >= 0 &&
           ck_storage_counts(&cx->r->storages[v->storage]) &&
           !cx->r->storages[v->storage].discarded;
}

/* Whether assumption k was made by line and is about the sizes of l. */
static bool ck_when_related(const an_slayout *l, int k, int line)
{
    sx_int d;
    const char *op;
    if (sx_assumption_line(k) > line)
        return false;
    sx_assumption_get(k, &d, &op);
    for (int j = 0; j < l->ndim; j++)
        if (sx_shares_symbol(d, l->shape[j]))
            return true;
    return false;
}

char *ck_when(const ck_ctx *cx, int value)
{
    const an_value *v = &cx->r->values[value];
    if (v->known || v->sl <= 0)
        return tl_xasprintf("%s", "");
    const an_slayout *l = &cx->r->slayouts[v->sl - 1];
    size_t len = 0, cap = 256;
    char *out = tl_xmalloc(cap);
    out[0] = 0;
    for (int k = 0; k < sx_n_assumptions(); k++) {
        bool seen = false; /* one line per text (of this value's symbols: another
                              root's "d > 1" is about another d) */
        if (!ck_when_related(l, k, v->line))
            continue;
        for (int j = 0; j < k && !seen; j++)
            seen = strcmp(sx_assumption_text(j), sx_assumption_text(k)) == 0 &&
                   ck_when_related(l, j, v->line);
        if (seen)
            continue;
        const char *text = sx_assumption_text(k);
        size_t need = len + strlen(text) + 16;
        if (need > cap) {
            cap = need * 2;
            out = tl_xrealloc(out, cap);
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? " and " : " (when ", text);
    }
    if (len)
        snprintf(out + len, cap - len, ")");
    return out;
}

int ck_value_overlaps(const ck_ctx *cx, int value)
{
    const an_value *v = &cx->r->values[value];
    if (v->known)
        return mt_has_internal_overlap(&v->l);
    if (v->sl <= 0)
        return -1;
    const an_slayout *l = &cx->r->slayouts[v->sl - 1];
    bool undecided = false;
    for (int d = 0; d < l->ndim; d++) {
        bool zero, big;
        if (!sx_prove(l->strides[d], SX_EQ, (sx_int){0, 0}, &zero))
            undecided = true;
        else if (zero && sx_prove(l->shape[d], SX_GT, (sx_int){1, 0}, &big) && big)
            return 1;
        else if (zero)
            undecided = true; /* stride 0, size 1 or more: it depends */
    }
    return undecided ? -1 : 0;
}

int64_t ck_value_bytes(const ck_ctx *cx, int value)
{
    int s = cx->r->values[value].storage;
    return s >= 0 && s < cx->r->n_storages ? cx->r->storages[s].nbytes : -1;
}

int64_t ck_last_use_before(const ck_ctx *cx, int s, int64_t from, int64_t to)
{
    int64_t n = ck_list_len(&cx->storage_uses, s), last = -1;
    const ck_evix *u = ck_list_at(&cx->storage_uses, s);
    int64_t lo = 0, hi = n; /* first use >= to */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (u[mid] < to)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && u[lo - 1] >= from)
        last = u[lo - 1];
    for (int64_t k = cx->n_wide - 1; k >= 0; k--) {
        if (cx->wide[k] >= to)
            continue;
        if (cx->wide[k] >= from && cx->wide[k] > last)
            last = cx->wide[k];
        break;
    }
    return last;
}

bool ck_op_is_copy(mt_op op)
{
    switch (op) {
    case MT_OP_contiguous: case MT_OP_clone: case MT_OP_to: case MT_OP_to_device:
    case MT_OP_to_format: case MT_OP_reshape: case MT_OP_flatten:
        return true;
    default:
        return false;
    }
}

bool ck_op_writes(mt_op op) { return mt_ops[op].family == MT_INPLACE || op == MT_OP_set; }

/* Whether some event in [from, to) may use a storage the log does not name. */
bool ck_wide_between(const ck_ctx *cx, int64_t from, int64_t to)
{
    for (int64_t k = 0; k < cx->n_wide; k++)
        if (cx->wide[k] >= from && cx->wide[k] < to)
            return true;
    return false;
}

/* Whether a handle into storage s is passed somewhere the log does not follow. */
bool ck_storage_escapes(const ck_ctx *cx, int s)
{
    int64_t n = ck_list_len(&cx->storage_life, s);
    const ck_evix *ev = ck_list_at(&cx->storage_life, s);
    unsigned kinds = 1u << CK_MENTION_EXTERNAL | 1u << CK_MENTION_ESCAPE;
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, ev[k]);
        const char *name = e->kind == AN_EV_CALL ? cx->r->values[e->value].name : NULL;
        if (name && ck_mentioned(cx, name, e->func, 0, 1 << 30, kinds))
            return true;
    }
    return false;
}

/* One past the storage's last event: its free, or the end of its root's run. */
int64_t ck_storage_end(const ck_ctx *cx, int s)
{
    const an_storage *st = &cx->r->storages[s];
    int64_t made = cx->storage_event[s];
    if (st->free_event >= 0)
        return st->free_event;
    return made >= 0 ? cx->segments[ck_segment_of(cx, made)].end : cx->r->n_events;
}

/* Whether every use of storage s is a call of site v. */
bool ck_only_used_by(const ck_ctx *cx, int s, int v)
{
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n; k++)
        if (ck_event(cx, uses[k])->value != v)
            return false;
    return n > 0 && !ck_wide_between(cx, cx->storage_event[s], ck_storage_end(cx, s));
}

/* The nearest tl_expand / tl_as_strided in the view chain ending at value. */
int ck_broadcast_cause(const ck_ctx *cx, int value)
{
    const an_report *r = cx->r;
    for (int steps = 0; value >= 0 && steps < r->n_values; steps++) {
        const an_value *x = &r->values[value];
        if (x->op == MT_OP_expand || x->op == MT_OP_as_strided)
            return value;
        if (x->kind != MT_KIND_VIEW)
            return -1;
        value = x->view_of;
    }
    return -1;
}

/* Logical elements per physical element: the sizes of the stride-0 dims. */
int64_t ck_broadcast_factor(const mt_layout *l)
{
    int64_t f = 1;
    for (int d = 0; d < l->ndim; d++)
        if (l->strides[d] == 0 && l->shape[d] > 1)
            f *= l->shape[d];
    return f;
}
