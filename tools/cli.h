/*
 * cli.h: what the subcommands share: parsing a unit with clang's errors
 * passed through ("-" is standard input), writing their output, and
 * parsing counts.  Their options are read by cli_opt.h.
 */
#ifndef TL_CLI_H
#define TL_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "an.h"
#include "cli_opt.h"
#include "dg.h"
#include "frontend.h"
#include "ir.h"
#include "xalloc.h"

/* The base of the checks' pages: the URL configured with -DTL_DOC_URL, else
 * file://<dir>/ of the docs/checks pages next to the headers the front end
 * uses (a build tree, or an installation: share/doc/tensorlint/checks), or
 * NULL. */
char *cli_doc_url(void);

/* clang's diagnostics of u at or above min, each with its notes, in
 * clang's format ("f.c:3:5: warning: ... [-Wflag]"); returns how many. */
int cli_print_clang_diags(FILE *out, const ir_unit *u, ir_severity min);
struct ck_job;
/* The same for a unit parsed from the jobs of a compilation database
 * (-p): a diagnostic without a location (a bad compiler flag) names the
 * database and the entry (index and file) whose command holds the flag:
 * "BUILD/compile_commands.json: entry 2 (/src/a.c): error: unknown argument: '-fbogus'". */
int cli_print_clang_diags_of(FILE *out, const ir_unit *u, ir_severity min,
                             const struct ck_job *jobs, int n_jobs);

/* Parse path ("-": standard input, named "<stdin>") with the compiler
 * arguments args; statuses as fe_parse_file. */
fe_status cli_parse_path(const char *path, int n_args, const char *const *args, ir_unit **out);
/* C text[0..len) named name (no file is read), parsed as C with the
 * compiler arguments args; statuses as fe_parse_file. */
fe_status cli_parse_text(const char *name, const char *text, size_t len, int n_args,
                         const char *const *args, ir_unit **out);
/* All of standard input, NUL-terminated (*len bytes); NULL when it cannot be read. */
char *cli_read_stdin(size_t *len);
/* path as diagnostics name it: "<stdin>" for "-". */
const char *cli_path_name(const char *path);

/* Parse path (as cli_parse_path); prints clang's warnings and errors (-W flags in args apply),
 * and why it failed.  0, or 2 (the exit code). */
int cli_parse_unit(const char *path, int n_args, const char *const *args, ir_unit **out);

/* Parse file and analyse it (with the checks unless no_checks), for a
 * command that draws or prints the report.  0 with *u and *r set, else the
 * exit code after saying why. */
int cli_analyze(const char *file, int n_args, const char *const *args, const an_options *ao,
                bool no_checks, ir_unit **u, an_report **r);
/* Free what cli_analyze made (unless cli_fast_exit: then leave at once); returns rc. */
int cli_done(int rc, ir_unit *u, an_report *r);

/* True when the tool may skip freeing at exit (clang's -disable-free): in
 * every build but the sanitizer builds, whose leak checker must see it all. */
bool cli_fast_exit(void);
/* Flush and leave with rc, skipping the frees when cli_fast_exit(). */
int cli_finish(int rc);

/* Finishes a command's output: flushes it (and closes it unless it is
 * stdout or stderr) and reports a write that failed (a full disk), which
 * would otherwise end in silence and exit status 0.  name is the file, or
 * NULL for standard output.  Returns 0, or 2 after saying why. */
int cli_output_done(FILE *out, const char *cmd, const char *name);

/* The output of a command that takes -o FILE (cli_out.c): written to a
 * temporary file beside FILE and renamed over it only when complete, so an
 * error found late or a failed write leaves FILE as it was. */
typedef struct cli_out {
    FILE *file;        /* where the command writes */
    const char *cmd;   /* "report", for messages */
    const char *path;  /* FILE as given, or NULL for the default stream */
    char *tmp;         /* the temporary file, or NULL when writing in place */
    char *target;      /* path with links resolved, or NULL */
    struct cli_out *next; /* the next output with a temporary file (cli_out.c) */
} cli_out;

/* Opens the output: dflt (stdout, stderr) when path is NULL, stdout when it is "-", else a
 * temporary file beside path, or path itself when it exists and is not a
 * regular file.  NULL after saying why. */
FILE *cli_out_open(cli_out *o, const char *cmd, const char *path, FILE *dflt);
/* Flushes, closes and renames onto path: 0, or 2 after saying why (the
 * temporary file removed, path untouched). */
int cli_out_commit(cli_out *o);
/* Drops what was written; path is untouched. */
void cli_out_discard(cli_out *o);
/* The end of a command: commit when rc < 2, else discard; the exit code. */
int cli_out_finish(cli_out *o, int rc);
/* The diagram format of command cmd from --format (or, without it, from
 * the output path's extension; "text" only when allow_text), and a check
 * that the output can be written.  0, or 2 after printing why. */
int cli_diagram_output(const char *cmd, const char *format, const char *output, bool allow_text,
                       dg_format *fmt, bool *text);
/* Writes data (a rendered diagram) to path or stdout through cli_out: 0 or 2. */
int cli_write_data(const char *cmd, const char *path, const char *data, size_t len);

/* --color=auto|always|never (NULL: auto) for output out: always, never,
 * or (auto) when out is a terminal and NO_COLOR is not set to a non-empty
 * value.  False, said, for another mode. */
bool cli_color_on(const char *cmd, const char *mode, FILE *out, bool *on);
/* A severity word ("error", "warning", "note"), in clang's colours when color. */
void cli_put_severity(FILE *out, const char *severity, bool color);

/* A non-negative count: "1000", "1e6" is not accepted.  Prints an error when false. */
bool cli_parse_count(const char *s, int64_t *out);
/* --bind NAME=VALUE: the symbol NAME takes VALUE in the analysis (repeatable). */
bool cli_parse_bind(const char *s, an_options *o);

#endif /* TL_CLI_H */
