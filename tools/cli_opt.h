/*
 * cli_opt.h: the options of every command, one table (cli_opt.c), and the
 * one parser that reads them.
 *
 * A row of the table is an option's long name, its short form, the name of
 * its argument, the commands that take it (a mask of CLI_CMD_*) and its
 * help text; an option whose help differs between commands has one row per
 * wording, each for its own commands.  The parser and each command's
 * `--help` are generated from the rows, so an option is declared once.
 *
 * The syntax is GNU's: options anywhere before "--" (`--opt=value`,
 * `--opt value`, `-o value`, `-ovalue`, an unambiguous prefix of a long
 * name), the other arguments are operands (FILE...; "-" alone is one:
 * standard input or output), everything after "--" goes to the compiler.
 * An unknown option is a usage error naming the nearest option the
 * command takes ("did you mean '--format'?").
 *
 * A new command adopts it in four steps: a CLI_CMD_ bit below; its name in
 * the table's rows of the options it takes (and new rows for its own); a
 * cli_command describing it; and
 *
 *     static bool take(void *ctx, cli_opt_id id, const char *value)
 *     {
 *         my_opts *o = ctx;
 *         switch (id) {
 *         case CLI_OPT_OUTPUT: o->output = value; return true;
 *         default: return cli_opt_take_analysis(id, value, &o->an);
 *         }
 *     }
 *     ...
 *     cli_input in;
 *     int rc = cli_opt_parse(&my_command, argc, argv, take, &o, &in);
 *     if (rc >= 0)
 *         return rc;   // 0 after --help, 2 after a usage error (said)
 *
 * take returns false after printing why a value is wrong (exit 2).
 */
#ifndef TL_CLI_OPT_H
#define TL_CLI_OPT_H

#include <stdbool.h>
#include <stdio.h>

#include "an.h"

/* The commands, one bit each: a row's mask names those that take it. */
enum {
    CLI_CMD_REPORT = 1u << 0,
    CLI_CMD_CHECK = 1u << 1,
    CLI_CMD_VERIFY = 1u << 2,
    CLI_CMD_GRAPH = 1u << 3,
    CLI_CMD_LIFETIMES = 1u << 4,
    CLI_CMD_LSP = 1u << 5,
    CLI_CMD_DUMP_IR = 1u << 6,
    CLI_CMD_CAPTURE = 1u << 7,
};
#define CLI_CMD_DRAW (CLI_CMD_GRAPH | CLI_CMD_LIFETIMES)
#define CLI_CMD_ALL 0xffu

typedef enum cli_opt_id {
    CLI_OPT_HELP,
    CLI_OPT_OUTPUT,
    CLI_OPT_FORMAT,
    CLI_OPT_COLOR,
    CLI_OPT_BUILD_DIR, /* -p */
    CLI_OPT_FUNCTION,
    CLI_OPT_NO_CHECKS,
    CLI_OPT_BIND,
    CLI_OPT_MAX_CALLS,
    CLI_OPT_MAX_ITERATIONS,
    CLI_OPT_MAX_STEPS,
    CLI_OPT_MAX_EVENTS,
    CLI_OPT_WIDTH,
    /* report */
    CLI_OPT_BASELINE,
    CLI_OPT_DIAGRAMS,
    CLI_OPT_TIME_REPORT,
    CLI_OPT_LIFETIMES,
    /* check */
    CLI_OPT_CHECKS,
    CLI_OPT_WARNINGS_AS_ERRORS,
    CLI_OPT_LIST_CHECKS,
    CLI_OPT_SRCROOT,
    CLI_OPT_DOC_URL,
    CLI_OPT_PROGRAM,
    CLI_OPT_JOBS,
    CLI_OPT_UPCAST_THRESHOLD,
    CLI_OPT_LATE_RELEASE_MIN_BYTES,
    CLI_OPT_LATE_RELEASE_MIN_PERCENT,
    CLI_OPT_TINY_CUDA_MAX_BYTES,
    CLI_OPT_SLICE_PIN_MAX_PERCENT,
    CLI_OPT_BUDGET,
    CLI_OPT_REGRESSION_MIN_BYTES,
    /* verify */
    CLI_OPT_CC,
    CLI_OPT_ARG,
    CLI_OPT_TIMEOUT,
    CLI_OPT_KEEP,
    CLI_OPT_TEST_PERTURB_LINE, /* a test hook: vf_verify.h */
    /* graph, lifetimes */
    CLI_OPT_MAX_NODES,
    CLI_OPT_EXPAND,
    CLI_OPT_MAX_COLUMNS,
    CLI_OPT_MAX_ROWS,
    /* lsp */
    CLI_OPT_COMPILE_COMMANDS_DIR,
    CLI_OPT_LOG,
    CLI_OPT_DEBOUNCE,
    /* capture */
    CLI_OPT_QUIET,
    CLI_N_OPTS
} cli_opt_id;

typedef struct cli_opt {
    cli_opt_id id;
    const char *name;     /* the long name, without "--" */
    char short_name;      /* 'o' for -o, or 0 */
    const char *arg;      /* the argument's name in the help ("FILE"), or NULL: a flag */
    unsigned commands;    /* CLI_CMD_* that take it */
    const char *help;     /* lines separated by '\n'; NULL: not shown (for tests) */
} cli_opt;

extern const cli_opt cli_opts[];
extern const int cli_n_opts;

/* A command, for the parser's messages and its help. */
typedef struct cli_command {
    const char *name;         /* "report" */
    unsigned bit;             /* CLI_CMD_REPORT */
    const char *usage;        /* "usage: tensorlint report ...\n" lines */
    const char *about;        /* the paragraph after the usage */
    const char *notes;        /* after the options (exit status ...), or NULL */
    const an_options *an;     /* the analysis defaults shown in the help, or NULL */
} cli_command;

/* What the command's operands and compiler arguments are. */
typedef struct cli_input {
    int n_files;
    char **files;             /* the operands, in order ("-" is standard input) */
    int n_args;
    const char *const *args;  /* compiler arguments after "--" */
} cli_input;

/* Receives an option: value is its argument (NULL for a flag).  False
 * after printing why the value is wrong. */
typedef bool (*cli_opt_take_fn)(void *ctx, cli_opt_id id, const char *value);

/* Parse argv[1..argc) of command cmd (argv[0] is its name), calling take
 * for each option in order, and fill *in.  -1 to go on; 0 after printing
 * the help (--help); 2 after a usage error, said on stderr with the usage.
 * in->files point into argv (whose order it may change). */
int cli_opt_parse(const cli_command *cmd, int argc, char **argv, cli_opt_take_fn take, void *ctx,
                  cli_input *in);

/* The analysis options every analysing command takes: --bind, --max-calls,
 * --max-iterations, --max-events.  False, said, for a bad value or an
 * option that is not one of them. */
bool cli_opt_take_analysis(cli_opt_id id, const char *value, an_options *an);

/* The command's help: usage, about, the options of its rows, notes. */
void cli_opt_help(FILE *out, const cli_command *cmd);

/* Levenshtein's distance of a and b, stopped at 9 (names are short). */
int cli_distance(const char *a, const char *b);

#endif /* TL_CLI_OPT_H */
