/*
 * an_loop_internal.h: what the parts of the loop summary share.  an_loop.c
 * runs loops and summarises the counted ones (the trial, the probes, the
 * steady summary, the totals); an_loop_growth.c summarises a loop whose
 * state grows by induction (arrays as segments); an_loop_step.c one whose
 * counter steps by more than one.  docs/symbolic.md describes them.
 */
#ifndef TL_AN_LOOP_INTERNAL_H
#define TL_AN_LOOP_INTERNAL_H

#include "an_internal.h"

/* an_loop_steady_handles' context: the snapshot `then` the first handle is from. */
typedef struct steady_ctx {
    an_ctx *cx;
    const snapshot *then;
    int own_from; /* 1 + the index of the first symbol the probes made (an integer in
                   * memory that differs by one of them is a value of its own each
                   * iteration: an_loop_steady_cell); 0: every integer must be the same */
} steady_ctx;

typedef struct loop_trial {
    snapshot s0;        /* before iteration 1, to undo */
    an_fr_saved *r0;
    an_value *values0;  /* the values (their first executions and counts), to undo */
    int n_diags, n_assumptions, n_facts, n_values, n_storages, n_exits, n_paths;
    int n_rets;         /* an_top(cx)->n_rets: the returns kept in it go with it */
    int64_t n_events, n_handles;
    an_sym_mark names;  /* the symbols' spellings taken, given back on undo */
} loop_trial;

/* A function's peak candidates after the probes, for the whole loop. */
typedef struct loop_peak {
    bool changed;
    an_peak set;
    sx_int peak;            /* the max of set */
} loop_peak;

/* What summarising one loop keeps between its phases. */
typedef struct loop_sum {
    const ir_stmt *s;
    int var;                /* the counter */
    int dir;                /* +1: it counts up; -1: down */
    sx_int v0, trips;       /* its first value, the trip count */
    sx_int lo, hi;          /* the counter's values in iterations 2..trips */
    int n;                  /* function reports */
    snapshot s1, a;         /* after iteration 1, after the first probe */
    uint32_t la, lb;        /* the probes' counters */
    int n_storages1, assumptions1;
    int n_values1;
    int64_t *exec1;         /* per value: its executions after iteration 1 */
    sx_int *runs0, *runs1;  /* per value: its count (an_value_runs) before the loop, after
                               iteration 1, */
    sx_int *runsa, *runsb;  /* after the first probe (or before a growing loop's probe),
                               after the second (stepped loops) */
    int64_t marks1;
    sx_int *eff;            /* per function: moved, calls at s1, at a, now */
    sx_int *peak1;          /* per function: the peak at s1 */
    sx_int *sum;            /* per function: moved, calls to add */
    loop_peak *pk;
    sx_int step;            /* what an iteration adds to the counter (dir, or a stride) */
    const char *why;        /* why it is not summarised (the first reason found) */
    int64_t n_diags1;       /* diagnostics before the probes: a probe's own say what it lost */
} loop_sum;

/* Does the state now (the end of the probe) equal `start` at the next
 * iteration's counter (lb := lb + dir)? */
typedef struct ind_ctx {
    an_ctx *cx;
    const snapshot *start;
    sx_int L, L1;
    bool at_zero; /* (stepped loops) the end with L := 0 is the start, both refined */
} ind_ctx;

static inline sx_int live_total(int64_t live, sx_int live_sx)
{
    return sx_add(live_sx, (sx_int){live, 0});
}

/* A temporary that borrowed a handle a place holds, for the one statement
 * that used it: what it holds after that is no part of the state. */
static inline bool borrowed(const an_ctx *cx, int var) { return cx->u->vars[var].is_borrow; }

static inline bool sx_zero(sx_int x) { return x.e == 0 && x.c == 0; }

static inline bool sx_usable(sx_int x) { return x.e != SX_TOO_BIG; }

/* A count that no formula follows: the one analysed, marked as not known. */
static inline void runs_lost(an_value *x) { x->runs_unknown = true; }

/* Why a loop is not summarised, compared by address (ls->why). */
extern const char *const LOOP_NOT_FOLLOWED;
extern const char *const LOOP_NOT_COUNTED;

/* an_loop.c: the trial, the probes, the steady summary, the totals */
bool an_loop_fail(loop_sum *ls, const char *why);
void an_loop_fr_effect(const an_func_report *fr, sx_int *moved, sx_int *calls);
void an_loop_add_effect(an_func_report *fr, sx_int dm, sx_int dc);
int an_loop_counter_facts(sx_int l, sx_int lo, sx_int hi);
sx_int an_loop_counter_symbol(an_ctx *cx, const ir_stmt *s, int var, sx_int v0, int dir);
bool an_loop_probe_body(an_ctx *cx, const ir_stmt *s, int var, sx_int l, sx_int step);
bool an_loop_probe_plain(const an_ctx *cx, loop_sum *ls);
sx_int *an_loop_runs_take(const an_ctx *cx);
bool an_loop_sum_effects(an_ctx *cx, loop_sum *ls, int from, bool renamed);
bool an_loop_steady_handles(void *ctx, int a, int b);
bool an_loop_steady_state(an_ctx *cx, const snapshot *s0, const snapshot *s1, const snapshot *a,
                          sx_int trips, uint32_t la, uint32_t lb, int counter, bool *first_differs);
bool an_loop_loop_peaks(const an_func_report *fr, sx_int a, sx_int b, sx_int last, int dir,
                        loop_peak *out);
bool an_loop_loop_assumptions(int from, sx_int a, sx_int b, sx_int lo, sx_int hi, int line);

/* an_loop_growth.c: a state that grows, by induction */
bool an_loop_induction_holds(an_ctx *cx, const ind_ctx *c);
bool an_loop_growth_summary(an_ctx *cx, loop_sum *ls, const snapshot *s0, bool back);

/* an_loop_step.c: a counter stepped by more than one */
bool an_loop_stepped_summary(an_ctx *cx, loop_sum *ls, const loop_trial *t, sx_int step,
                             bool *taken_a);

/* an_loop.c's trials (begin, then undo or keep) and the steady comparison
 * of a memory cell, which the two kinds of iteration use too. */
void an_loop_trial_begin(an_ctx *cx, loop_trial *t);
void an_loop_trial_undo(an_ctx *cx, loop_trial *t);
bool an_loop_steady_cell(void *ctx, an_cell *mine, const an_cell *theirs);

/* ---- an_loop_class.c: loops with two kinds of iteration ---- */

typedef struct loop_class {
    const ir_stmt *s;  /* the `if` */
    int64_t k, r;      /* its condition: counter % k == r (eq) or != r */
    bool eq;
    sx_int count;      /* iterations 2..trips that run its then arm */
    sx_int *dm;        /* per function: moved, calls the arm adds, all told */
    sx_int *druns;     /* per value: its runs the arm adds, all told */
    an_peak *pk;       /* per function: the candidates of an iteration that runs it */
} loop_class;

/* The `if (counter % K == r)` (or != r, or of counter + c) in s's body,
 * whose arm makes the two kinds of iteration: false when there is none. */
bool an_loop_class_find(const ir_stmt *s, int var, int64_t v0, loop_class *out);
/* Summarise ls with the two kinds of iteration of c; false, said in ls, when not. */
bool an_loop_class_summary(an_ctx *cx, loop_sum *ls, loop_class *c);
/* The arm's totals, times its count, and its peaks, into the reports. */
void an_loop_class_commit(an_ctx *cx, const loop_sum *ls, const loop_class *c);
void an_loop_class_free(loop_class *c);

/* ---- an_loop_once.c: loops that touch no tensor; what a loop analysed once wrote ---- */

bool an_loop_host_only(const an_ctx *cx, const ir_stmt *s);
bool an_loop_stmt_host_only(const an_ctx *cx, const ir_stmt *s);
bool an_loop_block_host_only(const an_ctx *cx, const ir_block *b);
/* an_loop.c: one iteration of s's body (*leave: it left the loop) */
an_flow an_loop_loop_body(an_ctx *cx, const ir_stmt *s, bool *leave);
an_flow an_loop_loop_once(an_ctx *cx, const ir_stmt *s, bool host, bool *leave);
void an_loop_stop_uncounted(an_ctx *cx, const ir_stmt *s, int64_t clock0);
void an_loop_forget_var(an_ctx *cx, int var);
void an_loop_record_repeat(an_ctx *cx, const ir_stmt *s, int64_t first);
void an_loop_forget_block(an_ctx *cx, const ir_block *b);

/* ---- an_loop_exit.c: loops left at a condition not known statically ---- */

/* A loop left at a condition not known statically (an_loop_exit.c): the body's
 * statement of its exit, and the run's count of iterations, a symbol. */
typedef struct loop_exit {
    int at;
    sx_int runs;
} loop_exit;

void an_loop_forget_after_exit(an_ctx *cx, const ir_stmt *s, int at, const snapshot *before);
/* What loop s wrote (its integer variables, and the scalars in memory and
 * the globals that differ from before, when given) is not known. */
void an_loop_forget_written(an_ctx *cx, const ir_stmt *s, const snapshot *before);
/* The body or the step of loop s may leave an iteration (break, continue,
 * return, goto, exit). */
bool an_loop_body_may_leave(const ir_stmt *s);
/* an_loop.c's test of a counted loop (its counter, start, trip count and
 * direction) and its summary of a whole loop, which the exits use too. */
bool an_loop_counted_loop(an_ctx *cx, const ir_stmt *s, int *var, sx_int *v0, sx_int *trips,
                     int *dir);
bool an_loop_summarise_whole(an_ctx *cx, const ir_stmt *s, const loop_exit *ex, an_flow *out,
                        char **why);
bool an_loop_summarise_exit(an_ctx *cx, const ir_stmt *s, const loop_exit *ex, an_flow *out);
bool an_loop_loop_once_only(an_ctx *cx, const ir_stmt *s);
int64_t an_loop_loop_exit_runs(an_ctx *cx, const ir_stmt *s, loop_exit *ex);
int an_loop_counted_exit_at(const an_ctx *cx, const ir_stmt *s);

/* ---- an_loop_skip.c: whole periods of a loop counted to a constant ---- */

#define LP_SKIP_N_SAME 27 /* scalars of the state a period leaves as they were */
#define LP_SKIP_N_ADD 6   /* counters a period adds to */
#define LP_SKIP_INERT 16  /* fields no size, branch or bound reads, kept */

typedef struct an_loop_field {   /* a struct variable's field, by its places */
    int var;
    int64_t key;
    const char *name;
} an_loop_field;

typedef struct an_loop_skip {
    bool on;                /* the loop is watched */
    int64_t period;         /* found: iterations; 0 while looked for */
    int64_t dadd[LP_SKIP_N_ADD]; /* what a period adds to each count, */
    int64_t *dfr, *dv;      /* to each function's moved bytes and calls, each site's runs */
    int64_t *starts;        /* per iteration from the anchor's: the clock when it began */
    int64_t inert[LP_SKIP_INERT]; /* fields (bit offsets, names) read only to be stored back */
    const char *inert_name[LP_SKIP_INERT];
    int n_inert;
    an_loop_field *roots;        /* the fields of struct variables their places name */
    int n_roots, cap_roots;
    uint8_t *is_struct;     /* per variable: 1 when every path from it begins with a field */
    bool inert_moved;       /* an inert field differs a period later: not known after */
    int var;                /* its counter, */
    int64_t step, mod;      /* its step, the lcm of the K of `counter % K` the body reads */
    ir_op op;               /* its test: counter op bound */
    const ir_expr *bound;
    int64_t anchor_n, gap;  /* the anchor: before iteration anchor_n + 1; the next at + gap */
    snapshot sn;            /* the state there (anchor_n >= 0) */
    an_func_report *fr0;    /* the function reports, call sites, per function state there */
    int n_fr;
    an_value *v0;
    int n_v0;
    an_fstate *fs0;
    int64_t counter0;
    int n_storages0;
    int64_t same0[LP_SKIP_N_SAME];
    int64_t add0[LP_SKIP_N_ADD];
} an_loop_skip;

/* Whether loop s (its init run) is watched; an_loop_skip_iteration before each
 * iteration (*n: the iterations run): true when the iterations left were
 * skipped, the counter and *n moved past them (the loop ends); an_loop_skip_end
 * frees. */
bool an_loop_skip_begin(an_ctx *cx, const ir_stmt *s, bool host, an_loop_skip *k);
bool an_loop_skip_iteration(an_ctx *cx, an_loop_skip *k, int64_t *n);
void an_loop_skip_end(an_loop_skip *k);

#endif /* TL_AN_LOOP_INTERNAL_H */
