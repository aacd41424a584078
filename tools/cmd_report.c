/*
 * cmd_report.c: `tensorlint report FILE.c [options] [-- compiler args]`.
 * Parses the file, runs the abstract interpreter and prints the accounting
 * report as text (the worksheet's table), JSON (docs/formats.md), a
 * pull-request comment in Markdown (rp_review.c) or the memory page,
 * one self-contained HTML file (dg_page.c).
 * Exit: 0 analysed, 1 the program has error diagnostics, 2 usage error,
 * missing file or clang errors (printed clang style).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rp_report.h"
#include "check.h"
#include "cli.h"
#include "dg.h"
#include "frontend.h"
#include "cli_program.h"
#include "rp_review.h"

static const cli_command report_command = {
    .name = "report",
    .bit = CLI_CMD_REPORT,
    .usage = "usage: tensorlint report FILE.c [options] [-- compiler args]\n"
             "       tensorlint report -p BUILD_DIR [options] [FILE.c...]\n",
    .about = "Print, per function, every tensor call's shape, strides, offset, dtype,\n"
             "device, view or copy (and why), storage, bytes and the storage it keeps\n"
             "alive; then live bytes at the end, the peak with its line and the\n"
             "storages live there, and bytes moved.  FILE.c may be - (standard input).\n"
             "With --format=html, --bind leaves the formulas in the page and sets its\n"
             "inputs.\n",
    .notes = "exit status: 0 analysed; 1 the program has errors (invalid view, shape\n"
             "mismatch, use after release ...); 2 usage error, missing file or a C error.\n",
};

typedef struct report_opts {
    const char *format, *function, *output;
    const char *build_dir;             /* -p */
    const char *baseline, *diagrams;   /* markdown only */
    ck_baseline *base;                 /* loaded --baseline */
    rp_review_links links;                   /* the diagrams written */
    bool time_report, lifetimes, no_checks;
    int64_t width;
    an_options an;
    int page_binds;                    /* html: --bind, kept out of the analysis */
    const char *const *page_bind_names;
    const int64_t *page_bind_values;
} report_opts;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool report_take(void *ctx, cli_opt_id id, const char *value)
{
    report_opts *o = ctx;
    switch (id) {
    case CLI_OPT_FORMAT: o->format = value; return true;
    case CLI_OPT_FUNCTION: o->function = value; return true;
    case CLI_OPT_BASELINE: o->baseline = value; return true;
    case CLI_OPT_DIAGRAMS: o->diagrams = value; return true;
    case CLI_OPT_OUTPUT: o->output = value; return true;
    case CLI_OPT_BUILD_DIR: o->build_dir = value; return true;
    case CLI_OPT_TIME_REPORT: o->time_report = true; return true;
    case CLI_OPT_NO_CHECKS: o->no_checks = true; return true;
    case CLI_OPT_LIFETIMES: o->lifetimes = true; return true;
    case CLI_OPT_WIDTH: return cli_parse_count(value, &o->width);
    default: return cli_opt_take_analysis(id, value, &o->an);
    }
}

/* Options and operands; -1 to go on, else the exit status. */
static int parse(int argc, char **argv, report_opts *o, cli_input *in)
{
    an_options defaults = o->an;
    cli_command cmd = report_command;
    cmd.an = &defaults;
    int rc = cli_opt_parse(&cmd, argc, argv, report_take, o, in);
    if (rc >= 0)
        return rc;
    if (strcmp(o->format, "text") != 0 && strcmp(o->format, "json") != 0 &&
        strcmp(o->format, "markdown") != 0 && strcmp(o->format, "html") != 0) {
        fprintf(stderr, "tensorlint report: unknown format '%s' (text, json, markdown or html)\n",
                o->format);
        return 2;
    }
    if ((o->baseline || o->diagrams) && strcmp(o->format, "markdown") != 0) {
        fprintf(stderr, "tensorlint report: --baseline and --diagrams go with "
                "--format=markdown\n");
        return 2;
    }
    return -1;
}

/* --lifetimes: the chart of --function, else of the entry function (dg.h). */
static void write_lifetimes(FILE *out, const report_opts *o, const an_report *r)
{
    const an_func_report *f = dg_pick_function(r, o->function);
    dg_life_options lo;
    dg_life_options_default(&lo);
    lo.width = o->width > 0 && o->width < 100000 ? (int)o->width : dg_terminal_width(out);
    if (f) {
        fputc('\n', out);
        dg_lifetimes_text(out, r, f, &lo);
    }
}

/* --format=html: the memory page.  The analysis ran without --bind (the
 * page evaluates the formulas itself); the values prefill its inputs. */
static int write_page(FILE *out, const report_opts *o, const an_report *r)
{
    dg_page_options po = {o->page_binds, o->page_bind_names, o->page_bind_values};
    dg_ctx *c = dg_ctx_new();
    char *data = NULL;
    size_t len = 0;
    dg_status st = dg_page_render(c, r, &po, &data, &len);
    if (st != DG_OK) {
        fprintf(stderr, "tensorlint report: the page could not be drawn: %s\n", dg_ctx_error(c));
        dg_ctx_free(c);
        return 2;
    }
    fwrite(data, 1, len, out);
    free(data);
    dg_ctx_free(c);
    return 0;
}

static int write_report(const report_opts *o, const an_report *r)
{
    cli_out co;
    if (o->function && !an_report_func(r, o->function)) {
        fprintf(stderr, "tensorlint report: no function '%s' with tensor code in %s\n",
                o->function, r->unit->path);
        return 2;
    }
    FILE *out = cli_out_open(&co, "report", o->output, stdout);
    if (!out)
        return 2;
    if (strcmp(o->format, "json") == 0) {
        rp_report_write_json(out, r);
    } else if (strcmp(o->format, "html") == 0) {
        if (write_page(out, o, r) != 0)
            return cli_out_finish(&co, 2);
    } else if (strcmp(o->format, "markdown") == 0) {
        rp_review_write(out, r, o->base, &o->links);
    } else {
        rp_text_options t = {o->function, false};
        if (r->n_funcs == 0)
            fprintf(out, "%s: no function uses the tensor API: nothing to account\n",
                    r->unit->path);
        rp_report_write_text(out, r, &t);
        if (o->lifetimes)
            write_lifetimes(out, o, r);
    }
    return cli_out_finish(&co, an_report_has_errors(r) ? 1 : 0);
}

int cmd_report(int argc, char **argv)
{
    report_opts o = {.format = "text"};
    int rc;
    cli_input in;
    an_options_default(&o.an);
    if ((rc = parse(argc, argv, &o, &in)) >= 0)
        return rc;
    if (!o.build_dir && in.n_files != 1) {
        fprintf(stderr, "tensorlint report: expected one FILE.c, got %d\n", in.n_files);
        return 2;
    }
    if (strcmp(o.format, "html") == 0) { /* the page binds; the analysis keeps the formulas */
        o.page_binds = o.an.n_binds;
        o.page_bind_names = o.an.bind_names;
        o.page_bind_values = o.an.bind_values;
        o.an.n_binds = 0;
    }
    if (o.build_dir && in.n_args > 0) {
        fprintf(stderr, "tensorlint report: compiler arguments after -- conflict with -p "
                "(the compilation database gives each file's)\n");
        return 2;
    }
    cli_program prog = {0};
    ir_unit *u = NULL;
    double t0 = now();
    if (o.build_dir) {
        if ((rc = cli_program_load("report", o.build_dir, in.files, in.n_files, &prog)) != 0)
            return rc;
        u = prog.u;
        prog.u = NULL; /* freed below, as a file's unit */
    }
    const char *base_file = u ? u->path : cli_path_name(in.files[0]);
    if (o.baseline && (rc = rp_review_load_baseline(o.baseline, base_file, &o.base)) != 0) {
        cli_program_free(&prog);
        ir_unit_free(u);
        return rc;
    }
    if (!u && (rc = cli_parse_unit(in.files[0], in.n_args, in.args, &u)) != 0) {
        ck_baseline_free(o.base);
        return rc;
    }
    double t1 = now();
    an_report *r = an_analyze(u, &o.an);
    if (!an_report_binds_ok(r, "report", stderr)) {
        an_report_free(r);
        ir_unit_free(u);
        cli_program_free(&prog);
        ck_baseline_free(o.base);
        return 2;
    }
    double t2 = now();
    if (!o.no_checks)
        ck_run(r, NULL);
    if (o.base)
        rp_review_regressions(r, o.base);
    double t3 = now();
    rc = o.diagrams ? rp_review_diagrams(r, o.diagrams, &o.links) : 0;
    rc = rc != 0 ? rc : write_report(&o, r);
    if (o.time_report)
        fprintf(stderr, "time: parse %.1f ms, lower %.1f ms, analyse %.1f ms, checks %.1f ms, "
                "write %.1f ms\n", u->parse_seconds * 1e3, (t1 - t0 - u->parse_seconds) * 1e3,
                (t2 - t1) * 1e3, (t3 - t2) * 1e3, (now() - t3) * 1e3);
    if (cli_fast_exit())
        return cli_finish(rc); /* the OS frees the report and the unit faster */
    an_report_free(r);
    ir_unit_free(u);
    cli_program_free(&prog);
    ck_baseline_free(o.base);
    rp_review_links_free(&o.links);
    return rc;
}
