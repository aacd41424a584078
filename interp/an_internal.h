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

#define AN_UNSET (-1)   /* a tensor variable with no handle yet (or NULL) */
#define AN_UNKNOWN (-2) /* a tensor variable whose handle cannot be followed */

typedef struct an_handle {
    bool known;     /* the layout is known */
    bool released;
    bool poison;    /* made by a failed call: uses stay silent */
    mt_layout l;
    int storage;    /* storage id, -1 when unknown */
    int value;      /* value id of the call that made it, -1 */
} an_handle;

typedef struct an_frame {
    int func;
    /* By slot (an_ctx.slot): the unit's globals, then the function's own
     * variables; a frame is as small as its function. */
    int *tensor;        /* handle index, AN_UNSET or AN_UNKNOWN */
    int64_t *ints;      /* integer value */
    bool *int_known;
    int line;           /* line of the statement executing in this frame */
    int ret_handle;     /* returned handle, AN_UNSET or AN_UNKNOWN */
    bool ret_int_known;
    int64_t ret_int;
} an_frame;

typedef enum an_flow { AN_FLOW_NEXT, AN_FLOW_BREAK, AN_FLOW_CONTINUE, AN_FLOW_RETURN, AN_FLOW_STOP } an_flow;

typedef struct an_fstate {   /* per function accounting while it executes */
    int active;              /* invocations on the stack */
    bool done_first;         /* end_live_bytes recorded */
    bool peak_dirty;         /* a new peak whose live set is not yet recorded */
} an_fstate;

typedef struct an_ctx {
    const ir_unit *u;
    an_options opt;
    an_report *r;
    int cap_values, cap_storages, cap_diags;
    int64_t cap_events;
    an_handle *handles;
    int64_t n_handles, cap_handles;
    int64_t *refs;       /* per storage: live handles */
    bool *live_storage;  /* per storage: counted in live bytes */
    int cap_refs;
    int *site_value;     /* per call site (ir_stmt.call.site): its value id, or -1 */
    int64_t live;        /* bytes */
    int64_t arm_peak;    /* bytes: the most live since the current branch arm began */
    int64_t n_calls;     /* in the current root */
    an_frame *stack[64];
    int depth;
    int loop_depth;
    an_fstate *fs;       /* per function */
    int *report_of;      /* per function: index in r->funcs, or -1 */
    int **func_vars;     /* per function: its variable ids */
    int *n_func_vars;
    int *slot;           /* per variable: its index in a frame's arrays */
    int n_globals;       /* variables outside any function (slots 0 .. n_globals-1) */
    int root;            /* function index of the current root */
    bool stopped;        /* the call budget ran out */
    bool log_events;     /* events are kept for the first root only */
    ca_allocator *cuda;  /* the caching allocator, simulated for CUDA storages (per root) */
    int64_t *cuda_block; /* per storage: the simulated block id, 0 for none */
    int64_t cap_cuda_block;
} an_ctx;

/* an_state.c */
int an_handle_new(an_ctx *cx, const an_handle *h);
int an_storage_new(an_ctx *cx, int func, int value, int line, int col, tl_device dev,
                   int64_t nbytes);
void an_storage_unref(an_ctx *cx, int storage, int func, int line, int col);
/* resize_ of an out= tensor: the storage grows by grow bytes (live when it is). */
void an_storage_grow(an_ctx *cx, int storage, int64_t grow);
int an_value_new(an_ctx *cx, int func, const ir_stmt *s, const char *name);
void an_site_put(an_ctx *cx, const ir_stmt *s, int value);
int an_site_get(const an_ctx *cx, const ir_stmt *s); /* value id or -1 */
/* A new event at the end of the log (fields zeroed, ids -1), or NULL when the log is full. */
an_event *an_event_push(an_ctx *cx, an_event_kind kind, int line, int col);
/* The handle h is no longer reachable from var: a LOST event if nothing else holds it. */
void an_handle_dropped(an_ctx *cx, int h, int var, int line, int col, const char *why);
void an_account_moved(an_ctx *cx, int64_t bytes);
void an_account_live(an_ctx *cx);
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
/* The handle of tensor operand var in the top frame, or AN_UNSET / AN_UNKNOWN. */
int an_tensor_of(an_ctx *cx, int var);

/* an_exec.c */
an_flow an_exec_block(an_ctx *cx, const ir_block *b);
void an_run_function(an_ctx *cx, int func, an_frame *f);

#endif /* TL_AN_INTERNAL_H */
