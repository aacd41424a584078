/*
 * an_return.c: returns on a path.  Outside the function's tensor loops, an
 * unknown branch one arm of which returns while the other goes on (a
 * sampler's `if (r < cdf) return i;`, a helper's `if (!piece) return;`) is
 * no assumption on the run: most runs take such returns.  The returning
 * arm's state is kept (an_ret_path) and the analysis follows the other; at
 * the function's exit every kept return is joined with the state that
 * reached the end, as br_join joins the two arms of an unknown branch:
 * where they hold the same tensors and made the same totals the join is
 * exact (the return value and the integers that differ become run-time
 * values); otherwise the heavier state is kept and the totals are bounds,
 * with a note.  A program end (main's return, exit) stays an assumption,
 * and so does a return the join cannot follow for verify.
 */
#include "an_internal.h"

#include <stdlib.h>
#include <string.h>

/* Return paths kept per invocation: past them, a return is assumed not
 * taken (a loop of many known iterations each of which may return). */
#define AN_MAX_RETS 16

struct an_ret_path {
    an_ret_arm a;
    int64_t calls_end;      /* cx->acct.n_calls when it was kept (after both arms) */
    int loop_depth;
    bool events;            /* its events are alt_events[alt, alt + a.to - a.from) and a.at
                               is where the log stood at the branch: verify can follow it */
    int64_t alt;
    unsigned differ;        /* the totals (AN_BOUND_*) that differ from the end's */
};

an_ret_path *an_ret_record(an_ctx *cx, an_ret_arm *a)
{
    an_frame *f = an_top(cx);
    an_report *r = cx->r;
    if (cx->ctl.depth == 1 && strcmp(cx->u->funcs[f->func]->name, "main") == 0)
        return NULL; /* main's return ends the program, as exit does (C11 5.1.2.2.3) */
    if (f->n_rets >= AN_MAX_RETS)
        return NULL;
    an_ret_path *p = tl_xcalloc(1, sizeof *p);
    p->a = *a;
    p->calls_end = cx->acct.n_calls;
    p->loop_depth = cx->ctl.loop_depth;
    p->events = cx->out.log_events && !r->n_events_dropped; /* (an_ret_events_dropped) */
    if (p->events) { /* the arm's events, aside (the branch drops them from the log) */
        int64_t n = a->to - a->from;
        r->alt_events = tl_xrealloc(r->alt_events,
                                    sizeof *r->alt_events * (size_t)(r->n_alt_events + n + 1));
        if (n > 0)
            memcpy(r->alt_events + r->n_alt_events, r->events + a->from,
                   sizeof *r->alt_events * (size_t)n);
        p->alt = r->n_alt_events;
        r->n_alt_events += n;
    }
    return p;
}

void an_ret_push(an_ctx *cx, an_ret_path *p)
{
    an_frame *f = an_top(cx);
    f->rets = tl_xrealloc(f->rets, sizeof *f->rets * (size_t)(f->n_rets + 1));
    f->rets[f->n_rets++] = p;
}

/* An enclosing arm (an unknown branch's, a loop's trial) dropped events: a
 * path whose branch stood among them no longer has its place in the log
 * (verify cannot be shown it); one after them moves down. */
void an_ret_events_dropped(an_ctx *cx, int64_t from, int64_t to)
{
    for (int d = 0; d < cx->ctl.depth; d++) {
        an_frame *f = cx->ctl.stack[d];
        for (int k = 0; k < f->n_rets; k++) {
            an_ret_path *p = f->rets[k];
            if (p->a.at >= to)
                p->a.at -= to - from;
            else if (p->a.at >= from)
                p->events = false;
        }
    }
}

static void ret_free(an_ctx *cx, an_ret_path *p)
{
    an_snap_free(&p->a.sn);
    an_frs_free(cx, p->a.t);
    an_frs_free(cx, p->a.base);
    free(p);
}

void an_ret_drop(an_ctx *cx, an_frame *f, int from, int to)
{
    if (from >= to)
        return;
    for (int k = from; k < to; k++)
        ret_free(cx, f->rets[k]);
    memmove(f->rets + from, f->rets + to, sizeof *f->rets * (size_t)(f->n_rets - to));
    f->n_rets -= to - from;
}

/* The path cannot be joined (the function ends the program after it, the
 * analysis stopped, or verify could not follow it): the run is assumed not
 * to take it, as before returns were paths; the exit for verify goes where
 * the log stood at the branch. */
static void ret_assume(an_ctx *cx, const an_ret_path *p)
{
    an_report *r = cx->r;
    int id = an_path_assume(cx, p->a.s, p->a.then_arm, &p->a.leave);
    if (!p->events || p->a.at > r->n_events)
        return;
    int k = r->n_exits;
    while (k > 0 && r->exits[k - 1].at > p->a.at)
        k--;
    r->exits = tl_xrealloc(r->exits, sizeof *r->exits * (size_t)(r->n_exits + 1));
    memmove(r->exits + k + 1, r->exits + k, sizeof *r->exits * (size_t)(r->n_exits - k));
    r->exits[k] = (an_exit){.at = p->a.at, .loop_depth = p->loop_depth,
                            .line = p->a.s->loc.line, .path = true, .path_id = id,
                            .alt = p->alt, .alt_len = p->a.to - p->a.from};
    r->n_exits++;
}

/* Verify's alternative at the branch: the log's kept_len events from there
 * stand for alt_events[first, first + len). */
static void alt_insert(an_ctx *cx, int64_t at, int64_t kept_len, int64_t first, int64_t len,
                       bool same_live)
{
    an_alt_insert(cx, (an_alt){.at = at, .kept_len = kept_len, .first = first, .len = len,
                               .same_live = same_live});
}

/* Which totals of the functions on the stack differ between the path (its
 * totals p->a.t) and the state at the end (AN_BOUND_* bits). */
static unsigned totals_differ(an_ctx *cx, const an_ret_path *p)
{
    unsigned bound = 0;
    for (int k = 0; k < cx->ctl.depth; k++) {
        int i = cx->out.report_of[cx->ctl.stack[k]->func];
        if (i < 0)
            continue;
        const an_func_report *o = &p->a.t[i].fr, *fr = &cx->r->funcs[i];
        if (o->peak_live_bytes != fr->peak_live_bytes || o->symbolic != fr->symbolic ||
            (fr->symbolic && !sx_same(o->peak_sx, fr->peak_sx)))
            bound |= AN_BOUND_PEAK;
        if (o->moved_bytes != fr->moved_bytes || !sx_same(o->moved_sx, fr->moved_sx) ||
            o->n_calls != fr->n_calls)
            bound |= AN_BOUND_MOVED;
    }
    return bound;
}

/* The returned value: the path's (in its snapshot's top frame) joined with
 * the one at the end; true when the join leaves the arms unordered. */
static bool ret_value_join(an_ctx *cx, an_frame *f, const snapshot *other, const an_frame *o)
{
    bool unordered = an_join_slot(cx, other, &f->ret_handle, &f->ret_int, &f->ret_int_known,
                                  o->ret_handle, o->ret_int, o->ret_int_known);
    if (f->has_ret_ptr != o->has_ret_ptr ||
        (f->has_ret_ptr && !an_cell_same(cx, &f->ret_ptr, &o->ret_ptr))) {
        f->has_ret_ptr = true; /* a pointer that differs: not known */
        f->ret_ptr = (an_cell){.kind = AN_CELL_UNKNOWN};
    }
    f->has_ret_obj = f->has_ret_obj || o->has_ret_obj; /* (the register: an_mem_join) */
    return unordered;
}

/* The path is the heavier: its state is taken, joined with the one at the
 * end (the log's events from the branch on become the path's, the others
 * verify's alternative); true when unordered. */
static bool ret_take(an_ctx *cx, an_frame *f, an_ret_path *p, bool events)
{
    an_report *r = cx->r;
    snapshot end;
    an_snap_take(cx, &end);
    an_frame end_frame = *f; /* (its return value: a restore leaves it) */
    int64_t first = r->n_alt_events, len = events ? r->n_events - p->a.at : 0;
    if (events) {
        r->alt_events = tl_xrealloc(r->alt_events,
                                    sizeof *r->alt_events * (size_t)(r->n_alt_events + len + 1));
        if (len > 0)
            memcpy(r->alt_events + first, r->events + p->a.at, sizeof *r->events * (size_t)len);
        r->n_alt_events += len;
        an_drop_events(cx, p->a.at, r->n_events); /* (the alternatives inside go with them) */
        for (int64_t k = 0; k < p->a.to - p->a.from; k++) {
            an_event *e = an_event_push(cx, AN_EV_CALL, 0, 0);
            if (e)
                *e = r->alt_events[p->alt + k];
        }
    }
    an_snap_restore(cx, &p->a.sn);
    int top = cx->ctl.depth - 1;
    const an_frame *o = &p->a.sn.ctl.frames[top];
    f->ret_handle = o->ret_handle;
    f->ret_int = o->ret_int;
    f->ret_int_known = o->ret_int_known;
    f->has_ret_ptr = o->has_ret_ptr;
    f->ret_ptr = o->ret_ptr;
    f->has_ret_obj = o->has_ret_obj;
    /* the blocks the return left: their tensor variables are out of scope, as
     * they are in the state at the end */
    const int *ids = cx->vars.func_vars[f->func];
    for (int j = 0; j < cx->vars.n_func_vars[f->func]; j++) {
        int *slot = &f->tensor[cx->vars.slot[ids[j]]];
        if (end.ctl.tensors[top][j] >= 0 || *slot < 0)
            continue;
        int h = *slot;
        *slot = AN_UNSET;
        an_handle_dropped(cx, h, ids[j], p->a.leave.line, 0, "out of scope");
    }
    bool unordered = an_join_vars(cx, &end);
    unordered |= ret_value_join(cx, f, &end, &end_frame);
    if (events && (len > 0 || p->a.to > p->a.from))
        alt_insert(cx, p->a.at, p->a.to - p->a.from, first, len, false);
    an_snap_free(&end);
    return unordered;
}

/* The state at the end is kept, what differs in the path weakened; true
 * when unordered. */
static bool ret_keep(an_ctx *cx, an_frame *f, an_ret_path *p, bool events, bool same_live)
{
    an_report *r = cx->r;
    bool unordered = an_join_vars(cx, &p->a.sn);
    unordered |= ret_value_join(cx, f, &p->a.sn, &p->a.sn.ctl.frames[cx->ctl.depth - 1]);
    int64_t kept_len = r->n_events - p->a.at;
    if (events && (kept_len > 0 || p->a.to > p->a.from))
        alt_insert(cx, p->a.at, kept_len, p->alt, p->a.to - p->a.from, same_live);
    return unordered;
}

/* One path joined with the state at the end of the function. */
static void ret_join(an_ctx *cx, an_frame *f, an_ret_path *p)
{
    const ir_stmt *s = p->a.s;
    const snapshot *sn = &p->a.sn;
    bool ge, ge_kept = false;
    bool sym_differs = !sx_same(sn->acct.live_sx, cx->acct.live_sx);
    bool take = sn->acct.live > cx->acct.live ||
                (sn->acct.live == cx->acct.live && sym_differs &&
                 sx_prove(sn->acct.live_sx, SX_GE, cx->acct.live_sx, &ge) && ge);
    bool larger_kept = !sym_differs ||
        ((take ? sx_prove(sn->acct.live_sx, SX_GE, cx->acct.live_sx, &ge_kept)
               : sx_prove(cx->acct.live_sx, SX_GE, sn->acct.live_sx, &ge_kept)) && ge_kept);
    bool live_differs = sn->acct.live != cx->acct.live || sym_differs;
    unsigned bound = p->differ;
    bool events = p->events && cx->out.log_events && !cx->r->n_events_dropped &&
                  p->a.at <= cx->r->n_events;
    bool unordered = take ? ret_take(cx, f, p, events) : ret_keep(cx, f, p, events, !live_differs);
    an_frs_merge(cx, p->a.base, p->a.t); /* both paths count: the peak, the bytes moved */
    cx->acct.moved_total += p->a.moved;
    cx->acct.sym_events += p->a.sym;
    if (cx->acct.arm_peak < p->a.peak)
        cx->acct.arm_peak = p->a.peak;
    if (live_differs || unordered)
        bound |= AN_BOUND_PEAK | AN_BOUND_END;
    if (p->a.sym > 0)
        bound |= AN_BOUND_PEAK | AN_BOUND_MOVED;
    if (!bound)
        return;
    char *at = ir_unit_line_text(cx->u, p->a.leave.line);
    an_diag_add(cx, AN_NOTE, "unknown-branch", s->loc.line, s->loc.col,
                "the condition is not known statically and one arm returns (line %s) while "
                "the other goes on: the function's returns are joined at its end, and as they "
                "%s, the byte totals after it are bounds", at,
                live_differs || unordered ? "leave different live bytes"
                                          : "reach different peaks or move different bytes");
    free(at);
    an_mark_claim(cx, bound, larger_kept && !unordered ? AN_CLAIM_UPPER : AN_CLAIM_NONE);
}

void an_ret_settle(an_ctx *cx, an_frame *f, an_flow fl)
{
    for (int k = 0; k < f->n_rets; k++) /* each against the end, before any is merged in */
        f->rets[k]->differ = totals_differ(cx, f->rets[k]);
    for (int k = 0; k < f->n_rets; k++) {
        an_ret_path *p = f->rets[k];
        /* calls on either path that verify could not be shown (its log position lost) */
        bool work = p->a.calls > 0 || p->a.kept_calls > 0 || cx->acct.n_calls > p->calls_end;
        /* a tensor returned on one path and NULL on the other: no state stands for
         * both (the caller's test of it would not be known, nor what it holds) */
        int theirs = p->a.sn.ctl.frames[cx->ctl.depth - 1].ret_handle;
        bool maybe_null = (theirs >= 0) != (f->ret_handle >= 0) &&
                          (theirs == AN_UNSET || f->ret_handle == AN_UNSET);
        /* a loop being summarised counts iterations whose totals are exact: a join
         * that would make them bounds would undo the summary (an_loop_probe_plain) */
        bool bounds = p->differ || p->a.sym > 0 || p->a.sn.acct.live != cx->acct.live ||
                      !sx_same(p->a.sn.acct.live_sx, cx->acct.live_sx);
        if (fl == AN_FLOW_EXIT || fl == AN_FLOW_STOP || cx->ctl.stopped || maybe_null ||
            (work && !p->events && cx->out.log_events) || (bounds && cx->ctl.summarising > 0))
            ret_assume(cx, p);
        else
            ret_join(cx, f, p);
        ret_free(cx, p);
    }
    free(f->rets);
    f->rets = NULL;
    f->n_rets = 0;
}
