/*
 * cli_program.h: `-p BUILD_DIR` for the commands that analyse (report,
 * check --program, verify, graph, lifetimes): the C units of the build's
 * compile_commands.json (only those of the FILEs given, when some are) as
 * one program, linked (frontend/fe_program.h).
 */
#ifndef TL_CLI_PROGRAM_H
#define TL_CLI_PROGRAM_H

#include "check_driver.h"
#include "cli.h"
#include "ir.h"

typedef struct cli_program {
    ir_unit *u;      /* the linked program */
    int n_units;
    ck_job *units;   /* each unit's file (path) and full command (argv, paths absolute) */
    void *owner;     /* the database they point into */
} cli_program;

/* Read the database, parse and link its units; prints clang's warnings and
 * errors (the duplicate definitions of a function among them) and why it
 * failed.  0 with p filled, else 2 (the exit code) with nothing to free. */
int cli_program_load(const char *cmd, const char *build_dir, char **files, int n_files,
                     cli_program *p);
/* For a command that analyses one program: with build_dir, the program of
 * its database (in's FILEs, or all its units; no compiler arguments), else
 * in's one FILE.c as cli_analyze parses it; analysed, and checked unless
 * no_checks.  0 with *u and *r set (u owns everything it names), else the
 * exit code after saying why. */
int cli_program_analyze(const char *cmd, const char *build_dir, const cli_input *in,
                        const an_options *ao, bool no_checks, ir_unit **u, an_report **r);
/* Free the program and the units (u too unless it was taken: set it NULL). */
void cli_program_free(cli_program *p);

#endif /* TL_CLI_PROGRAM_H */
