/*
 * an_state.c: the interpreter's bookkeeping: handles, storages, values,
 * events, live/peak accounting per function on the stack, diagnostics.
 *
 * Live bytes change only here (an_storage_new, an_storage_unref); every
 * change updates the peak of each function on the stack, so a callee's
 * peak covers its own executions and a root's the whole run.
 */
#include "an_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for need elements (tl_xgrow); the new ones are not initialized (every
 * caller writes an element whole before reading it, so no page is touched
 * early). */
static void *grow(void *p, int64_t *cap, int64_t need, size_t elem)
{
    return tl_xgrow_i64(p, cap, (size_t)need, 16, elem);
}

static void *grow_int(void *p, int *cap, int need, size_t elem)
{
    return tl_xgrow_int(p, cap, (size_t)need, 16, elem);
}

char *an_strdup(const char *s) { return s ? tl_xstrdup(s) : NULL; }


int an_handle_new(an_ctx *cx, const an_handle *h)
{
    cx->tens.handles =
        grow(cx->tens.handles, &cx->tens.cap_handles, cx->tens.n_handles + 1, sizeof *h);
    cx->tens.handles[cx->tens.n_handles] = *h;
    return (int)cx->tens.n_handles++;
}

void an_handles_unsure(an_ctx *cx)
{
    for (int h = 0; h < cx->tens.n_handles; h++)
        cx->tens.handles[h].ident_unsure = true;
}

an_func_report *an_func_report_of(an_ctx *cx, int func)
{
    int k = func >= 0 ? cx->out.report_of[func] : -1;
    return k >= 0 ? &cx->r->funcs[k] : NULL;
}

/* The distinct functions on the stack, innermost first; returns how many. */
static int stack_funcs(const an_ctx *cx, int *funcs, int *depth_of)
{
    int n = 0;
    for (int k = cx->ctl.depth - 1; k >= 0; k--) {
        int f = cx->ctl.stack[k]->func;
        bool dup = false;
        for (int j = 0; j < n && !dup; j++)
            dup = funcs[j] == f;
        if (!dup) {
            depth_of[n] = k;
            funcs[n++] = f;
        }
    }
    return n;
}

/* Each function on the stack sees the new live total; a new peak's live
 * set is recorded lazily (an_settle_peaks), since until live bytes go down
 * it only grows. */
/* The peak of fr over symbolic live bytes: the new total replaces the peak
 * when it is provably larger, is dropped when provably not, and otherwise
 * joins it as one more candidate of a max (each candidate keeps its line). */
static bool peak_add_sx(an_ctx *cx, an_func_report *fr, int f, sx_int total, int line);

static void account_live_sx(an_ctx *cx, an_func_report *fr, int f, int line)
{
    peak_add_sx(cx, fr, f, sx_add(cx->acct.live_sx, (sx_int){cx->acct.live, 0}), line);
}

void an_fr_symbolic(an_func_report *fr)
{
    if (fr->symbolic)
        return;
    fr->symbolic = true;
    fr->peak_sx = (sx_int){fr->peak_live_bytes, 0};
    fr->n_peak_cands = 0;
    if (fr->peak_line > 0) {
        fr->peak_cand_line[0] = fr->peak_line;
        fr->peak_cand[0] = fr->peak_sx;
        fr->n_peak_cands = 1;
    }
}

/* A candidate of fr's peak found no room (an_peak_add): the peak is the max
 * of the others, a lower bound of the run's (bound direction: lower), said
 * once per function at the line that had no room. */
static void peak_full(an_ctx *cx, an_func_report *fr, int line)
{
    an_claim was = fr->claim[AN_TOTAL_PEAK];
    if (was != AN_CLAIM_LOWER && was != AN_CLAIM_NONE) /* (said once) */
        an_diag_add(cx, AN_NOTE, "analysis-limit", line, 0,
                    "the peak of '%s' is the largest of more than %d formulas none of which "
                    "is known to be the largest: the one reached here is not kept, and the "
                    "peak is a lower bound", fr->name, AN_PEAK_CANDS);
    fr->claim[AN_TOTAL_PEAK] = an_claim_join(was, AN_CLAIM_LOWER);
}

/* The live total at line joins fr's peak; false when it changed nothing. */
static bool peak_add_sx(an_ctx *cx, an_func_report *fr, int f, sx_int total, int line)
{
    bool gt;
    an_fr_symbolic(fr);
    if (fr->peak_line == 0 || (sx_prove(total, SX_GT, fr->peak_sx, &gt) && gt)) {
        fr->peak_sx = total;
        fr->peak_cand_line[0] = line;
        fr->peak_cand[0] = total;
        fr->n_peak_cands = 1;
    } else if (sx_prove(total, SX_GT, fr->peak_sx, &gt)) {
        return false; /* provably not above the peak */
    } else {
        an_peak pk;
        an_peak_of(fr, &pk);
        an_peak_result res = an_peak_add(&pk, total, line);
        if (res == AN_PEAK_COVERED)
            return false;
        an_peak_put(fr, &pk); /* none dominates another */
        if (res == AN_PEAK_FULL) {
            peak_full(cx, fr, line);
            return false; /* (the candidates are as they were) */
        }
    }
    fr->peak_line = line;
    cx->acct.fs[f].peak_dirty = true;
    return true;
}

void an_account_live(an_ctx *cx)
{
    int funcs[AN_MAX_DEPTH], depth_of[AN_MAX_DEPTH];
    if (cx->acct.live > cx->acct.arm_peak)
        cx->acct.arm_peak = cx->acct.live;
    bool sym = cx->acct.live_sx.e != 0 || cx->acct.live_sx.c != 0;
    for (int j = stack_funcs(cx, funcs, depth_of) - 1; j >= 0; j--) {
        an_func_report *fr = an_func_report_of(cx, funcs[j]);
        if (fr && (sym || fr->symbolic)) {
            account_live_sx(cx, fr, funcs[j], cx->ctl.stack[depth_of[j]]->line);
            continue;
        }
        if (!fr || (cx->acct.live <= fr->peak_live_bytes && fr->peak_line > 0))
            continue;
        fr->peak_live_bytes = cx->acct.live;
        fr->peak_line = cx->ctl.stack[depth_of[j]]->line;
        cx->acct.fs[funcs[j]].peak_dirty = true;
    }
}

char **an_names_dup(char *const *names, int n)
{
    if (!names)
        return NULL;
    char **d = tl_xmalloc(sizeof *d * ((size_t)n + 1));
    for (int k = 0; k < n; k++)
        d[k] = names[k] ? tl_xstrdup(names[k]) : NULL;
    return d;
}

void an_names_free(char **names, int n)
{
    for (int k = 0; names && k < n; k++)
        free(names[k]);
    free(names);
}

static void record_peak_set(an_ctx *cx, an_func_report *fr)
{
    int first = cx->tens.root_first_storage, n = cx->r->n_storages - first;
    char **names = tl_xcalloc((size_t)n + 1, sizeof *names);
    an_mem_holder_names(cx, names);
    free(fr->peak_storages);
    an_names_free(fr->peak_names, fr->n_peak_storages);
    fr->peak_storages = tl_xmalloc(sizeof(int) * (size_t)(n + 1));
    fr->peak_names = tl_xmalloc(sizeof(char *) * (size_t)(n + 1));
    fr->n_peak_storages = 0;
    for (int s = first; s < cx->r->n_storages; s++) {
        if (cx->tens.live_storage[s]) {
            fr->peak_names[fr->n_peak_storages] = names[s - first];
            fr->peak_storages[fr->n_peak_storages++] = s;
        } else {
            free(names[s - first]);
        }
    }
    free(names);
}

void an_settle_peaks(an_ctx *cx)
{
    for (int k = 0; k < cx->ctl.depth; k++) {
        int f = cx->ctl.stack[k]->func;
        an_func_report *fr = an_func_report_of(cx, f);
        if (fr && cx->acct.fs[f].peak_dirty) {
            record_peak_set(cx, fr);
            cx->acct.fs[f].peak_dirty = false;
        }
    }
}

an_fr_saved *an_frs_save(an_ctx *cx)
{
    an_report *r = cx->r;
    an_fr_saved *sv = tl_xmalloc(sizeof *sv * (size_t)(r->n_funcs + 1));
    for (int k = 0; k < r->n_funcs; k++) {
        sv[k].fr = r->funcs[k];
        sv[k].peak_storages = an_dup_mem(r->funcs[k].peak_storages,
                                         sizeof(int) * (size_t)r->funcs[k].n_peak_storages);
        sv[k].peak_names = an_names_dup(r->funcs[k].peak_names, r->funcs[k].n_peak_storages);
        sv[k].fs = cx->acct.fs[r->funcs[k].func];
    }
    return sv;
}

void an_frs_put(an_ctx *cx, const an_fr_saved *sv)
{
    an_report *r = cx->r;
    for (int k = 0; k < r->n_funcs; k++) {
        free(r->funcs[k].peak_storages);
        an_names_free(r->funcs[k].peak_names, r->funcs[k].n_peak_storages);
        r->funcs[k] = sv[k].fr;
        r->funcs[k].peak_storages = an_dup_mem(sv[k].peak_storages,
                                               sizeof(int) * (size_t)sv[k].fr.n_peak_storages);
        r->funcs[k].peak_names = an_names_dup(sv[k].peak_names, sv[k].fr.n_peak_storages);
        cx->acct.fs[r->funcs[k].func] = sv[k].fs;
    }
}

void an_frs_restore(an_ctx *cx, an_fr_saved *sv)
{
    an_report *r = cx->r;
    for (int k = 0; k < r->n_funcs; k++) {
        free(r->funcs[k].peak_storages);
        an_names_free(r->funcs[k].peak_names, r->funcs[k].n_peak_storages);
        r->funcs[k] = sv[k].fr;
        r->funcs[k].peak_storages = sv[k].peak_storages;
        r->funcs[k].peak_names = sv[k].peak_names;
        cx->acct.fs[r->funcs[k].func] = sv[k].fs;
    }
    free(sv);
}

void an_frs_free(an_ctx *cx, an_fr_saved *sv)
{
    if (!sv)
        return;
    for (int k = 0; k < cx->r->n_funcs; k++) {
        free(sv[k].peak_storages);
        an_names_free(sv[k].peak_names, sv[k].fr.n_peak_storages);
    }
    free(sv);
}

/* Whether a's peak is other than b's. */
static bool peak_moved(const an_func_report *a, const an_func_report *b)
{
    if (a->peak_line != b->peak_line || a->peak_live_bytes != b->peak_live_bytes ||
        a->symbolic != b->symbolic)
        return true;
    return a->symbolic && (!sx_same(a->peak_sx, b->peak_sx) || a->n_peak_cands != b->n_peak_cands);
}

static void peak_take(an_ctx *cx, an_func_report *fr, const an_fr_saved *from)
{
    const an_func_report *o = &from->fr;
    fr->peak_live_bytes = o->peak_live_bytes;
    fr->peak_line = o->peak_line;
    fr->symbolic = o->symbolic;
    fr->peak_sx = o->peak_sx;
    fr->n_peak_cands = o->n_peak_cands;
    memcpy(fr->peak_cand, o->peak_cand, sizeof fr->peak_cand);
    memcpy(fr->peak_cand_line, o->peak_cand_line, sizeof fr->peak_cand_line);
    free(fr->peak_storages);
    an_names_free(fr->peak_names, fr->n_peak_storages);
    fr->n_peak_storages = o->n_peak_storages;
    fr->peak_storages = an_dup_mem(from->peak_storages, sizeof(int) * (size_t)o->n_peak_storages);
    fr->peak_names = an_names_dup(from->peak_names, o->n_peak_storages);
    cx->acct.fs[fr->func].peak_dirty = from->fs.peak_dirty;
}

/* The other arm ran first (as an unknown branch runs them): its peak, then
 * this arm's where it is higher. */
void an_frs_merge(an_ctx *cx, const an_fr_saved *base, const an_fr_saved *other)
{
    an_report *r = cx->r;
    for (int k = 0; k < r->n_funcs; k++) {
        an_func_report *fr = &r->funcs[k];
        const an_func_report *b = &base[k].fr, *o = &other[k].fr;
        an_fstate *fs = &cx->acct.fs[fr->func];
        fr->executed = fr->executed || o->executed;
        fr->moved_bytes += o->moved_bytes - b->moved_bytes;
        fr->n_calls += o->n_calls - b->n_calls;
        if (!sx_same(o->moved_sx, b->moved_sx))
            fr->moved_sx = sx_add(fr->moved_sx, sx_sub(o->moved_sx, b->moved_sx));
        if (!sx_same(o->calls_sx, b->calls_sx))
            fr->calls_sx = sx_add(fr->calls_sx, sx_sub(o->calls_sx, b->calls_sx));
        for (int t = 0; t < AN_N_TOTALS; t++)
            fr->claim[t] = an_claim_join(fr->claim[t], o->claim[t]);
        fr->sizes_unknown = fr->sizes_unknown || o->sizes_unknown;
        if (other[k].fs.done_first && !base[k].fs.done_first) { /* its end came first */
            fr->end_live_bytes = o->end_live_bytes;
            fr->end_sx = o->end_sx;
            fs->done_first = true;
        }
        if (!peak_moved(o, b))
            continue;
        if (!peak_moved(fr, b)) {
            peak_take(cx, fr, &other[k]);
            continue;
        }
        if (!fr->symbolic && !o->symbolic) {
            if (o->peak_live_bytes >= fr->peak_live_bytes)
                peak_take(cx, fr, &other[k]);
            continue;
        }
        /* over formulas: the other arm's candidates, then this arm's that none covers */
        an_func_report mine = *fr;
        int *mine_set = an_dup_mem(fr->peak_storages, sizeof(int) * (size_t)fr->n_peak_storages);
        char **mine_names = an_names_dup(fr->peak_names, fr->n_peak_storages);
        int n_mine = fr->n_peak_storages;
        bool mine_dirty = fs->peak_dirty;
        peak_take(cx, fr, &other[k]);
        bool changed = false;
        if (!mine.symbolic)
            changed = peak_add_sx(cx, fr, fr->func, (sx_int){mine.peak_live_bytes, 0},
                                  mine.peak_line);
        for (int j = 0; mine.symbolic && j < mine.n_peak_cands; j++)
            changed = peak_add_sx(cx, fr, fr->func, mine.peak_cand[j], mine.peak_cand_line[j]) ||
                      changed;
        if (changed) { /* this arm's live set, or the one to come when not yet recorded */
            free(fr->peak_storages);
            an_names_free(fr->peak_names, fr->n_peak_storages);
            fr->peak_storages = mine_set;
            fr->peak_names = mine_names;
            fr->n_peak_storages = n_mine;
            fs->peak_dirty = mine_dirty;
        } else {
            free(mine_set);
            an_names_free(mine_names, n_mine);
        }
    }
}

void an_account_moved(an_ctx *cx, int64_t bytes)
{
    int funcs[AN_MAX_DEPTH], depth_of[AN_MAX_DEPTH];
    cx->acct.moved_total += bytes;
    for (int j = stack_funcs(cx, funcs, depth_of) - 1; j >= 0; j--) {
        an_func_report *fr = an_func_report_of(cx, funcs[j]);
        if (fr) {
            fr->moved_bytes += bytes;
            fr->n_calls++;
        }
    }
}

void an_account_moved_sx(an_ctx *cx, sx_int bytes)
{
    int funcs[AN_MAX_DEPTH], depth_of[AN_MAX_DEPTH];
    cx->acct.sym_events++;
    for (int j = stack_funcs(cx, funcs, depth_of) - 1; j >= 0; j--) {
        an_func_report *fr = an_func_report_of(cx, funcs[j]);
        if (fr) {
            fr->moved_sx = sx_add(fr->moved_sx, bytes); /* the symbolic part */
            fr->n_calls++;
        }
    }
}

int an_slayout_add(an_ctx *cx, const an_slayout *l)
{
    an_report *r = cx->r;
    r->slayouts = grow_int(r->slayouts, &cx->out.cap_slayouts, r->n_slayouts + 1, sizeof *l);
    r->slayouts[r->n_slayouts++] = *l;
    return r->n_slayouts;
}

void an_summed_loop_add(an_ctx *cx, const an_summed_loop *l)
{
    an_report *r = cx->r;
    r->summed_loops = grow_int(r->summed_loops, &cx->out.cap_summed_loops, r->n_summed_loops + 1,
                               sizeof *l);
    r->summed_loops[r->n_summed_loops++] = *l;
}

int an_storage_new_sx(an_ctx *cx, int func, int value, int line, int col, tl_device dev,
                      sx_int nbytes)
{
    if (nbytes.e == 0)
        return an_storage_new(cx, func, value, line, col, dev, nbytes.c);
    cx->acct.live_sx = sx_add(cx->acct.live_sx, nbytes); /* counted before the new storage's peak */
    cx->acct.sym_events++;
    int id = an_storage_new(cx, func, value, line, col, dev, -2);
    an_storage *s = &cx->r->storages[id];
    s->nbytes = s->block_bytes = s->alloc_bytes = s->made_nbytes = -1;
    s->symbolic = true;
    s->nbytes_sx = nbytes;
    return id;
}

/* A CUDA storage takes a block from the simulated caching allocator: its
 * block bytes are what PyTorch's allocator would charge (512-rounded, or a
 * whole segment when the remainder is too small to split). */
static void cuda_alloc(an_ctx *cx, an_storage *s)
{
    ca_block_info info;
    int64_t cap = cx->tens.cap_cuda_block;
    cx->tens.cuda_block = grow(cx->tens.cuda_block, &cap, s->id + 1, sizeof *cx->tens.cuda_block);
    /* cuda_free reads any id below the capacity: the new entries start empty */
    memset(cx->tens.cuda_block + cx->tens.cap_cuda_block, 0,
           sizeof *cx->tens.cuda_block * (size_t)(cap - cx->tens.cap_cuda_block));
    cx->tens.cap_cuda_block = cap;
    cx->tens.cuda_block[s->id] = 0;
    s->block_bytes = s->alloc_bytes = (s->nbytes + 511) / 512 * 512;
    if (!cx->tens.cuda || ca_malloc(cx->tens.cuda, s->nbytes, &info) != CA_OK)
        return;
    cx->tens.cuda_block[s->id] = info.id;
    s->alloc_bytes = info.size;
}

static void cuda_free(an_ctx *cx, const an_storage *s)
{
    if (s->device == TL_CUDA && cx->tens.cuda && s->id < cx->tens.cap_cuda_block &&
        cx->tens.cuda_block[s->id])
        ca_free_block(cx->tens.cuda, cx->tens.cuda_block[s->id]);
}

int an_storage_new(an_ctx *cx, int func, int value, int line, int col, tl_device dev,
                   int64_t nbytes)
{
    an_report *r = cx->r;
    r->storages =
        grow_int(r->storages, &cx->out.cap_storages, r->n_storages + 1, sizeof *r->storages);
    int cap = cx->tens.cap_refs;
    cx->tens.refs = grow_int(cx->tens.refs, &cap, r->n_storages + 1, sizeof *cx->tens.refs);
    cap = cx->tens.cap_refs;
    cx->tens.live_storage = grow_int(cx->tens.live_storage, &cap, r->n_storages + 1, sizeof(bool));
    cx->tens.cap_refs = cap;
    an_storage *s = &r->storages[r->n_storages];
    *s = (an_storage){.id = r->n_storages, .nbytes = nbytes, .device = dev, .func = func,
                      .value = value, .alloc_line = line, .alloc_col = col, .free_func = -1,
                      .alloc_event = r->n_events, .free_event = -1, .retire_event = -1};
    s->block_bytes = s->alloc_bytes = s->made_nbytes = nbytes;
    cx->tens.refs[s->id] = 0;
    if (dev == TL_CUDA && nbytes >= 0)
        cuda_alloc(cx, s);
    cx->tens.live_storage[s->id] = true;
    r->n_storages++;
    for (int k = 0; nbytes == -1 && k < cx->ctl.depth; k++) { /* counted as 0: totals are lower bounds */
        an_func_report *fr = an_func_report_of(cx, cx->ctl.stack[k]->func);
        if (fr) {
            fr->sizes_unknown = true;
            an_claim_totals(fr, AN_BOUND_ALL, AN_CLAIM_LOWER);
        }
    }
    if (nbytes > 0)
        cx->acct.live += nbytes;
    an_account_live(cx);
    return s->id;
}

void an_storage_grow(an_ctx *cx, int storage, int64_t grow)
{
    if (storage < 0 || grow <= 0)
        return;
    an_storage *s = &cx->r->storages[storage];
    if (s->nbytes < 0)
        return;
    cuda_free(cx, s);
    s->nbytes += grow;
    s->block_bytes = s->alloc_bytes = s->nbytes;
    if (s->device == TL_CUDA)
        cuda_alloc(cx, s);
    if (!cx->tens.live_storage[storage])
        return;
    cx->acct.live += grow;
    an_account_live(cx);
}

void an_storage_unref(an_ctx *cx, int storage, int func, int line, int col)
{
    if (storage < 0 || --cx->tens.refs[storage] > 0 || !cx->tens.live_storage[storage])
        return;
    an_storage *s = &cx->r->storages[storage];
    if (s->nbytes > 0 || s->symbolic)
        an_settle_peaks(cx); /* live bytes go down: record the peak's live set first */
    cx->tens.live_storage[storage] = false;
    cuda_free(cx, s);
    if (s->nbytes > 0)
        cx->acct.live -= s->nbytes;
    if (s->symbolic) {
        cx->acct.live_sx = sx_sub(cx->acct.live_sx, s->nbytes_sx);
        cx->acct.sym_events++;
    }
    if (s->free_line == 0) {
        s->free_line = line;
        s->free_col = col;
        s->free_func = func;
        s->free_event = cx->r->n_events;
    }
}

void an_site_put(an_ctx *cx, const ir_stmt *s, int value)
{
    cx->out.site_value[s->call.site] = value;
}

int an_site_get(const an_ctx *cx, const ir_stmt *s) { return cx->out.site_value[s->call.site]; }

int an_value_new(an_ctx *cx, int func, const ir_stmt *s, const char *name)
{
    an_report *r = cx->r;
    r->values = grow_int(r->values, &cx->out.cap_values, r->n_values + 1, sizeof *r->values);
    an_value *v = &r->values[r->n_values];
    *v = (an_value){.func = func, .line = s->loc.line, .col = s->loc.col, .name = name,
                    .op = s->call.op, .storage = -1, .view_of = -1, .runs_root = -1};
    return r->n_values++;
}

void an_value_ran(an_ctx *cx, an_value *v)
{
    v->runs_stamp = ++cx->acct.exec_clock;
    if (cx->ctl.if_depth > 0 || cx->ctl.upper_loop || cx->ctl.upper_func)
        v->runs_at_most = true; /* the run may take the other arm, or have left */
    if (cx->ctl.runs_unknown > 0)
        v->runs_unknown = true;
    if (v->runs_root < 0)
        v->runs_root = cx->ctl.root;
    else if (v->runs_root != cx->ctl.root)
        v->runs_roots = true;
}

const char *an_value_runs_text(const an_value *v, char *buf, size_t size)
{
    char f[160];
    sx_int n = an_value_runs(v);
    if (n.e == SX_TOO_BIG)
        snprintf(f, sizeof f, "%s", "a number of");
    else
        sx_str(n, f, sizeof f);
    snprintf(buf, size, "%s%s time%s%s", v->runs_at_most && !v->runs_unknown ? "at most " : "",
             f, n.e == 0 && n.c == 1 ? "" : "s", v->runs_unknown ? " as analysed (not exact)" : "");
    return buf;
}

an_event *an_event_push(an_ctx *cx, an_event_kind kind, int line, int col)
{
    an_report *r = cx->r;
    if (!cx->out.log_events)
        return NULL;
    if (r->n_events >= cx->opt.max_events) {
        r->n_events_dropped++;
        return NULL;
    }
    r->events = grow(r->events, &cx->out.cap_events, r->n_events + 1, sizeof *r->events);
    an_event *e = &r->events[r->n_events++];
    *e = (an_event){.kind = kind, .func = an_top(cx)->func, .line = line, .col = col,
                    .value = -1, .storage = -1, .handle_value = -1, .var = -1,
                    .live_bytes = cx->acct.live, .live_sx = {cx->acct.live, 0},
                    .loop_depth = cx->ctl.loop_depth};
    if (cx->acct.live_sx.e != 0 || cx->acct.live_sx.c != 0) /* some live storage's size is a formula */
        e->live_sx = sx_add(cx->acct.live_sx, e->live_sx);
    for (int k = 0; k < AN_EV_MAX_IN; k++) {
        e->in_value[k] = e->in_storage[k] = -1;
        e->in_offset[k] = -1;
        e->in_reach[k] = -2;
    }
    return e;
}

/* Whether some variable of some frame, a global, or memory still holds
 * handle h (a borrowing temporary owns nothing). */
static bool handle_held(const an_ctx *cx, int h)
{
    for (int k = 0; k < cx->ctl.depth; k++) {
        const an_frame *f = cx->ctl.stack[k];
        if (f->ret_handle == h)
            return true;
        for (int j = 0; j < cx->vars.n_func_vars[f->func]; j++) {
            int v = cx->vars.func_vars[f->func][j];
            if (f->tensor[cx->vars.slot[v]] == h && !cx->u->vars[v].is_borrow)
                return true;
        }
    }
    for (int g = 0; g < cx->vars.n_globals; g++)
        if (cx->ctl.gframe->tensor[g] == h)
            return true;
    return an_mem_holds(cx, h);
}

void an_mark_bound(an_ctx *cx) { an_mark_claim(cx, AN_BOUND_ALL, AN_CLAIM_NONE); }

void an_stop_at(an_ctx *cx, int line, int col, char *why)
{
    cx->ctl.stopped = true;
    an_mark_claim(cx, AN_BOUND_PEAK | AN_BOUND_MOVED, AN_CLAIM_LOWER);
    an_mark_claim(cx, AN_BOUND_END, AN_CLAIM_NONE);
    cx->ctl.stop_line = line;
    cx->ctl.stop_col = col;
    free(cx->ctl.stop_why);
    cx->ctl.stop_why = why;
    free(cx->ctl.stop_funcs);
    cx->ctl.stop_funcs = tl_xcalloc((size_t)cx->ctl.depth + 1, sizeof *cx->ctl.stop_funcs);
    cx->ctl.n_stop_funcs = cx->ctl.depth;
    for (int k = 0; k < cx->ctl.depth; k++)
        cx->ctl.stop_funcs[k] = cx->ctl.stack[k]->func;
}

void an_stop_settle(an_ctx *cx)
{
    if (!cx->ctl.stop_why)
        return;
    for (int k = 0; k < cx->ctl.n_stop_funcs; k++) {
        an_func_report *fr = an_func_report_of(cx, cx->ctl.stop_funcs[k]);
        if (fr) {
            an_claim_totals(fr, AN_BOUND_PEAK | AN_BOUND_MOVED, AN_CLAIM_LOWER);
            an_claim_totals(fr, AN_BOUND_END, AN_CLAIM_NONE);
        }
    }
    an_diag_add(cx, AN_WARNING, "analysis-limit", cx->ctl.stop_line, cx->ctl.stop_col, "%s",
                cx->ctl.stop_why);
    free(cx->ctl.stop_why);
    free(cx->ctl.stop_funcs);
    cx->ctl.stop_why = NULL;
    cx->ctl.stop_funcs = NULL;
    cx->ctl.n_stop_funcs = 0;
}

/* The totals in which of fr claim what they did, joined with claim. */
void an_claim_totals(an_func_report *fr, unsigned which, an_claim claim)
{
    for (int t = 0; t < AN_N_TOTALS; t++)
        if (which & (1u << t))
            fr->claim[t] = an_claim_join(fr->claim[t], claim);
}

void an_mark_claim(an_ctx *cx, unsigned which, an_claim claim)
{
    cx->acct.n_bound_marks++;
    for (int k = 0; k < cx->ctl.depth; k++) {
        an_func_report *fr = an_func_report_of(cx, cx->ctl.stack[k]->func);
        if (fr)
            an_claim_totals(fr, which, claim);
    }
}

int *an_tensor_slot(an_ctx *cx, int var)
{
    an_frame *f = cx->u->vars[var].is_global ? cx->ctl.gframe : an_top(cx);
    return &f->tensor[cx->vars.slot[var]];
}

int64_t *an_int_slot(an_ctx *cx, int var, bool **known)
{
    an_frame *f = cx->u->vars[var].is_global ? cx->ctl.gframe : an_top(cx);
    *known = &f->int_known[cx->vars.slot[var]];
    return &f->ints[cx->vars.slot[var]];
}

void an_handle_dropped(an_ctx *cx, int h, int var, int line, int col, const char *why)
{
    if (h < 0 || cx->tens.handles[h].released || cx->tens.handles[h].seg_elem || handle_held(cx, h))
        return; /* an element read from a segment: the segment holds it */
    an_event *e = an_event_push(cx, AN_EV_LOST, line, col);
    if (!e)
        return;
    e->storage = cx->tens.handles[h].storage;
    e->handle_value = cx->tens.handles[h].value;
    e->var = var;
    e->lost_why = why;
}

static bool same_diag(const an_diag *d, const char *check, int line, int col)
{
    return d->line == line && d->col == col && strcmp(d->check, check) == 0;
}

/* A diagnostic, once per (check, line, column): loops do not repeat it.
 * Returns NULL for a repeat (callers add notes only to a new one). */
an_diag *an_diag_add(an_ctx *cx, an_severity sev, const char *check, int line, int col,
                     const char *fmt, ...)
{
    an_report *r = cx->r;
    va_list ap;
    for (int k = 0; k < r->n_diags; k++)
        if (same_diag(&r->diags[k], check, line, col))
            return NULL;
    r->diags = grow_int(r->diags, &cx->out.cap_diags, r->n_diags + 1, sizeof *r->diags);
    an_diag *d = &r->diags[r->n_diags++];
    *d = (an_diag){.file = ir_unit_path_at(cx->u, line), .line = line, .col = col, .severity = sev,
                   .check = check};
    va_start(ap, fmt);
    d->message = tl_xvasprintf(fmt, ap);
    va_end(ap);
    return d;
}

void an_diag_note(an_diag *d, int line, int col, const char *fmt, ...)
{
    va_list ap;
    if (!d)
        return;
    d->notes = tl_xrealloc(d->notes, sizeof *d->notes * (size_t)(d->n_notes + 1));
    an_note *n = &d->notes[d->n_notes++];
    *n = (an_note){.line = line, .col = col}; /* file NULL: the diagnostic's */
    va_start(ap, fmt);
    n->message = tl_xvasprintf(fmt, ap);
    va_end(ap);
}

an_frame *an_frame_new(an_ctx *cx, int func)
{
    an_frame *f = tl_xcalloc(1, sizeof *f);
    int n = cx->vars.n_globals + (func >= 0 ? cx->vars.n_func_vars[func] : 0);
    n = n > 0 ? n : 1;
    f->tensor = tl_xreallocarray(NULL, (size_t)n, sizeof(int));
    f->ints = tl_xcalloc((size_t)n, sizeof(int64_t));
    f->int_known = tl_xcalloc((size_t)n, sizeof(bool));
    for (int k = 0; k < n; k++)
        f->tensor[k] = AN_UNSET;
    f->func = func;
    f->serial = func >= 0 ? ++cx->ctl.next_serial : 0;
    f->ret_handle = AN_UNSET;
    return f;
}

void an_frame_free(an_frame *f)
{
    if (!f)
        return;
    free(f->tensor);
    free(f->ints);
    free(f->int_known);
    free(f);
}

an_frame *an_top(an_ctx *cx) { return cx->ctl.stack[cx->ctl.depth - 1]; }
