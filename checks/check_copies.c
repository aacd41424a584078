/*
 * check_copies.c: the rules about copies the program did not need to pay
 * for: a reshape that silently copies (hidden-copy), a copy that writes out
 * a broadcast (materialized-broadcast), a full copy of which only a slice
 * is read (copy-then-slice), a copy of a fresh copy (double-copy), and a
 * copy whose original would have served (redundant-copy).
 *
 * Each rule reads a call site's first execution (an_value) and the event
 * log: which calls take the copy's storage as an operand, through which
 * handle.  A call that makes a view of the storage is not a read; a call
 * that computes from it, copies it or writes it is.  When the log cannot
 * say (a wide tl_cat, a handle passed to a function the file does not
 * define), the rules stay quiet.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared ---- */

/* The value whose layout a view chain inherits: the nearest view that made
 * a contiguous input non-contiguous, or the chain's first non-view. */
static int ck_layout_cause(const ck_ctx *cx, int value)
{
    const an_report *r = cx->r;
    for (int steps = 0; value >= 0 && steps < r->n_values; steps++) {
        const an_value *x = &r->values[value];
        if (x->kind != MT_KIND_VIEW || x->view_of < 0)
            return value;
        const an_value *in = &r->values[x->view_of];
        if (!x->known || !in->known)
            return -1;
        if (!mt_is_contiguous(&x->l) && mt_is_contiguous(&in->l))
            return value;
        value = x->view_of;
    }
    return -1;
}

/* The text after "copied: " in a reason ("dims 0 and 1 do not merge ..."). */
static const char *ck_copy_reason(const an_value *v)
{
    const char *r = v->reason ? strstr(v->reason, "copied: ") : NULL;
    return r ? r + strlen("copied: ") : v->reason ? v->reason : "the strides do not merge";
}

/* The assumptions a copy rests on (ck_when) when its op copies or views
 * as the layout decides (contiguous, reshape, flatten, a cast to the same
 * dtype); "" for a clone or a cast between dtypes, which always copy;
 * newly allocated. */
static char *ck_copy_when(const ck_ctx *cx, int v)
{
    const an_value *x = &cx->r->values[v];
    int in = ck_operand(cx, v, 0);
    tl_dtype a, b;
    bool cast = x->op == MT_OP_to && in >= 0 && ck_value_dtype(cx, in, &a) &&
                ck_value_dtype(cx, v, &b) && a != b;
    if (x->op == MT_OP_clone || cast)
        return tl_xasprintf("%s", "");
    return ck_when(cx, v);
}

/* ---- hidden-copy ---- */

/* tl_reshape / tl_flatten copy when computeStride cannot view the input's
 * strides as the new shape (PyTorch: view if possible, else contiguous()
 * then view).  The copy is the cost; the note names the view op that made
 * the strides.  A broadcast input is materialized-broadcast's business. */
void ck_rule_hidden_copy(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *x = &r->values[v];
        if ((x->op != MT_OP_reshape && x->op != MT_OP_flatten) || !ck_value_allocates_any(cx, v))
            continue;
        int in = ck_operand(cx, v, 0);
        if (in < 0 || ck_value_overlaps(cx, in) != 0)
            continue;
        const an_storage *st = &r->storages[x->storage];
        char *times = ck_times_sx(cx, v, ck_storage_sx(st));
        char *label = ck_value_label(cx, in), *when = ck_when(cx, v);
        an_diag *d = ck_diag_add(cx, CK_hidden_copy, x->line, x->col,
                                 "tl_%s silently copies %s of %s: %s%s%s", mt_ops[x->op].name,
                                 ck_storage_bytes(st).s, label, ck_copy_reason(x), times, when);
        free(when);
        int cause = ck_layout_cause(cx, in);
        if (d && cause >= 0) {
            const an_value *c = &r->values[cause];
            char *strides = ck_tuple(c->l.ndim, c->l.strides);
            ck_note(d, c->line, c->col, "the strides %s that cannot merge come from tl_%s here",
                    strides, mt_ops[c->op].name);
            free(strides);
        }
        free(times);
        free(label);
    }
}

/* ---- materialized-broadcast ---- */

static void ck_broadcast_report(ck_ctx *cx, int v, int in, sx_int factor, ck_conds *c)
{
    const an_report *r = cx->r;
    const an_value *x = &r->values[v];
    sx_int bytes = ck_storage_sx(&r->storages[x->storage]);
    char *times = ck_times_sx(cx, v, bytes), *label = ck_value_label(cx, in);
    char ftext[256];
    char *fx = factor.e == 0 ? tl_xasprintf("%lldx", (long long)factor.c)
                             : tl_xasprintf("a factor of %s", sx_str(factor, ftext, sizeof ftext));
    char *when = ck_conds_when(c); /* a broadcast of a factor > 1 is never a view */
    an_diag *d = ck_diag_add(cx, CK_materialized_broadcast, x->line, x->col,
                             "tl_%s writes %s to materialize the broadcast %s, which holds "
                             "%s of real data (%s)%s%s", mt_ops[x->op].name, ck_sx_bytes(bytes).s,
                             label, ck_sx_bytes(sx_div(bytes, factor)).s, fx, times, when);
    int cause = ck_broadcast_cause(cx, in);
    if (d && cause >= 0)
        ck_note(d, r->values[cause].line, r->values[cause].col,
                "the stride-0 dims come from tl_%s here; compute ops read them without a copy",
                mt_ops[r->values[cause].op].name);
    free(times);
    free(label);
    free(fx);
    free(when);
}

/* A copy (contiguous, clone, a copying reshape or cast) of a tensor with a
 * stride-0 dim of size > 1 writes every logical element: bytes written =
 * numel x element size, real data = that / the broadcast factor.  Compute
 * ops read broadcasts for free, so the copy buys nothing.  Over sizes
 * known at run time the factor is a formula, and "size > 1" a condition. */
void ck_rule_materialized_broadcast(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *x = &r->values[v];
        int in = ck_operand(cx, v, 0);
        sx_int factor;
        if (!ck_op_is_copy(x->op) || !ck_value_allocates_any(cx, v) || in < 0 ||
            ck_value_overlaps(cx, in) == 0 || !ck_broadcast_factor_sx(cx, in, &factor))
            continue;
        ck_conds c;
        ck_conds_init(&c);
        ck_conds_need(&c, factor, SX_GT, (sx_int){1, 0});
        if (ck_conds_verdict(&c) != 0)
            ck_broadcast_report(cx, v, in, factor, &c);
        ck_conds_free(&c);
    }
}

/* ---- copy-then-slice ---- */

#define CK_MAX_PARTS 16

typedef struct ck_copy_reads {
    bool whole;      /* some call reads or writes the whole copy (or too many parts) */
    sx_int used;     /* bytes read through smaller views, per execution of the copy */
    int n_parts;
    int parts[CK_MAX_PARTS]; /* the smaller views read, once each */
} ck_copy_reads;

/* Count view u (a part of the copy) once; its executions per copy multiply
 * it (counts that are exact: none in a loop run a formula's number of times). */
static void ck_copy_part(const ck_ctx *cx, int u, int copy, ck_copy_reads *out)
{
    const an_report *r = cx->r;
    const an_value *pu = &r->values[u], *pc = &r->values[copy];
    sx_int bytes;
    for (int k = 0; k < out->n_parts; k++)
        if (out->parts[k] == u)
            return;
    if (out->n_parts == CK_MAX_PARTS || !ck_value_nbytes_sx(cx, u, &bytes) ||
        ((pu->summarised || pc->summarised) && pu->n_exec != pc->n_exec)) {
        out->whole = true;
        return;
    }
    out->parts[out->n_parts++] = u;
    int64_t runs = pc->n_exec > 0 ? pu->n_exec / pc->n_exec : 1;
    out->used = sx_add(out->used, sx_mul(bytes, (sx_int){runs > 1 ? runs : 1, 0}));
}

/* Whether view u reaches fewer elements than the copy's numel n: not when
 * the sizes say it reaches as many. */
static bool ck_copy_smaller(const ck_ctx *cx, int u, sx_int n_bytes)
{
    sx_int b;
    bool ge;
    return ck_value_nbytes_sx(cx, u, &b) && !(sx_prove(b, SX_GE, n_bytes, &ge) && ge);
}

/* Account the operands of event e that point into s (bytes of the copy: n). */
static void ck_copy_read(const ck_ctx *cx, const an_event *e, int s, sx_int n, int copy,
                         ck_copy_reads *out)
{
    for (int k = 0; k < e->n_in && k < AN_EV_MAX_IN; k++) {
        int u = e->in_value[k];
        if (e->in_storage[k] != s)
            continue;
        if (u < 0 || !ck_copy_smaller(cx, u, n) || ck_op_writes(e->op))
            out->whole = true;
        else
            ck_copy_part(cx, u, copy, out);
    }
}

static ck_copy_reads ck_copy_reads_of(const ck_ctx *cx, int copy)
{
    const an_report *r = cx->r;
    int s = r->values[copy].storage;
    sx_int n;
    ck_copy_reads out = {.n_parts = 0, .used = {0, 0}};
    int64_t n_uses = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    out.whole = !ck_value_nbytes_sx(cx, copy, &n);
    for (int64_t k = 0; k < n_uses && !out.whole; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (e->value >= 0 && e->storage == s)
            continue; /* makes a view: not a read */
        ck_copy_read(cx, e, s, n, copy, &out);
    }
    return out;
}

static void ck_copy_then_slice_report(ck_ctx *cx, int v, const ck_copy_reads *reads,
                                      ck_conds *c)
{
    const an_report *r = cx->r;
    const an_value *x = &r->values[v], *p = &r->values[reads->parts[0]];
    sx_int bytes = ck_storage_sx(&r->storages[x->storage]), part;
    char *times = ck_times_sx(cx, v, sx_sub(bytes, reads->used));
    char *label = ck_value_label(cx, reads->parts[0]);
    char *when = ck_when_join(ck_conds_when(c), ck_copy_when(cx, v));
    an_diag *d = ck_diag_add(cx, CK_copy_then_slice, x->line, x->col,
                             "tl_%s copies %s but only %s of the copy, through %s, is ever "
                             "read: %s copied for nothing; slice first, then copy%s%s",
                             mt_ops[x->op].name, ck_sx_bytes(bytes).s,
                             ck_sx_bytes(reads->used).s, label,
                             ck_sx_bytes(sx_sub(bytes, reads->used)).s, times, when);
    if (ck_value_nbytes_sx(cx, reads->parts[0], &part))
        ck_note(d, p->line, p->col, "only this part of the copy is read (%s of %s)",
                ck_sx_bytes(part).s, ck_sx_bytes(bytes).s);
    free(times);
    free(label);
    free(when);
}

/* A copy of which only slices are ever read: copying the slice instead
 * moves and allocates less.  Bytes never used = copy bytes - bytes read
 * through the slices; over sizes known at run time, "the slices read less
 * than the copy" is a condition on formulas. */
void ck_rule_copy_then_slice(ck_ctx *cx)
{
    if (!cx->log_complete)
        return;
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *x = &r->values[v];
        if (!ck_op_is_copy(x->op) || !ck_value_allocates_any(cx, v))
            continue;
        int s = x->storage;
        ck_copy_reads reads = ck_copy_reads_of(cx, v);
        if (reads.whole || reads.n_parts == 0 ||
            ck_wide_between(cx, cx->storage_event[s], ck_storage_end(cx, s)) ||
            ck_storage_escapes(cx, s))
            continue;
        ck_conds c;
        ck_conds_init(&c);
        ck_conds_need(&c, reads.used, SX_LT, ck_storage_sx(&r->storages[s]));
        if (ck_conds_verdict(&c) != 0)
            ck_copy_then_slice_report(cx, v, &reads, &c);
        ck_conds_free(&c);
    }
}

/* ---- double-copy ---- */

/* Whether casting from a to b keeps every value exactly. */
bool ck_cast_exact(tl_dtype a, tl_dtype b)
{
    if (a == b || a == TL_BOOL)
        return true;
    int sa = mt_dtype_size(a), sb = mt_dtype_size(b);
    bool fa = mt_is_floating(a), fb = mt_is_floating(b);
    if (fa && fb)
        return b == TL_F64 || (b == TL_F32 && sa == 2);
    if (fa)
        return false;
    if (!fb) /* integer to integer: wider, and unsigned only into signed */
        return a == TL_U8 ? sb > 1 && b != TL_U8 : b != TL_U8 && sb > sa;
    int bits = b == TL_F64 ? 53 : b == TL_F32 ? 24 : b == TL_F16 ? 11 : 8;
    return 8 * sa - (a == TL_U8 ? 0 : 1) <= bits;
}

/* The call op2 of c2, run on layout l0 instead of its own operand. */
static bool ck_rerun(const an_value *c2, const mt_layout *l0, mt_result *out)
{
    mt_call mc;
    memset(&mc, 0, sizeof mc);
    mc.op = c2->op == MT_OP_flatten ? MT_OP_reshape : c2->op;
    mc.n_in = 1;
    mc.in[0] = l0;
    mc.dtype = c2->l.dtype;
    mc.device = c2->l.device;
    mc.format = c2->l.ndim == 4 && mt_is_channels_last(&c2->l) && !mt_is_contiguous(&c2->l)
                    ? TL_CHANNELS_LAST : TL_CONTIGUOUS;
    mc.s[0].n = c2->l.ndim;
    memcpy(mc.s[0].v, c2->l.shape, sizeof(int64_t) * (size_t)c2->l.ndim);
    return mt_run(&mc, out) == TL_OK;
}

static bool ck_same_layout(const mt_layout *a, const mt_layout *b)
{
    if (a->ndim != b->ndim || a->dtype != b->dtype || a->device != b->device)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || (a->shape[d] > 1 && a->strides[d] != b->strides[d]))
            return false;
    return true;
}

/* Whether two layouts over formulas are the same tensor layout: sizes
 * equal, strides equal where the size may be more than 1. */
static bool ck_same_slayout(const an_slayout *a, const an_slayout *b)
{
    bool one;
    if (a->ndim != b->ndim || a->dtype != b->dtype || a->device != b->device)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (!sx_same(a->shape[d], b->shape[d]) ||
            (!sx_same(a->strides[d], b->strides[d]) &&
             !(sx_prove(a->shape[d], SX_EQ, (sx_int){1, 0}, &one) && one)))
            return false;
    return true;
}

/* c2's call run on x's layout over formulas (the symbolic build of its
 * rule).  A result that needs a new assumption is not taken: false. */
static bool ck_rerun_sx(const ck_ctx *cx, const an_value *c2, int x, int *kind)
{
    const an_report *r = cx->r;
    if (c2->sl <= 0 || r->values[x].sl <= 0)
        return false;
    const an_slayout *out = &r->slayouts[c2->sl - 1];
    if (out->ndim == 4 && !out->contiguous)
        return false; /* which memory format: the sizes would have to say */
    an_scall sc;
    an_sresult res;
    memset(&sc, 0, sizeof sc);
    sc.op = c2->op == MT_OP_flatten ? MT_OP_reshape : c2->op;
    sc.n_in = 1;
    sc.in[0] = r->slayouts[r->values[x].sl - 1];
    sc.dtype = out->dtype;
    sc.device = out->device;
    sc.format = TL_CONTIGUOUS;
    sc.s[0].n = out->ndim;
    for (int d = 0; d < out->ndim; d++)
        sc.s[0].v[d] = out->shape[d];
    int n_assumed = sx_n_assumptions();
    bool failed = sx_failed();
    bool ok = an_sym_run(&sc, &res, c2->line) == TL_OK && !res.not_symbolic &&
              sx_n_assumptions() == n_assumed && !(sx_failed() && !failed) &&
              ck_same_slayout(&res.out, out);
    sx_forget_assumptions(n_assumed);
    if (sx_failed() && !failed)
        sx_clear_failed();
    *kind = res.kind;
    return ok;
}

/* Whether c2 applied to x's layout gives c2's own layout; *kind says
 * whether it copies (known sizes: the concrete rule; else the symbolic). */
static bool ck_merges(const ck_ctx *cx, const an_value *c2, int x, int *kind)
{
    const an_value *in = &cx->r->values[x];
    mt_result merged;
    if (!in->known || !c2->known)
        return ck_rerun_sx(cx, c2, x, kind);
    if (!ck_rerun(c2, &in->l, &merged) || !ck_same_layout(&merged.out, &c2->l))
        return false;
    *kind = merged.kind;
    return true;
}

/* A copy c2 whose operand is a fresh copy c1 that nothing else reads: when
 * c2 applied to c1's own input gives the same layout (the meta function
 * says so), one pass does the work of two.  The saving is c1's pass: its
 * bytes moved and its allocation.  Cast chains back to the original dtype
 * are cast-roundtrip's; lossy first casts change values and stay quiet.
 * Over sizes known at run time the rule's symbolic build is run, and the
 * bytes are formulas. */
void ck_rule_double_copy(ck_ctx *cx)
{
    if (!cx->log_complete)
        return;
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *c2 = &r->values[v];
        int c1 = ck_operand(cx, v, 0), kind;
        tl_dtype d0, d1, d2;
        if (!ck_op_is_copy(c2->op) || !ck_value_allocates_any(cx, v) || c1 < 0 ||
            !ck_op_is_copy(r->values[c1].op) || !ck_value_allocates_any(cx, c1))
            continue;
        const an_value *first = &r->values[c1];
        int x = ck_operand(cx, c1, 0);
        if (x < 0 || !ck_value_dtype(cx, x, &d0) || !ck_value_dtype(cx, c1, &d1) ||
            !ck_value_dtype(cx, v, &d2) || !ck_only_used_by(cx, first->storage, v) ||
            ck_storage_escapes(cx, first->storage))
            continue;
        if (first->op == MT_OP_to && (!ck_cast_exact(d0, d1) || (c2->op == MT_OP_to && d2 == d0)))
            continue;
        if (!ck_merges(cx, c2, x, &kind))
            continue;
        sx_int moved = ck_value_moved_sx(first);
        char *label = ck_value_label(cx, x), *times = ck_times_sx(cx, v, moved);
        an_diag *d = ck_diag_add(cx, CK_double_copy, c2->line, c2->col,
                                 "tl_%s copies a fresh tl_%s of %s that nothing else reads: "
                                 "tl_%s on %s gives the same tensor %s, saving %s moved and a "
                                 "%s allocation%s", mt_ops[c2->op].name, mt_ops[first->op].name,
                                 label, mt_ops[c2->op].name, label,
                                 kind == MT_KIND_NEW ? "in one pass" : "with no copy at all",
                                 ck_sx_bytes(moved).s,
                                 ck_sx_bytes(ck_storage_sx(&r->storages[first->storage])).s, times);
        ck_note(d, first->line, first->col, "the first pass, tl_%s, whose result only feeds tl_%s",
                mt_ops[first->op].name, mt_ops[c2->op].name);
        ck_fix_unnest(cx, d, v, c1);
        free(label);
        free(times);
    }
}

/* ---- redundant-copy ---- */

/* Ops whose result layout does not depend on their operands' strides. */
static bool ck_reads_any_layout(mt_op op)
{
    switch (op) {
    case MT_OP_matmul: case MT_OP_sum: case MT_OP_mean: case MT_OP_softmax: case MT_OP_get:
        return true;
    default:
        return false;
    }
}

/* Whether storage s is written by an event in [from, to). */
static bool ck_written_between(const ck_ctx *cx, int s, int64_t from, int64_t to)
{
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        if (uses[k] >= from && uses[k] < to && ck_op_writes(e->op) && e->in_storage[0] == s)
            return true;
    }
    return false;
}

typedef struct ck_readers {
    int64_t n;         /* calls that read the copy */
    int64_t last;      /* the last event that uses it */
    bool any_layout;   /* every reader ignores strides */
    bool one_copy;     /* every reader is one copying call site (double-copy's case) */
} ck_readers;

static ck_readers ck_copy_readers(const ck_ctx *cx, int s)
{
    int64_t n = ck_list_len(&cx->storage_uses, s);
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    ck_readers rd = {.last = -1, .any_layout = true, .one_copy = true};
    int site = -1;
    for (int64_t k = 0; k < n; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        rd.last = uses[k];
        if (e->value >= 0 && e->storage == s) {
            rd.any_layout = rd.one_copy = false; /* a view of the copy: its strides may matter */
            continue;
        }
        rd.n++;
        rd.any_layout = rd.any_layout && ck_reads_any_layout(e->op);
        rd.one_copy = rd.one_copy && ck_op_is_copy(e->op) && (site < 0 || site == e->value);
        site = e->value;
    }
    return rd;
}

/* Whether the value's layout is dense with no overlap (a clone keeps its
 * strides), over known sizes or run-time ones (there: contiguous). */
static bool ck_value_dense(const ck_ctx *cx, int value, bool *contiguous)
{
    const an_value *v = &cx->r->values[value];
    if (v->known) {
        *contiguous = mt_is_contiguous(&v->l);
        return mt_is_non_overlapping_and_dense(&v->l);
    }
    *contiguous = v->sl > 0 && cx->r->slayouts[v->sl - 1].contiguous;
    return *contiguous;
}

static void ck_redundant_report(ck_ctx *cx, int v, int in, int64_t last, bool same_bytes)
{
    const an_report *r = cx->r;
    const an_value *c = &r->values[v];
    sx_int bytes = ck_storage_sx(&r->storages[c->storage]);
    bool contiguous;
    char *label = ck_value_label(cx, in), *times = ck_times_sx(cx, v, bytes);
    char *when = ck_copy_when(cx, v);
    an_diag *d = ck_diag_add(cx, CK_redundant_copy, c->line, c->col,
                             "tl_%s allocates %s for nothing: the copy is only read, and %s "
                             "stays alive and unchanged until its last read%s%s",
                             mt_ops[c->op].name, ck_sx_bytes(bytes).s, label, times, when);
    const an_event *e = ck_event(cx, last);
    ck_note(d, e->line, e->col, "the last read of the copy; it could read %s", label);
    ck_call_text ct;
    if (d && c->op == MT_OP_clone && ck_value_dense(cx, in, &contiguous) && contiguous &&
        same_bytes && ck_src_call(ck_source(cx), (ck_pos){c->line, c->col}, "tl_clone", &ct))
        ck_fixit(d, ct.name.begin, ct.name.end, "tl_contiguous");
    free(label);
    free(times);
    free(when);
}

/* tl_contiguous / tl_clone whose result is only read while the input stays
 * alive and unchanged: the reads could have used the input.  A clone of a
 * dense input has the input's strides (preserve_format), so any reader
 * would do; otherwise only readers whose result ignores strides (matmul,
 * reductions, softmax).  The cost is the copy's bytes, allocated for
 * nothing, and its pass.  A copy read only by another copy is
 * double-copy's business.  Over sizes known at run time the bytes are a
 * formula, and the assumptions the copy rests on follow it. */
void ck_rule_redundant_copy(ck_ctx *cx)
{
    if (!cx->log_complete)
        return;
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *c = &r->values[v];
        int in = ck_operand(cx, v, 0);
        int64_t made = cx->value_event[v], last;
        bool contiguous;
        if ((c->op != MT_OP_contiguous && c->op != MT_OP_clone) ||
            !ck_value_allocates_any(cx, v) || in < 0 ||
            (!r->values[in].known && r->values[in].sl <= 0))
            continue;
        int s = c->storage, s0 = ck_event(cx, made)->in_storage[0];
        bool dense = ck_value_dense(cx, in, &contiguous);
        ck_readers rd = ck_copy_readers(cx, s);
        last = rd.last;
        bool any_reader = c->op == MT_OP_clone && dense; /* same strides as the input */
        if (s0 < 0 || rd.n == 0 || rd.one_copy || (!any_reader && !rd.any_layout) ||
            ck_written_between(cx, s, made, ck_storage_end(cx, s)) ||
            ck_written_between(cx, s0, made, last + 1) ||
            (r->storages[s0].free_event >= 0 && r->storages[s0].free_event < last) ||
            ck_wide_between(cx, made, last + 1) || ck_storage_escapes(cx, s))
            continue;
        ck_redundant_report(cx, v, in, last,
                            sx_same(ck_storage_sx(&r->storages[s0]), ck_storage_sx(&r->storages[s])));
    }
}
