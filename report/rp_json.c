/*
 * rp_json.c: the machine-readable report (docs/formats.md).  The spec's
 * fields come first, in the spec's order, with the spec's types; the
 * project's own fields follow them.  Unknown entries are null.
 *
 * Approach: every field is written once, through the JSON writer
 * (rp_json_emit.h), which either appends compact text to a buffer (the
 * report printed: rp_report_write_json) or builds a Jansson tree (the
 * report read back by check --baseline and the Markdown comment:
 * rp_report_json).  The printed report is streamed: the buffer goes out in
 * pieces of about RP_TB_FLUSH_AT bytes as values, storages and functions
 * close, so neither a tree nor the whole text is ever held.  The
 * text is byte-identical to dumping the tree with Jansson's JSON_COMPACT,
 * as the report was printed before it was written directly.
 *
 * Where Jansson left a field or an element out, so does the writer: a
 * diagnostic's "function" and "call", a note, a peak candidate or an
 * assumption whose text is not valid UTF-8 (json_string and json_pack
 * refuse it), while a name, a path or a message from the user's files is
 * repaired instead (rp_jw_str).
 */
#include "rp_report.h"
#include "rp_json_emit.h"
#include "rp_textbuf.h"
#include "xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Whether json_string (and json_pack's "s") would take s. */
static bool strict_ok(const char *s) { return s && rp_json_utf8_valid(s, strlen(s)); }

static void ints_or_null(rp_jw *w, const char *key, bool known, int n, const int64_t *v)
{
    if (!known) {
        rp_jw_null(w, key);
        return;
    }
    rp_jw_array(w, key);
    for (int k = 0; k < n; k++)
        rp_jw_int(w, NULL, v[k]);
    rp_jw_end(w);
}

static void int_or_null(rp_jw *w, const char *key, bool known, int64_t v)
{
    if (known)
        rp_jw_int(w, key, v);
    else
        rp_jw_null(w, key);
}

/* An integer that may depend on symbols: a JSON integer, or the expression
 * as a string ("4*config.dim"); null when it is not followed at all. */
static void sx_write(rp_jw *w, const char *key, sx_int v)
{
    if (v.e == 0) {
        rp_jw_int(w, key, v.c);
        return;
    }
    if (v.e == SX_TOO_BIG) {
        rp_jw_null(w, key);
        return;
    }
    sx_symbols_of(v, NULL); /* listed in "symbols" */
    char *text = sx_strdup(v);
    rp_jw_str(w, key, text);
    free(text);
}

static void sx_list(rp_jw *w, const char *key, int n, const sx_int *v)
{
    rp_jw_array(w, key);
    for (int k = 0; k < n; k++)
        sx_write(w, NULL, v[k]);
    rp_jw_end(w);
}

/* How many times the call site ran: a number, or a formula where a loop
 * summarised over run-time sizes ran it; when that is not exact (an upper
 * bound, or the count of one iteration of a loop whose trip count is not
 * known), "not_exact" names it, as a function's names its totals. */
static void executions_write(rp_jw *w, const an_value *v)
{
    sx_write(w, "executions", an_value_runs(v));
    if (v->runs_at_most || v->runs_unknown) {
        rp_jw_array(w, "not_exact");
        rp_jw_str(w, NULL, "executions");
        rp_jw_end(w);
    }
}

/* A value whose layout is over symbols (an_value.sl). */
static void value_sym_write(rp_jw *w, const an_report *r, int id)
{
    const an_value *v = &r->values[id];
    const an_slayout *l = &r->slayouts[v->sl - 1];
    rp_jw_object(w, NULL);
    rp_jw_str(w, "name", v->name);
    rp_jw_line(w, "file", "line", v->line);
    rp_jw_int(w, "column", v->col);
    rp_jw_str(w, "op", mt_ops[v->op].name);
    sx_list(w, "shape", l->ndim, l->shape);
    sx_list(w, "strides", l->ndim, l->strides);
    sx_write(w, "offset", l->offset);
    rp_jw_str(w, "dtype", mt_dtype_name(l->dtype));
    rp_jw_str(w, "device", mt_device_name(l->device));
    int_or_null(w, "storage", v->storage >= 0, v->storage);
    rp_jw_str(w, "kind", v->kind == MT_KIND_VIEW ? "view" : "new");
    rp_jw_bool(w, "contiguous", l->contiguous);
    sx_write(w, "bytes_moved", v->bytes_moved_sx);
    rp_jw_str(w, "reason", v->reason);
    int_or_null(w, "view_of", v->view_of >= 0, v->view_of);
    executions_write(w, v);
    rp_jw_int(w, "id", id);
    rp_jw_end(w);
}

static void value_write(rp_jw *w, const an_report *r, int id)
{
    const an_value *v = &r->values[id];
    bool k = v->known && v->executed && !v->error, ran = v->executed && !v->error;
    if (!v->known && v->sl > 0 && ran) {
        value_sym_write(w, r, id);
        return;
    }
    rp_jw_object(w, NULL);
    rp_jw_str(w, "name", v->name);
    rp_jw_line(w, "file", "line", v->line);
    rp_jw_int(w, "column", v->col);
    rp_jw_str(w, "op", mt_ops[v->op].name);
    ints_or_null(w, "shape", k, v->l.ndim, v->l.shape);
    ints_or_null(w, "strides", k, v->l.ndim, v->l.strides);
    int_or_null(w, "offset", k && !v->offset_unknown, v->l.offset);
    rp_jw_str(w, "dtype", k ? mt_dtype_name(v->l.dtype) : NULL);
    rp_jw_str(w, "device", k ? mt_device_name(v->l.device) : NULL);
    int_or_null(w, "storage", v->storage >= 0, v->storage);
    rp_jw_str(w, "kind", ran ? (v->kind == MT_KIND_VIEW ? "view" : "new") : NULL);
    if (k)
        rp_jw_bool(w, "contiguous", mt_is_contiguous(&v->l));
    else
        rp_jw_null(w, "contiguous");
    rp_jw_int(w, "bytes_moved", v->bytes_moved);
    rp_jw_str(w, "reason", v->reason); /* may quote source */
    int_or_null(w, "view_of", v->view_of >= 0, v->view_of);
    executions_write(w, v);
    rp_jw_int(w, "id", id);
    rp_jw_end(w);
}

static void storage_write(rp_jw *w, const an_storage *s)
{
    rp_jw_object(w, NULL);
    rp_jw_int(w, "id", s->id);
    if (s->symbolic) { /* CUDA blocks round up to 512 bytes, as for known sizes */
        sx_int block = s->device == TL_CUDA
                       ? sx_mul(sx_div(sx_add(s->nbytes_sx, (sx_int){511, 0}), (sx_int){512, 0}),
                                (sx_int){512, 0})
                       : s->nbytes_sx;
        sx_write(w, "nbytes", s->nbytes_sx);
        rp_jw_str(w, "device", mt_device_name(s->device));
        sx_write(w, "block_bytes", block);
    } else {
        int_or_null(w, "nbytes", s->nbytes >= 0, s->nbytes);
        rp_jw_str(w, "device", mt_device_name(s->device));
        int_or_null(w, "block_bytes", s->block_bytes >= 0, s->block_bytes);
    }
    rp_jw_line(w, "alloc_file", "alloc_line", s->alloc_line);
    if (s->free_line > 0)
        rp_jw_line(w, "free_file", "free_line", s->free_line);
    else
        int_or_null(w, "free_line", false, 0);
    rp_jw_int(w, "alloc_column", s->alloc_col);
    int_or_null(w, "free_column", s->free_line > 0, s->free_col);
    rp_jw_bool(w, "discarded_branch", s->discarded);
    int_or_null(w, "allocator_bytes", s->alloc_bytes >= 0, s->alloc_bytes);
    if (s->external) { /* the caller's memory (tl_from_blob): nbytes is 0, nothing allocated */
        rp_jw_bool(w, "external", true);
        if (s->external_nbytes >= 0)
            rp_jw_int(w, "external_nbytes", s->external_nbytes);
        else /* a formula over sizes read at run time */
            sx_write(w, "external_nbytes", s->external_sx);
    }
    rp_jw_end(w);
}

static void id_list(rp_jw *w, const char *key, int n, const int *ids)
{
    rp_jw_array(w, key);
    for (int k = 0; k < n; k++)
        rp_jw_int(w, NULL, ids[k]);
    rp_jw_end(w);
}

/* "peak_live": the storages of peak_storages in rp_peak_order, each with
 * its bytes, the line that made it and the names that keep it alive there. */
static void peak_live_write(rp_jw *w, const an_report *r, const an_func_report *f)
{
    int *order = rp_peak_order(r, f);
    rp_jw_array(w, "peak_live");
    for (int j = 0; j < f->n_peak_storages; j++) {
        const an_storage *s = &r->storages[f->peak_storages[order[j]]];
        const char *n = f->peak_names ? f->peak_names[order[j]] : NULL;
        rp_jw_object(w, NULL);
        rp_jw_int(w, "storage", s->id);
        if (s->symbolic)
            sx_write(w, "nbytes", s->nbytes_sx);
        else
            int_or_null(w, "nbytes", s->nbytes >= 0, s->nbytes);
        rp_jw_line(w, "alloc_file", "alloc_line", s->alloc_line);
        rp_jw_array(w, "names");
        while (n && *n) {
            const char *end = strchr(n, AN_NAME_SEP);
            size_t len = end ? (size_t)(end - n) : strlen(n);
            char *one = tl_xstrndup(n, len);
            if (strict_ok(one))
                rp_jw_str(w, NULL, one);
            free(one);
            n += len + (end ? 1 : 0);
        }
        rp_jw_end(w);
        rp_jw_end(w);
    }
    rp_jw_end(w);
    free(order);
}

/* The peak's line; with symbols, when candidates remain, each with the
 * condition under which it is the largest. */
/* A line or null (0: none), with its file in a program. */
static void line_or_null(rp_jw *w, const char *file_key, const char *key, int line)
{
    if (line > 0) {
        rp_jw_line(w, file_key, key, line);
        return;
    }
    if (w->unit && w->unit->n_files > 0)
        rp_jw_null(w, file_key);
    rp_jw_null(w, key);
}

static void peak_line_write(rp_jw *w, const an_func_report *f)
{
    if (f->n_peak_cands <= 1) {
        line_or_null(w, "peak_file", "peak_line", f->peak_line);
        return;
    }
    rp_jw_array(w, "peak_line");
    static _Thread_local char when[1 << 16];
    for (int k = 0; k < f->n_peak_cands; k++) {
        rp_peak_when(f, k, when, sizeof when);
        if (!strict_ok(when))
            continue;
        rp_jw_object(w, NULL);
        rp_jw_line(w, "file", "line", f->peak_cand_line[k]);
        rp_jw_str(w, "when", when);
        rp_jw_end(w);
    }
    rp_jw_end(w);
}

/* The byte totals that are not exact ("not_exact"), and on which side of
 * the run each lies ("bounds": "upper", "lower" or "none"; schema 3). */
static void not_exact_write(rp_jw *w, const an_func_report *f)
{
    rp_jw_array(w, "not_exact");
    for (int t = 0; t < AN_N_TOTALS; t++)
        if (!an_func_exact(f, (an_total)t))
            rp_jw_str(w, NULL, an_total_name((an_total)t));
    rp_jw_end(w);
    rp_jw_object(w, "bounds");
    for (int t = 0; t < AN_N_TOTALS; t++)
        if (!an_func_exact(f, (an_total)t))
            rp_jw_str(w, an_total_name((an_total)t), an_claim_name(f->claim[t]));
    rp_jw_end(w);
}

/* The function's calls through pointers and the functions they reached
 * (only when it has some). */
static void indirect_write(rp_jw *w, const an_report *r, const an_func_report *f)
{
    bool any = false;
    for (int k = 0; k < r->n_indirect; k++) {
        const an_indirect *x = &r->indirect[k];
        bool first = x->func == f->func && strict_ok(x->through);
        for (int j = 0; j < k && first; j++)
            first = r->indirect[j].line != x->line || r->indirect[j].col != x->col;
        if (!first)
            continue;
        if (!any)
            rp_jw_array(w, "indirect_calls");
        any = true;
        rp_jw_object(w, NULL);
        rp_jw_line(w, "file", "line", x->line);
        rp_jw_int(w, "column", x->col);
        rp_jw_str(w, "through", x->through);
        rp_jw_array(w, "callees");
        for (int j = k; j < r->n_indirect; j++) {
            const an_indirect *y = &r->indirect[j];
            if (y->line != x->line || y->col != x->col)
                continue;
            if (y->name && strict_ok(y->name))
                rp_jw_str(w, NULL, y->name);
            else
                rp_jw_null(w, NULL);
        }
        rp_jw_end(w);
        rp_jw_end(w);
    }
    if (any)
        rp_jw_end(w);
}

static void func_write(rp_jw *w, const an_report *r, const an_func_report *f)
{
    rp_jw_object(w, NULL);
    rp_jw_str(w, "name", f->name);
    rp_jw_str(w, "file", ir_unit_path_at(r->unit, r->unit->funcs[f->func]->loc.line));
    rp_jw_array(w, "values");
    for (int k = 0; k < f->n_values; k++)
        value_write(w, r, f->values[k]);
    rp_jw_end(w);
    rp_jw_array(w, "storages");
    for (int k = 0; k < f->n_storages; k++)
        storage_write(w, &r->storages[f->storages[k]]);
    rp_jw_end(w);
    if (f->symbolic) {
        sx_write(w, "peak_live_bytes", f->peak_sx);
        peak_line_write(w, f);
        sx_write(w, "end_live_bytes", f->end_sx);
        sx_write(w, "moved_bytes", f->moved_sx);
    } else {
        rp_jw_int(w, "peak_live_bytes", f->peak_live_bytes);
        line_or_null(w, "peak_file", "peak_line", f->peak_line);
        rp_jw_int(w, "end_live_bytes", f->end_live_bytes);
        rp_jw_int(w, "moved_bytes", f->moved_bytes);
    }
    id_list(w, "peak_storages", f->n_peak_storages, f->peak_storages);
    peak_live_write(w, r, f);
    if (f->symbolic && f->n_peak_cands > 1 && f->peak_line > 0) /* whose live set it is */
        rp_jw_line(w, "peak_live_file", "peak_live_line", f->peak_line);
    rp_jw_bool(w, "root", f->is_root);
    rp_jw_bool(w, "executed", f->executed);
    if (f->symbolic)
        sx_write(w, "calls", f->calls_sx);
    else
        rp_jw_int(w, "calls", f->n_calls);
    rp_jw_bool(w, "bytes_are_lower_bounds", !an_func_all_exact(f));
    not_exact_write(w, f);
    rp_jw_int(w, "cuda_allocated_peak_bytes", f->cuda_allocated_peak);
    rp_jw_int(w, "cuda_reserved_peak_bytes", f->cuda_reserved_peak);
    rp_jw_int(w, "cuda_reserved_end_bytes", f->cuda_reserved_end);
    indirect_write(w, r, f);
    rp_jw_end(w);
}

static void notes_write(rp_jw *w, const an_diag *d)
{
    rp_jw_array(w, "notes");
    for (int k = 0; k < d->n_notes; k++) {
        if (!strict_ok(d->notes[k].message))
            continue;
        rp_jw_object(w, NULL);
        rp_jw_line(w, "file", "line", d->notes[k].line);
        rp_jw_int(w, "column", d->notes[k].col);
        rp_jw_str(w, "message", d->notes[k].message);
        rp_jw_end(w);
    }
    rp_jw_end(w);
}

static void diag_write(rp_jw *w, const an_diag *d, const char *function, const char *call)
{
    rp_jw_object(w, NULL);
    rp_jw_str(w, "file", d->file);
    rp_jw_line(w, NULL, "line", d->line);
    rp_jw_int(w, "column", d->col);
    if (strict_ok(an_severity_name(d->severity)))
        rp_jw_str(w, "severity", an_severity_name(d->severity));
    if (strict_ok(d->check))
        rp_jw_str(w, "check", d->check);
    rp_jw_str(w, "message", d->message);
    if (d->n_notes > 0)
        notes_write(w, d);
    if (strict_ok(function))
        rp_jw_str(w, "function", function);
    if (strict_ok(call))
        rp_jw_str(w, "call", call); /* left out when not UTF-8 */
    rp_jw_end(w);
}

/* d with its function and call; src is read once per report (NULL: unreadable). */
static void diag_write_located(rp_jw *w, const an_report *r, const rp_source *src,
                               const an_diag *d)
{
    char *call = rp_source_call_text(src, d->line, d->col);
    diag_write(w, d, rp_line_function(r, d->line), call);
    free(call);
}

static void symbols_write(rp_jw *w, const char *key)
{
    rp_jw_array(w, key);
    for (int k = 0; k < sx_n_symbols(); k++) {
        if (!sx_symbol_used(k))
            continue;
        rp_jw_object(w, NULL);
        rp_jw_str(w, "name", sx_symbol_name(k));
        rp_jw_line(w, "file", "line", sx_symbol_line(k));
        rp_jw_int(w, "column", sx_symbol_col(k));
        rp_jw_str(w, "origin", sx_symbol_origin(k));
        rp_jw_end(w);
    }
    rp_jw_end(w);
}

/* One assumption; none when its text is not valid UTF-8. */
static void assumption_write(rp_jw *w, const char *condition, int line)
{
    if (!strict_ok(condition))
        return;
    rp_jw_object(w, NULL);
    rp_jw_str(w, "condition", condition);
    rp_jw_line(w, "file", "line", line);
    rp_jw_end(w);
}

/* One assumption on the run's path: "kind": "path" tells it from a
 * condition over symbols, which a tool can evaluate. */
static void path_write(rp_jw *w, const an_path *p)
{
    if (!strict_ok(p->condition) || !strict_ok(p->leave))
        return;
    rp_jw_object(w, NULL);
    rp_jw_str(w, "condition", p->condition);
    rp_jw_line(w, "file", "line", p->line);
    rp_jw_str(w, "kind", "path");
    rp_jw_line(w, "leave_file", "leave_line", p->leave_line);
    rp_jw_str(w, "leave", p->leave);
    rp_jw_end(w);
}

static void assumptions_write(rp_jw *w, const char *key, const an_report *r)
{
    rp_jw_array(w, key);
    for (int k = 0; k < sx_n_symbols(); k++) { /* sizes are >= 1 (not loop counters, values) */
        if (!sx_symbol_used(k) || !sx_symbol_is_size(k) || !sx_size_floor_listed(k))
            continue;
        char text[300];
        snprintf(text, sizeof text, "%s >= 1", sx_symbol_name(k));
        assumption_write(w, text, sx_symbol_line(k));
    }
    for (int k = 0; k < sx_n_assumptions(); k++) {
        bool seen = !sx_assumption_listed(k); /* once per text and line (symbols may share a name) */
        for (int j = 0; j < k && !seen; j++)
            seen = sx_assumption_line(j) == sx_assumption_line(k) &&
                   strcmp(sx_assumption_text(j), sx_assumption_text(k)) == 0;
        if (!seen)
            assumption_write(w, sx_assumption_text(k), sx_assumption_line(k));
    }
    for (int k = 0; r && k < r->n_paths; k++)
        path_write(w, &r->paths[k]);
    rp_jw_end(w);
}

static void report_write(rp_jw *w, const an_report *r)
{
    rp_source *src = r->n_diags > 0 ? rp_source_load_unit(r->unit) : NULL;
    rp_jw_object(w, NULL);
    rp_jw_int(w, "schema", 3);
    rp_jw_array(w, "functions");
    for (int k = 0; k < r->n_funcs; k++)
        func_write(w, r, &r->funcs[k]);
    rp_jw_end(w);
    rp_jw_array(w, "diagnostics");
    for (int k = 0; k < r->n_diags; k++)
        diag_write_located(w, r, src, &r->diags[k]);
    rp_jw_end(w);
    symbols_write(w, "symbols");
    assumptions_write(w, "assumptions", r);
    rp_jw_end(w);
    rp_source_free(src);
}

json_t *rp_diag_json(const an_diag *d, const char *function, const char *call)
{
    rp_jw w = rp_jw_tree();
    diag_write(&w, d, function, call);
    return rp_jw_tree_take(&w);
}

json_t *rp_report_json(const an_report *r)
{
    rp_jw w = rp_jw_tree();
    w.unit = r->unit;
    report_write(&w, r);
    return rp_jw_tree_take(&w);
}

json_t *rp_symbols_json(void)
{
    rp_jw w = rp_jw_tree();
    symbols_write(&w, NULL);
    return rp_jw_tree_take(&w);
}

json_t *rp_assumptions_json(const an_report *r)
{
    rp_jw w = rp_jw_tree();
    w.unit = r ? r->unit : NULL;
    assumptions_write(&w, NULL, r);
    return rp_jw_tree_take(&w);
}

int rp_report_write_json(FILE *out, const an_report *r)
{
    rp_textbuf text = {0};
    rp_jw w = rp_jw_text(&text, out);
    w.unit = r->unit;
    report_write(&w, r);
    rp_tb_str(&text, "\n");
    rp_tb_flush(&text, out);
    rp_tb_free(&text);
    return 0;
}
