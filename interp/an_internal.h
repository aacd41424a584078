/*
 * an_internal.h: the interpreter's state, shared by the an_*.c files.
 *
 * A handle is one tl_tensor * value: two variables assigned from each other
 * hold the same handle, as two C pointers would.  A storage is live while
 * some unreleased handle points into it.  Frames hold, per variable id of
 * the unit, the handle of a tensor variable and the value of an integer
 * variable.  Growable arrays double; nothing here is freed before
 * an_report_free / the end of an_analyze.
 */
#ifndef TL_AN_INTERNAL_H
#define TL_AN_INTERNAL_H

#include "alloc_policy.h"
#include "an.h"
#include "xalloc.h"
#include "sym.h"

#define AN_UNSET (-1)   /* a tensor variable with no handle yet (or NULL) */
#define AN_UNKNOWN (-2) /* a tensor variable whose handle cannot be followed */
/* Frames on the call stack: a call that would nest deeper (or deeper than
 * an_options.max_depth) is not followed, and a note says so. */
#define AN_MAX_DEPTH 64

typedef struct an_handle {
    bool known;     /* the layout is known */
    bool released;
    bool poison;    /* made by a failed call: uses stay silent */
    bool offset_unknown; /* known but its offset (an index not known statically) */
    mt_layout l;
    int storage;    /* storage id, -1 when unknown */
    int value;      /* value id of the call that made it, -1 */
    int sl;         /* not known, but over symbols: cx->r->slayouts[sl - 1] (0: none) */
    bool seg_elem;  /* an element read from a segment (its place: cx->mem.ptrs[seg_place]) */
    int seg_place;
    bool ident_unsure; /* it may stand for another handle at run time (two arms or two
                        * iterations joined): a == b on it is not known */
} an_handle;

/* ---- the abstract memory (an_mem.c) ---- */

#define AN_MAX_PATH 8   /* keys in a location's path */
#define AN_HEAP (-1)    /* loc.frame of a heap block (var: the block's number) */
#define AN_RET (-2)     /* loc.frame of the return register (a struct returned by value) */
#define AN_FUNC (-3)    /* loc.frame of a function, what a function pointer points to (var:
                         * its index in unit->funcs; -1 - k: unit->ext_funcs[k]) */

/* An array index in a location's path is a known index, or a formula over
 * symbols (AN_KEY_SYM + its sx id: the counter of a loop being summarised,
 * say), or AN_KEY_SEG: the segment of the array, one cell standing for a
 * run of elements whose bounds are formulas (its cell's ptr indexes
 * cx->mem.segs).  Known indices past AN_KEY_MAX are not followed. */
#define AN_KEY_SYM (INT64_C(1) << 62)
#define AN_KEY_SEG (INT64_MIN + 1)
#define AN_KEY_MAX (INT64_C(1) << 61)

static inline bool an_key_is_sym(int64_t k) { return k >= AN_KEY_SYM; }
static inline sx_int an_key_sx(int64_t k)
{
    return an_key_is_sym(k) ? (sx_int){0, (uint32_t)(k - AN_KEY_SYM)} : (sx_int){k, 0};
}

/* The elements lo .. hi - 1 of an array, alike: one cell holds what each
 * holds.  A segment of tensors each with a storage of its own has one
 * storage standing for all of them (elem_bytes each).  One of views of a
 * storage (rows[l] = tl_select(w, 0, l)) holds one reference to it for all
 * of them, elem_bytes 0, and its cell's handle has the layout of the element
 * at index idx (a symbol): an element read at k has it with idx := k. */
typedef struct an_seg {
    sx_int lo, hi;
    sx_int elem_bytes;
    sx_int idx;         /* views: the index in the template's layout; {0, 0} otherwise */
    int storage;        /* -1: none */
    int first;          /* the storage of the element iteration 1 made (listed), or -1 */
    sx_int full_bytes;  /* the storage's bytes when the run was whole (before releases) */
    int free_line, free_col, free_func; /* where an element was last released (0: nowhere) */
} an_seg;

typedef struct an_loc {
    int frame;          /* the frame's serial; 0: globals; AN_HEAP, AN_RET */
    int var;            /* variable id, or heap block number */
    int n;              /* keys in the path */
    bool elem;          /* as a pointer's target: an array element (p + i moves along) */
    int64_t key[AN_MAX_PATH]; /* field bit offsets and array indices */
} an_loc;

typedef enum an_cell_kind {
    AN_CELL_INT,
    AN_CELL_TENSOR,
    AN_CELL_PTR,
    AN_CELL_ZERO,    /* a marker: everything at and below reads as zero / NULL */
    AN_CELL_UNKNOWN  /* a marker: everything at and below is not known */
} an_cell_kind;

/* An integer of the state (a cell, a frame slot, a return value) is known
 * (known, i its value), symbolic (not known, i > 0: an sx expression id of
 * sym/sym.h) or unknown (not known, i == 0).  Whatever writes "not known"
 * writes i with it. */
typedef struct an_cell {
    an_cell_kind kind;
    bool known;      /* INT: i is known; PTR: the pointer is known (ptr -1: NULL) */
    bool seg;        /* INT, TENSOR: a segment's cell (ptr: its index in cx->mem.segs) */
    int64_t i;       /* INT: the value, or the symbolic expression; UNKNOWN marker: its
                      * fill source + 1 in cx->mem.fills (0: none) */
    int handle;      /* TENSOR: handle index, AN_UNSET or AN_UNKNOWN */
    int ptr;         /* PTR: index in cx->mem.ptrs, -1 for NULL; a segment's: cx->mem.segs */
    const char *place; /* TENSOR written by a store: the place's C spelling ("a->ln1"), for
                          the peak's names; NULL otherwise (a copy, a fill) */
} an_cell;

typedef struct an_entry {
    an_loc loc;
    an_cell cell;
} an_entry;

typedef struct an_mem {
    an_entry *e;     /* entries; removed ones have loc.frame INT_MIN until compacted */
    int n, cap;
    int *index;      /* open addressing over e: entry index or -1 */
    int index_cap;   /* a power of two */
    int n_dead;
    bool has_sym;    /* some entry's path has a formula index or a segment (reads look for aliases) */
} an_mem;

typedef struct an_frame {
    int func;
    int serial;         /* unique per invocation; locations name frames by it */
    int n_mem;          /* memory entries written for its variables (0: nothing to drop) */
    /* By slot (an_ctx.slot): the unit's globals, then the function's own
     * variables; a frame is as small as its function. */
    int *tensor;        /* handle index, AN_UNSET or AN_UNKNOWN */
    int64_t *ints;      /* integer value */
    bool *int_known;
    int line, col;      /* the statement executing in this frame */
    int ret_handle;     /* returned handle, AN_UNSET or AN_UNKNOWN */
    bool ret_int_known;
    int64_t ret_int;
    bool has_ret_ptr;   /* a pointer was returned: ret_ptr */
    an_cell ret_ptr;
    bool has_ret_obj;   /* a struct was returned: in the AN_RET register */
    int loops;          /* loops of this invocation being executed */
    int host_loops;     /* those of them that touch no tensor (an_loop.c): an exit in
                           their iterations is an assumption on the run's path, as one
                           outside loops is */
    struct an_ret_path **rets; /* returns taken by an arm of an unknown branch while the
                           other went on, to be joined at the function's exit (an_return.c) */
    int n_rets;
} an_frame;

typedef enum an_flow {
    AN_FLOW_NEXT, AN_FLOW_BREAK, AN_FLOW_CONTINUE, AN_FLOW_RETURN, AN_FLOW_STOP,
    AN_FLOW_GOTO, /* a goto looks for its label (cx->ctl.goto_label) in the enclosing blocks */
    AN_FLOW_EXIT  /* the program ends (exit, abort): every block, loop and call is left */
} an_flow;

/* The statement that made the last flow that leaves (return, goto, exit):
 * what an assumed path names. */
typedef struct an_leave {
    int line;
    const char *text;   /* its C text ("return 1"), or NULL */
    const char *callee; /* the program ended in this function of the file, called here */
} an_leave;

typedef struct an_fstate {   /* per function accounting while it executes */
    int active;              /* invocations on the stack */
    bool done_first;         /* end_live_bytes recorded */
    bool peak_dirty;         /* a new peak whose live set is not yet recorded */
} an_fstate;

/* Where unknown contents came from (a fill by fread, read ...): symbols
 * read from them are named base + the field path. */
/* A symbol read from a filled object: the path below the fill's place, so
 * that the same run-time value read through a copy (a struct copied by
 * value, a parameter) is the same symbol. */
typedef struct an_fill_read {
    int n;
    int64_t key[AN_MAX_PATH];
    sx_int v;
} an_fill_read;

typedef struct an_fill_src {
    const char *base;   /* the filled place's C spelling: "config", "*p" */
    char *origin;       /* "fread" (owned) */
    bool deref;         /* the place is what a pointer points to: its fields read "p->f" */
    bool data;          /* a tensor's elements (tl_copy_to_host): values, not sizes */
    int line, col;
    an_fill_read *reads; /* the symbols read from it so far, one per path (owned) */
    int n_reads, cap_reads;
} an_fill_src;

/* an_ctx.out, the report being written: its tables' capacities and indexes into them. */
typedef struct an_out {
    int cap_values, cap_storages, cap_diags, cap_summed_loops;
    int64_t cap_events;
    int *site_value;     /* per call site (ir_stmt.call.site): its value id, or -1 */
    int cap_slayouts;
    int *report_of;      /* per function: index in r->funcs, or -1 */
    bool log_events;     /* events are kept for the first root only */
} an_out;

/* an_ctx.vars, where each variable of the unit lives in a frame (fixed after setup). */
typedef struct an_vars {
    int **func_vars;     /* per function: its variable ids */
    int *n_func_vars;
    int *slot;           /* per variable: its index in a frame's arrays */
    int n_globals;       /* variables outside any function (slots 0 .. n_globals-1) */
    int *global_vars;    /* their ids, by slot */
    bool *never_set;     /* per variable: a tensor local declared uninitialized and never
                            set (an_uninit.c): every use is an error */
} an_vars;

/* an_ctx.tens, handles and the per-storage state of the storages they point into.
 * Invariants: 0 <= n_handles <= cap_handles, and a handle's storage is -1 or
 * a storage of the report; refs and live_storage have an entry per storage
 * (cap_refs >= r->n_storages), refs >= 0; no storage of an earlier root
 * (below root_first_storage <= r->n_storages) is live. */
typedef struct an_tensors {
    an_handle *handles;
    int64_t n_handles, cap_handles;
    int64_t *refs;       /* per storage: live handles */
    bool *live_storage;  /* per storage: counted in live bytes */
    int root_first_storage; /* storages before it belong to earlier roots: never live */
    int cap_refs;
    ca_allocator *cuda;  /* the caching allocator, simulated for CUDA storages (per root) */
    int64_t *cuda_block; /* per storage: the simulated block id, 0 for none */
    int64_t cap_cuda_block;
} an_tensors;

/* an_ctx.acct, the accounting: bytes live and moved, counters of the run.
 * Invariants (asserted): every total and counter is >= 0; live is the sum
 * of the live storages' sizes that are numbers, live_sx the sum of those
 * that are formulas (between statements: a call counts its temporaries only
 * while it runs);
 * exec_clock only goes up (it stamps executions across undone trials). */
typedef struct an_acct {
    int64_t live;        /* bytes */
    sx_int live_sx;      /* bytes of live storages whose size is symbolic */
    int64_t moved_total; /* bytes moved by every call executed, both arms of branches included */
    int64_t arm_peak;    /* bytes: the most live since the current branch arm began */
    int64_t n_calls;     /* in the current root */
    int64_t n_bound_marks; /* an_mark_claim calls: a trial sees whether it made a bound */
    int64_t sym_events;  /* calls, storages and frees whose bytes are formulas, so far */
    an_fstate *fs;       /* per function */
    int64_t exec_clock;  /* value executions so far (an_value.runs_stamp); never undone */
    int64_t n_steps;     /* statements begun in the current root (max_steps) */
} an_acct;

/* an_ctx.mem, the memory: cells of structs, arrays and the heap, what points where.
 * Invariants: cells.n <= cells.cap, 0 <= cells.n_dead <= cells.n, the index
 * a power of two larger than cells.n; a live cell's handle is AN_UNSET,
 * AN_UNKNOWN or a handle (< tens.n_handles), a known pointer's -1 or one of
 * ptrs, a segment cell's one of segs; n_x <= cap_x for ptrs, fills, segs
 * (append only: an index, once given, keeps its meaning). */
typedef struct an_memory {
    an_mem cells;        /* structs, arrays, pointers, the heap */
    an_loc *ptrs;        /* pointer targets, by index (append only) */
    int n_ptrs, cap_ptrs;
    int n_heap;          /* heap blocks made */
    an_fill_src *fills;  /* sources of unknown contents (markers' i - 1) */
    int n_fills, cap_fills;
    an_seg *segs;        /* segments, by index (append only: a change is a new one) */
    int n_segs, cap_segs;
} an_memory;

/* an_ctx.ctl, the control: the call stack, the flow followed, branches and loops open.
 * Invariants: 0 <= depth <= AN_MAX_DEPTH, stack[0 .. depth - 1] the frames
 * of functions of the unit, each with a serial in 1 .. next_serial and
 * host_loops <= loops; loop_depth, if_depth, summarising >= 0, and all of
 * them 0 (and depth too) when a root starts and when it ends. */
typedef struct an_control {
    an_frame *stack[AN_MAX_DEPTH];
    int depth;
    int loop_depth;
    int root;            /* function index of the current root */
    bool stopped;        /* the call budget ran out */
    an_frame *gframe;    /* the globals (and static locals): one for the whole run */
    an_frame *pending;   /* a callee frame being bound, not yet on the stack */
    int next_serial;
    int goto_label;      /* AN_FLOW_GOTO: the label looked for */
    an_leave leave;      /* AN_FLOW_RETURN, _GOTO, _EXIT: the statement that left */
    int64_t n_gotos;     /* gotos taken in the current root */
    int if_depth;        /* unknown branches being analysed (alternatives only at depth 0) */
    int summarising;     /* loop summaries in progress (their probes run) */
    int early_exit_line; /* while summarising: the first unknown branch seen that may leave
                            an iteration early (0: none) */
    const ir_stmt *counted_exit; /* `if (...) break;` whose exits a loop's count of
                            iterations, a symbol, accounts for (an_loop.c) */
    bool counted_exit_met; /* ... and the analysis met it not knowing whether it leaves */
    const ir_stmt *forced_if; /* `if (step % K == 0)` in a loop summarised per kind of
                            iteration: the arm it takes (forced_then) is the kind's */
    bool forced_then;
    /* what the execution counts of the calls run now are (an_value.runs_*) */
    bool upper_loop;     /* an unknown branch may have left the loop's iteration (break,
                            continue) earlier: counts are upper bounds to the loop's end */
    bool upper_func;     /* ... may have left the function (return, goto): to its end */
    int runs_unknown;    /* loops analysed for one iteration of a trip count not known */
    int stop_line, stop_col; /* where the analysis stopped at a limit (cx->ctl.stopped) */
    char *stop_why;      /* ... and why (owned): the analysis-limit warning, said when the
                            root ends (an_stop_settle), since a loop trial the limit ends
                            undoes the diagnostics and the claims it made */
    int *stop_funcs;     /* the functions on the stack then, whose totals are bounds */
    int n_stop_funcs;
    bool host_left_early; /* the innermost loop touching no tensor may have been left, or
                             an iteration of it cut short, where the analysis could not
                             tell (br_early_exit): what it wrote is not known after it */
} an_control;

/* an_ctx.sym, the symbols: names given in the current root, unknown tokens, --bind.
 * Invariants: cap is 0 or a power of two, and n_names < cap (open
 * addressing keeps a free slot) or both are 0. */
typedef struct an_symbols {
    char **names;        /* the names given to symbols in the current root (open addressing) */
    int *counts;         /* per name: how many symbols have it (the next is name#count+1) */
    int cap, n_names;
    bool *local;         /* per symbol: named after a helper's local (its caller's variable
                            names it when it is returned there) */
    int cap_local;
    char **origin;       /* per symbol: its origin (root, site, spelling, nth there) */
    int cap_origin;
    const struct an_name_map *names_from; /* the names the analysis without --bind gave */
    bool *bind_used;     /* per --bind: a symbol of its name was met */
    sx_int *token_value; /* per unknown token (an_unknown_token): the value its first read
                            gave (a symbol, or what --bind gave it) */
    bool *token_read;
    int cap_tokens, n_unknown_tokens;
    /* joins (an_branch.c) */
    bool *token_floorless; /* per unknown token: a join of values one of which may be below
                              1 (EXIT_SUCCESS or EXIT_FAILURE, -1 or an index): read, it is
                              a run-time value with no lower bound, not a size */
    int cap_floorless;
} an_symbols;

typedef struct an_ctx {
    const ir_unit *u;
    an_options opt;
    an_report *r;
    an_out out;
    an_vars vars;
    an_tensors tens;
    an_acct acct;
    an_memory mem;
    an_control ctl;
    an_symbols sym;
} an_ctx;

/* an_ctx.c: the parts' invariants (above) asserted where the whole state
 * must hold them (at_root: a root starts or has ended); nothing with NDEBUG. */
#ifdef NDEBUG
#define an_ctx_check(cx, at_root) ((void)0)
#else
void an_ctx_check(const an_ctx *cx, bool at_root);
#endif

/* The integer (known, i) as an sx_int; false when it is unknown. */
static inline bool an_int_get(bool known, int64_t i, sx_int *out)
{
    if (known)
        *out = (sx_int){i, 0};
    else if (i > 0 && i <= (int64_t)UINT32_MAX)
        *out = (sx_int){0, (uint32_t)i};
    else
        return false;
    return true;
}
/* Store v (or unknown when !ok) as (known, i). */
static inline void an_int_put(bool ok, sx_int v, bool *known, int64_t *i)
{
    *known = ok && v.e == 0;
    *i = !ok ? 0 : v.e == 0 ? v.c : (v.e == SX_TOO_BIG ? 0 : (int64_t)v.e);
}

/* an_state.c */
int an_handle_new(an_ctx *cx, const an_handle *h);
/* After iterations not followed one by one (a loop analysed once): any cell
 * may hold another handle at run time, so no handle's identity is known. */
void an_handles_unsure(an_ctx *cx);
int an_storage_new(an_ctx *cx, int func, int value, int line, int col, tl_device dev,
                   int64_t nbytes);
void an_storage_unref(an_ctx *cx, int storage, int func, int line, int col);
/* resize_ of an out= tensor: the storage grows by grow bytes (live when it is). */
void an_storage_grow(an_ctx *cx, int storage, int64_t grow);
int an_value_new(an_ctx *cx, int func, const ir_stmt *s, const char *name);
/* The call site of v runs once more: its count's marks (an_value.runs_*). */
void an_value_ran(an_ctx *cx, an_value *v);
void an_site_put(an_ctx *cx, const ir_stmt *s, int value);
int an_site_get(const an_ctx *cx, const ir_stmt *s); /* value id or -1 */
/* A new event at the end of the log (fields zeroed, ids -1), or NULL when the log is full. */
an_event *an_event_push(an_ctx *cx, an_event_kind kind, int line, int col);
/* The handle h is no longer reachable from var: a LOST event if nothing else holds it. */
void an_handle_dropped(an_ctx *cx, int h, int var, int line, int col, const char *why);
void an_account_moved(an_ctx *cx, int64_t bytes);
void an_account_moved_sx(an_ctx *cx, sx_int bytes);
/* A storage whose size is symbolic (nbytes -1, nbytes_sx). */
int an_storage_new_sx(an_ctx *cx, int func, int value, int line, int col, tl_device dev,
                      sx_int nbytes);
/* Keep a symbolic layout; returns its sl (index + 1). */
int an_slayout_add(an_ctx *cx, const an_slayout *l);
/* Record a summarised loop in the report (an_report.summed_loops). */
void an_summed_loop_add(an_ctx *cx, const an_summed_loop *l);
void an_account_live(an_ctx *cx);
/* fr's totals from here on are formulas (symbolic): its peak so far, a
 * number, becomes the first candidate of the peak's formula (nothing when
 * it is already symbolic). */
void an_fr_symbolic(an_func_report *fr);
/* Record the live set of every function whose new peak has not been recorded
 * (called before live bytes go down, and when a function returns). */
void an_settle_peaks(an_ctx *cx);
an_func_report *an_func_report_of(an_ctx *cx, int func);
an_diag *an_diag_add(an_ctx *cx, an_severity sev, const char *check, int line, int col,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void an_diag_note(an_diag *d, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
an_frame *an_frame_new(an_ctx *cx, int func);
void an_frame_free(an_frame *f);
an_frame *an_top(an_ctx *cx);

/* an_call.c */
void an_exec_call(an_ctx *cx, const ir_stmt *s);
void an_exec_release(an_ctx *cx, const ir_stmt *s);
bool an_eval(an_ctx *cx, const ir_expr *e, int64_t *out);
/* e as a known or symbolic integer; false when unknown.  An unknown integer
 * read from a named place becomes a symbol named after it (and stays it). */
bool an_eval_sx(an_ctx *cx, const ir_expr *e, sx_int *out);
/* The symbol for an unknown integer assigned from e into the place named
 * name (origin from e's reason: "atoi", "fread"). */
sx_int an_new_symbol(an_ctx *cx, const char *name, const char *origin, int line, int col);
/* The same for a value that is no size (sx_symbol_value). */
sx_int an_new_value_symbol(an_ctx *cx, const char *name, const char *origin, int line, int col);
/* A new root: its symbols' names start again (each root's parameters are its own). */
void an_symbol_names_clear(an_ctx *cx);
/* The spellings symbols have taken so far, to give back those taken after it
 * by symbols no state holds any more (a loop's trial undone, what a loop
 * that touches no tensor wrote, forgotten): the next symbol named n is n
 * again, not n#2. */
typedef struct an_sym_mark {
    int n;
    char **names;       /* (the table's strings) */
    int *counts;
    int n_symbols;      /* sx_n_symbols() at the mark: those made after it are undone */
} an_sym_mark;
an_sym_mark an_symbol_names_mark(const an_ctx *cx);
void an_symbol_names_back(an_ctx *cx, an_sym_mark *m); /* frees m */
void an_symbol_names_unmark(an_sym_mark *m);
/* The names an analysis gave its symbols, by origin: with --bind, the
 * analysis runs first without, and each symbol takes the name the symbol of
 * the same origin had there, so that a name means the same value whatever
 * is bound (binding n may decide branches, unroll a loop, and make symbols
 * the first analysis never made: those take names it did not give). */
typedef struct an_name_map {
    int n, cap;
    int *roots;
    char **origins;
    char **names;
} an_name_map;
void an_symbol_names_harvest(an_ctx *cx, an_name_map *m);
void an_name_map_free(an_name_map *m);
void an_symbol_origins_free(an_ctx *cx);
/* An unknown integer with an identity, as a variable's (known false, i)
 * holds it (i < 0): every read before a write is one value, the symbol the
 * first read makes (i > 0: a symbol; 0: unknown, no identity). */
int64_t an_unknown_token(an_ctx *cx);
/* An unknown token for a join of values one of which may be below 1, and
 * whether token t is one (a read of it makes a value symbol, not a size). */
int64_t an_floorless_token(an_ctx *cx);
bool an_token_floorless(const an_ctx *cx, int64_t t);
/* Is the integer (known, i) the value unknown token t's first read gave (so
 * a join of the two is (known, i))? */
bool an_unknown_is(const an_ctx *cx, bool known, int64_t i, int64_t t);
/* Per variable of u: a tensor local declared without an initializer that
 * nothing sets (nor names as a place) on any path; newly allocated. */
bool *an_uninit_scan(const ir_unit *u);
/* var is such a variable: an uninitialized-handle error at s (true). */
bool an_uninit_use(an_ctx *cx, const ir_stmt *s, int var);
/* FNV-1a of a string. */
static inline size_t an_hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}
/* (known, i) = the integer assigned from e into the place named name (NULL:
 * unnamed): an unknown value from a call becomes a symbol of that name. */
void an_assign_int(an_ctx *cx, const ir_expr *e, const char *name, bool *known, int64_t *i);
/* The handle of tensor operand var in the top frame, or AN_UNSET / AN_UNKNOWN. */
int an_tensor_of(an_ctx *cx, int var);
/* A known layout as a layout over symbols (every entry known). */
void an_sl_of_layout(const mt_layout *l, an_slayout *out);

/* an_mem.c */
bool an_loc_eq(const an_loc *a, const an_loc *b);
an_loc an_loc_of_var(an_ctx *cx, int var);
an_frame *an_frame_by_serial(an_ctx *cx, int serial);
/* The location place p names now, or false with *why (bad_step: the step
 * whose index is unknown, else -1). */
bool an_place_loc(an_ctx *cx, const ir_place *p, an_loc *out, int *bad_step, const char **why);
bool an_mem_read(an_ctx *cx, const an_loc *l, an_cell *out);
void an_mem_write(an_ctx *cx, const an_loc *l, const an_cell *c);
int an_mem_handle(an_ctx *cx, const an_loc *l);
bool an_mem_int(an_ctx *cx, const an_loc *l, int64_t *out);
bool an_ptr_eval(an_ctx *cx, const ir_ptr *p, an_cell *out);
/* e (IR_EXPR_PTR_CMP) on the current state: false when not known. */
bool an_ptr_compare(void *cx, const ir_expr *e, int64_t *out);
int an_ptr_intern(an_ctx *cx, const an_loc *l);
void an_mem_fill(an_ctx *cx, const an_loc *l, bool zero, int line, int col);
/* The same, the unknown contents named after src (a fill by fread): index in cx->mem.fills. */
void an_mem_fill_from(an_ctx *cx, const an_loc *l, int src, int line, int col);
/* The integer at l as an sx_int (p: the place read, for the symbol's name);
 * an unknown one becomes a symbol, written back.  False when not an integer. */
bool an_mem_int_sx(an_ctx *cx, const an_loc *l, const ir_place *p, int line, int col, sx_int *out);
void an_mem_copy(an_ctx *cx, const an_loc *dst, const an_loc *src, int line, int col);
/* realloc: the cells of heap block `from` move to block `to`, at the same
 * keys; with count >= 0, the elements at index count and beyond are gone. */
void an_mem_realloc(an_ctx *cx, int from, int to, int64_t count, int line, int col);
bool an_mem_holds_handles(an_ctx *cx, const an_loc *l);
void an_mem_frame_exit(an_ctx *cx, an_frame *f, bool program_end);
bool an_mem_holds(const an_ctx *cx, int h);
/* Who holds each live storage now, for the peak's listing: names[s - first]
 * (first: cx->tens.root_first_storage) gets the names of the variables and places
 * whose handles keep storage s alive, AN_NAME_SEP between them, a view's as
 * "v (view of x)"; NULL where none has a name. */
void an_mem_holder_names(an_ctx *cx, char **names);
void an_mem_copy_into(an_mem *dst, const an_mem *src);
void an_mem_free(an_mem *m);
/* After the kept arm of an unknown branch: what differs from the other arm is weakened. */
void an_mem_join(an_ctx *cx, const an_mem *other);
/* The same for integers and pointers only (handles are left as they are): after
 * a loop analysed for one iteration, what it wrote is not known. */
void an_mem_join_scalars(an_ctx *cx, const an_mem *other);
/* Walk the memory's cells beside other's (NULL: each cell alone): every
 * live location of one is in the other, with a cell of the same kind;
 * integer and tensor cells go to f (which may rewrite mine), pointers and
 * markers must be equal.  False when the two differ or f says no. */
bool an_mem_map(an_ctx *cx, const an_mem *other,
                bool (*f)(void *ctx, an_cell *mine, const an_cell *theirs), void *ctx);
/* As an_mem_map, and a location of mine that other lacks passes when extra
 * says so (extra may rewrite the cell); such locations are not counted. */
bool an_mem_map_extra(an_ctx *cx, const an_mem *other,
                      bool (*f)(void *ctx, an_cell *mine, const an_cell *theirs),
                      bool (*extra)(void *ctx, const an_loc *l, an_cell *mine), void *ctx);
/* Reading place l of memory m gives an integer not known (written so, a
 * marker of unknown contents, or an entry that may be the same place). */
bool an_mem_reads_unknown(const an_ctx *cx, const an_mem *m, const an_loc *l);
/* The location of an array element whose index is the formula v. */
bool an_key_of(sx_int v, int64_t *key);
int an_seg_add(an_ctx *cx, const an_seg *s);
/* Entries of m by location: the index, -1 when none; put; remove (one entry). */
int an_mem_find(const an_mem *m, const an_loc *l);
void an_mem_put(an_mem *m, const an_loc *l, const an_cell *c);
void an_mem_remove(an_mem *m, const an_loc *l);
/* Could a write at l change what another entry holds (an index that may be
 * the same as another's, an element inside a segment)? */
bool an_mem_may_alias(an_ctx *cx, const an_loc *l);
/* The same value in two cells (a pointer: the same place). */
bool an_cell_same(const an_ctx *cx, const an_cell *a, const an_cell *b);
/* tl_release of an element of a segment: the segment loses it. */
void an_seg_release(an_ctx *cx, int h, int line, int col);
/* Segments whose last element is gone (lo >= hi for every value) are freed. */
void an_seg_collect(an_ctx *cx);
void an_diag_free(an_diag *d);
bool an_same_layout_handles(an_ctx *cx, int a, int b);

/* The totals of every function report (an_func_report's counters, its peak's
 * live set and an_fstate), saved to be put back: a loop's trial that is
 * undone, a branch arm the run is assumed not to take. */
typedef struct an_fr_saved {
    an_func_report fr;
    int *peak_storages;
    char **peak_names;
    an_fstate fs;
} an_fr_saved;
/* A copy of n peak names (an_func_report.peak_names); free them. */
char **an_names_dup(char *const *names, int n);
void an_names_free(char **names, int n);
an_fr_saved *an_frs_save(an_ctx *cx);
/* Put sv back (it stays saved) or put it back and free it. */
void an_frs_put(an_ctx *cx, const an_fr_saved *sv);
void an_frs_restore(an_ctx *cx, an_fr_saved *sv);
void an_frs_free(an_ctx *cx, an_fr_saved *sv);
/* Both arms of a branch count: the totals now (base and one arm) take in
 * what the other arm added to base (other: base and the other arm). */
void an_frs_merge(an_ctx *cx, const an_fr_saved *base, const an_fr_saved *other);

/* The totals of every function on the call stack become bounds from here:
 * an_mark_bound, of every total, not bounded (something not followed);
 * an_mark_claim, of the totals which (AN_BOUND_*), joined with claim. */
void an_mark_bound(an_ctx *cx);
/* The analysis stops at a limit (at line:col, why owned): for the functions
 * on the stack, the peak and the bytes moved so far are lower bounds of the
 * run's and the live bytes at the end are not bounded; the warning is said
 * when the root ends (an_stop_settle), whatever a loop trial undoes
 * meanwhile. */
void an_stop_at(an_ctx *cx, int line, int col, char *why);
void an_stop_settle(an_ctx *cx);
void an_mark_claim(an_ctx *cx, unsigned which, an_claim claim);
/* fr's totals in which (AN_BOUND_*) joined with claim. */
void an_claim_totals(an_func_report *fr, unsigned which, an_claim claim);
/* The slot of variable var (a global's in the globals frame). */
int *an_tensor_slot(an_ctx *cx, int var);
int64_t *an_int_slot(an_ctx *cx, int var, bool **known);

/* an_snap.c: the state of a branch arm or a loop trial, saved and restored,
 * one part of an_ctx at a time (each part's snapshot has the part's name). */
typedef struct an_snap_out {
    int64_t n_events;     /* the event log's length */
} an_snap_out;
typedef struct an_snap_tens {
    int64_t n_handles;
    an_handle *handles;
    int n_storages;
    int64_t *refs;        /* per storage, as an_tensors */
    bool *live_storage;
    an_storage *storages; /* the report's storages (their frees) */
    ca_allocator *cuda;   /* the simulated caching allocator, and each storage's block */
    int64_t *cuda_block;
    int64_t n_cuda_block;
} an_snap_tens;
typedef struct an_snap_acct {
    int64_t live;
    sx_int live_sx;
} an_snap_acct;
typedef struct an_snap_ctl {
    int depth;
    an_frame *frames;  /* depth of each: the call stack's frames, */
    int **tensors;     /* ... their variables (compacted: entry j is func_vars[f][j]) */
    int64_t **ints;
    bool **known;
    int *g_tensor;     /* the globals frame */
    int64_t *g_ints;
    bool *g_known;
} an_snap_ctl;
typedef struct snapshot {
    an_snap_out out;
    an_snap_tens tens;
    an_snap_acct acct;
    an_snap_ctl ctl;
    an_mem mem;        /* an_ctx.mem's cells (pointers, fills and segments are append-only) */
} snapshot;
void an_snap_take(an_ctx *cx, snapshot *sn);
void an_snap_restore(an_ctx *cx, const snapshot *sn);
void an_snap_free(snapshot *sn);
void *an_dup_mem(const void *p, size_t n);
void an_put_mem(void *dst, const void *src, size_t n);  /* memcpy, n may be 0 with NULLs */
/* The event log keeps events [0, from) and [to, ...): the ones between are dropped. */
void an_drop_events(an_ctx *cx, int64_t from, int64_t to);
bool an_same_layout(const mt_layout *a, const mt_layout *b);
bool an_same_slayout(const an_ctx *cx, int a, int b);

/* an_loop.c */
an_flow an_exec_loop(an_ctx *cx, const ir_stmt *s);

/* an_branch.c: an if (a chain of else-ifs in a loop) */
an_flow an_exec_if(an_ctx *cx, const ir_stmt *s);
/* The assumption that the run does not take the arm of branch s that leaves
 * (lv: the statement that leaves); its index in an_report.paths. */
int an_path_assume(an_ctx *cx, const ir_stmt *s, bool then_arm, const an_leave *lv);
/* After the kept arm of an unknown branch, what differs in other (the state
 * of another arm at the same point) is weakened: the top frame's variables,
 * the globals and the memory; true when the arms' live bytes are unordered
 * from here on.  join_slot's rule for one slot (a return value). */
bool an_join_vars(an_ctx *cx, const snapshot *other);
bool an_join_slot(an_ctx *cx, const snapshot *other, int *tensor, int64_t *ints, bool *known,
                  int theirs, int64_t their_int, bool their_known);

/* an_return.c: a return one arm of an unknown branch takes while the other
 * goes on (outside the function's tensor loops) is a path to the function's
 * exit, where every such path is joined with the one that reached the end. */
typedef struct an_ret_arm {
    const ir_stmt *s;       /* the branch */
    bool then_arm;          /* the arm that returns */
    an_leave leave;         /* its return statement */
    snapshot sn;            /* the state it returns with (moved into the path) */
    an_fr_saved *base, *t;  /* the totals before it and after it (moved into the path) */
    int64_t peak, moved, sym, calls; /* what the returning arm did */
    int64_t kept_calls;     /* the API calls of the arm that goes on */
    int64_t from, to;       /* the returning arm's events in the log, */
    int64_t at;             /* and where the log stands at the branch once they are dropped */
} an_ret_arm;
typedef struct an_ret_path an_ret_path;
/* a's path for the function's exit (it takes a's snapshot and totals, and
 * keeps the arm's events aside): NULL, with a untouched, where it is no
 * such path: a return from main (the program's end), too many paths.
 * an_ret_push keeps it, once the arm's events are dropped from the log. */
an_ret_path *an_ret_record(an_ctx *cx, an_ret_arm *a);
void an_ret_push(an_ctx *cx, an_ret_path *p);
/* The log's events [from, to) were dropped: the paths kept on the stack
 * whose branch stood among them lose their place in it. */
void an_ret_events_dropped(an_ctx *cx, int64_t from, int64_t to);
/* Add verify's alternative a to an_report.alts in log order (an_branch.c). */
void an_alt_insert(an_ctx *cx, an_alt a);
/* The function of frame f reached its end by flow fl: its return paths are
 * joined with the state there (a program end or a stop: assumed not taken). */
void an_ret_settle(an_ctx *cx, an_frame *f, an_flow fl);
/* The return paths f->rets[from, to) were taken inside an arm the run is
 * assumed not to take: they go. */
void an_ret_drop(an_ctx *cx, an_frame *f, int from, int to);

/* an_store.c: statements on memory */
void an_exec_load(an_ctx *cx, const ir_stmt *s);
void an_exec_store(an_ctx *cx, const ir_stmt *s);
void an_exec_copy(an_ctx *cx, const ir_stmt *s);
void an_exec_fill(an_ctx *cx, const ir_stmt *s);

/* an_exec.c */
an_flow an_exec_block(an_ctx *cx, const ir_block *b);
/* A statement is about to run: false when the analysis stopped (--max-calls). */
bool an_stmt_begin(an_ctx *cx, const ir_stmt *s);
/* Runs func in frame f; AN_FLOW_EXIT when the program ended in it, else AN_FLOW_NEXT. */
an_flow an_run_function(an_ctx *cx, int func, an_frame *f);

#endif /* TL_AN_INTERNAL_H */
