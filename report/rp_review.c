/*
 * rp_review.c: what `report --format=markdown` adds to the report
 * command: the baseline (--baseline, loaded and checked before anything is
 * written), its peak-regression warnings, and the diagrams (--diagrams=DIR:
 * each executed function's dataflow and lifetime chart as SVG, linked from
 * the comment).  The comment itself is rp_markdown.c's.
 */
#include "rp_review.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rp_compare.h"
#include "dg.h"
#include "xalloc.h"

int rp_review_load_baseline(const char *path, const char *file, ck_baseline **out)
{
    char *error = NULL;
    ck_baseline *b = ck_baseline_new();
    if (!ck_baseline_add(b, path, &error)) {
        fprintf(stderr, "tensorlint report: --baseline=%s\n", error);
        free(error);
        ck_baseline_free(b);
        return 2;
    }
    if (!ck_baseline_names(b, file)) {
        char *files = ck_baseline_files(b);
        fprintf(stderr, "tensorlint report: --baseline=%s is the report of other files (%s), not "
                "of %s: write it with `tensorlint report --format=json` of the same path in the "
                "base revision\n", path, files, file);
        free(files);
        ck_baseline_free(b);
        return 2;
    }
    *out = b;
    return 0;
}

/* "DIR/stem.function.kind.svg" for file's function. */
static char *rp_review_path(const char *dir, const char *file, const char *func, const char *kind)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    const char *dot = strrchr(base, '.');
    return tl_xasprintf("%s/%.*s.%s.%s.svg", dir, dot ? (int)(dot - base) : (int)strlen(base),
                        base, func, kind);
}

static int rp_review_save(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "tensorlint report: cannot write %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return 2;
    }
    return 0;
}

/* Render one diagram of f into its file and add its link. */
static int rp_review_diagram(dg_ctx *ctx, const an_report *r, const an_func_report *f, const char *dir,
                       bool lifetimes, rp_review_links *l)
{
    char *data = NULL;
    size_t len = 0;
    dg_status st;
    if (lifetimes) {
        dg_life_options lo;
        dg_life_options_default(&lo);
        st = dg_lifetimes_render(ctx, r, f, &lo, DG_FORMAT_SVG, &data, &len);
    } else {
        dg_graph_options go;
        dg_graph_options_default(&go);
        st = dg_graph_render(ctx, r, f, &go, DG_FORMAT_SVG, &data, &len);
    }
    if (st != DG_OK) {
        fprintf(stderr, "tensorlint report: the %s of %s could not be drawn: %s\n",
                lifetimes ? "lifetime chart" : "dataflow graph", f->name, dg_ctx_error(ctx));
        free(data);
        return 2;
    }
    char *path = rp_review_path(dir, r->unit->path, f->name, lifetimes ? "lifetimes" : "dataflow");
    int rc = rp_review_save(path, data, len);
    free(data);
    l->links = tl_xrealloc(l->links, sizeof *l->links * (size_t)(l->n + 1));
    l->links[l->n++] = (rp_md_link){f->name, lifetimes ? "lifetimes" : "dataflow", path};
    return rc;
}

int rp_review_diagrams(const an_report *r, const char *dir, rp_review_links *l)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "tensorlint report: --diagrams: cannot make the directory %s: %s\n", dir,
                strerror(errno == EEXIST ? ENOTDIR : errno));
        return 2;
    }
    dg_ctx *ctx = dg_ctx_new();
    int rc = 0;
    for (int k = 0; rc == 0 && k < r->n_funcs; k++)
        if (r->funcs[k].executed && r->funcs[k].n_values > 0)
            for (int kind = 0; rc == 0 && kind < 2; kind++)
                rc = rp_review_diagram(ctx, r, &r->funcs[k], dir, kind == 1, l);
    dg_ctx_free(ctx);
    return rc;
}

void rp_review_links_free(rp_review_links *l)
{
    for (int k = 0; k < l->n; k++)
        free((char *)l->links[k].path);
    free(l->links);
    l->links = NULL;
    l->n = 0;
}

void rp_review_regressions(an_report *r, const ck_baseline *b)
{
    ck_base_result *res = ck_baseline_compare(b, r, r->unit->path, INT64_C(1) << 20, NULL);
    ck_baseline_states(res, r->diags, r->n_diags, NULL);
    ck_base_result_free(res);
}

int rp_review_write(FILE *out, const an_report *r, const ck_baseline *b, const rp_review_links *l)
{
    rp_md_options mo = {b ? ck_baseline_report(b, r->unit->path) : NULL, l->n, l->links};
    return rp_report_write_markdown(out, r, &mo);
}
