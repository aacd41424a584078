/*
 * an_analyze.c: the entry point.  A pre-pass gives every tensor-producing
 * call site its value id and every function with tensor code its report;
 * then each root function is executed from a fresh state; last, the
 * per-function lists are filled and the diagnostics sorted.
 */
#include "an_internal.h"
#include "deep.h"

#include <stdlib.h>
#include <string.h>

const char *an_claim_name(an_claim c)
{
    static const char *const names[] = {"exact", "upper", "lower", "none"};
    return names[c];
}

const char *an_claim_words(an_claim c)
{
    static const char *const words[] = {"", "at most", "at least", "not bounded"};
    return words[c];
}

const char *an_total_name(an_total t)
{
    static const char *const names[] = {"peak_live_bytes", "end_live_bytes", "moved_bytes"};
    _Static_assert(sizeof names / sizeof *names == AN_N_TOTALS, "one name per total");
    return names[t];
}

void an_options_default(an_options *o)
{
    *o = (an_options){0}; /* no --bind */
    o->max_calls = 2000000;
    o->max_iterations = 1000000;
    o->max_steps = 20000000;
    o->max_depth = 32;
    o->max_events = 200000;
}

static void prepass_block(an_ctx *cx, int func, const ir_block *b);

static void prepass_stmt(an_ctx *cx, int func, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL: {
        mt_family fam = mt_ops[s->call.op].family;
        if (fam == MT_INPLACE || fam == MT_ACCESS || fam == MT_RELEASE)
            break;
        const ir_var *v = s->call.result >= 0 ? &cx->u->vars[s->call.result] : NULL;
        an_site_put(cx, s, an_value_new(cx, func, s, v && !v->is_temp ? v->name : NULL));
        break;
    }
    case IR_BLOCK: prepass_block(cx, func, s->block); break;
    case IR_IF:
        prepass_block(cx, func, s->branch.then_blk);
        prepass_block(cx, func, s->branch.else_blk);
        break;
    case IR_LOOP:
        prepass_block(cx, func, s->loop.init);
        prepass_block(cx, func, s->loop.cond_pre);
        prepass_block(cx, func, s->loop.body);
        prepass_block(cx, func, s->loop.step);
        break;
    default: break;
    }
}

static void prepass_block(an_ctx *cx, int func, const ir_block *b)
{
    for (int k = 0; b && k < b->n_stmts; k++)
        prepass_stmt(cx, func, b->stmts[k]);
}

static void collect_calls(const ir_block *b, int func, bool *called, int n_funcs)
{
    for (int k = 0; b && k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        if (s->kind == IR_USER_CALL && s->user_call.callee >= 0 &&
            s->user_call.callee < n_funcs && s->user_call.callee != func)
            called[s->user_call.callee] = true;
        else if (s->kind == IR_BLOCK)
            collect_calls(s->block, func, called, n_funcs);
        else if (s->kind == IR_IF) {
            collect_calls(s->branch.then_blk, func, called, n_funcs);
            collect_calls(s->branch.else_blk, func, called, n_funcs);
        } else if (s->kind == IR_LOOP) {
            collect_calls(s->loop.init, func, called, n_funcs);
            collect_calls(s->loop.cond_pre, func, called, n_funcs);
            collect_calls(s->loop.body, func, called, n_funcs);
            collect_calls(s->loop.step, func, called, n_funcs);
        }
    }
}


/* Per function, the ids of its variables (frames only ever touch those and
 * the globals), and each variable's slot in a frame. */
static void index_vars(an_ctx *cx)
{
    const ir_unit *u = cx->u;
    cx->vars.n_func_vars = tl_xcalloc((size_t)u->n_funcs + 1, sizeof(int));
    cx->vars.func_vars = tl_xcalloc((size_t)u->n_funcs + 1, sizeof(int *));
    for (int v = 0; v < u->n_vars; v++)
        if (u->vars[v].func >= 0 && u->vars[v].func < u->n_funcs)
            cx->vars.n_func_vars[u->vars[v].func]++;
    for (int f = 0; f < u->n_funcs; f++) {
        cx->vars.func_vars[f] = tl_xmalloc(sizeof(int) * (size_t)(cx->vars.n_func_vars[f] + 1));
        cx->vars.n_func_vars[f] = 0;
    }
    cx->vars.slot = tl_xmalloc(sizeof(int) * (size_t)(u->n_vars + 1));
    cx->vars.n_globals = 0;
    cx->vars.global_vars = tl_xmalloc(sizeof(int) * (size_t)(u->n_vars + 1));
    for (int v = 0; v < u->n_vars; v++)
        if (u->vars[v].func < 0 || u->vars[v].func >= u->n_funcs) {
            cx->vars.global_vars[cx->vars.n_globals] = v;
            cx->vars.slot[v] = cx->vars.n_globals++;
        }
    for (int v = 0; v < u->n_vars; v++) {
        int f = u->vars[v].func;
        if (f >= 0 && f < u->n_funcs) {
            cx->vars.slot[v] = cx->vars.n_globals + cx->vars.n_func_vars[f];
            cx->vars.func_vars[f][cx->vars.n_func_vars[f]++] = v;
        }
    }
}

static void setup(an_ctx *cx)
{
    const ir_unit *u = cx->u;
    cx->out.site_value = tl_xmalloc(sizeof(int) * (size_t)(u->n_call_sites + 1));
    cx->acct.fs = tl_xcalloc((size_t)(u->n_funcs + 1), sizeof *cx->acct.fs);
    cx->out.report_of = tl_xmalloc(sizeof(int) * (size_t)(u->n_funcs + 1));
    index_vars(cx);
    cx->r->funcs = tl_xcalloc((size_t)(u->n_funcs + 1), sizeof *cx->r->funcs);
    for (int k = 0; k < u->n_call_sites; k++)
        cx->out.site_value[k] = -1;
    for (int f = 0; f < u->n_funcs; f++)
        cx->out.report_of[f] = -1;
    for (int f = 0; f < u->n_funcs; f++) {
        if (!u->funcs[f]->has_tensor_code)
            continue;
        cx->out.report_of[f] = cx->r->n_funcs;
        an_func_report *fr = &cx->r->funcs[cx->r->n_funcs++];
        fr->func = f;
        fr->name = u->funcs[f]->name;
        prepass_block(cx, f, u->funcs[f]->body);
    }
}

static void reset_state(an_ctx *cx)
{
    cx->tens.n_handles = 0;
    cx->acct.live = 0;
    cx->acct.live_sx = (sx_int){0, 0};
    cx->acct.n_calls = 0;
    cx->acct.n_steps = 0;
    cx->ctl.n_gotos = 0;
    cx->ctl.stopped = false;
    cx->ctl.upper_loop = cx->ctl.upper_func = false;
    cx->ctl.runs_unknown = 0;
    an_mem_free(&cx->mem.cells);
    an_frame_free(cx->ctl.gframe);
    cx->ctl.gframe = an_frame_new(cx, -1);
    for (int s = cx->tens.root_first_storage; s < cx->r->n_storages; s++)
        cx->tens.live_storage[s] = false;
    cx->tens.root_first_storage = cx->r->n_storages; /* (a unit of many roots stays linear) */
}

static void run_root(an_ctx *cx, an_func_report *fr)
{
    ca_config cfg = ca_config_default();
    ca_stats st;
    reset_state(cx);
    cx->tens.cuda = ca_new(&cfg);
    fr->is_root = true;
    cx->ctl.root = fr->func;
    an_symbol_names_clear(cx); /* names are told apart within a root */
    an_frame *f = an_frame_new(cx, fr->func);
    fr->first_event = cx->r->n_events;
    int64_t clock0 = cx->acct.exec_clock;
    an_ctx_check(cx, true);
    an_run_function(cx, fr->func, f);
    an_stop_settle(cx); /* here: a loop trial the limit ended undid what it said */
    an_ctx_check(cx, true);
    fr->end_event = cx->r->n_events;
    for (int v = 0; v < cx->r->n_values && cx->ctl.stopped; v++) /* they would have run more */
        if (cx->r->values[v].runs_stamp > clock0)
            cx->r->values[v].runs_unknown = true;
    fr->end_live_bytes = cx->acct.live;
    fr->end_sx = cx->acct.live_sx;
    an_frame_free(f);
    if (cx->tens.cuda) {
        ca_stats_get(cx->tens.cuda, CA_SCOPE_ALL, &st);
        fr->cuda_allocated_peak = st.allocated_bytes.peak;
        fr->cuda_reserved_peak = st.reserved_bytes.peak;
        fr->cuda_reserved_end = st.reserved_bytes.current;
        ca_free(cx->tens.cuda);
        cx->tens.cuda = NULL;
    }
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

typedef struct site_key { int line, col, id; } site_key;

static int cmp_site(const void *a, const void *b)
{
    const site_key *x = a, *y = b;
    if (x->line != y->line)
        return x->line - y->line;
    return x->col != y->col ? x->col - y->col : x->id - y->id;
}

/* Value ids in source order (line, column), without global state. */
static void sort_values(const an_report *r, int n, int *ids)
{
    site_key *k = tl_xmalloc(sizeof *k * (size_t)(n + 1));
    for (int j = 0; j < n; j++)
        k[j] = (site_key){r->values[ids[j]].line, r->values[ids[j]].col, ids[j]};
    qsort(k, (size_t)n, sizeof *k, cmp_site);
    for (int j = 0; j < n; j++)
        ids[j] = k[j].id;
    free(k);
}

/* The storages fr's values view that another function allocated (those it
 * allocated itself are listed already); then sort fr's lists. */
static void fill_storages(an_report *r, an_func_report *fr, int64_t *mark, const int *report_of)
{
    int64_t k = report_of[fr->func];
    for (int j = 0; j < fr->n_values; j++) {
        int s = r->values[fr->values[j]].storage;
        if (s >= 0 && mark[s] != k && r->storages[s].func != fr->func) {
            mark[s] = k;
            fr->storages[fr->n_storages++] = s;
        }
    }
    for (int j = 0; j < fr->n_storages; j++)
        if (r->storages[fr->storages[j]].nbytes < 0 && !r->storages[fr->storages[j]].symbolic) {
            fr->sizes_unknown = true; /* counted as 0 */
            an_claim_totals(fr, AN_BOUND_ALL, AN_CLAIM_LOWER);
        }
    if (fr->n_values > 1)
        sort_values(r, fr->n_values, fr->values);
    if (fr->n_storages > 1)
        qsort(fr->storages, (size_t)fr->n_storages, sizeof(int), cmp_int);
    for (int j = 1; fr->peak_storages && j < fr->n_peak_storages; j++) /* (made in order) */
        for (int i = j; i > 0 && fr->peak_storages[i - 1] > fr->peak_storages[i]; i--) {
            int t = fr->peak_storages[i];
            char *name = fr->peak_names[i];
            fr->peak_storages[i] = fr->peak_storages[i - 1];
            fr->peak_names[i] = fr->peak_names[i - 1];
            fr->peak_storages[i - 1] = t;
            fr->peak_names[i - 1] = name;
        }
}

/* Each function's values and the storages they made or view, by one pass
 * over all values and storages (then ordered by source position / id). */
static void fill_lists(an_report *r, const int *report_of)
{
    int64_t *mark = tl_xmalloc(sizeof(int64_t) * ((size_t)r->n_storages + 1));
    for (int s = 0; s < r->n_storages; s++)
        mark[s] = -1;
    /* each function's lists at their size: a unit of many functions is linear, not square */
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < r->n_funcs; k++) {
            an_func_report *fr = &r->funcs[k];
            if (pass == 1) {
                fr->values = tl_xmalloc(sizeof(int) * ((size_t)fr->n_values + 1));
                /* (and room for the storages of other functions its values use: fill_storages) */
                fr->storages =
                    tl_xmalloc(sizeof(int) * ((size_t)fr->n_storages + (size_t)fr->n_values + 1));
            }
            fr->n_values = fr->n_storages = 0;
        }
        for (int v = 0; v < r->n_values; v++) {
            int k = report_of[r->values[v].func];
            if (k >= 0 && pass == 1)
                r->funcs[k].values[r->funcs[k].n_values] = v;
            if (k >= 0)
                r->funcs[k].n_values++;
        }
        for (int st = 0; st < r->n_storages; st++) {
            int k = r->storages[st].func >= 0 ? report_of[r->storages[st].func] : -1;
            if (k < 0 || r->storages[st].summarised)
                continue;
            if (pass == 1)
                r->funcs[k].storages[r->funcs[k].n_storages] = st;
            r->funcs[k].n_storages++;
        }
    }
    for (int k = 0; k < r->n_funcs; k++) { /* the live sets list what is listed */
        an_func_report *fr = &r->funcs[k];
        int n = 0;
        for (int j = 0; j < fr->n_peak_storages; j++) {
            if (r->storages[fr->peak_storages[j]].summarised) {
                free(fr->peak_names[j]);
                continue;
            }
            fr->peak_names[n] = fr->peak_names[j];
            fr->peak_storages[n++] = fr->peak_storages[j];
        }
        fr->n_peak_storages = n;
    }
    for (int k = 0; k < r->n_funcs; k++)
        fill_storages(r, &r->funcs[k], mark, report_of);
    free(mark);
}

static int cmp_diag(const void *a, const void *b)
{
    const an_diag *x = a, *y = b;
    if (x->line != y->line)
        return x->line - y->line;
    if (x->col != y->col)
        return x->col - y->col;
    return strcmp(x->check, y->check);
}

/* The assumptions on the run's path in source order (branch, then arm);
 * the exits that name them follow. */
static void sort_paths(an_report *r)
{
    int n = r->n_paths;
    if (n < 2)
        return;
    int *order = tl_xmalloc(sizeof *order * (size_t)n), *to = tl_xmalloc(sizeof *to * (size_t)n);
    for (int k = 0; k < n; k++)
        order[k] = k;
    for (int k = 1; k < n; k++) /* insertion sort: a few, mostly in order already */
        for (int j = k; j > 0; j--) {
            const an_path *a = &r->paths[order[j - 1]], *b = &r->paths[order[j]];
            if (a->line < b->line || (a->line == b->line && (a->col < b->col ||
                                                             (a->col == b->col && a->then_arm))))
                break;
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    an_path *sorted = tl_xmalloc(sizeof *sorted * (size_t)n);
    for (int k = 0; k < n; k++) {
        sorted[k] = r->paths[order[k]];
        to[order[k]] = k;
    }
    for (int k = 0; k < r->n_exits; k++)
        if (r->exits[k].path)
            r->exits[k].path_id = to[r->exits[k].path_id];
    free(r->paths);
    r->paths = sorted;
    free(order);
    free(to);
}

/* The --bind names the analysis met (as bound symbols) and those it did not.
 * A name the analysis without --bind gave is met even where this one never
 * reads its value (a value bound decided the branch that read it). */
static void binds_met(an_ctx *cx)
{
    an_report *r = cx->r;
    const an_name_map *m = cx->sym.names_from;
    for (int k = 0; k < cx->opt.n_binds; k++) {
        for (int j = 0; m && j < m->n && !cx->sym.bind_used[k]; j++)
            cx->sym.bind_used[k] = strcmp(m->names[j], cx->opt.bind_names[k]) == 0;
        char ***names = cx->sym.bind_used[k] ? &r->bind_names : &r->bind_unknown;
        int *n = cx->sym.bind_used[k] ? &r->n_bind_names : &r->n_bind_unknown;
        *names = tl_xreallocarray(*names, (size_t)*n + 1, sizeof **names);
        (*names)[(*n)++] = tl_xstrdup(cx->opt.bind_names[k]);
    }
    free(cx->sym.bind_used);
    cx->sym.bind_used = NULL;
}

/* Is name one of names[0 .. n)? */
static bool listed(char **names, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return true;
    return false;
}

bool an_report_binds_ok(const an_report *r, const char *tool, FILE *err)
{
    if (r->n_bind_unknown == 0)
        return true;
    /* the names a --bind may give: the symbols (a loop's counter is none) and those bound */
    int n = 0;
    char **names = tl_xcalloc((size_t)(sx_n_symbols() + r->n_bind_names) + 1, sizeof *names);
    for (int k = 0; k < r->n_bind_names; k++)
        if (!listed(names, n, r->bind_names[k]))
            names[n++] = r->bind_names[k];
    for (int i = 0; i < sx_n_symbols(); i++)
        if (strcmp(sx_symbol_origin(i), "loop") != 0 && !listed(names, n, sx_symbol_name(i)))
            names[n++] = (char *)sx_symbol_name(i);
    for (int k = 0; k < r->n_bind_unknown; k++) {
        fprintf(err, "tensorlint %s: --bind %s: no run-time size of the program has that name; ",
                tool, r->bind_unknown[k]);
        if (n == 0)
            fprintf(err, "it has none\n");
        for (int j = 0; j < n; j++)
            fprintf(err, "%s%s%s", j == 0 ? "its names are: " : ", ", names[j],
                    j == n - 1 ? "\n" : "");
    }
    free(names);
    return false;
}

/* One analysis; names_from: the names of the one without --bind (NULL: this
 * is it); harvest: where this one's names go (NULL: nowhere). */
static an_report *analyze_once(const ir_unit *u, const an_options *opt,
                               const an_name_map *names_from, an_name_map *harvest)
{
    an_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.u = u;
    cx.opt = *opt;
    cx.sym.names_from = names_from;
    cx.vars.never_set = an_uninit_scan(u);
    cx.r = tl_xcalloc(1, sizeof *cx.r);
    if (!cx.r)
        return NULL;
    cx.r->unit = u;
    cx.out.log_events = true;
    cx.sym.bind_used = tl_xcalloc((size_t)cx.opt.n_binds + 1, sizeof *cx.sym.bind_used);
    cx.r->sx = sx_state_new(); /* symbols, expressions and assumptions are the report's */
    sx_state_use(cx.r->sx);
    setup(&cx);
    bool *called = tl_xcalloc((size_t)u->n_funcs + 1, sizeof(bool)); /* by another function */
    for (int f = 0; f < u->n_funcs; f++) {
        collect_calls(u->funcs[f]->body, f, called, u->n_funcs);
        /* a function whose address another takes is called through pointers */
        called[f] = called[f] || u->funcs[f]->address_taken;
    }
    bool any_root = false;
    for (int k = 0; k < cx.r->n_funcs; k++)
        any_root = any_root || !called[cx.r->funcs[k].func];
    for (int k = 0; k < cx.r->n_funcs; k++)
        if (!any_root || !called[cx.r->funcs[k].func])
            run_root(&cx, &cx.r->funcs[k]);
    fill_lists(cx.r, cx.out.report_of);
    for (int k = 0; k < cx.r->n_funcs; k++) { /* symbolic totals: the known parts joined in */
        an_func_report *fr = &cx.r->funcs[k];
        if (!fr->symbolic && !fr->end_sx.e && !fr->end_sx.c && !fr->moved_sx.e && !fr->moved_sx.c)
            continue;
        an_fr_symbolic(fr); /* (its peak a number so far: the formula's first candidate) */
        fr->end_sx = sx_add(fr->end_sx, (sx_int){fr->end_live_bytes, 0});
        fr->moved_sx = sx_add(fr->moved_sx, (sx_int){fr->moved_bytes, 0});
        fr->calls_sx = sx_add(fr->calls_sx, (sx_int){fr->n_calls, 0});
    }
    if (cx.r->n_diags > 1)
        qsort(cx.r->diags, (size_t)cx.r->n_diags, sizeof *cx.r->diags, cmp_diag);
    sort_paths(cx.r);
    free(called);
    free(cx.tens.handles);
    free(cx.tens.refs);
    free(cx.tens.live_storage);
    for (int k = 0; k < cx.mem.n_fills; k++) {
        free(cx.mem.fills[k].origin);
        free(cx.mem.fills[k].reads);
    }
    free(cx.mem.fills);
    free(cx.out.site_value);
    free(cx.acct.fs);
    free(cx.tens.cuda_block);
    free(cx.out.report_of);
    an_mem_free(&cx.mem.cells);
    an_frame_free(cx.ctl.gframe);
    free(cx.mem.ptrs);
    an_symbol_names_clear(&cx);
    free(cx.sym.local);
    if (harvest)
        an_symbol_names_harvest(&cx, harvest);
    an_symbol_origins_free(&cx);
    free(cx.vars.never_set);
    free(cx.sym.token_value);
    free(cx.sym.token_read);
    free(cx.sym.token_floorless);
    binds_met(&cx);
    free(cx.mem.segs);
    for (int f = 0; f < u->n_funcs; f++)
        free(cx.vars.func_vars[f]);
    free(cx.vars.func_vars);
    free(cx.vars.n_func_vars);
    free(cx.vars.slot);
    free(cx.vars.global_vars);
    return cx.r;
}

typedef struct analyze_job {
    const ir_unit *u;
    an_options o;
    an_report *r;
} analyze_job;

static void analyze_run(void *arg)
{
    analyze_job *j = arg;
    if (j->o.n_binds == 0) {
        j->r = analyze_once(j->u, &j->o, NULL, NULL);
        return;
    }
    /* the symbols' names first, as the analysis without --bind gives them:
     * a name means one origin whatever is bound */
    an_options plain = j->o;
    plain.n_binds = 0;
    an_name_map names = {0, 0, NULL, NULL, NULL};
    an_report_free(analyze_once(j->u, &plain, NULL, &names));
    j->r = analyze_once(j->u, &j->o, &names, NULL);
    an_name_map_free(&names);
}

/* The interpreter recurses once per nested statement, as the parse does:
 * it runs on a deep stack (tl_run_deep), and the report's symbolic context
 * is made the caller's thread's current one when it returns. */
an_report *an_analyze(const ir_unit *u, const an_options *opt)
{
    analyze_job j = {.u = u};
    if (opt)
        j.o = *opt;
    else
        an_options_default(&j.o);
    /* tests give it a small stack (TENSORLINT_TEST_ANALYSIS_STACK_KIB) to show
     * what recursion grows with the input, and the limit that stops it */
    const char *kib = getenv("TENSORLINT_TEST_ANALYSIS_STACK_KIB");
    tl_run_deep_size(analyze_run, &j, kib && atol(kib) > 0 ? (size_t)atol(kib) << 10
                                                            : TL_DEEP_STACK);
    an_report_use(j.r);
    return j.r;
}
void an_diag_free(an_diag *d)
{
    free(d->message);
    for (int n = 0; n < d->n_notes; n++)
        free(d->notes[n].message);
    free(d->notes);
    for (int n = 0; n < d->n_fixits; n++)
        free(d->fixits[n].text);
    free(d->fixits);
}


void an_report_use(const an_report *r)
{
    if (r)
        sx_state_use(r->sx);
}

void an_report_free(an_report *r)
{
    if (!r)
        return;
    free(r->slayouts);
    sx_state_free(r->sx); /* the report's expressions go with it */
    for (int k = 0; k < r->n_funcs; k++) {
        free(r->funcs[k].values);
        free(r->funcs[k].storages);
        free(r->funcs[k].peak_storages);
        an_names_free(r->funcs[k].peak_names, r->funcs[k].n_peak_storages);
    }
    for (int v = 0; v < r->n_values; v++)
        free(r->values[v].reason);
    for (int d = 0; d < r->n_diags; d++)
        an_diag_free(&r->diags[d]);
    free(r->funcs);
    free(r->values);
    free(r->storages);
    free(r->events);
    free(r->alts);
    free(r->alt_events);
    free(r->exits);
    free(r->repeats);
    for (int k = 0; k < r->n_paths; k++) {
        free(r->paths[k].condition);
        free(r->paths[k].leave);
    }
    free(r->paths);
    free(r->summed_loops);
    free(r->indirect);
    free(r->diags);
    for (int k = 0; k < r->n_bind_names; k++)
        free(r->bind_names[k]);
    free(r->bind_names);
    for (int k = 0; k < r->n_bind_unknown; k++)
        free(r->bind_unknown[k]);
    free(r->bind_unknown);
    free(r);
}

int an_report_callees(const an_report *r, int line, int col, int *out, int max)
{
    int n = 0;
    for (int k = 0; k < r->n_indirect; k++)
        if (r->indirect[k].line == line && r->indirect[k].col == col) {
            if (n < max)
                out[n] = r->indirect[k].callee;
            n++;
        }
    return n;
}

const an_func_report *an_report_func(const an_report *r, const char *name)
{
    for (int k = 0; k < r->n_funcs; k++)
        if (strcmp(r->funcs[k].name, name) == 0)
            return &r->funcs[k];
    return NULL;
}

const char *an_severity_name(an_severity s)
{
    return s == AN_ERROR ? "error" : s == AN_WARNING ? "warning" : "note";
}

bool an_report_has_errors(const an_report *r)
{
    for (int d = 0; d < r->n_diags; d++)
        if (r->diags[d].severity == AN_ERROR)
            return true;
    return false;
}
