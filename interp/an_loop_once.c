/*
 * an_loop_once.c: loops that touch no tensor, and what a loop analysed
 * once wrote (an_loop.c runs them).
 *
 * A loop whose statements make no API call, move no handle and call no
 * function with tensor code (option parsing, a tokenizer, host math) is
 * followed for its integers only: analysed once when its trip count is not
 * known, with no note and no bound (no total depends on how often it runs),
 * and an arm of it that leaves the function or the program is an
 * assumption on the run's path, as one outside loops is.  After any loop
 * analysed once, what it wrote is not known: a variable it assigns, and an
 * integer or pointer in memory its iteration changed, is a run-time value
 * (a symbol where a size reads it), never the value one iteration left.
 */
#include "an_loop_internal.h"

#include <stdlib.h>
#include <string.h>


static bool args_host_only(const ir_stmt *s)
{
    for (int k = 0; k < s->user_call.n_args; k++)
        if (s->user_call.args[k].kind == IR_VAR_TENSOR)
            return false;
    return true;
}

/* Whether statement s touches no tensor, in any of its blocks. */
bool an_loop_stmt_host_only(const an_ctx *cx, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL: case IR_RELEASE: case IR_ASSIGN_TENSOR: case IR_LOAD: case IR_COPY:
        return false;
    case IR_STORE: return s->store.kind != IR_VAR_TENSOR;
    case IR_RETURN: return s->ret.var == IR_NO_VAR && !s->ret.place;
    case IR_UNSUPPORTED: return s->unsup.var == IR_NO_VAR;
    case IR_BLOCK: return an_loop_block_host_only(cx, s->block);
    case IR_IF:
        return an_loop_block_host_only(cx, s->branch.then_blk) &&
               an_loop_block_host_only(cx, s->branch.else_blk);
    case IR_LOOP:
        return an_loop_block_host_only(cx, s->loop.init) &&
               an_loop_block_host_only(cx, s->loop.cond_pre) &&
               an_loop_block_host_only(cx, s->loop.step) &&
               an_loop_block_host_only(cx, s->loop.body);
    case IR_USER_CALL:
        if (s->user_call.fn)
            return false; /* (it may reach any function whose address is taken) */
        if (s->user_call.callee >= 0 && cx->u->funcs[s->user_call.callee]->has_tensor_code)
            return false;
        return args_host_only(s);
    default: return true;
    }
}

bool an_loop_block_host_only(const an_ctx *cx, const ir_block *b)
{
    for (int k = 0; b && k < b->n_stmts; k++)
        if (!an_loop_stmt_host_only(cx, b->stmts[k]))
            return false;
    return true;
}

bool an_loop_host_only(const an_ctx *cx, const ir_stmt *s)
{
    return an_loop_stmt_host_only(cx, s);
}

void an_loop_forget_var(an_ctx *cx, int var)
{
    bool *known;
    if (var < 0 || var >= cx->u->n_vars || cx->u->vars[var].kind != IR_VAR_INT)
        return;
    int64_t *v = an_int_slot(cx, var, &known);
    an_int_put(false, (sx_int){0, 0}, known, v); /* unknown, not a symbol yet */
    *v = an_unknown_token(cx); /* (one value: an arm that reads it and one that does not agree) */
}

/* The integer variables block b assigns (in any arm, any nested loop) are
 * not known. */
void an_loop_forget_block(an_ctx *cx, const ir_block *b)
{
    for (int k = 0; b && k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        switch (s->kind) {
        case IR_ASSIGN_INT: an_loop_forget_var(cx, s->assign_int.var); break;
        case IR_USER_CALL: an_loop_forget_var(cx, s->user_call.result); break;
        case IR_BLOCK: an_loop_forget_block(cx, s->block); break;
        case IR_IF:
            an_loop_forget_block(cx, s->branch.then_blk);
            an_loop_forget_block(cx, s->branch.else_blk);
            break;
        case IR_LOOP:
            an_loop_forget_block(cx, s->loop.init);
            an_loop_forget_block(cx, s->loop.cond_pre);
            an_loop_forget_block(cx, s->loop.step);
            an_loop_forget_block(cx, s->loop.body);
            break;
        default: break;
        }
    }
}

/* After loop s ran for one iteration of a number not known (before: the
 * state before it, or NULL): what it wrote is not known. */
void an_loop_forget_written(an_ctx *cx, const ir_stmt *s, const snapshot *before)
{
    an_loop_forget_block(cx, s->loop.cond_pre);
    an_loop_forget_block(cx, s->loop.body);
    an_loop_forget_block(cx, s->loop.step);
    if (!before)
        return;
    for (int g = 0; g < cx->vars.n_globals; g++) /* (a helper it calls may write them) */
        if (before->ctl.g_known[g] != cx->ctl.gframe->int_known[g] ||
            before->ctl.g_ints[g] != cx->ctl.gframe->ints[g])
            an_int_put(false, (sx_int){0, 0}, &cx->ctl.gframe->int_known[g],
                       &cx->ctl.gframe->ints[g]);
    an_mem_join_scalars(cx, &before->mem);
}

/* The body of loop s, analysed once for a trip count not known, made
 * events[first, now): verify may meet it any number of times. */
void an_loop_record_repeat(an_ctx *cx, const ir_stmt *s, int64_t first)
{
    an_report *r = cx->r;
    if (cx->ctl.summarising > 0 || !cx->out.log_events || r->n_events_dropped ||
        r->n_events == first)
        return;
    r->repeats = tl_xrealloc(r->repeats, sizeof *r->repeats * (size_t)(r->n_repeats + 1));
    r->repeats[r->n_repeats++] = (an_repeat){first, r->n_events, s->loc.line};
}

/* The body of loop s, analysed once for a trip count not known (host: it
 * touches no tensor, and nothing depends on how often it runs). */
an_flow an_loop_loop_once(an_ctx *cx, const ir_stmt *s, bool host, bool *leave)
{
    snapshot before;
    an_snap_take(cx, &before);
    if (!host)
        an_mark_bound(cx); /* (bound direction: none, the loop may run any number of times) */
    cx->ctl.runs_unknown++; /* one iteration of how many: the counts are not known */
    int64_t first = cx->r->n_events;
    an_flow fl = an_loop_loop_body(cx, s, leave);
    an_loop_record_repeat(cx, s, first);
    cx->ctl.runs_unknown--;
    an_loop_forget_written(cx, s, &before);
    if (!host)
        an_handles_unsure(cx);
    an_snap_free(&before);
    return fl;
}

/* The loop is left at an iteration the analysis cannot count: what comes
 * after is not bounded, the calls it ran run more (or less) than counted,
 * and the values the iteration left are forgotten. */
void an_loop_stop_uncounted(an_ctx *cx, const ir_stmt *s, int64_t clock0)
{
    an_mark_bound(cx);
    for (int v = 0; v < cx->r->n_values; v++)
        if (cx->r->values[v].runs_stamp > clock0)
            cx->r->values[v].runs_unknown = true;
    an_loop_forget_written(cx, s, NULL);
    an_handles_unsure(cx);
}

