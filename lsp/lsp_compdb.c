/*
 * lsp_compdb.c: the compile command of a file, found the way clangd finds
 * it.  With --compile-commands-dir only that directory's database is read.
 * Otherwise the file's directory and each parent are tried in turn, each
 * as itself and with build/ appended; the first directory holding a
 * compile_commands.json is the file's database.  The entry is the one
 * whose file (made absolute against its directory) is the same file;
 * a database that does not list the file, or none at all, gives the
 * fallback arguments (those after `--` on the command line).  CUDA entries
 * are nvcc commands libclang cannot use, so they are never taken.
 *
 * Databases are loaded once per directory and kept (a directory without
 * one is remembered too), so a file reopened costs no reload.
 */
#include "lsp_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fe_compdb.h"

typedef struct lsp_db {
    char *dir;
    fe_compdb *db; /* NULL: none there, or a bad one */
    char *problem; /* a bad one: what is wrong (as `check -p` says it), else NULL */
    struct lsp_db *next;
} lsp_db;

struct lsp_compdbs {
    char *override;
    lsp_db *dbs;
};

lsp_compdbs *lsp_compdbs_new(const char *dir_override)
{
    lsp_compdbs *c = tl_xcalloc(1, sizeof *c);
    c->override = dir_override ? tl_xstrdup(dir_override) : NULL;
    return c;
}

void lsp_compdbs_free(lsp_compdbs *c)
{
    if (!c)
        return;
    for (lsp_db *d = c->dbs, *next; d; d = next) {
        next = d->next;
        fe_compdb_free(d->db);
        free(d->problem);
        free(d->dir);
        free(d);
    }
    free(c->override);
    free(c);
}

/* dir's entry, its database loaded once: db NULL when it has none or a bad one. */
static lsp_db *lsp_db_entry(lsp_compdbs *c, const char *dir)
{
    for (lsp_db *d = c->dbs; d; d = d->next)
        if (strcmp(d->dir, dir) == 0)
            return d;
    lsp_db *d = tl_xcalloc(1, sizeof *d);
    d->dir = tl_xstrdup(dir);
    char *file = tl_xasprintf("%s/compile_commands.json", dir);
    if (access(file, R_OK) == 0) {
        d->problem = fe_compdb_problem(file);
        if (!d->problem && fe_compdb_load(dir, &d->db) != FE_OK)
            d->problem = tl_xasprintf("%s: libclang cannot load it", file);
        if (d->problem)
            lsp_log(LSP_LOG_ERROR, "error: %s", d->problem);
        else
            lsp_log(LSP_LOG_INFO, "loaded %s (%d commands)", file, d->db->n);
    }
    free(file);
    d->next = c->dbs;
    c->dbs = d;
    return d;
}

static fe_compdb *lsp_db_of(lsp_compdbs *c, const char *dir)
{
    return lsp_db_entry(c, dir)->db;
}

static bool lsp_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether cmd compiles the file whose real path is real. */
static bool lsp_cmd_is(const fe_compile_command *cmd, const char *real)
{
    char *abs = cmd->file[0] == '/' ? tl_xstrdup(cmd->file)
                                    : tl_xasprintf("%s/%s", cmd->directory, cmd->file);
    char r[PATH_MAX];
    bool same = strcmp(abs, real) == 0 || (realpath(abs, r) && strcmp(r, real) == 0);
    free(abs);
    return same && !lsp_ends_with(cmd->file, ".cu");
}

/* Fill out from cmd, whose absolute arguments name the file. */
static void lsp_command_take(lsp_command *out, const fe_compile_command *cmd, const char *real,
                             const char *dir)
{
    char **argv = fe_compdb_absolute(cmd);
    out->full_command = true;
    out->argc = cmd->argc;
    out->argv = argv;
    char r[PATH_MAX];
    for (int k = 1; k < cmd->argc && !out->path; k++)
        if (argv[k][0] == '/' && (strcmp(argv[k], real) == 0 ||
                                  (realpath(argv[k], r) && strcmp(r, real) == 0)))
            out->path = tl_xstrdup(argv[k]);
    if (!out->path)
        out->path = tl_xstrdup(real);
    out->origin = tl_xasprintf("%s/compile_commands.json", dir);
    out->db_dir = tl_xstrdup(dir);
}

/* The command for real from dir's database; false when it has none. */
static bool lsp_command_from(lsp_compdbs *c, const char *dir, const char *real, lsp_command *out,
                             bool *found_db)
{
    lsp_db *e = lsp_db_entry(c, dir);
    fe_compdb *db = e->db;
    if (e->problem && !out->db_problem) { /* the nearest database is bad: said, not skipped */
        out->db_problem = tl_xstrdup(e->problem);
        *found_db = true;
    }
    if (!db)
        return false;
    *found_db = true;
    for (int k = 0; k < db->n; k++)
        if (lsp_cmd_is(&db->cmds[k], real)) {
            lsp_command_take(out, &db->cmds[k], real, dir);
            out->entry = k + 1;
            return true;
        }
    lsp_log(LSP_LOG_INFO, "%s/compile_commands.json does not list %s", dir, real);
    return false;
}

/* Search the file's directory and its parents, each also with build/. */
static bool lsp_command_search(lsp_compdbs *c, const char *real, lsp_command *out)
{
    char *dir = tl_xstrdup(real);
    bool found = false, found_db = false;
    for (char *slash; !found && !found_db && (slash = strrchr(dir, '/'));) {
        *slash = '\0';
        const char *d = *dir ? dir : "/";
        char *build = tl_xasprintf("%s/build", *dir ? dir : "");
        found = lsp_command_from(c, d, real, out, &found_db) ||
                (!found_db && lsp_command_from(c, build, real, out, &found_db));
        free(build);
    }
    free(dir);
    return found;
}

void lsp_command_find(lsp_compdbs *c, const char *path, int n_args, const char *const *args,
                      lsp_command *out)
{
    *out = (lsp_command){0};
    char real[PATH_MAX];
    if (!realpath(path, real)) { /* a new file not saved yet */
        snprintf(real, sizeof real, "%s", path);
    }
    bool found_db = false;
    bool found = c->override ? lsp_command_from(c, c->override, real, out, &found_db)
                             : lsp_command_search(c, real, out);
    if (found)
        return;
    char *problem = out->db_problem; /* kept: the document says it */
    out->db_problem = NULL;
    lsp_command_clear(out);
    out->db_problem = problem;
    out->path = tl_xstrdup(path);
    out->argc = n_args;
    out->argv = tl_xcalloc((size_t)n_args + 1, sizeof *out->argv);
    for (int k = 0; k < n_args; k++)
        out->argv[k] = tl_xstrdup(args[k]);
    out->origin = tl_xstrdup(n_args ? "the arguments after --" : "no compile command (no flags)");
}

void lsp_command_clear(lsp_command *c)
{
    for (int k = 0; k < c->argc; k++)
        free(c->argv[k]);
    free(c->argv);
    free(c->path);
    free(c->origin);
    free(c->db_dir);
    free(c->db_problem);
    *c = (lsp_command){0};
}

/* ---- the program of a database ---- */

static int lsp_unit_cmp(const void *a, const void *b)
{
    return strcmp(((const lsp_unit *)a)->path, ((const lsp_unit *)b)->path);
}

int lsp_compdb_program(lsp_compdbs *c, const char *dir, lsp_unit **units)
{
    fe_compdb *db = lsp_db_of(c, dir);
    int n = 0;
    *units = tl_xcalloc((size_t)(db ? db->n : 0) + 1, sizeof **units);
    for (int k = 0; db && k < db->n; k++) {
        const fe_compile_command *cmd = &db->cmds[k];
        char *path = fe_compdb_file_path(cmd);
        bool dup = false;
        for (int j = 0; j < n && !dup; j++)
            dup = strcmp((*units)[j].path, path) == 0;
        if (dup || !lsp_ends_with(path, ".c")) {
            free(path);
            continue;
        }
        (*units)[n++] = (lsp_unit){path, cmd->argc, fe_compdb_absolute(cmd), k + 1};
    }
    qsort(*units, (size_t)n, sizeof **units, lsp_unit_cmp);
    return n;
}

void lsp_units_free(lsp_unit *units, int n)
{
    for (int k = 0; k < n; k++) {
        for (int a = 0; a < units[k].argc; a++)
            free(units[k].argv[a]);
        free(units[k].argv);
        free(units[k].path);
    }
    free(units);
}
