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
 *    graphical and the text chart are two views of the same model;
 *  - for a function whose sizes are formulas, the labels of its live totals
 *    and the legend that spells them out (dg_legend), for both charts.
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

/* "128 MiB" (rp_format_bytes) into b; "?" when unknown. */
void dg_buf_bytes(dg_buf *b, int64_t bytes);
/* A line as a drawing names it: "12", in a program "12 of layers.c" (ir_unit_line_text). */
void dg_buf_line(dg_buf *b, const an_report *r, int line);
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
    const an_summed_loop *summed; /* the loop over run-time sizes whose iterations it is */
    int summed_part;      /* with summed: DG_SUMMED_ALL its iterations, DG_SUMMED_LATER all
                             but the first, DG_SUMMED_SOME others (the count is the log's) */
} dg_span;

enum { DG_SUMMED_ALL, DG_SUMMED_LATER, DG_SUMMED_SOME };

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
    sx_int first_sx;      /* formulas: bytes of its first member, and of the member the */
    sx_int shown_sx;      /* drawn repetition made ({0, SX_TOO_BIG}: unknown) */
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
    int peak_col;         /* model column of the peak (the first, for formulas), -1 */
    int64_t peak_bytes;
    bool symbolic;        /* the function's totals are formulas: so are its cells */
    bool *peak_cols;      /* per model column: the peak's; for formulas, a candidate's */
    bool grouping_cut;    /* the search for repeated runs hit its work limit */
    int n_discarded;      /* rows of branch arms not kept */
    int n_discarded_hidden; /* storages of branch arms not kept that have no row */
    int discarded_example;  /* one of them */
} dg_timeline;

void dg_timeline_build(dg_timeline *t, const an_report *r, const an_func_report *f, bool expand);
void dg_timeline_free(dg_timeline *t);
/* Bytes row holds live after event ev, and how many of its members. */
int64_t dg_timeline_cell(const dg_timeline *t, int row, int64_t ev, int64_t *n_live);
/* The same as a formula ({0, SX_TOO_BIG}: some member's size is unknown). */
sx_int dg_timeline_cell_sx(const dg_timeline *t, int row, int64_t ev, int64_t *n_live);
/* Bytes live after the call of model column col: a number, or a formula
 * ({0, SX_TOO_BIG} when the analysis could not write it). */
sx_int dg_timeline_live(const dg_timeline *t, int col);
/* Which of n equal steps bytes' share of peak is in (step q: q/n < share <=
 * (q+1)/n; step 0 also share 0), when that holds for every value of the
 * symbols; -1 when it depends on them. */
int dg_share_step(sx_int bytes, sx_int peak, int n);
/* The name of the value the call at event ev made, when it lives in row's storage; else NULL. */
const char *dg_timeline_made_here(const dg_timeline *t, int row, int64_t ev);
/* "S3", "S5 … (40)" */
void dg_buf_row_id(dg_buf *b, const dg_timeline *t, int row);
/* Names of the values that live in row's storage, its maker first: "d, e",
 * or with mark_views "d; views: e". */
void dg_buf_row_names(dg_buf *b, const dg_timeline *t, int row, bool mark_views);
/* Words for a span: "loop at line 18 ×40", "loop at line 36 ×steps" */
void dg_buf_span(dg_buf *b, const dg_timeline *t, const dg_span *s);
/* How often it runs: "×40", "×steps", "×(steps - 1)" (the iterations after
 * the first), or "×2 analysed" (repetitions in the log, not in the run). */
void dg_buf_span_count(dg_buf *b, const dg_span *s);
/* Which repetition is drawn: "repetition 1", "the iteration t = steps - 1". */
void dg_buf_span_drawn(dg_buf *b, const dg_span *s);

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
    int peak_vcol;          /* -1 when there is no call (the first, for formulas) */
    bool *peak;             /* [n_cols]: holds a peak column */
    int64_t *bytes;         /* [n_rows][n_cols]: bytes live; -1 unknown */
    sx_int *bytes_sx;       /* formulas: [n_rows][n_cols] ({0, SX_TOO_BIG}: unknown) */
    bool *cells_add_up;     /* formulas, [n_cols]: the known cells sum to the live total (a
                               storage a summarised loop resizes holds its final bytes) */
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
sx_int dg_view_cell_sx(const dg_view *v, int k, int c, int64_t *n_live);

/* "main(): 7 calls, peak 640 MiB after line 29 (clone f), live at the end 640 MiB" */
void dg_life_summary(dg_buf *b, const dg_timeline *t);
/* What the chart merges or leaves out, one sentence each, joined by sep. */
void dg_life_notes(dg_buf *b, const dg_timeline *t, const dg_view *v, const char *sep);

/* ---- dg_legend.c: the live totals of a function whose sizes are formulas ---- */

typedef struct dg_legend {
    int *label;           /* per view column: k >= 1 for Lk, 0 a number or unknown */
    int n_labels;
    sx_int *formula;      /* [n_labels + 1]: formula[k] of Lk */
    int *first_col;       /* [n_labels + 1]: the first view column labelled Lk */
} dg_legend;

/* The labels of t's live totals in view v (none when t has no formulas). */
void dg_legend_init(dg_legend *lg, const dg_timeline *t, const dg_view *v);
void dg_legend_free(dg_legend *lg);
/* The total after view column c: "L3", a short number ("640M"), or "?". */
void dg_buf_live_label(dg_buf *b, const dg_legend *lg, const dg_timeline *t, const dg_view *v,
                       int c);
/* The legend, one line each (joined by sep): what the shades say, each
 * label's formula, and the peak in labels. */
void dg_legend_lines(dg_buf *b, const dg_legend *lg, const dg_timeline *t, const dg_view *v,
                     const char *sep, bool text);

#endif /* TL_DG_INTERNAL_H */
