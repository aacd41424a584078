/*
 * check_driver.h: what `tensorlint check` (cmd_check.c) shares with its
 * helpers: a job per source file, the parallel runner that analyses the
 * jobs (check_jobs.c), and the jobs made from a compilation database
 * (check_compdb.c).
 *
 * A job owns its results: the diagnostics to report (filtered by --checks
 * and NOLINT, warnings promoted by --warnings-as-errors, sorted), or why
 * the file could not be analysed.  Jobs are independent; the runner writes
 * each job only from the thread that took it.
 */
#ifndef TL_CHECK_DRIVER_H
#define TL_CHECK_DRIVER_H

#include <stdbool.h>

#include "check.h"

typedef struct ck_job_options {
    an_options an;
    ck_options ck;
    bool enabled[CK_N_CHECKS];  /* --checks */
    bool as_error[CK_N_CHECKS]; /* --warnings-as-errors */
    const ck_baseline *baseline; /* --baseline, or NULL */
    int64_t regression_min_bytes; /* bytes: smallest peak growth that warns */
} ck_job_options;

typedef struct ck_job {
    /* input */
    char *path;                /* the source file, as reported (owned) */
    int argc;
    const char *const *argv;   /* -p: the full command (argv[0] the compiler); else the
                                  compiler arguments after "--" */
    bool full_command;
    char **owned_argv;         /* -p: argv, owned (paths made absolute) */
    char *skip_reason;         /* set before running: not analysed, and why (owned) */
    const char *text;          /* FILE "-": standard input's text (path "<stdin>"), else NULL */
    size_t text_len;           /* bytes */
    const char *database;      /* -p: the compile_commands.json it comes from, else NULL */
    int entry;                 /* -p: its entry in the database, from 1 */
    /* output */
    bool failed;
    char *failure;             /* one line: why the file was not analysed */
    char *clang_errors;        /* clang's errors, clang style, or NULL */
    int n_diags;
    an_diag *diags;            /* owned; file == path */
    bool *promoted;            /* per diag: a warning made an error */
    ck_base_result *base;      /* against --baseline: each diag's state (owned), or NULL */
    bool *has_budget_function; /* per --budget: the file defines that function (owned) */
} ck_job;

/* Analyse every job with n_threads threads (one libclang index per parse);
 * a progress line on stderr when progress is set. */
void ck_jobs_run(ck_job *jobs, int n_jobs, int n_threads, const ck_job_options *o, bool progress);
/* The jobs (-p --program) as one program, analysed on this thread: each job
 * keeps the diagnostics in its file, lines its own (notes may name another
 * file); a job that cannot be read, or a program that does not compile or
 * link, fails them all. */
void ck_program_run(ck_job *jobs, int n_jobs, const ck_job_options *o);
/* Free what the job owns (results, path, skip reason). */
void ck_job_clear(ck_job *j);

/* Jobs for the C entries of build_dir/compile_commands.json (only those of
 * files[0..n_files) when n_files > 0), sorted by path.  Problems with the
 * database as a whole are printed and 2 returned; problems with one entry
 * (a file that does not exist, a named file the database lacks) become
 * failed jobs.  Messages start "tensorlint CMD:"; each job names its entry
 * (database, entry), and the database stays allocated until
 * ck_compdb_free(*owner).  0 on success. */
int ck_compdb_jobs(const char *cmd, const char *build_dir, char **files, int n_files,
                   ck_job **jobs, int *n_jobs, void **owner);
void ck_compdb_free(void *owner);

#endif /* TL_CHECK_DRIVER_H */
