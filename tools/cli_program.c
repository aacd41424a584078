/*
 * cli_program.c: a compile database's C units as one program (cli_program.h).
 *
 * The units are the jobs `check -p` makes of the database (check_compdb.c:
 * its checks of the file, C entries only, paths absolute, each file once,
 * sorted by path); a unit that cannot be read fails the whole program, as
 * a file of one would.  The program is parsed and linked by the front end,
 * which reads each unit's capture from BUILD_DIR/tensorlint-capture when it
 * is current and writes one for every unit it parses (fe_capture.h).
 */
#include "cli_program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fe_program.h"

void cli_program_free(cli_program *p)
{
    for (int k = 0; k < p->n_units; k++)
        ck_job_clear(&p->units[k]);
    free(p->units);
    ck_compdb_free(p->owner);
    ir_unit_free(p->u);
    *p = (cli_program){0};
}

/* The units that cannot be analysed, said; true when there is none. */
static bool cli_program_readable(const char *cmd, const cli_program *p)
{
    bool ok = true;
    for (int k = 0; k < p->n_units; k++) {
        if (p->units[k].skip_reason) {
            fprintf(stderr, "tensorlint %s: error: %s\n", cmd, p->units[k].skip_reason);
            ok = false;
        }
    }
    if (p->n_units == 0) {
        fprintf(stderr, "tensorlint %s: error: no C unit in the compilation database\n", cmd);
        ok = false;
    }
    return ok;
}

/* What the captures did: a write that failed is a warning; the counts of
 * units read and parsed when TENSORLINT_CAPTURE_STATS is set (tests, bench). */
static void cli_program_cache_say(const char *cmd, fe_program_cache *cache)
{
    if (cache->n_write_failed)
        fprintf(stderr, "tensorlint %s: warning: %d capture%s not written (%s); the analysis "
                "is not affected\n", cmd, cache->n_write_failed,
                cache->n_write_failed == 1 ? "" : "s", cache->write_error);
    const char *stats = getenv("TENSORLINT_CAPTURE_STATS");
    if (stats && *stats && strcmp(stats, "0") != 0)
        fprintf(stderr, "tensorlint %s: captures: %d unit%s read, %d parsed\n", cmd,
                cache->n_read, cache->n_read == 1 ? "" : "s", cache->n_parsed);
    free(cache->write_error);
}

static int cli_program_parse(const char *cmd, const char *build_dir, cli_program *p)
{
    fe_program_unit *units = tl_xcalloc((size_t)p->n_units + 1, sizeof *units);
    for (int k = 0; k < p->n_units; k++)
        units[k] = (fe_program_unit){p->units[k].path, p->units[k].argc, p->units[k].argv};
    int failed;
    fe_set_disable_free(cli_fast_exit());
    fe_program_cache cache = {.build_dir = build_dir};
    fe_status st = fe_parse_program_cached(p->n_units, units, &cache, &p->u, &failed);
    free(units);
    cli_program_cache_say(cmd, &cache);
    if (st != FE_OK) {
        fprintf(stderr, "tensorlint %s: error: %s: %s\n", cmd, p->units[failed].path,
                fe_status_name(st));
        return 2;
    }
    cli_print_clang_diags_of(stderr, p->u, IR_SEV_WARNING, p->units, p->n_units);
    if (p->u->n_errors == 0)
        return 0;
    fprintf(stderr, "tensorlint: the program of %s does not compile or link (%d error%s); "
            "not analysed\n",
            p->n_units == 1 ? p->units[0].path : "the compilation database", p->u->n_errors,
            p->u->n_errors == 1 ? "" : "s");
    return 2;
}

int cli_program_load(const char *cmd, const char *build_dir, char **files, int n_files,
                     cli_program *p)
{
    *p = (cli_program){0};
    int rc = ck_compdb_jobs(cmd, build_dir, files, n_files, &p->units, &p->n_units, &p->owner);
    if (rc == 0 && !cli_program_readable(cmd, p))
        rc = 2;
    if (rc == 0)
        rc = cli_program_parse(cmd, build_dir, p);
    if (rc != 0)
        cli_program_free(p);
    return rc;
}

int cli_program_analyze(const char *cmd, const char *build_dir, const cli_input *in,
                        const an_options *ao, bool no_checks, ir_unit **u, an_report **r)
{
    if (!build_dir)
        return cli_analyze(in->files[0], in->n_args, in->args, ao, no_checks, u, r);
    if (in->n_args > 0) {
        fprintf(stderr, "tensorlint %s: compiler arguments after -- conflict with -p (the "
                "compilation database gives each file's)\n", cmd);
        return 2;
    }
    cli_program p;
    int rc = cli_program_load(cmd, build_dir, in->files, in->n_files, &p);
    if (rc != 0)
        return rc;
    *u = p.u;
    p.u = NULL;
    cli_program_free(&p);
    *r = an_analyze(*u, ao);
    if (!an_report_binds_ok(*r, "analysis", stderr)) {
        an_report_free(*r);
        ir_unit_free(*u);
        *r = NULL;
        *u = NULL;
        return 2;
    }
    if (!no_checks)
        ck_run(*r, NULL);
    return 0;
}
