/*
 * an_exec.c: statements and control flow, roots and the report's totals.
 *
 * Loops are an_loop.c's.  An if whose condition is unknown runs
 * both arms from the same state and continues with the arm that ends with
 * more live bytes (on a tie, the one that peaks higher); the function's
 * peak covers both; variables whose layouts differ between the arms become
 * unknown.
 */
#include "an_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static an_flow exec_stmt(an_ctx *cx, const ir_stmt *s);
static bool stmt_begin(an_ctx *cx, const ir_stmt *s);

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

/* The index of label id among b's own statements, or -1. */
static int find_label(const ir_block *b, int id)
{
    for (int k = 0; k < b->n_stmts; k++)
        if (b->stmts[k]->kind == IR_LABEL && b->stmts[k]->label.id == id)
            return k;
    return -1;
}

/* A goto whose label is in this block continues after the label; one whose
 * label is elsewhere leaves the block, as a break would, until an
 * enclosing block has it. */
static an_flow exec_block_scoped(an_ctx *cx, const ir_block *b, bool program_end)
{
    an_flow fl = AN_FLOW_NEXT;
    if (!b)
        return fl;
    for (int k = 0; k < b->n_stmts; k++) {
        fl = exec_stmt(cx, b->stmts[k]);
        if (fl == AN_FLOW_GOTO) {
            int at = find_label(b, cx->goto_label);
            if (at < 0)
                break;
            if (++cx->n_gotos > cx->opt.max_iterations) {
                an_diag_add(cx, AN_WARNING, "analysis-limit", b->stmts[at]->loc.line,
                            b->stmts[at]->loc.col, "stopped after %lld jumps (--max-iterations); "
                            "later totals are bounds", (long long)cx->opt.max_iterations);
                an_mark_stopped(cx);
                return AN_FLOW_STOP;
            }
            fl = AN_FLOW_NEXT;
            k = at;
            continue;
        }
        if (fl != AN_FLOW_NEXT)
            break;
    }
    if (fl != AN_FLOW_STOP) { /* at exit() nothing goes out of scope: the program ends */
        an_settle_peaks(cx); /* the peak's names: the block's variables still hold theirs */
        scope_exit(cx, b, program_end || fl == AN_FLOW_EXIT);
    }
    return fl;
}

an_flow an_exec_block(an_ctx *cx, const ir_block *b) { return exec_block_scoped(cx, b, false); }

/* ---- branches: snapshot, run both arms, keep the heavier ---- */


void *an_dup_mem(const void *p, size_t n)
{
    void *q = tl_xmalloc(n);
    if (n)
        memcpy(q, p, n);
    return q;
}


/* memcpy that accepts the null pointers of empty tables (n == 0). */
void an_put_mem(void *dst, const void *src, size_t n)
{
    if (n)
        memcpy(dst, src, n);
}

/* A frame's variables, compacted: entry j is variable func_vars[f][j]. */
static void snap_frame(const an_ctx *cx, const an_frame *fr, int **t, int64_t **i, bool **kn)
{
    int n = cx->n_func_vars[fr->func];
    const int *ids = cx->func_vars[fr->func];
    *t = tl_xmalloc(sizeof(int) * (size_t)(n + 1));
    *i = tl_xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    *kn = tl_xmalloc(sizeof(bool) * (size_t)(n + 1));
    for (int j = 0; j < n; j++) {
        (*t)[j] = fr->tensor[cx->slot[ids[j]]];
        (*i)[j] = fr->ints[cx->slot[ids[j]]];
        (*kn)[j] = fr->int_known[cx->slot[ids[j]]];
    }
}

void an_snap_take(an_ctx *cx, snapshot *sn)
{
    sn->n_handles = cx->n_handles;
    sn->live = cx->live;
    sn->live_sx = cx->live_sx;
    sn->n_events = cx->r->n_events;
    sn->handles = an_dup_mem(cx->handles, sizeof *cx->handles * (size_t)cx->n_handles);
    sn->n_storages = cx->r->n_storages;
    sn->refs = an_dup_mem(cx->refs, sizeof *cx->refs * (size_t)sn->n_storages);
    sn->live_storage = an_dup_mem(cx->live_storage, sizeof(bool) * (size_t)sn->n_storages);
    sn->storages = an_dup_mem(cx->r->storages, sizeof *cx->r->storages * (size_t)sn->n_storages);
    sn->depth = cx->depth;
    for (int k = 0; k < cx->depth; k++) {
        sn->frames[k] = *cx->stack[k];
        snap_frame(cx, cx->stack[k], &sn->tensors[k], &sn->ints[k], &sn->known[k]);
    }
    int g = cx->n_globals;
    sn->g_tensor = an_dup_mem(cx->gframe->tensor, sizeof(int) * (size_t)g);
    sn->g_ints = an_dup_mem(cx->gframe->ints, sizeof(int64_t) * (size_t)g);
    sn->g_known = an_dup_mem(cx->gframe->int_known, sizeof(bool) * (size_t)g);
    memset(&sn->mem, 0, sizeof sn->mem);
    an_mem_copy_into(&sn->mem, &cx->mem);
    sn->cuda = cx->cuda ? ca_clone(cx->cuda) : NULL;
    if (cx->cuda && !sn->cuda)
        tl_out_of_memory(0); /* ca_clone fails only for want of memory */
    sn->n_cuda_block = cx->cap_cuda_block;
    sn->cuda_block = an_dup_mem(cx->cuda_block, sizeof(int64_t) * (size_t)cx->cap_cuda_block);
}

/* Restore the state of sn; storages made since are no longer live. */
void an_snap_restore(an_ctx *cx, const snapshot *sn)
{
    an_put_mem(cx->handles, sn->handles, sizeof *cx->handles * (size_t)sn->n_handles);
    cx->live = sn->live;
    cx->live_sx = sn->live_sx;
    an_put_mem(cx->refs, sn->refs, sizeof *cx->refs * (size_t)sn->n_storages);
    an_put_mem(cx->live_storage, sn->live_storage, sizeof(bool) * (size_t)sn->n_storages);
    for (int s = 0; s < sn->n_storages; s++) {
        an_storage *st = &cx->r->storages[s];
        st->free_line = sn->storages[s].free_line;
        st->free_col = sn->storages[s].free_col;
        st->free_func = sn->storages[s].free_func;
        st->free_event = sn->storages[s].free_event;
        st->retire_event = sn->storages[s].retire_event;
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
        fr->n_mem = sn->frames[k].n_mem;
    }
    int g = cx->n_globals;
    an_put_mem(cx->gframe->tensor, sn->g_tensor, sizeof(int) * (size_t)g);
    an_put_mem(cx->gframe->ints, sn->g_ints, sizeof(int64_t) * (size_t)g);
    an_put_mem(cx->gframe->int_known, sn->g_known, sizeof(bool) * (size_t)g);
    an_mem_copy_into(&cx->mem, &sn->mem);
    if (sn->cuda) { /* blocks of storages made since are gone with the arm */
        ca_free(cx->cuda);
        cx->cuda = ca_clone(sn->cuda);
        if (!cx->cuda)
            tl_out_of_memory(0);
        if (cx->cap_cuda_block)
            memset(cx->cuda_block, 0, sizeof(int64_t) * (size_t)cx->cap_cuda_block);
        if (sn->n_cuda_block)
            an_put_mem(cx->cuda_block, sn->cuda_block, sizeof(int64_t) * (size_t)sn->n_cuda_block);
    }
}

void an_snap_free(snapshot *sn)
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
    free(sn->g_tensor);
    free(sn->g_ints);
    free(sn->g_known);
    an_mem_free(&sn->mem);
    ca_free(sn->cuda);
    free(sn->cuda_block);
}

bool an_same_layout(const mt_layout *a, const mt_layout *b)
{
    if (a->ndim != b->ndim || a->dtype != b->dtype || a->device != b->device ||
        a->offset != b->offset)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return false;
    return true;
}

/* Layouts over symbols a and b (an_slayout ids + 1, 0: none) are the same:
 * the same id, or equal shapes, strides, offset, dtype and device. */
bool an_same_slayout(const an_ctx *cx, int a, int b)
{
    if (a == b)
        return true;
    if (a == 0 || b == 0)
        return false;
    const an_slayout *p = &cx->r->slayouts[a - 1], *q = &cx->r->slayouts[b - 1];
    if (p->ndim != q->ndim || p->dtype != q->dtype || p->device != q->device ||
        !sx_same(p->offset, q->offset) || !sx_same(p->storage_nbytes, q->storage_nbytes))
        return false;
    for (int d = 0; d < p->ndim; d++)
        if (!sx_same(p->shape[d], q->shape[d]) || !sx_same(p->strides[d], q->strides[d]))
            return false;
    return true;
}

bool an_same_layout_handles(an_ctx *cx, int a, int b)
{
    return a >= 0 && b >= 0 && a < cx->n_handles && b < cx->n_handles && cx->handles[a].known &&
           cx->handles[b].known && an_same_layout(&cx->handles[a].l, &cx->handles[b].l);
}

/* One variable after the join: a tensor variable keeps the kept arm's
 * handle (so its releases are still followed) but its layout becomes
 * unknown when the other arm left a different one; integers that differ
 * become unknown. */
static void join_slot(an_ctx *cx, const snapshot *other, int *tensor, int64_t *ints, bool *known,
                      int theirs, int64_t their_int, bool their_known)
{
    int mine = *tensor;
    if (mine != theirs && mine >= 0) {
        cx->handles[mine].ident_unsure = true; /* (the other arm held another) */
        const an_handle *h = theirs >= 0 && theirs < other->n_handles ? &other->handles[theirs] : NULL;
        if (!h || !h->known || !an_same_layout(&h->l, &cx->handles[mine].l))
            cx->handles[mine].known = false;
        if (!h || !an_same_slayout(cx, h->sl, cx->handles[mine].sl))
            cx->handles[mine].sl = 0; /* (two arms that leave one layout keep it) */
    } else if (mine != theirs) {
        *tensor = AN_UNKNOWN;
    }
    if (!their_known && an_unknown_is(cx, *known, *ints, their_int))
        return; /* the value the other arm's unknown is, read in this arm */
    if (!*known && an_unknown_is(cx, their_known, their_int, *ints)) {
        *known = their_known;
        *ints = their_int;
        return;
    }
    if (*known != their_known || *ints != their_int) {
        *known = false;
        *ints = 0; /* unknown, not a symbol */
    }
}

static void join_vars(an_ctx *cx, const snapshot *other)
{
    int k = cx->depth - 1;
    an_frame *f = an_top(cx);
    for (int j = 0; j < cx->n_func_vars[f->func]; j++) {
        int v = cx->slot[cx->func_vars[f->func][j]];
        join_slot(cx, other, &f->tensor[v], &f->ints[v], &f->int_known[v], other->tensors[k][j],
                  other->ints[k][j], other->known[k][j]);
    }
    an_frame *g = cx->gframe;
    for (int v = 0; v < cx->n_globals; v++)
        join_slot(cx, other, &g->tensor[v], &g->ints[v], &g->int_known[v], other->g_tensor[v],
                  other->g_ints[v], other->g_known[v]);
    an_mem_join(cx, &other->mem);
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
 * arm, which will stand at events[at, at + kept_len). */
static void keep_alternative(an_ctx *cx, int64_t from, int64_t to, int64_t at, int64_t kept_len,
                             bool same_live)
{
    an_report *r = cx->r;
    if (cx->if_depth > 0 || !cx->log_events || r->n_events_dropped)
        return; /* nested, or the log is incomplete */
    an_event *ev = tl_xrealloc(r->alt_events, sizeof *ev * (size_t)(r->n_alt_events + (to - from) + 1));
    an_alt *alts = tl_xrealloc(r->alts, sizeof *alts * (size_t)(r->n_alts + 1));
    r->alt_events = ev;
    r->alts = alts;
    if (to > from)
        memcpy(ev + r->n_alt_events, r->events + from, sizeof *ev * (size_t)(to - from));
    alts[r->n_alts++] = (an_alt){.at = at, .kept_len = kept_len, .first = r->n_alt_events,
                                 .len = to - from, .same_live = same_live};
    r->n_alt_events += to - from;
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
    for (int k = 0; k < cx->depth && k < then->depth; k++) {
        an_frame *fr = cx->stack[k];
        const int *ids = cx->func_vars[fr->func];
        for (int j = 0; j < cx->n_func_vars[fr->func]; j++) {
            int sl = cx->slot[ids[j]];
            if (then->known[k][j] != fr->int_known[sl] || then->ints[k][j] != fr->ints[sl])
                select_int(op, a, b, &then->known[k][j], &then->ints[k][j], &fr->int_known[sl],
                           &fr->ints[sl]);
        }
    }
    for (int g = 0; g < cx->n_globals; g++)
        if (then->g_known[g] != cx->gframe->int_known[g] || then->g_ints[g] != cx->gframe->ints[g])
            select_int(op, a, b, &then->g_known[g], &then->g_ints[g], &cx->gframe->int_known[g],
                       &cx->gframe->ints[g]);
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
static int path_assume(an_ctx *cx, const ir_stmt *s, bool then_arm, const an_leave *lv)
{
    an_report *r = cx->r;
    for (int k = 0; k < r->n_paths; k++)
        if (r->paths[k].line == s->loc.line && r->paths[k].col == s->loc.col &&
            r->paths[k].then_arm == then_arm)
            return k;
    char *what = lv->callee ? tl_xasprintf("%s() ends the program", lv->callee)
                            : tl_xstrdup(lv->text ? lv->text : "it leaves");
    char *at = ir_unit_line_text(cx->u, lv->line);
    char *cond = s->text ? tl_xasprintf("%s is %s", s->text, then_arm ? "false" : "true")
                         : tl_xasprintf("the run does not leave at line %s", at);
    free(at);
    r->paths = tl_xrealloc(r->paths, sizeof *r->paths * (size_t)(r->n_paths + 1));
    r->paths[r->n_paths] = (an_path){.func = an_top(cx)->func, .line = s->loc.line,
                                     .col = s->loc.col, .then_arm = then_arm,
                                     .leave_line = lv->line, .named = s->text != NULL,
                                     .condition = cond, .leave = what};
    return r->n_paths++;
}

/* The dropped arm's events [from, to) and where a run that takes it leaves
 * the log (at, once they are dropped): for verify. */
static void path_exit_record(an_ctx *cx, int path_id, int line, int64_t from, int64_t to,
                             int64_t at)
{
    an_report *r = cx->r;
    if (!cx->log_events || r->n_events_dropped)
        return; /* the log is incomplete */
    r->alt_events = tl_xrealloc(r->alt_events,
                                sizeof *r->alt_events * (size_t)(r->n_alt_events + (to - from) + 1));
    if (to > from)
        memcpy(r->alt_events + r->n_alt_events, r->events + from,
               sizeof *r->alt_events * (size_t)(to - from));
    r->exits = tl_xrealloc(r->exits, sizeof *r->exits * (size_t)(r->n_exits + 1));
    r->exits[r->n_exits++] = (an_exit){.at = at, .loop_depth = cx->loop_depth, .line = line,
                                       .path = true, .path_id = path_id,
                                       .alt = r->n_alt_events, .alt_len = to - from};
    r->n_alt_events += to - from;
}

/* One arm's run: how it left, and what it added (from the branch's start). */
typedef struct br_arm {
    an_flow flow;
    int label;           /* cx->goto_label after it */
    an_leave leave;      /* cx->leave after it */
    int ex;              /* r->n_exits after it */
    int64_t peak;        /* its peak of live bytes (cx->arm_peak) */
    int64_t moved, sym;  /* the bytes it moved, the symbolic events it made */
} br_arm;

/* What an unknown branch keeps between its steps; it owns the snapshots
 * and saved totals, which br_free gives back (on the heap, as many as the
 * arms of an else-if chain are open at once; the snapshots are not zeroed:
 * most of their fixed arrays are never touched). */
typedef struct br_run {
    const ir_stmt *s;
    snapshot *before, *after_then; /* (one allocation) */
    an_fr_saved *t0, *t_then; /* the totals before the branch, after then (paths only) */
    int64_t outer_peak;       /* cx->arm_peak before the branch */
    bool paths;               /* outside the function's loops (but loops that touch no tensor) */
    int ex0;                  /* r->n_exits before the branch */
    int64_t moved0, sym0;
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
    b->outer_peak = cx->arm_peak;
    b->paths = an_top(cx)->loops == an_top(cx)->host_loops; /* (loops that touch no tensor) */
    b->ex0 = r->n_exits;
    if (b->paths) {
        an_settle_peaks(cx);
        b->t0 = an_frs_save(cx);
    }
    an_snap_take(cx, b->before);
    cx->arm_peak = cx->live;
    b->moved0 = cx->moved_total;
    b->sym0 = cx->sym_events;
    b->compares = cond_compare(cx, s->branch.cond, &b->ca, &b->cb, &b->cop);
    return b;
}

/* One arm ran from the branch's state and flowed out by flow: what it
 * did, counted from the branch's start less what the arms before it did
 * (prev). */
static void br_arm_done(an_ctx *cx, br_run *b, an_flow flow, const br_arm *prev, br_arm *a)
{
    a->flow = flow;
    a->label = cx->goto_label;
    a->ex = cx->r->n_exits;
    a->leave = cx->leave;
    a->peak = cx->arm_peak;
    a->moved = cx->moved_total - b->moved0 - (prev ? prev->moved : 0);
    a->sym = cx->sym_events - b->sym0 - (prev ? prev->sym : 0);
}

/* The then arm, and the state before the branch back for the else arm. */
static void br_then(an_ctx *cx, br_run *b)
{
    cx->if_depth++;
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
    cx->arm_peak = cx->live;
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
    b->one_leaves = ft != fe && cx->counted_exit != s;
    if (cx->counted_exit == s)
        cx->counted_exit_met = true;
    /* in a loop, the run may leave there and the analysis goes on (below): what runs
     * after it runs at most as often as counted, to the end of the loop (break,
     * continue) or of the function (return, goto).  (Outside loops the analysis
     * follows the run that goes on, as its totals do.) */
    if (b->one_leaves && an_top(cx)->loops > an_top(cx)->host_loops) {
        bool func = ft == AN_FLOW_RETURN || ft == AN_FLOW_GOTO || ft == AN_FLOW_STOP ||
                    ft == AN_FLOW_EXIT || fe == AN_FLOW_RETURN || fe == AN_FLOW_GOTO ||
                    fe == AN_FLOW_STOP || fe == AN_FLOW_EXIT;
        if (func)
            cx->upper_func = true;
        else
            cx->upper_loop = true;
    }
    b->only_next = ft == AN_FLOW_CONTINUE || fe == AN_FLOW_CONTINUE;
    cx->if_depth--;
    b->else_live = cx->live;
    b->b0 = b->before->n_events;
    b->t1 = b->after_then->n_events;
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

/* The run is assumed to go on: the arm that leaves less is followed alone,
 * the other's events dropped and recorded as a path (for verify). */
static an_flow br_follow_one(an_ctx *cx, br_run *b)
{
    bool keep_then = leave_rank(b->then.flow) < leave_rank(b->els.flow);
    const br_arm *kept = keep_then ? &b->then : &b->els, *gone = keep_then ? &b->els : &b->then;
    if (keep_then) {
        an_snap_restore(cx, b->after_then);
        an_frs_put(cx, b->t_then);
        rebase_exits(cx, b->then.ex, b->els.ex, b->t1, b->b0, b->ex0);
    } else {
        rebase_exits(cx, b->ex0, b->then.ex, b->b0, b->b0, b->ex0);
    }
    cx->moved_total -= gone->moved;
    cx->sym_events -= gone->sym;
    int id = path_assume(cx, b->s, !keep_then, &gone->leave);
    int64_t from = keep_then ? b->t1 : b->b0, to = keep_then ? b->e1 : b->t1;
    path_exit_record(cx, id, b->s->loc.line, from, to, b->b0);
    an_drop_events(cx, from, to);
    cx->arm_peak = b->outer_peak > kept->peak ? b->outer_peak : kept->peak;
    if (cx->arm_peak < cx->live)
        cx->arm_peak = cx->live;
    cx->goto_label = kept->label;
    cx->leave = kept->leave;
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
    bool sym_live_differs = !sx_same(after_then->live_sx, cx->live_sx);
    bool sym_arms = b->then.sym > 0 || b->els.sym > 0;
    bool ge;
    bool keep_then = after_then->live > cx->live ||
                     (after_then->live == cx->live && b->then.peak > b->els.peak) ||
                     (after_then->live == cx->live && sym_live_differs &&
                      sx_prove(after_then->live_sx, SX_GE, cx->live_sx, &ge) && ge);
    /* the kept arm is the larger (an upper bound) only where the arms' live
     * bytes compare: formulas that no proof orders can go either way */
    bool ge_kept = false;
    bool larger_kept = !sym_live_differs ||
                       ((keep_then ? sx_prove(after_then->live_sx, SX_GE, cx->live_sx, &ge_kept)
                                   : sx_prove(cx->live_sx, SX_GE, after_then->live_sx, &ge_kept)) &&
                        ge_kept);
    cx->arm_peak = b->outer_peak > b->then.peak ? b->outer_peak : b->then.peak;
    if (cx->arm_peak < cx->live)
        cx->arm_peak = cx->live;
    bool same_live = after_then->live == b->else_live;
    if (keep_then) {
        snapshot after_else;
        an_snap_take(cx, &after_else);
        an_snap_restore(cx, after_then);
        join_vars(cx, &after_else);
        an_snap_free(&after_else);
        rebase_exits(cx, b->then.ex, b->els.ex, b->t1, b->b0, b->ex0);
        keep_alternative(cx, b->t1, b->e1, b->b0, b->t1 - b->b0, same_live);
        an_drop_events(cx, b->t1, b->e1);
        cx->goto_label = b->then.label;
        cx->leave = b->then.leave;
    } else {
        join_vars(cx, after_then);
        rebase_exits(cx, b->ex0, b->then.ex, b->b0, b->b0, b->ex0);
        keep_alternative(cx, b->b0, b->t1, b->b0, b->e1 - b->t1, same_live);
        an_drop_events(cx, b->b0, b->t1);
    }
    /* what holds for one arm only: the peak (the larger is kept), the live
     * bytes from here on, and the bytes moved (both arms are counted) */
    bool live_differs = after_then->live != b->else_live || sym_live_differs;
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
    if (!b->one_leaves || an_top(cx)->loops <= an_top(cx)->host_loops)
        return;
    if (cx->if_depth == 0 && cx->log_events && !r->n_events_dropped) {
        r->exits = tl_xrealloc(r->exits, sizeof *r->exits * (size_t)(r->n_exits + 1));
        r->exits[r->n_exits++] = (an_exit){.at = r->n_events, .loop_depth = cx->loop_depth,
                                           .iteration = b->only_next, .line = s->loc.line};
    }
    if (cx->summarising > 0) {
        if (!cx->early_exit_line)
            cx->early_exit_line = s->loc.line;
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
 * function, not a return) is a path the run is assumed not to take: the
 * other arm is followed alone, its state and its totals exact, and the
 * report lists the assumption (an_report.paths).  So each arm's totals
 * start from those before the branch, and two arms that leave alike are
 * both counted, as any two arms are. */
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
    if (cx->forced_if == s) /* (an iteration of one kind: an_loop.c) */
        return cx->forced_then ? 1 : 0;
    if (an_eval(cx, s->branch.cond, &c))
        return c ? 1 : 0;
    if (an_eval_sx(cx, s->branch.cond, &x) && x.e == 0) /* the sizes decide it (n > 0) */
        return x.c ? 1 : 0;
    return -1;
}

/* The `if` a block is when it is nothing else and declares nothing (an
 * else-if arm): run in exec_if's loop, not by recursion. */
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
static an_flow exec_if(an_ctx *cx, const ir_stmt *s)
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
        if (!stmt_begin(cx, in)) {
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

/* ---- calls of the file's own functions ---- */

static bool on_stack(const an_ctx *cx, int func)
{
    for (int k = 0; k < cx->depth; k++)
        if (cx->stack[k]->func == func)
            return true;
    return false;
}

static void bind_params(an_ctx *cx, const ir_stmt *s, int func, an_frame *callee)
{
    const ir_func *fn = cx->u->funcs[func];
    cx->pending = callee; /* its parameters are locations before it runs */
    for (int k = 0; k < fn->n_params && k < s->user_call.n_args; k++) {
        int p = fn->params[k], slot = cx->slot[p];
        const ir_uarg *a = &s->user_call.args[k];
        an_loc to = {.frame = callee->serial, .var = p};
        an_loc from;
        an_cell c;
        if (cx->u->vars[p].kind == IR_VAR_TENSOR)
            callee->tensor[slot] = a->kind == IR_VAR_TENSOR ? an_tensor_of(cx, a->var) : AN_UNKNOWN;
        else if (cx->u->vars[p].kind == IR_VAR_INT && a->expr)
            an_assign_int(cx, a->expr, cx->u->vars[p].name, &callee->int_known[slot],
                          &callee->ints[slot]);
        else if (a->ptr) {
            an_ptr_eval(cx, a->ptr, &c);
            an_mem_write(cx, &to, &c);
        } else if (a->place && an_place_loc(cx, a->place, &from, NULL, NULL)) {
            an_mem_copy(cx, &to, &from, s->loc.line, s->loc.col);
        } else if (cx->u->vars[p].kind == IR_VAR_OTHER) {
            an_mem_write(cx, &to, &(an_cell){.kind = AN_CELL_UNKNOWN});
        }
    }
    cx->pending = NULL;
}

/* A pointer or struct result of a call the analysis does not follow. */
static void unknown_object_result(an_ctx *cx, int result)
{
    an_loc l = an_loc_of_var(cx, result);
    an_mem_write(cx, &l, &(an_cell){.kind = AN_CELL_UNKNOWN});
}

/* A call the analysis does not follow: a function not defined in this
 * file (said once, as external-call), or one it stops at (recursion: the
 * caller has said why).  What it returns is not known. */
static void external_call(an_ctx *cx, const ir_stmt *s, const char *name, bool defined)
{
    int result = s->user_call.result;
    for (int k = 0; k < s->user_call.n_args && !defined; k++) {
        if (s->user_call.args[k].kind != IR_VAR_TENSOR)
            continue;
        an_diag_add(cx, AN_NOTE, "external-call", s->loc.line, s->loc.col,
                    "'%s' is not defined in this file: assumed not to release or keep the "
                    "tensors passed to it", name);
        break;
    }
    if (result < 0)
        return;
    if (cx->u->vars[result].kind == IR_VAR_TENSOR) {
        *an_tensor_slot(cx, result) = AN_UNKNOWN;
        if (!defined)
            an_diag_add(cx, AN_NOTE, "external-call", s->loc.line, s->loc.col,
                        "the tensor returned by '%s' is not followed: totals that depend on it "
                        "are bounds", name);
        an_mark_bound(cx);
    } else if (cx->u->vars[result].kind == IR_VAR_INT) {
        bool *known;
        an_int_slot(cx, result, &known);
        *known = false;
    } else {
        unknown_object_result(cx, result);
    }
}

static void take_result(an_ctx *cx, const ir_stmt *s, an_frame *f)
{
    int result = s->user_call.result;
    an_loc ret = {.frame = AN_RET};
    if (result >= 0 && cx->u->vars[result].kind == IR_VAR_TENSOR) {
        int *slot = an_tensor_slot(cx, result);
        int old = *slot;
        *slot = f->ret_handle;
        an_handle_dropped(cx, old, result, s->loc.line, s->loc.col, "overwritten");
    } else if (result >= 0 && cx->u->vars[result].kind == IR_VAR_INT) {
        bool *known;
        int64_t *v = an_int_slot(cx, result, &known);
        *known = f->ret_int_known;
        *v = f->ret_int;
    } else if (result >= 0) {
        an_loc l = an_loc_of_var(cx, result);
        if (f->has_ret_ptr)
            an_mem_write(cx, &l, &f->ret_ptr);
        else if (f->has_ret_obj)
            an_mem_copy(cx, &l, &ret, s->loc.line, s->loc.col);
        else
            unknown_object_result(cx, result);
    } else {
        an_handle_dropped(cx, f->ret_handle, -1, s->loc.line, s->loc.col, "result discarded");
    }
    if (f->has_ret_obj)
        an_mem_fill(cx, &ret, true, s->loc.line, s->loc.col);
}

/* Record that the call through a pointer s reached callee (once per pair). */
static void indirect_add(an_ctx *cx, const ir_stmt *s, int callee, const char *name)
{
    an_report *r = cx->r;
    int func = an_top(cx)->func;
    for (int k = 0; k < r->n_indirect; k++) {
        const an_indirect *x = &r->indirect[k];
        if (x->line == s->loc.line && x->col == s->loc.col && x->func == func &&
            x->callee == callee && (callee != AN_CALLEE_EXTERNAL || strcmp(x->name, name) == 0))
            return;
    }
    r->indirect = tl_xrealloc(r->indirect, sizeof *r->indirect * (size_t)(r->n_indirect + 1));
    r->indirect[r->n_indirect++] = (an_indirect){.line = s->loc.line, .col = s->loc.col,
                                                 .func = func, .callee = callee, .name = name,
                                                 .through = s->user_call.name};
}

/* The function the pointer of call s names now: *callee is its index in
 * unit->funcs, or -1 with *name for one not defined in the file.  False,
 * with *why, when the analysis cannot tell which function it is. */
static bool resolve_callee(an_ctx *cx, const ir_stmt *s, int *callee, const char **name,
                           const char **why)
{
    an_cell c;
    const ir_ptr *fn = s->user_call.fn;
    if (!an_ptr_eval(cx, fn, &c) || !c.known) {
        *why = fn->kind == IR_PTR_UNKNOWN && fn->reason ? fn->reason
               : "which function it points to is not known here";
        return false;
    }
    if (c.ptr < 0) {
        *why = "it is null here";
        return false;
    }
    an_loc l = cx->ptrs[c.ptr];
    if (l.frame != AN_FUNC || l.n != 0) {
        *why = "it points to no function the analysis knows";
        return false;
    }
    *callee = l.var >= 0 ? l.var : -1;
    *name = l.var >= 0 ? cx->u->funcs[l.var]->name : cx->u->ext_funcs[-1 - l.var];
    return true;
}

/* Could a call through a pointer the analysis cannot resolve change the
 * totals?  When it passes or returns a handle, or some function whose
 * address is taken has tensor code. */
static bool unresolved_matters(an_ctx *cx, const ir_stmt *s)
{
    const ir_unit *u = cx->u;
    int result = s->user_call.result;
    if (result >= 0 && u->vars[result].kind == IR_VAR_TENSOR)
        return true;
    for (int k = 0; k < s->user_call.n_args; k++)
        if (s->user_call.args[k].kind == IR_VAR_TENSOR)
            return true;
    for (int f = 0; f < u->n_funcs; f++)
        if (u->funcs[f]->address_taken && u->funcs[f]->has_tensor_code)
            return true;
    return false;
}

/* A call through a pointer the analysis cannot resolve: the handles passed
 * escape, what the callee may write through the pointers it gets is not
 * known, and neither is what it returns. */
static void unresolved_call(an_ctx *cx, const ir_stmt *s, const char *why)
{
    int result = s->user_call.result;
    bool tensor_args = false;
    for (int k = 0; k < s->user_call.n_args; k++) {
        const ir_uarg *a = &s->user_call.args[k];
        if (a->kind != IR_VAR_TENSOR)
            continue;
        tensor_args = true;
        if (a->var >= 0 && cx->u->vars[a->var].kind == IR_VAR_TENSOR)
            *an_tensor_slot(cx, a->var) = AN_UNKNOWN;
    }
    bool tensor_result = result >= 0 && cx->u->vars[result].kind == IR_VAR_TENSOR;
    if (unresolved_matters(cx, s)) {
        an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                    "not analysed: the call through '%s' (%s)%s%s; the analysis goes on, and "
                    "totals that depend on it are bounds",
                    s->user_call.name, why,
                    tensor_args ? "; the tensors passed to it are not followed" : "",
                    tensor_result ? "; the tensor it returns is not known" : "");
        an_mark_bound(cx);
    }
    indirect_add(cx, s, AN_CALLEE_UNKNOWN, NULL);
    if (s->user_call.ext)
        an_exec_block(cx, s->user_call.ext);
    if (result < 0)
        return;
    if (tensor_result) {
        *an_tensor_slot(cx, result) = AN_UNKNOWN;
    } else if (cx->u->vars[result].kind == IR_VAR_INT) {
        bool *known;
        an_int_slot(cx, result, &known);
        *known = false;
    } else {
        unknown_object_result(cx, result);
    }
}

static an_flow exec_user_call(an_ctx *cx, const ir_stmt *s)
{
    int callee = s->user_call.callee;
    const char *name = s->user_call.name, *why;
    if (s->user_call.fn) { /* through a pointer: the function it names now */
        if (!resolve_callee(cx, s, &callee, &name, &why)) {
            unresolved_call(cx, s, why);
            return AN_FLOW_NEXT;
        }
        indirect_add(cx, s, callee >= 0 ? callee : AN_CALLEE_EXTERNAL, name);
    }
    if (callee < 0) {
        external_call(cx, s, name, false);
        if (s->user_call.fn && s->user_call.ext)
            an_exec_block(cx, s->user_call.ext);
        return AN_FLOW_NEXT;
    }
    if (on_stack(cx, callee) || cx->depth >= cx->opt.max_depth || cx->depth >= 64) {
        an_diag_add(cx, AN_NOTE, "recursion", s->loc.line, s->loc.col,
                    on_stack(cx, callee)
                        ? "call of '%s' not followed: it is recursive (the analysis follows each "
                          "function once on the call stack); totals are bounds"
                        : "call of '%s' not followed: calls nest deeper than %d; totals are bounds",
                    name, cx->opt.max_depth);
        an_mark_bound(cx);
        external_call(cx, s, name, true);
        return AN_FLOW_NEXT;
    }
    an_frame *f = an_frame_new(cx, callee);
    bind_params(cx, s, callee, f);
    an_flow fl = an_run_function(cx, callee, f);
    if (fl == AN_FLOW_EXIT) { /* the program ended in it: the call does not come back */
        an_frame_free(f);
        cx->leave = (an_leave){.line = s->loc.line, .callee = cx->u->funcs[callee]->name};
        return cx->stopped ? AN_FLOW_STOP : AN_FLOW_EXIT;
    }
    take_result(cx, s, f);
    an_frame_free(f);
    return cx->stopped ? AN_FLOW_STOP : AN_FLOW_NEXT;
}

static an_flow exec_return(an_ctx *cx, const ir_stmt *s)
{
    an_frame *f = an_top(cx);
    an_loc from, ret = {.frame = AN_RET};
    if (s->ret.var != IR_NO_VAR)
        f->ret_handle = an_tensor_of(cx, s->ret.var);
    if (s->ret.value)
        an_assign_int(cx, s->ret.value, NULL, &f->ret_int_known, &f->ret_int);
    if (s->ret.ptr) {
        f->has_ret_ptr = true;
        an_ptr_eval(cx, s->ret.ptr, &f->ret_ptr);
    }
    if (s->ret.place && an_place_loc(cx, s->ret.place, &from, NULL, NULL)) {
        f->has_ret_obj = true;
        an_mem_copy(cx, &ret, &from, s->loc.line, s->loc.col);
    }
    cx->leave = (an_leave){.line = s->loc.line, .text = s->text ? s->text : "return"};
    return AN_FLOW_RETURN;
}

static void exec_assign_int(an_ctx *cx, const ir_stmt *s)
{
    int v = s->assign_int.var;
    bool *known;
    if (v < 0)
        return;
    int64_t *slot = an_int_slot(cx, v, &known);
    an_assign_int(cx, s->assign_int.value, cx->u->vars[v].name, known, slot);
    unsigned bits = cx->u->vars[v].wrap_bits;
    if (*known && bits > 0 && bits < 64) /* C's unsigned arithmetic: modulo 2^bits */
        *slot = (int64_t)((uint64_t)*slot & ((UINT64_C(1) << bits) - 1));
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
    int dst = s->assign_tensor.dst;
    int h = an_tensor_of(cx, s->assign_tensor.src);
    int *slot = an_tensor_slot(cx, dst), old = *slot;
    *slot = h;
    an_handle_dropped(cx, old, dst, s->loc.line, s->loc.col, "overwritten");
}

/* ---- memory: loads, stores, copies, fills ---- */

/* A place that cannot be resolved: one note at the construct, and the
 * totals that depend on it are bounds. */
static void place_not_followed(an_ctx *cx, const ir_stmt *s, const ir_place *p, const char *why,
                               const char *what)
{
    an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                "not followed: %s '%s' (%s); totals that depend on it are bounds", what,
                p ? p->text : "?", why ? why : "not modelled");
    an_mark_bound(cx);
}

static void exec_load(an_ctx *cx, const ir_stmt *s)
{
    an_loc l;
    const char *why = NULL;
    int h = AN_UNKNOWN;
    if (an_place_loc(cx, s->load.src, &l, NULL, &why))
        h = an_mem_handle(cx, &l);
    else
        place_not_followed(cx, s, s->load.src, why, "the tensor read from");
    if (h == AN_UNKNOWN && !why) {
        place_not_followed(cx, s, s->load.src, "its contents are not known here",
                           "the tensor read from");
    }
    *an_tensor_slot(cx, s->load.dst) = h;
}

/* A store at an index not known statically: every element may have
 * changed (a weak update), so the whole array becomes unknown; said when
 * it holds tensors or the store is one (host integers and pointers alone:
 * see weak_store_host). */
static void weak_store(an_ctx *cx, const ir_stmt *s, const ir_place *p, int bad_step,
                       const char *why)
{
    ir_place prefix = *p;
    an_loc l;
    prefix.n_steps = bad_step;
    bool found = an_place_loc(cx, &prefix, &l, NULL, NULL);
    if (found && s->store.kind != IR_VAR_TENSOR && !an_mem_holds_handles(cx, &l)) {
        an_mem_fill(cx, &l, false, s->loc.line, s->loc.col);
        return;
    }
    an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                "not followed: a store into '%s' at %s; every element is unknown from here, "
                "and totals that depend on them are bounds", p->text, why);
    an_mark_bound(cx);
    if (found)
        an_mem_fill(cx, &l, false, s->loc.line, s->loc.col);
}

/* A store of an integer or a pointer that may land on another element's
 * place (an index another index may name): the whole object, host memory
 * that holds no tensor, becomes unknown, a weak update with no note.
 * Nothing the analysis counts rests on it: a later read of it is a
 * run-time value (a symbol, as memory an unmodelled call wrote), and a
 * tensor reached through a pointer of it is not known, said where it is
 * read.  false: the object holds a tensor, and the caller says so. */
static bool weak_store_host(an_ctx *cx, const ir_stmt *s, const an_loc *l)
{
    if (s->store.kind == IR_VAR_TENSOR)
        return false;
    an_loc whole = *l;
    whole.n = 0;
    if (an_mem_holds_handles(cx, &whole))
        return false;
    an_mem_fill(cx, &whole, false, s->loc.line, s->loc.col);
    return true;
}

static void exec_store(an_ctx *cx, const ir_stmt *s)
{
    an_loc l;
    an_cell c = {.kind = AN_CELL_INT};
    const char *why = NULL;
    int bad;
    int src = s->store.kind == IR_VAR_TENSOR ? an_tensor_of(cx, s->store.src) : AN_UNSET;
    switch (s->store.kind) {
    case IR_VAR_TENSOR:
        c = (an_cell){.kind = AN_CELL_TENSOR, .handle = src, .place = s->store.dst->text};
        break;
    case IR_VAR_INT: an_assign_int(cx, s->store.value, s->store.dst->text, &c.known, &c.i); break;
    case IR_VAR_OTHER: an_ptr_eval(cx, s->store.ptr, &c); break;
    }
    if (s->store.move && s->store.src >= 0) /* the temporary gives its handle to the place */
        *an_tensor_slot(cx, s->store.src) = AN_UNSET;
    if (!an_place_loc(cx, s->store.dst, &l, &bad, &why)) {
        if (bad >= 0)
            weak_store(cx, s, s->store.dst, bad, "an index not known statically");
        else
            place_not_followed(cx, s, s->store.dst, why, "a store into");
        return;
    }
    if (an_mem_may_alias(cx, &l)) { /* it may overwrite an element that another index names */
        if (weak_store_host(cx, s, &l))
            return;
        int last = -1;
        for (int k = 0; k < s->store.dst->n_steps; k++)
            if (s->store.dst->steps[k].kind == IR_STEP_INDEX)
                last = k;
        if (last >= 0)
            weak_store(cx, s, s->store.dst, last,
                       "an index that may name an element another index wrote");
        else
            place_not_followed(cx, s, s->store.dst, "an index that may be another's", "a store into");
        return;
    }
    int old = s->store.kind == IR_VAR_TENSOR ? an_mem_handle(cx, &l) : AN_UNSET;
    an_mem_write(cx, &l, &c);
    if (old != src)
        an_handle_dropped(cx, old, -1, s->loc.line, s->loc.col, "overwritten");
}

static void exec_copy(an_ctx *cx, const ir_stmt *s)
{
    an_loc dst, src;
    const char *why = NULL;
    if (!an_place_loc(cx, s->copy.dst, &dst, NULL, &why)) {
        place_not_followed(cx, s, s->copy.dst, why, "a copy into");
        return;
    }
    if (!an_place_loc(cx, s->copy.src, &src, NULL, &why)) {
        place_not_followed(cx, s, s->copy.src, why, "a copy from");
        an_mem_fill(cx, &dst, false, s->loc.line, s->loc.col);
        return;
    }
    if (s->copy.arrays && dst.elem && src.elem) { /* memcpy of arrays from their first elements */
        if (dst.key[dst.n - 1] != 0 || src.key[src.n - 1] != 0) {
            place_not_followed(cx, s, s->copy.dst, "a copy between parts of arrays", "the bytes of");
            an_mem_fill(cx, &dst, false, s->loc.line, s->loc.col);
            return;
        }
        dst.n--;
        src.n--;
    }
    an_mem_copy(cx, &dst, &src, s->loc.line, s->loc.col);
    /* a temporary the front end made for a struct a call returned is dead
     * once copied: what it held is the destination's now */
    if (src.frame != AN_HEAP && src.frame != AN_RET && src.n == 0 && src.var >= 0 &&
        src.var < cx->u->n_vars && cx->u->vars[src.var].is_temp)
        an_mem_fill(cx, &src, true, s->loc.line, s->loc.col);
}

static void exec_fill(an_ctx *cx, const ir_stmt *s)
{
    an_loc l;
    const char *why = NULL;
    if (!an_place_loc(cx, s->fill.dst, &l, NULL, &why)) {
        if (!s->fill.zero)
            return; /* an object the analysis never knew: nothing is lost */
        place_not_followed(cx, s, s->fill.dst, why, "a zeroing of");
        return;
    }
    if (!s->fill.zero && an_mem_holds_handles(cx, &l)) {
        an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                    "not followed: the tensors held in '%s' (%s); totals that depend on them "
                    "are bounds", s->fill.dst->text, s->fill.why ? s->fill.why : "not modelled");
        an_mark_bound(cx);
    }
    if (s->fill.zero) {
        an_mem_fill(cx, &l, true, s->loc.line, s->loc.col);
        return;
    }
    /* what a call wrote there: integers read from it are symbols named after
     * the place (config.dim) and the call (fread) */
    tl_xgrow(cx->fills, &cx->cap_fills, (size_t)cx->n_fills + 1, 16);
    const char *by = s->fill.why ? strstr(s->fill.why, " by ") : NULL;
    char *origin = by ? tl_xasprintf("%.*s", (int)strcspn(by + 4, "( "), by + 4)
                       : an_strdup("run time"); /* freed with cx->fills */
    const ir_place *dst = s->fill.dst;
    cx->fills[cx->n_fills] = (an_fill_src){
        .base = dst->text, .origin = origin, .line = s->loc.line, .col = s->loc.col,
        .deref = dst->n_steps > 0 && dst->steps[dst->n_steps - 1].kind == IR_STEP_DEREF,
        .data = s->fill.data};
    an_mem_fill_from(cx, &l, cx->n_fills++, s->loc.line, s->loc.col);
    if (s->fill.data && l.n == 0 && l.frame != AN_HEAP && l.frame != AN_RET && l.var >= 0 &&
        cx->u->vars[l.var].kind == IR_VAR_INT) { /* an integer variable: its value now */
        an_cell v = {.kind = AN_CELL_INT};
        an_int_put(true, an_new_value_symbol(cx, dst->text, origin, s->loc.line, s->loc.col),
                   &v.known, &v.i);
        an_mem_write(cx, &l, &v);
    }
}

static void exec_unsupported(an_ctx *cx, const ir_stmt *s)
{
    an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                "not analysed: %s; the analysis goes on, and totals that depend on it are "
                "bounds", s->unsup.message);
    an_mark_bound(cx);
    if (s->unsup.var >= 0 && cx->u->vars[s->unsup.var].kind == IR_VAR_TENSOR)
        *an_tensor_slot(cx, s->unsup.var) = AN_UNKNOWN;
}

/* Before any statement: false (AN_FLOW_STOP) once the analysis stopped. */
static bool stmt_begin(an_ctx *cx, const ir_stmt *s)
{
    if (cx->stopped)
        return false;
    if (cx->n_calls >= cx->opt.max_calls) {
        an_mark_stopped(cx);
        an_diag_add(cx, AN_WARNING, "analysis-limit", s->loc.line, s->loc.col,
                    "analysis stopped after %lld API calls (--max-calls); later totals are "
                    "lower bounds", (long long)cx->opt.max_calls);
        return false;
    }
    an_top(cx)->line = s->loc.line;
    an_top(cx)->col = s->loc.col;
    return true;
}

static an_flow exec_stmt(an_ctx *cx, const ir_stmt *s)
{
    if (!stmt_begin(cx, s))
        return AN_FLOW_STOP;
    switch (s->kind) {
    case IR_CALL: an_exec_call(cx, s); break;
    case IR_RELEASE: an_exec_release(cx, s); break;
    case IR_ASSIGN_INT: exec_assign_int(cx, s); break;
    case IR_ASSIGN_TENSOR: exec_assign_tensor(cx, s); break;
    case IR_BLOCK: return an_exec_block(cx, s->block);
    case IR_IF: return exec_if(cx, s);
    case IR_LOOP: return an_exec_loop(cx, s);
    case IR_BREAK: return AN_FLOW_BREAK;
    case IR_CONTINUE: return AN_FLOW_CONTINUE;
    case IR_USER_CALL: return exec_user_call(cx, s);
    case IR_RETURN: return exec_return(cx, s);
    case IR_EVAL: exec_eval(cx, s); break;
    case IR_LOAD: exec_load(cx, s); break;
    case IR_STORE: exec_store(cx, s); break;
    case IR_COPY: exec_copy(cx, s); break;
    case IR_FILL: exec_fill(cx, s); break;
    case IR_LABEL: break;
    case IR_GOTO:
        cx->goto_label = s->label.id;
        cx->leave = (an_leave){.line = s->loc.line, .text = s->text ? s->text : "goto"};
        return AN_FLOW_GOTO;
    case IR_EXIT:
        cx->leave = (an_leave){.line = s->loc.line, .text = s->text ? s->text : "exit"};
        return AN_FLOW_EXIT;
    case IR_UNSUPPORTED: exec_unsupported(cx, s); break;
    default: break;
    }
    return AN_FLOW_NEXT;
}

/* Before a root runs: C's zero initialization and the initializers of the
 * variables of static storage.  A root other than main may be called after
 * anything has changed them: there, only const ones keep their values. */
static void init_globals(an_ctx *cx, bool is_main)
{
    const ir_unit *u = cx->u;
    for (int g = 0; g < cx->n_globals; g++) {
        an_loc l = {.frame = 0, .var = cx->global_vars[g]};
        an_mem_write(cx, &l, &(an_cell){.kind = AN_CELL_ZERO});
    }
    an_exec_block(cx, u->globals_init);
    for (int g = 0; g < cx->n_globals && !is_main; g++) {
        int v = cx->global_vars[g];
        if (!u->vars[v].is_const && !u->vars[v].is_temp) {
            an_loc l = {.frame = 0, .var = v};
            an_mem_fill(cx, &l, false, 0, 0);
        }
    }
}

an_flow an_run_function(an_ctx *cx, int func, an_frame *f)
{
    an_func_report *fr = an_func_report_of(cx, func);
    bool upper_loop = cx->upper_loop, upper_func = cx->upper_func;
    cx->stack[cx->depth++] = f;
    f->line = cx->u->funcs[func]->loc.line;
    if (fr)
        fr->executed = true;
    an_account_live(cx); /* what is live on entry counts toward the callee's peak */
    bool program_end = cx->depth == 1 && strcmp(cx->u->funcs[func]->name, "main") == 0;
    if (cx->depth == 1)
        init_globals(cx, program_end);
    an_flow fl = exec_block_scoped(cx, cx->u->funcs[func]->body, program_end);
    if (fl == AN_FLOW_GOTO) {
        const ir_func *fn = cx->u->funcs[func];
        an_diag_add(cx, AN_NOTE, "unsupported", fn->loc.line, fn->loc.col,
                    "not followed: a goto into a nested block in '%s'; the analysis of the "
                    "function stops there, and its totals are bounds", fn->name);
        an_mark_bound(cx);
    }
    an_settle_peaks(cx); /* the peak's names: the frame's variables still hold theirs */
    an_mem_frame_exit(cx, f, program_end || fl == AN_FLOW_EXIT);
    if (fr && !cx->fs[func].done_first) {
        cx->fs[func].done_first = true;
        fr->end_live_bytes = cx->live;
        fr->end_sx = cx->live_sx;
    }
    an_settle_peaks(cx);
    cx->depth--;
    cx->upper_loop = upper_loop; /* an early exit inside it ends here */
    cx->upper_func = upper_func;
    return fl == AN_FLOW_EXIT ? AN_FLOW_EXIT : AN_FLOW_NEXT;
}
