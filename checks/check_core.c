/*
 * check_core.c: the check table, the driver of the rules, and the helpers
 * every rule uses to say something: a diagnostic (at most one per check,
 * line and column), its notes and fix-its, byte counts and execution
 * counts for messages.
 *
 * A run collects the rules' diagnostics in its own list, then appends them
 * to report->diags and sorts the whole list by line, column and check (the
 * interpreter's order), so output is deterministic.  Every string is
 * allocated (vasprintf); an_report_free releases them with the report.
 */
#define _GNU_SOURCE /* vasprintf */
#include "check_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const ck_info ck_checks[CK_N_CHECKS] = {
#define CK_INTERP(id, name, sev, tags, summary) {name, sev, CK_KIND_INTERP, tags, summary},
#define CK_RULE(id, name, sev, tags, summary) {name, sev, CK_KIND_RULE, tags, summary},
#define CK_DRIVER(id, name, sev, tags, summary) {name, sev, CK_KIND_DRIVER, tags, summary},
#include "checks.def"
#undef CK_INTERP
#undef CK_RULE
#undef CK_DRIVER
};

typedef void (*ck_rule_fn)(ck_ctx *cx);

static const ck_rule_fn ck_rules[] = {
#define CK_INTERP(id, name, sev, tags, summary) NULL,
#define CK_RULE(id, name, sev, tags, summary) ck_rule_##id,
#define CK_DRIVER(id, name, sev, tags, summary) NULL,
#include "checks.def"
#undef CK_INTERP
#undef CK_RULE
#undef CK_DRIVER
};

_Static_assert(sizeof ck_rules / sizeof ck_rules[0] == CK_N_CHECKS,
               "one rule slot per check of checks.def");

int ck_find(const char *name)
{
    for (int k = 0; k < CK_N_CHECKS; k++)
        if (strcmp(ck_checks[k].name, name) == 0)
            return k;
    return -1;
}

void ck_doc_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "docs/checks/%s.md", name);
}

void ck_options_default(ck_options *o)
{
    o->upcast_min_bytes = INT64_C(1) << 20;
    o->late_release_min_bytes = INT64_C(1) << 20;
    o->late_release_min_percent = 10;
    o->tiny_cuda_max_bytes = 64;
    o->slice_pin_max_percent = 25;
    o->enabled = NULL;
    o->n_budgets = 0;
    o->budgets = NULL;
}

const ck_src *ck_source(const ck_ctx *cx)
{
    if (!cx->lazy->src_loaded) {
        cx->lazy->src_loaded = true;
        cx->lazy->src = ck_src_load_unit(cx->r->unit);
    }
    return cx->lazy->src;
}

const ck_ir_index *ck_ir(const ck_ctx *cx)
{
    if (!cx->lazy->ir)
        cx->lazy->ir = ck_ir_index_build(cx->r);
    return cx->lazy->ir;
}

bool ck_enabled(const ck_ctx *cx, ck_id id)
{
    return !cx->o->enabled || cx->o->enabled[id];
}

static bool ck_same_site(const an_diag *d, const char *check, int line, int col)
{
    return d->line == line && d->col == col && strcmp(d->check, check) == 0;
}

an_diag *ck_diag_add(ck_ctx *cx, ck_id id, int line, int col, const char *fmt, ...)
{
    const char *check = ck_checks[id].name;
    if (!ck_enabled(cx, id))
        return NULL;
    for (int k = 0; k < cx->n_diags; k++)
        if (ck_same_site(&cx->diags[k], check, line, col))
            return NULL;
    tl_xgrow(cx->diags, &cx->cap_diags, (size_t)cx->n_diags + 1, 16);
    an_diag *d = &cx->diags[cx->n_diags++];
    *d = (an_diag){.file = ir_unit_path_at(cx->r->unit, line), .line = line, .col = col,
                   .severity = ck_checks[id].severity, .check = check};
    va_list ap;
    va_start(ap, fmt);
    d->message = tl_xvasprintf(fmt, ap);
    va_end(ap);
    return d;
}

void ck_note(an_diag *d, int line, int col, const char *fmt, ...)
{
    if (!d)
        return;
    d->notes = tl_xrealloc(d->notes, sizeof *d->notes * (size_t)(d->n_notes + 1));
    an_note *n = &d->notes[d->n_notes++];
    *n = (an_note){.line = line, .col = col}; /* file NULL: the diagnostic's */
    va_list ap;
    va_start(ap, fmt);
    n->message = tl_xvasprintf(fmt, ap);
    va_end(ap);
}

void ck_fixit(an_diag *d, ck_pos begin, ck_pos end, const char *text)
{
    if (!d || !text)
        return;
    d->fixits = tl_xrealloc(d->fixits, sizeof *d->fixits * (size_t)(d->n_fixits + 1));
    d->fixits[d->n_fixits++] = (an_fixit){.line = begin.line, .col = begin.col,
                                          .end_line = end.line, .end_col = end.col,
                                          .text = tl_xasprintf("%s", text)};
}

ck_bytes_text ck_bytes(int64_t n)
{
    ck_bytes_text t;
    rp_format_bytes(t.s, sizeof t.s, n);
    return t;
}

ck_bytes_text ck_storage_bytes(const an_storage *st)
{
    ck_bytes_text t;
    if (!st->symbolic)
        return ck_bytes(st->nbytes);
    char f[sizeof t.s - 8];
    sx_str(st->nbytes_sx, f, sizeof f);
    snprintf(t.s, sizeof t.s, "%s B", f);
    return t;
}

char *ck_times(const ck_ctx *cx, int value, int64_t bytes_per_run)
{
    return ck_times_sx(cx, value, (sx_int){bytes_per_run > 0 ? bytes_per_run : 0, 0});
}

/* The times the program runs the call site (an_value_runs: a formula in a
 * loop summarised over run-time sizes, "at most" in an arm or a loop the
 * run may leave, not known in a loop of unknown trip count) and, when the
 * bytes per run are known (> 0), those bytes in all. */
char *ck_times_sx(const ck_ctx *cx, int value, sx_int bytes_per_run)
{
    if (value < 0)
        return tl_xasprintf("%s", "");
    const an_value *v = &cx->r->values[value];
    sx_int n = an_value_runs(v);
    if (v->runs_unknown || n.e == SX_TOO_BIG)
        return tl_xasprintf(" (per execution; it runs a number of times the analysis does not "
                            "know)");
    if (n.e == 0 && n.c <= 1)
        return tl_xasprintf("%s", "");
    char runs[192];
    an_value_runs_text(v, runs, sizeof runs);
    bool known_bytes = bytes_per_run.e != 0 || bytes_per_run.c > 0;
    sx_int all = sx_mul(bytes_per_run, n);
    if (!known_bytes || !ck_sx_usable(all))
        return tl_xasprintf(" (per execution; runs %s)", runs);
    return tl_xasprintf(" (per execution; runs %s, %s%s in all)", runs,
                        v->runs_at_most ? "at most " : "", ck_sx_bytes(all).s);
}

char *ck_tuple(int n, const int64_t *v)
{
    char *s = tl_xasprintf("(");
    for (int k = 0; k < n; k++) {
        char *t = tl_xasprintf("%s%s%lld", s, k ? ", " : "", (long long)v[k]);
        free(s);
        s = t;
    }
    char *t = tl_xasprintf("%s%s)", s, n == 1 ? "," : "");
    free(s);
    return t;
}

char *ck_line_text(const ck_ctx *cx, int line)
{
    return ir_unit_line_text(cx->r->unit, line);
}

char *ck_line_word(const ck_ctx *cx, int line)
{
    char *at = ck_line_text(cx, line), *word = tl_xasprintf("line %s", at);
    free(at);
    return word;
}

char *ck_value_label(const ck_ctx *cx, int value)
{
    const an_value *v = &cx->r->values[value];
    char *at = ck_line_text(cx, v->line), *label;
    if (v->name)
        label = tl_xasprintf("'%s' (line %s)", v->name, at);
    else
        label = tl_xasprintf("the temporary tl_%s at line %s", mt_ops[v->op].name, at);
    free(at);
    return label;
}

/* When the first copy is a temporary written as the second call's first
 * argument, `second(first(x), ...)` becomes `second(x, ...)`. */
void ck_fix_unnest(const ck_ctx *cx, an_diag *d, int outer, int inner)
{
    const an_value *o = &cx->r->values[outer], *i = &cx->r->values[inner];
    ck_call_text ot, it;
    char on[64], in[64];
    snprintf(on, sizeof on, "tl_%s", mt_ops[o->op].name);
    snprintf(in, sizeof in, "tl_%s", mt_ops[i->op].name);
    if (!d || i->name || !ck_src_call(ck_source(cx), (ck_pos){o->line, o->col}, on, &ot) ||
        ot.n_args < 1 || !ck_src_call(ck_source(cx), (ck_pos){i->line, i->col}, in, &it) ||
        it.n_args < 1 || memcmp(&ot.args[0], &it.whole, sizeof it.whole) != 0)
        return;
    char *text = ck_src_text(ck_source(cx), it.args[0]);
    ck_fixit(d, ot.args[0].begin, ot.args[0].end, text);
    free(text);
}

/* ---- merging into the report ---- */

static int ck_cmp_diag(const void *a, const void *b)
{
    const an_diag *x = a, *y = b;
    if (x->line != y->line)
        return x->line - y->line;
    if (x->col != y->col)
        return x->col - y->col;
    return strcmp(x->check, y->check);
}

void ck_diags_merge(an_report *r, an_diag *diags, int n)
{
    if (n == 0)
        return;
    r->diags = tl_xrealloc(r->diags, sizeof *r->diags * (size_t)(r->n_diags + n));
    memcpy(r->diags + r->n_diags, diags, sizeof *diags * (size_t)n);
    r->n_diags += n;
    qsort(r->diags, (size_t)r->n_diags, sizeof *r->diags, ck_cmp_diag);
}

/* Run the rules with the source text src (owned here; NULL: read it from disk when needed). */
static void ck_run_src(an_report *r, const ck_options *o, bool src_loaded, ck_src *src)
{
    ck_options defaults;
    if (!o) {
        ck_options_default(&defaults);
        o = &defaults;
    }
    ck_lazy lazy = {src_loaded, src, NULL};
    ck_ctx cx = {.r = r, .o = o, .log_complete = r->n_events_dropped == 0, .lazy = &lazy};
    ck_facts_build(&cx);
    if (!cx.log_complete && r->n_events > 0)
        ck_diag_add(&cx, CK_analysis_limit, r->events[r->n_events - 1].line,
                    r->events[r->n_events - 1].col, "the event log stops here after %lld events "
                    "(%lld more dropped): the checks that follow uses and lifetimes are skipped",
                    (long long)r->n_events, (long long)r->n_events_dropped);
    for (int k = 0; k < CK_N_CHECKS; k++)
        if (ck_rules[k] && ck_enabled(&cx, (ck_id)k))
            ck_rules[k](&cx);
    ck_diags_merge(r, cx.diags, cx.n_diags);
    free(cx.diags);
    ck_facts_free(&cx);
    ck_src_free(lazy.src);
    ck_ir_index_free(lazy.ir);
}

void ck_run(an_report *r, const ck_options *o)
{
    ck_run_src(r, o, false, NULL);
}

void ck_run_text(an_report *r, const ck_options *o, const char *text, size_t len)
{
    ck_run_src(r, o, true, ck_src_from_text(text, len));
}
