/*
 * an_branch.c: branches.  An if whose condition is unknown runs both arms
 * from the same state and continues with the arm that ends with more live
 * bytes (on a tie, the one that peaks higher); the function's peak covers
 * both; variables whose layouts differ between the arms become unknown.
 * An else-if chain runs in a loop, its open branches on a heap stack.
 */
#include "an_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* An integer of the state (known, i) that may be below 1: a number below
 * it, a formula the sizes do not keep at 1 or more, a join of such. */
static bool below_one(const an_ctx *cx, bool known, int64_t i)
{
    sx_int v;
    bool ge;
    if (!an_int_get(known, i, &v))
        return an_token_floorless(cx, i);
    if (v.e == 0)
        return v.c < 1;
    return !sx_prove(v, SX_GE, (sx_int){1, 0}, &ge) || !ge;
}

/* One variable after the join: a tensor variable keeps the kept arm's
 * handle (so its releases are still followed) but its layout becomes
 * unknown when the other arm left a different one; integers that differ
 * become unknown. */
bool an_join_slot(an_ctx *cx, const snapshot *other, int *tensor, int64_t *ints, bool *known,
                  int theirs, int64_t their_int, bool their_known)
{
    int mine = *tensor;
    /* the other arm holds here a handle this one released, on a storage
     * this one has live through other handles: releasing those frees it in
     * this arm and not in the other, so which arm has more live from here on
     * is not known (a view of a tensor kept in one arm only) */
    bool unordered = mine != theirs && theirs >= 0 && theirs < other->tens.n_handles &&
                     theirs < cx->tens.n_handles && !other->tens.handles[theirs].released &&
                     cx->tens.handles[theirs].released &&
                     other->tens.handles[theirs].storage >= 0 &&
                     cx->tens.live_storage[other->tens.handles[theirs].storage];
    if (mine != theirs && mine >= 0) {
        cx->tens.handles[mine].ident_unsure = true; /* (the other arm held another) */
        const an_handle *h =
            theirs >= 0 && theirs < other->tens.n_handles ? &other->tens.handles[theirs] : NULL;
        if (!h || !h->known || !an_same_layout(&h->l, &cx->tens.handles[mine].l))
            cx->tens.handles[mine].known = false;
        if (!h || !an_same_slayout(cx, h->sl, cx->tens.handles[mine].sl))
            cx->tens.handles[mine].sl = 0; /* (two arms that leave one layout keep it) */
    } else if (mine != theirs) {
        *tensor = AN_UNKNOWN;
    }
    if (!their_known && an_unknown_is(cx, *known, *ints, their_int))
        return unordered; /* the value the other arm's unknown is, read in this arm */
    if (!*known && an_unknown_is(cx, their_known, their_int, *ints)) {
        *known = their_known;
        *ints = their_int;
        return unordered;
    }
    if (*known != their_known || *ints != their_int) {
        /* unknown, not a symbol; when one arm's value may be below 1 (a status
         * of 0 or 1, an index or -1), no size either: read, it has no floor */
        bool floorless = below_one(cx, *known, *ints) || below_one(cx, their_known, their_int);
        *known = false;
        *ints = floorless ? an_floorless_token(cx) : 0;
    }
    return unordered;
}

/* True when the arms are unordered (an_join_slot). */
bool an_join_vars(an_ctx *cx, const snapshot *other)
{
    int k = cx->ctl.depth - 1;
    an_frame *f = an_top(cx);
    bool unordered = false;
    for (int j = 0; j < cx->vars.n_func_vars[f->func]; j++) {
        int v = cx->vars.slot[cx->vars.func_vars[f->func][j]];
        unordered |=
            an_join_slot(cx, other, &f->tensor[v], &f->ints[v], &f->int_known[v],
                         other->ctl.tensors[k][j], other->ctl.ints[k][j], other->ctl.known[k][j]);
    }
    an_frame *g = cx->ctl.gframe;
    for (int v = 0; v < cx->vars.n_globals; v++)
        unordered |= an_join_slot(cx, other, &g->tensor[v], &g->ints[v], &g->int_known[v],
                               other->ctl.g_tensor[v], other->ctl.g_ints[v], other->ctl.g_known[v]);
    an_mem_join(cx, &other->mem);
    return unordered;
}

/* The event log keeps only the kept arm: events [from, to) are dropped and
 * the later ones move down; storages' and summed loops' event indices
 * follow them (a loop whose events all go goes too). */
void an_drop_events(an_ctx *cx, int64_t from, int64_t to)
{
    an_report *r = cx->r;
    int64_t gone = to - from;
    if (gone <= 0)
        return;
    memmove(r->events + from, r->events + to, sizeof *r->events * (size_t)(r->n_events - to));
    r->n_events -= gone;
    int kept = 0; /* the early exits: those in the dropped events go with them */
    for (int k = 0; k < r->n_exits; k++) {
        an_exit x = r->exits[k];
        if (x.at > from && x.at < to)
            continue;
        if (x.at >= to)
            x.at -= gone;
        r->exits[kept++] = x;
    }
    r->n_exits = kept;
    kept = 0; /* verify's alternatives: gone with the events they stand at, else they follow */
    for (int k = 0; k < r->n_alts; k++) {
        an_alt a = r->alts[k];
        if (a.at >= from && a.at < to)
            continue;
        if (a.at >= to)
            a.at -= gone;
        else if (a.at + a.kept_len > from) /* (an arm that holds the dropped events) */
            a.kept_len -= (a.at + a.kept_len < to ? a.at + a.kept_len : to) - from;
        r->alts[kept++] = a;
    }
    r->n_alts = kept;
    an_ret_events_dropped(cx, from, to);
    kept = 0; /* a loop analysed once: gone with its events, else its indices follow */
    for (int k = 0; k < r->n_repeats; k++) {
        an_repeat x = r->repeats[k];
        if (x.first_event >= from && x.end_event <= to)
            continue;
        int64_t *at[2] = {&x.first_event, &x.end_event};
        for (int j = 0; j < 2; j++) {
            if (*at[j] >= to)
                *at[j] -= gone;
            else if (*at[j] > from)
                *at[j] = from;
        }
        r->repeats[kept++] = x;
    }
    r->n_repeats = kept;
    for (int k = 0; k < r->n_storages; k++) {
        an_storage *st = &r->storages[k];
        if (st->alloc_event >= to)
            st->alloc_event -= gone;
        if (st->free_event >= to)
            st->free_event -= gone;
        if (st->retire_event >= to)
            st->retire_event -= gone;
        else if (st->retire_event > from)
            st->retire_event = from;
    }
    kept = 0; /* a summed loop whose iterations went goes too */
    for (int k = 0; k < r->n_summed_loops; k++) {
        an_summed_loop l = r->summed_loops[k];
        if (l.first_event >= from && l.end_event <= to)
            continue;
        int64_t *at[3] = {&l.first_event, &l.probe_event, &l.end_event};
        for (int j = 0; j < 3; j++) {
            if (*at[j] >= to)
                *at[j] -= gone;
            else if (*at[j] > from)
                *at[j] = from;
        }
        r->summed_loops[kept++] = l;
    }
    r->n_summed_loops = kept;
}

/* Both arms run from one state; the arm that ends with more live bytes (on
 * a tie, the one that peaks higher) is kept and what differs in the other
 * is weakened (join_vars).  When the arms leave different live bytes or
 * peak differently, the totals from here on hold for one arm only: they
 * are bounds, and a note says where. */
/* Keep the dropped arm's events [from, to) as the alternative of the kept
 * arm, which will stand at events[at, at + kept_len): *out, for
 * an_alt_insert (false: none kept). */
static bool keep_alternative(an_ctx *cx, int64_t from, int64_t to, int64_t at, int64_t kept_len,
                             bool same_live, an_alt *out)
{
    an_report *r = cx->r;
    if (cx->ctl.if_depth > 0 || !cx->out.log_events || r->n_events_dropped)
        return false; /* nested, or the log is incomplete */
    an_event *ev =
        tl_xrealloc(r->alt_events, sizeof *ev * (size_t)(r->n_alt_events + (to - from) + 1));
    r->alt_events = ev;
    if (to > from)
        memcpy(ev + r->n_alt_events, r->events + from, sizeof *ev * (size_t)(to - from));
    *out = (an_alt){.at = at, .kept_len = kept_len, .first = r->n_alt_events, .len = to - from,
                    .same_live = same_live};
    r->n_alt_events += to - from;
    return true;
}

/* Add alternative a in log order, before those at the same place (an arm
 * before the arms inside it). */
void an_alt_insert(an_ctx *cx, an_alt a)
{
    an_report *r = cx->r;
    int k = r->n_alts;
    while (k > 0 && r->alts[k - 1].at >= a.at)
        k--;
    r->alts = tl_xrealloc(r->alts, sizeof *r->alts * (size_t)(r->n_alts + 1));
    memmove(r->alts + k + 1, r->alts + k, sizeof *r->alts * (size_t)(r->n_alts - k));
    r->alts[k] = a;
    r->n_alts++;
}

/* The comparison c decides, as `a op b` over sizes, once the parts of an
 * && or || that the sizes decide are set aside (`steps <= 0 || steps > n`
 * is `steps > n`). */
static bool cond_compare(an_ctx *cx, const ir_expr *c, sx_int *a, sx_int *b, ir_op *op)
{
    sx_int x;
    if (!c || c->kind != IR_EXPR_BINARY)
        return false;
    if (c->op == IR_OP_LAND || c->op == IR_OP_LOR) {
        bool neutral = c->op == IR_OP_LAND; /* the value that leaves the other side deciding */
        if (an_eval_sx(cx, c->a, &x) && x.e == 0 && (x.c != 0) == neutral)
            return cond_compare(cx, c->b, a, b, op);
        if (an_eval_sx(cx, c->b, &x) && x.e == 0 && (x.c != 0) == neutral)
            return cond_compare(cx, c->a, a, b, op);
        return false;
    }
    if (c->op != IR_OP_LT && c->op != IR_OP_LE && c->op != IR_OP_GT && c->op != IR_OP_GE)
        return false;
    *op = c->op;
    return an_eval_sx(cx, c->a, a) && an_eval_sx(cx, c->b, b);
}

/* An integer that one arm of `if (a op b)` sets to one side and the other
 * leaves at the other is their min or max after the branch (a clamp such as
 * `if (steps > n) steps = n;`).  Both arms' slots get it; false otherwise. */
static bool select_int(ir_op op, sx_int a, sx_int b, bool *kt, int64_t *vt, bool *ke,
                       int64_t *ve)
{
    sx_int t, e;
    if (!an_int_get(*kt, *vt, &t) || !an_int_get(*ke, *ve, &e))
        return false;
    bool greater = op == IR_OP_GT || op == IR_OP_GE; /* then: a is the larger */
    sx_int r;
    if (sx_same(t, b) && sx_same(e, a))
        r = greater ? sx_min(a, b) : sx_max(a, b);
    else if (sx_same(t, a) && sx_same(e, b))
        r = greater ? sx_max(a, b) : sx_min(a, b);
    else
        return false;
    if (r.e == SX_TOO_BIG)
        return false;
    an_int_put(true, r, kt, vt);
    an_int_put(true, r, ke, ve);
    return true;
}

/* select_int over every integer the arms left different. */
static void select_ints(an_ctx *cx, snapshot *then, ir_op op, sx_int a, sx_int b)
{
    for (int k = 0; k < cx->ctl.depth && k < then->ctl.depth; k++) {
        an_frame *fr = cx->ctl.stack[k];
        const int *ids = cx->vars.func_vars[fr->func];
        for (int j = 0; j < cx->vars.n_func_vars[fr->func]; j++) {
            int sl = cx->vars.slot[ids[j]];
            if (then->ctl.known[k][j] != fr->int_known[sl] || then->ctl.ints[k][j] != fr->ints[sl])
                select_int(op, a, b, &then->ctl.known[k][j], &then->ctl.ints[k][j],
                           &fr->int_known[sl], &fr->ints[sl]);
        }
    }
    for (int g = 0; g < cx->vars.n_globals; g++)
        if (then->ctl.g_known[g] != cx->ctl.gframe->int_known[g] ||
            then->ctl.g_ints[g] != cx->ctl.gframe->ints[g])
            select_int(op, a, b, &then->ctl.g_known[g], &then->ctl.g_ints[g],
                       &cx->ctl.gframe->int_known[g], &cx->ctl.gframe->ints[g]);
}

/* How much of the run a flow out of an arm skips: the rest of the block
 * (goto), of the function (return), of the program (exit); -1 for the
 * flows of loops (break, continue) and a stopped analysis. */
static int leave_rank(an_flow f)
{
    switch (f) {
    case AN_FLOW_NEXT: return 0;
    case AN_FLOW_GOTO: return 1;
    case AN_FLOW_RETURN: return 2;
    case AN_FLOW_EXIT: return 3;
    default: return -1;
    }
}

/* r->exits[from, to) were recorded in an arm whose events, from ev_from on,
 * are dropped: a run that takes that arm and leaves where one of them says
 * makes the arm's calls up to there and the leaving arm's, so each becomes
 * an exit at the branch (at) whose leaving calls are those; they move to
 * r->exits[to_at, ...), where the branch's exits begin (log order). */
static void rebase_exits(an_ctx *cx, int from, int to, int64_t ev_from, int64_t at, int to_at)
{
    an_report *r = cx->r;
    int kept = from;
    for (int k = from; k < to; k++) {
        an_exit x = r->exits[k];
        if (!x.path || x.at < ev_from)
            continue; /* (a loop's exit: recorded outside unknown branches only) */
        int64_t pre = x.at - ev_from, n = pre + x.alt_len;
        r->alt_events = tl_xrealloc(r->alt_events,
                                    sizeof *r->alt_events * (size_t)(r->n_alt_events + n + 1));
        an_event *dst = r->alt_events + r->n_alt_events;
        if (pre > 0)
            memcpy(dst, r->events + ev_from, sizeof *dst * (size_t)pre);
        if (x.alt_len > 0)
            memmove(dst + pre, r->alt_events + x.alt, sizeof *dst * (size_t)x.alt_len);
        x.alt = r->n_alt_events;
        x.alt_len = n;
        x.at = at;
        r->n_alt_events += n;
        r->exits[kept++] = x;
    }
    if (kept < to && to < r->n_exits)
        memmove(r->exits + kept, r->exits + to, sizeof *r->exits * (size_t)(r->n_exits - to));
    r->n_exits -= to - kept;
    int n = kept - from; /* those kept, to their place in log order */
    if (n > 0 && to_at < from) {
        an_exit *moved = an_dup_mem(r->exits + from, sizeof *moved * (size_t)n);
        memmove(r->exits + to_at + n, r->exits + to_at, sizeof *moved * (size_t)(from - to_at));
        memcpy(r->exits + to_at, moved, sizeof *moved * (size_t)n);
        free(moved);
    }
}

/* The assumption that the run does not take the arm of branch s that leaves
 * (lv: the statement that leaves), once per branch and arm; its index. */
int an_path_assume(an_ctx *cx, const ir_stmt *s, bool then_arm, const an_leave *lv)
{
    an_report *r = cx->r;
    for (int k = 0; k < r->n_paths; k++)
        if (r->paths[k].line == s->loc.line && r->paths[k].col == s->loc.col &&
            r->paths[k].then_arm == then_arm)
            return k;
    char *what = lv->callee ? tl_xasprintf("%s() ends the program", lv->callee)
                            : tl_xstrdup(lv->text ? lv->text : "it leaves");
    char *at = ir_unit_line_text(cx->u, lv->line);
    /* the final else of a chain (a switch's default): not taking it is taking
     * one of the chain's arms, not meeting the last condition alone */
    const char *text = !then_arm && s->branch.else_text ? s->branch.else_text : s->text;
    text = text && text[0] ? text : NULL;
    char *cond = text ? tl_xasprintf("%s is %s", text, then_arm ? "false" : "true")
                      : tl_xasprintf("the run does not leave at line %s", at);
    free(at);
    r->paths = tl_xrealloc(r->paths, sizeof *r->paths * (size_t)(r->n_paths + 1));
    r->paths[r->n_paths] = (an_path){.func = an_top(cx)->func, .line = s->loc.line,
                                     .col = s->loc.col, .then_arm = then_arm,
                                     .leave_line = lv->line, .named = text != NULL,
                                     .condition = cond, .leave = what};
    return r->n_paths++;
}

/* The dropped arm's events [from, to) and where a run that takes it leaves
 * the log (at, once they are dropped): for verify. */
static void path_exit_record(an_ctx *cx, int path_id, int line, int64_t from, int64_t to,
                             int64_t at)
{
    an_report *r = cx->r;
    if (!cx->out.log_events || r->n_events_dropped)
        return; /* the log is incomplete */
    r->alt_events = tl_xrealloc(r->alt_events, sizeof *r->alt_events *
                                                   (size_t)(r->n_alt_events + (to - from) + 1));
    if (to > from)
        memcpy(r->alt_events + r->n_alt_events, r->events + from,
               sizeof *r->alt_events * (size_t)(to - from));
    r->exits = tl_xrealloc(r->exits, sizeof *r->exits * (size_t)(r->n_exits + 1));
    r->exits[r->n_exits++] = (an_exit){.at = at, .loop_depth = cx->ctl.loop_depth, .line = line,
                                       .path = true, .path_id = path_id,
                                       .alt = r->n_alt_events, .alt_len = to - from};
    r->n_alt_events += to - from;
}

/* One arm's run: how it left, and what it added (from the branch's start). */
typedef struct br_arm {
    an_flow flow;
    int label;           /* cx->ctl.goto_label after it */
    an_leave leave;      /* cx->ctl.leave after it */
    int ex;              /* r->n_exits after it */
    int64_t peak;        /* its peak of live bytes (cx->acct.arm_peak) */
    int64_t moved, sym;  /* the bytes it moved, the symbolic events it made */
    int64_t calls;       /* the API calls it made */
    int rets;            /* an_top(cx)->n_rets after it */
} br_arm;

/* What an unknown branch keeps between its steps; it owns the snapshots
 * and saved totals, which br_free gives back (on the heap, as many as the
 * arms of an else-if chain are open at once; the snapshots are not zeroed:
 * most of their fixed arrays are never touched). */
typedef struct br_run {
    const ir_stmt *s;
    snapshot *before, *after_then; /* (one allocation) */
    an_fr_saved *t0, *t_then; /* the totals before the branch, after then (paths only) */
    int64_t outer_peak;       /* cx->acct.arm_peak before the branch */
    bool paths;               /* outside the function's loops (but loops that touch no tensor) */
    int ex0;                  /* r->n_exits before the branch */
    int rets0;                /* an_top(cx)->n_rets before the branch */
    int64_t moved0, sym0, calls0;
    sx_int ca, cb;            /* the condition's comparison, when compares */
    ir_op cop;
    bool compares;
    br_arm then, els;
    bool then_left;           /* paths, and the then arm left (return, goto, exit) */
    bool one_leaves;          /* the arms flow out differently (but a counted exit) */
    bool only_next;           /* an arm continues the loop */
    int64_t else_live;
    int64_t b0, t1, e1;       /* the events' ends: before, after then, after else */
} br_run;

static void br_free(an_ctx *cx, br_run *b)
{
    an_frs_free(cx, b->t0);
    an_frs_free(cx, b->t_then);
    an_snap_free(b->before);
    an_snap_free(b->after_then);
    free(b->before);
    free(b);
}

/* The state before the branch, its totals, and its condition's comparison. */
static br_run *br_begin(an_ctx *cx, const ir_stmt *s)
{
    br_run *b = tl_xcalloc(1, sizeof *b);
    an_report *r = cx->r;
    b->s = s;
    b->before = tl_xmalloc(sizeof *b->before * 2);
    b->after_then = b->before + 1;
    b->outer_peak = cx->acct.arm_peak;
    b->paths = an_top(cx)->loops == an_top(cx)->host_loops; /* (loops that touch no tensor) */
    b->ex0 = r->n_exits;
    if (b->paths) {
        an_settle_peaks(cx);
        b->t0 = an_frs_save(cx);
    }
    an_snap_take(cx, b->before);
    cx->acct.arm_peak = cx->acct.live;
    b->moved0 = cx->acct.moved_total;
    b->sym0 = cx->acct.sym_events;
    b->calls0 = cx->acct.n_calls;
    b->rets0 = an_top(cx)->n_rets;
    b->compares = cond_compare(cx, s->branch.cond, &b->ca, &b->cb, &b->cop);
    return b;
}

/* One arm ran from the branch's state and flowed out by flow: what it
 * did, counted from the branch's start less what the arms before it did
 * (prev). */
static void br_arm_done(an_ctx *cx, br_run *b, an_flow flow, const br_arm *prev, br_arm *a)
{
    a->flow = flow;
    a->label = cx->ctl.goto_label;
    a->ex = cx->r->n_exits;
    a->leave = cx->ctl.leave;
    a->peak = cx->acct.arm_peak;
    a->moved = cx->acct.moved_total - b->moved0 - (prev ? prev->moved : 0);
    a->sym = cx->acct.sym_events - b->sym0 - (prev ? prev->sym : 0);
    a->calls = cx->acct.n_calls - b->calls0 - (prev ? prev->calls : 0);
    a->rets = an_top(cx)->n_rets;
}

/* The then arm, and the state before the branch back for the else arm. */
static void br_then(an_ctx *cx, br_run *b)
{
    cx->ctl.if_depth++;
    br_arm_done(cx, b, an_exec_block(cx, b->s->branch.then_blk), NULL, &b->then);
    b->then_left = b->paths && leave_rank(b->then.flow) > 0;
    if (b->paths) {
        an_settle_peaks(cx);
        b->t_then = an_frs_save(cx);
        if (b->then_left) /* the else arm counts from the totals before the branch */
            an_frs_put(cx, b->t0);
    }
    an_snap_take(cx, b->after_then);
    an_snap_restore(cx, b->before);
    cx->acct.arm_peak = cx->acct.live;
}

/* The else arm ran (from the state before the branch) and flowed out by
 * flow. */
static void br_else_done(an_ctx *cx, br_run *b, an_flow flow)
{
    const ir_stmt *s = b->s;
    br_arm_done(cx, b, flow, &b->then, &b->els);
    an_flow ft = b->then.flow, fe = b->els.flow;
    /* (an exit the loop's count of iterations accounts for: the run goes on at every
     * iteration the count has, and leaves after the last) */
    b->one_leaves = ft != fe && cx->ctl.counted_exit != s;
    if (cx->ctl.counted_exit == s)
        cx->ctl.counted_exit_met = true;
    /* in a loop, the run may leave there and the analysis goes on (below): what runs
     * after it runs at most as often as counted, to the end of the loop (break,
     * continue) or of the function (return, goto).  (Outside loops the analysis
     * follows the run that goes on, as its totals do.) */
    if (b->one_leaves && an_top(cx)->loops > an_top(cx)->host_loops) {
        bool func = ft == AN_FLOW_RETURN || ft == AN_FLOW_GOTO || ft == AN_FLOW_STOP ||
                    ft == AN_FLOW_EXIT || fe == AN_FLOW_RETURN || fe == AN_FLOW_GOTO ||
                    fe == AN_FLOW_STOP || fe == AN_FLOW_EXIT;
        if (func)
            cx->ctl.upper_func = true;
        else
            cx->ctl.upper_loop = true;
    }
    b->only_next = ft == AN_FLOW_CONTINUE || fe == AN_FLOW_CONTINUE;
    cx->ctl.if_depth--;
    b->else_live = cx->acct.live;
    b->b0 = b->before->out.n_events;
    b->t1 = b->after_then->out.n_events;
    b->e1 = cx->r->n_events;
}

/* Outside loops, one arm leaves where the other goes on (or leaves less:
 * a goto, not a return; two gotos to different labels). */
static bool br_one_path(const br_run *b)
{
    int rt = leave_rank(b->then.flow), re = leave_rank(b->els.flow);
    return b->paths && rt >= 0 && re >= 0 &&
           (rt != re || (rt == 1 && b->then.label != b->els.label));
}

/* The arm that returns (gone) while the other goes on, kept for the
 * function's exit (an_return.c); false where it is not kept (the run is then
 * assumed not to take it). */
static bool br_return_path(an_ctx *cx, br_run *b, bool keep_then, an_ret_path **path)
{
    const br_arm *kept = keep_then ? &b->then : &b->els, *gone = keep_then ? &b->els : &b->then;
    if (gone->flow != AN_FLOW_RETURN)
        return false;
    an_ret_arm a = {.s = b->s, .then_arm = !keep_then, .leave = gone->leave, .peak = gone->peak,
                    .moved = gone->moved, .sym = gone->sym, .calls = gone->calls,
                    .kept_calls = kept->calls, .from = keep_then ? b->t1 : b->b0,
                    .to = keep_then ? b->e1 : b->t1, .at = b->b0};
    if (keep_then) { /* the state after else, the totals: t0, then and else */
        an_snap_take(cx, &a.sn);
        a.t = an_frs_save(cx);
        a.base = b->t_then;
    } else { /* the state after then, the totals t0 and then */
        a.sn = *b->after_then;
        a.t = b->t_then;
        a.base = b->t0;
    }
    an_ret_path *p = an_ret_record(cx, &a);
    if (!p) {
        if (keep_then) {
            an_snap_free(&a.sn);
            an_frs_free(cx, a.t);
        }
        return false;
    }
    if (keep_then) {
        b->t_then = NULL; /* the path's now (an_frs_put below reads it first) */
        an_snap_restore(cx, b->after_then);
        an_frs_put(cx, a.base);
    } else {
        memset(b->after_then, 0, sizeof *b->after_then);
        b->t_then = b->t0 = NULL;
    }
    *path = p;
    return true;
}

/* The run is assumed to go on: the arm that leaves less is followed alone,
 * the other's events dropped and recorded as a path (for verify).  A
 * return is no assumption: the path is kept, to join the function's others
 * at its exit (br_return_path). */
static an_flow br_follow_one(an_ctx *cx, br_run *b)
{
    bool keep_then = leave_rank(b->then.flow) < leave_rank(b->els.flow);
    const br_arm *kept = keep_then ? &b->then : &b->els, *gone = keep_then ? &b->els : &b->then;
    an_ret_path *path = NULL;
    bool returns = br_return_path(cx, b, keep_then, &path);
    if (keep_then) {
        if (!returns) {
            an_snap_restore(cx, b->after_then);
            an_frs_put(cx, b->t_then);
        }
        rebase_exits(cx, b->then.ex, b->els.ex, b->t1, b->b0, b->ex0);
    } else {
        rebase_exits(cx, b->ex0, b->then.ex, b->b0, b->b0, b->ex0);
    }
    cx->acct.moved_total -= gone->moved;
    cx->acct.sym_events -= gone->sym;
    int64_t from = keep_then ? b->t1 : b->b0, to = keep_then ? b->e1 : b->t1;
    if (!returns) { /* what was taken inside the arm is assumed away with it */
        an_ret_drop(cx, an_top(cx), keep_then ? b->then.rets : b->rets0,
                    keep_then ? b->els.rets : b->then.rets);
        int id = an_path_assume(cx, b->s, !keep_then, &gone->leave);
        path_exit_record(cx, id, b->s->loc.line, from, to, b->b0);
    }
    an_drop_events(cx, from, to);
    if (path) { /* (after the drop: it stands where the log is at the branch) */
        an_ret_push(cx, path);
        cx->ctl.upper_func = true; /* what runs from here to the end, runs at most as counted */
    }
    cx->acct.arm_peak = b->outer_peak > kept->peak ? b->outer_peak : kept->peak;
    if (cx->acct.arm_peak < cx->acct.live)
        cx->acct.arm_peak = cx->acct.live;
    cx->ctl.goto_label = kept->label;
    cx->ctl.leave = kept->leave;
    return kept->flow;
}

/* Both arms go on (or leave alike): the larger is kept, what differs in
 * the other weakened, and what then holds for one arm only is a bound;
 * how the run flows on from the kept arm. */
static an_flow br_join(an_ctx *cx, br_run *b)
{
    const ir_stmt *s = b->s;
    snapshot *after_then = b->after_then;
    if (b->then_left) /* both arms leave alike: both count */
        an_frs_merge(cx, b->t0, b->t_then);
    if (b->compares) /* the integers one arm set to a side of the comparison: min or max */
        select_ints(cx, after_then, b->cop, b->ca, b->cb);
    /* bytes that are formulas: the arms are not compared, so what they touch is a bound */
    bool sym_live_differs = !sx_same(after_then->acct.live_sx, cx->acct.live_sx);
    bool sym_arms = b->then.sym > 0 || b->els.sym > 0;
    bool ge;
    bool keep_then = after_then->acct.live > cx->acct.live ||
                     (after_then->acct.live == cx->acct.live && b->then.peak > b->els.peak) ||
                     (after_then->acct.live == cx->acct.live && sym_live_differs &&
                      sx_prove(after_then->acct.live_sx, SX_GE, cx->acct.live_sx, &ge) && ge);
    /* the kept arm is the larger (an upper bound) only where the arms' live
     * bytes compare: formulas that no proof orders can go either way */
    bool ge_kept = false;
    bool larger_kept = !sym_live_differs ||
        ((keep_then ? sx_prove(after_then->acct.live_sx, SX_GE, cx->acct.live_sx, &ge_kept)
                    : sx_prove(cx->acct.live_sx, SX_GE, after_then->acct.live_sx, &ge_kept)) &&
         ge_kept);
    cx->acct.arm_peak = b->outer_peak > b->then.peak ? b->outer_peak : b->then.peak;
    if (cx->acct.arm_peak < cx->acct.live)
        cx->acct.arm_peak = cx->acct.live;
    bool same_live = after_then->acct.live == b->else_live, unordered;
    if (keep_then) {
        snapshot after_else;
        an_snap_take(cx, &after_else);
        an_snap_restore(cx, after_then);
        unordered = an_join_vars(cx, &after_else);
        an_snap_free(&after_else);
        rebase_exits(cx, b->then.ex, b->els.ex, b->t1, b->b0, b->ex0);
        an_alt alt;
        if (keep_alternative(cx, b->t1, b->e1, b->b0, b->t1 - b->b0, same_live, &alt))
            an_alt_insert(cx, alt);
        an_drop_events(cx, b->t1, b->e1);
        cx->ctl.goto_label = b->then.label;
        cx->ctl.leave = b->then.leave;
    } else {
        unordered = an_join_vars(cx, after_then);
        rebase_exits(cx, b->ex0, b->then.ex, b->b0, b->b0, b->ex0);
        an_alt alt; /* (it stands where the log is once they go) */
        bool kept = keep_alternative(cx, b->b0, b->t1, b->b0, b->e1 - b->t1, same_live, &alt);
        an_drop_events(cx, b->b0, b->t1);
        if (kept)
            an_alt_insert(cx, alt);
    }
    /* what holds for one arm only: the peak (the larger is kept), the live
     * bytes from here on, and the bytes moved (both arms are counted) */
    bool live_differs = after_then->acct.live != b->else_live || sym_live_differs || unordered;
    larger_kept = larger_kept && !unordered;
    unsigned bound = (b->then.peak != b->els.peak || sym_arms ? AN_BOUND_PEAK : 0u) |
                     (live_differs ? AN_BOUND_PEAK | AN_BOUND_END : 0u) |
                     (b->then.moved || b->els.moved || sym_arms ? AN_BOUND_MOVED : 0u);
    if (bound & (AN_BOUND_PEAK | AN_BOUND_END))
        an_diag_add(cx, AN_NOTE, "unknown-branch", s->loc.line, s->loc.col,
                    "the condition is not known statically and its arms %s: the larger arm is "
                    "kept, and the byte totals after it are bounds",
                    live_differs ? "leave different live bytes" : "reach different peaks");
    if (bound) /* the larger arm kept, both arms' bytes moved counted */
        an_mark_claim(cx, bound, larger_kept ? AN_CLAIM_UPPER : AN_CLAIM_NONE);
    if (!keep_then)
        return b->els.flow;
    return b->then.flow == b->els.flow ? b->then.flow : AN_FLOW_NEXT;
}

/* A return or break in only one arm: continue as if it fell through.  In
 * a loop, the run may leave it (or the iteration) there: what follows
 * counts iterations it may not run, so the totals are bounds (said at the
 * loop when it is being summarised, its totals kept as formulas). */
static void br_early_exit(an_ctx *cx, const br_run *b)
{
    an_report *r = cx->r;
    const ir_stmt *s = b->s;
    if (!b->one_leaves)
        return;
    if (an_top(cx)->loops <= an_top(cx)->host_loops) { /* no total depends on the loop's */
        cx->ctl.host_left_early = true; /* iterations, but what it writes does (an_loop.c) */
        return;
    }
    if (cx->ctl.if_depth == 0 && cx->out.log_events && !r->n_events_dropped) {
        r->exits = tl_xrealloc(r->exits, sizeof *r->exits * (size_t)(r->n_exits + 1));
        r->exits[r->n_exits++] = (an_exit){.at = r->n_events, .loop_depth = cx->ctl.loop_depth,
                                           .iteration = b->only_next, .line = s->loc.line};
    }
    if (cx->ctl.summarising > 0) {
        if (!cx->ctl.early_exit_line)
            cx->ctl.early_exit_line = s->loc.line;
    } else {
        an_diag_add(cx, AN_NOTE, "unknown-branch", s->loc.line, s->loc.col,
                    "the condition is not known statically and one arm leaves the loop "
                    "(or the iteration) early: the analysis goes on as if the run does "
                    "not, so the byte totals after it are upper bounds");
        an_mark_claim(cx, AN_BOUND_ALL, AN_CLAIM_UPPER);
    }
}

/* An unknown branch, finished.  Both arms ran from one state; the arm that
 * ends with more live bytes (on a tie, the one that peaks higher) is kept
 * and what differs in the other is weakened (join_vars).  When the arms
 * leave different live bytes or peak differently, the totals from here on
 * hold for one arm only: they are bounds, and a note says where.
 *
 * Outside the function's loops, an arm that leaves (return, goto, exit)
 * while the other goes on (or leaves less: a goto to a label of the
 * function, not a return) is followed apart: the other arm is followed
 * alone, its state and its totals exact.  A return is kept for the
 * function's exit, where it joins the state there (an_return.c); any other
 * way out is a path the run is assumed not to take, and the report lists
 * the assumption (an_report.paths).  So each arm's totals start from those
 * before the branch, and two arms that leave alike are both counted, as any
 * two arms are. */
static an_flow br_finish(an_ctx *cx, br_run *b)
{
    an_flow f;
    if (br_one_path(b)) {
        f = br_follow_one(cx, b);
    } else {
        f = br_join(cx, b);
        br_early_exit(cx, b);
    }
    br_free(cx, b);
    return f;
}

/* Which arm of s runs: 1 then, 0 else, -1 not known statically. */
static int if_decided(an_ctx *cx, const ir_stmt *s)
{
    int64_t c;
    sx_int x;
    if (cx->ctl.forced_if == s) /* (an iteration of one kind: an_loop.c) */
        return cx->ctl.forced_then ? 1 : 0;
    if (an_eval(cx, s->branch.cond, &c))
        return c ? 1 : 0;
    if (an_eval_sx(cx, s->branch.cond, &x) && x.e == 0) /* the sizes decide it (n > 0) */
        return x.c ? 1 : 0;
    return -1;
}

/* The `if` a block is when it is nothing else and declares nothing (an
 * else-if arm): run in an_exec_if's loop, not by recursion. */
static const ir_stmt *lone_if(const ir_block *b)
{
    return b && b->n_stmts == 1 && b->n_decls == 0 && b->stmts[0]->kind == IR_IF ? b->stmts[0]
                                                                                  : NULL;
}

static br_run **open_push(br_run **open, size_t *n, size_t *cap, br_run *b)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        open = tl_xrealloc(open, sizeof *open * *cap);
    }
    open[(*n)++] = b;
    return open;
}

/* An if, and the ifs its arms are (an else-if chain of any length), in a
 * loop: the branches whose conditions are not known statically are kept
 * open on a stack of their own (br_run, NULL for the end of a lone-if
 * block) and finished innermost first, as recursion would (exec_stmt,
 * exec_block_scoped) but in memory the heap gives. */
an_flow an_exec_if(an_ctx *cx, const ir_stmt *s)
{
    br_run **open = NULL;
    size_t n = 0, cap = 0;
    an_flow fl;
    for (;;) {
        int arm = if_decided(cx, s);
        const ir_block *blk = arm == 1 ? s->branch.then_blk : s->branch.else_blk;
        if (arm < 0) {
            br_run *b = br_begin(cx, s);
            br_then(cx, b);
            open = open_push(open, &n, &cap, b);
        }
        const ir_stmt *in = lone_if(blk);
        if (!in) {
            fl = an_exec_block(cx, blk);
            break;
        }
        open = open_push(open, &n, &cap, NULL); /* the block's end: exec_block_scoped's */
        if (!an_stmt_begin(cx, in)) {
            fl = AN_FLOW_STOP;
            break;
        }
        s = in;
    }
    while (n > 0) {
        br_run *b = open[--n];
        if (!b) { /* (a goto leaves it: its one statement is no label) */
            if (fl != AN_FLOW_STOP)
                an_settle_peaks(cx);
            continue;
        }
        br_else_done(cx, b, fl);
        fl = br_finish(cx, b);
    }
    free(open);
    return fl;
}
