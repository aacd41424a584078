/*
 * dg_timeline.c: the lifetime model of one function's execution.
 *
 * Columns.  The events of the range (dg_range) are a sequence; each event
 * gets a key (kind, function, line, column, op), so two executions of the
 * same call site have the same key.  Unless expanding, repeated runs are
 * found greedily from the left: at each position the candidate periods are
 * the distances to the next occurrences of the same key, and the period
 * whose back-to-back repetitions cover the most events wins (the smallest
 * on a tie).  A run of m repetitions is shown once: the heaviest repetition
 * (the one whose largest live total is largest, the first on a tie), which
 * therefore holds the peak when the run does; over formulas, the last one
 * whose live totals reach a peak candidate, else the last one (a loop
 * summarised over run-time sizes logs its first iteration, then the probe
 * iterations that stand for the others: an_summed_loop).  The shown
 * repetition is searched again for inner runs (nested loops).  Every event maps to the
 * event it is shown as (canon); the CALL events shown are the columns.
 * The search does bounded work (candidates per position, comparisons in
 * all) and the model says when it stopped early.
 *
 * Rows.  A storage allocated in the range belongs to the row of the column
 * its allocating call is shown as: one row per storage outside repeated
 * runs, one row per call site inside one (its members are that call's
 * storages, one per repetition).  Storages the range only uses (a caller's
 * tensors, for a function that is not a root) get a row each.  Rows are in
 * order of allocation.
 *
 * Cells.  Storage s is live after event e when its allocating call is at or
 * before e and it is not freed yet (free_event is the index of the release
 * that freed it).  A storage made on the arm of an unknown branch that the
 * analysis did not keep is live at its allocation only, or until the
 * release in that arm.  A storage whose bytes a summarised loop's state
 * holds in a storage of its own (retire_event) is live until then.
 *
 * Formulas.  When the function's sizes are formulas, a column's live total
 * is its event's live_sx and a cell's bytes the sum of its live storages'
 * formulas; the peak columns are those whose total is one of the report's
 * peak candidates (the peak is their max).
 */
#include "dg_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    DG_MAX_CANDIDATES = 48,                   /* periods tried per position */
};
#define DG_GROUP_BUDGET ((int64_t)300000000)  /* key comparisons in all */

/* ---- keys ---- */

typedef struct key_map {
    int64_t cap;
    uint64_t *hash;  /* 0 = empty */
    int *id;
    const an_event **first; /* an event with the key (to compare fields) */
    int n_ids;
} key_map;

static uint64_t event_hash(const an_event *e)
{
    uint64_t h = 1469598103934665603ull;
    int64_t f[5] = {e->kind, e->func, e->line, e->col, e->op};
    for (int k = 0; k < 5; k++)
        h = (h ^ (uint64_t)f[k]) * 1099511628211ull;
    return h ? h : 1;
}

static bool same_site(const an_event *a, const an_event *b)
{
    return a->kind == b->kind && a->func == b->func && a->line == b->line && a->col == b->col &&
           a->op == b->op;
}

static int key_of(key_map *m, const an_event *e)
{
    uint64_t h = event_hash(e);
    int64_t mask = m->cap - 1;
    for (int64_t k = (int64_t)(h & (uint64_t)mask);; k = (k + 1) & mask) {
        if (m->hash[k] == 0) {
            m->hash[k] = h;
            m->first[k] = e;
            return m->id[k] = m->n_ids++;
        }
        if (m->hash[k] == h && same_site(m->first[k], e))
            return m->id[k];
    }
}

static int *make_keys(const an_report *r, const dg_range *g)
{
    key_map m = {.cap = 64};
    while (m.cap < 2 * g->n + 2)
        m.cap *= 2;
    m.hash = tl_xcalloc((size_t)m.cap, sizeof *m.hash);
    m.id = tl_xcalloc((size_t)m.cap, sizeof *m.id);
    m.first = tl_xcalloc((size_t)m.cap, sizeof *m.first);
    int *key = tl_xcalloc((size_t)g->n, sizeof *key);
    for (int64_t i = 0; i < g->n; i++)
        key[i] = key_of(&m, &r->events[g->ev[i]]);
    free(m.hash);
    free(m.id);
    free(m.first);
    return key;
}

/* next[i]: the next position with the same key, -1 */
static int64_t *make_next(const int *key, int64_t n)
{
    int max = 0;
    for (int64_t i = 0; i < n; i++)
        max = key[i] > max ? key[i] : max;
    int64_t *last = tl_xcalloc((size_t)max + 1, sizeof *last);
    int64_t *next = tl_xcalloc((size_t)n, sizeof *next);
    for (int k = 0; k <= max; k++)
        last[k] = -1;
    for (int64_t i = n - 1; i >= 0; i--) {
        next[i] = last[key[i]];
        last[key[i]] = i;
    }
    free(last);
    return next;
}

/* ---- repeated runs ---- */

typedef struct seq_span {
    int64_t lo, hi;   /* positions of the repetition shown */
    int64_t n_iter, shown;
    int depth;
} seq_span;

typedef struct grouper {
    const an_report *r;
    const an_func_report *f; /* symbolic: repetitions are chosen by its peak candidates */
    const dg_range *g;
    const int *key;
    const int64_t *next;
    int64_t *canon;
    seq_span *spans;
    int n_spans, cap_spans;
    int64_t work;
    bool cut;
} grouper;

static bool same_block(grouper *gr, int64_t a, int64_t b, int64_t p)
{
    gr->work += p;
    if (gr->work > DG_GROUP_BUDGET) {
        gr->cut = true;
        return false;
    }
    return memcmp(gr->key + a, gr->key + b, (size_t)p * sizeof *gr->key) == 0;
}

/* The period at i with the largest coverage within [i, hi): *p, *m (m >= 2), or *m = 1. */
static void best_repeat(grouper *gr, int64_t i, int64_t hi, int64_t *p_out, int64_t *m_out)
{
    int64_t best = 0;
    int n_cand = 0;
    *p_out = 0;
    *m_out = 1;
    for (int64_t q = gr->next[i]; q >= 0 && q < hi && n_cand < DG_MAX_CANDIDATES && !gr->cut;
         q = gr->next[q], n_cand++) {
        int64_t p = q - i, m = 1;
        if (2 * p > hi - i)
            break;
        while (i + (m + 1) * p <= hi && same_block(gr, i, i + m * p, p))
            m++;
        if (m >= 2 && m * p > best) {
            best = m * p;
            *p_out = p;
            *m_out = m;
        }
        if (best == hi - i)
            break;
    }
}

/* The largest live total after a call in [lo, hi), -1 when no call. */
static int64_t block_weight(const grouper *gr, int64_t lo, int64_t hi)
{
    int64_t w = -1;
    for (int64_t i = lo; i < hi; i++) {
        const an_event *e = &gr->r->events[gr->g->ev[i]];
        if (e->kind == AN_EV_CALL && e->live_bytes > w)
            w = e->live_bytes;
    }
    return w;
}

/* Whether a call in [lo, hi) leaves live a peak candidate of gr->f. */
static bool block_reaches_peak(const grouper *gr, int64_t lo, int64_t hi)
{
    for (int64_t i = lo; i < hi; i++) {
        const an_event *e = &gr->r->events[gr->g->ev[i]];
        for (int k = 0; e->kind == AN_EV_CALL && k < gr->f->n_peak_cands; k++)
            if (sx_same(e->live_sx, gr->f->peak_cand[k]))
                return true;
    }
    return false;
}

static int64_t heaviest(const grouper *gr, int64_t i, int64_t p, int64_t m)
{
    if (gr->f->symbolic) { /* totals are formulas: the last that reaches the peak, or the last */
        for (int64_t k = m - 1; k >= 0; k--)
            if (block_reaches_peak(gr, i + k * p, i + (k + 1) * p))
                return k;
        return m - 1;
    }
    int64_t best = 0, w_best = block_weight(gr, i, i + p);
    for (int64_t k = 1; k < m; k++) {
        int64_t w = block_weight(gr, i + k * p, i + (k + 1) * p);
        if (w > w_best) {
            w_best = w;
            best = k;
        }
    }
    return best;
}

static void span_push(grouper *gr, const seq_span *s)
{
    tl_xgrow(gr->spans, &gr->cap_spans, (size_t)gr->n_spans + 1, 16);
    gr->spans[gr->n_spans++] = *s;
}

static void compress(grouper *gr, int64_t lo, int64_t hi, int depth)
{
    int64_t i = lo;
    while (i < hi) {
        int64_t p, m;
        best_repeat(gr, i, hi, &p, &m);
        if (m < 2) {
            gr->canon[i] = i;
            i++;
            continue;
        }
        int64_t rep = heaviest(gr, i, p, m), shown = i + rep * p;
        span_push(gr, &(seq_span){shown, shown + p, m, rep, depth});
        compress(gr, shown, shown + p, depth + 1);
        for (int64_t k = 0; k < m; k++)
            if (k != rep)
                for (int64_t j = 0; j < p; j++)
                    gr->canon[i + k * p + j] = gr->canon[shown + j];
        i += m * p;
    }
}

static int64_t position_of(const dg_range *g, int64_t e);

/* ---- columns ---- */

static int64_t *col_of_position(dg_timeline *t, const int64_t *canon)
{
    const an_report *r = t->r;
    int64_t n = t->range.n;
    int64_t *col = tl_xcalloc((size_t)n, sizeof *col);
    t->cols = tl_xcalloc((size_t)n, sizeof *t->cols);
    for (int64_t i = 0; i < n; i++) {
        col[i] = -1;
        if (canon[i] == i && r->events[t->range.ev[i]].kind == AN_EV_CALL) {
            col[i] = t->n_cols;
            t->cols[t->n_cols++] = (dg_col){.ev = t->range.ev[i], .n_calls = 1};
        }
    }
    for (int64_t i = 0; i < n; i++)
        if (r->events[t->range.ev[i]].kind == AN_EV_CALL)
            t->n_calls++;
    return col;
}

/* First column at or after position i (n_cols when none). */
static int first_col_from(const int64_t *col, int64_t n, int64_t i, int n_cols)
{
    for (; i < n; i++)
        if (col[i] >= 0)
            return (int)col[i];
    return n_cols;
}

/* Which iterations of a loop summarised over run-time sizes the run of
 * positions [lo, hi) is: d->summed and d->summed_part, or none. */
static void find_summed(const dg_timeline *t, dg_span *d, int64_t lo, int64_t hi)
{
    for (int k = 0; k < t->r->n_summed_loops; k++) {
        const an_summed_loop *l = &t->r->summed_loops[k];
        int64_t a = position_of(&t->range, l->first_event);
        int64_t p = position_of(&t->range, l->probe_event);
        int64_t b = position_of(&t->range, l->end_event);
        if (hi <= a || lo >= b || (lo >= a && hi <= p) || (lo >= p && hi <= b && hi - lo < b - p) ||
            (lo <= a && hi >= b && (lo < a || hi > b)))
            continue; /* apart, inside one iteration, or around the whole loop */
        d->summed = l;
        d->summed_part = lo == a && hi == b ? DG_SUMMED_ALL
                         : lo == p && hi == b ? DG_SUMMED_LATER : DG_SUMMED_SOME;
        return;
    }
}

static void make_spans(dg_timeline *t, const grouper *gr, const int64_t *col)
{
    t->spans = tl_xcalloc((size_t)gr->n_spans, sizeof *t->spans);
    for (int k = 0; k < gr->n_spans; k++) {
        const seq_span *s = &gr->spans[k];
        int lo = first_col_from(col, t->range.n, s->lo, t->n_cols);
        int hi = first_col_from(col, t->range.n, s->hi, t->n_cols);
        if (hi <= lo)
            continue;
        dg_span *d = &t->spans[t->n_spans++];
        *d = (dg_span){.col_lo = lo, .col_hi = hi, .n_iter = s->n_iter, .shown = s->shown,
                       .depth = s->depth, .func = t->r->events[t->cols[lo].ev].func};
        int64_t run_lo = s->lo - s->shown * (s->hi - s->lo);
        find_summed(t, d, run_lo, run_lo + s->n_iter * (s->hi - s->lo));
        for (int c = lo; c < hi; c++)
            t->cols[c].n_calls *= s->n_iter;
    }
}

/* Over formulas: the columns whose live total is a peak candidate. */
static void find_peak_sx(dg_timeline *t)
{
    const an_func_report *f = t->f;
    for (int k = 0; k < f->n_peak_cands; k++) {
        bool drawn = false;
        for (int c = 0; c < t->n_cols && !drawn; c++) {
            drawn = sx_same(dg_timeline_live(t, c), f->peak_cand[k]);
            if (drawn) /* the first column that reaches it */
                t->peak_cols[c] = true;
        }
    }
    for (int c = t->n_cols - 1; c >= 0; c--)
        if (t->peak_cols[c])
            t->peak_col = c;
}

static void find_peak(dg_timeline *t, const int64_t *canon, const int64_t *col)
{
    int64_t best = -1;
    t->peak_col = -1;
    t->peak_cols = tl_xcalloc((size_t)t->n_cols + 1, sizeof *t->peak_cols);
    if (t->symbolic) {
        find_peak_sx(t);
        return;
    }
    for (int64_t i = 0; i < t->range.n; i++) {
        const an_event *e = &t->r->events[t->range.ev[i]];
        if (e->kind == AN_EV_CALL && e->live_bytes > best) {
            best = e->live_bytes;
            t->peak_col = (int)col[canon[i]];
        }
    }
    t->peak_bytes = best < 0 ? 0 : best;
    if (t->peak_col >= 0)
        t->peak_cols[t->peak_col] = true;
}

/* ---- the loop that repeats a span ---- */

/* A site is an API call at (line, col), or (line 0) a call of user function
 * col: directly, or through a pointer that reached it (r says). */
static bool block_has_site(const an_report *r, const ir_block *b, int line, int col);

static bool calls_through_pointer(const an_report *r, const ir_stmt *s, int func)
{
    int callees[64];
    int n = an_report_callees(r, s->loc.line, s->loc.col, callees, 64);
    for (int k = 0; k < n && k < 64; k++)
        if (callees[k] == func)
            return true;
    return false;
}

static bool stmt_has_site(const an_report *r, const ir_stmt *s, int line, int col)
{
    switch (s->kind) {
    case IR_CALL: return line > 0 && s->loc.line == line && s->loc.col == col;
    case IR_USER_CALL:
        return line == 0 && (s->user_call.fn ? calls_through_pointer(r, s, col)
                                             : s->user_call.callee == col);
    case IR_BLOCK: return block_has_site(r, s->block, line, col);
    case IR_IF:
        return block_has_site(r, s->branch.then_blk, line, col) ||
               block_has_site(r, s->branch.else_blk, line, col);
    case IR_LOOP:
        return block_has_site(r, s->loop.init, line, col) ||
               block_has_site(r, s->loop.cond_pre, line, col) ||
               block_has_site(r, s->loop.body, line, col) ||
               block_has_site(r, s->loop.step, line, col);
    default: return false;
    }
}

static bool block_has_site(const an_report *r, const ir_block *b, int line, int col)
{
    for (int k = 0; b && k < b->n_stmts; k++)
        if (stmt_has_site(r, b->stmts[k], line, col))
            return true;
    return false;
}

typedef struct site_set {
    const an_report *r;
    int n;
    const an_event **e; /* one call event per site */
    int callee;         /* >= 0: the site is a call of this user function instead */
} site_set;

static bool stmt_has_all(const ir_stmt *s, const site_set *ss)
{
    if (ss->callee >= 0)
        return stmt_has_site(ss->r, s, 0, ss->callee);
    for (int k = 0; k < ss->n; k++)
        if (!stmt_has_site(ss->r, s, ss->e[k]->line, ss->e[k]->col))
            return false;
    return true;
}

static int deepest_loop(const ir_block *b, const site_set *ss);

static int deepest_in_stmt(const ir_stmt *s, const site_set *ss)
{
    int found = 0;
    if (s->kind == IR_LOOP && stmt_has_all(s, ss))
        found = s->loc.line;
    int inner = 0;
    if (s->kind == IR_BLOCK)
        inner = deepest_loop(s->block, ss);
    else if (s->kind == IR_IF)
        inner = deepest_loop(s->branch.then_blk, ss) ? deepest_loop(s->branch.then_blk, ss)
                                                     : deepest_loop(s->branch.else_blk, ss);
    else if (s->kind == IR_LOOP)
        inner = deepest_loop(s->loop.body, ss);
    return inner ? inner : found;
}

static int deepest_loop(const ir_block *b, const site_set *ss)
{
    for (int k = 0; b && k < b->n_stmts; k++) {
        int l = deepest_in_stmt(b->stmts[k], ss);
        if (l)
            return l;
    }
    return 0;
}

static void find_loop_line(dg_timeline *t, dg_span *s)
{
    const ir_unit *u = t->r->unit;
    site_set ss = {.r = t->r, .callee = -1};
    ss.e = tl_xcalloc((size_t)(s->col_hi - s->col_lo), sizeof *ss.e);
    for (int c = s->col_lo; c < s->col_hi; c++) {
        const an_event *e = &t->r->events[t->cols[c].ev];
        bool dup = e->func != s->func;
        for (int k = 0; k < ss.n && !dup; k++)
            dup = ss.e[k]->line == e->line && ss.e[k]->col == e->col;
        if (!dup)
            ss.e[ss.n++] = e;
    }
    ss.callee = -1;
    if (u && s->func >= 0 && s->func < u->n_funcs && ss.n > 0)
        s->loop_line = deepest_loop(u->funcs[s->func]->body, &ss);
    /* no loop in the function: the run repeats because a caller's loop calls it */
    ss.callee = s->func;
    for (int f = 0; u && s->loop_line == 0 && s->func != t->f->func && f < u->n_funcs; f++)
        if (f != s->func)
            s->loop_line = deepest_loop(u->funcs[f]->body, &ss);
    free(ss.e);
}

/* ---- rows ---- */

typedef struct row_build {
    int64_t *alloc_ev;   /* per storage: event of its allocating call, -1 not in range */
    int *role_row;       /* per model column: the row of the storages it allocates, -1 */
} row_build;

/* Position of the first event >= e in the range, or n. */
static int64_t position_of(const dg_range *g, int64_t e)
{
    int64_t lo = 0, hi = g->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->ev[mid] < e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The position of storage s's allocating call in the range, or -1. */
static int64_t alloc_position(const dg_timeline *t, int s)
{
    const an_storage *st = &t->r->storages[s];
    const an_event *ev = t->r->events;
    for (int64_t i = position_of(&t->range, st->alloc_event); i < t->range.n; i++) {
        const an_event *e = &ev[t->range.ev[i]];
        if (e->kind == AN_EV_LOST)
            continue;
        return e->kind == AN_EV_CALL && e->storage == s && e->value == st->value ? i : -1;
    }
    return -1;
}

/* The storages the range's calls use, and over formulas those a summarised
 * loop made during the range to hold its state (a segment of an array, the
 * state at the probe's counter), which no call may use but the live totals
 * count. */
static bool *storages_used(const dg_timeline *t)
{
    bool *used = tl_xcalloc((size_t)t->r->n_storages + 1, sizeof *used);
    int64_t lo = t->range.n ? t->range.ev[0] : 0, hi = t->range.n ? t->range.ev[t->range.n - 1] : -1;
    for (int s = 0; t->symbolic && s < t->r->n_storages; s++) {
        const an_storage *st = &t->r->storages[s];
        used[s] = st->summarised && !st->discarded && st->alloc_event >= lo && st->alloc_event <= hi;
    }
    for (int64_t i = 0; i < t->range.n; i++) {
        const an_event *e = &t->r->events[t->range.ev[i]];
        if (e->kind != AN_EV_CALL)
            continue;
        if (e->storage >= 0)
            used[e->storage] = true;
        for (int k = 0; k < e->n_in && k < AN_EV_MAX_IN; k++)
            if (e->in_storage[k] >= 0)
                used[e->in_storage[k]] = true;
    }
    return used;
}

/* Storage st's bytes as a formula: a number, its formula, or unknown. */
static sx_int storage_sx(const an_storage *st)
{
    if (st->external)
        return (sx_int){0, 0};
    if (st->symbolic)
        return st->nbytes_sx;
    return st->nbytes >= 0 ? (sx_int){st->nbytes, 0} : (sx_int){0, SX_TOO_BIG};
}

static int row_new(dg_timeline *t, int *cap, int s, int alloc_col)
{
    if (t->n_rows == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        t->rows = tl_xreallocarray(t->rows, (size_t)*cap, sizeof *t->rows);
    }
    const an_storage *st = &t->r->storages[s];
    t->rows[t->n_rows] = (dg_row){.first = s, .nbytes = st->nbytes, .nbytes_max = st->nbytes,
                                  .formula = st->symbolic, .nbytes_sx = st->nbytes_sx,
                                  .alloc_col = alloc_col, .alloc_line = st->alloc_line,
                                  .free_line = st->free_line, .external = st->external,
                                  .first_sx = storage_sx(st), .shown_sx = storage_sx(st)};
    return t->n_rows++;
}

static void row_add(dg_timeline *t, int row, int s)
{
    dg_row *w = &t->rows[row];
    const an_storage *st = &t->r->storages[s];
    w->n_members++;
    w->discarded = w->discarded || st->discarded;
    w->formula = w->formula && st->symbolic && st->nbytes_sx.e == w->nbytes_sx.e &&
                 st->nbytes_sx.c == w->nbytes_sx.c;
    if (st->free_event >= 0)
        w->free_count++;
    if (st->nbytes < 0 || w->nbytes < 0)
        w->nbytes = w->nbytes_max = -1;
    else if (st->nbytes > w->nbytes_max)
        w->nbytes_max = st->nbytes;
    else if (st->nbytes < w->nbytes)
        w->nbytes = st->nbytes;
    t->row_of[s] = row;
}

static void make_rows(dg_timeline *t, const int64_t *canon, const int64_t *col)
{
    int n_st = t->r->n_storages, cap = 0;
    bool *used = storages_used(t);
    int *role = tl_xcalloc((size_t)t->n_cols + 1, sizeof *role);
    t->row_of = tl_xcalloc((size_t)n_st + 1, sizeof *t->row_of);
    t->alloc_ev = tl_xcalloc((size_t)n_st + 1, sizeof *t->alloc_ev);
    for (int c = 0; c < t->n_cols; c++)
        role[c] = -1;
    for (int s = 0; s < n_st; s++) {
        t->row_of[s] = -1;
        t->alloc_ev[s] = -1;
        int64_t i = alloc_position(t, s);
        if (i >= 0) {
            int c = (int)col[canon[i]];
            if (role[c] < 0)
                role[c] = row_new(t, &cap, s, c);
            t->alloc_ev[s] = t->range.ev[i];
            row_add(t, role[c], s);
            if (canon[i] == i) /* made by the repetition drawn */
                t->rows[role[c]].shown_sx = storage_sx(&t->r->storages[s]);
        } else if (used[s]) {
            t->alloc_ev[s] = t->r->storages[s].alloc_event;
            row_add(t, row_new(t, &cap, s, -1), s);
        }
    }
    free(role);
    free(used);
}

/* Storages made during the range on a branch arm the analysis did not keep
 * have no events (the log keeps the kept arm's): they get no row, and the
 * chart says how many.  The range's storages have ids between its rows'. */
static void count_discarded(dg_timeline *t)
{
    int lo = t->r->n_storages, hi = -1;
    for (int s = 0; s < t->r->n_storages; s++) {
        if (t->row_of[s] >= 0 && t->alloc_ev[s] >= (t->range.n ? t->range.ev[0] : 0)) {
            lo = s < lo ? s : lo;
            hi = s > hi ? s : hi;
        }
    }
    for (int s = lo; s <= hi; s++) {
        if (t->row_of[s] < 0 && t->r->storages[s].discarded) {
            if (t->n_discarded_hidden++ == 0)
                t->discarded_example = s;
        }
    }
}

static void make_members(dg_timeline *t)
{
    int n_st = t->r->n_storages;
    t->member_start = tl_xcalloc((size_t)t->n_rows + 1, sizeof *t->member_start);
    for (int s = 0; s < n_st; s++)
        if (t->row_of[s] >= 0)
            t->member_start[t->row_of[s] + 1]++;
    for (int k = 0; k < t->n_rows; k++)
        t->member_start[k + 1] += t->member_start[k];
    t->members = tl_xcalloc((size_t)t->member_start[t->n_rows] + 1, sizeof *t->members);
    int64_t *fill = tl_xcalloc((size_t)t->n_rows + 1, sizeof *fill);
    for (int s = 0; s < n_st; s++) {
        int k = t->row_of[s];
        if (k >= 0)
            t->members[t->member_start[k] + fill[k]++] = s;
    }
    free(fill);
    count_discarded(t);
    int n_peaks = 0, *peaks = tl_xcalloc((size_t)t->n_cols + 1, sizeof *peaks);
    for (int c = 0; c < t->n_cols; c++)
        if (t->peak_cols[c])
            peaks[n_peaks++] = c;
    for (int k = 0; k < t->n_rows; k++) {
        t->n_discarded += t->rows[k].discarded;
        for (int j = 0; j < n_peaks && !t->rows[k].at_peak; j++) {
            int64_t n_live = 0;
            dg_timeline_cell(t, k, t->cols[peaks[j]].ev, &n_live);
            t->rows[k].at_peak = n_live > 0;
        }
    }
    free(peaks);
}

/* ---- the model ---- */

/* Find the repeated runs: canon[] and gr's spans (positions). */
static void group(dg_timeline *t, bool expand, int64_t *canon, grouper *gr)
{
    for (int64_t i = 0; i < t->range.n; i++)
        canon[i] = i;
    *gr = (grouper){.r = t->r, .f = t->f, .g = &t->range, .canon = canon};
    if (expand || t->range.n < 2)
        return;
    int *key = make_keys(t->r, &t->range);
    int64_t *next = make_next(key, t->range.n);
    gr->key = key;
    gr->next = next;
    compress(gr, 0, t->range.n, 0);
    t->grouping_cut = gr->cut;
    free(key);
    free(next);
    gr->key = NULL;
    gr->next = NULL;
}

void dg_timeline_build(dg_timeline *t, const an_report *r, const an_func_report *f, bool expand)
{
    grouper gr;
    *t = (dg_timeline){.r = r, .f = f, .peak_col = -1, .symbolic = f->symbolic};
    dg_range_init(&t->range, r, f);
    int64_t *canon = tl_xcalloc((size_t)t->range.n + 1, sizeof *canon);
    group(t, expand, canon, &gr);
    int64_t *col = col_of_position(t, canon);
    make_spans(t, &gr, col);
    free(gr.spans);
    for (int k = 0; k < t->n_spans; k++)
        find_loop_line(t, &t->spans[k]);
    find_peak(t, canon, col);
    make_rows(t, canon, col);
    make_members(t);
    free(col);
    free(canon);
}

void dg_timeline_free(dg_timeline *t)
{
    dg_range_free(&t->range);
    free(t->cols);
    free(t->spans);
    free(t->rows);
    free(t->peak_cols);
    free(t->row_of);
    free(t->alloc_ev);
    free(t->member_start);
    free(t->members);
    *t = (dg_timeline){0};
}

/* ---- cells and words ---- */

static bool live_after(const dg_timeline *t, int s, int64_t ev)
{
    const an_storage *st = &t->r->storages[s];
    int64_t a = t->alloc_ev[s];
    if (a < 0 || ev < a || (st->retire_event >= 0 && ev >= st->retire_event))
        return false;
    if (st->free_event >= 0)
        return ev < st->free_event;
    return !st->discarded || ev == a;
}

int64_t dg_timeline_cell(const dg_timeline *t, int row, int64_t ev, int64_t *n_live)
{
    int64_t bytes = 0;
    *n_live = 0;
    for (int64_t k = t->member_start[row]; k < t->member_start[row + 1]; k++) {
        int s = t->members[k];
        if (!live_after(t, s, ev))
            continue;
        (*n_live)++;
        int64_t b = t->r->storages[s].nbytes;
        bytes = bytes < 0 || b < 0 ? -1 : bytes + b;
    }
    return bytes;
}

sx_int dg_timeline_cell_sx(const dg_timeline *t, int row, int64_t ev, int64_t *n_live)
{
    sx_int bytes = {0, 0};
    *n_live = 0;
    for (int64_t k = t->member_start[row]; k < t->member_start[row + 1]; k++) {
        int s = t->members[k];
        if (!live_after(t, s, ev))
            continue;
        (*n_live)++;
        bytes = sx_add(bytes, storage_sx(&t->r->storages[s])); /* unknown stays unknown */
    }
    return bytes;
}

sx_int dg_timeline_live(const dg_timeline *t, int col)
{
    const an_event *e = &t->r->events[t->cols[col].ev];
    return t->symbolic ? e->live_sx : (sx_int){e->live_bytes, 0};
}

int dg_share_step(sx_int bytes, sx_int peak, int n)
{
    for (int q = n - 1; q >= 1; q--) { /* share > q/n: always, never, or it depends */
        bool above;
        if (!sx_prove(sx_mul((sx_int){n, 0}, bytes), SX_GT, sx_mul((sx_int){q, 0}, peak), &above))
            return -1;
        if (above)
            return q;
    }
    return 0;
}

const char *dg_timeline_made_here(const dg_timeline *t, int row, int64_t ev)
{
    const an_event *e = &t->r->events[ev];
    if (e->kind != AN_EV_CALL || e->value < 0 || e->storage < 0 || t->row_of[e->storage] != row)
        return NULL;
    return dg_value_name(&t->r->values[e->value]);
}

void dg_buf_row_id(dg_buf *b, const dg_timeline *t, int row)
{
    const dg_row *w = &t->rows[row];
    dg_buf_printf(b, "S%d", w->first);
    if (w->n_members > 1)
        dg_buf_printf(b, " … ×%lld", (long long)w->n_members);
}

void dg_buf_row_names(dg_buf *b, const dg_timeline *t, int row, bool mark_views)
{
    const an_report *r = t->r;
    int first = t->rows[row].first, maker = r->storages[first].value, n = 0;
    if (maker >= 0) /* the call site that made it (its first run may have made another) */
        dg_buf_printf(b, "%s", dg_value_name(&r->values[maker]));
    for (int v = 0; v < r->n_values; v++) {
        if (v == maker || r->values[v].storage != first || !r->values[v].executed)
            continue;
        const char *sep = maker < 0 && n == 0 ? "" : mark_views && n == 0 ? "; views: " : ", ";
        dg_buf_printf(b, "%s%s", sep, dg_value_name(&r->values[v]));
        n++;
    }
    dg_buf_puts(b, "");
}

/* Where the repeated calls come from: "loop at line 18", "step() in the loop
 * at line 23", "step()"; for a loop summarised over run-time sizes, that
 * loop: "loop at line 36", "loop at line 77 in load_layers()". */
static void span_place(dg_buf *b, const dg_timeline *t, const dg_span *s)
{
    const ir_unit *u = t->r->unit;
    const an_summed_loop *l = s->summed_part != DG_SUMMED_SOME ? s->summed : NULL;
    bool other = u && s->func >= 0 && s->func < u->n_funcs && s->func != t->f->func;
    if (l) {
        dg_buf_puts(b, "loop at line ");
        dg_buf_line(b, t->r, l->line);
        if (u && l->func >= 0 && l->func < u->n_funcs && l->func != t->f->func)
            dg_buf_printf(b, " in %s()", u->funcs[l->func]->name);
    } else if (s->loop_line > 0 && other) {
        dg_buf_printf(b, "%s() in the loop at line ", u->funcs[s->func]->name);
        dg_buf_line(b, t->r, s->loop_line);
    } else if (s->loop_line > 0) {
        dg_buf_puts(b, "loop at line ");
        dg_buf_line(b, t->r, s->loop_line);
    } else if (other) {
        dg_buf_printf(b, "%s()", u->funcs[s->func]->name);
    } else {
        dg_buf_puts(b, "repeated");
    }
}

void dg_buf_span(dg_buf *b, const dg_timeline *t, const dg_span *s)
{
    span_place(b, t, s);
    dg_buf_puts(b, " ");
    dg_buf_span_count(b, s);
}

/* "(steps - 1)" for a sum, else the formula ("steps", "min(steps, n)"). */
static void put_count_sx(dg_buf *b, sx_int x)
{
    char *text = sx_strdup(x);
    bool sum = strstr(text, " + ") || strstr(text, " - ");
    dg_buf_printf(b, sum ? "(%s)" : "%s", text);
    free(text);
}

void dg_buf_span_count(dg_buf *b, const dg_span *s)
{
    if (!s->summed) { /* every repetition ran in the analysis: the count is the program's */
        dg_buf_printf(b, "×%lld", (long long)s->n_iter);
        return;
    }
    dg_buf_puts(b, "×");
    if (s->summed_part == DG_SUMMED_ALL)
        put_count_sx(b, s->summed->trips);
    else if (s->summed_part == DG_SUMMED_LATER)
        put_count_sx(b, sx_sub(s->summed->trips, (sx_int){1, 0}));
    else /* the log's repetitions, not the program's: the loop runs trips times */
        dg_buf_printf(b, "%lld analysed", (long long)s->n_iter);
}

void dg_buf_span_drawn(dg_buf *b, const dg_span *s)
{
    const an_summed_loop *l = s->summed;
    char *at;
    if (!l || s->summed_part == DG_SUMMED_SOME) {
        dg_buf_printf(b, "repetition %lld", (long long)s->shown + 1);
        return;
    }
    /* the first iteration, then the probes that stand for the iteration at probe_at */
    at = sx_strdup(s->summed_part == DG_SUMMED_ALL && s->shown == 0 ? l->first_at : l->probe_at);
    dg_buf_printf(b, "the iteration %s = %s", l->counter, at);
    free(at);
}
