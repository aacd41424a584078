/*
 * an.h: the abstract interpreter and what it learns.
 *
 * The interpreter executes a unit's IR with no data: every API call runs
 * its meta function (rules/meta.h) over abstract handles, so the
 * analyzer and the runtime agree on layout by construction.  It records,
 * per call site, the first execution's result (an_value), every storage
 * with its allocation and free points (an_storage), live bytes after each
 * executed call (an_event), the peak and where it happens, and bytes
 * moved.  Problems of the analysed program become diagnostics (an_diag)
 * with a poison value, so one error does not cascade.
 *
 * Roots: each function with tensor code that no other function of the file
 * calls is executed from its start; calls of the file's own functions are
 * executed at the call with the caller's arguments (recursion is cut with
 * a diagnostic).  A function's report lists its own call sites and the
 * storages they made or view; its peak, end and moved bytes cover its own
 * executions (for a root, the whole program run from it).
 *
 * Ownership: an_analyze returns a report that owns everything in it;
 * an_report_free releases it all.  Storage and value ids are indices.
 */
#ifndef TL_AN_H
#define TL_AN_H

#include "an_sym.h"
#include "ir.h"

#include <stdio.h>

typedef struct an_options {
    int64_t max_calls;       /* API calls executed per root before the analysis stops */
    int64_t max_iterations;  /* iterations of one loop execution before it stops */
    int64_t max_steps;       /* statements executed and states saved per root (loop trials
                                included) before it stops: nested loops of unknown trip count
                                cost a power of their depth */
    int max_depth;           /* nesting of user-function calls */
    int64_t max_events;      /* events kept for the lifetime chart (more are summarised) */
    int n_binds;             /* --bind NAME=VALUE: a symbol named NAME is VALUE instead */
    const char *const *bind_names;
    const int64_t *bind_values;
} an_options;

void an_options_default(an_options *o);

typedef enum an_severity { AN_NOTE, AN_WARNING, AN_ERROR } an_severity;

typedef struct an_note {
    int line, col;
    char *message;
    const char *file;   /* NULL: the diagnostic's file (set where a program's note lies in
                           another file, once its lines are its file's: check's output) */
} an_note;

typedef struct an_fixit {
    int line, col, end_line, end_col; /* replace [start, end) */
    char *text;
} an_fixit;

typedef struct an_diag {
    const char *file;
    int line, col;
    an_severity severity;
    const char *check;   /* stable name: "invalid-view", "hidden-copy" ... */
    char *message;
    int n_notes;
    an_note *notes;
    int n_fixits;
    an_fixit *fixits;
} an_diag;

typedef struct an_value {   /* one tensor-producing call site (its first execution) */
    int func;               /* function index in the unit */
    int line, col;
    const char *name;       /* the variable assigned, or NULL */
    mt_op op;
    bool executed;          /* the call site ran at least once */
    bool known;             /* the layout is known (else shape etc. are null) */
    bool offset_unknown;    /* known, but for its offset */
    bool error;             /* the call failed (a diagnostic says why) */
    mt_layout l;
    int storage;            /* storage id, -1 when unknown */
    mt_kind kind;
    int view_of;            /* value id of the input whose storage a view shares, or -1 */
    int64_t bytes_moved;    /* read + written by the first execution */
    int sl;                 /* a layout over symbols: slayouts[sl - 1] (0: none) */
    sx_int bytes_moved_sx;  /* with sl: read + written */
    int64_t n_exec;         /* times the call site ran as analysed (a summarised loop's
                               first iteration and probes, both arms of an unknown branch;
                               see summarised); an_value_runs is the program's count */
    bool summarised;        /* it ran in iterations that stand for many (a loop run a
                               symbolic number of times): n_exec is not the run's count */
    sx_int runs_sx;         /* the executions that summarised loops stand for beyond the ones
                               analysed: the program runs the call site n_exec + runs_sx
                               times (an_value_runs) */
    bool runs_at_most;      /* that count is an upper bound: the call ran in an arm of a
                               condition not known statically, or in a loop (or a function)
                               the run may leave early */
    bool runs_unknown;      /* that count is not known: the call ran in a loop whose trip
                               count is not known (analysed for one iteration), in one the
                               analysis stopped (--max-iterations), or before it stopped */
    int runs_root;          /* function index of the root that first ran it, -1 */
    bool runs_roots;        /* more than one root ran it: the count adds up their runs */
    int64_t runs_stamp;     /* when it last ran, on a clock of executions (an_ctx) */
    char *reason;           /* why it viewed or copied, or why it is unknown */
} an_value;

typedef struct an_storage {
    int id;
    int64_t nbytes;      /* bytes; -1 when unknown */
    int64_t block_bytes; /* CUDA: nbytes rounded up to 512 (spec: the minimum block);
                            CPU: nbytes */
    int64_t alloc_bytes; /* CUDA: what the caching allocator charges: the block after any
                            split, a whole segment when the rest is too small to split */
    tl_device device;
    int func;            /* function of the allocating call */
    int value;           /* value id of the allocating call */
    int alloc_line, alloc_col;
    int free_line, free_col; /* 0 while never freed */
    int free_func;       /* function of the freeing release, -1 */
    int64_t alloc_event; /* index of its allocation in the event log */
    int64_t free_event;  /* index of its free, -1 */
    int64_t retire_event; /* a summarised loop's state holds its bytes in a storage of its own
                             from this event on (its free is that storage's), -1 */
    bool discarded;      /* made on an arm of an unknown branch the analysis did not keep */
    bool summarised;     /* made by an iteration that stands for many (a loop run a symbolic
                            number of times): counted in the totals, not listed */
    bool external;       /* the caller's memory (tl_from_blob): nbytes is 0, nothing is
                            allocated, counted or freed */
    int64_t external_nbytes; /* bytes of the caller's buffer the storage spans; -1 when
                                they are the formula external_sx (sizes read at run time) */
    sx_int external_sx;
    int64_t made_nbytes; /* bytes when made; nbytes is larger after an out= resize grew it */
    bool symbolic;       /* nbytes (-1) is the expression nbytes_sx over run-time symbols */
    sx_int nbytes_sx;
} an_storage;

typedef enum an_event_kind {
    AN_EV_CALL,    /* an API call ran */
    AN_EV_RELEASE, /* tl_release ran */
    AN_EV_LOST     /* a live handle became unreachable: its variable was overwritten,
                      went out of scope, or the function returned without it */
} an_event_kind;

#define AN_EV_MAX_IN 4 /* operands recorded per call (cat may have more: n_in says) */

typedef struct an_event {   /* one step of the execution, in order */
    an_event_kind kind;
    int func, line, col;
    int stmt;               /* CALL: the C statement it is part of (ir_stmt.call.stmt) */
    mt_op op;               /* CALL */
    int value;              /* CALL: value id of the call site, -1 for in place / get */
    int n_in;               /* CALL: tensor operands */
    int in_value[AN_EV_MAX_IN];   /* value id that made each operand's handle, -1 unknown */
    int in_storage[AN_EV_MAX_IN]; /* storage of each operand, -1 unknown */
    int64_t in_offset[AN_EV_MAX_IN]; /* elements: each operand's storage offset in this
                                        execution (its value's first execution may differ);
                                        -1 unknown */
    int64_t in_reach[AN_EV_MAX_IN];  /* elements: how far past its offset each operand
                                        reaches in this execution (strides are never
                                        negative); -1 empty, -2 unknown */
    int storage;            /* CALL: storage of the result or of the written tensor;
                               RELEASE / LOST: the handle's storage */
    int handle_value;       /* RELEASE / LOST: value id that made the handle */
    int var;                /* RELEASE / LOST: the variable, or -1 */
    int loop_depth;
    const char *lost_why;   /* LOST: "overwritten", "out of scope", "not returned" */
    bool freed;             /* RELEASE: the storage was freed by it */
    bool error;             /* CALL: the call fails (an error diagnostic says why) */
    bool poison;            /* CALL: an operand came from a failed call or was released */
    bool resized;           /* CALL (out= forms): the out tensor was resized */
    int64_t grown_bytes;    /* CALL (out= forms): bytes its storage grew by */
    int64_t live_bytes;     /* bytes after the step, of the storages whose size is a number */
    int64_t moved_bytes;
    sx_int live_sx;         /* bytes after the step, all of them: live_bytes plus the
                               storages whose size is a formula (then it is one) */
} an_event;

/* An unknown branch one arm of which leaves a loop (break, return, goto) or
 * its iteration (continue) while the analysis goes on through the other:
 * verify follows a run that leaves there to the first call after the loop
 * (or the iteration) that the run makes.
 *
 * Outside loops (path), one arm of which leaves the function (return, goto)
 * or the program (exit) while the analysis follows the other: the report
 * assumes the run does not leave there (an_report.paths[path_id]); verify
 * compares a run that does up to where it leaves (the leaving arm's calls
 * are alt_events[alt, alt + alt_len)), and no further. */
typedef struct an_exit {
    int64_t at;             /* events before it: the log at the branch */
    int loop_depth;         /* loops open at the branch (an_event.loop_depth) */
    bool iteration;         /* continue: the loop goes on */
    int line;
    bool path;              /* an assumed path (outside loops), not a loop's exit */
    int path_id;            /* path: its assumption, index in an_report.paths */
    int64_t alt, alt_len;   /* path: the leaving arm's events in alt_events */
} an_exit;

/* A loop whose trip count the analysis could not know and whose body it
 * analysed once: its events are events[first_event, end_event).  A run
 * may go through it any number of times; verify compares each of its
 * iterations with that one (and a run that skips it with what follows). */
typedef struct an_repeat {
    int64_t first_event, end_event;
    int line;
} an_repeat;

/* What the report assumes of the run's path: it does not take the arm of an
 * unknown branch that leaves the program (exit, main's return) or jumps
 * (goto); a return from another function only where it cannot be joined at
 * the function's end (interp/an_return.c).  Each branch and arm once, in
 * the order first met. */
typedef struct an_path {
    int func, line, col;    /* the branch */
    bool then_arm;          /* the arm assumed not taken is the then arm */
    bool named;             /* condition names the branch's condition (its C text) */
    int leave_line;         /* the statement that leaves */
    char *condition;        /* what is assumed: "!f is false", or without the condition's
                               text, "the run does not leave at line 14" */
    char *leave;            /* how the arm leaves: "return 1", "exit(1)", "die() ends the
                               program" */
} an_path;

/* A peak of formulas (an_peak.c): the maximum of candidates none of which
 * provably covers another, each with the line where it is reached. */
#define AN_PEAK_CANDS 16 /* candidates kept (sx_max_of takes as many): one more is not
                            (an_peak_add says so) */
typedef struct an_peak {
    int n;
    sx_int cand[AN_PEAK_CANDS];
    int line[AN_PEAK_CANDS];
} an_peak;

typedef enum an_peak_result {
    AN_PEAK_COVERED, /* a candidate covers it: nothing changed */
    AN_PEAK_ADDED,   /* a candidate now (the ones it exceeds are gone) */
    AN_PEAK_FULL     /* no room: not kept, the maximum is a lower bound of the peak */
} an_peak_result;

/* Add t, reached at line: dropped when a candidate covers it, else the
 * candidates it provably exceeds go and it joins the others. */
an_peak_result an_peak_add(an_peak *p, sx_int t, int line);
/* Drop each candidate another covers (of two equal, the earlier stays), but
 * those keep(ctx, x) says to keep; refine: compared under the facts now. */
void an_peak_prune(an_peak *p, bool refine, bool (*keep)(const void *ctx, sx_int x),
                   const void *ctx);
/* The peak: the max of the candidates (0 candidates: 0). */
sx_int an_peak_max(const an_peak *p);


/* What a number claims of the run, computed by the transfer rules that
 * compute the number (docs/formats.md, "bounds"):
 *   EXACT  every run with these sizes gives it;
 *   UPPER  the run gives at most it: the larger arm of an unknown branch
 *          kept, a loop the run may leave early;
 *   LOWER  the run gives at least it: sizes not known counted as 0 bytes,
 *          an analysis that stopped before the end;
 *   NONE   either way: a loop of unknown trip count analysed for one
 *          iteration, something not followed, or two bounds of opposite
 *          direction combined.
 * Claims combine as intervals do (an_claim_join). */
typedef enum an_claim { AN_CLAIM_EXACT, AN_CLAIM_UPPER, AN_CLAIM_LOWER, AN_CLAIM_NONE } an_claim;

/* The byte totals of a function, as indices of an_func_report.claim. */
typedef enum an_total { AN_TOTAL_PEAK, AN_TOTAL_END, AN_TOTAL_MOVED, AN_N_TOTALS } an_total;

/* Sets of totals, as bits (1 << an_total), for the marks. */
enum { AN_BOUND_PEAK = 1, AN_BOUND_END = 2, AN_BOUND_MOVED = 4, AN_BOUND_ALL = 7 };

/* The claim of a sum, a maximum or a join of two numbers claiming a and b:
 * exact with x is x; two of one direction keep it; opposite ones, or none,
 * give none. */
static inline an_claim an_claim_join(an_claim a, an_claim b)
{
    if (a == AN_CLAIM_EXACT || a == b)
        return b;
    return b == AN_CLAIM_EXACT ? a : AN_CLAIM_NONE;
}

/* "exact", "upper", "lower", "none": the JSON words (schema 3). */
const char *an_claim_name(an_claim c);
/* What a reader is told before or after the number: "", "at most",
 * "at least", "not bounded". */
const char *an_claim_words(an_claim c);
/* The key of total t in the JSON report: "peak_live_bytes" ... */
const char *an_total_name(an_total t);

/* Between two names of an_func_report.peak_names. */
#define AN_NAME_SEP '\x1f'

typedef struct an_func_report {
    int func;               /* index in the unit */
    const char *name;
    bool is_root;
    bool executed;
    int n_values;
    int *values;            /* value ids of its call sites, in source order */
    int n_storages;
    int *storages;          /* storage ids it allocated or views, by id */
    int64_t peak_live_bytes;
    int peak_line;
    int n_peak_storages;
    int *peak_storages;     /* storage ids live at the peak */
    char **peak_names;      /* per peak_storages entry: the names whose handles keep it
                               alive there, AN_NAME_SEP between them, or NULL */
    int64_t end_live_bytes;
    int64_t moved_bytes;
    int64_t n_calls;        /* API calls executed */
    an_claim claim[AN_N_TOTALS]; /* what each total (an_total) claims of the run */
    bool sizes_unknown;     /* some storage it counts has a size not known statically
                               (counted as 0: a lower bound, in claim) */
    int64_t cuda_allocated_peak; /* bytes: peak of CUDA block bytes (roots only) */
    int64_t cuda_reserved_peak;  /* bytes: peak of CUDA segment bytes the allocator holds */
    int64_t cuda_reserved_end;   /* bytes: segments still reserved when the function returns */
    bool symbolic;          /* the totals depend on symbols: the _sx fields hold them whole */
    sx_int peak_sx, end_sx, moved_sx;
    sx_int calls_sx;        /* symbolic: API calls executed (during the run: beyond n_calls) */
    int n_peak_cands;       /* symbolic: the peak is the max of these (each its line;
                               an_peak_of / an_peak_put) */
    int peak_cand_line[AN_PEAK_CANDS];
    sx_int peak_cand[AN_PEAK_CANDS];
    int64_t first_event;    /* roots: this root's run is events [first_event, end_event) */
    int64_t end_event;
} an_func_report;

/* The arm of an unknown branch that the analysis did not keep: its events,
 * so that verify can follow a run that took it.  The kept arm's events are
 * events[at, at + kept_len) of the log; the other arm's are
 * alt_events[first, first + len). */
typedef struct an_alt {
    int64_t at, kept_len;
    int64_t first, len;
    bool same_live;         /* both arms leave the same live bytes */
} an_alt;

/* A loop that runs a symbolic number of times, summarised (docs/symbolic.md):
 * the log keeps its first iteration and the probe iterations that stand for
 * the others, whose live bytes (and the storages they make) are taken with
 * the counter at probe_at. */
typedef struct an_summed_loop {
    int func, line, col;    /* the loop statement */
    sx_int trips;           /* iterations */
    const char *counter;    /* the counter's variable */
    sx_int first_at;        /* the counter's value in the first iteration */
    sx_int probe_at;        /* the counter's value in the probe iterations' formulas */
    int64_t first_event;    /* its iterations are events [first_event, end_event), */
    int64_t probe_event;    /* the probes' from probe_event on */
    int64_t end_event;
} an_summed_loop;

/* A call through a function pointer and a function it reached: one entry
 * per call site and callee, in the order first seen. */
#define AN_CALLEE_EXTERNAL (-1) /* a function not defined in the file (name says which) */
#define AN_CALLEE_UNKNOWN (-2)  /* a pointer the analysis could not resolve */
typedef struct an_indirect {
    int line, col;          /* the call */
    int func;               /* the caller */
    int callee;             /* index in unit->funcs, or AN_CALLEE_* */
    const char *name;       /* the callee's name (NULL when not resolved) */
    const char *through;    /* the pointer's C spelling (l->forward) */
} an_indirect;

typedef struct an_report {
    const ir_unit *unit;
    int n_funcs;
    an_func_report *funcs;  /* functions with tensor code, in source order */
    int n_values;
    an_value *values;
    int n_storages;
    an_storage *storages;
    int64_t n_events;
    an_event *events;       /* the execution of every root, in order */
    int64_t n_events_dropped;
    int n_summed_loops;
    an_summed_loop *summed_loops; /* as their summaries end (an inner loop first) */
    int n_alts;
    an_alt *alts;           /* in log order (outermost unknown branches only) */
    int64_t n_alt_events;
    an_event *alt_events;
    int n_exits;
    an_exit *exits;         /* in log order: where a run may leave a loop early, or leave
                               where the report assumes it does not (path) */
    int n_repeats;
    an_repeat *repeats;     /* in the order their analyses end (an inner loop first) */
    int n_paths;
    an_path *paths;         /* the assumptions on the run's path */
    int n_diags;
    an_diag *diags;         /* sorted by line, column, check */
    int n_slayouts;
    an_slayout *slayouts;   /* layouts over symbols (values' and handles' sl - 1) */
    int n_indirect;
    an_indirect *indirect;  /* the functions calls through pointers reached */
    sx_state *sx;           /* owns every sx_int above: symbols, expressions, assumptions */
    int n_bind_names;
    char **bind_names;      /* the names --bind gave that matched a symbol (bound, so not
                               among the symbols) */
    int n_bind_unknown;
    char **bind_unknown;    /* the names --bind gave that no symbol has */
} an_report;

/* A function's peak candidates as an an_peak, and back (peak_sx their max). */
void an_peak_of(const an_func_report *fr, an_peak *p);
void an_peak_put(an_func_report *fr, const an_peak *p);

/* Whether f claims total t exact; whether every total is. */
static inline bool an_func_exact(const an_func_report *f, an_total t)
{
    return f->claim[t] == AN_CLAIM_EXACT;
}
static inline bool an_func_all_exact(const an_func_report *f)
{
    return an_func_exact(f, AN_TOTAL_PEAK) && an_func_exact(f, AN_TOTAL_END) &&
           an_func_exact(f, AN_TOTAL_MOVED);
}

/* The times value v's call site runs in the program (a formula when a loop
 * summarised over run-time sizes runs it); runs_at_most / runs_unknown say
 * when it is not exact. */
static inline sx_int an_value_runs(const an_value *v)
{
    return v->runs_sx.e == 0 ? (sx_int){v->runs_sx.c + v->n_exec, 0}
                             : sx_add(v->runs_sx, (sx_int){v->n_exec, 0});
}

/* That count as text for a reader: "3 times", "n*m times", "at most 3 times",
 * "1 time as analysed (not exact)"; in buf of size bytes (a formula too long
 * ends in "..."). */
const char *an_value_runs_text(const an_value *v, char *buf, size_t size);

/* Analyse every function of the unit; never NULL (out of memory ends the
 * process: xalloc.h).  The report's symbolic state is current on this thread
 * when it returns (sym.h). */
an_report *an_analyze(const ir_unit *u, const an_options *opt);
void an_report_free(an_report *r);
/* Make r's symbolic state the current one, before reading r's formulas on a
 * thread that may have analysed another unit since (the language server
 * keeps a report per document). */
void an_report_use(const an_report *r);

/* The report of function name, or NULL. */
const an_func_report *an_report_func(const an_report *r, const char *name);

/* The check name of a runtime status ("invalid-view" for TL_ERR_BAD_DIM too). */
const char *an_status_check(tl_status s);
const char *an_severity_name(an_severity s);

/* Heap strings for report fields (freed with the report or by the caller). */
char *an_strdup(const char *s);

/* The functions the call through a pointer at (line, col) reached: up to
 * max callees (index in unit->funcs or AN_CALLEE_*) into out; returns how
 * many there are (0: it never ran). */
int an_report_callees(const an_report *r, int line, int col, int *out, int max);

/* --bind names no symbol has: false, with an error on err that lists the
 * names the program's symbols have ("tool: --bind n: ..."). */
bool an_report_binds_ok(const an_report *r, const char *tool, FILE *err);

/* Whether any diagnostic has severity error. */
bool an_report_has_errors(const an_report *r);

#endif /* TL_AN_H */
