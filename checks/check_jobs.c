/*
 * check_jobs.c: analyse the jobs of `tensorlint check`, in parallel.
 *
 * Each worker thread takes the next job, parses its file (libclang, a new
 * index per parse, so threads share nothing there), runs the interpreter,
 * then the rules, and keeps the diagnostics the options ask for; parsing and
 * analysis share no state between threads.  A -p command is parsed with its paths made absolute and no
 * working directory (libclang's -working-directory would change the
 * directory of the whole process under the other threads).  Results land
 * in the job; the caller prints them in job order, so the output does not
 * depend on the schedule.
 */
#include "check_driver.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rp_report.h"
#include "cli.h"
#include "fe_compdb.h"
#include "fe_program.h"
#include "frontend.h"

typedef struct ck_pool {
    ck_job *jobs;
    int n_jobs, next, done;
    const ck_job_options *o;
    bool progress;
    pthread_mutex_t lock;     /* next, done, the progress line */
} ck_pool;

/* clang's errors of a unit that does not compile, as one string. */
static char *ck_clang_errors(const ir_unit *u, const ck_job *jobs, int n_jobs)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = tl_xmemstream(&text, &len);
    int n = cli_print_clang_diags_of(f, u, IR_SEV_WARNING, jobs, n_jobs);
    tl_xmemstream_close(f);
    if (n == 0) {
        free(text);
        return NULL;
    }
    return text;
}

static fe_status ck_parse(const ck_job *j, ir_unit **u)
{
    if (j->text)
        return cli_parse_text(j->path, j->text, j->text_len, j->argc, j->argv, u);
    if (j->full_command)
        return fe_parse_command(j->path, NULL, j->argc, j->argv, u); /* paths absolute */
    return fe_parse_file(j->path, j->argc, j->argv, u);
}

/* A deep copy of d into the job, its file the job's path. */
static void ck_keep(ck_job *j, const an_diag *d, bool promote, const ir_unit *program)
{
    an_diag *c = &j->diags[j->n_diags];
    const ir_unit *u = program; /* NULL: a file's report, its lines its own */
    *c = *d;
    c->file = j->path;
    c->line = u ? ir_unit_line_at(u, d->line) : d->line;
    c->message = tl_xstrdup(d->message);
    c->notes = d->n_notes ? tl_xcalloc((size_t)d->n_notes, sizeof *c->notes) : NULL;
    c->fixits = d->n_fixits ? tl_xcalloc((size_t)d->n_fixits, sizeof *c->fixits) : NULL;
    for (int k = 0; k < d->n_notes; k++) {
        const an_note *n = &d->notes[k];
        c->notes[k] = (an_note){u ? ir_unit_line_at(u, n->line) : n->line, n->col,
                                tl_xstrdup(n->message), u ? ir_unit_path_at(u, n->line) : NULL};
    }
    for (int k = 0; k < d->n_fixits; k++) {
        c->fixits[k] = d->fixits[k];
        c->fixits[k].text = tl_xstrdup(d->fixits[k].text);
        if (u) {
            c->fixits[k].line = ir_unit_line_at(u, d->fixits[k].line);
            c->fixits[k].end_line = ir_unit_line_at(u, d->fixits[k].end_line);
        }
    }
    if (promote)
        c->severity = AN_ERROR;
    j->promoted[j->n_diags++] = promote;
}

/* Whether d is reported: an enabled check (errors always) not suppressed. */
static bool ck_wanted(const ck_job_options *o, const ck_nolint *nl, const an_diag *d, int id)
{
    if (d->severity == AN_ERROR)
        return true;
    return (id < 0 || o->enabled[id]) && !ck_nolint_suppresses(nl, d);
}

typedef struct ck_kept {
    an_diag d;
    bool promoted;
} ck_kept;

static int ck_cmp_kept(const void *a, const void *b)
{
    const an_diag *x = &((const ck_kept *)a)->d, *y = &((const ck_kept *)b)->d;
    if (x->line != y->line)
        return x->line - y->line;
    if (x->col != y->col)
        return x->col - y->col;
    return strcmp(x->check, y->check);
}

/* Sort the job's diagnostics by line, column and check, flags alongside. */
static void ck_sort(ck_job *j)
{
    ck_kept *kept = tl_xcalloc((size_t)j->n_diags + 1, sizeof *kept);
    for (int k = 0; k < j->n_diags; k++)
        kept[k] = (ck_kept){j->diags[k], j->promoted[k]};
    qsort(kept, (size_t)j->n_diags, sizeof *kept, ck_cmp_kept);
    for (int k = 0; k < j->n_diags; k++) {
        j->diags[k] = kept[k].d;
        j->promoted[k] = kept[k].promoted;
    }
    free(kept);
}

/* Keep what the options ask for: the report's diagnostics and the NOLINT
 * comments' own problems, sorted. */
static void ck_collect(ck_job *j, const ck_job_options *o, const an_report *r,
                       const ir_unit *program)
{
    ck_nolint *nl = j->text ? ck_nolint_scan_text(j->path, j->text, j->text_len)
                            : ck_nolint_scan(j->path);
    const an_diag *problems;
    int n_problems = ck_nolint_problems(nl, &problems);
    j->diags = tl_xcalloc((size_t)(r->n_diags + n_problems) + 1, sizeof *j->diags);
    j->promoted = tl_xcalloc((size_t)(r->n_diags + n_problems) + 1, sizeof(bool));
    for (int k = 0; k < r->n_diags + n_problems; k++) {
        bool mine = k >= r->n_diags;
        const an_diag *d = mine ? &problems[k - r->n_diags] : &r->diags[k];
        an_diag local = *d; /* in a program: its line in its file, for NOLINT */
        if (program && !mine && strcmp(d->file, j->path) != 0)
            continue; /* another file's */
        if (program && !mine)
            local.line = ir_unit_line_at(program, d->line);
        int id = ck_find(d->check);
        if (ck_wanted(o, nl, &local, id))
            ck_keep(j, d, d->severity == AN_WARNING && id >= 0 && o->as_error[id],
                    mine ? NULL : program);
    }
    ck_nolint_free(nl);
    ck_sort(j);
}

static void ck_job_analyse(ck_pool *p, ck_job *j)
{
    ir_unit *u = NULL;
    if (j->skip_reason) {
        j->failed = true;
        j->failure = tl_xstrdup(j->skip_reason);
        return;
    }
    fe_status st = ck_parse(j, &u);
    if (st != FE_OK) {
        j->failed = true;
        j->failure = tl_xasprintf("%s: %s", j->path, fe_status_name(st));
        return;
    }
    j->clang_errors = ck_clang_errors(u, j, 1); /* clang's warnings too, as clang-tidy shows them */
    if (u->n_errors > 0) {
        j->failed = true;
        j->failure = tl_xasprintf("%s does not compile (%d error%s); not analysed", j->path,
                                  u->n_errors, u->n_errors == 1 ? "" : "s");
        ir_unit_free(u);
        return;
    }
    an_report *r = an_analyze(u, &p->o->an);
    ck_options ck = p->o->ck;
    ck.enabled = p->o->enabled;
    ck_run(r, &ck);
    j->has_budget_function = tl_xcalloc((size_t)ck.n_budgets + 1, sizeof(bool));
    for (int k = 0; k < ck.n_budgets; k++)
        j->has_budget_function[k] = an_report_func(r, ck.budgets[k].function) != NULL;
    if (p->o->baseline)
        j->base = ck_baseline_compare(p->o->baseline, r, j->path, p->o->regression_min_bytes,
                                      p->o->enabled);
    ck_collect(j, p->o, r, NULL);
    if (j->base)
        ck_baseline_states(j->base, j->diags, j->n_diags, p->o->enabled);
    an_report_free(r);
    ir_unit_free(u);
}

static void ck_progress(ck_pool *p, const ck_job *j)
{
    p->done++;
    if (p->progress)
        fprintf(stderr, "\r[%d/%d] %s\033[K", p->done, p->n_jobs, j->path);
}

static void *ck_worker(void *arg)
{
    ck_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int k = p->next < p->n_jobs ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (k < 0)
            return NULL;
        ck_job_analyse(p, &p->jobs[k]);
        pthread_mutex_lock(&p->lock);
        ck_progress(p, &p->jobs[k]);
        pthread_mutex_unlock(&p->lock);
    }
}

void ck_jobs_run(ck_job *jobs, int n_jobs, int n_threads, const ck_job_options *o, bool progress)
{
    ck_pool p = {.jobs = jobs, .n_jobs = n_jobs, .o = o, .progress = progress};
    pthread_t *threads = tl_xcalloc((size_t)n_threads + 1, sizeof *threads);
    int started = 0;
    pthread_mutex_init(&p.lock, NULL);
    (void)fe_include_dir(); /* its lazy initialisation is not thread-safe */
    if (n_threads > n_jobs)
        n_threads = n_jobs;
    for (int k = 1; k < n_threads; k++)
        if (pthread_create(&threads[started], NULL, ck_worker, &p) == 0)
            started++;
    ck_worker(&p); /* this thread works too */
    for (int k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    if (progress && n_jobs > 0)
        fprintf(stderr, "\r\033[K");
    pthread_mutex_destroy(&p.lock);
    free(threads);
}

void ck_job_clear(ck_job *j)
{
    for (int k = 0; k < j->n_diags; k++) {
        an_diag *d = &j->diags[k];
        free(d->message);
        for (int n = 0; n < d->n_notes; n++)
            free(d->notes[n].message);
        free(d->notes);
        for (int n = 0; n < d->n_fixits; n++)
            free(d->fixits[n].text);
        free(d->fixits);
    }
    free(j->diags);
    free(j->promoted);
    ck_base_result_free(j->base);
    j->base = NULL;
    free(j->has_budget_function);
    j->has_budget_function = NULL;
    free(j->failure);
    free(j->clang_errors);
    free(j->path);
    free(j->skip_reason);
    fe_compdb_argv_free(j->owned_argv, j->argc);
    j->owned_argv = NULL;
    j->path = j->skip_reason = NULL;
    j->diags = NULL;
    j->promoted = NULL;
    j->failure = j->clang_errors = NULL;
    j->n_diags = 0;
}

/* The jobs as one program: every file's failure fails them all (a program
 * that cannot be read or does not link is not analysed); else each job keeps
 * the program's diagnostics in its file. */
static bool ck_program_failed(ck_job *jobs, int n_jobs, const char *why)
{
    for (int k = 0; k < n_jobs; k++) {
        jobs[k].failed = true;
        jobs[k].failure = tl_xstrdup(why);
    }
    return false;
}

static bool ck_program_parse(ck_job *jobs, int n_jobs, ir_unit **u)
{
    for (int k = 0; k < n_jobs; k++)
        if (jobs[k].skip_reason)
            return ck_program_failed(jobs, n_jobs, jobs[k].skip_reason);
    fe_program_unit *units = tl_xcalloc((size_t)n_jobs + 1, sizeof *units);
    for (int k = 0; k < n_jobs; k++)
        units[k] = (fe_program_unit){jobs[k].path, jobs[k].argc, jobs[k].argv};
    int failed;
    fe_status st = fe_parse_program(n_jobs, units, u, &failed);
    free(units);
    if (st != FE_OK) {
        char *why = tl_xasprintf("%s: %s", jobs[failed].path, fe_status_name(st));
        ck_program_failed(jobs, n_jobs, why);
        free(why);
        return false;
    }
    if (n_jobs > 0)
        jobs[0].clang_errors = ck_clang_errors(*u, jobs, n_jobs);
    if ((*u)->n_errors == 0)
        return true;
    char *why = tl_xasprintf("the program does not compile or link (%d error%s); not analysed",
                             (*u)->n_errors, (*u)->n_errors == 1 ? "" : "s");
    ck_program_failed(jobs, n_jobs, why);
    free(why);
    ir_unit_free(*u);
    *u = NULL;
    return false;
}

/* Notes' files point into the program's unit: make them the jobs' paths
 * (the same files), which outlive it. */
static void ck_program_note_files(ck_job *jobs, int n_jobs)
{
    for (int k = 0; k < n_jobs; k++)
        for (int d = 0; d < jobs[k].n_diags; d++)
            for (int n = 0; n < jobs[k].diags[d].n_notes; n++) {
                an_note *note = &jobs[k].diags[d].notes[n];
                const char *same = NULL;
                for (int m = 0; note->file && m < n_jobs && !same; m++)
                    same = strcmp(jobs[m].path, note->file) == 0 ? jobs[m].path : NULL;
                note->file = same && same != jobs[k].path ? same : NULL;
            }
}

void ck_program_run(ck_job *jobs, int n_jobs, const ck_job_options *o)
{
    ir_unit *u = NULL;
    if (!ck_program_parse(jobs, n_jobs, &u))
        return;
    an_report *r = an_analyze(u, &o->an);
    ck_options ck = o->ck;
    ck.enabled = o->enabled;
    ck_run(r, &ck);
    for (int k = 0; k < n_jobs; k++) {
        jobs[k].has_budget_function = tl_xcalloc((size_t)ck.n_budgets + 1, sizeof(bool));
        for (int b = 0; k == 0 && b < ck.n_budgets; b++) /* the program's, said once */
            jobs[k].has_budget_function[b] = an_report_func(r, ck.budgets[b].function) != NULL;
        ck_collect(&jobs[k], o, r, u);
    }
    ck_program_note_files(jobs, n_jobs);
    an_report_free(r);
    ir_unit_free(u);
}
