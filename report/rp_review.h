/*
 * rp_review.h: the report command's Markdown output with a baseline
 * and diagrams (rp_review.c).
 */
#ifndef TL_RP_REVIEW_H
#define TL_RP_REVIEW_H

#include "rp_report.h"
#include "check.h"

typedef struct rp_review_links {
    int n;
    rp_md_link *links; /* paths owned */
} rp_review_links;

/* Load the baseline at path and check that it names file.  0, or 2 after saying why. */
int rp_review_load_baseline(const char *path, const char *file, ck_baseline **out);
/* Add the peak-regression warnings of r against b to r->diags. */
void rp_review_regressions(an_report *r, const ck_baseline *b);
/* Draw every executed function's dataflow and lifetimes into dir as SVG.  0, or 2. */
int rp_review_diagrams(const an_report *r, const char *dir, rp_review_links *l);
void rp_review_links_free(rp_review_links *l);
int rp_review_write(FILE *out, const an_report *r, const ck_baseline *b, const rp_review_links *l);

#endif /* TL_RP_REVIEW_H */
