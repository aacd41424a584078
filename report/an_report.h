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
/* Total t of f with its claim, as the text report says it: "6 MiB", "at
 * most 6 MiB", "at least 4*n B", "64 B (not bounded)"; a heap string. */
char *an_total_str(const an_func_report *f, an_total t);
/* When candidate k of a symbolic peak is the peak: "6*dim >= dim*steps + steps"
 * (it is at least each other candidate), in buf. */
const char *an_peak_when(const an_func_report *f, int k, char *buf, size_t size);
/* The storages live at f's peak in listing order: sizes that are formulas
 * first, in the order made, then the others largest first (ties: the order
 * made); a heap array of f->n_peak_storages indices into f->peak_storages. */
int *an_peak_order(const an_report *r, const an_func_report *f);
/* Storages the text report lists at the peak, the largest; the rest are counted. */
#define AN_PEAK_LISTED 8

/* The diagnostic's JSON; function and call (an_line_function, an_source_call_text)
 * are written when not NULL. */
json_t *an_diag_json(const an_diag *d, const char *function, const char *call);
/* The whole report as one JSON tree (what an_report_write_json streams). */
json_t *an_report_json(const an_report *r);
/* The report's "symbols" (those its expressions use) and "assumptions". */
json_t *an_symbols_json(void);
json_t *an_assumptions_json(const an_report *r);

/* ---- the pull-request comment (an_markdown.c) ---- */

typedef struct an_md_link {  /* one diagram written next to the comment */
    const char *function;
    const char *label;       /* "dataflow", "lifetimes" */
    const char *path;        /* as the link should say it */
} an_md_link;

typedef struct an_md_options {
    const json_t *base;      /* the base revision's report (an_compare.h), or NULL */
    int n_links;
    const an_md_link *links;
} an_md_options;

/* The report as Markdown; 0 (a failed write is left on out's error flag). */
int an_report_write_markdown(FILE *out, const an_report *r, const an_md_options *o);

/* ---- where a diagnostic is (an_locate.c) ---- */

/* The name of the unit's function whose definition contains line, or NULL. */
const char *an_line_function(const an_report *r, int line);
typedef struct an_source {  /* a source file's text and where its lines start */
    char *text;               /* NUL-terminated */
    size_t size;              /* bytes, without the NUL */
    int n_lines;
    size_t *line_start;       /* n_lines offsets */
} an_source;

/* The file at path, or NULL when it cannot be read. */
an_source *an_source_load(const char *path);
/* The unit's source: its file, or a program's files one after another
 * (program lines index it, ir.h). */
an_source *an_source_load_unit(const ir_unit *u);
/* A copy of text[0..size) as a source. */
an_source *an_source_of(const char *text, size_t size);
void an_source_free(an_source *s);
/* The call written at line:col, blanks normalised (allocated), or NULL when
 * src is NULL or the position is outside it. */
char *an_source_call_text(const an_source *src, int line, int col);
/* Always 0 (the writer is the project's own: nothing fails but the write
 * itself, which is left on out's error flag). */
int an_report_write_json(FILE *out, const an_report *r);

typedef struct an_text_options {
    const char *function; /* only this function, or NULL for all */
    bool color;
} an_text_options;

void an_report_write_text(FILE *out, const an_report *r, const an_text_options *opt);
/* file:line:col: severity: message [check], then its notes. */
void an_diag_write_text(FILE *out, const an_diag *d);

#endif /* TL_AN_REPORT_H */
