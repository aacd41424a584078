/*
 * an_exec.c: statements and control flow, roots and the report's totals.
 *
 * Loops with a known condition run iteration by iteration (capped by
 * max_iterations, reported when hit); a loop whose condition is unknown
 * runs its body once and says so.  An if whose condition is unknown runs
 * both arms from the same state and continues with the arm that ends with
 * more live bytes (on a tie, the one that peaks higher); the function's
 * peak covers both; variables whose layouts differ between the arms become
 * unknown.
 */
#include "an_internal.h"

#include <stdlib.h>
#include <string.h>

static an_flow exec_stmt(an_ctx *cx, const ir_stmt *s);

/* The tensor variables declared in b go out of scope: a handle only they
 * held is lost (main's body excepted: its end is the program's end). */
static void scope_exit(an_ctx *cx, const ir_block *b, bool program_end)
{
    an_frame *f = an_top(cx);
    for (int k = 0; k < b->n_decls; k++) {
        int var = b->decls[k], h = f->tensor[cx->slot[var]];
        f->tensor[cx->slot[var]] = AN_UNSET;
        if (!program_end)
            an_handle_dropped(cx, h, var, b->end.line, b->end.col, "out of scope");
    }
}

static an_flow exec_block_scoped(an_ctx *cx, const ir_block *b, bool program_end)
{
    an_flow fl = AN_FLOW_NEXT;
    if (!b)
        return fl;
    for (int k = 0; k < b->n_stmts && fl == AN_FLOW_NEXT; k++)
        fl = exec_stmt(cx, b->stmts[k]);
    if (fl != AN_FLOW_STOP)
        scope_exit(cx, b, program_end);
    return fl;
}

an_flow an_exec_block(an_ctx *cx, const ir_block *b) { return exec_block_scoped(cx, b, false); }

/* ---- branches: snapshot, run both arms, keep the heavier ---- */

typedef struct snapshot {
    int64_t n_handles, live, n_events;
    an_handle *handles;
    int n_storages;
    int64_t *refs;
    bool *live_storage;
    an_storage *storages;
    int depth;
    an_frame frames[64];
    int *tensors[64];
    int64_t *ints[64];
    bool *known[64];
} snapshot;

static void *dup_mem(const void *p, size_t n)
{
    void *q = malloc(n ? n : 1);
    if (!q)
        abort();
    memcpy(q, p, n);
    return q;
}

/* A frame's variables, compacted: entry j is variable func_vars[f][j]. */
static void snap_frame(const an_ctx *cx, const an_frame *fr, int **t, int64_t **i, bool **kn)
{
    int n = cx->n_func_vars[fr->func];
    const int *ids = cx->func_vars[fr->func];
    *t = malloc(sizeof(int) * (size_t)(n + 1));
    *i = malloc(sizeof(int64_t) * (size_t)(n + 1));
    *kn = malloc(sizeof(bool) * (size_t)(n + 1));
    if (!*t || !*i || !*kn)
        abort();
    for (int j = 0; j < n; j++) {
        (*t)[j] = fr->tensor[cx->slot[ids[j]]];
        (*i)[j] = fr->ints[cx->slot[ids[j]]];
        (*kn)[j] = fr->int_known[cx->slot[ids[j]]];
    }
}

static void snap_take(an_ctx *cx, snapshot *sn)
{
    sn->n_handles = cx->n_handles;
    sn->live = cx->live;
    sn->n_events = cx->r->n_events;
    sn->handles = dup_mem(cx->handles, sizeof *cx->handles * (size_t)cx->n_handles);
    sn->n_storages = cx->r->n_storages;
    sn->refs = dup_mem(cx->refs, sizeof *cx->refs * (size_t)sn->n_storages);
    sn->live_storage = dup_mem(cx->live_storage, sizeof(bool) * (size_t)sn->n_storages);
    sn->storages = dup_mem(cx->r->storages, sizeof *cx->r->storages * (size_t)sn->n_storages);
    sn->depth = cx->depth;
    for (int k = 0; k < cx->depth; k++) {
        sn->frames[k] = *cx->stack[k];
        snap_frame(cx, cx->stack[k], &sn->tensors[k], &sn->ints[k], &sn->known[k]);
    }
}

/* Restore the state of sn; storages made since are no longer live. */
static void snap_restore(an_ctx *cx, const snapshot *sn)
{
    memcpy(cx->handles, sn->handles, sizeof *cx->handles * (size_t)sn->n_handles);
    cx->live = sn->live;
    memcpy(cx->refs, sn->refs, sizeof *cx->refs * (size_t)sn->n_storages);
    memcpy(cx->live_storage, sn->live_storage, sizeof(bool) * (size_t)sn->n_storages);
    for (int s = 0; s < sn->n_storages; s++) {
        an_storage *st = &cx->r->storages[s];
        st->free_line = sn->storages[s].free_line;
        st->free_col = sn->storages[s].free_col;
        st->free_func = sn->storages[s].free_func;
        st->free_event = sn->storages[s].free_event;
        st->discarded = sn->storages[s].discarded;
    }
    for (int s = sn->n_storages; s < cx->r->n_storages; s++) {
        cx->live_storage[s] = false;
        cx->r->storages[s].discarded = true;
    }
    for (int k = 0; k < sn->depth; k++) {
        an_frame *fr = cx->stack[k];
        const int *ids = cx->func_vars[fr->func];
        for (int j = 0; j < cx->n_func_vars[fr->func]; j++) {
            fr->tensor[cx->slot[ids[j]]] = sn->tensors[k][j];
            fr->ints[cx->slot[ids[j]]] = sn->ints[k][j];
            fr->int_known[cx->slot[ids[j]]] = sn->known[k][j];
        }
        fr->line = sn->frames[k].line;
    }
}

static void snap_free(snapshot *sn)
{
    free(sn->handles);
    free(sn->refs);
    free(sn->live_storage);
    free(sn->storages);
    for (int k = 0; k < sn->depth; k++) {
        free(sn->tensors[k]);
        free(sn->ints[k]);
        free(sn->known[k]);
    }
}

static bool same_layout(const mt_layout *a, const mt_layout *b)
{
    if (a->ndim != b->ndim || a->dtype != b->dtype || a->device != b->device ||
        a->offset != b->offset)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return false;
    return true;
}

/* After running the kept arm: a tensor variable keeps the kept arm's handle
 * (so its releases are still followed) but its layout becomes unknown when
 * the other arm left a different one; integers that differ become unknown. */
static void join_vars(an_ctx *cx, const snapshot *other)
{
    int k = cx->depth - 1;
    an_frame *f = an_top(cx);
    for (int j = 0; j < cx->n_func_vars[f->func]; j++) {
        int v = cx->slot[cx->func_vars[f->func][j]];
        int mine = f->tensor[v], theirs = other->tensors[k][j];
        if (mine != theirs && mine >= 0) {
            const an_handle *h = theirs >= 0 && theirs < other->n_handles ? &other->handles[theirs]
                                                                           : NULL;
            if (!h || !h->known || !same_layout(&h->l, &cx->handles[mine].l))
                cx->handles[mine].known = false;
        } else if (mine != theirs) {
            f->tensor[v] = AN_UNKNOWN;
        }
        if (f->int_known[v] != other->known[k][j] || f->ints[v] != other->ints[k][j])
            f->int_known[v] = false;
    }
}

/* The event log keeps only the kept arm: events [from, to) are dropped and
 * the later ones move down; storages' event indices follow them. */
static void drop_events(an_ctx *cx, int64_t from, int64_t to)
{
    an_report *r = cx->r;
    int64_t gone = to - from;
    if (gone <= 0)
        return;
    memmove(r->events + from, r->events + to, sizeof *r->events * (size_t)(r->n_events - to));
    r->n_events -= gone;
    for (int k = 0; k < r->n_storages; k++) {
        an_storage *st = &r->storages[k];
        if (st->alloc_event >= to)
            st->alloc_event -= gone;
        if (st->free_event >= to)
            st->free_event -= gone;
    }
}

static an_flow exec_unknown_if(an_ctx *cx, const ir_stmt *s)
{
    snapshot before, after_then;
    int64_t outer_peak = cx->arm_peak;
    snap_take(cx, &before);
    cx->arm_peak = cx->live;
    an_flow f_then = an_exec_block(cx, s->branch.then_blk);
    int64_t then_peak = cx->arm_peak;
    snap_take(cx, &after_then);
    snap_restore(cx, &before);
    cx->arm_peak = cx->live;
    an_flow f_else = an_exec_block(cx, s->branch.else_blk);
    bool keep_then = after_then.live > cx->live ||
                     (after_then.live == cx->live && then_peak > cx->arm_peak);
    cx->arm_peak = outer_peak > then_peak ? outer_peak : then_peak;
    if (cx->arm_peak < cx->live)
        cx->arm_peak = cx->live;
    if (keep_then) { /* the arm that ends with more live bytes, or peaks higher */
        snapshot after_else;
        snap_take(cx, &after_else);
        snap_restore(cx, &after_then);
        join_vars(cx, &after_else);
        snap_free(&after_else);
        drop_events(cx, after_then.n_events, cx->r->n_events);
    } else {
        join_vars(cx, &after_then);
        drop_events(cx, before.n_events, after_then.n_events);
        f_then = f_else;
    }
    snap_free(&before);
    snap_free(&after_then);
    /* a return or break in only one arm: continue as if it fell through */
    return f_then == f_else ? f_then : AN_FLOW_NEXT;
}

static an_flow exec_if(an_ctx *cx, const ir_stmt *s)
{
    int64_t c;
    if (an_eval(cx, s->branch.cond, &c))
        return an_exec_block(cx, c ? s->branch.then_blk : s->branch.else_blk);
    return exec_unknown_if(cx, s);
}

/* ---- loops ---- */

/* 1: run the body, 0: leave, -1: unknown. */
static int loop_test(an_ctx *cx, const ir_stmt *s)
{
    int64_t c;
    an_exec_block(cx, s->loop.cond_pre);
    if (!s->loop.cond)
        return 1;
    return an_eval(cx, s->loop.cond, &c) ? c != 0 : -1;
}

static an_flow loop_body(an_ctx *cx, const ir_stmt *s, bool *leave)
{
    an_flow fl = an_exec_block(cx, s->loop.body);
    *leave = fl == AN_FLOW_BREAK || fl == AN_FLOW_RETURN || fl == AN_FLOW_STOP;
    if (fl == AN_FLOW_RETURN || fl == AN_FLOW_STOP)
        return fl;
    if (!*leave)
        an_exec_block(cx, s->loop.step);
    return AN_FLOW_NEXT;
}

static an_flow exec_loop(an_ctx *cx, const ir_stmt *s)
{
    bool leave = false;
    an_flow fl = AN_FLOW_NEXT;
    int64_t n = 0;
    cx->loop_depth++;
    an_exec_block(cx, s->loop.init);
    if (s->loop.kind == IR_LOOP_DO) {
        fl = loop_body(cx, s, &leave);
        n++;
    }
    while (!leave && fl == AN_FLOW_NEXT && !cx->stopped) {
        int t = loop_test(cx, s);
        if (t == 0)
            break;
        if (t < 0) {
            an_diag_add(cx, AN_NOTE, "unknown-trip-count", s->loc.line, s->loc.col,
                        "loop condition is not known statically: the body is analysed for one "
                        "iteration");
            fl = loop_body(cx, s, &leave);
            break;
        }
        if (n++ >= cx->opt.max_iterations) {
            an_diag_add(cx, AN_WARNING, "analysis-limit", s->loc.line, s->loc.col,
                        "loop stopped after %lld iterations (--max-iterations); later totals "
                        "are lower bounds", (long long)cx->opt.max_iterations);
            break;
        }
        fl = loop_body(cx, s, &leave);
    }
    cx->loop_depth--;
    return fl;
}

/* ---- calls of the file's own functions ---- */

static bool on_stack(const an_ctx *cx, int func)
{
    for (int k = 0; k < cx->depth; k++)
        if (cx->stack[k]->func == func)
            return true;
    return false;
}

static void bind_params(an_ctx *cx, const ir_stmt *s, an_frame *callee)
{
    const ir_func *fn = cx->u->funcs[s->user_call.callee];
    for (int k = 0; k < fn->n_params && k < s->user_call.n_args; k++) {
        int p = fn->params[k], slot = cx->slot[p];
        const ir_uarg *a = &s->user_call.args[k];
        if (cx->u->vars[p].kind == IR_VAR_TENSOR)
            callee->tensor[slot] = a->kind == IR_VAR_TENSOR ? an_tensor_of(cx, a->var) : AN_UNKNOWN;
        else if (cx->u->vars[p].kind == IR_VAR_INT && a->expr)
            callee->int_known[slot] = an_eval(cx, a->expr, &callee->ints[slot]);
    }
}

static void external_call(an_ctx *cx, const ir_stmt *s)
{
    for (int k = 0; k < s->user_call.n_args; k++) {
        if (s->user_call.args[k].kind != IR_VAR_TENSOR)
            continue;
        an_diag_add(cx, AN_NOTE, "external-call", s->loc.line, s->loc.col,
                    "'%s' is not defined in this file: assumed not to release or keep the "
                    "tensors passed to it", s->user_call.name);
        break;
    }
    if (s->user_call.result >= 0 && cx->u->vars[s->user_call.result].kind == IR_VAR_TENSOR)
        an_top(cx)->tensor[cx->slot[s->user_call.result]] = AN_UNKNOWN;
    else if (s->user_call.result >= 0)
        an_top(cx)->int_known[cx->slot[s->user_call.result]] = false;
}

static an_flow exec_user_call(an_ctx *cx, const ir_stmt *s)
{
    int callee = s->user_call.callee, result = s->user_call.result;
    if (callee < 0) {
        external_call(cx, s);
        return AN_FLOW_NEXT;
    }
    if (on_stack(cx, callee) || cx->depth >= cx->opt.max_depth || cx->depth >= 64) {
        an_diag_add(cx, AN_NOTE, "recursion", s->loc.line, s->loc.col, "call of '%s' not "
                    "followed (recursion or nesting deeper than %d)", s->user_call.name,
                    cx->opt.max_depth);
        external_call(cx, s);
        return AN_FLOW_NEXT;
    }
    an_frame *f = an_frame_new(cx, callee);
    bind_params(cx, s, f);
    an_run_function(cx, callee, f);
    if (result >= 0 && cx->u->vars[result].kind == IR_VAR_TENSOR) {
        int old = an_top(cx)->tensor[cx->slot[result]];
        an_top(cx)->tensor[cx->slot[result]] = f->ret_handle;
        an_handle_dropped(cx, old, result, s->loc.line, s->loc.col, "overwritten");
    } else if (result >= 0) {
        an_top(cx)->int_known[cx->slot[result]] = f->ret_int_known;
        an_top(cx)->ints[cx->slot[result]] = f->ret_int;
    } else {
        an_handle_dropped(cx, f->ret_handle, -1, s->loc.line, s->loc.col, "result discarded");
    }
    an_frame_free(f);
    return cx->stopped ? AN_FLOW_STOP : AN_FLOW_NEXT;
}

static an_flow exec_return(an_ctx *cx, const ir_stmt *s)
{
    an_frame *f = an_top(cx);
    if (s->ret.var != IR_NO_VAR)
        f->ret_handle = an_tensor_of(cx, s->ret.var);
    if (s->ret.value)
        f->ret_int_known = an_eval(cx, s->ret.value, &f->ret_int);
    return AN_FLOW_RETURN;
}

static void exec_assign_int(an_ctx *cx, const ir_stmt *s)
{
    an_frame *f = an_top(cx);
    int v = s->assign_int.var;
    if (v >= 0)
        f->int_known[cx->slot[v]] = an_eval(cx, s->assign_int.value, &f->ints[cx->slot[v]]);
}

static void exec_eval(an_ctx *cx, const ir_stmt *s)
{
    int64_t ignored;
    const ir_expr *e = s->eval.expr;
    if (e && (e->kind == IR_EXPR_QUERY) && e->var >= 0) {
        int h = an_tensor_of(cx, e->var);
        if (h >= 0 && cx->handles[h].released)
            an_diag_add(cx, AN_ERROR, "use-after-release", s->loc.line, s->loc.col,
                        "%s uses '%s' after it was released", ir_query_name(e->query),
                        cx->u->vars[e->var].name);
    }
    an_eval(cx, e, &ignored);
}

static void exec_assign_tensor(an_ctx *cx, const ir_stmt *s)
{
    int dst = s->assign_tensor.dst, old = an_top(cx)->tensor[cx->slot[dst]];
    an_top(cx)->tensor[cx->slot[dst]] = an_tensor_of(cx, s->assign_tensor.src);
    an_handle_dropped(cx, old, dst, s->loc.line, s->loc.col, "overwritten");
}

static void exec_unsupported(an_ctx *cx, const ir_stmt *s)
{
    an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                "not analysed: %s; the analysis goes on", s->unsup.message);
    if (s->unsup.var >= 0 && cx->u->vars[s->unsup.var].kind == IR_VAR_TENSOR)
        an_top(cx)->tensor[cx->slot[s->unsup.var]] = AN_UNKNOWN;
}

static an_flow exec_stmt(an_ctx *cx, const ir_stmt *s)
{
    if (cx->stopped)
        return AN_FLOW_STOP;
    if (cx->n_calls >= cx->opt.max_calls) {
        cx->stopped = true;
        an_diag_add(cx, AN_WARNING, "analysis-limit", s->loc.line, s->loc.col,
                    "analysis stopped after %lld API calls (--max-calls); later totals are "
                    "lower bounds", (long long)cx->opt.max_calls);
        return AN_FLOW_STOP;
    }
    an_top(cx)->line = s->loc.line;
    switch (s->kind) {
    case IR_CALL: an_exec_call(cx, s); break;
    case IR_RELEASE: an_exec_release(cx, s); break;
    case IR_ASSIGN_INT: exec_assign_int(cx, s); break;
    case IR_ASSIGN_TENSOR: exec_assign_tensor(cx, s); break;
    case IR_BLOCK: return an_exec_block(cx, s->block);
    case IR_IF: return exec_if(cx, s);
    case IR_LOOP: return exec_loop(cx, s);
    case IR_BREAK: return AN_FLOW_BREAK;
    case IR_CONTINUE: return AN_FLOW_CONTINUE;
    case IR_USER_CALL: return exec_user_call(cx, s);
    case IR_RETURN: return exec_return(cx, s);
    case IR_EVAL: exec_eval(cx, s); break;
    case IR_UNSUPPORTED: exec_unsupported(cx, s); break;
    default: break;
    }
    return AN_FLOW_NEXT;
}

void an_run_function(an_ctx *cx, int func, an_frame *f)
{
    an_func_report *fr = an_func_report_of(cx, func);
    cx->stack[cx->depth++] = f;
    f->line = cx->u->funcs[func]->loc.line;
    if (fr)
        fr->executed = true;
    an_account_live(cx); /* what is live on entry counts toward the callee's peak */
    bool program_end = cx->depth == 1 && strcmp(cx->u->funcs[func]->name, "main") == 0;
    exec_block_scoped(cx, cx->u->funcs[func]->body, program_end);
    if (fr && !cx->fs[func].done_first) {
        cx->fs[func].done_first = true;
        fr->end_live_bytes = cx->live;
    }
    an_settle_peaks(cx);
    cx->depth--;
}
