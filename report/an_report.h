/*
 * an_report.h: the report writers over an an_report: the text table a
 * person reads, the JSON of docs/formats.md, and byte formatting.
 */
#ifndef TL_AN_REPORT_H
#define TL_AN_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "an.h"

/* "128 MiB", "64 KiB", "4000 B", "1.5 GiB": binary units, at most 2 decimals. */
const char *an_format_bytes(char *buf, size_t size, int64_t bytes);

json_t *an_diag_json(const an_diag *d);
/* 0, or -1 when Jansson could not encode an element; a failed write is
 * left on out's error flag. */
int an_report_write_json(FILE *out, const an_report *r);

typedef struct an_text_options {
    const char *function; /* only this function, or NULL for all */
    bool color;
} an_text_options;

void an_report_write_text(FILE *out, const an_report *r, const an_text_options *opt);
/* file:line:col: severity: message [check], then its notes. */
void an_diag_write_text(FILE *out, const an_diag *d);

#endif /* TL_AN_REPORT_H */
