/*
 * dg.h: the diagrams, drawn from an analysis report with Graphviz.
 *
 * Two pictures of one function's execution (the entry function by default:
 * main, else the first root):
 *
 *  - the dataflow graph: one node per value (call site), grouped into one
 *    cluster per storage; edges from operands to results, styled by what
 *    the call did (view, copy, cast, compute); diagnostics marked on their
 *    node; the storages live at the peak highlighted;
 *  - the storage lifetimes: one row per storage, one column per executed
 *    call, a shaded cell where the storage is live, the live total under
 *    each call and the peak column marked.  Repeated runs of the same call
 *    sites (loop iterations) are shown once with their count unless
 *    `expand` is set; past `max_columns` the middle is elided, and the chart
 *    says so.  The same chart exists as text for a terminal.
 *
 * Graphs are built with cgraph and laid out and rendered in-process with
 * gvc; DOT output is the graph as built (no layout), so it is the same on
 * every machine.  Node names are indices ("v3", "cluster_s2"), attributes
 * are declared in a fixed order: the output is deterministic.
 *
 * gvc is not thread-safe: make one dg_ctx per process and render on one
 * thread.  Rendered bytes are malloc'd and owned by the caller.
 */
#ifndef TL_DG_H
#define TL_DG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "an.h"

typedef enum dg_format { DG_FORMAT_DOT, DG_FORMAT_SVG, DG_FORMAT_PNG, DG_FORMAT_PDF, DG_N_FORMATS } dg_format;

/* "svg", "png", "pdf", "dot" (also "gv"); false for anything else. */
bool dg_format_parse(const char *name, dg_format *out);
/* The format named by path's extension; false when it names none. */
bool dg_format_of_path(const char *path, dg_format *out);
const char *dg_format_name(dg_format f);

typedef enum dg_status {
    DG_OK,
    DG_NO_TENSOR_CODE, /* the unit has no function with tensor code */
    DG_NO_FUNCTION,    /* the function asked for has no tensor code or does not exist */
    DG_RENDER_FAILED,  /* Graphviz could not lay out or render (dg_ctx_error says why) */
} dg_status;

/* The function a diagram shows: name when given, else main, else the first
 * root.  NULL when there is none (dg_pick_status says which case). */
const an_func_report *dg_pick_function(const an_report *r, const char *name);
dg_status dg_pick_status(const an_report *r, const char *name);

typedef struct dg_life_options {
    bool expand;     /* one column per executed call: no grouping of repeated runs */
    int max_columns; /* columns drawn before the middle is elided (the peak stays) */
    int max_rows;    /* storage rows before the smallest are merged into one row */
    int width;       /* text chart: characters per line */
} dg_life_options;

void dg_life_options_default(dg_life_options *o);

/* The width of the terminal on out: COLUMNS, else the tty's size, else 100. */
int dg_terminal_width(FILE *out);

typedef struct dg_ctx dg_ctx;

/* A Graphviz context and its error capture. */
dg_ctx *dg_ctx_new(void);
void dg_ctx_free(dg_ctx *c);
/* What Graphviz said about the last failure ("" when nothing). */
const char *dg_ctx_error(const dg_ctx *c);

typedef struct dg_graph_options {
    int max_nodes; /* values drawn at most (the first, in program order); the title says so */
} dg_graph_options;

void dg_graph_options_default(dg_graph_options *o);

/* Draw function f's dataflow graph in format fmt into *data (malloc'd, *len bytes). */
dg_status dg_graph_render(dg_ctx *c, const an_report *r, const an_func_report *f,
                          const dg_graph_options *o, dg_format fmt, char **data, size_t *len);

/* Draw function f's storage lifetimes in format fmt into *data (malloc'd, *len bytes). */
dg_status dg_lifetimes_render(dg_ctx *c, const an_report *r, const an_func_report *f,
                              const dg_life_options *o, dg_format fmt, char **data, size_t *len);

/* The memory page (`report --format=html`, dg_page.c): one self-contained
 * HTML file with every root's live-bytes timeline, the annotated source with
 * the diagnostics, the dataflow graphs, and inputs for the report's symbols
 * that re-evaluate its formulas in the browser. */
typedef struct dg_page_options {
    int n_binds;                   /* --bind values: they prefill the symbols' inputs */
    const char *const *bind_names;
    const int64_t *bind_values;
} dg_page_options;

/* The page of report r into *data (malloc'd, *len bytes). */
dg_status dg_page_render(dg_ctx *c, const an_report *r, const dg_page_options *o, char **data,
                         size_t *len);

/* The lifetime chart of f as text, o->width characters wide. */
void dg_lifetimes_text(FILE *out, const an_report *r, const an_func_report *f,
                       const dg_life_options *o);

/* Whether path can be written (it exists and is writable, or its folder
 * is); errno says why not.  A cheap check before a long analysis. */
bool dg_output_writable(const char *path);

/* Write data to path (stdout when NULL); 0, or the errno of the failure. */
int dg_output_write(const char *path, const char *data, size_t len);

#endif /* TL_DG_H */
