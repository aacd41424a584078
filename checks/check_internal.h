/*
 * check_internal.h: what the rules (check_<family>.c) share: the context
 * with the facts derived once from the event log (check_facts.c), the
 * diagnostic helpers (check_core.c) and the source text used for fix-its
 * (check_source.c).
 *
 * Event indices are int64_t (the log can be long); value and storage ids
 * are ints, as in an.h.  A rule adds a diagnostic with ck_diag_add and
 * completes its notes and fix-its before it adds the next one (the list
 * may move when it grows).
 */
#ifndef TL_CHECK_INTERNAL_H
#define TL_CHECK_INTERNAL_H

#include "rp_report.h"
#include "check.h"
#include "xalloc.h" /* every allocation of the checks: out of memory ends the process */

/* ---- source text (check_source.c) ---- */

typedef struct ck_src ck_src;

typedef struct ck_pos {
    int line, col; /* 1-based, bytes */
} ck_pos;

typedef struct ck_span {
    ck_pos begin, end; /* end is one past the last byte */
} ck_span;

#define CK_MAX_ARGS 16

typedef struct ck_call_text {
    ck_span name;               /* the callee's identifier */
    ck_span whole;              /* from the identifier to one past ')' */
    int n_args;
    ck_span args[CK_MAX_ARGS];  /* each argument without surrounding blanks */
} ck_call_text;

ck_src *ck_src_load(const char *path); /* NULL when the file cannot be read */
/* The unit's file, or a program's files one after another (ir.h). */
ck_src *ck_src_load_unit(const ir_unit *u);
ck_src *ck_src_from_text(const char *text, size_t len); /* a copy of text[0..len) */
void ck_src_free(ck_src *s);
/* The text of line (without its newline) and its length; NULL past the end. */
const char *ck_src_line(const ck_src *s, int line, int *len);
/* The call written at pos, when it is literally `name(...)`. */
bool ck_src_call(const ck_src *s, ck_pos pos, const char *name, ck_call_text *out);
/* One past the ';' that ends the statement containing pos, or false. */
bool ck_src_stmt_end(const ck_src *s, ck_pos pos, ck_pos *out);
/* The text of span, newly allocated. */
char *ck_src_text(const ck_src *s, ck_span span);
/* The leading blanks of line, newly allocated. */
char *ck_src_indent(const ck_src *s, int line);
/* One past the expression at pos: an identifier and, when a '(' follows,
 * its argument list; a single character otherwise. */
bool ck_src_extent(const ck_src *s, ck_pos pos, ck_pos *end);
/* The 1-based UTF-16 column of byte column col on line (SARIF's default unit). */
int ck_src_utf16_col(const ck_src *s, int line, int col);
int ck_src_n_lines(const ck_src *s);
/* GitHub's primaryLocationLineHash of every line: an array indexed by line
 * (1-based, entries and array allocated; NULL entries for lines it skips). */
char **ck_src_line_hashes(const ck_src *s);
/* Call fn for every piece of comment text, one line at a time (line, column
 * of the piece's first byte). */
typedef void (*ck_comment_fn)(void *ctx, int line, int col, const char *text, int len);
void ck_src_comments(const ck_src *s, ck_comment_fn fn, void *ctx);
/* Whether line holds nothing but blanks and `tl_release(var);`. */
bool ck_src_is_release_line(const ck_src *s, int line, const char *var);

/* ---- uses the event log does not show (check_ir.c) ---- */

typedef enum ck_mention_kind {
    CK_MENTION_QUERY,    /* tl_size(x, 0), tl_print(x) ... */
    CK_MENTION_EXTERNAL, /* passed to a function not defined in the file */
    CK_MENTION_USER,     /* passed to a function of the file */
    CK_MENTION_ALIAS,    /* copied into another variable: y = x */
    CK_MENTION_RETURN,   /* returned */
    CK_MENTION_ESCAPE    /* escapes into a construct the front end does not follow */
} ck_mention_kind;

#define CK_MENTION_ANY 0x3fu

typedef struct ck_ir_index ck_ir_index;

ck_ir_index *ck_ir_index_build(const an_report *r);
void ck_ir_index_free(ck_ir_index *ms);

/* ---- the context and its facts (check_facts.c) ---- */

typedef enum ck_pick {  /* events collected for the rules that scan for them */
    CK_PICK_WRITE,       /* in-place ops and tl_set */
    CK_PICK_CONV,        /* tl_conv2d */
    CK_PICK_LOST,        /* LOST */
    CK_PICK_TEMP,        /* calls whose result is a temporary */
    CK_PICK_WIDE,        /* calls with more operands than recorded */
    CK_N_PICKS
} ck_pick;

/* An event index in a list: 32 bits halve the lists (the log is far shorter;
 * ck_facts_build refuses longer logs). */
typedef int32_t ck_evix;

typedef struct ck_list {  /* a compressed list of event indices per id */
    ck_evix *start;       /* n + 1 offsets into idx */
    ck_evix *idx;
} ck_list;

typedef struct ck_lazy {     /* what a run reads only when a rule first needs it */
    bool src_loaded;
    ck_src *src;              /* NULL when the source cannot be read: no fix-its */
    ck_ir_index *ir;          /* the IR looked up: uses outside the log, statements */
} ck_lazy;

typedef struct ck_ctx {
    an_report *r;
    const ck_options *o;
    ck_lazy *lazy;
    bool log_complete;        /* no event was dropped: "nothing else uses it" can be said */
    int64_t *value_event;     /* per value: its first CALL event, -1 */
    int64_t *storage_event;   /* per storage: the CALL that made it, -1 */
    ck_list storage_uses;     /* per storage: CALL events with it among the operands */
    ck_list storage_life;     /* per storage: CALLs making a handle into it, its RELEASE and
                                 LOST events, in order */
    int n_segments;
    struct ck_segment {
        int64_t begin, end;    /* events [begin, end) */
        int root;              /* the root function of the run, -1 when unknown */
    } *segments;
    int64_t *func_first, *func_last; /* per function of the unit: its first, last event, -1 */
    int64_t *picks[CK_N_PICKS]; /* per kind, the events of that kind, in order */
    int64_t n_picks[CK_N_PICKS];
    int64_t *wide;            /* == picks[CK_PICK_WIDE] */
    int64_t n_wide;
    int n_diags, cap_diags;
    an_diag *diags;           /* this run's diagnostics, merged into r->diags at the end */
} ck_ctx;

/* The unit's source text, read on first use; NULL when it cannot be read. */
const ck_src *ck_source(const ck_ctx *cx);
/* The IR index, built on first use. */
const ck_ir_index *ck_ir(const ck_ctx *cx);
void ck_facts_build(ck_ctx *cx);
void ck_facts_free(ck_ctx *cx);
/* The root run of event i. */
int ck_segment_of(const ck_ctx *cx, int64_t i);

/* The list of id k. */
static inline int64_t ck_list_len(const ck_list *l, int k) { return l->start[k + 1] - l->start[k]; }
static inline const ck_evix *ck_list_at(const ck_list *l, int k) { return l->idx + l->start[k]; }

const an_event *ck_event(const ck_ctx *cx, int64_t i);
/* The value id of operand k of the value's first execution, or -1. */
int ck_operand(const ck_ctx *cx, int value, int k);
/* The value a view chain starts from: follow view_of while the value is a view. */
int ck_view_root(const ck_ctx *cx, int value);
/* Whether the value made a new storage of a known, positive size. */
bool ck_value_allocates(const ck_ctx *cx, int value);
int64_t ck_value_bytes(const ck_ctx *cx, int value); /* its storage's bytes, or -1 */
/* Sizes that are formulas (docs/symbolic.md).  The rules that take them use
 * these; the others look at values whose sizes are known. */
bool ck_value_allocates_any(const ck_ctx *cx, int value); /* known or symbolic sizes */
bool ck_storage_counts(const an_storage *st);  /* > 0 bytes, or a formula (sizes >= 1) */
/* " (when d > 1 and n > 1)": the assumptions made up to the value's line on
 * the symbols of its sizes (its facts hold under them), "" when none or its
 * sizes are known; newly allocated. */
char *ck_when(const ck_ctx *cx, int value);
/* Byte counts that may be formulas, and the conditions a rule needs on them
 * (check_formula.c). */
sx_int ck_storage_sx(const an_storage *st); /* its bytes, known or a formula */
/* numel x element size of the value's first execution; false when unknown. */
bool ck_value_nbytes_sx(const ck_ctx *cx, int value, sx_int *out);
/* The dtype of a value, known or over run-time sizes: false when neither. */
bool ck_value_dtype(const ck_ctx *cx, int value, tl_dtype *out);
/* The bytes its first execution moved, known or a formula. */
sx_int ck_value_moved_sx(const an_value *v);
/* ck_broadcast_factor of the value's layout, known or a formula; false
 * when a stride may or may not be 0. */
bool ck_broadcast_factor_sx(const ck_ctx *cx, int value, sx_int *out);
/* Neither too big to compare nor over a loop's probe counter. */
bool ck_sx_usable(sx_int a);
/* part as a share of whole: "0.1%" (a constant share), "1/n"; NULL when
 * neither is exact; newly allocated. */
char *ck_sx_fraction(sx_int part, sx_int whole);
typedef struct ck_conds {  /* the conditions on sizes a rule needs to fire */
    bool never;            /* one fails for every value, or decides nothing: quiet */
    int n;
    struct ck_cond {       /* the undecided ones, each once */
        sx_int d;          /* as d >= 0 */
        sx_int a;          /* as the rule put it: a rel b */
        sx_rel rel;
        sx_int b;
    } *d;
} ck_conds;
void ck_conds_init(ck_conds *c);
void ck_conds_free(ck_conds *c);
/* Need a rel b: proved (nothing to say), refuted (never), or a condition. */
void ck_conds_need(ck_conds *c, sx_int a, sx_rel rel, sx_int b);
/* 1: every condition holds for every value of the sizes; -1: for some
 * (sizes that meet the report's assumptions and every condition were found);
 * 0: for none, or none were found. */
int ck_conds_verdict(ck_conds *c);
/* " (when n > 4 and d > 1)", "" when every condition is proved; those the
 * others imply are left out (and dropped from c); newly allocated. */
char *ck_conds_when(ck_conds *c);
/* The conditions of two " (when ...)" texts (ck_conds_when, ck_when) as
 * one, each once; takes both. */
char *ck_when_join(char *a, char *b);
/* 1: has a stride-0 dim of size > 1, 0: has none, -1: the sizes do not say. */
int ck_value_overlaps(const ck_ctx *cx, int value);
/* The last CALL event in [from, to) that uses storage s (wide calls included), or -1. */
int64_t ck_last_use_before(const ck_ctx *cx, int s, int64_t from, int64_t to);
/* Whether some CALL in [from, to) has more operands than the log records. */
bool ck_wide_between(const ck_ctx *cx, int64_t from, int64_t to);
/* Whether a handle into storage s is passed where the log does not follow it. */
bool ck_storage_escapes(const ck_ctx *cx, int s);
/* One past the storage's life: its free event, or the end of its root's run. */
int64_t ck_storage_end(const ck_ctx *cx, int s);
/* Whether storage s is used, and only by calls of site v. */
bool ck_only_used_by(const ck_ctx *cx, int s, int v);
/* The nearest tl_expand / tl_as_strided in the view chain ending at value, or -1. */
int ck_broadcast_cause(const ck_ctx *cx, int value);
/* Logical elements per physical element: the product of the stride-0 dims' sizes. */
int64_t ck_broadcast_factor(const mt_layout *l);
bool ck_op_is_copy(mt_op op); /* clone, contiguous, to*, reshape/flatten when they copy */
bool ck_op_writes(mt_op op);  /* in-place ops and tl_set */
/* Whether casting dtype a to b keeps every value exactly (check_copies.c). */
bool ck_cast_exact(tl_dtype a, tl_dtype b);

/* Whether a tensor variable called name is mentioned (one of kinds, a mask of
 * 1 << ck_mention_kind) in func on a line in (after_line, before_line). */
bool ck_mentioned(const ck_ctx *cx, const char *name, int func, int after_line, int before_line,
                  unsigned kinds);
/* The variable the API call of func at (line, col) assigns, or IR_NO_VAR. */
int ck_ir_call_result(const ck_ctx *cx, int func, int line, int col);
/* Whether variable var is mentioned (a mask of 1 << ck_mention_kind). */
bool ck_var_mentioned(const ck_ctx *cx, int var, unsigned kinds);
/* The block of func whose closing brace is at (line, col), or NULL. */
const ir_block *ck_ir_block_ending(const ck_ctx *cx, int func, int line, int col);
/* Whether b holds a return, break, continue or an unfollowed construct. */
bool ck_ir_block_jumps(const ir_block *b);
/* Whether func runs a statement of kind at (line, col) unconditionally, once:
 * outside every if and loop. */
bool ck_ir_straight_line(const ck_ctx *cx, int func, ir_stmt_kind kind, int line, int col);
bool ck_ir_is_main(const ck_ctx *cx, int func);
/* Per function of the unit: func itself and every function it calls,
 * directly or not (allocated). */
bool *ck_ir_closure(const ck_ctx *cx, int func);
/* The block of func holding a statement of kind at (line, col), at any depth, or NULL. */
const ir_block *ck_ir_block_of(const ck_ctx *cx, int func, ir_stmt_kind kind, int line, int col);
const ir_block *ck_ir_body(const ck_ctx *cx, int func);
/* -1, 0, 1 as (line, col) is before, at or after (line2, col2). */
int ck_loc_cmp(int line, int col, int line2, int col2);
/* The index of b's statement that contains (line, col): the last one starting
 * at or before it, or -1 (before the first, or after the block's end). */
int ck_ir_stmt_at(const ir_block *b, int line, int col);
/* Where the statement after b's statement k starts (or b's closing brace). */
ir_loc ck_ir_stmt_next(const ir_block *b, int k);
/* The place right after b's statement k (one past its ';' or its closing
 * brace), for inserting a statement; false when the source does not say. */
bool ck_ir_stmt_after(const ck_ctx *cx, const ir_block *b, int k, ck_pos *out);

/* ---- diagnostics (check_core.c) ---- */

/* A new diagnostic of check id at (line, col), or NULL for a repeat of
 * (id, line, col) or a disabled check. */
an_diag *ck_diag_add(ck_ctx *cx, ck_id id, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void ck_note(an_diag *d, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A fix-it replacing [begin, end) with text (copied). */
void ck_fixit(an_diag *d, ck_pos begin, ck_pos end, const char *text);
/* Append diags (moved: their strings now belong to r) to r->diags and sort them. */
void ck_diags_merge(an_report *r, an_diag *diags, int n);
bool ck_enabled(const ck_ctx *cx, ck_id id);

/* Bytes for messages: "128 MiB", "4000 B".  Use as ck_bytes(n).s in one expression. */
typedef struct ck_bytes_text {
    char s[512];
} ck_bytes_text;
ck_bytes_text ck_bytes(int64_t n);
/* A storage's bytes: ck_bytes, or the formula ("4*n*d B") when its size is one. */
ck_bytes_text ck_storage_bytes(const an_storage *st);
/* Bytes that may be a formula: ck_bytes, or "4*n*d B" (check_formula.c). */
ck_bytes_text ck_sx_bytes(sx_int a);

/* " (per execution; runs 40 times, 40 MiB in all)" for a value run more than
 * once, "" otherwise; in a loop run a number of times that is a formula,
 * " (per execution; it runs a number of times known only at run time)";
 * newly allocated. */
char *ck_times(const ck_ctx *cx, int value, int64_t bytes_per_run);
/* ck_times of bytes that may be a formula: "(per execution; runs 3 times,
 * 12*n*d B in all)". */
char *ck_times_sx(const ck_ctx *cx, int value, sx_int bytes_per_run);
/* When value inner is a temporary written as outer's first argument,
 * a fix-it rewriting `outer(inner(x), ...)` as `outer(x, ...)`. */
void ck_fix_unnest(const ck_ctx *cx, an_diag *d, int outer, int inner);
/* "(4096, 16384, 1)"; newly allocated. */
char *ck_tuple(int n, const int64_t *v);
/* A line as messages say it: "12", or in a program "12 of layers.c" (to free). */
char *ck_line_text(const ck_ctx *cx, int line);
/* "line 12", or "line 12 of model.c" in a program (to free). */
char *ck_line_word(const ck_ctx *cx, int line);
/* "'x' (line 12)" or "the temporary at line 12"; newly allocated. */
char *ck_value_label(const ck_ctx *cx, int value);

/* ---- the rules: one function per check, in check_<family>.c ---- */

#define CK_INTERP(id, name, sev, tags, summary)
#define CK_RULE(id, name, sev, tags, summary) void ck_rule_##id(ck_ctx *cx);
#define CK_DRIVER(id, name, sev, tags, summary)
#include "checks.def"
#undef CK_INTERP
#undef CK_RULE
#undef CK_DRIVER

#endif /* TL_CHECK_INTERNAL_H */
