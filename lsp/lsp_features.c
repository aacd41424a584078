/*
 * lsp_features.c: what the editor shows, as LSP JSON, from one analysis
 * result.  Every position is converted against the text the result was
 * made from (lsp_result.text), never the document's newer text.
 *
 *  - diagnostics: each kept an_diag at the extent of the token (a call's
 *    name through its closing parenthesis), the check as code with a link
 *    to its page, notes as relatedInformation;
 *  - hover: on a tl_* call, the value that call site made; on a variable,
 *    the value it holds there (the call assigned to it on that line when it
 *    is the assignment's target, else the last assignment above it in the
 *    same function);
 *  - inlay hints: after each statement that assigns a tensor variable, its
 *    shape and dtype, and its bytes when it is a new storage;
 *  - code actions: each fix-it as a quick fix, and a NOLINT comment.
 */
#define _GNU_SOURCE /* memmem */
#include "lsp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rp_report.h"

json_t *lsp_range_json(lsp_pos a, lsp_pos b)
{
    return json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "start", "line", a.line, "character",
                     a.character, "end", "line", b.line, "character", b.character);
}

static lsp_pos lsp_pos_of(const lsp_ctx *cx, const lsp_result *r, int line, int col)
{
    return lsp_text_pos(r->text, r->len, line, col, cx->enc);
}

/* The byte offset of a 1-based line and byte column of r's text. */
static size_t lsp_offset_of(const lsp_result *r, int line, int col)
{
    lsp_pos p = {line - 1, 0};
    size_t off = lsp_text_offset(r->text, r->len, p, LSP_UTF8) + (size_t)(col > 0 ? col - 1 : 0);
    return off > r->len ? r->len : off;
}

/* The extent of what starts at (line, col): a call, an identifier, or one character. */
static json_t *lsp_token_range(const lsp_ctx *cx, const lsp_result *r, int line, int col)
{
    size_t off = lsp_offset_of(r, line, col), a, b;
    size_t end = off < r->len ? off + 1 : off;
    if (lsp_text_ident(r->text, r->len, off, &a, &b) && a == off)
        end = lsp_text_call_end(r->text, r->len, b);
    if (end > off && memchr(r->text + off, '\n', end - off) && end == off + 1)
        end = off;
    int el, ec;
    lsp_text_line_col(r->text, r->len, end, &el, &ec);
    return lsp_range_json(lsp_pos_of(cx, r, line, col), lsp_pos_of(cx, r, el, ec));
}

static int lsp_severity(an_severity s)
{
    return s == AN_ERROR ? 1 : s == AN_WARNING ? 2 : 3;
}

static json_t *lsp_diag_json(const lsp_ctx *cx, const lsp_doc *doc, const lsp_result *r,
                             const an_diag *d)
{
    json_t *j = json_pack("{s:o,s:i,s:s,s:s,s:s}", "range",
                          lsp_token_range(cx, r, d->line, d->col), "severity",
                          lsp_severity(d->severity), "code", d->check, "source", "tensorlint",
                          "message", d->message);
    if (ck_find(d->check) >= 0 && cx->doc_url) {
        char *href = tl_xasprintf("%s%s.md", cx->doc_url, d->check);
        json_object_set_new(j, "codeDescription", json_pack("{s:s}", "href", href));
        free(href);
    }
    if (d->n_notes > 0) {
        json_t *rel = json_array();
        for (int k = 0; k < d->n_notes; k++) {
            const an_note *n = &d->notes[k];
            char *uri = n->file ? lsp_path_to_uri(n->file) : NULL; /* another file of the program */
            lsp_pos at = {n->line > 0 ? n->line - 1 : 0, n->col > 0 ? n->col - 1 : 0};
            json_array_append_new(
                rel, json_pack("{s:{s:s,s:o},s:s}", "location", "uri", uri ? uri : doc->uri,
                               "range", uri ? lsp_range_json(at, at)
                                            : lsp_token_range(cx, r, n->line, n->col),
                               "message", n->message));
            free(uri);
        }
        json_object_set_new(j, "relatedInformation", rel);
    }
    return j;
}

json_t *lsp_diagnostics_json(const lsp_ctx *cx, const lsp_doc *doc, const lsp_result *r)
{
    json_t *a = json_array();
    if (r->failure) {
        int line = r->fail_line ? r->fail_line : 1, col = r->fail_line ? r->fail_col : 1;
        json_array_append_new(
            a, json_pack("{s:o,s:i,s:s,s:s,s:s}", "range", lsp_token_range(cx, r, line, col),
                         "severity", 3, "code", "not-analysed", "source", "tensorlint",
                         "message", r->failure));
        return a;
    }
    for (int k = 0; k < r->n_diags; k++)
        json_array_append_new(a, lsp_diag_json(cx, doc, r, r->diags[k]));
    return a;
}

/* ---- hover ---- */

/* The function whose body holds line, or -1. */
static int lsp_func_at(const ir_unit *u, int line)
{
    for (int k = 0; k < u->n_funcs; k++)
        if (line >= u->funcs[k]->loc.line && line <= u->funcs[k]->end.line)
            return k;
    return -1;
}

/* Whether the identifier ending at off is the target of an assignment ("x =", not "x =="). */
static bool lsp_is_target(const lsp_result *r, size_t off)
{
    while (off < r->len && (r->text[off] == ' ' || r->text[off] == '\t'))
        off++;
    return off + 1 < r->len && r->text[off] == '=' && r->text[off + 1] != '=';
}

/* The value the identifier [a, b) at (line, col) names, or -1. */
static int lsp_value_named(const lsp_result *r, size_t a, size_t b, int line, int col)
{
    const an_report *rep = r->report;
    line += r->line_base; /* a program's line (r->line_base is 0 for a file alone) */
    for (int k = 0; k < rep->n_values; k++) /* a call's name */
        if (rep->values[k].line == line && rep->values[k].col == col)
            return k;
    int func = lsp_func_at(r->unit, line), best = -1;
    bool target = lsp_is_target(r, b);
    for (int k = 0; k < rep->n_values; k++) {
        const an_value *v = &rep->values[k];
        if (v->func != func || !v->name || strlen(v->name) != b - a ||
            memcmp(v->name, r->text + a, b - a) != 0)
            continue;
        bool here = target ? v->line == line : v->line < line;
        if (here && (best < 0 || v->line > rep->values[best].line ||
                     (v->line == rep->values[best].line && v->col > rep->values[best].col)))
            best = k;
    }
    return best;
}

static void lsp_tuple(FILE *f, int n, const int64_t *v)
{
    fputc('(', f);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%lld", k ? ", " : "", (long long)v[k]);
    fputs(n == 1 ? ",)" : ")", f);
}

static const char *lsp_bytes(char *buf, size_t size, int64_t n)
{
    return n < 0 ? "unknown" : rp_format_bytes(buf, size, n);
}

/* Sizes over run-time symbols (docs/symbolic.md): formulas. */
static void lsp_sx_tuple(FILE *f, int n, const sx_int *v)
{
    char b[512];
    fputc('(', f);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%s", k ? ", " : "", sx_str(v[k], b, sizeof b));
    fputs(n == 1 ? ",)" : ")", f);
}

/* A storage's bytes, its formula when its size is one. */
static const char *lsp_storage_bytes(char *buf, size_t size, const an_storage *s)
{
    if (!s->symbolic)
        return lsp_bytes(buf, size, s->nbytes);
    char f[480];
    snprintf(buf, size, "%s B", sx_str(s->nbytes_sx, f, sizeof f));
    return buf;
}

static const an_slayout *lsp_slayout(const an_report *rep, const an_value *v)
{
    return !v->known && v->sl > 0 ? &rep->slayouts[v->sl - 1] : NULL;
}

/* One row of the hover: a table row in markdown, "name: value" in plain text. */
static void lsp_row(FILE *f, bool md, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void lsp_row(FILE *f, bool md, const char *name, const char *fmt, ...)
{
    va_list ap;
    fprintf(f, md ? "| %s | " : "%s: ", name);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputs(md ? " |\n" : "\n", f);
}

static void lsp_hover_storage(FILE *f, bool md, const an_report *rep, const ir_unit *u,
                              const an_value *v)
{
    char b1[512], b2[512];
    const an_storage *s = v->storage >= 0 ? &rep->storages[v->storage] : NULL;
    if (!s)
        return;
    const an_value *base = v->view_of >= 0 ? &rep->values[v->view_of] : NULL;
    if (s->symbolic || lsp_slayout(rep, v)) { /* formulas: no comparison of reach */
        if (v->kind == MT_KIND_VIEW) {
            lsp_row(f, md, "storage", "S%d (%s), a view of %s", s->id,
                    lsp_storage_bytes(b1, sizeof b1, s),
                    base && base->name ? base->name : "its input");
            lsp_row(f, md, "bytes", "0 (a view: no new memory)");
            lsp_row(f, md, "keeps alive", "S%d (%s)", s->id, lsp_storage_bytes(b2, sizeof b2, s));
        } else {
            lsp_row(f, md, "storage", "S%d, new", s->id);
            lsp_row(f, md, "bytes", "%s", lsp_storage_bytes(b1, sizeof b1, s));
            lsp_row(f, md, "keeps alive", "its own storage only");
        }
    } else if (v->kind == MT_KIND_VIEW) {
        lsp_row(f, md, "storage", "S%d (%s), a view of %s", s->id,
                lsp_bytes(b1, sizeof b1, s->nbytes), base && base->name ? base->name : "its input");
        lsp_row(f, md, "bytes", "0 (a view: no new memory)");
        char b3[32];
        int64_t reach = mt_nbytes(&v->l); /* bytes of its own elements */
        if (s->nbytes > 0 && reach < s->nbytes)
            lsp_row(f, md, "keeps alive", "S%d (%s), though it reads only %s of it", s->id,
                    lsp_bytes(b2, sizeof b2, s->nbytes), lsp_bytes(b3, sizeof b3, reach));
        else
            lsp_row(f, md, "keeps alive", "S%d (%s)", s->id, lsp_bytes(b2, sizeof b2, s->nbytes));
    } else {
        lsp_row(f, md, "storage", "S%d, new", s->id);
        lsp_row(f, md, "bytes", "%s", lsp_bytes(b1, sizeof b1, s->nbytes));
        lsp_row(f, md, "keeps alive", "its own storage only");
    }
    if (s->free_line > 0) { /* "12", or "12 of model.c" in a program */
        char *line = ir_unit_line_text(u, s->free_line);
        lsp_row(f, md, "released", "line %s", line);
        free(line);
    }
    else
        lsp_row(f, md, "released", "never (still live when its function returns)");
}

static void lsp_hover_known(FILE *f, bool md, const an_report *rep, const ir_unit *u,
                            const an_value *v)
{
    char b[32];
    if (md)
        fputs("| | |\n|:--|:--|\n", f);
    fprintf(f, md ? "| shape | `" : "shape: ");
    lsp_tuple(f, v->l.ndim, v->l.shape);
    fprintf(f, md ? "` |\n| strides | `" : "\nstrides: ");
    lsp_tuple(f, v->l.ndim, v->l.strides);
    fputs(md ? "` |\n" : "\n", f);
    if (v->l.offset != 0)
        lsp_row(f, md, "offset", "%lld elements", (long long)v->l.offset);
    lsp_row(f, md, "dtype", "%s", mt_dtype_name(v->l.dtype));
    lsp_row(f, md, "device", "%s", mt_device_name(v->l.device));
    lsp_hover_storage(f, md, rep, u, v);
    lsp_row(f, md, "bytes moved", "%s", lsp_bytes(b, sizeof b, v->bytes_moved));
}

static void lsp_hover_symbolic(FILE *f, bool md, const an_report *rep, const ir_unit *u,
                               const an_value *v)
{
    const an_slayout *l = lsp_slayout(rep, v);
    char b[512];
    if (md)
        fputs("| | |\n|:--|:--|\n", f);
    fprintf(f, md ? "| shape | `" : "shape: ");
    lsp_sx_tuple(f, l->ndim, l->shape);
    fprintf(f, md ? "` |\n| strides | `" : "\nstrides: ");
    lsp_sx_tuple(f, l->ndim, l->strides);
    fputs(md ? "` |\n" : "\n", f);
    if (l->offset.e != 0 || l->offset.c != 0)
        lsp_row(f, md, "offset", "%s elements", sx_str(l->offset, b, sizeof b));
    lsp_row(f, md, "dtype", "%s", mt_dtype_name(l->dtype));
    lsp_row(f, md, "device", "%s", mt_device_name(l->device));
    lsp_hover_storage(f, md, rep, u, v);
    lsp_row(f, md, "bytes moved", "%s B", sx_str(v->bytes_moved_sx, b, sizeof b));
    fputs(md ? "\n*sizes read at run time: formulas (tensorlint report lists the assumptions)*\n"
             : "\nsizes read at run time: formulas (tensorlint report lists the assumptions)\n", f);
}

/* The totals of the function the call is in, each with its claim ("at most
 * 6 MiB"), as the text report says them. */
/* On the peak's line: the three largest storages live there, by their
 * first name ("the peak is here; live: d 256 MiB, x 128 MiB, b 128 MiB"). */
static void lsp_hover_peak(FILE *f, bool md, const an_report *rep, const an_func_report *fr,
                           int line)
{
    if (fr->symbolic || fr->peak_line != line || fr->n_peak_storages == 0)
        return;
    int *order = rp_peak_order(rep, fr), shown = 0;
    for (int j = 0; j < fr->n_peak_storages && shown < 3; j++) {
        const an_storage *s = &rep->storages[fr->peak_storages[order[j]]];
        const char *n = fr->peak_names ? fr->peak_names[order[j]] : NULL;
        if (!n || s->nbytes < 0)
            continue;
        char b[32];
        const char *end = strchr(n, AN_NAME_SEP);
        fprintf(f, md ? "%s`%.*s` %s" : "%s%.*s %s", shown++ ? ", " : "the peak is here; live: ",
                (int)(end ? end - n : (long)strlen(n)), n, rp_format_bytes(b, sizeof b, s->nbytes));
    }
    if (shown && fr->n_peak_storages > shown)
        fprintf(f, " (%d more)", fr->n_peak_storages - shown);
    if (shown)
        fputc('\n', f);
    free(order);
}

static void lsp_hover_totals(FILE *f, bool md, const an_report *rep, int func, int line)
{
    for (int k = 0; k < rep->n_funcs; k++) {
        const an_func_report *fr = &rep->funcs[k];
        if (fr->func != func || !fr->executed)
            continue;
        char *peak = rp_total_str(fr, AN_TOTAL_PEAK), *end = rp_total_str(fr, AN_TOTAL_END);
        fprintf(f, md ? "\nin `%s`: peak %s, live at end %s\n" : "\nin %s: peak %s, live at end %s\n",
                fr->name, peak, end);
        lsp_hover_peak(f, md, rep, fr, line);
        free(peak);
        free(end);
    }
}

static char *lsp_hover_text(const lsp_ctx *cx, const an_report *rep, const ir_unit *u,
                            const an_value *v)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = tl_xmemstream(&text, &len);
    bool md = cx->markdown;
    const char *kind = v->kind == MT_KIND_VIEW ? "view" : v->kind == MT_KIND_INPLACE ? "in place"
                                                                                    : "new";
    char *line = ir_unit_line_text(u, v->line);
    fprintf(f, md ? "**%s** = `tl_%s` (line %s)" : "%s = tl_%s (line %s)",
            v->name ? v->name : "(result)", mt_ops[v->op].name, line);
    free(line);
    if (v->executed && (v->known || lsp_slayout(rep, v)) && !v->error)
        fprintf(f, md ? " · *%s*" : ", %s", kind);
    fputs("\n\n", f);
    if (!v->executed)
        fputs("not run: the analysis did not reach this call\n", f);
    else if (v->error)
        fputs("this call fails (see the error)\n", f);
    else if (lsp_slayout(rep, v))
        lsp_hover_symbolic(f, md, rep, u, v);
    else if (!v->known)
        fputs("layout unknown: the analysis could not follow it\n", f);
    else
        lsp_hover_known(f, md, rep, u, v);
    sx_int runs = an_value_runs(v); /* the program's count: a formula over run-time sizes */
    char t[224];
    if (runs.e != 0 || runs.c > 1)
        fprintf(f, "\nruns %s; shown: its first run\n", an_value_runs_text(v, t, sizeof t));
    if (v->reason && *v->reason)
        fprintf(f, md ? "\n*%s*\n" : "\n%s\n", v->reason);
    lsp_hover_totals(f, md, rep, v->func, v->line);
    tl_xmemstream_close(f);
    return text;
}

json_t *lsp_hover_json(const lsp_ctx *cx, const lsp_result *r, lsp_pos p)
{
    size_t off = lsp_text_offset(r->text, r->len, p, cx->enc), a, b;
    if (!r->report || !lsp_text_ident(r->text, r->len, off, &a, &b))
        return json_null();
    int line, col, el, ec;
    lsp_text_line_col(r->text, r->len, a, &line, &col);
    int id = lsp_value_named(r, a, b, line, col);
    if (id < 0)
        return json_null();
    an_report_use(r->report); /* its formulas, not those of the last document analysed */
    char *text = lsp_hover_text(cx, r->report, r->unit, &r->report->values[id]);
    lsp_text_line_col(r->text, r->len, b, &el, &ec);
    json_t *h = json_pack("{s:{s:s,s:s},s:o}", "contents", "kind",
                          cx->markdown ? "markdown" : "plaintext", "value", text, "range",
                          lsp_range_json(lsp_pos_of(cx, r, line, col), lsp_pos_of(cx, r, el, ec)));
    free(text);
    return h;
}

/* ---- inlay hints ---- */

/* One past the ';' that ends the statement of the call at off (on its line), or the line's end. */
static size_t lsp_stmt_end(const lsp_result *r, size_t off)
{
    int depth = 0;
    size_t k = off;
    for (; k < r->len && r->text[k] != '\n'; k++) {
        depth += (r->text[k] == '(') - (r->text[k] == ')');
        if (r->text[k] == ';' && depth <= 0)
            return k + 1;
    }
    while (k > off && (r->text[k - 1] == ' ' || r->text[k - 1] == '\r' || r->text[k - 1] == '\t'))
        k--;
    return k;
}

static char *lsp_hint_label(const an_report *rep, const an_value *v)
{
    char *text = NULL, b[512];
    size_t len = 0;
    FILE *f = tl_xmemstream(&text, &len);
    const an_slayout *l = lsp_slayout(rep, v);
    if (l)
        lsp_sx_tuple(f, l->ndim, l->shape);
    else
        lsp_tuple(f, v->l.ndim, v->l.shape);
    fprintf(f, " %s", mt_dtype_name(l ? l->dtype : v->l.dtype));
    const an_storage *s = v->storage >= 0 ? &rep->storages[v->storage] : NULL;
    if (v->kind == MT_KIND_NEW && s)
        fprintf(f, ", new %s", lsp_storage_bytes(b, sizeof b, s));
    else if (v->kind == MT_KIND_VIEW)
        fputs(", view", f);
    tl_xmemstream_close(f);
    return text;
}

json_t *lsp_inlay_hints_json(const lsp_ctx *cx, const lsp_result *r, lsp_pos from, lsp_pos to)
{
    json_t *a = json_array();
    const an_report *rep = r->report;
    an_report_use(rep); /* its formulas, not those of the last document analysed */
    for (int k = 0; rep && k < rep->n_values; k++) {
        const an_value *v = &rep->values[k];
        int here = lsp_result_line(r, v->line); /* 0: another file of the program */
        if (!v->name || !v->executed || !(v->known || lsp_slayout(rep, v)) || v->error ||
            here == 0 || here - 1 < from.line || here - 1 > to.line)
            continue;
        size_t end = lsp_stmt_end(r, lsp_offset_of(r, here, v->col));
        int line, col;
        lsp_text_line_col(r->text, r->len, end, &line, &col);
        lsp_pos p = lsp_pos_of(cx, r, line, col);
        char *label = lsp_hint_label(rep, v);
        json_t *hint = json_pack("{s:{s:i,s:i},s:s,s:i,s:b}", "position", "line", p.line,
                                 "character", p.character, "label", label, "kind", 1,
                                 "paddingLeft", 1);
        if (v->reason && *v->reason) /* why it viewed or copied, on hovering the hint */
            json_object_set_new(hint, "tooltip", json_string(v->reason));
        json_array_append_new(a, hint);
        free(label);
    }
    return a;
}

/* ---- code actions ---- */

static json_t *lsp_edit_json(const lsp_doc *doc, json_t *edits)
{
    json_t *changes = json_object();
    json_object_set_new(changes, doc->uri, edits);
    return json_pack("{s:o}", "changes", changes);
}

static json_t *lsp_fix_action(const lsp_ctx *cx, const lsp_doc *doc, const lsp_result *r,
                              const an_diag *d)
{
    json_t *edits = json_array();
    for (int k = 0; k < d->n_fixits; k++) {
        const an_fixit *x = &d->fixits[k];
        json_array_append_new(
            edits, json_pack("{s:o,s:s}", "range",
                             lsp_range_json(lsp_pos_of(cx, r, x->line, x->col),
                                            lsp_pos_of(cx, r, x->end_line, x->end_col)),
                             "newText", x->text));
    }
    char *title = tl_xasprintf("Fix [%s]: apply tensorlint's fix-it", d->check);
    json_t *a = json_pack("{s:s,s:s,s:[o],s:b,s:o}", "title", title, "kind", "quickfix",
                          "diagnostics", lsp_diag_json(cx, doc, r, d), "isPreferred", 1, "edit",
                          lsp_edit_json(doc, edits));
    free(title);
    return a;
}

/* The edit that adds check to the line's NOLINT: inside an existing "NOLINT(...)" or as a
 * new comment at the end of the line. */
static json_t *lsp_nolint_edit(const lsp_ctx *cx, const lsp_result *r, int line,
                               const char *check)
{
    size_t start = lsp_offset_of(r, line, 1), end = start;
    while (end < r->len && r->text[end] != '\n')
        end++;
    char *text;
    size_t at;
    const char *open = memmem(r->text + start, end - start, "NOLINT(", 7);
    const char *close = open ? memchr(open, ')', (size_t)(r->text + end - open)) : NULL;
    if (close) {
        at = (size_t)(close - r->text);
        text = tl_xasprintf(",%s", check);
    } else {
        at = end;
        while (at > start && (r->text[at - 1] == ' ' || r->text[at - 1] == '\t' ||
                              r->text[at - 1] == '\r'))
            at--;
        text = tl_xasprintf(" // NOLINT(%s)", check);
    }
    int l, c;
    lsp_text_line_col(r->text, r->len, at, &l, &c);
    lsp_pos p = lsp_pos_of(cx, r, l, c);
    json_t *e = json_pack("{s:o,s:s}", "range", lsp_range_json(p, p), "newText", text);
    free(text);
    return e;
}

static json_t *lsp_nolint_action(const lsp_ctx *cx, const lsp_doc *doc, const lsp_result *r,
                                 const an_diag *d)
{
    char *title = tl_xasprintf("Suppress [%s] on this line (// NOLINT)", d->check);
    json_t *a = json_pack("{s:s,s:s,s:[o],s:o}", "title", title, "kind", "quickfix",
                          "diagnostics", lsp_diag_json(cx, doc, r, d), "edit",
                          lsp_edit_json(doc, json_pack("[o]", lsp_nolint_edit(cx, r, d->line,
                                                                              d->check))));
    free(title);
    return a;
}

json_t *lsp_code_actions_json(const lsp_ctx *cx, const lsp_doc *doc, const lsp_result *r,
                              lsp_pos from, lsp_pos to)
{
    json_t *a = json_array();
    for (int k = 0; !r->failure && k < r->n_diags; k++) {
        const an_diag *d = r->diags[k];
        if (d->line - 1 < from.line || d->line - 1 > to.line)
            continue;
        if (d->n_fixits > 0)
            json_array_append_new(a, lsp_fix_action(cx, doc, r, d));
        if (d->severity != AN_ERROR && ck_find(d->check) >= 0)
            json_array_append_new(a, lsp_nolint_action(cx, doc, r, d));
    }
    return a;
}
