/*
 * cmd_dump_ir.c: `tensorlint dump-ir FILE.c... [options] [-- compiler args]`.
 * Prints the IR the front end makes of each file (ir_unit_dump): the
 * debugging view of what the analysis will run, and the text the front
 * end's golden tests compare.  clang's errors are printed clang style and
 * the exit status is then 2, but what could be lowered is still printed.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "frontend.h"

static const char usage[] =
    "usage: tensorlint dump-ir FILE.c... [options] [-- compiler args]\n"
    "\n"
    "Print the intermediate representation of each file: per function, the\n"
    "API calls with their arguments, releases, assignments, branches, loops\n"
    "and user calls, with line:col, and the constructs not lowered.\n"
    "\n"
    "options:\n"
    "  -o FILE, --output=FILE  write to FILE instead of stdout\n"
    "  -h, --help              this help\n"
    "\n"
    "exit status: 0 done; 2 usage error, missing file or a C error.\n";

/* Parse options; -1 to go on with the files at *first_file, else an exit status. */
static int dump_ir_options(int argc, char **argv, const char **output, int *first_file)
{
    static const struct option longs[] = {
        {"output", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+ho:", longs, NULL)) != -1) {
        switch (c) {
        case 'o': *output = optarg; break;
        case 'h': fputs(usage, stdout); return 0;
        default:
            fprintf(stderr, "tensorlint dump-ir: unknown option or missing value '%s'\n",
                    argv[optind - 1]);
            fputs(usage, stderr);
            return 2;
        }
    }
    *first_file = optind;
    return -1;
}

/* Dump one file; 0, or 2 for a missing file or clang errors. */
static int dump_ir_file(FILE *out, const char *path, const cli_input *in)
{
    ir_unit *u = NULL;
    fe_status st = fe_parse_file(path, in->n_args, in->args, &u);
    if (st != FE_OK) {
        fprintf(stderr, "tensorlint: error: %s: %s\n", path, fe_status_name(st));
        return 2;
    }
    bool shown = false; /* notes follow the error they explain */
    for (int i = 0; i < u->n_diags; i++) {
        ir_severity sev = u->diags[i].severity;
        shown = sev >= IR_SEV_ERROR || (sev == IR_SEV_NOTE && shown);
        if (shown)
            ir_diag_print(stderr, &u->diags[i]);
    }
    ir_unit_dump(out, u);
    int rc = u->n_errors ? 2 : 0;
    ir_unit_free(u);
    return rc;
}

int cmd_dump_ir(int argc, char **argv)
{
    const char *output = NULL;
    int first, rc;
    if ((rc = dump_ir_options(argc, argv, &output, &first)) >= 0)
        return rc;
    cli_input in;
    if ((rc = cli_split_input(argc, argv, first, "dump-ir", &in)) != 0)
        return rc;
    if (in.n_files == 0) {
        fputs("tensorlint dump-ir: no FILE.c given\n", stderr);
        fputs(usage, stderr);
        return 2;
    }
    cli_out co;
    FILE *out = cli_out_open(&co, "dump-ir", output, stdout);
    if (!out)
        return 2;
    for (int i = 0; i < in.n_files; i++)
        if (dump_ir_file(out, in.files[i], &in) != 0)
            rc = 2;
    return cli_out_finish(&co, rc < 0 ? 0 : rc);
}
