/*
 * fe_compdb.c: read a compilation database with libclang
 * (clang_CompilationDatabase_fromDirectory, getAllCompileCommands) and copy
 * every command out of libclang's strings, so callers never see libclang.
 * Only the commands the database holds are returned: libclang's inference
 * of commands for files it does not list is never asked for.  libclang
 * only fails on a malformed database: its shape is checked first with
 * Jansson (fe_compdb_problem) to say what is wrong and where.
 */
#include "fe_compdb.h"

#include <clang-c/CXCompilationDatabase.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

/* A copy of s, disposed. */
static char *fe_cdb_take(CXString s)
{
    char *copy = tl_xstrdup(clang_getCString(s)); /* "" for NULL */
    clang_disposeString(s);
    return copy;
}

static void fe_cdb_copy(CXCompileCommand c, fe_compile_command *out)
{
    unsigned n = clang_CompileCommand_getNumArgs(c);
    out->directory = fe_cdb_take(clang_CompileCommand_getDirectory(c));
    out->file = fe_cdb_take(clang_CompileCommand_getFilename(c));
    out->argv = tl_xcalloc((size_t)n + 1, sizeof *out->argv);
    for (unsigned k = 0; k < n; k++)
        out->argv[out->argc++] = fe_cdb_take(clang_CompileCommand_getArg(c, k));
}

fe_status fe_compdb_load(const char *build_dir, fe_compdb **out)
{
    CXCompilationDatabase_Error err;
    *out = NULL;
    CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(build_dir, &err);
    if (err != CXCompilationDatabase_NoError || !db)
        return FE_ERR_NO_FILE;
    CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
    fe_compdb *cdb = tl_xcalloc(1, sizeof *cdb);
    cdb->cmds = tl_xcalloc((size_t)n + 1, sizeof *cdb->cmds);
    for (unsigned k = 0; k < n; k++, cdb->n++)
        fe_cdb_copy(clang_CompileCommands_getCommand(cmds, k), &cdb->cmds[k]);
    if (cmds)
        clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    *out = cdb;
    return FE_OK;
}

/* The flags whose value is a path (joined, as in -Iinc, or the next argument). */
static const char *const fe_cdb_path_flags[] = {
    "-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-isysroot",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "--sysroot=", "-F", "-cxx-isystem"};

#define FE_CDB_N_PATH_FLAGS (int)(sizeof fe_cdb_path_flags / sizeof fe_cdb_path_flags[0])

/* dir/path when path is relative, else a copy of path. */
static char *fe_cdb_join(const char *dir, const char *path)
{
    if (path[0] == '/' || path[0] == '\0')
        return tl_xstrdup(path);
    return tl_xasprintf("%s/%s", dir, path);
}

/* Whether dir/arg names an existing file (a bare argument that is a path). */
static bool fe_cdb_exists(const char *dir, const char *arg)
{
    char *p = fe_cdb_join(dir, arg);
    bool ok = access(p, F_OK) == 0;
    free(p);
    return ok;
}

/* arg made absolute: the value of a path flag, a joined path flag, or a bare
 * argument that names a file (the source file). */
static char *fe_cdb_absolute_arg(const char *dir, const char *arg, bool value_of_flag)
{
    if (value_of_flag || (arg[0] != '-' && fe_cdb_exists(dir, arg)))
        return fe_cdb_join(dir, arg);
    for (int k = 0; k < FE_CDB_N_PATH_FLAGS; k++) {
        size_t n = strlen(fe_cdb_path_flags[k]);
        if (strncmp(arg, fe_cdb_path_flags[k], n) == 0 && arg[n] != '\0' &&
            (n == 2 || fe_cdb_path_flags[k][n - 1] == '=')) {
            char *rest = fe_cdb_join(dir, arg + n);
            char *p = tl_xasprintf("%.*s%s", (int)n, arg, rest);
            free(rest);
            return p;
        }
    }
    return tl_xstrdup(arg);
}

static bool fe_cdb_takes_path(const char *arg)
{
    for (int k = 0; k < FE_CDB_N_PATH_FLAGS; k++)
        if (strcmp(arg, fe_cdb_path_flags[k]) == 0)
            return true;
    return strcmp(arg, "-o") == 0 || strcmp(arg, "-MF") == 0 || strcmp(arg, "-MT") == 0 ||
           strcmp(arg, "-MQ") == 0;
}

char **fe_compdb_absolute(const fe_compile_command *c)
{
    char **argv = tl_xcalloc((size_t)c->argc + 1, sizeof *argv);
    for (int k = 0; k < c->argc; k++) {
        bool value = k > 0 && fe_cdb_takes_path(c->argv[k - 1]);
        argv[k] = k == 0 ? tl_xstrdup(c->argv[0])
                         : fe_cdb_absolute_arg(c->directory, c->argv[k], value);
    }
    return argv;
}

void fe_compdb_argv_free(char **argv, int argc)
{
    for (int k = 0; argv && k < argc; k++)
        free(argv[k]);
    free(argv);
}

void fe_compdb_free(fe_compdb *db)
{
    if (!db)
        return;
    for (int k = 0; k < db->n; k++) {
        fe_compile_command *c = &db->cmds[k];
        free(c->directory);
        free(c->file);
        for (int a = 0; c->argv && a < c->argc; a++)
            free(c->argv[a]);
        free(c->argv);
    }
    free(db->cmds);
    free(db);
}

/* One entry's shape; NULL when fine, else what is wrong. */
static const char *fe_cdb_entry_problem(const json_t *e)
{
    if (!json_is_object(e))
        return "is not an object";
    if (!json_is_string(json_object_get(e, "directory")))
        return "has no \"directory\" string";
    if (!json_is_string(json_object_get(e, "file")))
        return "has no \"file\" string";
    if (!json_is_string(json_object_get(e, "command")) &&
        !json_is_array(json_object_get(e, "arguments")))
        return "has neither a \"command\" string nor an \"arguments\" array";
    return NULL;
}

char *fe_compdb_problem(const char *file)
{
    json_error_t err;
    json_t *db = json_load_file(file, 0, &err);
    if (!db)
        return tl_xasprintf("%s:%d:%d: not a valid compilation database: %s", file, err.line,
                            err.column, err.text);
    char *why = NULL;
    if (!json_is_array(db) || json_array_size(db) == 0)
        why = tl_xasprintf("%s: %s", file, json_is_array(db)
                                               ? "no compile commands in it"
                                               : "expected a JSON array of compile commands");
    for (size_t k = 0; !why && k < json_array_size(db); k++) {
        const json_t *e = json_array_get(db, k);
        const char *bad = fe_cdb_entry_problem(e), *src = json_string_value(json_object_get(e, "file"));
        if (bad && src)
            why = tl_xasprintf("%s: entry %zu (%s) %s", file, k + 1, src, bad);
        else if (bad)
            why = tl_xasprintf("%s: entry %zu %s", file, k + 1, bad);
    }
    json_decref(db);
    return why;
}

char *fe_compdb_file_path(const fe_compile_command *c)
{
    char real[PATH_MAX];
    char *joined = c->file[0] == '/' ? tl_xstrdup(c->file)
                                     : tl_xasprintf("%s/%s", c->directory, c->file);
    if (!realpath(joined, real))
        return joined;
    free(joined);
    return tl_xstrdup(real);
}
