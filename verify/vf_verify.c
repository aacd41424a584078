/*
 * vf_verify.c: the agreement between a static report and a run's trace
 * (see vf_verify.h for the rules).  The trace is read with Jansson, one
 * record per line; a line that does not parse ends the trace (a truncated
 * trace is reported, never guessed past).  Output: one row per call site
 * with "ok", "not compared" (the prediction is unknown: nothing to hold
 * against the run, so it is never counted as agreement) or the fields that
 * differ, each difference on its own line with the predicted and the
 * measured value, then the totals.
 *
 * Calls in one full expression: C leaves the order of evaluation of
 * function arguments and operands unspecified, so the calls the analysis
 * lists for one line may appear in the trace in another order (printf of
 * two tl_get, tl_add(tl_relu(a), tl_exp(a))).  The calls of one C statement
 * (they carry its number, an_event.stmt; it may span lines) are matched
 * with the trace's run of calls on those lines as an unordered set: each
 * predicted call takes the measured call of the same op that fits it best.
 * Live bytes in between depend on the order and are compared after the
 * last call of the run only.
 */
#define _GNU_SOURCE /* open_memstream */
#include "vf_verify.h"

#include <errno.h>
#include <limits.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "rp_report.h"
#include "xalloc.h"

typedef struct trace {
    json_t **rec;   /* call and error records of the program, in order */
    int64_t n, cap;
    json_t *exit;   /* the exit record, or NULL */
    int64_t n_lines;
    int64_t *block_bytes; /* per trace storage id: its CUDA block's bytes, -1 */
    int64_t n_ids;
    int64_t *free_at;     /* the program's frees (before the exit record): call and error */
    int *free_line;       /* records before each, and the line of the release */
    int64_t n_frees, cap_frees;
} trace;

/* A free by a release of the program (the exit-time reclaim's have line 0). */
static void trace_free_push(trace *t, const json_t *j)
{
    int64_t line = json_integer_value(json_object_get(j, "line"));
    if (line <= 0 || t->exit)
        return;
    if (t->n_frees == t->cap_frees) {
        t->cap_frees = t->cap_frees ? 2 * t->cap_frees : 64;
        t->free_at = tl_xreallocarray(t->free_at, (size_t)t->cap_frees, sizeof *t->free_at);
        t->free_line = tl_xreallocarray(t->free_line, (size_t)t->cap_frees, sizeof *t->free_line);
    }
    t->free_at[t->n_frees] = t->n;
    t->free_line[t->n_frees++] = (int)line;
}

/* A CUDA alloc record: the caching allocator's block for the storage. */
static void trace_block(trace *t, const json_t *j)
{
    int64_t id = json_integer_value(json_object_get(j, "storage"));
    if (id < 0 || !json_is_integer(json_object_get(j, "segment")))
        return;
    if (id >= t->n_ids) {
        int64_t n = id + 1024;
        t->block_bytes = tl_xreallocarray(t->block_bytes, (size_t)n, sizeof(int64_t));
        for (int64_t k = t->n_ids; k < n; k++)
            t->block_bytes[k] = -1;
        t->n_ids = n;
    }
    t->block_bytes[id] = json_integer_value(json_object_get(j, "block_bytes"));
}

static void trace_push(trace *t, json_t *j)
{
    tl_xgrow(t->rec, &t->cap, (size_t)t->n + 1, 256);
    t->rec[t->n++] = j;
}

/* The next line; false at the end.  getline failing for want of memory is
 * the out-of-memory exit, not the end of the trace. */
static bool trace_getline(char **line, size_t *cap, FILE *f)
{
    errno = 0;
    if (getline(line, cap, f) > 0)
        return true;
    if (!feof(f) && errno == ENOMEM)
        tl_out_of_memory(0);
    return false;
}

/* A line for a message: "12", in a program "12 of model.c" (ir_unit_line_text);
 * one of a few rotating buffers, so that a message may hold several. */
static const char *vline(const an_report *r, int line)
{
    static _Thread_local char bufs[4][320];
    static _Thread_local int next;
    char *b = bufs[next++ % 4];
    char *at = r && r->unit ? ir_unit_line_text(r->unit, line) : NULL;
    snprintf(b, sizeof bufs[0], "%s", at ? at : "");
    if (!at)
        snprintf(b, sizeof bufs[0], "%d", line);
    free(at);
    return b;
}

/* A program's records name their unit's file (__FILE__, as the unit was
 * compiled): the record's line becomes the program's line (ir.h), as the
 * report's are; a line of a file that is no unit of the program (a header)
 * becomes -1, which no call site of the report has. */
typedef struct trace_files {
    const ir_unit *u;
    char *last;    /* the last record's file, and its line base */
    int last_base;
} trace_files;

static int trace_line_base(trace_files *tf, const char *file)
{
    char real[PATH_MAX], unit[PATH_MAX];
    if (tf->last && strcmp(tf->last, file) == 0)
        return tf->last_base;
    int base = -1;
    bool resolved = realpath(file, real) != NULL;
    for (int k = 0; k < tf->u->n_files && base < 0; k++) {
        const char *path = tf->u->files[k].path;
        if (strcmp(path, file) == 0 ||
            (resolved && realpath(path, unit) && strcmp(unit, real) == 0))
            base = tf->u->files[k].line_base;
    }
    free(tf->last);
    tf->last = tl_xstrdup(file);
    tf->last_base = base;
    return base;
}

static void trace_program_line(trace_files *tf, json_t *j)
{
    const char *file = json_string_value(json_object_get(j, "file"));
    json_int_t line = json_integer_value(json_object_get(j, "line"));
    if (!tf->u || tf->u->n_files == 0 || !file || line <= 0)
        return;
    int base = trace_line_base(tf, file);
    json_object_set_new(j, "line", json_integer(base < 0 ? -1 : base + line));
}

static bool trace_read(const char *path, trace *t, const ir_unit *u, char **error)
{
    trace_files tf = {.u = u};
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    if (!f) {
        *error = tl_xasprintf("cannot read the trace %s", path);
        return false;
    }
    while (trace_getline(&line, &cap, f)) {
        json_t *j = json_loads(line, 0, NULL);
        const char *ev = json_string_value(json_object_get(j, "ev"));
        t->n_lines++;
        if (!j || !ev) {
            json_decref(j);
            break; /* a torn line: the trace ends here */
        }
        trace_program_line(&tf, j);
        if (strcmp(ev, "call") == 0 || strcmp(ev, "error") == 0)
            trace_push(t, j);
        else if (strcmp(ev, "exit") == 0) {
            json_decref(t->exit); /* two exit records (a broken trace): the last counts */
            t->exit = j;
        } else {
            if (strcmp(ev, "alloc") == 0)
                trace_block(t, j);
            else if (strcmp(ev, "free") == 0)
                trace_free_push(t, j);
            json_decref(j);
        }
    }
    free(line);
    free(tf.last);
    fclose(f);
    return true;
}

static void trace_free(trace *t)
{
    for (int64_t k = 0; k < t->n; k++)
        json_decref(t->rec[k]);
    free(t->rec);
    free(t->block_bytes);
    free(t->free_at);
    free(t->free_line);
    json_decref(t->exit);
}

static int64_t jint(const json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

static const char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* ---- the walk ---- */

typedef struct walk {
    const an_report *r;
    const trace *t;
    const vf_options *opt;
    FILE *out;
    vf_summary *sum;
    int64_t *an_to_tr, *tr_to_an; /* storage id maps, -1 unmapped */
    int64_t n_tr_ids;
    bool *site_done;               /* per value id: first execution compared */
    char *diffs;                   /* differences of the current row */
    size_t diffs_len;
    FILE *diff_out;
    bool row_unknown;              /* the current row's layout was not compared */
    bool live_off;                 /* the run took a branch arm that leaves other live bytes
                                      than the arm the analysis kept: live bytes from there on
                                      are not compared */
    int64_t last_event;            /* the last predicted call compared, or -1 */
    int64_t repeat_end;            /* events before it are a loop body the run goes through
                                      again: followed, their storages mapped, not compared */
    bool repeating;                /* the current call is in such a body */
    bool *repeat_said;             /* per an_report.repeats: its note is printed */
    bool sizes_known;              /* every storage's size is known (live bytes compare) */
    bool ended_before;             /* the run ended at its error, where the report goes on */
    int64_t skip_lo, skip_hi;      /* the kept arm's events the run went round (the other arm
                                      was compared instead), the latest */
} walk;

static void diff(walk *w, const char *field, const char *fmt_pred, const char *meas)
{
    fprintf(w->diff_out, "      %-13s predicted %s, measured %s\n", field, fmt_pred, meas);
    w->sum->mismatches++;
}

static char *ints_text(int n, const int64_t *v)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = tl_xmemstream(&s, &len);
    fputc('(', f);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%lld", k ? ", " : "", (long long)v[k]);
    fputs(n == 1 ? ",)" : ")", f);
    tl_xmemstream_close(f);
    return s;
}

static char *json_ints_text(const json_t *a)
{
    int64_t v[TL_MAX_DIMS];
    int n = (int)json_array_size(a);
    for (int k = 0; k < n && k < TL_MAX_DIMS; k++)
        v[k] = json_integer_value(json_array_get(a, (size_t)k));
    return ints_text(n < TL_MAX_DIMS ? n : TL_MAX_DIMS, v);
}

static void compare_text(walk *w, const char *field, char *pred, char *meas)
{
    w->sum->fields++;
    if (strcmp(pred, meas) != 0)
        diff(w, field, pred, meas);
    free(pred);
    free(meas);
}

static void compare_int(walk *w, const char *field, int64_t pred, int64_t meas)
{
    compare_text(w, field, tl_xasprintf("%lld", (long long)pred),
                 tl_xasprintf("%lld", (long long)meas));
}

/* The first execution of a call site: the result's layout and kind. */
static void compare_layout(walk *w, const an_value *v, const json_t *rec)
{
    static const char *kinds[] = {"new", "view", "inplace", "none"};
    if (!v->known || v->error) {
        w->sum->unknown++;
        w->row_unknown = true;
        return;
    }
    compare_text(w, "shape", ints_text(v->l.ndim, v->l.shape),
                 json_ints_text(json_object_get(rec, "shape")));
    compare_text(w, "strides", ints_text(v->l.ndim, v->l.strides),
                 json_ints_text(json_object_get(rec, "strides")));
    if (!v->offset_unknown)
        compare_int(w, "offset", v->l.offset, jint(rec, "offset"));
    compare_text(w, "dtype", an_strdup(mt_dtype_name(v->l.dtype)), an_strdup(jstr(rec, "dtype")));
    compare_text(w, "device", an_strdup(mt_device_name(v->l.device)),
                 an_strdup(jstr(rec, "device")));
    compare_text(w, "kind", an_strdup(kinds[v->kind]), an_strdup(jstr(rec, "kind")));
    w->sum->sites++;
}

/* Storage identity: the two runs' ids must map one to one. */
static void compare_storage(walk *w, const an_event *e, const json_t *rec)
{
    int64_t tr = jint(rec, "storage");
    if (e->storage < 0 || tr < 0 || e->op == MT_OP_get)
        return;
    if (tr >= w->n_tr_ids) {
        int64_t n = tr + 1024;
        w->tr_to_an = tl_xreallocarray(w->tr_to_an, (size_t)n, sizeof(int64_t));
        for (int64_t k = w->n_tr_ids; k < n; k++)
            w->tr_to_an[k] = -1;
        w->n_tr_ids = n;
    }
    int64_t an = e->storage;
    if (w->repeating) { /* a later iteration than the one analysed: its storages are new */
        w->an_to_tr[an] = tr;
        w->tr_to_an[tr] = an;
        return;
    }
    w->sum->fields++;
    if (w->an_to_tr[an] < 0 && w->tr_to_an[tr] < 0) {
        w->an_to_tr[an] = tr;
        w->tr_to_an[tr] = an;
    } else if (w->an_to_tr[an] != tr || w->tr_to_an[tr] != an) {
        char *p = tl_xasprintf("S%lld", (long long)an),
             *m = tl_xasprintf("storage %lld", (long long)tr);
        diff(w, "storage", p, m);
        free(p);
        free(m);
    }
    const an_storage *st = &w->r->storages[an];
    if (e->value >= 0 && w->r->values[e->value].kind == MT_KIND_NEW && st->nbytes >= 0 &&
        (!st->external || st->external_nbytes >= 0) && strcmp(jstr(rec, "kind"), "new") == 0)
        /* external: the caller's buffer, 0 allocated (a formula: --bind its sizes) */
        compare_int(w, "storage bytes", st->external ? st->external_nbytes : st->made_nbytes,
                    jint(rec, "storage_nbytes"));
    if (e->value >= 0 && w->r->values[e->value].kind == MT_KIND_NEW && st->device == TL_CUDA &&
        st->alloc_bytes >= 0 && tr < w->t->n_ids && w->t->block_bytes[tr] >= 0)
        compare_int(w, "block bytes", st->alloc_bytes, w->t->block_bytes[tr]);
}

/* Every storage's size is known (computed once: a walk's calls ask it each). */
static bool sizes_known(const an_report *r)
{
    for (int s = 0; s < r->n_storages; s++)
        if (r->storages[s].nbytes < 0)
            return false;
    return true;
}

static void compare_live(walk *w, const an_event *e, const json_t *rec)
{
    int64_t pred = e->live_bytes + (e->line == w->opt->perturb_line ? 1 : 0);
    if (!rec)
        return;
    if (w->sizes_known && !w->live_off)
        compare_int(w, "live bytes", pred, jint(rec, "live_bytes"));
    else
        w->sum->live_not_compared++;
}

/* A program line (ir.h) as verify prints it: "12", or in a program
 * "12 in layers.c" (to free). */
static char *vf_line_text(const walk *w, int64_t line)
{
    const ir_file *f = ir_unit_file_at(w->r->unit, (int)line);
    const char *base = f ? strrchr(f->path, '/') : NULL;
    if (!f)
        return tl_xasprintf("%lld", (long long)line);
    return tl_xasprintf("%lld in %s", (long long)(line - f->line_base), base ? base + 1 : f->path);
}

static void print_row(walk *w, const an_event *e, const char *what)
{
    fflush(w->diff_out);
    const ir_file *f = ir_unit_file_at(w->r->unit, e->line);
    const char *base = f ? strrchr(f->path, '/') : NULL;
    if (f) /* a program: the line in its file, and the file */
        fprintf(w->out, "  %5d  %-14s %-24s %s\n", e->line - f->line_base, mt_ops[e->op].name,
                base ? base + 1 : f->path, w->diffs_len ? "MISMATCH" : w->row_unknown
                ? "not compared (prediction unknown)" : what);
    else
        fprintf(w->out, "  %5d  %-14s %s\n", e->line, mt_ops[e->op].name,
                w->diffs_len ? "MISMATCH" : w->row_unknown ? "not compared (prediction unknown)"
                                                           : what);
    if (w->diffs_len)
        fputs(w->diffs, w->out);
    rewind(w->diff_out);
    w->diffs_len = 0;
    w->diffs[0] = '\0';
    w->row_unknown = false;
}

/* live: the record whose live bytes follow this call (NULL: not compared here). */
static void compare_call(walk *w, const an_event *e, const json_t *rec, const json_t *live)
{
    bool first = e->value >= 0 && !w->site_done[e->value];
    w->sum->calls++;
    if (first) {
        w->site_done[e->value] = true;
        compare_layout(w, &w->r->values[e->value], rec);
    }
    compare_storage(w, e, rec);
    compare_live(w, e, live);
    if (first || w->diffs_len || ftell(w->diff_out) > 0)
        print_row(w, e, "ok");
    w->row_unknown = false;
}

/* A predicted error meets a measured one at the same line, or not. */
static void compare_error(walk *w, const an_event *e, const json_t *rec)
{
    bool measured = strcmp(jstr(rec, "ev"), "error") == 0;
    char *pl = vf_line_text(w, e->line), *ml = vf_line_text(w, jint(rec, "line"));
    char *p = e->error ? tl_xasprintf("an error at line %s", pl) : an_strdup("no error");
    char *m = measured ? tl_xasprintf("%s at line %s: %s", jstr(rec, "status"), ml,
                                      jstr(rec, "message"))
                       : an_strdup("no error");
    free(pl);
    free(ml);
    w->sum->fields++;
    if (e->error != measured || (measured && jint(rec, "line") != e->line))
        diff(w, "error", p, m);
    free(p);
    free(m);
    print_row(w, e, "error, as predicted");
}

static bool same_site(const an_event *e, const json_t *rec)
{
    if (strcmp(jstr(rec, "ev"), "error") == 0)
        return jint(rec, "line") == e->line;
    return jint(rec, "line") == e->line && strcmp(jstr(rec, "op"), mt_ops[e->op].name) == 0;
}

static void report_divergence(walk *w, const an_event *e, const json_t *rec)
{
    char *at = rec ? vf_line_text(w, jint(rec, "line")) : NULL;
    char *ran = !rec ? an_strdup("made no more calls")
                : strcmp(jstr(rec, "ev"), "error") == 0
                    ? tl_xasprintf("failed at line %s: %s", at, jstr(rec, "message"))
                    : tl_xasprintf("called tl_%s at line %s", jstr(rec, "op"), at);
    free(at);
    w->sum->diverged = true;
    w->sum->mismatches++;
    if (e) {
        char *pl = vf_line_text(w, e->line);
        fprintf(w->out, "  control flow diverged: predicted tl_%s at line %s, the run %s\n",
                mt_ops[e->op].name, pl, ran);
        free(pl);
    } else {
        fprintf(w->out, "  control flow diverged: predicted no more calls, the run %s\n", ran);
    }
    free(ran);
}

/* How far a measured call is from a predicted one, without comparing:
 * layout fields that differ (first execution of a known value) plus storage
 * ids that the mapping so far contradicts. */
static int misfit(const walk *w, const an_event *e, const json_t *rec)
{
    int n = 0;
    if (e->value >= 0 && !w->site_done[e->value]) {
        const an_value *v = &w->r->values[e->value];
        if (v->known && !v->error) {
            const json_t *shape = json_object_get(rec, "shape");
            const json_t *strides = json_object_get(rec, "strides");
            n += (int)json_array_size(shape) != v->l.ndim;
            for (int d = 0; d < v->l.ndim && d < (int)json_array_size(shape); d++) {
                n += json_integer_value(json_array_get(shape, (size_t)d)) != v->l.shape[d];
                n += json_integer_value(json_array_get(strides, (size_t)d)) != v->l.strides[d];
            }
            n += jint(rec, "offset") != v->l.offset;
            n += strcmp(jstr(rec, "dtype"), mt_dtype_name(v->l.dtype)) != 0;
        }
    }
    int64_t tr = jint(rec, "storage");
    if (e->storage >= 0 && tr >= 0 && e->op != MT_OP_get) {
        n += w->an_to_tr[e->storage] >= 0 && w->an_to_tr[e->storage] != tr;
        n += tr < w->n_tr_ids && w->tr_to_an[tr] >= 0 && w->tr_to_an[tr] != e->storage;
    }
    return n;
}

/* Calls of one full expression matched as a set at most (a longer one is
 * matched in order). */
#define GROUP_MAX 64

/* The predicted calls from event i that share its line, one execution of it
 * (other events on the line between them are passed over; a column seen
 * again is the line's next execution, a loop written on one line): their
 * event indexes in *ids.  Stops at an error or a poisoned call, which are
 * matched one by one. */
static int line_group(const walk *w, const an_func_report *root, int64_t i, int64_t *ids)
{
    const an_event *e0 = &w->r->events[i];
    int n = 0;
    for (int64_t j = i; j < root->end_event && n < GROUP_MAX; j++) {
        const an_event *e = &w->r->events[j];
        if (e->func != e0->func)
            break;
        if (e->kind != AN_EV_CALL) {
            if (e->line != e0->line)
                break;
            continue;
        }
        if (e->stmt != e0->stmt || e->error || e->poison)
            break;
        for (int k = 0; k < n; k++)
            if (w->r->events[ids[k]].col == e->col && w->r->events[ids[k]].line == e->line)
                return n;
        ids[n++] = j;
    }
    return n;
}

/* Pairs the n predicted calls ids[] with the measured calls k..k+n-1 when
 * those are the same calls in another order: pair[j] is the trace index of
 * event ids[j].  False when they are not the same multiset (or are in the
 * predicted order: nothing to reorder). */
static bool match_reordered(const walk *w, const int64_t *ids, int n, const trace *t, int64_t k,
                            int64_t *pair)
{
    bool used[GROUP_MAX] = {false}, in_order = true;
    int lo = INT_MAX, hi = 0;
    if (n < 2 || k + n > t->n)
        return false;
    for (int j = 0; j < n; j++) { /* the lines the statement spans */
        const an_event *e = &w->r->events[ids[j]];
        lo = e->line < lo ? e->line : lo;
        hi = e->line > hi ? e->line : hi;
    }
    for (int j = 0; j < n; j++) {
        const an_event *e = &w->r->events[ids[j]];
        const json_t *rec = t->rec[k + j];
        if (strcmp(jstr(rec, "ev"), "call") != 0 || jint(rec, "line") < lo ||
            jint(rec, "line") > hi)
            return false;
        in_order = in_order && same_site(e, rec);
    }
    if (in_order)
        return false;
    for (int j = 0; j < n; j++) {
        const an_event *e = &w->r->events[ids[j]];
        int best = -1, best_misfit = 0;
        for (int c = 0; c < n; c++) {
            if (used[c] || !same_site(e, t->rec[k + c]))
                continue;
            int m = misfit(w, e, t->rec[k + c]);
            if (best < 0 || m < best_misfit) {
                best = c;
                best_misfit = m;
            }
        }
        if (best < 0)
            return false; /* the run made other calls on this line */
        used[best] = true;
        pair[j] = k + best;
    }
    return true;
}

/* Some call of the group runs for the first time (its row will be printed). */
static bool group_first_seen(const walk *w, const int64_t *ids, int n)
{
    for (int j = 0; j < n; j++) {
        int v = w->r->events[ids[j]].value;
        if (v >= 0 && !w->site_done[v])
            return true;
    }
    return false;
}

/* The calls ids[] met by the run's records pair[] (taken in another order):
 * live bytes only after the set, the last predicted call against the run's
 * record k_last. */
static void compare_reordered(walk *w, const int64_t *ids, const int64_t *pair, int n,
                              const trace *t, int64_t k_last)
{
    if (group_first_seen(w, ids, n)) /* said once, above the rows */
        fprintf(w->out, "  (line %s: the run made these %d calls in another order, which C "
                "leaves unspecified; live bytes compared after the last)\n",
                vline(w->r, w->r->events[ids[0]].line), n);
    for (int j = 0; j < n; j++)
        compare_call(w, &w->r->events[ids[j]], t->rec[pair[j]],
                     j == n - 1 ? t->rec[k_last] : NULL);
}

/* The CALL events of ev[lo, hi), at most max, into out; how many. */
static int64_t calls_of(const an_event *ev, int64_t lo, int64_t hi, const an_event **out,
                        int64_t max)
{
    int64_t n = 0;
    for (int64_t i = lo; i < hi && n < max; i++)
        if (ev[i].kind == AN_EV_CALL)
            out[n++] = &ev[i];
    return n;
}

#define ARM_MAX 4096 /* calls of one arm that a switch to the other arm compares */

/* The run left the analysis's log at main event i, inside (or at the start
 * of) the kept arm of an unknown branch: did it take the other arm?  When
 * the calls already compared agree with the other arm's first ones and the
 * rest of that arm agrees with the trace from k, the other arm is walked
 * (compared) and the walk resumes after the kept arm: *resume is its end.
 * False, with nothing written, otherwise. */
static bool take_other_arm(walk *w, int64_t i, const trace *t, int64_t *k, int64_t *resume)
{
    const an_report *r = w->r;
    static const an_event *kept[ARM_MAX], *other[ARM_MAX];
    for (int j = 0; j < r->n_alts; j++) {
        const an_alt *a = &r->alts[j];
        if (i < a->at || i > a->at + a->kept_len)
            continue;
        int64_t done = calls_of(r->events, a->at, i, kept, ARM_MAX);
        int64_t n = calls_of(r->alt_events, a->first, a->first + a->len, other, ARM_MAX);
        if (done > n || n == ARM_MAX)
            continue;
        bool fits = true;
        for (int64_t m = 0; m < done && fits; m++)
            fits = kept[m]->line == other[m]->line && kept[m]->op == other[m]->op;
        for (int64_t m = done; m < n && fits; m++)
            fits = *k + (m - done) < t->n && same_site(other[m], t->rec[*k + (m - done)]);
        /* the run's call after the other arm is the log's after the kept one: of two
         * alternatives at one place (an arm, and a return joined at the function's end
         * that holds it), the one the run took */
        int64_t after = *k + (n - done), next = a->at + a->kept_len;
        while (next < r->n_events && r->events[next].kind != AN_EV_CALL)
            next++;
        if (fits)
            fits = after < t->n && next < r->n_events ? same_site(&r->events[next], t->rec[after])
                                                      : (after < t->n) == (next < r->n_events);
        if (!fits || (n == done && a->at + a->kept_len <= i))
            continue; /* (an arm with no call left to compare is no way forward) */
        fprintf(w->out, "  (the run took the other arm of the branch the analysis could not "
                "decide; it is compared instead)\n");
        w->live_off = w->live_off || !a->same_live;
        for (int64_t m = done; m < n; m++, (*k)++)
            compare_call(w, other[m], t->rec[*k], t->rec[*k]);
        *resume = a->at + a->kept_len;
        w->skip_lo = i;
        w->skip_hi = *resume;
        return true;
    }
    return false;
}

/* The run left the analysis's log at main event i: did it leave a loop (or
 * an iteration) early at a branch the analysis could not decide, which
 * the analysis went on through?  Then the walk resumes at the predicted
 * call that the run made next: the first after the loop (or in a later
 * iteration) at its site; *resume is its index (the root's end when the
 * run made no more calls and the prediction makes none after the loop). */
static bool take_exit(walk *w, const an_func_report *root, int64_t i, const json_t *rec,
                      int64_t *resume)
{
    const an_report *r = w->r;
    for (int j = r->n_exits - 1; j >= 0; j--) {
        const an_exit *x = &r->exits[j];
        if (x->path || x->at > i || x->at < root->first_event)
            continue;
        int64_t found = -1;
        for (int64_t m = i; m < root->end_event && found < 0; m++) {
            const an_event *e = &r->events[m];
            if (e->kind != AN_EV_CALL)
                continue;
            bool past = x->iteration ? e->loop_depth <= x->loop_depth
                                     : e->loop_depth < x->loop_depth;
            if (past && !rec && !x->iteration)
                break; /* the prediction calls again after the loop; the run did not */
            if (past && rec && same_site(e, rec))
                found = m;
            else if (past && !x->iteration)
                break; /* the first call after the loop is not the run's next */
        }
        if (found < 0 && rec)
            continue;
        *resume = found < 0 ? root->end_event : found;
        fprintf(w->out, "  (the run left the loop at line %s early, which the analysis said it "
                "may; compared from its next call on)\n", vline(w->r, x->line));
        w->live_off = true;
        return true;
    }
    return false;
}

/* Does the report change live bytes in [from, to) (a call or a release)?
 * After a run's end at its error, its totals are then not the run's. */
static bool changes_after(const an_report *r, int64_t from, int64_t to)
{
    for (; from < to; from++)
        if (r->events[from].kind == AN_EV_CALL || r->events[from].kind == AN_EV_RELEASE)
            return true;
    return false;
}

/* The first CALL event in [from, to), or to. */
static int64_t next_call(const an_report *r, int64_t from, int64_t to)
{
    while (from < to && r->events[from].kind != AN_EV_CALL)
        from++;
    return from;
}

/* The run left the analysis's log at event i (i == the root's end: the
 * prediction makes no more calls) in or right after a loop whose trip count
 * the analysis did not know and whose body it analysed once: did the run go
 * through that loop fewer times (its next call is the first after the loop,
 * or it makes none and neither does the prediction) or once more (its next
 * call is the body's first)?  *resume is the predicted call it makes next.
 * Live bytes from there on are not compared (the analysis said they are
 * bounds); the calls of a later iteration are followed, not compared. */
static bool take_repeat(walk *w, const an_func_report *root, int64_t i, const json_t *rec,
                        int64_t *resume)
{
    const an_report *r = w->r;
    for (int j = 0; j < r->n_repeats; j++) {
        const an_repeat *x = &r->repeats[j];
        if (x->first_event < root->first_event || x->end_event > root->end_event)
            continue;
        int64_t after = next_call(r, x->end_event, root->end_event);
        int64_t body = next_call(r, x->first_event, x->end_event);
        bool fewer = i >= x->first_event && i < x->end_event &&
                     (after < root->end_event ? rec && same_site(&r->events[after], rec) : !rec);
        bool again = !fewer && rec && i >= x->end_event && w->last_event >= x->first_event &&
                     w->last_event < x->end_event && body < x->end_event &&
                     same_site(&r->events[body], rec);
        if (!fewer && !again)
            continue;
        if (!w->repeat_said[j]) {
            w->repeat_said[j] = true;
            fprintf(w->out, "  (the run went through the loop at line %s %s than the one "
                    "iteration analysed, which the analysis said it may (its trip count is not "
                    "known): %s)\n", vline(w->r, x->line), fewer ? "fewer times" : "more times",
                    fewer ? "compared from its next call on"
                          : "the later iterations are followed, not compared");
        }
        *resume = fewer ? after : body;
        if (again && x->end_event > w->repeat_end)
            w->repeat_end = x->end_event;
        w->live_off = true;
        return true;
    }
    return false;
}

/* The run left where the report assumes it does not (p): said once. */
static void left_at(walk *w, const an_path *p, const char *also)
{
    fprintf(w->out, "  (the run left at line %s, where the report assumes it does not: %s "
            "(line %s)%s; compared up to there, not after)\n", vline(w->r, p->leave_line),
            p->condition, vline(w->r, p->line), also ? also : "");
    w->sum->left = true;
    w->sum->left_line = p->leave_line;
    w->sum->left_elsewhere = also && *also;
    w->sum->left_assumption = p->condition;
}

/* The run left the analysis's log at main event i: did it take, at a branch
 * the analysis could not decide, an arm that leaves the function or the
 * program, which the report assumes the run does not take?  The branch is
 * one with no predicted call between it and i whose leaving arm's calls the
 * trace from *k makes (of several, those that match the most calls).  Those
 * calls are compared; the run is outside the report's assumptions from
 * there, and nothing after is. */
static bool take_path_exit(walk *w, const an_func_report *root, int64_t i, const trace *t,
                           int64_t *k)
{
    const an_report *r = w->r;
    int best = -1;
    int64_t best_calls = -1;
    char *also = NULL; /* the other branches that fit as well: the run left at one of them */
    size_t also_len = 0;
    FILE *also_out = tl_xmemstream(&also, &also_len);
    for (int j = 0; j < r->n_exits; j++) {
        const an_exit *x = &r->exits[j];
        if (!x->path || x->at > i || x->at < root->first_event)
            continue;
        bool between = false; /* a call the run made after the branch (not one it went round) */
        for (int64_t m = x->at; m < i && !between; m++)
            between = r->events[m].kind == AN_EV_CALL && (m < w->skip_lo || m >= w->skip_hi);
        int64_t n = 0;
        bool fits = !between;
        for (int64_t m = x->alt; m < x->alt + x->alt_len && fits; m++) {
            if (r->alt_events[m].kind != AN_EV_CALL)
                continue;
            fits = *k + n < t->n && same_site(&r->alt_events[m], t->rec[*k + n]);
            n++;
        }
        if (!fits || n < best_calls)
            continue;
        if (n > best_calls) {
            rewind(also_out);
            also_len = 0;
        } else if (r->exits[best].path_id != x->path_id) {
            const an_path *p = &r->paths[x->path_id];
            fprintf(also_out, "; or at line %s: %s (line %s)", vline(r, p->leave_line),
                    p->condition, vline(r, p->line));
        }
        if (n > best_calls || r->exits[best].path_id == x->path_id) {
            best = j;
            best_calls = n;
        }
    }
    fputc('\0', also_out);
    tl_xmemstream_close(also_out);
    if (best < 0) {
        free(also);
        return false;
    }
    const an_exit *x = &r->exits[best];
    left_at(w, &r->paths[x->path_id], also);
    free(also);
    for (int64_t m = x->alt; m < x->alt + x->alt_len; m++)
        if (r->alt_events[m].kind == AN_EV_CALL) {
            compare_call(w, &r->alt_events[m], t->rec[*k], t->rec[*k]);
            (*k)++;
        }
    w->sum->after_left = t->n - *k;
    return true;
}

/* The lines of the releases that free a storage among events ev[from, to),
 * appended to lines[*n] (at most max). */
static void freeing_lines(const an_event *ev, int64_t from, int64_t to, int *lines, int64_t *n,
                          int64_t max)
{
    for (int64_t m = from; m < to && *n < max; m++)
        if (ev[m].kind == AN_EV_RELEASE && ev[m].freed)
            lines[(*n)++] = ev[m].line;
}

#define FREES_MAX 4096 /* frees after the run's last call that a way out is told by */

/* The run made every predicted call and no other: did it leave after the
 * last one, where the report assumes it does not, at a branch whose leaving
 * arm makes no call?  The releases tell: the run's frees after its last
 * call are those predicted up to the branch and in the leaving arm (then,
 * maybe, others: a goto's cleanup), and not all those predicted to the end. */
static bool take_trailing_exit(walk *w, const an_func_report *root, const trace *t)
{
    const an_report *r = w->r;
    static int run[FREES_MAX], pred[FREES_MAX];
    int64_t n_run = 0, n_all = 0, last = root->first_event - 1;
    for (int64_t m = root->first_event; m < root->end_event; m++)
        if (r->events[m].kind == AN_EV_CALL)
            last = m;
    for (int64_t j = 0; j < t->n_frees && n_run < FREES_MAX; j++)
        if (t->free_at[j] == t->n)
            run[n_run++] = t->free_line[j];
    freeing_lines(r->events, last + 1, root->end_event, pred, &n_all, FREES_MAX);
    if (n_run >= FREES_MAX || n_all >= FREES_MAX ||
        (n_all == n_run && memcmp(run, pred, sizeof *run * (size_t)n_run) == 0))
        return false; /* it went on to the end as predicted */
    int first = -1;
    char *also = NULL; /* the others that fit as well: the run left at one of them */
    size_t also_len = 0;
    FILE *also_out = tl_xmemstream(&also, &also_len);
    for (int j = 0; j < r->n_exits; j++) {
        const an_exit *x = &r->exits[j];
        if (!x->path || x->at <= last || x->at > root->end_event)
            continue;
        bool calls = false;
        for (int64_t m = x->alt; m < x->alt + x->alt_len && !calls; m++)
            calls = r->alt_events[m].kind == AN_EV_CALL;
        int64_t n = 0;
        freeing_lines(r->events, last + 1, x->at, pred, &n, FREES_MAX);
        freeing_lines(r->alt_events, x->alt, x->alt + x->alt_len, pred, &n, FREES_MAX);
        if (calls || n > n_run || n >= FREES_MAX || memcmp(run, pred, sizeof *run * (size_t)n) != 0)
            continue;
        const an_path *p = &r->paths[x->path_id];
        if (first < 0)
            first = x->path_id;
        else if (x->path_id != first)
            fprintf(also_out, "; or at line %s: %s (line %s)", vline(r, p->leave_line),
                    p->condition, vline(r, p->line));
    }
    fputc('\0', also_out);
    tl_xmemstream_close(also_out);
    if (first >= 0)
        left_at(w, &r->paths[first], also);
    free(also);
    return first >= 0;
}


/* Predicted call *i beside the run's call *k (both move on): false when
 * the walk ends here (a divergence, or the run's error that ended it). */
static bool walk_call(walk *w, const an_func_report *root, const trace *t, int64_t *i, int64_t *k,
                      int64_t *ids, int64_t *pair)
{
    const an_event *e = &w->r->events[*i];
    const json_t *rec = *k < t->n ? t->rec[*k] : NULL;
    int64_t resume;
    if (*i >= w->repeat_end)
        w->repeat_end = 0;
    w->repeating = *i < w->repeat_end;
    if (e->poison && rec) { /* after an error: whatever the run did is not compared */
        ++*k;
        return true;
    }
    int n = e->error ? 0 : line_group(w, root, *i, ids);
    if (n > 1 && match_reordered(w, ids, n, t, *k, pair)) {
        compare_reordered(w, ids, pair, n, t, *k + n - 1);
        *k += n;
        *i = w->last_event = ids[n - 1];
        return true;
    }
    if (!rec || !same_site(e, rec)) {
        if (take_other_arm(w, *i, t, k, &resume) ||
            (take_exit(w, root, *i, rec, &resume) && resume > *i) ||
            (take_repeat(w, root, *i, rec, &resume) && resume != *i)) {
            *i = resume - 1;
            return true;
        }
        if (take_path_exit(w, root, *i, t, k)) {
            *k = t->n; /* the rest of the run is not compared */
            return false;
        }
        report_divergence(w, e, rec);
        return false;
    }
    ++*k;
    w->last_event = *i;
    if (e->error || strcmp(jstr(rec, "ev"), "error") == 0) {
        compare_error(w, e, rec);
        /* the default handler ended the run at its error, as predicted; the report goes on
         * past it (as a program with its own handler would) when calls or releases follow */
        if (w->opt->run_failed && strcmp(jstr(rec, "ev"), "error") == 0 && *k == t->n) {
            w->ended_before = changes_after(w->r, *i + 1, root->end_event);
            return false;
        }
        return true;
    }
    compare_call(w, e, rec, rec);
    return true;
}

/* Walks the root's CALL events beside the trace, going back into a loop
 * the run goes through again; returns the next trace index. */
static int64_t walk_calls(walk *w, const an_func_report *root, const trace *t)
{
    int64_t k = 0, resume;
    int64_t ids[GROUP_MAX], pair[GROUP_MAX];
    for (int64_t i = root->first_event;; i = resume) {
        for (; i < root->end_event; i++)
            if (w->r->events[i].kind == AN_EV_CALL && !walk_call(w, root, t, &i, &k, ids, pair))
                return k;
        if (k < t->n && take_repeat(w, root, root->end_event, t->rec[k], &resume))
            continue;
        if (k < t->n && take_path_exit(w, root, root->end_event, t, &k))
            return t->n; /* the run made calls the prediction does not: on the way out */
        if (k == t->n)
            take_trailing_exit(w, root, t);
        return k;
    }
}

/* Whether the run's meas lies where a total pred claiming claim says:
 * equal to an exact one, at most an upper bound, at least a lower one;
 * a total not bounded says nothing. */
static bool claim_holds(an_claim claim, int64_t pred, int64_t meas)
{
    switch (claim) {
    case AN_CLAIM_EXACT: return meas == pred;
    case AN_CLAIM_UPPER: return meas <= pred;
    case AN_CLAIM_LOWER: return meas >= pred;
    case AN_CLAIM_NONE: return true;
    }
    return false;
}

/* One byte total.  An exact prediction must equal the run; a bound must
 * have the run on the side it says (a run beyond it disagrees); a total
 * not bounded is shown, not compared. */
static void compare_total(walk *w, const char *what, int64_t pred, int64_t meas, an_claim claim,
                          int line)
{
    char a[32], b[32], at[512] = "", side[16] = "";
    if (line > 0) {
        char *l = vf_line_text(w, line);
        snprintf(at, sizeof at, " (line %s)", l); /* a file name too long is cut */
        free(l);
    }
    if (claim == AN_CLAIM_UPPER || claim == AN_CLAIM_LOWER)
        snprintf(side, sizeof side, "%s ", an_claim_words(claim));
    bool bad = !claim_holds(claim, pred, meas);
    fprintf(w->out, "  %s %s%s predicted%s, %s measured%s\n", what, side,
            rp_format_bytes(a, sizeof a, pred), at, rp_format_bytes(b, sizeof b, meas),
            bad ? "  MISMATCH" : claim == AN_CLAIM_NONE ? "  (not bounded: not compared)"
            : claim != AN_CLAIM_EXACT ? "  (a bound the run keeps to)" : "");
    w->sum->mismatches += bad;
    if (claim == AN_CLAIM_NONE)
        w->sum->totals_not_compared++;
    else if (claim != AN_CLAIM_EXACT && !bad)
        w->sum->bounds_held++;
    else
        w->sum->fields++;
}

/* The caching allocator's peaks: block bytes allocated and segment bytes
 * reserved (bounds when the peak is). */
static void compare_cuda_peaks(walk *w, const an_func_report *root, const json_t *exit)
{
    char a[32], b[32], c[32], d[32];
    int64_t alloc = jint(exit, "cuda_allocated_peak"), reserved = jint(exit, "cuda_reserved_peak");
    bool bound = !an_func_exact(root, AN_TOTAL_PEAK);
    int64_t n_bad =
        bound ? 0 : (root->cuda_allocated_peak != alloc) + (root->cuda_reserved_peak != reserved);
    if (bound)
        w->sum->totals_not_compared += 2;
    else
        w->sum->fields += 2;
    w->sum->mismatches += n_bad;
    fprintf(w->out, "  CUDA allocated peak: %s predicted, %s measured; reserved peak: %s "
            "predicted, %s measured%s\n", rp_format_bytes(a, sizeof a, root->cuda_allocated_peak),
            rp_format_bytes(b, sizeof b, alloc),
            rp_format_bytes(c, sizeof c, root->cuda_reserved_peak),
            rp_format_bytes(d, sizeof d, reserved),
            bound ? "  (bounds: not compared)" : n_bad ? "  MISMATCH" : "");
}

/* One total of a report over symbols: a formula is shown, not compared
 * (--bind gives the number); a formula without symbols is a number, compared. */
static void symbolic_total(walk *w, const char *what, sx_int pred, int64_t meas, an_claim claim,
                           int line)
{
    if (pred.e == 0) {
        compare_total(w, what, pred.c, meas, claim, line);
        return;
    }
    char m[32], *f = sx_strdup(pred);
    fprintf(w->out, "  %s %s%s%s B%s predicted, %s measured  (a formula: not compared; --bind its "
            "sizes to compare)\n", what, claim == AN_CLAIM_UPPER || claim == AN_CLAIM_LOWER
            ? an_claim_words(claim) : "", claim == AN_CLAIM_UPPER || claim == AN_CLAIM_LOWER
            ? " " : "", f, claim == AN_CLAIM_NONE ? " (not bounded)" : "",
            rp_format_bytes(m, sizeof m, meas));
    free(f);
    w->sum->formulas_not_compared++;
}

static void compare_totals(walk *w, const an_func_report *root, const trace *t)
{
    if (!t->exit) {
        w->sum->trace_truncated = !w->opt->run_failed;
        fprintf(w->out, "  the trace has no exit record%s\n",
                w->opt->run_failed ? " (the program stopped at an error)" : ": it is truncated");
        w->sum->mismatches += w->sum->trace_truncated;
        return;
    }
    int64_t end = jint(t->exit, "live_bytes"), peak = jint(t->exit, "peak_bytes");
    char what[64];
    w->sum->ended = true;
    if (w->ended_before) { /* the report's totals are those of a run that goes on */
        char a[32], b[32];
        fprintf(w->out, "  end of %s: live %s measured; peak: %s measured  (not compared: the "
                "run ended at its error, where the report goes on as a program with its own "
                "error handler would)\n", root->name, rp_format_bytes(a, sizeof a, end),
                rp_format_bytes(b, sizeof b, peak));
        w->sum->past_end_not_compared += 2;
        return;
    }
    if (w->sum->left) { /* the report's totals are those of a run that does not leave there */
        char a[32], b[32], c[32], d[32];
        char *fe = root->symbolic ? sx_strdup(root->end_sx) : NULL;
        char *fp = root->symbolic ? sx_strdup(root->peak_sx) : NULL;
        fprintf(w->out, "  end of %s: live %s%s predicted, %s measured; peak: %s%s predicted, %s "
                "measured  (not compared: the run left at line %s)\n", root->name,
                fe ? fe : rp_format_bytes(a, sizeof a, root->end_live_bytes), fe ? " B" : "",
                rp_format_bytes(b, sizeof b, end),
                fp ? fp : rp_format_bytes(c, sizeof c, root->peak_live_bytes), fp ? " B" : "",
                rp_format_bytes(d, sizeof d, peak), vline(w->r, w->sum->left_line));
        free(fe);
        free(fp);
        return;
    }
    if (root->symbolic) { /* formulas: the run is one value of them, which --bind would give;
                             * one that is a number (no symbol in it) is compared */
        snprintf(what, sizeof what, "end of %s: live", root->name);
        symbolic_total(w, what, root->end_sx, end, root->claim[AN_TOTAL_END], 0);
        symbolic_total(w, "peak:", root->peak_sx, peak, root->claim[AN_TOTAL_PEAK],
                       root->peak_line);
        return;
    }
    snprintf(what, sizeof what, "end of %s: live", root->name);
    compare_total(w, what, root->end_live_bytes, end, root->claim[AN_TOTAL_END], 0);
    int64_t peak_pred = root->peak_live_bytes;
    an_claim peak_claim = root->claim[AN_TOTAL_PEAK];
    if (root->peak_line == w->opt->perturb_line && peak_claim == AN_CLAIM_UPPER)
        peak_pred = peak - 1; /* the test hook: a bound the run lies beyond */
    else if (root->peak_line == w->opt->perturb_line && peak_claim == AN_CLAIM_LOWER)
        peak_pred = peak + 1;
    compare_total(w, "peak:", peak_pred, peak, peak_claim, root->peak_line);
    if (root->cuda_reserved_peak > 0 || jint(t->exit, "cuda_reserved_peak") > 0)
        compare_cuda_peaks(w, root, t->exit);
}

/* ---- executions ----
 *
 * How many times each call site ran: the report's count (an_value_runs, the
 * root's share) against the run's call and error records of its line and op.
 * The call sites of one line and op are compared as one (the trace names a
 * call by its line).  A count the report marks as an upper bound is a
 * disagreement when the run exceeds it, else not compared; one it marks as
 * not known, or a formula (a size not bound), is not compared. */

typedef struct exec_key {
    int line;
    int op;
} exec_key;

static int cmp_exec_key(const void *a, const void *b)
{
    const exec_key *x = a, *y = b;
    return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
                              : (x->op > y->op) - (x->op < y->op);
}

/* Records of key k in the sorted keys[0, n). */
static int64_t exec_measured(const exec_key *keys, int64_t n, exec_key k)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) { /* the first not below k */
        int64_t mid = lo + (hi - lo) / 2;
        if (cmp_exec_key(&keys[mid], &k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t first = lo;
    while (lo < n && cmp_exec_key(&keys[lo], &k) == 0)
        lo++;
    return lo - first;
}

typedef struct exec_site {
    exec_key k;
    int value;      /* the first value of the key (for the op's name) */
    int64_t pred;
    bool upper;     /* pred is an upper bound */
    bool unknown;   /* not comparable */
} exec_site;

static int cmp_exec_site(const void *a, const void *b)
{
    return cmp_exec_key(&((const exec_site *)a)->k, &((const exec_site *)b)->k);
}

static void compare_executions(walk *w, const an_func_report *root, const trace *t)
{
    const an_report *r = w->r;
    if (w->sum->diverged)
        return; /* the paths differ: said already */
    if (w->opt->run_failed && (w->sum->ended_at_error || !t->exit)) {
        fprintf(w->out, "  executions: not compared (the run ended at its error)\n");
        return;
    }
    if (w->sum->left) {
        fprintf(w->out, "  executions: not compared (the run left where the report assumes it "
                "does not)\n");
        return;
    }
    exec_key *keys = tl_xreallocarray(NULL, (size_t)t->n + 1, sizeof *keys);
    int64_t n_keys = 0;
    mt_op last = MT_N_OPS;
    for (int64_t k = 0; k < t->n; k++) {
        const char *op = jstr(t->rec[k], "op");
        if (last == MT_N_OPS || strcmp(mt_ops[last].name, op) != 0)
            last = mt_op_lookup(op);
        keys[n_keys++] = (exec_key){(int)jint(t->rec[k], "line"), (int)last};
    }
    qsort(keys, (size_t)n_keys, sizeof *keys, cmp_exec_key);
    exec_site *sites = tl_xreallocarray(NULL, (size_t)r->n_values + 1, sizeof *sites);
    int n = 0;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *x = &r->values[v];
        sx_int runs = an_value_runs(x);
        bool mine = x->runs_root == root->func;
        sites[n++] = (exec_site){{x->line, (int)x->op}, v, mine && runs.e == 0 ? runs.c : 0,
                                 mine && x->runs_at_most,
                                 x->runs_roots || (mine && (x->runs_unknown || runs.e != 0))};
    }
    qsort(sites, (size_t)n, sizeof *sites, cmp_exec_site);
    int64_t compared = 0, mismatched = 0;
    for (int j = 0; j < n;) {
        exec_site g = sites[j];
        int m = j + 1;
        for (; m < n && cmp_exec_key(&sites[m].k, &g.k) == 0; m++) {
            g.pred += sites[m].pred;
            g.upper = g.upper || sites[m].upper;
            g.unknown = g.unknown || sites[m].unknown;
        }
        j = m;
        g.pred += g.k.line == w->opt->perturb_line && g.pred > 0; /* the test hook */
        int64_t meas = exec_measured(keys, n_keys, g.k);
        if (g.pred == 0 && meas == 0 && !g.upper && !g.unknown)
            continue; /* never ran, as predicted */
        const char *op = mt_ops[r->values[g.value].op].name;
        char *at = vf_line_text(w, g.k.line);
        if (g.unknown) {
            fprintf(w->out, "  executions  line %s tl_%s: not known (not compared), %lld "
                    "measured\n", at, op, (long long)meas);
            w->sum->exec_not_compared++;
        } else if (g.upper) {
            bool bad = meas > g.pred;
            fprintf(w->out, "  executions  line %s tl_%s: at most %lld predicted, %lld "
                    "measured%s\n", at, op, (long long)g.pred, (long long)meas,
                    bad ? "  MISMATCH" : "  (a bound: not compared)");
            w->sum->mismatches += bad;
            mismatched += bad;
            w->sum->fields += bad;
            w->sum->exec_not_compared += !bad;
        } else {
            w->sum->fields++;
            compared++;
            if (g.pred != meas) {
                fprintf(w->out, "  executions  line %s tl_%s: %lld predicted, %lld measured  "
                        "MISMATCH\n", at, op, (long long)g.pred, (long long)meas);
                w->sum->mismatches++;
                mismatched++;
            }
        }
        free(at);
    }
    if (compared)
        fprintf(w->out, "  executions of %lld call site%s compared%s\n", (long long)compared,
                compared == 1 ? "" : "s", mismatched ? "" : ": as predicted");
    free(sites);
    free(keys);
}

/* ---- values read off the run ----
 *
 * A size the report has as a symbol (read from argv, a header, the
 * environment) has one value in a run, and the run shows it: in the shape
 * of a call the report gives as that symbol alone (a call run exactly once,
 * the only call of its line and op), or in the count of a call the report
 * says runs exactly that symbol's times (a loop's count, the iterations of
 * a loop left at a condition not known statically).  Read so, the symbols
 * are bound and the program analysed again (tools/cmd_verify.c), so that
 * the run is compared with numbers; a symbol no call shows stays a
 * formula, not compared. */

/* The only value of v's line and op (the trace's records are matched by them). */
static bool only_of_site(const an_report *r, int v)
{
    for (int x = 0; x < r->n_values; x++)
        if (x != v && r->values[x].line == r->values[v].line &&
            r->values[x].op == r->values[v].op)
            return false;
    return true;
}

/* v's runs are the program's count of it, exactly, in root. */
static bool runs_exact(const an_report *r, const an_func_report *root, int v)
{
    const an_value *x = &r->values[v];
    return x->runs_root == root->func && !x->runs_unknown && !x->runs_at_most && !x->runs_roots;
}

/* The value whose count is symbol k alone, and the only one of its line
 * and op; -1 when none. */
static int counted_by(const an_report *r, const an_func_report *root, int k)
{
    for (int v = 0; v < r->n_values; v++)
        if (runs_exact(r, root, v) && sx_symbol_of(an_value_runs(&r->values[v])) == k)
            return only_of_site(r, v) ? v : -1;
    return -1;
}

/* A value run once whose dim d is symbol k alone, the only one of its line
 * and op: *v, *d; false when none. */
static bool shaped_by(const an_report *r, const an_func_report *root, int k, int *v, int *d)
{
    for (int x = 0; x < r->n_values; x++) {
        const an_value *y = &r->values[x];
        sx_int once = an_value_runs(y);
        if (y->sl <= 0 || y->error || !runs_exact(r, root, x) || once.e != 0 || once.c != 1 ||
            !only_of_site(r, x))
            continue;
        const an_slayout *l = &r->slayouts[y->sl - 1];
        for (int j = 0; j < l->ndim; j++)
            if (sx_symbol_of(l->shape[j]) == k) {
                *v = x;
                *d = j;
                return true;
            }
    }
    return false;
}

static bool record_of(const json_t *rec, const an_value *v)
{
    return jint(rec, "line") == v->line && strcmp(jstr(rec, "ev"), "call") == 0 &&
           strcmp(jstr(rec, "op"), mt_ops[v->op].name) == 0;
}

/* Symbol k's value in the run (*why: how it was read, to free); false when
 * no call shows it. */
static bool read_symbol(const an_report *r, const an_func_report *root, const trace *t, int k,
                        int64_t *value, char **why)
{
    int v = counted_by(r, root, k), d;
    if (v >= 0) {
        int64_t meas = 0;
        for (int64_t i = 0; i < t->n; i++)
            meas += record_of(t->rec[i], &r->values[v]);
        if (meas < 1)
            return false; /* (the run did not reach it: the report's path is not the run's) */
        *value = meas;
        *why = strcmp(sx_symbol_origin(k), "iterations") == 0
                   ? tl_xstrdup("its iterations")
                   : tl_xasprintf("the times tl_%s at line %d ran", mt_ops[r->values[v].op].name,
                                  r->values[v].line);
        return true;
    }
    if (!shaped_by(r, root, k, &v, &d))
        return false;
    for (int64_t i = 0; i < t->n; i++) {
        const json_t *shape = json_object_get(t->rec[i], "shape");
        if (!record_of(t->rec[i], &r->values[v]) || !json_is_array(shape) ||
            (size_t)d >= json_array_size(shape))
            continue;
        *value = json_integer_value(json_array_get(shape, (size_t)d));
        *why = tl_xasprintf("dim %d of tl_%s at line %d", d, mt_ops[r->values[v].op].name,
                            r->values[v].line);
        return *value >= 1;
    }
    return false;
}

int vf_run_values(const an_report *r, const char *trace_path, const char *function,
                  char ***names, int64_t **values, char ***whys)
{
    const an_func_report *root = an_report_func(r, function ? function : "main");
    trace t = {0};
    char *error = NULL;
    int n = 0;
    *names = *whys = NULL;
    *values = NULL;
    an_report_use(r);
    bool sizes = false; /* (a report of known sizes: no trace to read again) */
    for (int k = 0; k < sx_n_symbols() && !sizes; k++)
        sizes = sx_symbol_is_size(k) && strcmp(sx_symbol_origin(k), "loop") != 0;
    if (!sizes || !root || !root->is_root || !trace_read(trace_path, &t, r->unit, &error)) {
        free(error);
        return 0;
    }
    for (int k = 0; k < sx_n_symbols(); k++) {
        int64_t value;
        char *why;
        /* the names a --bind takes: sizes (a loop's counter is none) */
        if (!sx_symbol_is_size(k) ||
            strcmp(sx_symbol_origin(k), "loop") == 0 || !read_symbol(r, root, &t, k, &value, &why))
            continue;
        *names = tl_xreallocarray(*names, (size_t)n + 1, sizeof **names);
        *values = tl_xreallocarray(*values, (size_t)n + 1, sizeof **values);
        *whys = tl_xreallocarray(*whys, (size_t)n + 1, sizeof **whys);
        (*names)[n] = tl_xstrdup(sx_symbol_name(k));
        (*whys)[n] = why;
        (*values)[n++] = value;
    }
    trace_free(&t);
    return n;
}

bool vf_verify(const an_report *r, const char *trace_path, const vf_options *opt, FILE *out,
               vf_summary *sum, char **error)
{
    trace t = {0};
    const an_func_report *root = an_report_func(r, opt->function ? opt->function : "main");
    memset(sum, 0, sizeof *sum);
    if (!root || !root->is_root) {
        *error = tl_xasprintf("no root function '%s' with tensor code",
                              opt->function ? opt->function : "main");
        return false;
    }
    if (opt->no_trace) { /* no call, so no allocation: nothing live, no peak */
        t.exit = json_pack("{s:s, s:i, s:i, s:i}", "ev", "exit", "live_bytes", 0, "peak_bytes", 0,
                           "n_live", 0);
        if (!t.exit)
            tl_out_of_memory(0);
    } else if (!trace_read(trace_path, &t, r->unit, error))
        return false;
    walk w = {.r = r, .t = &t, .opt = opt, .out = out, .sum = sum, .last_event = -1,
              .sizes_known = sizes_known(r)};
    if (t.exit && strcmp(jstr(t.exit, "cuda_backend"), "emulation") == 0)
        fprintf(out, "CUDA emulated on the host: allocator bytes compared, kernel times not\n");
    w.an_to_tr = tl_xreallocarray(NULL, (size_t)r->n_storages + 1, sizeof(int64_t));
    w.site_done = tl_xcalloc((size_t)r->n_values + 1, sizeof(bool));
    w.repeat_said = tl_xcalloc((size_t)r->n_repeats + 1, sizeof(bool));
    w.diff_out = tl_xmemstream(&w.diffs, &w.diffs_len);
    for (int s = 0; s <= r->n_storages; s++)
        w.an_to_tr[s] = -1;
    sum->ended_at_error = t.n > 0 && strcmp(jstr(t.rec[t.n - 1], "ev"), "error") == 0;
    if (opt->no_trace)
        fprintf(out, "the program made no tensorlint call (it wrote no trace)\n");
    fprintf(out, r->unit->n_files ? "   line  op             file                     agreement\n"
                                  : "   line  op             agreement\n");
    int64_t k = walk_calls(&w, root, &t);
    if (!sum->diverged && k < t.n) {
        report_divergence(&w, NULL, t.rec[k]);
    }
    compare_executions(&w, root, &t);
    compare_totals(&w, root, &t);
    tl_xmemstream_close(w.diff_out);
    free(w.diffs);
    free(w.an_to_tr);
    free(w.tr_to_an);
    free(w.site_done);
    free(w.repeat_said);
    trace_free(&t);
    return true;
}
