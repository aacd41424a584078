/*
 * cli_opt.c: the table of every command's options and the parser and
 * help generated from it (cli_opt.h).
 *
 * Rows are looked up by the command's bit: the first row of a name that
 * the command takes wins, so an option worded differently for two
 * commands has two rows with disjoint masks.  The parser permutes nothing
 * in place: operands are collected into in->files, which reuses argv's
 * slots (an operand's slot is never ahead of the argument being read).
 */
#include "cli_opt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define R CLI_CMD_REPORT
#define C CLI_CMD_CHECK
#define V CLI_CMD_VERIFY
#define G CLI_CMD_GRAPH
#define L CLI_CMD_LIFETIMES
#define S CLI_CMD_LSP
#define D CLI_CMD_DUMP_IR
#define P CLI_CMD_CAPTURE
#define ANALYSING (R | C | G | L)

const cli_opt cli_opts[] = {
    /* where the input comes from */
    {CLI_OPT_BUILD_DIR, "build-dir", 'p', "BUILD_DIR", R | V | G | L,
     "the C units of BUILD_DIR/compile_commands.json (those of the\n"
     "FILEs given, if any) as one program: calls across files are\n"
     "followed, locations name their file"},
    {CLI_OPT_BUILD_DIR, "build-dir", 'p', "BUILD_DIR", C,
     "analyse the C entries of BUILD_DIR/compile_commands.json,\n"
     "each with its own flags (or only the FILEs named)"},
    {CLI_OPT_BUILD_DIR, "build-dir", 'p', "BUILD_DIR", P,
     "capture the C units of BUILD_DIR/compile_commands.json (only\n"
     "the FILEs given, if any) into BUILD_DIR/tensorlint-capture/"},
    {CLI_OPT_PROGRAM, "program", 0, NULL, C,
     "with -p: those files are one program (calls across files\n"
     "followed, each diagnostic in its file); else each alone"},
    {CLI_OPT_COMPILE_COMMANDS_DIR, "compile-commands-dir", 0, "DIR", S,
     "read DIR/compile_commands.json (default: the file's\n"
     "directory and its parents, each also with build/)"},
    /* what to write, and where */
    {CLI_OPT_FORMAT, "format", 0, "text|json|markdown|html", R,
     "output format (default text; json: docs/formats.md;\n"
     "markdown: a pull-request comment, docs/ci.md; html: the\n"
     "memory page, one file to open in a browser, docs/diagrams.md)"},
    {CLI_OPT_FORMAT, "format", 0, "text|sarif|codequality", C,
     "output format (default text; codequality: GitLab's code\n"
     "quality report)"},
    {CLI_OPT_FORMAT, "format", 0, "FMT", G,
     "svg, png, pdf or dot (default: from FILE's extension)"},
    {CLI_OPT_FORMAT, "format", 0, "FMT", L,
     "svg, png, pdf, dot, or text (default: from FILE's extension)"},
    {CLI_OPT_OUTPUT, "output", 'o', "FILE", R | D,
     "write to FILE instead of stdout (- is stdout); written\n"
     "whole or not at all"},
    {CLI_OPT_OUTPUT, "output", 'o', "FILE", C,
     "write the output to FILE (text: instead of stderr; - is\n"
     "stdout)"},
    {CLI_OPT_OUTPUT, "output", 'o', "FILE", G | L, "write to FILE (default, or -: DOT on stdout)"},
    {CLI_OPT_OUTPUT, "output", 'o', "FILE", P, "(one FILE.c, no -p) where its capture goes"},
    {CLI_OPT_QUIET, "quiet", 'q', NULL, P, "say nothing of the captures made"},
    {CLI_OPT_COLOR, "color", 0, "auto|always|never", C,
     "colour the severities (default auto: on a terminal, unless\n"
     "NO_COLOR is set)"},
    {CLI_OPT_FUNCTION, "function", 0, "NAME", R, "only this function (text format)"},
    {CLI_OPT_FUNCTION, "function", 0, "NAME", G | L,
     "draw NAME (default: main, else the first root)"},
    {CLI_OPT_FUNCTION, "function", 0, "NAME", V,
     "the function the program starts in (default main)"},
    {CLI_OPT_BASELINE, "baseline", 0, "BASE.json", R,
     "markdown: compare with the base revision's report"},
    {CLI_OPT_DIAGRAMS, "diagrams", 0, "DIR", R,
     "markdown: draw each function's diagrams into DIR, linked"},
    {CLI_OPT_TIME_REPORT, "time-report", 0, NULL, R, "print the time of each phase on stderr"},
    {CLI_OPT_NO_CHECKS, "no-checks", 0, NULL, R | G | L,
     "leave out the warnings of the checks (errors stay)"},
    {CLI_OPT_LIFETIMES, "lifetimes", 0, NULL, R,
     "then the storage lifetime chart of the function (text)"},
    {CLI_OPT_WIDTH, "width", 0, "N", R,
     "its width (default: COLUMNS, else the terminal's, else 100)"},
    {CLI_OPT_WIDTH, "width", 0, "N", L,
     "text format: characters per line (default: the terminal's)"},
    /* check's selection and thresholds */
    {CLI_OPT_CHECKS, "checks", 0, "GLOBS", C,
     "checks to run, clang-tidy style: '*,-tiny-cuda-tensor',\n"
     "'-*,upcast' (default '*'; errors always run)"},
    {CLI_OPT_WARNINGS_AS_ERRORS, "warnings-as-errors", 0, "GLOBS", C,
     "warnings of these checks are errors (exit 1)"},
    {CLI_OPT_LIST_CHECKS, "list-checks", 0, NULL, C, "print the checks and exit"},
    {CLI_OPT_SRCROOT, "srcroot", 0, "DIR", C, "SARIF paths are relative to DIR (default: .)"},
    {CLI_OPT_DOC_URL, "doc-url", 0, "URL", C,
     "base of the SARIF rules' helpUri (default: the docs/checks\n"
     "directory of this installation)"},
    {CLI_OPT_DOC_URL, "doc-url", 0, "URL", S,
     "base of the links to the checks' pages (default: the\n"
     "docs/checks directory of this installation)"},
    {CLI_OPT_JOBS, "jobs", 'j', "N", C,
     "files analysed in parallel (default: the number of cores)"},
    {CLI_OPT_UPCAST_THRESHOLD, "upcast-threshold", 0, "BYTES", C,
     "smallest upcast result that warns (default 1MiB)"},
    {CLI_OPT_LATE_RELEASE_MIN_BYTES, "late-release-min-bytes", 0, "BYTES", C,
     "smallest peak saving that warns (default 1MiB)"},
    {CLI_OPT_LATE_RELEASE_MIN_PERCENT, "late-release-min-percent", 0, "N", C,
     "... as a percent of the peak (default 10)"},
    {CLI_OPT_TINY_CUDA_MAX_BYTES, "tiny-cuda-max-bytes", 0, "BYTES", C,
     "CUDA tensors this small are tiny (default 64)"},
    {CLI_OPT_SLICE_PIN_MAX_PERCENT, "slice-pin-max-percent", 0, "N", C,
     "a view reaching less than N% of a storage pins it\n(default 25)"},
    {CLI_OPT_BUDGET, "budget", 0, "FUNCTION=BYTES", C,
     "FUNCTION's peak may not exceed BYTES (an over-budget\n"
     "error); repeatable; overrides a `// tensorlint: budget`"},
    {CLI_OPT_BASELINE, "baseline", 0, "BASE.json", C,
     "compare with the base revision's `report --format=json`:\n"
     "show only new diagnostics, warn of peak regressions\n"
     "(repeatable: one report per file)"},
    {CLI_OPT_REGRESSION_MIN_BYTES, "regression-min-bytes", 0, "BYTES", C,
     "smallest peak growth that warns (default 1MiB)"},
    /* verify */
    {CLI_OPT_CC, "cc", 0, "CC", V, "compiler (default: $CC, else cc)"},
    {CLI_OPT_ARG, "arg", 0, "ARG", V, "an argument for the program (repeatable)"},
    {CLI_OPT_TIMEOUT, "timeout", 0, "SECONDS", V, "stop the program after this long (default 60)"},
    {CLI_OPT_KEEP, "keep", 0, NULL, V, "keep the build directory (its path is printed)"},
    {CLI_OPT_TEST_PERTURB_LINE, "test-perturb-line", 0, "LINE", V, NULL},
    /* drawing */
    {CLI_OPT_MAX_NODES, "max-nodes", 0, "N", G,
     "tensors drawn at most, the first in program order (default 100)"},
    {CLI_OPT_EXPAND, "expand", 0, NULL, L, "a column for every call: do not group repeated runs"},
    {CLI_OPT_MAX_COLUMNS, "max-columns", 0, "N", L,
     "columns drawn before the middle is elided (default 120)"},
    {CLI_OPT_MAX_ROWS, "max-rows", 0, "N", L,
     "storage rows before the smallest are summed (default 40)"},
    /* the analysis: its defaults are shown from the command's an_options */
    {CLI_OPT_BIND, "bind", 0, "NAME=VALUE", ANALYSING,
     "give the run-time size NAME (a symbol of the report) a\n"
     "value; repeatable: with every symbol bound, the report is\n"
     "concrete"},
    {CLI_OPT_BIND, "bind", 0, "NAME=VALUE", V,
     "analyse with the run-time size NAME equal to VALUE (the\n"
     "value the run will read; repeatable): sizes read at run\n"
     "time are symbols, and a report of formulas cannot be compared"},
    {CLI_OPT_MAX_CALLS, "max-calls", 0, "N", ANALYSING, "stop after N executed API calls per root"},
    {CLI_OPT_MAX_ITERATIONS, "max-iterations", 0, "N", ANALYSING, "stop a loop after N iterations"},
    {CLI_OPT_MAX_STEPS, "max-steps", 0, "N", ANALYSING,
     "stop after N executed statements per root"},
    {CLI_OPT_MAX_EVENTS, "max-events", 0, "N", ANALYSING,
     "calls, releases and lost handles kept"},
    /* the language server */
    {CLI_OPT_LOG, "log", 0, "error|info|verbose", S, "what to log on stderr (default error)"},
    {CLI_OPT_DEBOUNCE, "debounce", 0, "MS", S,
     "quiet time after an edit before analysing (default 50)"},
    {CLI_OPT_HELP, "help", 'h', NULL, CLI_CMD_ALL, "this help"},
};
const int cli_n_opts = (int)(sizeof cli_opts / sizeof cli_opts[0]);

#undef R
#undef C
#undef V
#undef G
#undef L
#undef S
#undef D
#undef P

int cli_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na > 32 || nb > 32)
        return 9;
    int row[33];
    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j];
            int sub = diag + (a[i - 1] != b[j - 1]);
            int best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[nb] < 9 ? row[nb] : 9;
}

/* ---- lookup ---- */

/* The row of long name (len bytes) the command takes: exact, else the only
 * one it begins; *ambiguous when it begins several. */
static const cli_opt *cli_opt_find_long(unsigned cmd, const char *name, size_t len,
                                        bool *ambiguous)
{
    const cli_opt *prefix = NULL;
    *ambiguous = false;
    for (int k = 0; k < cli_n_opts; k++) {
        const cli_opt *o = &cli_opts[k];
        if (!(o->commands & cmd) || strncmp(o->name, name, len) != 0)
            continue;
        if (o->name[len] == '\0')
            return o;
        if (prefix && prefix->id != o->id)
            *ambiguous = true;
        prefix = prefix ? prefix : o;
    }
    return *ambiguous ? NULL : prefix;
}

static const cli_opt *cli_opt_find_short(unsigned cmd, char c)
{
    for (int k = 0; k < cli_n_opts; k++)
        if ((cli_opts[k].commands & cmd) && cli_opts[k].short_name == c)
            return &cli_opts[k];
    return NULL;
}

/* The long name the command takes nearest to name (len bytes), or NULL. */
static const char *cli_opt_near(unsigned cmd, const char *name, size_t len)
{
    char typed[34];
    if (len > 32)
        return NULL;
    memcpy(typed, name, len);
    typed[len] = '\0';
    const char *best = NULL;
    int best_d = 3; /* at most two edits */
    for (int k = 0; k < cli_n_opts; k++) {
        if (!(cli_opts[k].commands & cmd) || !cli_opts[k].help)
            continue;
        int d = cli_distance(typed, cli_opts[k].name);
        if (d < best_d) {
            best_d = d;
            best = cli_opts[k].name;
        }
    }
    return best;
}

/* ---- messages ---- */

static void cli_opt_usage_error(const cli_command *cmd)
{
    fputs(cmd->usage, stderr);
    fprintf(stderr, "(tensorlint %s --help lists the options)\n", cmd->name);
}

static int cli_opt_unknown(const cli_command *cmd, const char *arg)
{
    const char *near = NULL;
    if (arg[1] == '-') {
        const char *eq = strchr(arg, '=');
        near = cli_opt_near(cmd->bit, arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
    }
    if (near)
        fprintf(stderr, "tensorlint %s: unrecognized option '%s'; did you mean '--%s'?\n",
                cmd->name, arg, near);
    else
        fprintf(stderr, "tensorlint %s: unrecognized option '%s'\n", cmd->name, arg);
    cli_opt_usage_error(cmd);
    return 2;
}

/* ---- parsing ---- */

typedef struct cli_opt_state {
    const cli_command *cmd;
    int argc, k;       /* argv[k] is being read */
    char **argv;
    cli_opt_take_fn take;
    void *ctx;
    bool help;
} cli_opt_state;

/* Hand option o its value; -1 to go on, else the exit status. */
static int cli_opt_give(cli_opt_state *s, const cli_opt *o, const char *value)
{
    if (o->id == CLI_OPT_HELP) {
        s->help = true;
        return -1;
    }
    return s->take(s->ctx, o->id, value) ? -1 : 2;
}

/* --name, --name=value, --name value. */
static int cli_opt_long(cli_opt_state *s)
{
    const char *arg = s->argv[s->k], *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    bool ambiguous;
    const cli_opt *o = cli_opt_find_long(s->cmd->bit, name, len, &ambiguous);
    if (ambiguous) {
        fprintf(stderr, "tensorlint %s: option '%.*s' is ambiguous\n", s->cmd->name,
                (int)len + 2, arg);
        cli_opt_usage_error(s->cmd);
        return 2;
    }
    if (!o)
        return cli_opt_unknown(s->cmd, arg);
    if (!o->arg && eq) {
        fprintf(stderr, "tensorlint %s: option '--%s' takes no value\n", s->cmd->name, o->name);
        return 2;
    }
    if (!o->arg || eq)
        return cli_opt_give(s, o, eq ? eq + 1 : NULL);
    if (s->k + 1 >= s->argc || strcmp(s->argv[s->k + 1], "--") == 0) {
        fprintf(stderr, "tensorlint %s: option '--%s' requires an argument (%s)\n", s->cmd->name,
                o->name, o->arg);
        return 2;
    }
    return cli_opt_give(s, o, s->argv[++s->k]);
}

/* -x, -xVALUE, -x VALUE. */
static int cli_opt_short(cli_opt_state *s)
{
    const char *arg = s->argv[s->k];
    const cli_opt *o = cli_opt_find_short(s->cmd->bit, arg[1]);
    if (!o || (!o->arg && arg[2]))
        return cli_opt_unknown(s->cmd, arg);
    if (!o->arg || arg[2])
        return cli_opt_give(s, o, o->arg ? arg + 2 : NULL);
    if (s->k + 1 >= s->argc || strcmp(s->argv[s->k + 1], "--") == 0) {
        fprintf(stderr, "tensorlint %s: option '-%c' requires an argument (%s)\n", s->cmd->name,
                o->short_name, o->arg);
        return 2;
    }
    return cli_opt_give(s, o, s->argv[++s->k]);
}

int cli_opt_parse(const cli_command *cmd, int argc, char **argv, cli_opt_take_fn take, void *ctx,
                  cli_input *in)
{
    cli_opt_state s = {cmd, argc, 1, argv, take, ctx, false};
    *in = (cli_input){.files = argv + 1};
    for (; s.k < argc && strcmp(argv[s.k], "--") != 0; s.k++) {
        const char *arg = argv[s.k];
        int rc = -1;
        if (arg[0] != '-' || arg[1] == '\0')
            in->files[in->n_files++] = argv[s.k]; /* a slot at or before k */
        else if (arg[1] == '-')
            rc = cli_opt_long(&s);
        else
            rc = cli_opt_short(&s);
        if (rc >= 0)
            return rc;
    }
    if (s.k < argc) {
        in->args = (const char *const *)argv + s.k + 1;
        in->n_args = argc - s.k - 1;
    }
    if (s.help) {
        cli_opt_help(stdout, cmd);
        return 0;
    }
    return -1;
}

bool cli_opt_take_analysis(cli_opt_id id, const char *value, an_options *an)
{
    switch (id) {
    case CLI_OPT_BIND: return cli_parse_bind(value, an);
    case CLI_OPT_MAX_CALLS: return cli_parse_count(value, &an->max_calls);
    case CLI_OPT_MAX_ITERATIONS: return cli_parse_count(value, &an->max_iterations);
    case CLI_OPT_MAX_STEPS: return cli_parse_count(value, &an->max_steps);
    case CLI_OPT_MAX_EVENTS: return cli_parse_count(value, &an->max_events);
    default: break;
    }
    fprintf(stderr, "tensorlint: internal error: option %d not handled\n", (int)id);
    abort(); /* a row gives the command an option its take function forgot */
}

/* ---- help ---- */

/* "-o FILE, --output=FILE" */
static int cli_opt_left(char *buf, size_t size, const cli_opt *o)
{
    int n = 0;
    if (o->short_name)
        n = snprintf(buf, size, "-%c%s%s, ", o->short_name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
    return n + snprintf(buf + n, size - (size_t)n, "--%s%s%s", o->name, o->arg ? "=" : "",
                        o->arg ? o->arg : "");
}

/* The default of an analysis option, from the command's an_options. */
static bool cli_opt_default(const cli_command *cmd, cli_opt_id id, int64_t *v)
{
    if (!cmd->an)
        return false;
    switch (id) {
    case CLI_OPT_MAX_CALLS: *v = cmd->an->max_calls; return true;
    case CLI_OPT_MAX_ITERATIONS: *v = cmd->an->max_iterations; return true;
    case CLI_OPT_MAX_STEPS: *v = cmd->an->max_steps; return true;
    case CLI_OPT_MAX_EVENTS: *v = cmd->an->max_events; return true;
    default: return false;
    }
}

static void cli_opt_help_row(FILE *out, const cli_command *cmd, const cli_opt *o, int width)
{
    char left[96];
    int n = cli_opt_left(left, sizeof left, o);
    fprintf(out, "  %s", left);
    if (n > width - 2) /* two spaces at least between the option and its help */
        fprintf(out, "\n  %*s", width, "");
    else
        fprintf(out, "%*s", width - n, "");
    for (const char *p = o->help; *p; p++) {
        fputc(*p, out);
        if (*p == '\n')
            fprintf(out, "  %*s", width, "");
    }
    int64_t v;
    if (cli_opt_default(cmd, o->id, &v))
        fprintf(out, " (default %" PRId64 ")", v);
    fputc('\n', out);
}

void cli_opt_help(FILE *out, const cli_command *cmd)
{
    enum { MAX_LEFT = 26 };
    int width = 0;
    char left[96];
    for (int k = 0; k < cli_n_opts; k++) {
        int n = cli_opt_left(left, sizeof left, &cli_opts[k]);
        if ((cli_opts[k].commands & cmd->bit) && cli_opts[k].help && n <= MAX_LEFT && n > width)
            width = n;
    }
    width += 2;
    fprintf(out, "%s\n%s\noptions:\n", cmd->usage, cmd->about);
    for (int k = 0; k < cli_n_opts; k++)
        if ((cli_opts[k].commands & cmd->bit) && cli_opts[k].help)
            cli_opt_help_row(out, cmd, &cli_opts[k], width);
    if (cmd->notes)
        fprintf(out, "\n%s", cmd->notes);
}
