/*
 * cmd_lifetimes.c: `tensorlint lifetimes FILE.c [-o OUT.svg|png|pdf|dot]`.
 * Analyses the file and draws one function's storage lifetimes (dg.h): a
 * row per storage, a column per executed call, a shaded cell where the
 * storage is live, the live total under each call and the peak marked.
 * Repeated runs (loops) are drawn once with their count unless --expand;
 * past --max-columns the middle is elided, and the chart says so.
 * --format=text prints the terminal chart (as `report --lifetimes`).
 *
 * Options (cli_opt.c) may come before or after FILE.c; compiler arguments
 * follow "--".
 * Exit: as `tensorlint graph`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_program.h"
#include "dg.h"

static const cli_command lifetimes_command = {
    .name = "lifetimes",
    .bit = CLI_CMD_LIFETIMES,
    .usage = "usage: tensorlint lifetimes FILE.c [-o OUT.svg|png|pdf|dot] [options] "
             "[-- compiler args]\n"
             "       tensorlint lifetimes -p BUILD_DIR [FILE.c...] [-o OUT] [options]\n",
    .about = "Draw when each storage of one function's execution is live: a row per\n"
             "storage (id, the tensors in it, size, allocated and freed lines), a\n"
             "column per executed call in order (line, op), a cell shaded by the bytes\n"
             "live after that call, the live total under each call, the peak in red.\n"
             "Loop iterations that repeat the same calls are drawn once, with their\n"
             "count (the heaviest iteration is the one drawn).  FILE.c may be -\n"
             "(standard input).\n",
    .notes = "exit status: 0 drawn; 1 drawn, the program has errors; 2 usage error,\n"
             "bad output, missing file, C errors, nothing to draw, Graphviz failure.\n",
};

typedef struct life_opts {
    const char *format, *function, *output;
    const char *build_dir; /* -p: the program of its compile database */
    cli_input in;
    an_options an;
    dg_life_options life;
    dg_format fmt;
    bool text;
    bool width_set;
    bool no_checks;
} life_opts;

static bool parse_int(const char *s, int min, int *out)
{
    int64_t v;
    if (!cli_parse_count(s, &v))
        return false;
    if (v < min || v > 100000) {
        fprintf(stderr, "tensorlint lifetimes: '%s' is out of range (%d to 100000)\n", s, min);
        return false;
    }
    *out = (int)v;
    return true;
}

static bool life_take(void *ctx, cli_opt_id id, const char *value)
{
    life_opts *o = ctx;
    switch (id) {
    case CLI_OPT_FORMAT: o->format = value; return true;
    case CLI_OPT_FUNCTION: o->function = value; return true;
    case CLI_OPT_OUTPUT: o->output = value; return true;
    case CLI_OPT_BUILD_DIR: o->build_dir = value; return true;
    case CLI_OPT_EXPAND: o->life.expand = true; return true;
    case CLI_OPT_NO_CHECKS: o->no_checks = true; return true;
    case CLI_OPT_MAX_COLUMNS: return parse_int(value, 8, &o->life.max_columns);
    case CLI_OPT_MAX_ROWS: return parse_int(value, 2, &o->life.max_rows);
    case CLI_OPT_WIDTH: o->width_set = true; return parse_int(value, 20, &o->life.width);
    default: return cli_opt_take_analysis(id, value, &o->an);
    }
}

static int split_args(int argc, char **argv, life_opts *o, const char **file, int *n_args,
                      const char *const **args)
{
    cli_input in;
    an_options defaults = o->an;
    cli_command cmd = lifetimes_command;
    cmd.an = &defaults;
    int rc = cli_opt_parse(&cmd, argc, argv, life_take, o, &in);
    if (rc >= 0)
        return rc;
    if (!o->build_dir && in.n_files != 1) {
        fprintf(stderr, "tensorlint lifetimes: expected one FILE.c, got %d (try --help)\n",
                in.n_files);
        return 2;
    }
    o->in = in;
    *file = in.n_files ? in.files[0] : o->build_dir;
    *n_args = in.n_args;
    *args = in.args;
    return cli_diagram_output("lifetimes", o->format, o->output, true, &o->fmt, &o->text);
}

static int draw_text(const life_opts *o, const an_report *r, const an_func_report *f)
{
    cli_out co;
    FILE *out = cli_out_open(&co, "lifetimes", o->output, stdout);
    if (!out)
        return 2;
    dg_life_options life = o->life;
    if (!o->width_set)
        life.width = dg_terminal_width(out);
    dg_lifetimes_text(out, r, f, &life);
    return cli_out_finish(&co, an_report_has_errors(r) ? 1 : 0);
}

static int draw_graph(const life_opts *o, const an_report *r, const an_func_report *f)
{
    dg_ctx *ctx = dg_ctx_new();
    char *data = NULL;
    size_t len = 0;
    int rc = an_report_has_errors(r) ? 1 : 0;
    if (dg_lifetimes_render(ctx, r, f, &o->life, o->fmt, &data, &len) != DG_OK) {
        fprintf(stderr, "tensorlint lifetimes: Graphviz could not draw the chart:\n%s",
                dg_ctx_error(ctx));
        rc = 2;
    } else if (cli_write_data("lifetimes", o->output, data, len) != 0) {
        rc = 2;
    } else if (dg_ctx_error(ctx)[0]) {
        fprintf(stderr, "tensorlint lifetimes: Graphviz said:\n%s", dg_ctx_error(ctx));
    }
    free(data);
    dg_ctx_free(ctx);
    return rc;
}

static int draw(const life_opts *o, const an_report *r, const char *file)
{
    dg_status st = dg_pick_status(r, o->function);
    if (st == DG_NO_TENSOR_CODE) {
        fprintf(stderr, "tensorlint lifetimes: %s has no tensor code (no function uses the "
                "tensor API): nothing to draw\n", file);
        return 2;
    }
    if (st != DG_OK) {
        fprintf(stderr, "tensorlint lifetimes: no function '%s' with tensor code in %s\n",
                o->function, file);
        return 2;
    }
    const an_func_report *f = dg_pick_function(r, o->function);
    return o->text ? draw_text(o, r, f) : draw_graph(o, r, f);
}

int cmd_lifetimes(int argc, char **argv)
{
    life_opts o = {.fmt = DG_FORMAT_DOT};
    const char *file = NULL;
    const char *const *args = NULL;
    int n_args = 0, rc;
    an_options_default(&o.an);
    o.an.max_events = 1000000; /* the log is what is drawn: keep more of it than report does */
    dg_life_options_default(&o.life);
    rc = split_args(argc, argv, &o, &file, &n_args, &args);
    if (rc != 0 || !file)
        return rc;
    ir_unit *u = NULL;
    an_report *r = NULL;
    rc = cli_program_analyze("lifetimes", o.build_dir, &o.in, &o.an, o.no_checks, &u, &r);
    if (rc != 0)
        return rc;
    return cli_done(draw(&o, r, u->path), u, r);
}
