/*
 * lsp_analysis.c: one document analysed, from the editor's text.
 *
 * The document's session (frontend/fe_session.h) parses the text as the
 * file's unsaved contents, reparsing the kept translation unit after the
 * first time; then the same library calls as `tensorlint check`: the
 * interpreter (an_analyze), every rule (ck_run_text, whose fix-its read
 * this text), and the NOLINT comments of this text.  A file that does not
 * compile is not analysed: the result says so, at clang's first error.
 *
 * The result owns a copy of the text it was made from, so positions and
 * edits it gives are right for that version even after the document has
 * moved on; the server never publishes a result older than the document.
 */
#include "lsp_internal.h"

#include <stdlib.h>
#include <string.h>

/* The first clang error of the main file (or any), into r's failure. */
static void lsp_result_fail_compile(lsp_result *r, const char *path)
{
    const ir_diag *first = NULL;
    for (int k = 0; k < r->unit->n_diags; k++) {
        const ir_diag *d = &r->unit->diags[k];
        if (d->severity < IR_SEV_ERROR)
            continue;
        if (!first || (!(first->file && strcmp(first->file, path) == 0) && d->file &&
                       strcmp(d->file, path) == 0))
            first = d;
    }
    int n = r->unit->n_errors;
    bool here = first && first->file && strcmp(first->file, path) == 0;
    r->failure = tl_xasprintf("tensorlint: not analysed: the file does not compile (%d error%s; "
                              "the first: %s%s%s)", n, n == 1 ? "" : "s",
                              here || !first || !first->file ? "" : first->file,
                              here || !first || !first->file ? "" : ": ",
                              first ? first->message : "?");
    if (here) {
        r->fail_line = first->line;
        r->fail_col = first->col;
    }
}

/* Keep the report's diagnostics NOLINT does not suppress, and NOLINT's own problems. */
static void lsp_result_collect(lsp_result *r)
{
    const an_diag *problems = NULL;
    int n_problems = r->nolint ? ck_nolint_problems(r->nolint, &problems) : 0;
    r->diags = tl_xcalloc((size_t)(r->report->n_diags + n_problems) + 1, sizeof *r->diags);
    for (int k = 0; k < r->report->n_diags; k++) {
        const an_diag *d = &r->report->diags[k];
        if (d->severity == AN_ERROR || !ck_nolint_suppresses(r->nolint, d))
            r->diags[r->n_diags++] = d;
    }
    for (int k = 0; k < n_problems; k++)
        r->diags[r->n_diags++] = &problems[k];
}

static void lsp_result_run(lsp_result *r, lsp_doc *doc, const ck_options *ck,
                           const an_options *an)
{
    if (!doc->session)
        doc->session = fe_session_new(doc->cmd.path, doc->cmd.argc,
                                      (const char *const *)doc->cmd.argv, doc->cmd.full_command);
    fe_status st = fe_session_parse(doc->session, r->text, r->len, &r->unit);
    if (st != FE_OK) {
        r->failure = tl_xasprintf("tensorlint: not analysed: %s (%s)", fe_status_name(st),
                                  doc->cmd.origin);
        return;
    }
    if (r->unit->n_errors > 0) {
        lsp_result_fail_compile(r, doc->cmd.path);
        return;
    }
    r->report = an_analyze(r->unit, an);
    ck_run_text(r->report, ck, r->text, r->len);
    r->nolint = ck_nolint_scan_text(doc->cmd.path, r->text, r->len);
    lsp_result_collect(r);
}

lsp_result *lsp_analyse(lsp_doc *doc, const ck_options *ck, const an_options *an)
{
    lsp_result *r = tl_xcalloc(1, sizeof *r);
    r->text = tl_xmalloc(doc->len + 1);
    memcpy(r->text, doc->text, doc->len + 1);
    r->len = doc->len;
    r->version = doc->version;
    double t0 = lsp_now();
    lsp_result_run(r, doc, ck, an);
    r->seconds = lsp_now() - t0;
    return r;
}

void lsp_result_free(lsp_result *r)
{
    if (!r)
        return;
    free(r->diags);
    ck_nolint_free(r->nolint);
    an_report_free(r->report);
    ir_unit_free(r->unit);
    free(r->failure);
    free(r->text);
    free(r);
}
