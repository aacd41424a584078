/*
 * check_lifetime.c: the rules about how long storages live: a small view
 * that keeps a big storage alive (slice-pins-storage), a release that
 * comes so late that the peak pays for it (late-release), and a handle
 * lost while it still holds a storage (leaked-tensor).
 *
 * They replay, per storage, the handles into it from the event log: a CALL
 * whose result points into the storage adds a handle (by the value id of
 * its call site), a RELEASE removes one, a LOST marks one unreachable.  A
 * temporary (a nested call's result, value name NULL) is never released.
 * The peak arithmetic runs over the live bytes the log records after every
 * event of the storage's root run.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the handles into one storage ---- */

typedef struct ck_holder {
    int value;      /* the call site that made the handle */
    int live, lost; /* handles of that site: reachable, unreachable */
} ck_holder;

typedef struct ck_holders {
    int n, cap;
    ck_holder *h;
} ck_holders;

static ck_holder *ck_holder_of(ck_holders *hs, int value)
{
    for (int k = 0; k < hs->n; k++)
        if (hs->h[k].value == value)
            return &hs->h[k];
    tl_xgrow(hs->h, &hs->cap, (size_t)hs->n + 1, 8);
    hs->h[hs->n] = (ck_holder){value, 0, 0};
    return &hs->h[hs->n++];
}

/* Apply one life event (ck_ctx.storage_life) to the handles. */
static void ck_holders_apply(ck_holders *hs, const an_event *e)
{
    if (e->kind == AN_EV_CALL) {
        ck_holder_of(hs, e->value)->live++;
        return;
    }
    ck_holder *h = ck_holder_of(hs, e->handle_value);
    if (h->live > 0)
        h->live--;
    if (e->kind == AN_EV_LOST)
        h->lost++;
}

/* Replay storage s's life up to (not including) event index `until`. */
static void ck_holders_replay(const ck_ctx *cx, int s, int64_t until, ck_holders *hs)
{
    int64_t n = ck_list_len(&cx->storage_life, s);
    const ck_evix *life = ck_list_at(&cx->storage_life, s);
    hs->n = 0;
    for (int64_t k = 0; k < n && life[k] < until; k++)
        ck_holders_apply(hs, ck_event(cx, life[k]));
}

/* Whether some handle of hs is a temporary or unreachable. */
static bool ck_holders_leaky(const ck_ctx *cx, const ck_holders *hs)
{
    for (int k = 0; k < hs->n; k++)
        if (hs->h[k].lost > 0 || (hs->h[k].live > 0 && !cx->r->values[hs->h[k].value].name))
            return true;
    return false;
}

/* Reachable named handles left in hs. */
static int ck_holders_named(const ck_ctx *cx, const ck_holders *hs)
{
    int n = 0;
    for (int k = 0; k < hs->n; k++)
        if (hs->h[k].live > 0 && cx->r->values[hs->h[k].value].name)
            n += hs->h[k].live;
    return n;
}

/* Whether a CALL runs in (from, to). */
static bool ck_call_between(const ck_ctx *cx, int64_t from, int64_t to)
{
    for (int64_t i = from + 1; i < to && i < cx->r->n_events; i++)
        if (ck_event(cx, i)->kind == AN_EV_CALL)
            return true;
    return false;
}

/* ---- slice-pins-storage ---- */

/* The bytes a handle made by value reaches, at most the storage's: its
 * numel x element size, or the storage's when its layout is unknown.  A
 * view with no expand or as_strided in its chain has no two elements in
 * one place: it reaches no more than the storage holds. */
static sx_int ck_reach(const ck_ctx *cx, int value, sx_int storage_bytes)
{
    sx_int b;
    bool le;
    if (!ck_value_nbytes_sx(cx, value, &b))
        return storage_bytes;
    if (sx_prove(b, SX_LE, storage_bytes, &le))
        return le ? b : storage_bytes;
    return ck_broadcast_cause(cx, value) < 0 ? b : sx_min(b, storage_bytes);
}

/* What release of the handle made by `released` needs to leave only small
 * views of a storage of `bytes`: the released handle reaches at least pct%
 * of it, each handle left (one at least) less. */
static void ck_pin_conds(const ck_ctx *cx, const ck_holders *hs, int released, sx_int bytes,
                         int pct, ck_conds *c)
{
    sx_int limit = sx_mul(bytes, (sx_int){pct, 0}), hundred = {100, 0};
    int left = 0;
    ck_conds_need(c, sx_mul(ck_reach(cx, released, bytes), hundred), SX_GE, limit);
    for (int k = 0; k < hs->n && !c->never; k++) {
        if (hs->h[k].live + hs->h[k].lost == 0)
            continue;
        ck_conds_need(c, sx_mul(ck_reach(cx, hs->h[k].value, bytes), hundred), SX_LT, limit);
        left++;
    }
    if (left == 0)
        c->never = true;
}

static void ck_pin_report(ck_ctx *cx, const ck_holders *hs, int s, const an_event *rel,
                          const char *when)
{
    const an_storage *st = &cx->r->storages[s];
    sx_int bytes = ck_storage_sx(st);
    for (int k = 0; k < hs->n; k++) {
        int u = hs->h[k].value;
        if (hs->h[k].live + hs->h[k].lost == 0)
            continue;
        const an_value *v = &cx->r->values[u];
        sx_int reach = ck_reach(cx, u, bytes), pinned = sx_sub(bytes, reach);
        char *label = ck_value_label(cx, u);
        char *times = ck_times_sx(cx, u, pinned);
        char *share = ck_sx_fraction(reach, bytes);
        char *paren = share ? tl_xasprintf(" (%s)", share) : tl_xasprintf("%s", "");
        char *made = ck_line_text(cx, st->alloc_line);
        an_diag *d = ck_diag_add(cx, CK_slice_pins_storage, v->line, v->col,
                                 "%s keeps all %s of the storage made at line %s alive but "
                                 "reaches only %s of it%s: %s pinned%s; clone the view so the "
                                 "storage can be freed%s", label, ck_sx_bytes(bytes).s,
                                 made, ck_sx_bytes(reach).s, paren,
                                 ck_sx_bytes(pinned).s, times, when);
        free(made);
        ck_note(d, rel->line, rel->col, "the last larger handle into the storage is released here");
        free(label);
        free(times);
        free(share);
        free(paren);
    }
}

/* Whether the release at life[k] of storage s leaves only small views while
 * the program goes on: 1 for every value of the sizes, 0 for none, -1 for
 * some (*when says which; newly allocated). */
static int ck_pin_at(const ck_ctx *cx, const ck_holders *hs, int s, int64_t k, char **when)
{
    int64_t end = ck_storage_end(cx, s);
    const ck_evix *life = ck_list_at(&cx->storage_life, s);
    const an_event *e = ck_event(cx, life[k]);
    ck_conds c;
    *when = NULL;
    if (e->kind != AN_EV_RELEASE || e->freed || e->handle_value < 0)
        return 0;
    ck_conds_init(&c);
    ck_pin_conds(cx, hs, e->handle_value, ck_storage_sx(&cx->r->storages[s]),
                 cx->o->slice_pin_max_percent, &c);
    int verdict = ck_call_between(cx, life[k], end) ? ck_conds_verdict(&c) : 0;
    if (verdict)
        *when = ck_conds_when(&c);
    ck_conds_free(&c);
    return verdict;
}

/* A view that reaches less than a quarter (the option) of a storage keeps
 * all of it alive once every larger handle is released; the pinned bytes
 * are the storage's minus the view's.  Quiet when the storage is freed
 * before any other call runs (nothing waits on the pinned bytes).  Over
 * sizes known at run time, the first release after which this holds for
 * every value is reported; else the first after which it holds for some,
 * with the condition. */
void ck_rule_slice_pins_storage(ck_ctx *cx)
{
    if (!cx->log_complete)
        return;
    const an_report *r = cx->r;
    ck_holders hs = {0};
    for (int s = 0; s < r->n_storages; s++) {
        const an_storage *st = &r->storages[s];
        int64_t n = ck_list_len(&cx->storage_life, s), some = -1;
        const ck_evix *life = ck_list_at(&cx->storage_life, s);
        if (!ck_storage_counts(st) || st->discarded || cx->storage_event[s] < 0 ||
            !ck_sx_usable(ck_storage_sx(st)))
            continue;
        hs.n = 0;
        for (int64_t k = 0; k < n; k++) {
            char *when;
            ck_holders_apply(&hs, ck_event(cx, life[k]));
            int verdict = ck_pin_at(cx, &hs, s, k, &when);
            if (verdict > 0) {
                ck_pin_report(cx, &hs, s, ck_event(cx, life[k]), when);
                some = -1;
            } else if (verdict < 0 && some < 0) {
                some = k;
            }
            free(when);
            if (verdict > 0)
                break;
        }
        if (some >= 0) {
            char *when;
            ck_holders_replay(cx, s, life[some] + 1, &hs);
            ck_pin_at(cx, &hs, s, some, &when);
            ck_pin_report(cx, &hs, s, ck_event(cx, life[some]), when);
            free(when);
        }
    }
    free(hs.h);
}

/* ---- late-release ---- */

typedef struct ck_late {
    int s;
    int64_t made, last, end; /* events: the allocation, the last use, the free (or run end) */
    int64_t peak, new_peak;  /* bytes */
    bool freed;
    int func;                /* where the release is (or would be) */
    const ir_block *block;   /* the block of the release; the earlier one goes there too */
    int stmt;                /* the statement of block after which it can go */
    int site;                /* the call site that made the storage */
} ck_late;

typedef struct ck_fscope {   /* the activations of one function */
    int func;
    int64_t lo, hi;          /* they lie in events [lo, hi); the arrays hold that range */
    bool *in;                /* per event: during an activation */
    int64_t peak;            /* bytes: the most live bytes after one of those events */
    int64_t n_peaks, cap_peaks;
    int64_t *peaks;          /* the events at the peak, in order */
} ck_fscope;

/* Move lt->last to the end of the statement of the release's block that
 * holds the last use: a release cannot go inside an if arm, a loop or a
 * called function that its own block only contains. */
static bool ck_late_point(const ck_ctx *cx, ck_late *lt)
{
    const an_event *rel = lt->freed ? ck_event(cx, lt->end) : NULL;
    const struct ck_segment *sg = &cx->segments[ck_segment_of(cx, lt->made)];
    lt->func = rel ? rel->func : sg->root;
    lt->block = rel ? ck_ir_block_of(cx, lt->func, IR_RELEASE, rel->line, rel->col)
                    : ck_ir_body(cx, lt->func);
    int64_t probe = lt->last;
    while (probe < lt->end && ck_event(cx, probe)->func != lt->func)
        probe++; /* a use in a called function: the caller's next step */
    if (!lt->block || probe >= lt->end)
        return false;
    lt->stmt = ck_ir_stmt_at(lt->block, ck_event(cx, probe)->line, ck_event(cx, probe)->col);
    if (lt->stmt < 0)
        return false;
    ir_loc next = ck_ir_stmt_next(lt->block, lt->stmt);
    int64_t i = lt->last + 1;
    for (; i < lt->end; i++) {
        const an_event *e = ck_event(cx, i);
        if (e->func == lt->func && ck_loc_cmp(e->line, e->col, next.line, next.col) >= 0)
            break;
    }
    lt->last = i - 1;
    return true;
}

/* Whether a handle of s is used in a way the log does not show after the
 * statement the release would follow. */
static bool ck_hidden_later_use(const ck_ctx *cx, const ck_late *lt)
{
    int64_t n = ck_list_len(&cx->storage_life, lt->s);
    const ck_evix *life = ck_list_at(&cx->storage_life, lt->s);
    ir_loc next = ck_ir_stmt_next(lt->block, lt->stmt);
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, life[k]);
        const char *name = e->kind == AN_EV_CALL ? cx->r->values[e->value].name
                           : e->var >= 0 ? cx->r->unit->vars[e->var].name : NULL;
        int after = e->func == lt->func ? next.line - 1 : 0;
        if (name && ck_mentioned(cx, name, e->func, after, 1 << 30, CK_MENTION_ANY))
            return true;
    }
    return false;
}

/* A storage made by an iteration that stands for many, not freed in the
 * log, while another storage of its call is freed: a later loop summarised
 * over run-time sizes releases them (an array filled in one loop, read and
 * released in others) in iterations the log does not hold, so neither its
 * last use nor "never released" is known. */
static bool ck_freed_unlogged(const ck_ctx *cx, const an_storage *st)
{
    if (!st->summarised || st->free_event >= 0)
        return false;
    for (int k = 0; k < cx->r->n_storages; k++)
        if (cx->r->storages[k].value == st->value && cx->r->storages[k].free_line > 0)
            return true;
    return false;
}

/* Fill lt for storage s; false when s cannot have a late release (never
 * released outside main, or nothing between its last use and its release). */
static bool ck_late_measure(const ck_ctx *cx, int s, ck_late *lt)
{
    const an_storage *st = &cx->r->storages[s];
    *lt = (ck_late){.s = s, .made = cx->storage_event[s], .freed = st->free_event >= 0};
    bool big = false; /* windows do not overlap: a peak drops by one storage's bytes at most */
    sx_int bytes = ck_storage_sx(st);
    if (ck_freed_unlogged(cx, st))
        return false;
    if (lt->made < 0 || st->discarded || (st->symbolic && st->external) || !ck_sx_usable(bytes) ||
        (sx_prove(bytes, SX_GE, (sx_int){cx->o->late_release_min_bytes, 0}, &big) && !big))
        return false;
    lt->end = ck_storage_end(cx, s);
    lt->last = ck_last_use_before(cx, s, lt->made, lt->end);
    if (lt->last < 0)
        lt->last = lt->made;
    if (!ck_call_between(cx, lt->last, lt->end) || !ck_late_point(cx, lt) ||
        lt->last + 1 >= lt->end)
        return false; /* no call, so no peak, between the last use and the release */
    return lt->freed || ck_ir_is_main(cx, lt->func);
}

/* `tl_release(v);` for every handle still holding the storage, one line each. */
static char *ck_late_releases(const ck_ctx *cx, const ck_late *lt, const ck_holders *at_end,
                              const char *indent)
{
    int64_t n = ck_list_len(&cx->storage_life, lt->s);
    const ck_evix *life = ck_list_at(&cx->storage_life, lt->s);
    char *text = tl_xasprintf("%s", "");
    for (int64_t k = 0; text && lt->freed && k < n; k++) {
        const an_event *e = ck_event(cx, life[k]);
        if (e->kind != AN_EV_RELEASE || life[k] <= lt->last)
            continue;
        const char *name = e->var >= 0 ? cx->r->unit->vars[e->var].name : NULL;
        bool ok = name && e->loop_depth == ck_event(cx, lt->end)->loop_depth &&
                  ck_ir_block_of(cx, e->func, IR_RELEASE, e->line, e->col) == lt->block &&
                  ck_src_is_release_line(ck_source(cx), e->line, name);
        char *t = ok ? tl_xasprintf("%s\n%stl_release(%s);", text, indent, name) : NULL;
        free(text);
        text = t;
    }
    for (int k = 0; text && !lt->freed && k < at_end->n; k++) {
        const an_value *v = &cx->r->values[at_end->h[k].value];
        if (at_end->h[k].live == 0)
            continue;
        bool ok = v->name && v->func == lt->func && at_end->h[k].live == 1;
        char *t = ok ? tl_xasprintf("%s\n%stl_release(%s);", text, indent, v->name) : NULL;
        free(text);
        text = t;
    }
    return text;
}

/* Insert the releases after the statement of the last use, and delete each
 * late release line; nothing when the edit is not mechanical. */
static void ck_late_fix(ck_ctx *cx, an_diag *d, const ck_late *lt, const ck_holders *at_end)
{
    ck_pos after;
    if (!ck_ir_stmt_after(cx, lt->block, lt->stmt, &after))
        return;
    char *indent = ck_src_indent(ck_source(cx), lt->block->stmts[lt->stmt]->loc.line);
    char *text = ck_late_releases(cx, lt, at_end, indent);
    int64_t n = ck_list_len(&cx->storage_life, lt->s);
    const ck_evix *life = ck_list_at(&cx->storage_life, lt->s);
    if (text && text[0]) {
        ck_fixit(d, after, after, text);
        for (int64_t k = 0; lt->freed && k < n; k++) {
            const an_event *e = ck_event(cx, life[k]);
            if (e->kind == AN_EV_RELEASE && life[k] > lt->last)
                ck_fixit(d, (ck_pos){e->line, 1}, (ck_pos){e->line + 1, 1}, "");
        }
    }
    free(indent);
    free(text);
}

/* The peak of a function before and after the earlier releases, as the
 * message says them. */
typedef struct ck_late_saving {
    ck_bytes_text from, to, saves;
    char *when;           /* " (when ...)", or NULL: for every value */
    int64_t peak_event;   /* an event at the peak, with the storage still live */
} ck_late_saving;

static void ck_late_report(ck_ctx *cx, const ck_late *lt, const ck_holders *at_end, int func,
                           const ck_late_saving *sv, const char *runs)
{
    const char *when = sv->when ? sv->when : "";
    const an_report *r = cx->r;
    const an_storage *st = &r->storages[lt->s];
    const an_event *last = ck_event(cx, lt->last), *rel = lt->freed ? ck_event(cx, lt->end) : NULL;
    const char *fn = r->unit->funcs[func]->name;
    const an_value *maker = &r->values[st->value];
    char *label = ck_value_label(cx, st->value);
    an_diag *d;
    if (rel)
        d = ck_diag_add(cx, CK_late_release, rel->line, rel->col,
                        "the %s storage of %s is released here, long after its last use at line "
                        "%d%s: releasing it there lowers the peak of %s from %s to %s (saves %s)%s",
                        ck_storage_bytes(st).s, label, last->line, runs, fn, sv->from.s,
                        sv->to.s, sv->saves.s, when);
    else
        d = ck_diag_add(cx, CK_late_release, st->alloc_line, st->alloc_col,
                        "%s%s%s (%s) is never released, though its storage is last used at line "
                        "%d: releasing it there lowers the peak of %s from %s to %s (saves %s)%s",
                        maker->name ? "'" : "the result of tl_",
                        maker->name ? maker->name : mt_ops[maker->op].name,
                        maker->name ? "'" : "", ck_storage_bytes(st).s, last->line, fn,
                        sv->from.s, sv->to.s, sv->saves.s, when);
    ck_note(d, last->line, last->col, "the last use of the storage");
    ck_note(d, ck_event(cx, sv->peak_event)->line, ck_event(cx, sv->peak_event)->col,
            "the peak of %s, with the storage still live", fn);
    if (d)
        ck_late_fix(cx, d, lt, at_end);
    free(label);
}

/* ---- one function's activations ---- */

/* The events during activations of fs->func: maximal runs of events of the
 * function or of the functions it calls that hold one of its own.  They
 * lie in [lo, hi), from the run of its first event to the run of its last. */
static void ck_fscope_mark(const ck_ctx *cx, ck_fscope *fs)
{
    const an_report *r = cx->r;
    bool *closure = ck_ir_closure(cx, fs->func);
    int64_t lo = cx->func_first[fs->func], hi = cx->func_last[fs->func] + 1;
    while (lo > 0 && r->events[lo - 1].func >= 0 && closure[r->events[lo - 1].func])
        lo--;
    while (hi < r->n_events && r->events[hi].func >= 0 && closure[r->events[hi].func])
        hi++;
    fs->lo = lo;
    fs->hi = hi;
    for (int64_t i = lo; i < hi;) {
        int64_t j = i;
        bool own = false;
        while (j < hi && r->events[j].func >= 0 && closure[r->events[j].func]) {
            own = own || r->events[j].func == fs->func;
            j++;
        }
        for (int64_t k = i; k < j; k++)
            fs->in[k] = own;
        if (j == i)
            fs->in[j++] = false;
        i = j;
    }
    free(closure);
}

/* The peak over the marked events and where it is reached. */
static void ck_fscope_build(const ck_ctx *cx, int func, ck_fscope *fs)
{
    const an_report *r = cx->r;
    fs->func = func;
    fs->peak = -1;
    fs->n_peaks = 0;
    fs->lo = fs->hi = 0;
    if (func < 0 || cx->func_first[func] < 0)
        return;
    ck_fscope_mark(cx, fs);
    for (int64_t i = fs->lo; i < fs->hi; i++) {
        int64_t live = fs->in[i] ? r->events[i].live_bytes : -1;
        if (live > fs->peak) {
            fs->peak = live;
            fs->n_peaks = 0;
        }
        if (live != fs->peak || live < 0)
            continue;
        tl_xgrow(fs->peaks, &fs->cap_peaks, (size_t)fs->n_peaks + 1, 64);
        fs->peaks[fs->n_peaks++] = i;
    }
}

static void ck_fscope_alloc(const ck_ctx *cx, ck_fscope *fs)
{
    *fs = (ck_fscope){.func = -1, .peak = -1};
    fs->in = tl_xmalloc((size_t)cx->r->n_events + 1);
}

static void ck_fscope_free(ck_fscope *fs)
{
    free(fs->in);
    free(fs->peaks);
}

/* ---- the rule ---- */

static int ck_cmp_late(const void *a, const void *b)
{
    const ck_late *x = a, *y = b;
    if (x->func != y->func)
        return x->func - y->func;
    if (x->site != y->site)
        return x->site - y->site;
    return x->made < y->made ? -1 : x->made > y->made;
}

/* Whether every peak event of fs lies strictly inside a window of g[0..n). */
static bool ck_peaks_covered(const ck_fscope *fs, const ck_late *g, int n)
{
    int w = 0;
    for (int64_t k = 0; k < fs->n_peaks; k++) {
        int64_t p = fs->peaks[k];
        while (w < n && g[w].end <= p)
            w++;
        if (w == n || g[w].last >= p)
            return false;
    }
    return fs->n_peaks > 0;
}

/* The peak of fs with every storage of g[0..n) freed right after its last
 * use (windows in order of allocation, not overlapping). */
static int64_t ck_peak_without(const ck_ctx *cx, const ck_fscope *fs, const ck_late *g, int n)
{
    int64_t peak = -1;
    int w = 0;
    for (int64_t i = fs->lo; i < fs->hi; i++) {
        if (!fs->in[i])
            continue;
        while (w < n && g[w].end <= i)
            w++;
        int64_t sub = w < n && g[w].last < i ? cx->r->storages[g[w].s].nbytes : 0;
        if (cx->r->events[i].live_bytes - sub > peak)
            peak = cx->r->events[i].live_bytes - sub;
    }
    return peak;
}

/* The candidates: storages that could have been released earlier. */
static ck_late *ck_late_candidates(ck_ctx *cx, int *n_out)
{
    ck_late *all = NULL, lt;
    ck_holders hs = {0};
    int n = 0, cap = 0;
    for (int s = 0; s < cx->r->n_storages; s++) {
        if (!ck_late_measure(cx, s, &lt))
            continue;
        ck_holders_replay(cx, s, lt.end, &hs);
        if (ck_holders_leaky(cx, &hs) || ck_hidden_later_use(cx, &lt))
            continue;
        lt.site = cx->r->storages[s].value;
        tl_xgrow(all, &cap, (size_t)n + 1, 16);
        all[n++] = lt;
    }
    free(hs.h);
    if (n > 1)
        qsort(all, (size_t)n, sizeof *all, ck_cmp_late);
    *n_out = n;
    return all;
}

/* The saving of g[0..n) over known sizes: fills sv; false when below a threshold. */
static bool ck_late_known(const ck_ctx *cx, const ck_fscope *fs, const ck_late *g, int n,
                          ck_late_saving *sv)
{
    if (!ck_peaks_covered(fs, g, n))
        return false;
    int64_t new_peak = ck_peak_without(cx, fs, g, n);
    int64_t saved = fs->peak - new_peak;
    if (saved < cx->o->late_release_min_bytes ||
        saved * 100 < fs->peak * cx->o->late_release_min_percent)
        return false;
    sv->from = ck_bytes(fs->peak);
    sv->to = ck_bytes(new_peak);
    sv->saves = ck_bytes(saved);
    sv->peak_event = fs->peaks[0];
    return true;
}

/* ---- late-release over formulas ---- */

/* Live bytes after event e: the known part and the formulas. */
static sx_int ck_live_sx(const an_event *e) { return e->live_sx; } /* the whole live bytes */

/* The bytes g[0..n) no longer hold at event i when each is freed right
 * after its last use (windows in order of allocation, not overlapping). */
static sx_int ck_late_sub(const ck_ctx *cx, const ck_late *g, int n, int *w, int64_t i)
{
    while (*w < n && g[*w].end <= i)
        ++*w;
    return *w < n && g[*w].last < i ? ck_storage_sx(&cx->r->storages[g[*w].s]) : (sx_int){0, 0};
}

/* The largest live total of fs's events, when one is provably at least
 * every other (else false: a max of formulas, left alone). */
static bool ck_fscope_peak_sx(const ck_ctx *cx, const ck_fscope *fs, sx_int *peak)
{
    bool have = false, ge;
    for (int64_t i = fs->lo; i < fs->hi; i++) {
        if (!fs->in[i])
            continue;
        sx_int t = ck_live_sx(ck_event(cx, i));
        if (!ck_sx_usable(t))
            return false;
        if (!have || (!sx_same(t, *peak) && !(sx_prove(*peak, SX_GE, t, &ge) && ge))) {
            if (have && !(sx_prove(t, SX_GE, *peak, &ge) && ge))
                return false;
            *peak = t;
            have = true;
        }
    }
    return have;
}

/* The saving of g[0..n) when live bytes are formulas: the function's peak
 * (one formula, the report's), the peak with g freed early (a max of
 * formulas when none is provably the largest), and the conditions under
 * which the saving reaches both thresholds.  Fills sv (sv->when allocated);
 * false when the saving is below a threshold for every value, or nothing
 * can be said. */
static bool ck_late_formula(const ck_ctx *cx, const ck_fscope *fs, const ck_late *g, int n,
                            ck_late_saving *sv)
{
    const an_func_report *f = an_report_func(cx->r, cx->r->unit->funcs[fs->func]->name);
    sx_int peak;
    an_peak cands = {.n = 0}; /* the peak with g freed early: their max */
    int w = 0;
    bool eq;
    if (!f || !ck_fscope_peak_sx(cx, fs, &peak) ||
        !(sx_same(peak, f->peak_sx) || (sx_prove(peak, SX_EQ, f->peak_sx, &eq) && eq)))
        return false; /* the log's totals are not the report's peak (a loop summarised) */
    sv->peak_event = -1;
    for (int64_t i = fs->lo; i < fs->hi; i++) {
        if (!fs->in[i])
            continue;
        sx_int t = ck_live_sx(ck_event(cx, i)), sub = ck_late_sub(cx, g, n, &w, i);
        if (sv->peak_event < 0 && !sx_same(sub, (sx_int){0, 0}) &&
            (sx_same(t, peak) || (sx_prove(t, SX_EQ, peak, &eq) && eq)))
            sv->peak_event = i;
        if (an_peak_add(&cands, sx_sub(t, sub), 0) == AN_PEAK_FULL)
            return false; /* (nothing said rather than a saving that may be less) */
    }
    int64_t min = cx->o->late_release_min_bytes > 0 ? cx->o->late_release_min_bytes : 1;
    sx_int pct_of_peak = sx_mul(peak, (sx_int){cx->o->late_release_min_percent, 0});
    ck_conds c;
    ck_conds_init(&c);
    sx_int saves = {0, 0};
    for (int k = 0; k < cands.n; k++) { /* the saving is the least of peak - cands[k] */
        sx_int saved = sx_sub(peak, cands.cand[k]);
        ck_conds_need(&c, saved, SX_GE, (sx_int){min, 0});
        ck_conds_need(&c, sx_mul(saved, (sx_int){100, 0}), SX_GE, pct_of_peak);
        saves = k ? sx_min(saves, saved) : saved;
    }
    bool fires = cands.n > 0 && sv->peak_event >= 0 && ck_sx_usable(saves) &&
                 ck_conds_verdict(&c) != 0;
    if (fires) {
        sv->from = ck_sx_bytes(peak);
        sv->to = ck_sx_bytes(an_peak_max(&cands));
        sv->saves = ck_sx_bytes(saves);
        sv->when = ck_conds_when(&c);
    }
    ck_conds_free(&c);
    return fires;
}

/* Whether a storage of g[0..n) stands for many (made in a loop run a
 * number of times that is a formula): the log holds some of them only. */
static bool ck_late_summarised(const ck_ctx *cx, const ck_late *g, int n)
{
    for (int k = 0; k < n; k++)
        if (cx->r->storages[g[k].s].summarised)
            return true;
    return false;
}

/* A storage whose last use comes before its function's peak and whose
 * release comes after it (or, in main, never comes) raises that peak by up
 * to its bytes.  The release can move to right after the statement, in the
 * release's own block, that holds the last use; the saving is the peak of
 * the function (over all its activations, every execution of the call site
 * moved) minus the peak recomputed so, and it must reach both thresholds
 * (bytes, percent of the peak).  Quiet when a handle is used where the log
 * cannot see (a query, an external call, a copy into another variable),
 * and for storages a leak keeps alive (leaked-tensor's business).  Where
 * sizes are formulas, so are the peaks and the saving: it fires when the
 * thresholds are met for every value, or says when they are. */
/* Report the storages g[0..n) of one call site when releasing them early
 * saves enough of the peak of fs (built for their function). */
static void ck_late_group(ck_ctx *cx, const ck_fscope *fs, const ck_late *g, int n,
                          ck_holders *hs)
{
    const an_func_report *f = an_report_func(cx->r, cx->r->unit->funcs[fs->func]->name);
    bool formula = f && f->symbolic;
    ck_late_saving sv = {.when = NULL, .peak_event = -1};
    if (formula ? !ck_late_formula(cx, fs, g, n, &sv) : !ck_late_known(cx, fs, g, n, &sv))
        return;
    char *runs = formula && ck_late_summarised(cx, g, n) ? tl_xasprintf(" (each of its executions)")
                 : n > 1 ? tl_xasprintf(" (each of its %d executions)", n)
                         : tl_xasprintf("%s", "");
    ck_holders_replay(cx, g[0].s, g[0].end, hs);
    ck_late_report(cx, &g[0], hs, fs->func, &sv, runs);
    free(runs);
    free(sv.when);
}

void ck_rule_late_release(ck_ctx *cx)
{
    if (!cx->log_complete)
        return;
    int n;
    ck_late *all = ck_late_candidates(cx, &n);
    ck_fscope fs;
    ck_holders hs = {0};
    ck_fscope_alloc(cx, &fs);
    for (int k = 0, end; k < n; k = end) {
        for (end = k + 1; end < n && all[end].func == all[k].func && all[end].site == all[k].site;)
            end++;
        if (fs.func != all[k].func)
            ck_fscope_build(cx, all[k].func, &fs);
        ck_late_group(cx, &fs, all + k, end - k, &hs);
    }
    ck_fscope_free(&fs);
    free(hs.h);
    free(all);
}

/* ---- leaked-tensor ---- */

typedef struct ck_lost_site {
    int64_t first; /* its first LOST event */
    int64_t count;
} ck_lost_site;

/* Whether the LOST event e leaks: in main's straight code only a handle
 * that is the last reachable one counts, and going out of scope there is
 * the program's end's business. */
static bool ck_lost_leaks(const ck_ctx *cx, int64_t i, ck_holders *hs)
{
    const an_event *e = ck_event(cx, i);
    int s = e->storage;
    if (e->var >= 0 && cx->r->unit->vars[e->var].is_temp)
        return false; /* a temporary reused by a loop: ck_temporaries' */
    if (s < 0 || s >= cx->r->n_storages || !ck_storage_counts(&cx->r->storages[s]) ||
        cx->r->storages[s].discarded || cx->r->storages[s].free_event >= 0)
        return false;
    if (!ck_ir_is_main(cx, e->func) || e->loop_depth > 0)
        return true;
    if (strcmp(e->lost_why ? e->lost_why : "", "out of scope") == 0)
        return false;
    ck_holders_replay(cx, s, ck_storage_end(cx, s), hs);
    return ck_holders_named(cx, hs) == 0;
}

/* Before the closing brace of the block the variable goes out of, `tl_release(v);`. */
static void ck_lost_fix(ck_ctx *cx, an_diag *d, const an_event *e)
{
    const ir_block *b = ck_ir_block_ending(cx, e->func, e->line, e->col);
    int len;
    const char *line = ck_src_line(ck_source(cx), e->line, &len);
    bool declared = false;
    for (int k = 0; b && k < b->n_decls; k++)
        declared = declared || b->decls[k] == e->var;
    if (!d || !b || !declared || ck_ir_block_jumps(b) || !line || e->col < 1 || e->col > len ||
        line[e->col - 1] != '}')
        return;
    for (int k = 0; k < e->col - 1; k++)
        if (line[k] != ' ' && line[k] != '\t')
            return;
    const ir_var *v = &cx->r->unit->vars[e->var];
    char *indent = ck_src_indent(ck_source(cx), v->loc.line);
    char *text = tl_xasprintf("%stl_release(%s);\n", indent, v->name);
    ck_fixit(d, (ck_pos){e->line, 1}, (ck_pos){e->line, 1}, text);
    free(indent);
    free(text);
}

/* " (3 times here, 12*n*d B in all)" for count leaks of a storage of bytes,
 * "" for one; newly allocated. */
static char *ck_leak_times(sx_int bytes, int64_t count, const char *where)
{
    if (count <= 1)
        return tl_xasprintf("%s", "");
    sx_int all = sx_mul(bytes, (sx_int){count, 0});
    if (!ck_sx_usable(all))
        return tl_xasprintf(" (%lld times%s)", (long long)count, where);
    return tl_xasprintf(" (%lld times%s, %s in all)", (long long)count, where, ck_sx_bytes(all).s);
}

static void ck_lost_report(ck_ctx *cx, const ck_lost_site *site)
{
    const an_event *e = ck_event(cx, site->first);
    const an_storage *st = &cx->r->storages[e->storage];
    const char *why = e->lost_why ? e->lost_why : "lost";
    char *maker = ck_value_label(cx, st->value);
    char *who = e->var >= 0 ? tl_xasprintf("'%s'", cx->r->unit->vars[e->var].name)
                : strcmp(why, "result discarded") == 0 ? tl_xasprintf("the returned tensor")
                                                        : tl_xasprintf("a tensor held in memory");
    char *times = ck_leak_times(ck_storage_sx(st), site->count, " here");
    an_diag *d = ck_diag_add(cx, CK_leaked_tensor, e->line, e->col,
                             "%s is %s while its handle keeps %s alive (the storage of %s): it "
                             "can never be released%s", who,
                             strcmp(why, "result discarded") == 0 ? "discarded" : why,
                             ck_storage_bytes(st).s, maker, times);
    if (e->handle_value >= 0)
        ck_note(d, cx->r->values[e->handle_value].line, cx->r->values[e->handle_value].col,
                "the handle is made here");
    if (strcmp(why, "out of scope") == 0 && e->var >= 0)
        ck_lost_fix(cx, d, e);
    free(maker);
    free(who);
    free(times);
}

/* Whether the temporary of call site v is handed on (returned, stored,
 * copied, passed to an external function): someone else may release it. */
static bool ck_temp_handed_on(const ck_ctx *cx, int v)
{
    const an_value *x = &cx->r->values[v];
    int var = ck_ir_call_result(cx, x->func, x->line, x->col);
    unsigned gone = 1u << CK_MENTION_RETURN | 1u << CK_MENTION_ESCAPE | 1u << CK_MENTION_ALIAS |
                    1u << CK_MENTION_EXTERNAL;
    return var < 0 || ck_var_mentioned(cx, var, gone);
}

/* Whether the temporary made by CALL event e leaks its storage: always
 * outside main's straight code; there, only when it is the storage's own
 * or when every named handle into the storage is released. */
static bool ck_temp_leaks(const ck_ctx *cx, const an_event *e, ck_holders *hs)
{
    const an_report *r = cx->r;
    int s = e->storage;
    if (s < 0 || s >= r->n_storages || !ck_storage_counts(&r->storages[s]) ||
        r->storages[s].discarded || r->storages[s].free_event >= 0)
        return false;
    if (!ck_ir_is_main(cx, e->func) || e->loop_depth > 0 || r->storages[s].value == e->value)
        return true;
    ck_holders_replay(cx, s, ck_storage_end(cx, s), hs);
    return ck_holders_named(cx, hs) == 0;
}

static void ck_temp_report(ck_ctx *cx, int v, int64_t first, int64_t count)
{
    const an_report *r = cx->r;
    const an_value *x = &r->values[v];
    const an_storage *st = &r->storages[ck_event(cx, first)->storage];
    bool own = st->value == v;
    char *times = ck_leak_times(ck_storage_sx(st), count, "");
    char *made = ck_line_text(cx, st->alloc_line);
    char *owner = own ? tl_xasprintf("its own %s storage", ck_storage_bytes(st).s)
                      : tl_xasprintf("the %s storage made at line %s", ck_storage_bytes(st).s,
                                     made);
    free(made);
    ck_diag_add(cx, CK_leaked_tensor, x->line, x->col,
                "the temporary made by tl_%s is never released and keeps %s alive%s; assign it "
                "to a variable and release it", mt_ops[x->op].name, owner, times);
    free(times);
    free(owner);
}

/* A temporary (a nested call's result) can never be released: every
 * execution that holds a storage leaks it.  Reported once per call site
 * with the count. */
static void ck_temporaries(ck_ctx *cx, ck_holders *hs)
{
    const an_report *r = cx->r;
    int64_t *first = tl_xreallocarray(NULL, (size_t)r->n_values + 1, sizeof(int64_t));
    int64_t *count = tl_xcalloc((size_t)r->n_values + 1, sizeof(int64_t));
    signed char *temp = tl_xcalloc((size_t)r->n_values + 1, 1); /* 1 yes, -1 no, 0 not asked */
    for (int64_t k = 0; k < cx->n_picks[CK_PICK_TEMP]; k++) {
        int64_t i = cx->picks[CK_PICK_TEMP][k];
        const an_event *e = ck_event(cx, i);
        int v = e->value;
        if (temp[v] == 0)
            temp[v] = ck_temp_handed_on(cx, v) ? -1 : 1;
        if (temp[v] < 0 || !ck_temp_leaks(cx, e, hs))
            continue;
        if (count[e->value]++ == 0)
            first[e->value] = i;
    }
    for (int v = 0; v < r->n_values; v++)
        if (count[v] > 0)
            ck_temp_report(cx, v, first[v], count[v]);
    free(first);
    free(count);
    free(temp);
}

/* A handle that becomes unreachable (its variable overwritten, out of
 * scope in a loop or at the end of a function other than main, a returned
 * tensor discarded) while it holds a storage: the storage is never freed.
 * Reported once per site, with the count of executions that leaked. */
void ck_rule_leaked_tensor(ck_ctx *cx)
{
    ck_holders hs = {0};
    ck_lost_site *sites = tl_xcalloc((size_t)cx->n_picks[CK_PICK_LOST] + 1, sizeof *sites);
    int64_t n_sites = 0;
    for (int64_t p = 0; p < cx->n_picks[CK_PICK_LOST]; p++) {
        int64_t i = cx->picks[CK_PICK_LOST][p];
        const an_event *e = ck_event(cx, i);
        if (!ck_lost_leaks(cx, i, &hs))
            continue;
        int64_t k = 0;
        while (k < n_sites && (ck_event(cx, sites[k].first)->line != e->line ||
                               ck_event(cx, sites[k].first)->col != e->col))
            k++;
        if (k == n_sites)
            sites[n_sites++] = (ck_lost_site){i, 0};
        sites[k].count++;
    }
    for (int64_t k = 0; k < n_sites; k++)
        ck_lost_report(cx, &sites[k]);
    ck_temporaries(cx, &hs);
    free(sites);
    free(hs.h);
}
