/*
 * an_json.c: the machine-readable report (docs/formats.md), built with
 * Jansson.  The spec's fields come first, in the spec's order, with the
 * spec's types; the project's own fields follow them.  Unknown entries are
 * null.  Keys keep insertion order, so the output is deterministic.
 *
 * Approach: the report is streamed.  Jansson encodes every value, one
 * array element at a time: a function's object is built, dumped and
 * released before the next one is built, so the tree in memory stays one
 * function small and cache-warm instead of the whole report.  Only the
 * fixed envelope around the two arrays (the top-level keys, the brackets
 * and the commas between elements) is written here.  Dumps go through
 * json_dump_callback into one growing buffer (an_textbuf.h) that is written
 * in large chunks, not token by token as json_dumpf writes.  Output is
 * byte-identical to dumping the whole tree with JSON_COMPACT.
 */
#include "an_report.h"
#include "an_textbuf.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static json_t *ints_or_null(bool known, int n, const int64_t *v)
{
    if (!known)
        return json_null();
    json_t *a = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(a, json_integer(v[k]));
    return a;
}

/* Length of the valid UTF-8 sequence at s (1 to 4 bytes), or 0. */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] >> 5) == 6 ? 2 : (s[0] >> 4) == 14 ? 3
          : (s[0] >> 3) == 30 ? 4 : 0;
    for (int k = 1; k < n; k++)
        if ((s[k] >> 6) != 2)
            return 0;
    return n;
}

/* A string from the user's files (a path, a name, a message quoting them):
 * as it is when it is valid UTF-8, else with each invalid byte replaced by
 * U+FFFD, so the key is never dropped (Jansson refuses invalid UTF-8). */
static json_t *user_str(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    size_t len = strlen(s), k = 0;
    char *buf = malloc(3 * len + 1);
    if (!buf)
        return json_string("?");
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_len(p);
        if (n == 0) {
            memcpy(buf + k, "\xEF\xBF\xBD", 3);
            k += 3, p++;
        } else {
            memcpy(buf + k, p, (size_t)n);
            k += (size_t)n, p += n;
        }
    }
    buf[k] = '\0';
    j = json_string(buf); /* overlong forms and surrogates still fail: say so */
    free(buf);
    return j ? j : json_string("(a name that is not UTF-8)");
}

static json_t *str_or_null(const char *s) { return s ? user_str(s) : json_null(); }

/* A string the analyzer wrote itself (ASCII): no UTF-8 validation needed. */
static json_t *own_str(const char *s) { return s ? json_string_nocheck(s) : json_null(); }

static json_t *int_or_null(bool known, int64_t v) { return known ? json_integer(v) : json_null(); }

/* An integer that may depend on symbols: a JSON integer, or the expression
 * as a string ("4*config.dim"); null when it is not followed at all. */
static json_t *sx_json(sx_int v)
{
    if (v.e == 0)
        return json_integer(v.c);
    if (v.e == SX_TOO_BIG)
        return json_null();
    sx_symbols_of(v, NULL); /* listed in "symbols" */
    char *text = sx_strdup(v);
    json_t *j = user_str(text);
    free(text);
    return j;
}

static json_t *sx_list(int n, const sx_int *v)
{
    json_t *a = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(a, sx_json(v[k]));
    return a;
}

/* A value whose layout is over symbols (an_value.sl). */
static json_t *value_sym_json(const an_report *r, int id)
{
    const an_value *v = &r->values[id];
    const an_slayout *l = &r->slayouts[v->sl - 1];
    json_t *o = json_object();
    json_object_set_new_nocheck(o, "name", str_or_null(v->name));
    json_object_set_new_nocheck(o, "line", json_integer(v->line));
    json_object_set_new_nocheck(o, "column", json_integer(v->col));
    json_object_set_new_nocheck(o, "op", own_str(mt_ops[v->op].name));
    json_object_set_new_nocheck(o, "shape", sx_list(l->ndim, l->shape));
    json_object_set_new_nocheck(o, "strides", sx_list(l->ndim, l->strides));
    json_object_set_new_nocheck(o, "offset", sx_json(l->offset));
    json_object_set_new_nocheck(o, "dtype", own_str(mt_dtype_name(l->dtype)));
    json_object_set_new_nocheck(o, "device", own_str(mt_device_name(l->device)));
    json_object_set_new_nocheck(o, "storage", int_or_null(v->storage >= 0, v->storage));
    json_object_set_new_nocheck(o, "kind", own_str(v->kind == MT_KIND_VIEW ? "view" : "new"));
    json_object_set_new_nocheck(o, "contiguous", json_boolean(l->contiguous));
    json_object_set_new_nocheck(o, "bytes_moved", sx_json(v->bytes_moved_sx));
    json_object_set_new_nocheck(o, "reason", str_or_null(v->reason));
    json_object_set_new_nocheck(o, "view_of", int_or_null(v->view_of >= 0, v->view_of));
    json_object_set_new_nocheck(o, "executions", json_integer(v->n_exec));
    json_object_set_new_nocheck(o, "id", json_integer(id));
    return o;
}

static json_t *value_json(const an_report *r, int id)
{
    const an_value *v = &r->values[id];
    bool k = v->known && v->executed && !v->error;
    if (!v->known && v->sl > 0 && v->executed && !v->error)
        return value_sym_json(r, id);
    json_t *o = json_object();
    json_object_set_new_nocheck(o, "name", str_or_null(v->name));
    json_object_set_new_nocheck(o, "line", json_integer(v->line));
    json_object_set_new_nocheck(o, "column", json_integer(v->col));
    json_object_set_new_nocheck(o, "op", own_str(mt_ops[v->op].name));
    json_object_set_new_nocheck(o, "shape", ints_or_null(k, v->l.ndim, v->l.shape));
    json_object_set_new_nocheck(o, "strides", ints_or_null(k, v->l.ndim, v->l.strides));
    json_object_set_new_nocheck(o, "offset", int_or_null(k && !v->offset_unknown, v->l.offset));
    json_object_set_new_nocheck(o, "dtype", k ? own_str(mt_dtype_name(v->l.dtype)) : json_null());
    json_object_set_new_nocheck(o, "device", k ? own_str(mt_device_name(v->l.device)) : json_null());
    json_object_set_new_nocheck(o, "storage", int_or_null(v->storage >= 0, v->storage));
    json_object_set_new_nocheck(o, "kind", v->executed && !v->error
                                       ? own_str(v->kind == MT_KIND_VIEW ? "view" : "new")
                                       : json_null());
    json_object_set_new_nocheck(o, "contiguous", k ? json_boolean(mt_is_contiguous(&v->l)) : json_null());
    json_object_set_new_nocheck(o, "bytes_moved", json_integer(v->bytes_moved));
    json_object_set_new_nocheck(o, "reason", str_or_null(v->reason)); /* may quote source */
    json_object_set_new_nocheck(o, "view_of", int_or_null(v->view_of >= 0, v->view_of));
    json_object_set_new_nocheck(o, "executions", json_integer(v->n_exec));
    json_object_set_new_nocheck(o, "id", json_integer(id));
    return o;
}

static json_t *storage_json(const an_storage *s)
{
    json_t *o = json_object();
    json_object_set_new_nocheck(o, "id", json_integer(s->id));
    if (s->symbolic) { /* CUDA blocks round up to 512 bytes, as for known sizes */
        sx_int block = s->device == TL_CUDA
                       ? sx_mul(sx_div(sx_add(s->nbytes_sx, (sx_int){511, 0}), (sx_int){512, 0}),
                                (sx_int){512, 0})
                       : s->nbytes_sx;
        json_object_set_new_nocheck(o, "nbytes", sx_json(s->nbytes_sx));
        json_object_set_new_nocheck(o, "device", own_str(mt_device_name(s->device)));
        json_object_set_new_nocheck(o, "block_bytes", sx_json(block));
    } else {
        json_object_set_new_nocheck(o, "nbytes", int_or_null(s->nbytes >= 0, s->nbytes));
        json_object_set_new_nocheck(o, "device", own_str(mt_device_name(s->device)));
        json_object_set_new_nocheck(o, "block_bytes", int_or_null(s->block_bytes >= 0, s->block_bytes));
    }
    json_object_set_new_nocheck(o, "alloc_line", json_integer(s->alloc_line));
    json_object_set_new_nocheck(o, "free_line", int_or_null(s->free_line > 0, s->free_line));
    json_object_set_new_nocheck(o, "alloc_column", json_integer(s->alloc_col));
    json_object_set_new_nocheck(o, "free_column", int_or_null(s->free_line > 0, s->free_col));
    json_object_set_new_nocheck(o, "discarded_branch", json_boolean(s->discarded));
    json_object_set_new_nocheck(o, "allocator_bytes", int_or_null(s->alloc_bytes >= 0, s->alloc_bytes));
    if (s->external) { /* the caller's memory (tl_from_blob): nbytes is 0, nothing allocated */
        json_object_set_new_nocheck(o, "external", json_true());
        json_object_set_new_nocheck(o, "external_nbytes", json_integer(s->external_nbytes));
    }
    return o;
}

static json_t *id_list(int n, const int *ids)
{
    json_t *a = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(a, json_integer(ids[k]));
    return a;
}

/* The peak's line; with symbols, when candidates remain, each with the
 * condition under which it is the largest. */
static json_t *peak_line_json(const an_func_report *f)
{
    if (f->n_peak_cands <= 1)
        return int_or_null(f->peak_line > 0, f->peak_line);
    json_t *a = json_array();
    static _Thread_local char when[1 << 16];
    for (int k = 0; k < f->n_peak_cands; k++) {
        an_peak_when(f, k, when, sizeof when);
        json_array_append_new(a, json_pack("{s:i,s:s}", "line", f->peak_cand_line[k], "when", when));
    }
    return a;
}

static json_t *func_json(const an_report *r, const an_func_report *f)
{
    json_t *o = json_object(), *values = json_array(), *storages = json_array();
    for (int k = 0; k < f->n_values; k++)
        json_array_append_new(values, value_json(r, f->values[k]));
    for (int k = 0; k < f->n_storages; k++)
        json_array_append_new(storages, storage_json(&r->storages[f->storages[k]]));
    json_object_set_new_nocheck(o, "name", user_str(f->name));
    json_object_set_new_nocheck(o, "file", user_str(r->unit->path));
    json_object_set_new_nocheck(o, "values", values);
    json_object_set_new_nocheck(o, "storages", storages);
    if (f->symbolic) {
        json_object_set_new_nocheck(o, "peak_live_bytes", sx_json(f->peak_sx));
        json_object_set_new_nocheck(o, "peak_line", peak_line_json(f));
        json_object_set_new_nocheck(o, "end_live_bytes", sx_json(f->end_sx));
        json_object_set_new_nocheck(o, "moved_bytes", sx_json(f->moved_sx));
    } else {
        json_object_set_new_nocheck(o, "peak_live_bytes", json_integer(f->peak_live_bytes));
        json_object_set_new_nocheck(o, "peak_line", int_or_null(f->peak_line > 0, f->peak_line));
        json_object_set_new_nocheck(o, "end_live_bytes", json_integer(f->end_live_bytes));
        json_object_set_new_nocheck(o, "moved_bytes", json_integer(f->moved_bytes));
    }
    json_object_set_new_nocheck(o, "peak_storages", id_list(f->n_peak_storages, f->peak_storages));
    json_object_set_new_nocheck(o, "root", json_boolean(f->is_root));
    json_object_set_new_nocheck(o, "executed", json_boolean(f->executed));
    json_object_set_new_nocheck(o, "calls",
                                f->symbolic ? sx_json(f->calls_sx) : json_integer(f->n_calls));
    json_object_set_new_nocheck(o, "bytes_are_lower_bounds", json_boolean(f->unknown_bytes));
    json_t *bounds = json_array();
    static const char *const totals[] = {"peak_live_bytes", "end_live_bytes", "moved_bytes"};
    for (int b = 0; b < 3; b++)
        if (f->bound & (1u << b))
            json_array_append_new(bounds, own_str(totals[b]));
    json_object_set_new_nocheck(o, "not_exact", bounds);
    json_object_set_new_nocheck(o, "cuda_allocated_peak_bytes", json_integer(f->cuda_allocated_peak));
    json_object_set_new_nocheck(o, "cuda_reserved_peak_bytes", json_integer(f->cuda_reserved_peak));
    json_object_set_new_nocheck(o, "cuda_reserved_end_bytes", json_integer(f->cuda_reserved_end));
    return o;
}

json_t *an_diag_json(const an_diag *d, const char *function, const char *call)
{
    json_t *o = json_object();
    json_object_set_new_nocheck(o, "file", user_str(d->file));
    json_object_set_new_nocheck(o, "line", json_integer(d->line));
    json_object_set_new_nocheck(o, "column", json_integer(d->col));
    json_object_set_new_nocheck(o, "severity", json_string(an_severity_name(d->severity)));
    json_object_set_new_nocheck(o, "check", json_string(d->check));
    json_object_set_new_nocheck(o, "message", user_str(d->message));
    if (d->n_notes > 0) {
        json_t *notes = json_array();
        for (int k = 0; k < d->n_notes; k++)
            json_array_append_new(notes, json_pack("{s:i,s:i,s:s}", "line", d->notes[k].line,
                                                   "column", d->notes[k].col, "message",
                                                   d->notes[k].message));
        json_object_set_new_nocheck(o, "notes", notes);
    }
    if (function)
        json_object_set_new_nocheck(o, "function", json_string(function));
    if (call)
        json_object_set_new(o, "call", json_string(call)); /* NULL when not UTF-8: left out */
    return o;
}

/* d with its function and call; src is read once per report (NULL: unreadable). */
static json_t *diag_json_located(const an_report *r, const an_source *src, const an_diag *d)
{
    char *call = an_source_call_text(src, d->line, d->col);
    json_t *o = an_diag_json(d, an_line_function(r, d->line), call);
    free(call);
    return o;
}

json_t *an_report_json(const an_report *r)
{
    an_source *src = r->n_diags > 0 ? an_source_load(r->unit->path) : NULL;
    json_t *funcs = json_array(), *diags = json_array();
    for (int k = 0; k < r->n_funcs; k++)
        json_array_append_new(funcs, func_json(r, &r->funcs[k]));
    for (int k = 0; k < r->n_diags; k++)
        json_array_append_new(diags, diag_json_located(r, src, &r->diags[k]));
    an_source_free(src);
    return json_pack("{s:i,s:o,s:o,s:o,s:o}", "schema", 2, "functions", funcs, "diagnostics",
                     diags, "symbols", an_symbols_json(), "assumptions", an_assumptions_json());
}

json_t *an_symbols_json(void)
{
    json_t *a = json_array();
    for (int k = 0; k < sx_n_symbols(); k++) {
        if (!sx_symbol_used(k))
            continue;
        json_t *o = json_object();
        json_object_set_new_nocheck(o, "name", user_str(sx_symbol_name(k)));
        json_object_set_new_nocheck(o, "line", json_integer(sx_symbol_line(k)));
        json_object_set_new_nocheck(o, "column", json_integer(sx_symbol_col(k)));
        json_object_set_new_nocheck(o, "origin", user_str(sx_symbol_origin(k)));
        json_array_append_new(a, o);
    }
    return a;
}

json_t *an_assumptions_json(void)
{
    json_t *a = json_array();
    for (int k = 0; k < sx_n_symbols(); k++) { /* symbols stand for sizes */
        if (!sx_symbol_used(k))
            continue;
        char text[300];
        snprintf(text, sizeof text, "%s >= 1", sx_symbol_name(k));
        json_array_append_new(a, json_pack("{s:s,s:i}", "condition", text, "line",
                                           sx_symbol_line(k)));
    }
    for (int k = 0; k < sx_n_assumptions(); k++) {
        bool seen = false; /* one line per text, where symbols share a name */
        for (int j = 0; j < k && !seen; j++)
            seen = strcmp(sx_assumption_text(j), sx_assumption_text(k)) == 0;
        if (!seen)
            json_array_append_new(a, json_pack("{s:s,s:i}", "condition", sx_assumption_text(k),
                                               "line", sx_assumption_line(k)));
    }
    return a;
}

/* Where the dumps go: the buffer, its file, and whether a dump failed. */
typedef struct json_writer {
    FILE *out;
    an_textbuf text;
    int rc; /* 0, or -1 once Jansson could not dump an element */
} json_writer;

/* json_dump_callback's sink. */
static int jw_dump_callback(const char *text, size_t n, void *data)
{
    an_tb_mem(&((json_writer *)data)->text, text, n);
    return 0;
}

/* Dumps one array element, a comma before all but the first, and releases it. */
static void jw_element(json_writer *w, int index, json_t *element)
{
    if (index > 0)
        an_tb_str(&w->text, ",");
    if (json_dump_callback(element, jw_dump_callback, w, JSON_COMPACT | JSON_PRESERVE_ORDER) != 0)
        w->rc = -1;
    json_decref(element);
    if (w->text.len >= AN_TB_FLUSH_AT)
        an_tb_flush(&w->text, w->out);
}

int an_report_write_json(FILE *out, const an_report *r)
{
    json_writer w = {.out = out};
    an_source *src = r->n_diags > 0 ? an_source_load(r->unit->path) : NULL;
    an_tb_str(&w.text, "{\"schema\":2,\"functions\":[");
    for (int k = 0; k < r->n_funcs; k++)
        jw_element(&w, k, func_json(r, &r->funcs[k]));
    an_tb_str(&w.text, "],\"diagnostics\":[");
    for (int k = 0; k < r->n_diags; k++)
        jw_element(&w, k, diag_json_located(r, src, &r->diags[k]));
    an_tb_str(&w.text, "],\"symbols\":");
    jw_element(&w, 0, an_symbols_json());
    an_tb_str(&w.text, ",\"assumptions\":");
    jw_element(&w, 0, an_assumptions_json());
    an_tb_str(&w.text, "}\n");
    an_tb_flush(&w.text, out);
    an_tb_free(&w.text);
    an_source_free(src);
    return w.rc;
}
