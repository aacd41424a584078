/*
 * cmd_capture.c: `tensorlint capture -p BUILD_DIR [FILE.c...]` and
 * `tensorlint capture -o OUT.tlir FILE.c [-- compiler args]`.
 *
 * A capture is one translation unit parsed and lowered alone, its IR
 * written with the key that says when it is current (frontend/fe_capture.h).
 * With -p, each C unit of the compile database (those named, when FILEs are
 * given) gets its capture in BUILD_DIR/tensorlint-capture, where `report
 * -p BUILD_DIR` and the other -p commands read it; a capture that is
 * current is left as it is, so a build system may run this for every unit
 * on every build, in parallel (docs/ci.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <utime.h>

#include "check_driver.h"
#include "cli.h"
#include "cli_opt.h"
#include "fe_capture.h"

static const cli_command capture_command = {
    .name = "capture",
    .bit = CLI_CMD_CAPTURE,
    .usage = "usage: tensorlint capture -p BUILD_DIR [FILE.c...]\n"
             "       tensorlint capture -o OUT.tlir FILE.c [-- compiler args]\n",
    .about = "Parse each translation unit and write its IR, keyed by the content of the\n"
             "unit and every header it includes, the compile command and the tool's\n"
             "version, so that the analysis of the program (report -p, check -p\n"
             "--program, verify -p) never parses an unchanged unit again.  With -p, the\n"
             "units of BUILD_DIR/compile_commands.json (only the FILEs given, when some\n"
             "are) are captured into BUILD_DIR/tensorlint-capture/; a current capture is\n"
             "kept (its time stamp renewed).  Beside each capture, OUT.tlir.d lists the\n"
             "files it was made from, as a depfile for make and ninja.  Units are\n"
             "independent: a build runs them in parallel.\n",
    .notes = "exit status: 0 every capture current; 2 usage error, a unit that cannot be\n"
             "read or parsed, or a capture that cannot be written.\n",
};

typedef struct capture_opts {
    const char *build_dir, *output;
    bool quiet;
} capture_opts;

static bool capture_take(void *ctx, cli_opt_id id, const char *value)
{
    capture_opts *o = ctx;
    switch (id) {
    case CLI_OPT_OUTPUT: o->output = value; return true;
    case CLI_OPT_BUILD_DIR: o->build_dir = value; return true;
    case CLI_OPT_QUIET: o->quiet = true; return true;
    default: return false;
    }
}

/* file.d: the files the capture was made from, as make and ninja read a
 * depfile (spaces escaped), written whole.  False when it cannot be. */
static bool capture_depfile(const fe_capture *c, const char *file)
{
    char *dep = tl_xasprintf("%s.d", file), *tmp = tl_xasprintf("%s.d.tmp.%ld", file,
                                                                  (long)getpid());
    FILE *f = fopen(tmp, "w");
    bool ok = f != NULL;
    for (int k = -1; ok && k < c->n_deps; k++) {
        const char *s = k < 0 ? file : c->deps[k].path;
        fputs(k < 0 ? "" : " \\\n  ", f);
        for (; *s; s++)
            fprintf(f, "%s%c", *s == ' ' || *s == '#' ? "\\" : *s == '$' ? "$" : "", *s);
        if (k < 0)
            fputc(':', f);
    }
    if (f) {
        fputc('\n', f);
        ok = fclose(f) == 0 && ok;
    }
    ok = ok && rename(tmp, dep) == 0;
    if (!ok)
        unlink(tmp);
    free(dep);
    free(tmp);
    return ok;
}

/* Capture one unit into file unless its capture there is current (then its
 * time stamp is renewed, so that a build system sees it up to date); its
 * depfile beside it either way. */
static int capture_one(const fe_program_unit *unit, const char *file, bool quiet)
{
    const char *why;
    fe_capture *c = fe_capture_read(file, &why);
    bool current = c && fe_capture_current(c, unit, &why);
    if (!current) {
        fe_capture_free(c);
        fe_status st = fe_capture_unit(unit, &c);
        if (st != FE_OK) {
            fprintf(stderr, "tensorlint capture: error: %s: %s\n", unit->path, fe_status_name(st));
            return 2;
        }
    }
    bool ok = current ? utime(file, NULL) == 0 : fe_capture_write(c, file);
    if (ok && !capture_depfile(c, file))
        ok = false;
    if (!ok)
        fprintf(stderr, "tensorlint capture: error: %s: cannot write: %s\n", file,
                strerror(errno));
    else if (!quiet && !current)
        fprintf(stderr, "tensorlint capture: %s (%s)\n", file, why);
    fe_capture_free(c);
    return ok ? 0 : 2;
}

static int capture_database(const capture_opts *o, const cli_input *in)
{
    ck_job *jobs = NULL;
    int n = 0, rc;
    void *owner = NULL;
    rc = ck_compdb_jobs("capture", o->build_dir, in->files, in->n_files, &jobs, &n, &owner);
    bool listed = rc == 0; /* the jobs are the database's (else only freed) */
    for (int k = 0; listed && k < n; k++) {
        if (jobs[k].skip_reason) {
            fprintf(stderr, "tensorlint capture: error: %s\n", jobs[k].skip_reason);
            rc = 2;
            continue;
        }
        fe_program_unit unit = {jobs[k].path, jobs[k].argc, jobs[k].argv};
        char *file = fe_capture_path(o->build_dir, jobs[k].path);
        if (capture_one(&unit, file, o->quiet) != 0)
            rc = 2;
        free(file);
    }
    if (listed && n == 0) {
        fputs("tensorlint capture: error: no C unit in the compilation database\n", stderr);
        rc = 2;
    }
    for (int k = 0; k < n; k++)
        ck_job_clear(&jobs[k]);
    free(jobs);
    ck_compdb_free(owner);
    return rc;
}

/* One file with compiler arguments: its command is "cc ARGS FILE", the file
 * made absolute. */
static int capture_file(const capture_opts *o, const cli_input *in)
{
    char *path = in->files[0][0] == '/' ? tl_xstrdup(in->files[0]) : NULL;
    if (!path) {
        char *cwd = getcwd(NULL, 0);
        path = tl_xasprintf("%s/%s", cwd ? cwd : ".", in->files[0]);
        free(cwd);
    }
    const char **argv = tl_xcalloc((size_t)in->n_args + 3, sizeof *argv);
    int argc = 0;
    argv[argc++] = "cc";
    for (int k = 0; k < in->n_args; k++)
        argv[argc++] = in->args[k];
    argv[argc++] = path;
    fe_program_unit unit = {path, argc, argv};
    int rc = capture_one(&unit, o->output, o->quiet);
    free(argv);
    free(path);
    return rc;
}

int cmd_capture(int argc, char **argv)
{
    capture_opts o = {0};
    cli_input in;
    int rc = cli_opt_parse(&capture_command, argc, argv, capture_take, &o, &in);
    if (rc >= 0)
        return rc;
    const char *wrong = NULL;
    if (o.build_dir && (o.output || in.n_args > 0))
        wrong = "-p takes the units' commands from the database: no -o, no compiler args";
    else if (!o.build_dir && (!o.output || in.n_files != 1))
        wrong = "give -p BUILD_DIR, or one FILE.c with -o OUT.tlir";
    if (wrong) {
        fprintf(stderr, "tensorlint capture: %s (try --help)\n", wrong);
        return 2;
    }
    fe_set_disable_free(cli_fast_exit());
    return o.build_dir ? capture_database(&o, &in) : capture_file(&o, &in);
}
