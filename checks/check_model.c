/*
 * check_model.c: the rules about the ops real models are written with: a
 * mask rebuilt in every iteration of a loop although nothing it is built
 * from changes (mask-rebuilt-in-loop), and an out= call whose out has the
 * wrong shape, so PyTorch's resize_output resizes it and may grow its
 * storage (out-resized).
 *
 * Loop invariance is read off the event log.  A call site is invariant
 * when, in every execution, it makes a storage of the same size from the
 * same operands: each operand is either the same storage in every
 * execution, made before the site first ran and written by nobody between
 * its first and last execution, or the result of an invariant site run as
 * often.  Creation calls (full, ones, zeros, arange, scalar) have no
 * operands: the same size each time is enough.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

enum { CK_MAX_DEPTH = 8 }; /* operand chains followed from a mask */

static bool ck_is_mask_op(mt_op op)
{
    return op == MT_OP_triu || op == MT_OP_tril || op == MT_OP_masked_fill ||
           op == MT_OP_where || op == MT_OP_eq || op == MT_OP_lt;
}

static bool ck_is_creation(mt_op op)
{
    return op == MT_OP_full || op == MT_OP_ones || op == MT_OP_zeros || op == MT_OP_arange ||
           op == MT_OP_scalar || op == MT_OP_empty;
}

/* The CALL events of site v, in order; *n gets their count (allocated). */
static int64_t *ck_site_events(const ck_ctx *cx, int v, int64_t *n)
{
    int64_t *ev = NULL, cap = 0;
    *n = 0;
    for (int64_t i = 0; i < cx->r->n_events; i++) {
        const an_event *e = &cx->r->events[i];
        if (e->kind != AN_EV_CALL || e->value != v)
            continue;
        tl_xgrow(ev, &cap, (size_t)*n + 1, 16);
        ev[(*n)++] = i;
    }
    return ev;
}

/* Whether some in-place call writes storage s in events [from, to]. */
static bool ck_written_between(const ck_ctx *cx, int s, int64_t from, int64_t to)
{
    for (int64_t i = from; i <= to && i < cx->r->n_events; i++) {
        const an_event *e = &cx->r->events[i];
        if (e->kind == AN_EV_CALL && ck_op_writes(e->op) && e->storage == s)
            return true;
    }
    return false;
}

static bool ck_site_invariant(const ck_ctx *cx, int v, int64_t runs, int depth);

/* Operand k of site v is the same in each of its n executions ev[]. */
static bool ck_operand_invariant(const ck_ctx *cx, const int64_t *ev, int64_t n, int k,
                                 int depth)
{
    const an_event *first = ck_event(cx, ev[0]);
    int s = first->in_storage[k], made_by = first->in_value[k];
    if (s < 0)
        return false;
    bool same = true;
    for (int64_t j = 1; j < n && same; j++)
        same = ck_event(cx, ev[j])->in_storage[k] == s;
    if (same)
        return cx->storage_event[s] >= 0 && cx->storage_event[s] < ev[0] &&
               !ck_written_between(cx, s, ev[0], ev[n - 1]);
    return made_by >= 0 && ck_site_invariant(cx, made_by, n, depth + 1);
}

/* Site v ran runs times, each time making a storage of one size from the same operands. */
static bool ck_site_invariant(const ck_ctx *cx, int v, int64_t runs, int depth)
{
    const an_value *x = &cx->r->values[v];
    int64_t n;
    if (depth > CK_MAX_DEPTH || (!x->known && x->sl <= 0) || x->kind != MT_KIND_NEW)
        return false;
    int64_t *ev = ck_site_events(cx, v, &n);
    bool ok = n == runs && n >= 2;
    const an_event *first = ok ? ck_event(cx, ev[0]) : NULL;
    /* the same bytes, known or the same formula */
    sx_int bytes = first && first->storage >= 0 ? ck_storage_sx(&cx->r->storages[first->storage])
                                                : (sx_int){-1, 0};
    for (int64_t j = 0; ok && j < n; j++) {
        const an_event *e = ck_event(cx, ev[j]);
        ok = !e->error && !e->poison && e->storage >= 0 && e->n_in <= AN_EV_MAX_IN &&
             sx_same(ck_storage_sx(&cx->r->storages[e->storage]), bytes) &&
             (bytes.e != 0 || bytes.c >= 0) && ck_sx_usable(bytes);
    }
    for (int k = 0; ok && !ck_is_creation(x->op) && k < first->n_in; k++)
        ok = ck_operand_invariant(cx, ev, n, k, depth);
    ok = ok && (first->n_in > 0 || ck_is_creation(x->op));
    free(ev);
    return ok;
}

/* "(16, 16)" or "(T, T)": the value's shape, known or formulas; allocated. */
static char *ck_shape_text(const ck_ctx *cx, const an_value *x)
{
    if (x->known)
        return ck_tuple(x->l.ndim, x->l.shape);
    const an_slayout *l = &cx->r->slayouts[x->sl - 1];
    char *s = tl_xasprintf("(");
    for (int d = 0; d < l->ndim; d++) {
        char *f = sx_strdup(l->shape[d]), *t = tl_xasprintf("%s%s%s", s, d ? ", " : "", f);
        free(f);
        free(s);
        s = t;
    }
    char *t = tl_xasprintf("%s%s)", s, l->ndim == 1 ? "," : "");
    free(s);
    return t;
}

static void ck_mask_report(ck_ctx *cx, int v)
{
    const an_value *x = &cx->r->values[v];
    sx_int bytes = ck_storage_sx(&cx->r->storages[x->storage]), moved = ck_value_moved_sx(x);
    sx_int n = an_value_runs(x), again = sx_sub(n, (sx_int){1, 0});
    sx_int all_bytes = sx_mul(bytes, again), all_moved = sx_mul(moved, again);
    tl_dtype dt;
    char *label = ck_value_label(cx, v), *shape = ck_shape_text(cx, x), f[160];
    bool per_run = x->runs_unknown || !ck_sx_usable(all_bytes) || !ck_sx_usable(all_moved);
    const char *most = x->runs_at_most ? "at most " : "";
    /* the program's count: a formula in a loop summarised over run-time sizes */
    char *runs = per_run ? tl_xasprintf("%s", "executions (a number the analysis does not know)")
                         : tl_xasprintf("%s%s executions", most, sx_str(n, f, sizeof f));
    char *saves = per_run ? tl_xasprintf("%s of allocation and %s moved per execution after the "
                                         "first", ck_sx_bytes(bytes).s, ck_sx_bytes(moved).s)
                          : tl_xasprintf("%s%s of allocation and %s moved", most,
                                         ck_sx_bytes(all_bytes).s, ck_sx_bytes(all_moved).s);
    ck_value_dtype(cx, v, &dt);
    ck_diag_add(cx, CK_mask_rebuilt_in_loop, x->line, x->col,
                "tl_%s builds %s, the same %s %s tensor (%s), in each of its %s from "
                "operands that do not change: build it once before the loop (saves %s)",
                mt_ops[x->op].name, label, shape, mt_dtype_name(dt), ck_sx_bytes(bytes).s,
                runs, saves);
    free(label);
    free(shape);
    free(runs);
    free(saves);
}

/* A mask (triu, tril, masked_fill, where, eq, lt) rebuilt at the same size
 * from unchanged operands in every iteration: the same bytes allocated,
 * computed and freed each time.  Build it once before the loop. */
void ck_rule_mask_rebuilt_in_loop(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *x = &r->values[v];
        if (!ck_is_mask_op(x->op) || x->n_exec < 2 || !ck_value_allocates_any(cx, v) ||
            !ck_site_invariant(cx, v, x->n_exec, 0))
            continue;
        ck_mask_report(cx, v);
    }
}

static bool ck_is_out_form(const an_event *e)
{
    return e->kind == AN_EV_CALL && (e->op == MT_OP_matmul_out || e->op == MT_OP_softmax_out);
}

static bool ck_same_site(const an_event *a, const an_event *b)
{
    return a->func == b->func && a->line == b->line && a->col == b->col;
}

/* One out= call site: its first event, its calls, those that resized, bytes grown. */
static void ck_report_out_site(ck_ctx *cx, int64_t first_ix, int64_t n, int64_t n_resized,
                               int64_t grown)
{
    const an_report *r = cx->r;
    const an_event *first = ck_event(cx, first_ix);
    int out = first->n_in > 0 ? first->in_value[0] : -1;
    char *label = out >= 0 ? ck_value_label(cx, out) : tl_xasprintf("its out tensor");
    char *when = n_resized == n && n > 1 ? tl_xasprintf(", at every one of its %lld calls",
                                                        (long long)n)
                 : n > 1 ? tl_xasprintf(", at %lld of its %lld calls", (long long)n_resized,
                                        (long long)n)
                         : tl_xasprintf("%s", "");
    an_diag *d = ck_diag_add(cx, CK_out_resized, first->line, first->col,
                             "tl_%s resizes %s, whose shape is not the result's%s%s%s: "
                             "allocate out with the result's shape once and every call writes "
                             "it in place", mt_ops[first->op].name, label, when,
                             grown > 0 ? "; its storage grows by " : "",
                             grown > 0 ? ck_bytes(grown).s : "");
    if (out >= 0)
        ck_note(d, r->values[out].line, r->values[out].col, "out is made here");
    free(label);
    free(when);
}

/* An out= call whose out has the wrong shape: resize_output restrides it
 * (contiguous at its offset) and grows its storage when it is too small,
 * an allocation the out= form was meant to avoid; in a loop where every
 * call resizes, the buffer never fits.  In-place calls have no value: the
 * sites are the events' positions. */
void ck_rule_out_resized(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int64_t i = 0; i < r->n_events; i++) {
        const an_event *e = &r->events[i];
        bool seen = false;
        if (!ck_is_out_form(e))
            continue;
        for (int64_t j = 0; j < i && !seen; j++)
            seen = ck_is_out_form(&r->events[j]) && ck_same_site(&r->events[j], e);
        if (seen)
            continue;
        int64_t n = 0, n_resized = 0, grown = 0;
        for (int64_t j = i; j < r->n_events; j++) {
            const an_event *f = &r->events[j];
            if (!ck_is_out_form(f) || !ck_same_site(f, e))
                continue;
            n++;
            n_resized += f->resized;
            grown += f->grown_bytes;
        }
        if (n_resized > 0)
            ck_report_out_site(cx, i, n, n_resized, grown);
    }
}
