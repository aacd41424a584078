/*
 * cmd_verify.c: `tensorlint verify FILE.c [options] [-- compiler args]`.
 *
 * Analyses the file, compiles it against the runtime (the compiler from
 * --cc, else $CC, else cc; the runtime's include and library directories
 * from the install next to this executable, else from the build tree),
 * runs it with the allocation trace on and a time limit, and joins the
 * trace with the static report (verify/vf_verify.c).  Without a usable GPU
 * the program's TL_CUDA work runs on the emulated device
 * (TL_CUDA_EMULATION=auto unless the environment sets it).
 * Exit: 0 everything agrees, 1 a disagreement, 2 the program does not
 * build, crashes or times out, or a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vf_verify.h"
#include "cli.h"
#include "cli_program.h"
#include "frontend.h"
#include "xalloc.h"

static const cli_command verify_command = {
    .name = "verify",
    .bit = CLI_CMD_VERIFY,
    .usage = "usage: tensorlint verify FILE.c [options] [-- compiler args]\n"
             "       tensorlint verify -p BUILD_DIR [options] [FILE.c...]\n",
    .about = "Compile FILE.c against the tensorlint runtime, run it with the allocation\n"
             "trace on, and check every prediction of `tensorlint report` against the run:\n"
             "per executed call the shape, strides, offset, dtype, device, view or new,\n"
             "which storage it uses, the bytes of a new storage and live bytes after it;\n"
             "then the program's end-of-run live bytes and its peak.  The same compiler\n"
             "arguments go to the analysis and to the compiler.  A run that leaves where\n"
             "the report assumes it does not (an error path: `assumed:` in the report) is\n"
             "compared up to there, and the output says so.  With -p, each unit is\n"
             "compiled with its own command's flags, the objects linked into one program.\n"
             "\n"
             "TL_CUDA tensors run on the GPU when one is usable, else on the CUDA device\n"
             "emulated on the host (the same caching allocator, host kernels): their block\n"
             "and reserved bytes are compared, their speed is not.  TL_CUDA_EMULATION=1\n"
             "in the environment always emulates, TL_CUDA_EMULATION=0 never does.\n",
    .notes = "exit status: 0 every prediction agrees; 1 a disagreement; 2 the program\n"
             "does not build, crashes or times out, or a usage error.\n",
};

#define MAX_RUN_ARGS 64

typedef struct verify_opts {
    const char *cc, *function;
    const char *build_dir; /* -p */
    const char *run_args[MAX_RUN_ARGS];
    int n_run_args;
    int64_t timeout, perturb_line;
    bool keep;
    an_options binds; /* --bind */
} verify_opts;

static bool verify_take(void *ctx, cli_opt_id id, const char *value)
{
    verify_opts *o = ctx;
    switch (id) {
    case CLI_OPT_CC: o->cc = value; return true;
    case CLI_OPT_FUNCTION: o->function = value; return true;
    case CLI_OPT_KEEP: o->keep = true; return true;
    case CLI_OPT_BIND: return cli_parse_bind(value, &o->binds);
    case CLI_OPT_TIMEOUT:
        if (!cli_parse_count(value, &o->timeout))
            return false;
        if (o->timeout == 0)
            fputs("tensorlint verify: --timeout=0: the program needs at least 1 second\n", stderr);
        return o->timeout != 0;
    case CLI_OPT_TEST_PERTURB_LINE: return cli_parse_count(value, &o->perturb_line);
    case CLI_OPT_BUILD_DIR: o->build_dir = value; return true;
    case CLI_OPT_ARG:
        if (o->n_run_args == MAX_RUN_ARGS) {
            fprintf(stderr, "tensorlint verify: at most %d --arg\n", MAX_RUN_ARGS);
            return false;
        }
        o->run_args[o->n_run_args++] = value;
        return true;
    default: return cli_opt_take_analysis(id, value, &o->binds);
    }
}

/* The runtime's headers and library: installed next to us, else the build tree. */
static void runtime_dirs(char *inc, char *lib, size_t size)
{
    char exe[PATH_MAX / 2], probe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        snprintf(probe, sizeof probe, "%s/../%s/libtensorlint.so", exe, TL_INSTALL_LIBDIR);
        if (access(probe, R_OK) == 0) {
            snprintf(inc, size, "%s/../include", exe);
            snprintf(lib, size, "%s/../%s", exe, TL_INSTALL_LIBDIR);
            return;
        }
    }
    snprintf(inc, size, "%s", TL_SOURCE_INCLUDE_DIR);
    snprintf(lib, size, "%s", TL_RUNTIME_BUILD_DIR);
}

/* Runs argv with stdout/stderr into files, TL_TRACE set, at most timeout
 * seconds.  Returns the wait status, or -1 on a timeout (the process group
 * is killed) or when it cannot start. */
static int run_program(char *const *argv, const char *out, const char *err, const char *trace,
                       int64_t timeout)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fi = open("/dev/null", O_RDONLY);
        if (fo < 0 || fe < 0 || fi < 0)
            _exit(127);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        if (trace) {
            setenv("TL_TRACE", trace, 1);
            setenv("TL_CUDA_EMULATION", "auto", 0); /* no GPU: the emulated device */
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int64_t waited = 0;; waited += 10) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        if (r < 0 && errno != EINTR)
            return -1;
        if (waited / 1000 >= timeout) { /* waited: ms; timeout: s, any size */
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        nanosleep(&tick, NULL);
    }
}

static void show_tail(const char *path, const char *what)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0;
    if (!f)
        return;
    fprintf(stderr, "--- %s:\n", what);
    while (fgets(line, sizeof line, f) && n++ < 40)
        fputs(line, stderr);
    fclose(f);
}

typedef struct build {
    char dir[PATH_MAX];
    char prog[PATH_MAX + 16], trace[PATH_MAX + 16], out[PATH_MAX + 16], err[PATH_MAX + 16];
    int trace_fd; /* the trace file made before the run, held open: its inode is the one
                     the runtime writes (fopen "w" keeps it), -1 when none */
} build;

/* What became of the trace file verify made before the run. */
typedef enum trace_state {
    TRACE_WRITTEN, /* the file verify made, with records */
    TRACE_EMPTY,   /* the file verify made, empty: the program made no tensorlint call */
    TRACE_GONE,    /* removed, or replaced by another file: the run cannot be compared */
} trace_state;

/* Makes the empty trace file the runtime will write (TL_TRACE), and holds it. */
static bool trace_make(build *b)
{
    b->trace_fd = open(b->trace, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    return b->trace_fd >= 0;
}

static trace_state trace_after_run(const build *b)
{
    struct stat held, now;
    if (fstat(b->trace_fd, &held) != 0 || held.st_nlink == 0 || stat(b->trace, &now) != 0 ||
        now.st_ino != held.st_ino || now.st_dev != held.st_dev)
        return TRACE_GONE;
    return now.st_size == 0 ? TRACE_EMPTY : TRACE_WRITTEN;
}

static int compile(const verify_opts *o, const char *file, const cli_input *in, build *b)
{
    char inc[PATH_MAX], lib[PATH_MAX], incflag[PATH_MAX + 4], libflag[PATH_MAX + 4],
        rpath[PATH_MAX + 16];
    const char *argv[256];
    int n = 0;
    runtime_dirs(inc, lib, sizeof inc);
    snprintf(incflag, sizeof incflag, "-I%s", inc);
    snprintf(libflag, sizeof libflag, "-L%s", lib);
    snprintf(rpath, sizeof rpath, "-Wl,-rpath,%s", lib);
    argv[n++] = o->cc;
    argv[n++] = "-std=gnu11";
    argv[n++] = "-g";
    for (int k = 0; k < in->n_args && n < 200; k++)
        argv[n++] = in->args[k];
    if (TL_VERIFY_EXTRA_CFLAGS[0])
        argv[n++] = TL_VERIFY_EXTRA_CFLAGS;
    argv[n++] = file;
    argv[n++] = incflag;
    argv[n++] = libflag;
    argv[n++] = rpath;
    argv[n++] = "-ltensorlint";
    argv[n++] = "-lm";
    argv[n++] = "-o";
    argv[n++] = b->prog;
    argv[n] = NULL;
    int st = run_program((char *const *)argv, b->out, b->err, NULL, 300);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "tensorlint verify: %s does not build with %s\n", file, o->cc);
        show_tail(b->err, "compiler output");
        return 2;
    }
    return 0;
}

/* One unit of a program compiled to obj with its own command's flags (its
 * -c and -o left out, -g and the runtime's headers added). */
static int compile_unit(const verify_opts *o, const ck_job *unit, const char *inc,
                        const char *obj, build *b)
{
    const char **argv = tl_xcalloc((size_t)unit->argc + 12, sizeof *argv);
    char *incflag = tl_xasprintf("-I%s", inc);
    int n = 0;
    argv[n++] = o->cc;
    argv[n++] = "-std=gnu11"; /* the command's own -std comes later and wins */
    argv[n++] = "-g";
    for (int k = 1; k < unit->argc; k++) {
        const char *a = unit->argv[k];
        if (strcmp(a, "-o") == 0)
            k++;
        else if (strcmp(a, "-c") != 0 && strncmp(a, "-o", 2) != 0)
            argv[n++] = a;
    }
    if (TL_VERIFY_EXTRA_CFLAGS[0])
        argv[n++] = TL_VERIFY_EXTRA_CFLAGS;
    argv[n++] = incflag;
    argv[n++] = "-c";
    argv[n++] = "-o";
    argv[n++] = obj;
    argv[n] = NULL;
    int st = run_program((char *const *)argv, b->out, b->err, NULL, 300);
    free(incflag);
    free(argv);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "tensorlint verify: %s does not build with %s\n", unit->path, o->cc);
        show_tail(b->err, "compiler output");
        return 2;
    }
    return 0;
}

/* Link the objects of a program with the runtime. */
static int link_program(const verify_opts *o, char **objs, int n_objs, const char *lib, build *b)
{
    const char **argv = tl_xcalloc((size_t)n_objs + 12, sizeof *argv);
    char *libflag = tl_xasprintf("-L%s", lib), *rpath = tl_xasprintf("-Wl,-rpath,%s", lib);
    int n = 0;
    argv[n++] = o->cc;
    if (TL_VERIFY_EXTRA_CFLAGS[0])
        argv[n++] = TL_VERIFY_EXTRA_CFLAGS;
    for (int k = 0; k < n_objs; k++)
        argv[n++] = objs[k];
    argv[n++] = libflag;
    argv[n++] = rpath;
    argv[n++] = "-ltensorlint";
    argv[n++] = "-lm";
    argv[n++] = "-o";
    argv[n++] = b->prog;
    argv[n] = NULL;
    int st = run_program((char *const *)argv, b->out, b->err, NULL, 300);
    free(libflag);
    free(rpath);
    free(argv);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "tensorlint verify: the program does not link with %s\n", o->cc);
        show_tail(b->err, "linker output");
        return 2;
    }
    return 0;
}

/* Every unit of the program compiled, then linked; the objects removed. */
static int compile_program(const verify_opts *o, const cli_program *p, build *b)
{
    char inc[PATH_MAX], lib[PATH_MAX];
    char **objs = tl_xcalloc((size_t)p->n_units + 1, sizeof *objs);
    int rc = 0, n = 0;
    runtime_dirs(inc, lib, sizeof inc);
    for (; n < p->n_units && rc == 0; n++) {
        objs[n] = tl_xasprintf("%s/unit%d.o", b->dir, n);
        rc = compile_unit(o, &p->units[n], inc, objs[n], b);
    }
    if (rc == 0)
        rc = link_program(o, objs, n, lib, b);
    for (int k = 0; k < n; k++) {
        unlink(objs[k]);
        free(objs[k]);
    }
    free(objs);
    return rc;
}

/* 0: the program ran to its end (status in *failed: it exited non-zero);
 * 2: it could not run, crashed or timed out. */
static int execute(const verify_opts *o, const char *file, build *b, bool *failed,
                   double *seconds)
{
    const char *argv[MAX_RUN_ARGS + 2];
    struct timespec t0, t1;
    argv[0] = b->prog;
    for (int k = 0; k < o->n_run_args; k++)
        argv[k + 1] = o->run_args[k];
    argv[o->n_run_args + 1] = NULL;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int st = run_program((char *const *)argv, b->out, b->err, b->trace, o->timeout);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st == -1) {
        fprintf(stderr, "tensorlint verify: %s: the program did not finish within %lld s "
                "(--timeout)\n", file, (long long)o->timeout);
        return 2;
    }
    if (WIFSIGNALED(st)) {
        fprintf(stderr, "tensorlint verify: %s: the program crashed: %s (signal %d)\n", file,
                strsignal(WTERMSIG(st)), WTERMSIG(st));
        show_tail(b->err, "its stderr");
        return 2;
    }
    *failed = WEXITSTATUS(st) != 0;
    printf("program exited with status %d after %.2f s\n", WEXITSTATUS(st), *seconds);
    if (*failed)
        show_tail(b->err, "its stderr");
    return 0;
}

static int compare(const verify_opts *o, const char *file, const an_report *r, build *b,
                   bool failed)
{
    trace_state ts = trace_after_run(b);
    if (ts == TRACE_GONE) {
        fprintf(stderr, "tensorlint verify: %s: the trace is gone (the program removed or "
                "replaced its trace file, TL_TRACE): the run cannot be compared\n", file);
        return 2;
    }
    vf_options vo = {o->function, (int)o->perturb_line, failed, ts == TRACE_EMPTY};
    vf_summary sum;
    char *error = NULL;
    if (!vf_verify(r, b->trace, &vo, stdout, &sum, &error)) {
        fprintf(stderr, "tensorlint verify: %s\n", error);
        free(error);
        return 2;
    }
    /* what could not be compared is said, never counted as agreement */
    char unknown[96] = "", live[96] = "", totals[192] = "", formulas[96] = "", execs[96] = "";
    if (sum.unknown)
        snprintf(unknown, sizeof unknown, ", %lld call site%s not compared (prediction unknown)",
                 (long long)sum.unknown, sum.unknown == 1 ? "" : "s");
    if (sum.live_not_compared)
        snprintf(live, sizeof live, ", live bytes of %lld call%s not compared (not exact there)",
                 (long long)sum.live_not_compared, sum.live_not_compared == 1 ? "" : "s");
    if (sum.totals_not_compared)
        snprintf(totals, sizeof totals, ", %lld total%s not compared (not bounded)",
                 (long long)sum.totals_not_compared, sum.totals_not_compared == 1 ? "" : "s");
    if (sum.bounds_held) /* (after the bounds' text, in the same buffer) */
        snprintf(totals + strlen(totals), sizeof totals - strlen(totals),
                 ", %lld bound%s on the side claimed", (long long)sum.bounds_held,
                 sum.bounds_held == 1 ? "" : "s");
    if (sum.formulas_not_compared)
        snprintf(formulas, sizeof formulas, ", %lld total%s not compared (formulas: --bind "
                 "their sizes)", (long long)sum.formulas_not_compared,
                 sum.formulas_not_compared == 1 ? "" : "s");
    if (sum.past_end_not_compared) /* (after the bounds' text, in the same buffer) */
        snprintf(totals + strlen(totals), sizeof totals - strlen(totals),
                 ", %lld totals not compared (the run ended at its error)",
                 (long long)sum.past_end_not_compared);
    if (sum.exec_not_compared)
        snprintf(execs, sizeof execs, ", %lld execution count%s not compared (not exact)",
                 (long long)sum.exec_not_compared, sum.exec_not_compared == 1 ? "" : "s");
    char *left_at = r->unit ? ir_unit_line_text(r->unit, sum.left_line) /* "12 of model.c" */
                            : tl_xasprintf("%d", sum.left_line);
    char *left = sum.left ? tl_xasprintf(", the run left at line %s%s, where the report assumes "
                                         "it does not (%s): %lld call%s after it not compared",
                                         left_at, sum.left_elsewhere ? " (or at another "
                                         "line listed above)" : "", sum.left_assumption,
                                         (long long)sum.after_left, sum.after_left == 1 ? "" : "s")
                          : NULL;
    printf("verify: %lld calls and %lld call sites compared, %lld fields, %lld disagreement%s"
           "%s%s%s%s%s%s%s\n", (long long)sum.calls, (long long)sum.sites, (long long)sum.fields,
           (long long)sum.mismatches, sum.mismatches == 1 ? "" : "s", unknown, live, totals,
           formulas, execs, sum.diverged ? ", control flow diverged" : "", left ? left : "");
    free(left);
    free(left_at);
    /* a non-zero status is the program's own business when it ended where the analysis
     * says it does (every call matched, the exit record written) */
    if (failed && !sum.ended_at_error && !sum.left && (sum.diverged || !sum.ended)) {
        fprintf(stderr, "tensorlint verify: the program failed (non-zero exit) before its end, "
                "and not at a tensorlint error: it crashed or exited early\n");
        return 2;
    }
    if (sum.trace_truncated) {
        fprintf(stderr, "tensorlint verify: the trace is truncated (no exit record): the run "
                "cannot be confirmed\n");
        return 2;
    }
    return sum.mismatches || sum.diverged ? 1 : 0;
}

static void cleanup(const verify_opts *o, build *b)
{
    if (o->keep) {
        printf("kept %s\n", b->dir);
        return;
    }
    unlink(b->prog);
    unlink(b->trace);
    if (b->trace_fd >= 0)
        close(b->trace_fd);
    unlink(b->out);
    unlink(b->err);
    rmdir(b->dir);
}

/* The report's symbols whose values the run shows (a loop's count, a size
 * in a call's shape: verify/vf_verify.c) are bound and the program analysed
 * again, so that the run is compared with numbers; again while a new
 * report shows more (a count once the sizes it depends on are known).  A
 * name the user bound keeps the user's value.  Returns the report to
 * compare (r, or the last new one). */
static an_report *bind_run_values(const verify_opts *o, ir_unit *u, const an_options *ao,
                                  an_report *r, const build *b)
{
    const char **bn = NULL;
    int64_t *bv = NULL;
    int nb = ao->n_binds;
    bn = tl_xreallocarray(NULL, (size_t)nb + 1, sizeof *bn);
    bv = tl_xreallocarray(NULL, (size_t)nb + 1, sizeof *bv);
    for (int k = 0; k < nb; k++) {
        bn[k] = ao->bind_names[k];
        bv[k] = ao->bind_values[k];
    }
    char **kept = NULL; /* the names read, owned here until the end */
    int n_kept = 0;
    for (int round = 0; round < 8; round++) {
        char **names, **whys;
        int64_t *values;
        int n = vf_run_values(r, b->trace, o->function, &names, &values, &whys), added = 0;
        for (int k = 0; k < n; k++) {
            bool bound = false;
            for (int j = 0; j < nb && !bound; j++)
                bound = strcmp(bn[j], names[k]) == 0;
            if (!bound) {
                bool count = strcmp(whys[k], "its iterations") == 0;
                printf("the run's %s: %s = %lld (%s, read off the run)\n",
                       count ? "count" : "value", names[k], (long long)values[k], whys[k]);
                bn = tl_xreallocarray(bn, (size_t)nb + 1, sizeof *bn);
                bv = tl_xreallocarray(bv, (size_t)nb + 1, sizeof *bv);
                kept = tl_xreallocarray(kept, (size_t)n_kept + 1, sizeof *kept);
                kept[n_kept++] = names[k];
                bn[nb] = names[k];
                bv[nb++] = values[k];
                added++;
            } else {
                free(names[k]);
            }
            free(whys[k]);
        }
        free(names);
        free(whys);
        free(values);
        if (added == 0)
            break;
        an_options a2 = *ao;
        a2.n_binds = nb;
        a2.bind_names = bn;
        a2.bind_values = bv;
        an_report *r2 = an_analyze(u, &a2);
        an_report_free(r);
        an_report_use(r2);
        r = r2;
    }
    for (int k = 0; k < n_kept; k++)
        free(kept[k]);
    free(kept);
    free(bn);
    free(bv);
    return r;
}

/* Verify file (with in's arguments), or with p the program. */
static int verify_file(const verify_opts *o, const char *file, const cli_input *in,
                       cli_program *p)
{
    ir_unit *u = p ? p->u : NULL;
    an_options ao;
    build b = {.trace_fd = -1};
    bool failed = false;
    double seconds = 0;
    int rc = p ? 0 : cli_parse_unit(file, in->n_args, in->args, &u);
    if (rc != 0)
        return rc;
    an_options_default(&ao);
    ao.max_events = ao.max_calls * 2;
    ao.n_binds = o->binds.n_binds;
    ao.bind_names = o->binds.bind_names;
    ao.bind_values = o->binds.bind_values;
    an_report *r = an_analyze(u, &ao);
    if (!an_report_binds_ok(r, "verify", stderr)) {
        an_report_free(r);
        ir_unit_free(u);
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(b.dir, sizeof b.dir, "%s/tensorlint-verify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(b.dir)) {
        fprintf(stderr, "tensorlint verify: cannot make a build directory in %s\n", b.dir);
        rc = 2;
    } else {
        snprintf(b.prog, sizeof b.prog, "%s/prog", b.dir);
        snprintf(b.trace, sizeof b.trace, "%s/trace.jsonl", b.dir);
        snprintf(b.out, sizeof b.out, "%s/stdout", b.dir);
        snprintf(b.err, sizeof b.err, "%s/stderr", b.dir);
        rc = p ? compile_program(o, p, &b) : compile(o, file, in, &b);
        if (rc == 0 && !trace_make(&b)) {
            fprintf(stderr, "tensorlint verify: cannot make the trace file %s: %s\n", b.trace,
                    strerror(errno));
            rc = 2;
        }
        if (rc == 0)
            rc = execute(o, file, &b, &failed, &seconds);
        if (rc == 0)
            r = bind_run_values(o, u, &ao, r, &b);
        if (rc == 0)
            rc = compare(o, file, r, &b, failed);
        cleanup(o, &b);
    }
    an_report_free(r);
    if (!p)
        ir_unit_free(u);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    verify_opts o = {.timeout = 60, .function = "main"};
    cli_input in;
    int rc = cli_opt_parse(&verify_command, argc, argv, verify_take, &o, &in);
    if (rc >= 0)
        return rc;
    for (int k = 0; k < in.n_files; k++) {
        if (strcmp(in.files[k], "-") == 0) {
            fputs("tensorlint verify: - (standard input): verify compiles and runs a file; "
                  "name one\n", stderr);
            return 2;
        }
    }
    if (!o.build_dir && in.n_files != 1) {
        fprintf(stderr, "tensorlint verify: expected one FILE.c, got %d\n", in.n_files);
        return 2;
    }
    if (o.build_dir && in.n_args > 0) {
        fprintf(stderr, "tensorlint verify: compiler arguments after -- conflict with -p "
                "(the compilation database gives each file's)\n");
        return 2;
    }
    if (!o.cc)
        o.cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    if (o.build_dir) {
        cli_program p;
        if ((rc = cli_program_load("verify", o.build_dir, in.files, in.n_files, &p)) != 0)
            return rc;
        rc = verify_file(&o, p.u->path, &in, &p);
        cli_program_free(&p);
    } else {
        rc = verify_file(&o, in.files[0], &in, NULL);
    }
    return cli_output_done(stdout, "verify", NULL) != 0 ? 2 : rc;
}
