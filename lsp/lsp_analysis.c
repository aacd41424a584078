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
 * A document its compile database lists is analysed with the database's
 * whole program instead (fe_program.h): its unit parsed from the editor's
 * text, other open documents' units from theirs, every other unit read
 * from its capture when current (parsed and captured again otherwise).
 * The result keeps the document's diagnostics only, in its own lines
 * (r->local), and r->line_base maps the program's lines to the document's.
 * A malformed database, or a flag clang does not know, is the result's
 * failure naming the database and the entry, as the -p commands say it.
 *
 * The result owns a copy of the text it was made from, so positions and
 * edits it gives are right for that version even after the document has
 * moved on; the server never publishes a result older than the document.
 */
#include "lsp_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe_program.h"

/* The unit whose command holds the argument a command-line diagnostic
 * quotes ("unknown argument: '-fbogus'"), else the only one, else NULL. */
static const lsp_unit *lsp_flag_owner(const lsp_unit *units, int n, const char *message)
{
    const char *q = strchr(message, '\''), *end = q ? strchr(q + 1, '\'') : NULL;
    for (int k = 0; end && k < n; k++)
        for (int a = 0; a < units[k].argc; a++)
            if (strncmp(units[k].argv[a], q + 1, (size_t)(end - q - 1)) == 0 &&
                units[k].argv[a][end - q - 1] == '\0')
                return &units[k];
    return n == 1 ? &units[0] : NULL;
}

/* Where a clang diagnostic without a file comes from: the database's entry
 * whose command holds the flag ("DB: entry N (FILE): "), as the commands say
 * it (tools/cli.c); "" for a command not from a database.  To free. */
static char *lsp_flag_origin(const lsp_doc *doc, const lsp_unit *units, int n, const char *msg)
{
    if (!doc->cmd.db_dir)
        return tl_xstrdup("");
    lsp_unit self = {doc->cmd.path, doc->cmd.argc, doc->cmd.argv, doc->cmd.entry};
    const lsp_unit *u = units ? lsp_flag_owner(units, n, msg) : &self;
    if (!u)
        return tl_xasprintf("%s: ", doc->cmd.origin);
    return tl_xasprintf("%s: entry %d (%s): error: ", doc->cmd.origin, u->entry, u->path);
}

/* The first clang error of the main file (or any), into r's failure; one
 * without a file (a bad flag) names the database entry whose command holds it. */
static void lsp_result_fail_compile(lsp_result *r, const char *path, const lsp_doc *doc,
                                    const lsp_unit *units, int n_units)
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
    char *flag = first && !first->file ? lsp_flag_origin(doc, units, n_units, first->message)
                                       : tl_xstrdup("");
    r->failure = tl_xasprintf("tensorlint: not analysed: the %s does not compile (%d error%s; "
                              "the first: %s%s%s%s)", units ? "program" : "file", n,
                              n == 1 ? "" : "s", here || !first || !first->file ? "" : first->file,
                              here || !first || !first->file ? "" : ": ", flag,
                              first ? first->message : "?");
    free(flag);
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
        lsp_result_fail_compile(r, doc->cmd.path, doc, NULL, 0);
        return;
    }
    r->report = an_analyze(r->unit, an);
    ck_run_text(r->report, ck, r->text, r->len);
    r->nolint = ck_nolint_scan_text(doc->cmd.path, r->text, r->len);
    lsp_result_collect(r);
}

/* ---- a document of a database's program ---- */

/* The open document of the file at path (resolved), or NULL. */
static const lsp_doc *lsp_open_doc(const lsp_doc *docs, const char *path)
{
    char real[PATH_MAX];
    for (const lsp_doc *d = docs; d; d = d->next)
        if (d->path && (strcmp(d->path, path) == 0 ||
                        (realpath(d->path, real) && strcmp(real, path) == 0)))
            return d;
    return NULL;
}

/* The program's text: its files one after another (open documents' texts
 * for theirs), each ending with a line break; NULL when a file cannot be read. */
static char *lsp_program_text(const ir_unit *u, const fe_program_unit *pu, int n, size_t *len)
{
    char *text = NULL;
    FILE *out = tl_xmemstream(&text, len);
    bool ok = true;
    for (int f = 0; ok && f < u->n_files; f++) {
        const fe_program_unit *mine = NULL;
        for (int k = 0; k < n && !mine; k++)
            mine = strcmp(pu[k].path, u->files[f].path) == 0 ? &pu[k] : NULL;
        char buf[8192];
        size_t got, last = '\n';
        if (mine && mine->text) {
            fwrite(mine->text, 1, mine->len, out);
            last = mine->len ? (unsigned char)mine->text[mine->len - 1] : '\n';
        } else {
            FILE *in = fopen(u->files[f].path, "rb");
            ok = in != NULL;
            while (in && (got = fread(buf, 1, sizeof buf, in)) > 0) {
                fwrite(buf, 1, got, out);
                last = (unsigned char)buf[got - 1];
            }
            if (in)
                fclose(in);
        }
        if (last != '\n')
            fputc('\n', out);
    }
    tl_xmemstream_close(out);
    if (!ok) {
        free(text);
        text = NULL;
    }
    return text;
}

int lsp_result_line(const lsp_result *r, int line)
{
    if (!r->file)
        return line;
    return line > r->line_base && line <= r->line_base + r->n_lines ? line - r->line_base : 0;
}

/* d in the document's own lines (notes in another file name it): into r->local. */
static const an_diag *lsp_result_localise(lsp_result *r, const an_diag *d)
{
    an_diag *c = &r->local[r->n_local++];
    *c = *d;
    c->line = lsp_result_line(r, d->line);
    c->notes = tl_xcalloc((size_t)d->n_notes + 1, sizeof *c->notes);
    c->fixits = tl_xcalloc((size_t)d->n_fixits + 1, sizeof *c->fixits);
    for (int k = 0; k < d->n_notes; k++) {
        const an_note *n = &d->notes[k];
        const char *file = ir_unit_path_at(r->unit, n->line);
        c->notes[k] = (an_note){ir_unit_line_at(r->unit, n->line), n->col, n->message,
                                file && strcmp(file, r->file) != 0 ? file : NULL};
    }
    for (int k = 0; k < d->n_fixits; k++) {
        c->fixits[k] = d->fixits[k];
        c->fixits[k].line = lsp_result_line(r, d->fixits[k].line);
        c->fixits[k].end_line = lsp_result_line(r, d->fixits[k].end_line);
    }
    return c;
}

/* The report's diagnostics in the document's file, in its lines, NOLINT applied. */
static void lsp_result_collect_program(lsp_result *r)
{
    const an_diag *problems = NULL;
    int n_problems = r->nolint ? ck_nolint_problems(r->nolint, &problems) : 0;
    r->diags = tl_xcalloc((size_t)(r->report->n_diags + n_problems) + 1, sizeof *r->diags);
    r->local = tl_xcalloc((size_t)r->report->n_diags + 1, sizeof *r->local);
    for (int k = 0; k < r->report->n_diags; k++) {
        const an_diag *d = &r->report->diags[k];
        if (!d->file || strcmp(d->file, r->file) != 0 || lsp_result_line(r, d->line) == 0)
            continue;
        const an_diag *c = lsp_result_localise(r, d);
        if (c->severity == AN_ERROR || !ck_nolint_suppresses(r->nolint, c))
            r->diags[r->n_diags++] = c;
    }
    for (int k = 0; k < n_problems; k++)
        r->diags[r->n_diags++] = &problems[k];
}

/* The program's files: the document's lines in it, and the checks over its text. */
static void lsp_result_program_checks(lsp_result *r, const fe_program_unit *pu, int n,
                                      const ck_options *ck)
{
    for (int f = 0; f < r->unit->n_files; f++)
        if (strcmp(r->unit->files[f].path, r->file) == 0) {
            r->line_base = r->unit->files[f].line_base;
            r->n_lines = r->unit->files[f].n_lines;
        }
    size_t len;
    char *text = lsp_program_text(r->unit, pu, n, &len);
    if (text)
        ck_run_text(r->report, ck, text, len);
    else
        ck_run(r->report, ck);
    free(text);
    r->nolint = ck_nolint_scan_text(r->file, r->text, r->len);
    lsp_result_collect_program(r);
}

/* Parse (the edited unit and open documents from their texts, the others
 * from their captures), analyse and check the program of units[me].  False,
 * nothing analysed, when the database's units are several programs (two
 * define one external name, as a project's tools and tests each define
 * main), or when the program's IR broke an invariant (FE_ERR_INTERNAL,
 * logged as an error): the document is then analysed alone, as one without
 * a database. */
static bool lsp_result_program(lsp_result *r, lsp_doc *doc, const lsp_doc *docs,
                               const lsp_unit *units, int n, int me, const ck_options *ck,
                               const an_options *an)
{
    fe_program_unit *pu = tl_xcalloc((size_t)n + 1, sizeof *pu);
    for (int k = 0; k < n; k++) {
        const lsp_doc *open = k == me ? NULL : lsp_open_doc(docs, units[k].path);
        pu[k] = (fe_program_unit){units[k].path, units[k].argc,
                                  (const char *const *)units[k].argv,
                                  k == me ? r->text : open ? open->text : NULL,
                                  k == me ? r->len : open ? open->len : 0};
    }
    fe_program_cache cache = {.build_dir = doc->cmd.db_dir};
    int failed = -1;
    fe_status st = fe_parse_program_cached(n, pu, &cache, &r->unit, &failed);
    if (cache.n_write_failed)
        lsp_log(LSP_LOG_ERROR, "%d capture%s not written (%s)", cache.n_write_failed,
                cache.n_write_failed == 1 ? "" : "s", cache.write_error);
    free(cache.write_error);
    r->n_units = n;
    r->n_read = cache.n_read;
    r->n_parsed = cache.n_parsed;
    r->file = units[me].path;
    bool alone = st == FE_ERR_INTERNAL || (st == FE_OK && r->unit->n_link_errors > 0);
    if (st == FE_ERR_INTERNAL)
        lsp_log(LSP_LOG_ERROR, "%s: %s: the program of %s not analysed: analysed alone",
                units[failed].path, fe_status_name(st), units[me].path);
    else if (alone)
        lsp_log(LSP_LOG_INFO, "%s: its database's units are several programs (%d names "
                "defined twice): analysed alone", units[me].path, r->unit->n_link_errors);
    if (alone) {
        ir_unit_free(r->unit);
        r->unit = NULL;
        r->file = NULL;
        r->n_units = 0;
        free(pu);
        return false;
    }
    if (st != FE_OK)
        r->failure = tl_xasprintf("tensorlint: not analysed: %s: %s (%s, entry %d)",
                                  failed >= 0 ? units[failed].path : "?", fe_status_name(st),
                                  doc->cmd.origin, failed >= 0 ? units[failed].entry : 0);
    else if (r->unit->n_errors > 0)
        lsp_result_fail_compile(r, units[me].path, doc, units, n);
    if (!r->failure) {
        r->report = an_analyze(r->unit, an);
        lsp_result_program_checks(r, pu, n, ck);
    }
    free(pu);
    return true;
}

/* Analyse doc with its database's program; false when the database does not
 * list it among its C units, or its units are several programs (analysed
 * alone then). */
static bool lsp_result_run_program(lsp_result *r, lsp_doc *doc, const lsp_doc *docs,
                                   lsp_compdbs *dbs, const ck_options *ck, const an_options *an)
{
    if (!doc->cmd.db_dir || !dbs)
        return false;
    lsp_unit *units;
    int n = lsp_compdb_program(dbs, doc->cmd.db_dir, &units), me = -1;
    char real[PATH_MAX];
    const char *path = realpath(doc->cmd.path, real) ? real : doc->cmd.path;
    for (int k = 0; k < n && me < 0; k++)
        me = strcmp(units[k].path, path) == 0 ? k : -1;
    bool done = me >= 0 && lsp_result_program(r, doc, docs, units, n, me, ck, an);
    if (done)
        r->file = tl_xstrdup(r->file);
    lsp_units_free(units, n);
    return done;
}

lsp_result *lsp_analyse(lsp_doc *doc, const lsp_doc *docs, lsp_compdbs *dbs,
                        const ck_options *ck, const an_options *an)
{
    lsp_result *r = tl_xcalloc(1, sizeof *r);
    r->text = tl_xmalloc(doc->len + 1);
    memcpy(r->text, doc->text, doc->len + 1);
    r->len = doc->len;
    r->version = doc->version;
    double t0 = lsp_now();
    if (doc->cmd.db_problem) /* a malformed database: said on the document, as -p says it */
        r->failure = tl_xasprintf("tensorlint: not analysed: %s", doc->cmd.db_problem);
    else if (!lsp_result_run_program(r, doc, docs, dbs, ck, an))
        lsp_result_run(r, doc, ck, an);
    r->seconds = lsp_now() - t0;
    return r;
}

void lsp_result_free(lsp_result *r)
{
    if (!r)
        return;
    free(r->diags);
    for (int k = 0; k < r->n_local; k++) {
        free(r->local[k].notes);
        free(r->local[k].fixits);
    }
    free(r->local);
    free((char *)r->file);
    ck_nolint_free(r->nolint);
    an_report_free(r->report);
    ir_unit_free(r->unit);
    free(r->failure);
    free(r->text);
    free(r);
}
