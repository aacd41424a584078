/*
 * cmd_dump_ir.c: `tensorlint dump-ir FILE.c... [options] [-- compiler args]`.
 * Prints the IR the front end makes of each file (ir_unit_dump): the
 * debugging view of what the analysis will run, and the text the front
 * end's golden tests compare.  clang's errors are printed clang style and
 * the exit status is then 2, but what could be lowered is still printed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "frontend.h"

static const cli_command dump_ir_command = {
    .name = "dump-ir",
    .bit = CLI_CMD_DUMP_IR,
    .usage = "usage: tensorlint dump-ir FILE.c... [options] [-- compiler args]\n",
    .about = "Print the intermediate representation of each file (- is standard\n"
             "input): per function, the API calls with their arguments, releases,\n"
             "assignments, branches, loops and user calls, with line:col, and the\n"
             "constructs not lowered.\n",
    .notes = "exit status: 0 done; 2 usage error, missing file or a C error.\n",
};

static bool dump_ir_take(void *ctx, cli_opt_id id, const char *value)
{
    if (id == CLI_OPT_OUTPUT)
        *(const char **)ctx = value;
    return id == CLI_OPT_OUTPUT;
}

/* Dump one file; 0, or 2 for a missing file or clang errors. */
static int dump_ir_file(FILE *out, const char *path, const cli_input *in)
{
    ir_unit *u = NULL;
    fe_status st = cli_parse_path(path, in->n_args, in->args, &u);
    if (st != FE_OK) {
        fprintf(stderr, "tensorlint: error: %s: %s\n", cli_path_name(path), fe_status_name(st));
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
    cli_input in;
    int rc = cli_opt_parse(&dump_ir_command, argc, argv, dump_ir_take, &output, &in);
    if (rc >= 0)
        return rc;
    if (in.n_files == 0) {
        fputs("tensorlint dump-ir: no FILE.c given\n", stderr);
        fputs(dump_ir_command.usage, stderr);
        return 2;
    }
    cli_out co;
    FILE *out = cli_out_open(&co, "dump-ir", output, stdout);
    if (!out)
        return 2;
    rc = 0;
    for (int i = 0; i < in.n_files; i++)
        if (dump_ir_file(out, in.files[i], &in) != 0)
            rc = 2;
    return cli_out_finish(&co, rc);
}
