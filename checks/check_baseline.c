/*
 * check_baseline.c: `check --baseline=BASE.json`, the change against the
 * base revision's report.
 *
 * The head's report is turned into the same JSON as the base's
 * (rp_report_json) and the two are compared by rp_compare.c: functions by
 * name, then renames by their calls; diagnostics by check, function and
 * the call's text.  From the pairs this file makes what code review reads:
 *
 *  - peak-regression: a function whose peak grew by at least
 *    --regression-min-bytes, at its new peak line, with the old and new
 *    peak, the growth and notes at the calls that account for it: a storage
 *    live at the new peak that the base did not have (a new storage, a copy
 *    that appeared), one the base had but not live at its peak (a release
 *    that moved), one that grew;
 *  - the state of every reported diagnostic (new or unchanged) and the
 *    base's diagnostics gone from the file (absent), for the text summary
 *    and SARIF's baselineState;
 *  - one line per function renamed, added or removed.
 *
 * A storage is recognised across revisions by the call that made it: its
 * function (the base's name when renamed), op, variable, and how many
 * calls with the same op and variable come before it there.  Never by
 * line or id, which any edit above it changes.
 */
#define _GNU_SOURCE /* qsort_r */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

#include "rp_compare.h"

enum { CK_REGRESSION_NOTES = 4 }; /* calls named for one regression */

struct ck_baseline {
    int n;
    json_t **reports;
};

ck_baseline *ck_baseline_new(void)
{
    ck_baseline *b = tl_xcalloc(1, sizeof *b);
    return b;
}

bool ck_baseline_add(ck_baseline *b, const char *path, char **error)
{
    json_t *report = rp_baseline_load(path, error);
    if (!report)
        return false;
    b->reports = tl_xrealloc(b->reports, sizeof *b->reports * (size_t)(b->n + 1));
    b->reports[b->n++] = report;
    return true;
}

static const json_t *ck_baseline_for(const ck_baseline *b, const char *file)
{
    for (int k = 0; b && k < b->n; k++)
        if (rp_report_names_file(b->reports[k], file))
            return b->reports[k];
    return NULL;
}

const json_t *ck_baseline_report(const ck_baseline *b, const char *file)
{
    return ck_baseline_for(b, file);
}

bool ck_baseline_names(const ck_baseline *b, const char *file)
{
    return ck_baseline_for(b, file) != NULL;
}

char *ck_baseline_files(const ck_baseline *b)
{
    char *all = tl_xasprintf("%s", "");
    for (int k = 0; k < b->n; k++) {
        char *files = rp_report_files(b->reports[k]);
        char *t = tl_xasprintf("%s%s%s", all, k ? "; " : "", files);
        free(all);
        free(files);
        all = t;
    }
    return all;
}

void ck_baseline_free(ck_baseline *b)
{
    for (int k = 0; b && k < b->n; k++)
        json_decref(b->reports[k]);
    if (b)
        free(b->reports);
    free(b);
}

/* ---- storages across revisions ---- */

typedef struct ck_side {          /* one revision's report and function */
    const json_t *report;
    const char *func;             /* the function's name in this report */
} ck_side;

static const json_t *ck_function(const json_t *report, const char *name)
{
    size_t k;
    const json_t *f;
    json_array_foreach(json_object_get(report, "functions"), k, f)
        if (strcmp(rp_json_str(f, "name"), name) == 0)
            return f;
    return NULL;
}

static const json_t *ck_storage(const json_t *report, long long id)
{
    size_t k, s;
    const json_t *f, *st;
    json_array_foreach(json_object_get(report, "functions"), k, f)
        json_array_foreach(json_object_get(f, "storages"), s, st)
            if (rp_json_int(st, "id", -1) == id)
                return st;
    return NULL;
}

typedef struct ck_maker {         /* the call that made a storage */
    const json_t *func, *value;
    int occurrence;               /* calls with its op and variable before it in func */
} ck_maker;

static bool ck_same_call(const json_t *a, const json_t *b)
{
    return strcmp(rp_json_str(a, "op"), rp_json_str(b, "op")) == 0 &&
           strcmp(rp_json_str(a, "name"), rp_json_str(b, "name")) == 0;
}

static bool ck_maker_of(const json_t *report, long long storage, ck_maker *m)
{
    size_t k, v;
    const json_t *f, *val;
    json_array_foreach(json_object_get(report, "functions"), k, f) {
        const json_t *values = json_object_get(f, "values");
        json_array_foreach(values, v, val) {
            if (rp_json_int(val, "storage", -1) != storage ||
                strcmp(rp_json_str(val, "kind"), "new") != 0)
                continue;
            *m = (ck_maker){f, val, 0};
            for (size_t p = 0; p < v; p++)
                m->occurrence += ck_same_call(json_array_get(values, p), val);
            return true;
        }
    }
    return false;
}

/* The storage the base made by the call that made the head's m, or NULL. */
static const json_t *ck_base_storage(const rp_comparison *c, const json_t *base,
                                     const ck_maker *m)
{
    const json_t *f = ck_function(base, rp_compare_base_name(c, rp_json_str(m->func, "name")));
    size_t v;
    const json_t *val;
    int seen = 0;
    json_array_foreach(json_object_get(f, "values"), v, val)
        if (ck_same_call(val, m->value) && seen++ == m->occurrence)
            return strcmp(rp_json_str(val, "kind"), "new") == 0
                       ? ck_storage(base, rp_json_int(val, "storage", -1)) : NULL;
    return NULL;
}

static bool ck_in_ids(const json_t *ids, long long id)
{
    size_t k;
    const json_t *e;
    json_array_foreach(ids, k, e)
        if (json_integer_value(e) == id)
            return true;
    return false;
}

/* ---- peak-regression ---- */

typedef struct ck_cause {
    long long bytes;
    int line, col;
    char *text;
} ck_cause;

static const char *ck_label(const json_t *value, char *buf, size_t size)
{
    const char *name = rp_json_str(value, "name");
    snprintf(buf, size, "tl_%s%s%s%s", rp_json_str(value, "op"), name[0] ? " '" : "", name,
             name[0] ? "'" : "");
    return buf;
}

static bool ck_is_copy(const json_t *value)
{
    static const char *const copies[] = {"clone", "contiguous", "to", "to_format", "reshape",
                                         "flatten", "index", "gather", "cat"};
    const char *op = rp_json_str(value, "op");
    for (size_t k = 0; k < sizeof copies / sizeof copies[0]; k++)
        if (strcmp(op, copies[k]) == 0)
            return true;
    return false;
}

/* Why the head storage st (live at the new peak) raises it, or NULL. */
static char *ck_cause_text(const rp_comparison *c, const json_t *base, const json_t *base_f,
                           const json_t *st, const ck_maker *m)
{
    char label[160];
    const char *nb = ck_bytes(rp_json_int(st, "nbytes", 0)).s;
    const json_t *bs = ck_base_storage(c, base, m);
    ck_label(m->value, label, sizeof label);
    if (!bs)
        return ck_is_copy(m->value)
                   ? tl_xasprintf("a copy that appeared: %s copies %s here (%s)", label, nb,
                                  rp_json_str(m->value, "reason"))
                   : tl_xasprintf("a new storage: %s allocates %s here", label, nb);
    long long was = rp_json_int(bs, "nbytes", 0), now = rp_json_int(st, "nbytes", 0);
    bool was_live = ck_in_ids(json_object_get(base_f, "peak_storages"), rp_json_int(bs, "id", -1));
    if (!was_live) {
        long long old_free = rp_json_int(bs, "free_line", 0), new_free = rp_json_int(st, "free_line", 0);
        if (old_free > 0)
            return new_free > 0
                       ? tl_xasprintf("a release that moved: the storage of %s (%s) was released at "
                                      "line %lld in the base, now at line %lld, after the peak",
                                      label, nb, old_free, new_free)
                       : tl_xasprintf("a release that moved: the storage of %s (%s) was released at "
                                      "line %lld in the base, now never", label, nb, old_free);
        return tl_xasprintf("the storage of %s (%s) is now live at the peak; in the base it was not",
                            label, nb);
    }
    if (now > was)
        return tl_xasprintf("%s grew from %s to %s", label, ck_bytes(was).s, nb);
    return NULL;
}

static int ck_cmp_cause(const void *a, const void *b)
{
    const ck_cause *x = a, *y = b;
    return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : x->line - y->line;
}

/* The notes of a regression: the causes, largest first. */
static int ck_causes(const rp_comparison *c, const json_t *base, const json_t *head,
                     const rp_fn_pair *p, ck_cause *out, int max)
{
    size_t k;
    const json_t *id;
    int n = 0;
    const json_t *ids = json_object_get(p->head, "peak_storages");
    ck_cause *all = tl_xcalloc(json_array_size(ids) + 1, sizeof *all);
    json_array_foreach(ids, k, id) {
        const json_t *st = ck_storage(head, json_integer_value(id));
        ck_maker m;
        char *why = st && ck_maker_of(head, json_integer_value(id), &m)
                        ? ck_cause_text(c, base, p->base, st, &m) : NULL;
        if (why)
            all[n++] = (ck_cause){rp_json_int(st, "nbytes", 0), (int)rp_json_int(m.value, "line", 0),
                                  (int)rp_json_int(m.value, "column", 1), why};
    }
    qsort(all, (size_t)n, sizeof *all, ck_cmp_cause);
    for (int j = max; j < n; j++)
        free(all[j].text);
    n = n < max ? n : max;
    memcpy(out, all, sizeof *all * (size_t)n);
    free(all);
    return n;
}

/* The column of the head function's call at line, else 1. */
static int ck_col_at(const json_t *f, long long line)
{
    size_t k;
    const json_t *v;
    json_array_foreach(json_object_get(f, "values"), k, v)
        if (rp_json_int(v, "line", 0) == line)
            return (int)rp_json_int(v, "column", 1);
    return 1;
}

static void ck_regression(ck_ctx *cx, const rp_comparison *c, const json_t *base,
                          const json_t *head, const rp_fn_pair *p)
{
    long long was = rp_json_int(p->base, "peak_live_bytes", 0);
    long long now = rp_json_int(p->head, "peak_live_bytes", 0);
    long long line = rp_json_int(p->head, "peak_line", 0), old_line = rp_json_int(p->base, "peak_line", 0);
    const char *name = rp_json_str(p->head, "name");
    char *renamed = p->change == RP_FN_RENAMED
                        ? tl_xasprintf(" (was '%s')", rp_json_str(p->base, "name")) : tl_xasprintf("%s", "");
    char *pct = was > 0 ? tl_xasprintf(", +%.0f%%", 100.0 * (double)(now - was) / (double)was)
                        : tl_xasprintf("%s", "");
    an_claim cw = rp_json_claim(p->base, "peak_live_bytes"), cn = rp_json_claim(p->head, "peak_live_bytes");
    char *claims = cw == AN_CLAIM_EXACT && cn == AN_CLAIM_EXACT
                       ? tl_xasprintf("%s", "")
                       : tl_xasprintf("; the peaks are not exact: the base's is %s, this one %s",
                                      cw == AN_CLAIM_EXACT ? "exact" : an_claim_words(cw),
                                      cn == AN_CLAIM_EXACT ? "exact" : an_claim_words(cn));
    an_diag *d = ck_diag_add(cx, CK_peak_regression, (int)line, ck_col_at(p->head, line),
                             "peak of '%s'%s grew from %s to %s (+%s%s) against the baseline; it "
                             "is reached at line %lld (line %lld in the base)%s", name, renamed,
                             ck_bytes(was).s, ck_bytes(now).s, ck_bytes(now - was).s, pct, line,
                             old_line, claims);
    free(claims);
    ck_cause causes[CK_REGRESSION_NOTES];
    int n = ck_causes(c, base, head, p, causes, CK_REGRESSION_NOTES);
    for (int k = 0; k < n; k++) {
        ck_note(d, causes[k].line, causes[k].col, "%s", causes[k].text);
        free(causes[k].text);
    }
    if (n == 0)
        ck_note(d, (int)line, ck_col_at(p->head, line), "no single storage accounts for the "
                "growth: the same storages are live at the peak, in other sizes or order");
    free(renamed);
    free(pct);
}

/* ---- the comparison ---- */

typedef struct ck_base_priv {
    rp_comparison *cmp;
    json_t *head;
    const json_t *base;
    const char *path;
} ck_base_priv;

static void ck_change(ck_base_result *res, char *line)
{
    res->changes = tl_xrealloc(res->changes, sizeof *res->changes * (size_t)(res->n_changes + 1));
    res->changes[res->n_changes++] = line;
}

static void ck_function_changes(ck_base_result *res, const rp_comparison *c)
{
    for (int k = 0; k < c->n_pairs; k++) {
        const rp_fn_pair *p = &c->pairs[k];
        if (p->change == RP_FN_RENAMED)
            ck_change(res, tl_xasprintf("function '%s' was renamed to '%s' (the same calls): "
                                        "compared with '%s'", rp_json_str(p->base, "name"),
                                        rp_json_str(p->head, "name"), rp_json_str(p->base, "name")));
        else if (p->change == RP_FN_ADDED)
            ck_change(res, tl_xasprintf("function '%s' is new (peak %s)", rp_json_str(p->head, "name"),
                                        ck_bytes(rp_json_int(p->head, "peak_live_bytes", 0)).s));
        else if (p->change == RP_FN_REMOVED)
            ck_change(res, tl_xasprintf("function '%s' was removed (its peak was %s)",
                                        rp_json_str(p->base, "name"),
                                        ck_bytes(rp_json_int(p->base, "peak_live_bytes", 0)).s));
    }
}

ck_base_result *ck_baseline_compare(const ck_baseline *b, an_report *r, const char *path,
                                    int64_t min_bytes, const bool *enabled)
{
    const json_t *base = ck_baseline_for(b, path);
    ck_base_result *res = tl_xcalloc(1, sizeof *res);
    ck_base_priv *priv = base ? tl_xcalloc(1, sizeof *priv) : NULL;
    res->unnamed = !base;
    if (!base)
        return res;
    priv->head = rp_report_json(r);
    priv->base = base;
    priv->path = path;
    priv->cmp = rp_compare(base, priv->head, path);
    res->priv = priv;
    ck_function_changes(res, priv->cmp);
    ck_options o;
    ck_options_default(&o);
    o.enabled = enabled;
    ck_lazy lazy = {false, NULL, NULL};
    ck_ctx cx = {.r = r, .o = &o, .lazy = &lazy};
    for (int k = 0; k < priv->cmp->n_pairs; k++) {
        const rp_fn_pair *p = &priv->cmp->pairs[k];
        if (p->base && p->head && rp_json_int(p->head, "peak_live_bytes", 0) -
                                          rp_json_int(p->base, "peak_live_bytes", 0) >= min_bytes)
            ck_regression(&cx, priv->cmp, base, priv->head, p);
    }
    ck_diags_merge(r, cx.diags, cx.n_diags);
    free(cx.diags);
    return res;
}

/* The order of report->diags and of a job's diagnostics: line, column, check. */
static int ck_diag_order(const json_t *e, const an_diag *d)
{
    long long line = rp_json_int(e, "line", 0), col = rp_json_int(e, "column", 0);
    if (line != d->line)
        return line < d->line ? -1 : 1;
    if (col != d->col)
        return col < d->col ? -1 : 1;
    return strcmp(rp_json_str(e, "check"), d->check);
}

/* The head diagnostic (index in the head JSON) that d is, or -1; both lists
 * are in the same order, so *from only moves forward. */
static int ck_head_index(const json_t *head, const an_diag *d, size_t *from)
{
    const json_t *all = json_object_get(head, "diagnostics");
    while (*from < json_array_size(all) && ck_diag_order(json_array_get(all, *from), d) < 0)
        ++*from;
    return *from < json_array_size(all) && ck_diag_order(json_array_get(all, *from), d) == 0
               ? (int)*from : -1;
}

static bool ck_check_on(const bool *enabled, const char *check)
{
    int id = ck_find(check);
    return !enabled || id < 0 || enabled[id] || ck_checks[id].severity == AN_ERROR;
}

static void ck_absent(ck_base_result *res, const json_t *bd, const char *path)
{
    const json_t *notes = json_object_get(bd, "notes");
    an_diag *a = &res->absent[res->n_absent++];
    const char *sev = rp_json_str(bd, "severity");
    *a = (an_diag){.file = path, .line = (int)rp_json_int(bd, "line", 1),
                   .col = (int)rp_json_int(bd, "column", 1),
                   .severity = strcmp(sev, "error") == 0 ? AN_ERROR
                               : strcmp(sev, "note") == 0 ? AN_NOTE : AN_WARNING,
                   .check = ck_checks[0].name, .message = tl_xasprintf("%s", rp_json_str(bd, "message"))};
    int id = ck_find(rp_json_str(bd, "check"));
    a->check = id >= 0 ? ck_checks[id].name : "unknown";
    a->notes = tl_xcalloc(json_array_size(notes) + 1, sizeof *a->notes);
    size_t k;
    const json_t *n;
    json_array_foreach(notes, k, n)
        a->notes[a->n_notes++] = (an_note){(int)rp_json_int(n, "line", 1),
                                           (int)rp_json_int(n, "column", 1),
                                           tl_xasprintf("%s", rp_json_str(n, "message"))};
}

void ck_baseline_states(ck_base_result *res, const an_diag *diags, int n_diags,
                        const bool *enabled)
{
    ck_base_priv *priv = res->priv;
    res->states = tl_xcalloc((size_t)n_diags + 1, sizeof *res->states); /* CK_BASE_NEW */
    res->n_states = n_diags;
    if (!priv)
        return; /* no base report names the file */
    const rp_comparison *c = priv->cmp;
    bool *used = tl_xcalloc((size_t)c->n_base_diags + 1, sizeof *used);
    res->absent = tl_xcalloc((size_t)c->n_base_diags + 1, sizeof *res->absent);
    size_t from = 0;
    for (int k = 0; k < n_diags; k++) {
        int h = ck_head_index(priv->head, &diags[k], &from);
        int b = h >= 0 ? c->head_match[h] : -1;
        res->states[k] = b >= 0 ? CK_BASE_UNCHANGED : CK_BASE_NEW;
        if (b >= 0)
            used[b] = true;
    }
    const json_t *bd = json_object_get(priv->base, "diagnostics");
    for (int b = 0; b < c->n_base_diags; b++) {
        const json_t *d = json_array_get(bd, (size_t)b);
        if (c->base_in_file[b] && !used[b] && ck_check_on(enabled, rp_json_str(d, "check")) &&
            strcmp(rp_json_str(d, "severity"), "note") != 0)
            ck_absent(res, d, priv->path);
    }
    free(used);
    rp_comparison_free(priv->cmp);
    json_decref(priv->head);
    free(priv);
    res->priv = NULL;
}

void ck_base_result_free(ck_base_result *res)
{
    if (!res)
        return;
    if (res->priv) {
        ck_base_priv *priv = res->priv;
        rp_comparison_free(priv->cmp);
        json_decref(priv->head);
        free(priv);
    }
    for (int k = 0; k < res->n_absent; k++) {
        free(res->absent[k].message);
        for (int n = 0; n < res->absent[k].n_notes; n++)
            free(res->absent[k].notes[n].message);
        free(res->absent[k].notes);
    }
    free(res->absent);
    for (int k = 0; k < res->n_changes; k++)
        free(res->changes[k]);
    free(res->changes);
    free(res->states);
    free(res);
}
