/*
 * cli.c: helpers shared by the subcommands (see cli.h).
 */
#include "cli.h"

#include <limits.h> /* PATH_MAX */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "check_driver.h"
#include "fe_session.h"
#include "frontend.h"

#if defined(__SANITIZE_ADDRESS__)
#define CLI_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLI_SANITIZED 1
#endif
#endif

bool cli_fast_exit(void)
{
#ifdef CLI_SANITIZED
    return false;
#else
    return true;
#endif
}

int cli_finish(int rc)
{
    if (cli_fast_exit()) {
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    return rc;
}

int cli_output_done(FILE *out, const char *cmd, const char *name)
{
    /* an earlier write failed: errno is most likely still its reason */
    int err = ferror(out) ? errno : 0;
    bool failed = ferror(out) != 0;
    if (fflush(out) != 0) {
        failed = true;
        err = errno;
    }
    if (out != stdout && out != stderr && fclose(out) != 0 && !failed) {
        failed = true;
        err = errno;
    }
    if (!failed)
        return 0;
    fprintf(stderr, "tensorlint %s: cannot write %s: %s\n", cmd, name ? name : "to stdout",
            strerror(err ? err : EIO));
    return 2;
}

/* The job whose command holds the argument a command-line diagnostic
 * quotes ("unknown argument: '-fbogus'"), else the only job, else NULL. */
static const ck_job *cli_flag_owner(const ck_job *jobs, int n_jobs, const char *message)
{
    const char *q = strchr(message, '\''), *end = q ? strchr(q + 1, '\'') : NULL;
    for (int k = 0; end && k < n_jobs; k++)
        for (int a = 0; a < jobs[k].argc; a++)
            if (strncmp(jobs[k].argv[a], q + 1, (size_t)(end - q - 1)) == 0 &&
                jobs[k].argv[a][end - q - 1] == '\0')
                return &jobs[k];
    return n_jobs == 1 ? &jobs[0] : NULL;
}

/* d, clang style; one without a location (the command line) is said of
 * the database entry its argument comes from, when the jobs are -p's. */
static void cli_print_clang_diag(FILE *out, const ir_diag *d, const ck_job *jobs, int n_jobs)
{
    if (d->file || n_jobs == 0 || !jobs[0].database) {
        ir_diag_print(out, d);
        return;
    }
    const ck_job *j = cli_flag_owner(jobs, n_jobs, d->message);
    if (j)
        fprintf(out, "%s: entry %d (%s): ", j->database, j->entry, j->path);
    else
        fprintf(out, "%s: ", jobs[0].database);
    fprintf(out, "%s: %s", ir_severity_name(d->severity), d->message);
    if (d->option && *d->option)
        fprintf(out, " [%s]", d->option);
    fputc('\n', out);
}

int cli_print_clang_diags_of(FILE *out, const ir_unit *u, ir_severity min, const ck_job *jobs,
                             int n_jobs)
{
    bool shown = false; /* the last warning or error was printed: so are its notes */
    int n = 0;
    for (int k = 0; k < u->n_diags; k++) {
        const ir_diag *d = &u->diags[k];
        if (d->severity == IR_SEV_NOTE ? shown : d->severity >= min) {
            cli_print_clang_diag(out, d, jobs, n_jobs);
            n += d->severity != IR_SEV_NOTE;
        }
        if (d->severity != IR_SEV_NOTE)
            shown = d->severity >= min;
    }
    return n;
}

int cli_print_clang_diags(FILE *out, const ir_unit *u, ir_severity min)
{
    return cli_print_clang_diags_of(out, u, min, NULL, 0);
}

const char *cli_path_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

char *cli_read_stdin(size_t *len)
{
    size_t cap = 1 << 16, n = 0, got;
    char *text = tl_xmalloc(cap + 1);
    while ((got = fread(text + n, 1, cap - n, stdin)) > 0) {
        n += got;
        if (n == cap)
            text = tl_xrealloc(text, (cap *= 2) + 1);
    }
    if (ferror(stdin)) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

fe_status cli_parse_text(const char *name, const char *text, size_t len, int n_args,
                         const char *const *args, ir_unit **out)
{
    /* the name has no .c to tell clang the language */
    const char **argv = tl_xcalloc((size_t)n_args + 3, sizeof *argv);
    argv[0] = "-x";
    argv[1] = "c";
    for (int k = 0; k < n_args; k++)
        argv[k + 2] = args[k];
    fe_session *s = fe_session_new(name, n_args + 2, argv, false);
    fe_status st = fe_session_parse(s, text, len, out);
    fe_session_free(s);
    free(argv);
    return st;
}

fe_status cli_parse_path(const char *path, int n_args, const char *const *args, ir_unit **out)
{
    fe_set_disable_free(cli_fast_exit());
    if (strcmp(path, "-") != 0)
        return fe_parse_file(path, n_args, args, out);
    size_t len;
    char *text = cli_read_stdin(&len);
    if (!text)
        return FE_ERR_UNREADABLE;
    fe_status st = cli_parse_text(cli_path_name(path), text, len, n_args, args, out);
    free(text);
    return st;
}

int cli_parse_unit(const char *path, int n_args, const char *const *args, ir_unit **out)
{
    fe_status st = cli_parse_path(path, n_args, args, out);
    if (st != FE_OK) {
        fprintf(stderr, "tensorlint: error: %s: %s\n", cli_path_name(path), fe_status_name(st));
        return 2;
    }
    cli_print_clang_diags(stderr, *out, IR_SEV_WARNING); /* as clang-tidy shows them */
    if ((*out)->n_errors == 0)
        return 0;
    fprintf(stderr, "tensorlint: %s does not compile (%d error%s); not analysed\n",
            cli_path_name(path),
            (*out)->n_errors, (*out)->n_errors == 1 ? "" : "s");
    ir_unit_free(*out);
    *out = NULL;
    return 2;
}

bool cli_parse_count(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0) {
        fprintf(stderr, "tensorlint: '%s' is not a non-negative whole number\n", s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_bind(const char *s, an_options *o)
{
    enum { MAX_BINDS = 256 };
    static const char *names[MAX_BINDS];
    static int64_t values[MAX_BINDS];
    const char *eq = strchr(s, '=');
    char *end;
    if (!eq || eq == s) {
        fprintf(stderr, "tensorlint: --bind takes NAME=VALUE (a symbol of the report), not '%s'\n", s);
        return false;
    }
    errno = 0;
    long long v = strtoll(eq + 1, &end, 10);
    if (errno || end == eq + 1 || *end) {
        fprintf(stderr, "tensorlint: --bind %s: '%s' is not a whole number\n", s, eq + 1);
        return false;
    }
    if (o->n_binds >= MAX_BINDS) {
        fprintf(stderr, "tensorlint: more than %d --bind options\n", MAX_BINDS);
        return false;
    }
    char *name = tl_xstrndup(s, (size_t)(eq - s));
    names[o->n_binds] = name; /* lives as long as the process: options are parsed once */
    values[o->n_binds] = v;
    o->n_binds++;
    o->bind_names = names;
    o->bind_values = values;
    return true;
}

int cli_analyze(const char *file, int n_args, const char *const *args, const an_options *ao,
                bool no_checks, ir_unit **u, an_report **r)
{
    int rc = cli_parse_unit(file, n_args, args, u);
    if (rc != 0)
        return rc;
    *r = an_analyze(*u, ao);
    if (!an_report_binds_ok(*r, "analysis", stderr)) {
        an_report_free(*r);
        ir_unit_free(*u);
        *r = NULL;
        *u = NULL;
        return 2;
    }
    if (!no_checks)
        ck_run(*r, NULL); /* their warnings are shown too, as report prints them */
    return 0;
}

int cli_done(int rc, ir_unit *u, an_report *r)
{
    if (cli_fast_exit())
        return cli_finish(rc); /* the OS frees the report and the unit faster */
    an_report_free(r);
    ir_unit_free(u);
    return rc;
}

char *cli_doc_url(void)
{
#ifdef TL_DOC_URL
    if (TL_DOC_URL[0]) /* configured: -DTL_DOC_URL=... (tools/CMakeLists.txt) */
        return tl_xstrdup(TL_DOC_URL);
#endif
    const char *inc = fe_include_dir();
    char real[PATH_MAX], *url = NULL;
    static const char *const rel[] = {"/../../docs/checks", "/../share/doc/tensorlint/checks"};
    for (size_t k = 0; inc && !url && k < sizeof rel / sizeof rel[0]; k++) {
        char *dir = tl_xasprintf("%s%s", inc, rel[k]);
        if (realpath(dir, real))
            url = tl_xasprintf("file://%s/", real);
        free(dir);
    }
    return url;
}

bool cli_color_on(const char *cmd, const char *mode, FILE *out, bool *on)
{
    const char *no_color = getenv("NO_COLOR"); /* https://no-color.org: set and not empty */
    if (!mode || strcmp(mode, "auto") == 0)
        *on = isatty(fileno(out)) && !(no_color && no_color[0]);
    else if (strcmp(mode, "always") == 0 || strcmp(mode, "never") == 0)
        *on = mode[0] == 'a';
    else {
        fprintf(stderr, "tensorlint %s: --color=%s: auto, always or never\n", cmd, mode);
        return false;
    }
    return true;
}

void cli_put_severity(FILE *out, const char *severity, bool color)
{
    static const struct { const char *word, *sgr; } colors[] = {
        {"error", "1;31"}, {"warning", "1;35"}, {"note", "1;30"}, {"remark", "1;34"}};
    for (size_t k = 0; color && k < sizeof colors / sizeof colors[0]; k++) {
        if (strcmp(severity, colors[k].word) == 0) {
            fprintf(out, "\033[%sm%s\033[0m", colors[k].sgr, severity);
            return;
        }
    }
    fputs(severity, out);
}
