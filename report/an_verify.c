/*
 * an_verify.c: the agreement between a static report and a run's trace
 * (see an_verify.h for the rules).  The trace is read with Jansson, one
 * record per line; a line that does not parse ends the trace (a truncated
 * trace is reported, never guessed past).  Output: one row per compared
 * call site with "ok" or the fields that differ, each difference on its own
 * line with the predicted and the measured value, then the totals.
 */
#define _GNU_SOURCE /* open_memstream */
#include "an_verify.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "an_report.h"

typedef struct trace {
    json_t **rec;   /* call and error records of the program, in order */
    int64_t n, cap;
    json_t *exit;   /* the exit record, or NULL */
    int64_t n_lines;
} trace;

static void trace_push(trace *t, json_t *j)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->rec = realloc(t->rec, sizeof *t->rec * (size_t)t->cap);
        if (!t->rec)
            abort();
    }
    t->rec[t->n++] = j;
}

static bool trace_read(const char *path, trace *t, char **error)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    if (!f) {
        *error = an_strfmt("cannot read the trace %s", path);
        return false;
    }
    while (getline(&line, &cap, f) > 0) {
        json_t *j = json_loads(line, 0, NULL);
        const char *ev = json_string_value(json_object_get(j, "ev"));
        t->n_lines++;
        if (!j || !ev) {
            json_decref(j);
            break; /* a torn line: the trace ends here */
        }
        if (strcmp(ev, "call") == 0 || strcmp(ev, "error") == 0)
            trace_push(t, j);
        else if (strcmp(ev, "exit") == 0) {
            json_decref(t->exit); /* two exit records (a broken trace): the last counts */
            t->exit = j;
        } else {
            json_decref(j);
        }
    }
    free(line);
    fclose(f);
    return true;
}

static void trace_free(trace *t)
{
    for (int64_t k = 0; k < t->n; k++)
        json_decref(t->rec[k]);
    free(t->rec);
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
    const vf_options *opt;
    FILE *out;
    vf_summary *sum;
    int64_t *an_to_tr, *tr_to_an; /* storage id maps, -1 unmapped */
    int64_t n_tr_ids;
    bool *site_done;               /* per value id: first execution compared */
    char *diffs;                   /* differences of the current row */
    size_t diffs_len;
    FILE *diff_out;
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
    FILE *f = open_memstream(&s, &len);
    fputc('(', f);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%lld", k ? ", " : "", (long long)v[k]);
    fputs(n == 1 ? ",)" : ")", f);
    fclose(f);
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
    compare_text(w, field, an_strfmt("%lld", (long long)pred), an_strfmt("%lld", (long long)meas));
}

/* The first execution of a call site: the result's layout and kind. */
static void compare_layout(walk *w, const an_value *v, const json_t *rec)
{
    static const char *kinds[] = {"new", "view", "inplace", "none"};
    if (!v->known || v->error) {
        w->sum->unknown++;
        return;
    }
    compare_text(w, "shape", ints_text(v->l.ndim, v->l.shape),
                 json_ints_text(json_object_get(rec, "shape")));
    compare_text(w, "strides", ints_text(v->l.ndim, v->l.strides),
                 json_ints_text(json_object_get(rec, "strides")));
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
    w->sum->fields++;
    if (tr >= w->n_tr_ids) {
        int64_t n = tr + 1024;
        w->tr_to_an = realloc(w->tr_to_an, sizeof(int64_t) * (size_t)n);
        for (int64_t k = w->n_tr_ids; k < n; k++)
            w->tr_to_an[k] = -1;
        w->n_tr_ids = n;
    }
    int64_t an = e->storage;
    if (w->an_to_tr[an] < 0 && w->tr_to_an[tr] < 0) {
        w->an_to_tr[an] = tr;
        w->tr_to_an[tr] = an;
    } else if (w->an_to_tr[an] != tr || w->tr_to_an[tr] != an) {
        char *p = an_strfmt("S%lld", (long long)an), *m = an_strfmt("storage %lld", (long long)tr);
        diff(w, "storage", p, m);
        free(p);
        free(m);
    }
    if (e->value >= 0 && w->r->values[e->value].kind == MT_KIND_NEW &&
        w->r->storages[an].nbytes >= 0 && strcmp(jstr(rec, "kind"), "new") == 0)
        compare_int(w, "storage bytes", w->r->storages[an].nbytes, jint(rec, "storage_nbytes"));
}

static bool sizes_known(const walk *w)
{
    for (int s = 0; s < w->r->n_storages; s++)
        if (w->r->storages[s].nbytes < 0)
            return false;
    return true;
}

static void compare_live(walk *w, const an_event *e, const json_t *rec)
{
    int64_t pred = e->live_bytes + (e->line == w->opt->perturb_line ? 1 : 0);
    if (sizes_known(w))
        compare_int(w, "live bytes", pred, jint(rec, "live_bytes"));
}

static void print_row(walk *w, const an_event *e, const char *what)
{
    fflush(w->diff_out);
    fprintf(w->out, "  %5d  %-14s %s\n", e->line, mt_ops[e->op].name,
            w->diffs_len ? "MISMATCH" : what);
    if (w->diffs_len)
        fputs(w->diffs, w->out);
    rewind(w->diff_out);
    w->diffs_len = 0;
    w->diffs[0] = '\0';
}

static void compare_call(walk *w, const an_event *e, const json_t *rec)
{
    bool first = e->value >= 0 && !w->site_done[e->value];
    w->sum->calls++;
    if (first) {
        w->site_done[e->value] = true;
        compare_layout(w, &w->r->values[e->value], rec);
    }
    compare_storage(w, e, rec);
    compare_live(w, e, rec);
    if (first || w->diffs_len || ftell(w->diff_out) > 0)
        print_row(w, e, "ok");
}

/* A predicted error meets a measured one at the same line, or not. */
static void compare_error(walk *w, const an_event *e, const json_t *rec)
{
    bool measured = strcmp(jstr(rec, "ev"), "error") == 0;
    char *p = e->error ? an_strfmt("an error at line %d", e->line) : an_strdup("no error");
    char *m = measured ? an_strfmt("%s at line %lld: %s", jstr(rec, "status"),
                                   (long long)jint(rec, "line"), jstr(rec, "message"))
                       : an_strdup("no error");
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
    char *ran = !rec ? an_strdup("made no more calls")
                : strcmp(jstr(rec, "ev"), "error") == 0
                    ? an_strfmt("failed at line %lld: %s", (long long)jint(rec, "line"),
                                jstr(rec, "message"))
                    : an_strfmt("called tl_%s at line %lld", jstr(rec, "op"),
                                (long long)jint(rec, "line"));
    w->sum->diverged = true;
    w->sum->mismatches++;
    if (e)
        fprintf(w->out, "  control flow diverged: predicted tl_%s at line %d, the run %s\n",
                mt_ops[e->op].name, e->line, ran);
    else
        fprintf(w->out, "  control flow diverged: predicted no more calls, the run %s\n", ran);
    free(ran);
}

/* Walks the root's CALL events beside the trace; returns the next trace index. */
static int64_t walk_calls(walk *w, const an_func_report *root, const trace *t)
{
    int64_t k = 0;
    for (int64_t i = root->first_event; i < root->end_event; i++) {
        const an_event *e = &w->r->events[i];
        if (e->kind != AN_EV_CALL)
            continue;
        const json_t *rec = k < t->n ? t->rec[k] : NULL;
        if (e->poison && rec) { /* after an error: whatever the run did is not compared */
            k++;
            continue;
        }
        if (!rec || !same_site(e, rec)) {
            report_divergence(w, e, rec);
            return k;
        }
        k++;
        if (e->error || strcmp(jstr(rec, "ev"), "error") == 0) {
            compare_error(w, e, rec);
            if (w->opt->run_failed && strcmp(jstr(rec, "ev"), "error") == 0 && k == t->n)
                return k; /* the default handler ended the run at its error, as predicted */
        } else {
            compare_call(w, e, rec);
        }
    }
    return k;
}

static void compare_totals(walk *w, const an_func_report *root, const trace *t)
{
    char a[32], b[32];
    if (!t->exit) {
        w->sum->trace_truncated = !w->opt->run_failed;
        fprintf(w->out, "  the trace has no exit record%s\n",
                w->opt->run_failed ? " (the program stopped at an error)" : ": it is truncated");
        w->sum->mismatches += w->sum->trace_truncated;
        return;
    }
    int64_t end = jint(t->exit, "live_bytes"), peak = jint(t->exit, "peak_bytes");
    w->sum->fields += 2;
    fprintf(w->out, "  end of %s: live %s predicted, %s measured%s\n", root->name,
            an_format_bytes(a, sizeof a, root->end_live_bytes), an_format_bytes(b, sizeof b, end),
            root->end_live_bytes == end ? "" : "  MISMATCH");
    fprintf(w->out, "  peak: %s predicted (line %d), %s measured%s\n",
            an_format_bytes(a, sizeof a, root->peak_live_bytes), root->peak_line,
            an_format_bytes(b, sizeof b, peak), root->peak_live_bytes == peak ? "" : "  MISMATCH");
    w->sum->mismatches += (root->end_live_bytes != end) + (root->peak_live_bytes != peak);
}

bool vf_verify(const an_report *r, const char *trace_path, const vf_options *opt, FILE *out,
               vf_summary *sum, char **error)
{
    trace t = {0};
    const an_func_report *root = an_report_func(r, opt->function ? opt->function : "main");
    memset(sum, 0, sizeof *sum);
    if (!root || !root->is_root) {
        *error = an_strfmt("no root function '%s' with tensor code",
                           opt->function ? opt->function : "main");
        return false;
    }
    if (!trace_read(trace_path, &t, error))
        return false;
    walk w = {.r = r, .opt = opt, .out = out, .sum = sum};
    w.an_to_tr = malloc(sizeof(int64_t) * (size_t)(r->n_storages + 1));
    w.site_done = calloc((size_t)r->n_values + 1, sizeof(bool));
    w.diff_out = open_memstream(&w.diffs, &w.diffs_len);
    for (int s = 0; s <= r->n_storages; s++)
        w.an_to_tr[s] = -1;
    sum->ended_at_error = t.n > 0 && strcmp(jstr(t.rec[t.n - 1], "ev"), "error") == 0;
    fprintf(out, "   line  op             agreement\n");
    int64_t k = walk_calls(&w, root, &t);
    if (!sum->diverged && k < t.n) {
        report_divergence(&w, NULL, t.rec[k]);
    }
    compare_totals(&w, root, &t);
    fclose(w.diff_out);
    free(w.diffs);
    free(w.an_to_tr);
    free(w.tr_to_an);
    free(w.site_done);
    trace_free(&t);
    return true;
}
