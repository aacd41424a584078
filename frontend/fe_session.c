/*
 * fe_session.c: a translation unit kept for reparsing (fe_session.h).
 *
 * Approach: the first parse uses libclang's editing options (a precompiled
 * preamble built on that first parse, KeepGoing so a file with errors
 * still yields an AST); later parses call clang_reparseTranslationUnit with
 * the new text as the main file's unsaved contents, which reuses the
 * preamble while the #include lines at the top do not change.  Lowering is
 * fe_build's, the same as a one-shot parse, so the unit is identical to
 * what `tensorlint check` makes of the same text.
 *
 * Invariant: s->tu is NULL or a unit that parsed; s->args is a
 * NULL-terminated copy of the arguments plus the project's include
 * directory, kept for the session's life (libclang may keep pointers).
 */
#include "fe_internal.h"
#include "fe_session.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fe_session {
    char *path;
    bool full_command;
    int n_args;
    char **args;     /* n_args, then NULL */
    CXIndex idx;
    CXTranslationUnit tu;
};

fe_session *fe_session_new(const char *path, int argc, const char *const *argv, bool full_command)
{
    fe_session *s = tl_xcalloc(1, sizeof *s);
    const char *inc = fe_include_dir();
    s->path = tl_xstrdup(path);
    s->full_command = full_command;
    s->args = tl_xcalloc((size_t)argc + 3, sizeof *s->args);
    for (int k = 0; k < argc; k++)
        s->args[s->n_args++] = tl_xstrdup(argv[k]);
    if (inc) {
        s->args[s->n_args++] = tl_xstrdup("-isystem");
        s->args[s->n_args++] = tl_xstrdup(inc);
    }
    return s;
}

bool fe_session_is_warm(const fe_session *s)
{
    return s->tu != NULL;
}

static double fe_session_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fe_session_drop(fe_session *s)
{
    if (s->tu)
        clang_disposeTranslationUnit(s->tu);
    if (s->idx)
        clang_disposeIndex(s->idx);
    s->tu = NULL;
    s->idx = NULL;
}

/* The first parse, with a preamble; CXError_Success or libclang's error. */
static enum CXErrorCode fe_session_first(fe_session *s, struct CXUnsavedFile *file)
{
    unsigned opts = clang_defaultEditingTranslationUnitOptions() |
                    CXTranslationUnit_CreatePreambleOnFirstParse | CXTranslationUnit_KeepGoing;
    const char *const *args = (const char *const *)s->args;
    s->idx = clang_createIndex(0, 0);
    if (!s->idx)
        return CXError_Failure;
    if (s->full_command)
        return clang_parseTranslationUnit2FullArgv(s->idx, NULL, args, s->n_args, file, 1, opts,
                                                   &s->tu);
    return clang_parseTranslationUnit2(s->idx, s->path, args, s->n_args, file, 1, opts, &s->tu);
}

typedef struct fe_session_job {
    fe_session *s;
    const char *text;
    size_t len;
    ir_unit **out;
    fe_status st;
} fe_session_job;

static fe_status fe_session_parse_here(fe_session *s, const char *text, size_t len, ir_unit **out);

static void fe_session_job_run(void *data)
{
    fe_session_job *j = data;
    j->st = fe_session_parse_here(j->s, j->text, j->len, j->out);
}

/* On a deep stack, as a one-shot parse (tl_run_deep). */
fe_status fe_session_parse(fe_session *s, const char *text, size_t len, ir_unit **out)
{
    fe_session_job j = {s, text, len, out, FE_OK};
    tl_run_deep(fe_session_job_run, &j);
    return j.st;
}

static fe_status fe_session_parse_here(fe_session *s, const char *text, size_t len, ir_unit **out)
{
    *out = NULL;
    struct CXUnsavedFile file = {s->path, text, (unsigned long)len};
    double t0 = fe_session_now();
    int rc;
    if (s->tu)
        rc = clang_reparseTranslationUnit(s->tu, 1, &file, clang_defaultReparseOptions(s->tu));
    else
        rc = fe_session_first(s, &file);
    if (rc != CXError_Success) {
        fe_session_drop(s); /* a failed reparse leaves the unit unusable */
        return FE_ERR_LIBCLANG;
    }
    return fe_build(s->tu, s->path, fe_session_now() - t0, out);
}

void fe_session_free(fe_session *s)
{
    if (!s)
        return;
    fe_session_drop(s);
    for (int k = 0; k < s->n_args; k++)
        free(s->args[k]);
    free(s->args);
    free(s->path);
    free(s);
}
