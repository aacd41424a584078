/*
 * an_loop_exit.c: loops left at a condition not known statically (an_loop.c
 * calls it).
 *
 * `while (pos < steps) { logits = forward(..., pos); next = sample(logits);
 * pos++; if (next == eos) break; print(next); }`: the run leaves at a value
 * the analysis cannot know, after N iterations, 1 <= N <= T (T the count the
 * test gives).  N is a symbol of its own (`pos.iterations`, origin
 * "iterations").  When the exit is one `if (...) break;` at the body's top
 * level, with arms that touch no tensor, and nothing after it in the body
 * nor the step touches one, the iteration the run leaves in has the tensor
 * effect of a whole one: the loop is summarised with N as its trip count,
 * exactly.  What the body writes after the exit, and the counter, are not
 * known after the loop.  With N bound (--bind) the loop runs N iterations,
 * the exit taken after the last.
 */
#include "an_loop_internal.h"

#include <stdlib.h>
#include <string.h>

static bool block_leaves(const ir_block *b, bool nested);

/* Whether s may leave the iteration: break or continue at the loop's level
 * (nested: in a loop of its own, where they end that one), return, goto,
 * exit, or a label a goto may reach. */
static bool stmt_leaves(const ir_stmt *s, bool nested)
{
    switch (s->kind) {
    case IR_BREAK: case IR_CONTINUE: return !nested;
    case IR_RETURN: case IR_GOTO: case IR_EXIT: case IR_LABEL: return true;
    case IR_BLOCK: return block_leaves(s->block, nested);
    case IR_IF:
        return block_leaves(s->branch.then_blk, nested) || block_leaves(s->branch.else_blk, nested);
    case IR_LOOP:
        return block_leaves(s->loop.init, true) || block_leaves(s->loop.cond_pre, true) ||
               block_leaves(s->loop.step, true) || block_leaves(s->loop.body, true);
    default: return false;
    }
}

static bool block_leaves(const ir_block *b, bool nested)
{
    for (int k = 0; b && k < b->n_stmts; k++)
        if (stmt_leaves(b->stmts[k], nested))
            return true;
    return false;
}

bool an_loop_body_may_leave(const ir_stmt *s)
{
    return block_leaves(s->loop.body, false) || block_leaves(s->loop.step, false) ||
           block_leaves(s->loop.cond_pre, false);
}

/* An arm that leaves the loop by break and does nothing else a tensor sees. */
static bool arm_breaks(const an_ctx *cx, const ir_block *b)
{
    if (!b || !an_loop_block_host_only(cx, b))
        return false;
    bool brk = false;
    for (int k = 0; k < b->n_stmts; k++) {
        if (b->stmts[k]->kind == IR_BREAK)
            brk = true;
        else if (stmt_leaves(b->stmts[k], false))
            return false;
    }
    return brk;
}

/* The body's index of the loop's one exit, an `if (...) break;` after which
 * no tensor is touched; -1 when the loop is not of that shape. */
int an_loop_counted_exit_at(const an_ctx *cx, const ir_stmt *s)
{
    const ir_block *b = s->loop.body;
    if (!b || s->loop.kind == IR_LOOP_DO || !s->loop.cond ||
        block_leaves(s->loop.cond_pre, false) || !an_loop_block_host_only(cx, s->loop.step) ||
        block_leaves(s->loop.step, false))
        return -1;
    int at = -1;
    for (int k = 0; k < b->n_stmts; k++) {
        const ir_stmt *x = b->stmts[k];
        if (at < 0 && x->kind == IR_IF && an_loop_stmt_host_only(cx, x) &&
            ((arm_breaks(cx, x->branch.then_blk) && !block_leaves(x->branch.else_blk, false)) ||
             (arm_breaks(cx, x->branch.else_blk) && !block_leaves(x->branch.then_blk, false)))) {
            at = k;
            continue;
        }
        if (stmt_leaves(x, false) || (at >= 0 && !an_loop_stmt_host_only(cx, x)))
            return -1;
    }
    return at;
}

/* The loop's counter: the variable its test compares. */
static const char *loop_counter_name(const an_ctx *cx, const ir_stmt *s)
{
    const ir_expr *c = s->loop.cond;
    if (c->kind != IR_EXPR_BINARY)
        return NULL;
    const ir_expr *v = c->a->kind == IR_EXPR_VAR ? c->a : c->b;
    return v->kind == IR_EXPR_VAR && cx->u->vars[v->var].kind == IR_VAR_INT
               ? cx->u->vars[v->var].name : NULL;
}

/* After a loop left at its counted exit (body statement `at`): what the
 * statements after the exit, the step and the counter wrote is not known,
 * nor an integer in memory the loop changed (before: the state before it). */
void an_loop_forget_after_exit(an_ctx *cx, const ir_stmt *s, int at, const snapshot *before)
{
    const ir_block *b = s->loop.body;
    for (int k = at; k < b->n_stmts; k++)
        an_loop_forget_block(cx, &(ir_block){.stmts = (ir_stmt **)&b->stmts[k], .n_stmts = 1});
    an_loop_forget_block(cx, s->loop.step);
    an_loop_forget_block(cx, s->loop.cond_pre);
    const ir_expr *c = s->loop.cond;
    if (c->kind == IR_EXPR_BINARY && c->a->kind == IR_EXPR_VAR)
        an_loop_forget_var(cx, c->a->var);
    if (c->kind == IR_EXPR_BINARY && c->b->kind == IR_EXPR_VAR)
        an_loop_forget_var(cx, c->b->var);
    an_mem_join_scalars(cx, &before->mem);
}

/* The run's count of iterations of a loop left at its counted exit: its
 * symbol in ex->runs (ex->at -1 when the loop has no such exit, or no
 * counter to name it after); the value --bind gives it, or -1. */
int64_t an_loop_loop_exit_runs(an_ctx *cx, const ir_stmt *s, loop_exit *ex)
{
    const char *counter = ex->at >= 0 ? loop_counter_name(cx, s) : NULL;
    if (!counter) {
        ex->at = -1;
        return -1;
    }
    char name[300];
    snprintf(name, sizeof name, "%s.iterations", counter);
    ex->runs = an_new_symbol(cx, name, "iterations", s->loc.line, s->loc.col);
    return ex->runs.e == 0 ? ex->runs.c : -1;
}

/* The loop's test lets it run once at most (it is about to run once). */
bool an_loop_loop_once_only(an_ctx *cx, const ir_stmt *s)
{
    int var, dir;
    sx_int v0, trips = {0, 0};
    bool ge;
    an_loop_counted_loop(cx, s, &var, &v0, &trips, &dir);
    return trips.e == 0 ? trips.c == 1
                        : sx_usable(trips) && sx_prove(trips, SX_LE, (sx_int){1, 0}, &ge) && ge;
}

/* Summarise the loop with the run's count of iterations its trip count; the
 * state as before when it does not fit (the loop is then analysed as any). */
bool an_loop_summarise_exit(an_ctx *cx, const ir_stmt *s, const loop_exit *ex, an_flow *out)
{
    char *why = NULL;
    const ir_stmt *outer = cx->ctl.counted_exit;
    cx->ctl.counted_exit = s->loop.body->stmts[ex->at];
    cx->ctl.counted_exit_met = false;
    bool ok = an_loop_summarise_whole(cx, s, ex, out, &why);
    cx->ctl.counted_exit = outer;
    free(why);
    return ok;
}
