/*
 * rp_report.h: the report writers over an an_report: the text table a
 * person reads, the JSON of docs/formats.md, and byte formatting.
 */
#ifndef TL_RP_REPORT_H
#define TL_RP_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "an.h"

/* "128 MiB", "64 KiB", "4000 B", "1.5 GiB": binary units, at most 2 decimals. */
const char *rp_format_bytes(char *buf, size_t size, int64_t bytes);
/* Total t of f with its claim, as the text report says it: "6 MiB", "at
 * most 6 MiB", "at least 4*n B", "64 B (not bounded)"; a heap string. */
char *rp_total_str(const an_func_report *f, an_total t);
/* When candidate k of a symbolic peak is the peak: "6*dim >= dim*steps + steps"
 * (it is at least each other candidate), in buf. */
const char *rp_peak_when(const an_func_report *f, int k, char *buf, size_t size);
/* The storages live at f's peak in listing order: sizes that are formulas
 * first, in the order made, then the others largest first (ties: the order
 * made); a heap array of f->n_peak_storages indices into f->peak_storages. */
int *rp_peak_order(const an_report *r, const an_func_report *f);
/* Storages the text report lists at the peak, the largest; the rest are counted. */
#define RP_PEAK_LISTED 8

/* The diagnostic's JSON; function and call (rp_line_function, rp_source_call_text)
 * are written when not NULL. */
json_t *rp_diag_json(const an_diag *d, const char *function, const char *call);
/* The whole report as one JSON tree (what rp_report_write_json streams). */
json_t *rp_report_json(const an_report *r);
/* The report's "symbols" (those its expressions use) and "assumptions". */
json_t *rp_symbols_json(void);
json_t *rp_assumptions_json(const an_report *r);

/* ---- the pull-request comment (rp_markdown.c) ---- */

typedef struct rp_md_link {  /* one diagram written next to the comment */
    const char *function;
    const char *label;       /* "dataflow", "lifetimes" */
    const char *path;        /* as the link should say it */
} rp_md_link;

typedef struct rp_md_options {
    const json_t *base;      /* the base revision's report (rp_compare.h), or NULL */
    int n_links;
    const rp_md_link *links;
} rp_md_options;

/* The report as Markdown; 0 (a failed write is left on out's error flag). */
int rp_report_write_markdown(FILE *out, const an_report *r, const rp_md_options *o);

/* ---- where a diagnostic is (rp_locate.c) ---- */

/* The name of the unit's function whose definition contains line, or NULL. */
const char *rp_line_function(const an_report *r, int line);
typedef struct rp_source {  /* a source file's text and where its lines start */
    char *text;               /* NUL-terminated */
    size_t size;              /* bytes, without the NUL */
    int n_lines;
    size_t *line_start;       /* n_lines offsets */
} rp_source;

/* The file at path, or NULL when it cannot be read. */
rp_source *rp_source_load(const char *path);
/* The unit's source: its file, or a program's files one after another
 * (program lines index it, ir.h). */
rp_source *rp_source_load_unit(const ir_unit *u);
/* A copy of text[0..size) as a source. */
rp_source *rp_source_of(const char *text, size_t size);
void rp_source_free(rp_source *s);
/* The call written at line:col, blanks normalised (allocated), or NULL when
 * src is NULL or the position is outside it. */
char *rp_source_call_text(const rp_source *src, int line, int col);
/* Always 0 (the writer is the project's own: nothing fails but the write
 * itself, which is left on out's error flag). */
int rp_report_write_json(FILE *out, const an_report *r);

typedef struct rp_text_options {
    const char *function; /* only this function, or NULL for all */
    bool color;
} rp_text_options;

void rp_report_write_text(FILE *out, const an_report *r, const rp_text_options *opt);
/* file:line:col: severity: message [check], then its notes. */
void rp_diag_write_text(FILE *out, const an_diag *d);

#endif /* TL_RP_REPORT_H */
