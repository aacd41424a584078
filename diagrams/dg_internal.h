/*
 * dg_internal.h: what the dg_*.c files share.
 *
 *  - dg_buf, a growable string (HTML-like labels, text rows);
 *  - small formatting helpers (compact bytes, colour ramps);
 *  - Graphviz helpers: attributes declared once in a fixed order, set from
 *    const strings without casting away const at each call;
 *  - the event range of a function's execution (dg_range);
 *  - the lifetime model (dg_timeline): the executed calls of a function as
 *    columns, with repeated runs grouped, and its storages as rows.  The
 *    graphical and the text chart are two views of the same model.
 *
 * Memory: every allocation goes through xalloc.h, whose failure is the
 * tool's out-of-memory exit (as everywhere in the analyzer); every _new has
 * its _free.
 */
#ifndef TL_DG_INTERNAL_H
#define TL_DG_INTERNAL_H

#include <graphviz/gvc.h>
#include <stdarg.h>

#include "dg.h"
#include "xalloc.h"

/* ---- dg_util.c ---- */

typedef struct dg_buf {
    char *s;   /* NUL-terminated, never NULL after the first append */
    size_t len, cap;
} dg_buf;

void dg_buf_printf(dg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dg_buf_puts(dg_buf *b, const char *s);
/* Append s with & < > " escaped for an HTML-like label. */
void dg_buf_html(dg_buf *b, const char *s);
/* Append s escaped, broken into left-aligned lines of about width
 * characters (at spaces; "\n" breaks too), each ended by <BR/>. */
void dg_buf_html_wrapped(dg_buf *b, const char *s, int width);
void dg_buf_free(dg_buf *b);
/* Take the string out of b (b is empty after); never NULL. */
char *dg_buf_take(dg_buf *b);

/* "128 MiB" (an_format_bytes) into b; "?" when unknown. */
void dg_buf_bytes(dg_buf *b, int64_t bytes);
/* A function's total, a formula when it depends on run-time sizes ("4*dim*dim + 16 B"):
 * which is 'p' (peak), 'e' (live at the end), 'm' (moved) or 'c' (calls, no unit). */
void dg_buf_total(dg_buf *b, const an_func_report *f, char which, bool html);
/* "640M", "1.5G", "64K", "96B": at most 4 characters and a unit letter. */
void dg_buf_bytes_short(dg_buf *b, int64_t bytes);

/* "#rrggbb" interpolated from lo to hi by t in [0, 1], into out[8]. */
void dg_color_mix(char out[8], unsigned lo, unsigned hi, double t);

/* A value's display name: its variable, or its op for a temporary. */
const char *dg_value_name(const an_value *v);
/* "(65536, 1024) f32", "?" when unknown. */
void dg_buf_shape(dg_buf *b, const an_report *r, const an_value *v);
/* A storage's bytes, its formula when its size is one ("4*n*d B"). */
void dg_buf_storage_bytes(dg_buf *b, const an_storage *s);

/* ---- dg_render.c: Graphviz ---- */

/* Set attribute name of obj to value (declared on first use with default ""). */
void dg_set(void *obj, const char *name, const char *value);
/* Set an HTML-like label on obj. */
void dg_set_html(Agraph_t *g, void *obj, const char *html);
/* Declare attribute name with default dflt for kind (AGRAPH, AGNODE, AGEDGE). */
void dg_declare(Agraph_t *g, int kind, const char *name, const char *dflt);
/* The node or subgraph name of g, made when missing. */
Agnode_t *dg_node(Agraph_t *g, const char *name);
Agraph_t *dg_subgraph(Agraph_t *g, const char *name);
/* A new directed graph named name. */
Agraph_t *dg_graph_open(const char *name);
/* Write g in fmt into *data: DOT as built, others laid out by dot. */
dg_status dg_render_graph(dg_ctx *c, Agraph_t *g, dg_format fmt, char **data, size_t *len);

/* ---- dg_range.c: which events show a function's execution ---- */

typedef struct dg_range {
    int64_t n;        /* events in the range */
    int64_t *ev;      /* their indices in the report's log, increasing */
    bool own_only;    /* only the function's own calls (it is not a root) */
    int root;         /* function index of the root whose run it is, -1 */
} dg_range;

/* For a root: its whole run; otherwise the function's own events in the
 * first root run that executes it. */
void dg_range_init(dg_range *g, const an_report *r, const an_func_report *f);
/* Every event of the log in which f is the caller or the root (graph edges). */
void dg_range_init_all(dg_range *g, const an_report *r, const an_func_report *f);
void dg_range_free(dg_range *g);

/* ---- dg_timeline.c: the lifetime model ---- */

typedef struct dg_span {  /* a repeated run, shown once */
    int col_lo, col_hi;   /* model columns of the repetition shown */
    int64_t n_iter;       /* repetitions */
    int64_t shown;        /* which one is shown, 0-based: the heaviest */
    int depth;            /* nesting, 0 outermost */
    int loop_line;        /* the loop statement that repeats it, 0 when not found */
    int func;             /* function of its first call */
} dg_span;

typedef struct dg_row {   /* one storage, or one call site's storages in a repeated run */
    int first;            /* lowest storage id among its members */
    int64_t n_members;
    int64_t nbytes;       /* of its smallest member; -1 unknown */
    int64_t nbytes_max;   /* of its largest member */
    bool formula;         /* every member's size is the one formula nbytes_sx */
    sx_int nbytes_sx;
    int alloc_col;        /* model column of its allocation, -1 made before the range */
    bool discarded;       /* made on an unknown branch's arm that was not kept */
    bool external;        /* the caller's memory (tl_from_blob): 0 bytes, drawn "external" */
    bool at_peak;         /* some member is live at the peak */
    int64_t free_count;   /* members freed */
    int free_line;        /* of the first member, 0 never */
    int alloc_line;
} dg_row;

typedef struct dg_col {   /* one column of the model: an executed call */
    int64_t ev;           /* event index in the log */
    int64_t n_calls;      /* calls it stands for: 1, or the repetitions of its span */
} dg_col;

typedef struct dg_timeline {
    const an_report *r;
    const an_func_report *f;
    dg_range range;
    int n_cols;
    dg_col *cols;
    int n_spans;
    dg_span *spans;       /* in order of col_lo, outer before inner */
    int n_rows;
    dg_row *rows;         /* in order of allocation */
    int *row_of;          /* per storage id: its row, -1 */
    int64_t *alloc_ev;    /* per storage id: event of its allocating call, -1 */
    int64_t *member_start; /* per row: first index in members (n_rows + 1 entries) */
    int *members;         /* storage ids, by row, increasing */
    int64_t n_calls;      /* calls executed in the range */
    int peak_col;         /* model column of the peak, -1 when no call */
    int64_t peak_bytes;
    bool grouping_cut;    /* the search for repeated runs hit its work limit */
    int n_discarded;      /* rows of branch arms not kept */
    int n_discarded_hidden; /* storages of branch arms not kept that have no row */
    int discarded_example;  /* one of them */
} dg_timeline;

void dg_timeline_build(dg_timeline *t, const an_report *r, const an_func_report *f, bool expand);
void dg_timeline_free(dg_timeline *t);
/* Bytes row holds live after event ev, and how many of its members. */
int64_t dg_timeline_cell(const dg_timeline *t, int row, int64_t ev, int64_t *n_live);
/* The name of the value the call at event ev made, when it lives in row's storage; else NULL. */
const char *dg_timeline_made_here(const dg_timeline *t, int row, int64_t ev);
/* "S3", "S5 … (40)" */
void dg_buf_row_id(dg_buf *b, const dg_timeline *t, int row);
/* Names of the values that live in row's storage, its maker first: "d, e",
 * or with mark_views "d; views: e". */
void dg_buf_row_names(dg_buf *b, const dg_timeline *t, int row, bool mark_views);
/* Words for a span: "loop at line 18 ×40" */
void dg_buf_span(dg_buf *b, const dg_timeline *t, const dg_span *s);

/* A view: the model's columns fitted to a width, and its rows to a height. */
typedef struct dg_vcol {
    int col_lo, col_hi;   /* model columns it stands for */
    int col;              /* the one whose moment is shown (the heaviest) */
} dg_vcol;

typedef struct dg_view {
    int n_cols;
    dg_vcol *cols;
    int n_rows;
    int *rows;              /* model rows shown, in order; -1 the merged rest (last) */
    int n_hidden_rows;      /* model rows merged into the last row */
    int64_t n_hidden_cols;  /* model columns that share a view column with others */
    int peak_vcol;          /* -1 when there is no call */
    int64_t *bytes;         /* [n_rows][n_cols]: bytes live; -1 unknown */
    int64_t *count;         /* [n_rows][n_cols]: storages live */
    int64_t max_cell;       /* the largest known bytes of one cell */
} dg_view;

/* Keep the first, last and around-the-peak columns; the rest become one
 * elided column per gap. */
void dg_view_elide(dg_view *v, const dg_timeline *t, int max_columns, int max_rows);
/* Merge neighbouring columns evenly so at most max_columns remain. */
void dg_view_bucket(dg_view *v, const dg_timeline *t, int max_columns, int max_rows);
/* As dg_view_bucket, with the rows that rows_of shows. */
void dg_view_bucket_like(dg_view *v, const dg_timeline *t, int max_columns, const dg_view *rows_of);
void dg_view_free(dg_view *v);
/* Bytes and storages live in view row k at view column c. */
int64_t dg_view_cell(const dg_view *v, int k, int c, int64_t *n_live);

/* "main(): 7 calls, peak 640 MiB after line 29 (clone f), live at the end 640 MiB" */
void dg_life_summary(dg_buf *b, const dg_timeline *t);
/* What the chart merges or leaves out, one sentence each, joined by sep. */
void dg_life_notes(dg_buf *b, const dg_timeline *t, const dg_view *v, const char *sep);

#endif /* TL_DG_INTERNAL_H */
