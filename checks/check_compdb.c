/*
 * check_compdb.c: the jobs of `tensorlint check -p BUILD_DIR [FILE...]`,
 * and the units of the other commands' -p (cli_program.c).
 *
 * The database is first read with Jansson (fe_compdb_problem, the words
 * the language server uses too), only to say precisely what is wrong with a
 * bad one (missing, not JSON, not an array, empty, an entry
 * without "directory", "file" or a command); the commands themselves come
 * from libclang's compilation-database API (frontend/fe_compdb.c).  Every
 * C entry becomes a job with its own flags; CUDA (.cu) and other non-C
 * entries are skipped, as are repeats of a file already taken.  A file the
 * database names but the disk lacks, or a FILE asked for that the database
 * lacks, becomes a failed job: reported, the rest analysed, exit 2.
 */
#include "check_driver.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe_compdb.h"
#include "xalloc.h"

typedef struct ck_cdb {
    fe_compdb *db; /* the jobs' directories and commands point into it */
    char *path;    /* BUILD_DIR/compile_commands.json: the jobs' database */
} ck_cdb;

/* Check the database's shape (fe_compdb_problem); 0, or 2 after printing why. */
static int ck_cdb_validate(const char *cmd, const char *build_dir, const char *path)
{
    struct stat st;
    if (stat(build_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tensorlint %s: error: %s: no such build directory\n", cmd, build_dir);
        return 2;
    }
    if (stat(path, &st) != 0) {
        fprintf(stderr, "tensorlint %s: error: %s: no such file (configure the build with "
                "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or run bear)\n", cmd, path);
        return 2;
    }
    char *why = fe_compdb_problem(path);
    if (!why)
        return 0;
    fprintf(stderr, "tensorlint %s: error: %s\n", cmd, why);
    free(why);
    return 2;
}

static bool ck_cdb_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether FILE (one of files) names path. */
static int ck_cdb_named(char **files, int n_files, const char *path)
{
    char real[PATH_MAX];
    for (int k = 0; k < n_files; k++)
        if (realpath(files[k], real) && strcmp(real, path) == 0)
            return k;
    return -1;
}

static ck_job *ck_cdb_push(ck_job **jobs, int *n)
{
    *jobs = tl_xrealloc(*jobs, sizeof **jobs * (size_t)(*n + 1));
    ck_job *j = &(*jobs)[(*n)++];
    memset(j, 0, sizeof *j);
    return j;
}

/* A job per C entry (the named ones when files are given). */
static void ck_cdb_make_jobs(const char *cmd, ck_cdb *cdb, char **files, int n_files, bool *found,
                             ck_job **jobs, int *n_jobs)
{
    for (int k = 0; k < cdb->db->n; k++) {
        const fe_compile_command *c = &cdb->db->cmds[k];
        char *path = fe_compdb_file_path(c);
        int named = ck_cdb_named(files, n_files, path);
        bool dup = false;
        for (int j = 0; j < *n_jobs && !dup; j++)
            dup = strcmp((*jobs)[j].path, path) == 0;
        if (!ck_cdb_ends_with(path, ".c") || dup || (n_files > 0 && named < 0)) {
            if (named >= 0 && ck_cdb_ends_with(path, ".cu"))
                fprintf(stderr, "tensorlint %s: %s: CUDA source skipped (nvcc commands are not "
                        "parsed)\n", cmd, files[named]);
            if (named >= 0)
                found[named] = true;
            free(path);
            continue;
        }
        if (named >= 0)
            found[named] = true;
        ck_job *j = ck_cdb_push(jobs, n_jobs);
        j->path = path;
        j->owned_argv = fe_compdb_absolute(c);
        j->argc = c->argc;
        j->argv = (const char *const *)j->owned_argv;
        j->full_command = true;
        j->database = cdb->path;
        j->entry = k + 1;
        if (access(path, R_OK) != 0)
            j->skip_reason = tl_xasprintf("%s: no such file (named by the compilation "
                                          "database): %s, entry %d", path, cdb->path, k + 1);
    }
}

static int ck_cdb_cmp(const void *a, const void *b)
{
    return strcmp(((const ck_job *)a)->path, ((const ck_job *)b)->path);
}

int ck_compdb_jobs(const char *cmd, const char *build_dir, char **files, int n_files,
                   ck_job **jobs, int *n_jobs, void **owner)
{
    char *path = tl_xasprintf("%s/compile_commands.json", build_dir);
    int rc = ck_cdb_validate(cmd, build_dir, path);
    ck_cdb *cdb = tl_xcalloc(1, sizeof *cdb);
    cdb->path = path;
    *jobs = NULL;
    *n_jobs = 0;
    *owner = cdb;
    if (rc == 0 && fe_compdb_load(build_dir, &cdb->db) != FE_OK) {
        fprintf(stderr, "tensorlint %s: error: %s: libclang cannot load it\n", cmd, path);
        rc = 2;
    }
    bool *found = tl_xcalloc((size_t)n_files + 1, sizeof *found);
    if (rc == 0)
        ck_cdb_make_jobs(cmd, cdb, files, n_files, found, jobs, n_jobs);
    for (int k = 0; rc == 0 && k < n_files; k++) {
        if (found[k])
            continue;
        ck_job *j = ck_cdb_push(jobs, n_jobs);
        j->path = tl_xstrdup(files[k]);
        j->skip_reason = tl_xasprintf("%s: not in %s", files[k], path);
    }
    if (rc == 0 && *n_jobs > 1)
        qsort(*jobs, (size_t)*n_jobs, sizeof **jobs, ck_cdb_cmp);
    free(found);
    return rc;
}

void ck_compdb_free(void *owner)
{
    ck_cdb *cdb = owner;
    if (!cdb)
        return;
    fe_compdb_free(cdb->db);
    free(cdb->path);
    free(cdb);
}
