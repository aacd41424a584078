/*
 * cmd_check.c: `tensorlint check [options] FILE... [-- compiler args]` and
 * `tensorlint check [options] -p BUILD_DIR [FILE...]`.
 *
 * Analyses each file (in parallel: check_jobs.c), runs the checks, keeps
 * what --checks and NOLINT comments allow, promotes --warnings-as-errors,
 * and prints clang-style diagnostics with parseable fix-its on stderr
 * (text) or one SARIF 2.1.0 log on stdout (sarif), files in a fixed order
 * (as given, or sorted by path for -p), each file's diagnostics sorted.
 * With --baseline, the text shows only what is new against the base's
 * report and one summary line; SARIF marks each result new, unchanged or
 * absent (check_baseline.c).
 * Exit: 0 no errors; 1 errors (or promoted warnings); 2 usage, a bad
 * compilation database or baseline, or a file that could not be analysed.
 */
#define _GNU_SOURCE /* asprintf */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_driver.h"
#include "cli.h"
#include "frontend.h"

#ifndef TL_VERSION
#define TL_VERSION "0"
#endif

static const cli_command check_command = {
    .name = "check",
    .bit = CLI_CMD_CHECK,
    .usage = "usage: tensorlint check [options] FILE... [-- compiler args]\n"
             "       tensorlint check [options] -p BUILD_DIR [FILE...]\n",
    .about = "Warn where a program pays for memory or traffic it did not need, and\n"
             "report the errors PyTorch would raise.  Diagnostics go to stderr, clang\n"
             "style, with parseable fix-its; --format=sarif writes a SARIF 2.1.0 log.\n"
             "A FILE of - is standard input, named <stdin> in the diagnostics.\n",
    .notes = "BYTES: a number, optionally with K, KiB, M, MiB, G or GiB (binary units).\n"
             "Suppress one line with // NOLINT or // NOLINT(check,...), the next with\n"
             "// NOLINTNEXTLINE(...), a region with // NOLINTBEGIN(...) ... // NOLINTEND(...).\n"
             "\n"
             "exit status: 0 no errors; 1 errors, or warnings under --warnings-as-errors;\n"
             "2 usage error, bad compilation database or baseline, or a file not analysed.\n"
             "With --baseline, a warning made an error fails only when it is new.\n",
};

typedef struct check_opts {
    const char *format, *output, *srcroot, *doc_url, *build_dir;
    const char *checks, *as_errors;
    const char *color;          /* --color: auto, always or never */
    char *stdin_text;           /* FILE "-": standard input (owned) */
    int64_t jobs;
    bool list;
    bool program;               /* --program: the database's units are one program */
    ck_job_options job;
    int n_budgets, n_baselines;
    ck_budget *budgets;        /* --budget, function names point into argv */
    const char **baselines;    /* --baseline paths */
} check_opts;

/* "1048576", "1MiB", "64K": binary units.  Prints an error when false. */
static bool parse_bytes(const char *s, int64_t *out)
{
    static const struct { const char *suffix; int shift; } units[] = {
        {"", 0}, {"K", 10}, {"KiB", 10}, {"M", 20}, {"MiB", 20}, {"G", 30}, {"GiB", 30}};
    char *end;
    long long v = strtoll(s, &end, 10);
    for (size_t k = 0; end != s && v >= 0 && k < sizeof units / sizeof units[0]; k++) {
        if (strcmp(end, units[k].suffix) == 0 && v <= (INT64_MAX >> units[k].shift)) {
            *out = (int64_t)v << units[k].shift;
            return true;
        }
    }
    fprintf(stderr, "tensorlint check: '%s' is not a byte count (a number, optionally with K, "
            "KiB, M, MiB, G or GiB)\n", s);
    return false;
}

static bool parse_percent(const char *s, int *out)
{
    int64_t v;
    if (!cli_parse_count(s, &v) || v > 100) {
        fprintf(stderr, "tensorlint check: '%s' is not a percent (0 to 100)\n", s);
        return false;
    }
    *out = (int)v;
    return true;
}

/* --budget=FUNCTION=BYTES */
static bool parse_budget(const char *arg, check_opts *o)
{
    const char *eq = strrchr(arg, '=');
    int64_t bytes;
    if (!eq || eq == arg) {
        fprintf(stderr, "tensorlint check: --budget wants FUNCTION=BYTES, not '%s'\n", arg);
        return false;
    }
    if (!parse_bytes(eq + 1, &bytes))
        return false;
    o->budgets = tl_xrealloc(o->budgets, sizeof *o->budgets * (size_t)(o->n_budgets + 1));
    char *name = tl_xstrndup(arg, (size_t)(eq - arg));
    o->budgets[o->n_budgets++] = (ck_budget){name, bytes};
    return true;
}

static bool add_baseline(const char *path, check_opts *o)
{
    o->baselines = tl_xrealloc(o->baselines, sizeof *o->baselines * (size_t)(o->n_baselines + 1));
    o->baselines[o->n_baselines++] = path;
    return true;
}

/* check's own options; the analysis's go to cli_opt_take_analysis. */
static bool check_take(void *ctx, cli_opt_id id, const char *value)
{
    check_opts *o = ctx;
    ck_options *ck = &o->job.ck;
    switch (id) {
    case CLI_OPT_CHECKS: o->checks = value; return true;
    case CLI_OPT_WARNINGS_AS_ERRORS: o->as_errors = value; return true;
    case CLI_OPT_LIST_CHECKS: o->list = true; return true;
    case CLI_OPT_FORMAT: o->format = value; return true;
    case CLI_OPT_COLOR: o->color = value; return true;
    case CLI_OPT_SRCROOT: o->srcroot = value; return true;
    case CLI_OPT_DOC_URL: o->doc_url = value; return true;
    case CLI_OPT_OUTPUT: o->output = value; return true;
    case CLI_OPT_BUILD_DIR:
        if (o->build_dir)
            fprintf(stderr, "tensorlint check: -p given twice\n");
        o->build_dir = o->build_dir ? o->build_dir : value;
        return o->build_dir == value;
    case CLI_OPT_JOBS: return cli_parse_count(value, &o->jobs);
    case CLI_OPT_UPCAST_THRESHOLD: return parse_bytes(value, &ck->upcast_min_bytes);
    case CLI_OPT_LATE_RELEASE_MIN_BYTES: return parse_bytes(value, &ck->late_release_min_bytes);
    case CLI_OPT_LATE_RELEASE_MIN_PERCENT:
        return parse_percent(value, &ck->late_release_min_percent);
    case CLI_OPT_TINY_CUDA_MAX_BYTES: return parse_bytes(value, &ck->tiny_cuda_max_bytes);
    case CLI_OPT_SLICE_PIN_MAX_PERCENT: return parse_percent(value, &ck->slice_pin_max_percent);
    case CLI_OPT_BUDGET: return parse_budget(value, o);
    case CLI_OPT_BASELINE: return add_baseline(value, o);
    case CLI_OPT_REGRESSION_MIN_BYTES: return parse_bytes(value, &o->job.regression_min_bytes);
    case CLI_OPT_PROGRAM: o->program = true; return true;
    default: return cli_opt_take_analysis(id, value, &o->job.an);
    }
}

/* The selections of --checks and --warnings-as-errors; 0 or 2. */
static int select_checks(check_opts *o)
{
    char *error = NULL;
    for (int k = 0; k < CK_N_CHECKS; k++)
        o->job.enabled[k] = true;
    if ((o->checks && !ck_select(o->checks, o->job.enabled, &error)) ||
        (o->as_errors && !ck_select(o->as_errors, o->job.as_error, &error))) {
        fprintf(stderr, "tensorlint check: %s in %s (see tensorlint check --list-checks)\n", error,
                o->checks && !o->as_errors ? "--checks" : "the check globs");
        free(error);
        return 2;
    }
    return 0;
}

static int validate(const check_opts *o, const cli_input *in)
{
    if (strcmp(o->format, "text") != 0 && strcmp(o->format, "sarif") != 0 &&
        strcmp(o->format, "codequality") != 0) {
        fprintf(stderr, "tensorlint check: unknown format '%s' (text, sarif or codequality)\n",
                o->format);
        return 2;
    }
    bool color;
    if (!cli_color_on("check", o->color, stderr, &color))
        return 2;
    if (o->jobs < 1 || o->jobs > 1024) {
        fprintf(stderr, "tensorlint check: -j wants 1 to 1024 jobs\n");
        return 2;
    }
    if (o->build_dir && in->n_args > 0) {
        fprintf(stderr, "tensorlint check: compiler arguments after -- conflict with -p: every "
                "file takes its flags from the compilation database\n");
        return 2;
    }
    if (o->program && (!o->build_dir || o->n_baselines > 0)) {
        fprintf(stderr, "tensorlint check: --program goes with -p BUILD_DIR (and without "
                "--baseline)\n");
        return 2;
    }
    int n_stdin = 0;
    for (int k = 0; k < in->n_files; k++)
        n_stdin += strcmp(in->files[k], "-") == 0;
    if (n_stdin > 1 || (n_stdin > 0 && o->build_dir)) {
        fprintf(stderr, "tensorlint check: - (standard input) is read once, and not with -p\n");
        return 2;
    }
    if (!o->build_dir && in->n_files == 0) {
        fprintf(stderr, "tensorlint check: no FILE to check (or -p BUILD_DIR)\n");
        return 2;
    }
    struct stat st;
    if (o->srcroot && (stat(o->srcroot, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "tensorlint check: --srcroot: %s is not a directory\n", o->srcroot);
        return 2;
    }
    return 0;
}

static void list_checks(void)
{
    char doc[128];
    for (int k = 0; k < CK_N_CHECKS; k++) {
        ck_doc_path(doc, sizeof doc, ck_checks[k].name);
        printf("%-24s %-8s %-38s %s\n", ck_checks[k].name,
               an_severity_name(ck_checks[k].severity), doc, ck_checks[k].summary);
    }
}

/* ---- output ---- */

/* clang's escaping of fix-it strings: \\ \" \t \n, octal for the rest. */
static void put_escaped(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\' || *p == '"')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\%03o", *p);
        else
            fputc(*p, out);
    }
}

static void print_diag(FILE *out, const an_diag *d, bool promoted, bool color)
{
    fprintf(out, "%s:%d:%d: ", d->file, d->line, d->col);
    cli_put_severity(out, an_severity_name(d->severity), color);
    fprintf(out, ": %s [%s%s]\n", d->message, d->check, promoted ? ",-warnings-as-errors" : "");
    for (int k = 0; k < d->n_fixits; k++) {
        const an_fixit *f = &d->fixits[k];
        fputs("fix-it:\"", out);
        put_escaped(out, d->file);
        fprintf(out, "\":{%d:%d-%d:%d}:\"", f->line, f->col, f->end_line, f->end_col);
        put_escaped(out, f->text);
        fputs("\"\n", out);
    }
    for (int k = 0; k < d->n_notes; k++) {
        fprintf(out, "%s:%d:%d: ", d->notes[k].file ? d->notes[k].file : d->file,
                d->notes[k].line, d->notes[k].col);
        cli_put_severity(out, "note", color);
        fprintf(out, ": %s\n", d->notes[k].message);
    }
}

/* Whether diagnostic d of j is shown: with a baseline, only a new one. */
static bool shown(const ck_job *j, int d)
{
    return !j->base || j->base->states[d] == CK_BASE_NEW;
}

/* With --baseline: the changed functions, then one line of counts. */
static void print_baseline_summary(FILE *out, const check_opts *o, const ck_job *jobs, int n)
{
    int counts[2] = {0, 0}, absent = 0;
    for (int k = 0; k < n; k++) {
        const ck_base_result *b = jobs[k].base;
        for (int c = 0; b && c < b->n_changes; c++)
            fprintf(out, "%s: baseline: %s\n", jobs[k].path, b->changes[c]);
        for (int d = 0; b && d < b->n_states; d++)
            counts[b->states[d]]++;
        absent += b ? b->n_absent : 0;
        if (b && b->unnamed)
            fprintf(out, "%s: baseline: no base report names this file: every diagnostic is "
                    "new\n", jobs[k].path);
    }
    fprintf(out, "tensorlint: baseline %s: %d new, %d unchanged (not shown), %d gone since the "
            "base\n", o->n_baselines == 1 ? o->baselines[0] : "(several reports)",
            counts[CK_BASE_NEW], counts[CK_BASE_UNCHANGED], absent);
}

static void print_text(FILE *out, const check_opts *o, const ck_job *jobs, int n, bool color)
{
    for (int k = 0; k < n; k++) {
        const ck_job *j = &jobs[k];
        if (j->clang_errors)
            fputs(j->clang_errors, out);
        if (j->failed)
            fprintf(out, "tensorlint: error: %s\n", j->failure);
        for (int d = 0; d < j->n_diags; d++)
            if (shown(j, d))
                print_diag(out, &j->diags[d], j->promoted[d], color);
    }
    if (o->n_baselines > 0)
        print_baseline_summary(out, o, jobs, n);
}

/* The installed docs/checks pages, else the repository's relative path. */
static char *default_doc_url(void)
{
    char *url = cli_doc_url();
    return url ? url : tl_xstrdup("docs/checks/");
}

static int print_sarif(FILE *out, const check_opts *o, const ck_job *jobs, int n)
{
    bool cq = strcmp(o->format, "codequality") == 0;
    ck_sarif_file *files = tl_xcalloc((size_t)n + 1, sizeof *files);
    char *doc = o->doc_url ? NULL : default_doc_url();
    for (int k = 0; k < n; k++)
        files[k] = (ck_sarif_file){jobs[k].path, jobs[k].n_diags, jobs[k].diags,
                                   jobs[k].failed ? jobs[k].failure : NULL, jobs[k].base};
    ck_sarif_options so = {o->srcroot, o->doc_url ? o->doc_url : doc, TL_VERSION};
    json_t *log = cq ? ck_codequality(files, n, o->srcroot) : ck_sarif_log(files, n, &so);
    int rc = json_dumpf(log, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(log);
    free(files);
    free(doc);
    return rc;
}

static int exit_status(const ck_job *jobs, int n)
{
    int rc = 0;
    for (int k = 0; k < n; k++) {
        if (jobs[k].failed)
            return 2;
        for (int d = 0; d < jobs[k].n_diags; d++)
            if (jobs[k].diags[d].severity == AN_ERROR && (shown(&jobs[k], d) || !jobs[k].promoted[d]))
                rc = 1; /* an error of the program stays one; a promoted warning fails when new */
    }
    return rc;
}

static int write_output(const check_opts *o, const ck_job *jobs, int n)
{
    bool sarif = strcmp(o->format, "text") != 0; /* sarif or codequality: JSON on stdout */
    cli_out co;
    FILE *out = cli_out_open(&co, "check", o->output, sarif ? stdout : stderr);
    if (!out)
        return 2;
    if (sarif) {
        for (int k = 0; k < n; k++) /* failures still say why on stderr */
            if (jobs[k].failed) {
                if (jobs[k].clang_errors)
                    fputs(jobs[k].clang_errors, stderr);
                fprintf(stderr, "tensorlint: error: %s\n", jobs[k].failure);
            }
        print_sarif(out, o, jobs, n);
    } else {
        bool color;
        cli_color_on("check", o->color, out, &color); /* the mode was checked in validate */
        print_text(out, o, jobs, n, color);
    }
    /* complete even when a file failed: its failure is part of the output */
    return cli_out_commit(&co) != 0 ? 2 : exit_status(jobs, n);
}

/* ---- the command ---- */

/* A job per FILE; "-" is standard input, read into o->stdin_text. */
static ck_job *file_jobs(check_opts *o, const cli_input *in)
{
    ck_job *jobs = tl_xcalloc((size_t)in->n_files + 1, sizeof *jobs);
    for (int k = 0; k < in->n_files; k++) {
        jobs[k].path = tl_xstrdup(cli_path_name(in->files[k]));
        jobs[k].argc = in->n_args;
        jobs[k].argv = in->args;
        if (strcmp(in->files[k], "-") != 0)
            continue;
        o->stdin_text = cli_read_stdin(&jobs[k].text_len);
        if (!o->stdin_text)
            jobs[k].skip_reason = tl_xstrdup("<stdin>: cannot be read");
        jobs[k].text = o->stdin_text;
    }
    return jobs;
}

/* --baseline: load every report; each must name a file checked here.  0 or 2. */
static int load_baselines(check_opts *o, const ck_job *jobs, int n_jobs)
{
    if (o->n_baselines == 0)
        return 0;
    ck_baseline *b = ck_baseline_new();
    o->job.baseline = b;
    for (int k = 0; k < o->n_baselines; k++) {
        char *error = NULL;
        if (!ck_baseline_add(b, o->baselines[k], &error)) {
            fprintf(stderr, "tensorlint check: --baseline=%s\n", error);
            free(error);
            return 2;
        }
        ck_baseline *one = ck_baseline_new();
        bool names = false;
        ck_baseline_add(one, o->baselines[k], &error);
        for (int j = 0; j < n_jobs && !names; j++)
            names = ck_baseline_names(one, jobs[j].path);
        char *files = names ? NULL : ck_baseline_files(one);
        ck_baseline_free(one);
        if (!names) {
            fprintf(stderr, "tensorlint check: --baseline=%s is the report of other files (%s), "
                    "none of them checked here: write it with `tensorlint report "
                    "--format=json` of the same path in the base revision\n",
                    o->baselines[k], files);
            free(files);
            return 2;
        }
    }
    return 0;
}

static void free_opts(check_opts *o)
{
    for (int k = 0; k < o->n_budgets; k++)
        free((char *)o->budgets[k].function);
    free(o->budgets);
    free(o->baselines);
    free(o->stdin_text);
    ck_baseline_free((ck_baseline *)o->job.baseline);
}

/* A --budget naming a function no file defines is a typo that would turn
 * the budget off: say so (the exit status stays the diagnostics'). */
static void warn_unused_budgets(const check_opts *o, const ck_job *jobs, int n_jobs)
{
    for (int b = 0; b < o->n_budgets; b++) {
        bool found = false, analysed = false;
        for (int k = 0; k < n_jobs && !found; k++) {
            found = jobs[k].has_budget_function && jobs[k].has_budget_function[b];
            analysed |= !jobs[k].failed;
        }
        if (!found && analysed)
            fprintf(stderr, "tensorlint check: warning: --budget=%s=...: no function '%s' with "
                    "tensor code in the files checked: the budget applies to nothing\n",
                    o->budgets[b].function, o->budgets[b].function);
    }
}

/* The command with its options in o (freed by the caller). */
static int check_with(check_opts *o, int argc, char **argv)
{
    cli_input in;
    int rc, n_jobs = 0;
    void *owner = NULL;
    an_options_default(&o->job.an);
    ck_options_default(&o->job.ck);
    o->job.regression_min_bytes = INT64_C(1) << 20;
    if (o->jobs < 1)
        o->jobs = 1;
    an_options defaults = o->job.an;
    cli_command cmd = check_command;
    cmd.an = &defaults;
    if ((rc = cli_opt_parse(&cmd, argc, argv, check_take, o, &in)) >= 0 ||
        (rc = select_checks(o)) != 0)
        return rc;
    o->job.ck.n_budgets = o->n_budgets;
    o->job.ck.budgets = o->budgets;
    if (o->list) {
        list_checks();
        return 0;
    }
    if ((rc = validate(o, &in)) != 0)
        return rc;
    ck_job *jobs = NULL;
    if (o->build_dir) {
        rc = ck_compdb_jobs("check", o->build_dir, in.files, in.n_files, &jobs, &n_jobs, &owner);
    } else {
        jobs = file_jobs(o, &in);
        n_jobs = in.n_files;
    }
    if (rc == 0)
        rc = load_baselines(o, jobs, n_jobs);
    if (rc == 0) {
        if (o->program)
            ck_program_run(jobs, n_jobs, &o->job);
        else
            ck_jobs_run(jobs, n_jobs, (int)o->jobs, &o->job, isatty(2) && n_jobs > 1);
        rc = write_output(o, jobs, n_jobs);
        warn_unused_budgets(o, jobs, n_jobs);
    }
    for (int k = 0; k < n_jobs; k++)
        ck_job_clear(&jobs[k]);
    free(jobs);
    ck_compdb_free(owner);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    check_opts o = {.format = "text", .jobs = sysconf(_SC_NPROCESSORS_ONLN)};
    int rc = check_with(&o, argc, argv);
    free_opts(&o);
    return rc;
}
