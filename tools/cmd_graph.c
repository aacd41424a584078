/*
 * cmd_graph.c: `tensorlint graph FILE.c [-o OUT.svg|png|pdf|dot] [options]`.
 * Analyses the file and draws one function's dataflow graph (dg.h): a node
 * per value, a cluster per storage, edges styled by view / copy / cast /
 * compute, diagnostics on their node, the storages live at the peak in red.
 *
 * Options (cli_opt.c) may come before or after FILE.c; compiler arguments
 * follow "--".
 * The format is --format, else OUT's extension, else DOT on stdout.
 * Exit: 0 drawn; 1 drawn, and the program has error diagnostics; 2 usage
 * error, unknown format, unwritable output, missing file, C errors, no
 * tensor code, no such function, or Graphviz failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_program.h"
#include "dg.h"

static const cli_command graph_command = {
    .name = "graph",
    .bit = CLI_CMD_GRAPH,
    .usage = "usage: tensorlint graph FILE.c [-o OUT.svg|png|pdf|dot] [options] "
             "[-- compiler args]\n"
             "       tensorlint graph -p BUILD_DIR [FILE.c...] [-o OUT] [options]\n",
    .about = "Draw the dataflow of one function: a node per tensor-producing call\n"
             "(name, op, shape, dtype, line), grouped in one box per storage (id, size,\n"
             "device, allocated and freed lines); edges from operands to results:\n"
             "dashed = view, bold = copy (bytes moved), orange = cast (dtypes),\n"
             "thin = compute.  Diagnostics are marked on their node; the storages live\n"
             "at the peak are drawn in red and the peak is in the title.  FILE.c may\n"
             "be - (standard input).\n",
    .notes = "DOT is the graph before layout (deterministic); svg, png and pdf are laid\n"
             "out and rendered by Graphviz in-process.\n"
             "\n"
             "exit status: 0 drawn; 1 drawn, the program has errors; 2 usage error,\n"
             "bad output, missing file, C errors, nothing to draw, Graphviz failure.\n",
};

typedef struct graph_opts {
    const char *format, *function, *output;
    const char *build_dir; /* -p: the program of its compile database */
    cli_input in;
    bool no_checks;
    an_options an;
    dg_graph_options graph;
    dg_format fmt;
} graph_opts;

static bool parse_nodes(const char *s, int *out)
{
    int64_t v;
    if (!cli_parse_count(s, &v))
        return false;
    if (v < 1 || v > 1000000) {
        fprintf(stderr, "tensorlint graph: '%s' is out of range (1 to 1000000)\n", s);
        return false;
    }
    *out = (int)v;
    return true;
}

static bool graph_take(void *ctx, cli_opt_id id, const char *value)
{
    graph_opts *o = ctx;
    switch (id) {
    case CLI_OPT_FORMAT: o->format = value; return true;
    case CLI_OPT_FUNCTION: o->function = value; return true;
    case CLI_OPT_NO_CHECKS: o->no_checks = true; return true;
    case CLI_OPT_OUTPUT: o->output = value; return true;
    case CLI_OPT_BUILD_DIR: o->build_dir = value; return true;
    case CLI_OPT_MAX_NODES: return parse_nodes(value, &o->graph.max_nodes);
    default: return cli_opt_take_analysis(id, value, &o->an);
    }
}

static int split_args(int argc, char **argv, graph_opts *o, const char **file, int *n_args,
                      const char *const **args)
{
    cli_input in;
    an_options defaults = o->an;
    cli_command cmd = graph_command;
    cmd.an = &defaults;
    int rc = cli_opt_parse(&cmd, argc, argv, graph_take, o, &in);
    if (rc >= 0)
        return rc;
    if (!o->build_dir && in.n_files != 1) {
        fprintf(stderr, "tensorlint graph: expected one FILE.c, got %d (try --help)\n", in.n_files);
        return 2;
    }
    o->in = in;
    *file = in.n_files ? in.files[0] : o->build_dir;
    *n_args = in.n_args;
    *args = in.args;
    bool text;
    return cli_diagram_output("graph", o->format, o->output, false, &o->fmt, &text);
}

static int pick_failed(dg_status st, const graph_opts *o, const char *file)
{
    if (st == DG_NO_TENSOR_CODE)
        fprintf(stderr, "tensorlint graph: %s has no tensor code (no function uses the tensor "
                "API): nothing to draw\n", file);
    else
        fprintf(stderr, "tensorlint graph: no function '%s' with tensor code in %s\n",
                o->function, file);
    return 2;
}

static int draw(const graph_opts *o, const an_report *r, const char *file)
{
    dg_status st = dg_pick_status(r, o->function);
    if (st != DG_OK)
        return pick_failed(st, o, file);
    dg_ctx *ctx = dg_ctx_new();
    char *data = NULL;
    size_t len = 0;
    st = dg_graph_render(ctx, r, dg_pick_function(r, o->function), &o->graph, o->fmt, &data,
                         &len);
    int rc = an_report_has_errors(r) ? 1 : 0;
    if (st != DG_OK) {
        fprintf(stderr, "tensorlint graph: Graphviz could not draw the graph:\n%s",
                dg_ctx_error(ctx));
        rc = 2;
    } else if (cli_write_data("graph", o->output, data, len) != 0) {
        rc = 2;
    } else if (dg_ctx_error(ctx)[0]) {
        fprintf(stderr, "tensorlint graph: Graphviz said:\n%s", dg_ctx_error(ctx));
    }
    free(data);
    dg_ctx_free(ctx);
    return rc;
}

int cmd_graph(int argc, char **argv)
{
    graph_opts o = {.fmt = DG_FORMAT_DOT};
    const char *file = NULL;
    const char *const *args = NULL;
    int n_args = 0, rc;
    an_options_default(&o.an);
    dg_graph_options_default(&o.graph);
    o.an.max_events = 1000000; /* the log is what is drawn: keep more of it than report does */
    rc = split_args(argc, argv, &o, &file, &n_args, &args);
    if (rc != 0 || !file)
        return rc;
    ir_unit *u = NULL;
    an_report *r = NULL;
    if ((rc = cli_program_analyze("graph", o.build_dir, &o.in, &o.an, o.no_checks, &u, &r)) != 0)
        return rc;
    return cli_done(draw(&o, r, u->path), u, r);
}
