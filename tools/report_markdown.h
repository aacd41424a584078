/*
 * report_markdown.h: the report command's Markdown output with a baseline
 * and diagrams (report_markdown.c).
 */
#ifndef TL_REPORT_MARKDOWN_H
#define TL_REPORT_MARKDOWN_H

#include "an_report.h"
#include "check.h"

typedef struct rmd_links {
    int n;
    an_md_link *links; /* paths owned */
} rmd_links;

/* Load the baseline at path and check that it names file.  0, or 2 after saying why. */
int rmd_load_baseline(const char *path, const char *file, ck_baseline **out);
/* Add the peak-regression warnings of r against b to r->diags. */
void rmd_regressions(an_report *r, const ck_baseline *b);
/* Draw every executed function's dataflow and lifetimes into dir as SVG.  0, or 2. */
int rmd_diagrams(const an_report *r, const char *dir, rmd_links *l);
void rmd_links_free(rmd_links *l);
int rmd_write(FILE *out, const an_report *r, const ck_baseline *b, const rmd_links *l);

#endif /* TL_REPORT_MARKDOWN_H */
