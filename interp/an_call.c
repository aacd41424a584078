/*
 * an_call.c: one API call or release, executed abstractly.
 *
 * The arguments are evaluated in the top frame; when every one is known
 * the op's meta function gives the result exactly as the runtime would.
 * An unknown argument makes an unknown result: a creation, copy or compute
 * op still makes a new storage (of unknown size), a view still shares its
 * input's storage.  A failed meta function is an error diagnostic at the
 * call, and the result is a poison handle whose uses stay silent.
 */
#include "an_internal.h"

#include <stdlib.h>
#include <string.h>

static bool env_var(void *ctx, int var, int64_t *out)
{
    bool *known;
    if (var < 0)
        return false;
    int64_t *v = an_int_slot(ctx, var, &known);
    if (!*known)
        return false;
    *out = *v;
    return true;
}

static bool env_place(void *ctx, const ir_place *p, int64_t *out)
{
    an_loc l;
    return an_place_loc(ctx, p, &l, NULL, NULL) && an_mem_int(ctx, &l, out);
}

static const an_handle *query_handle(an_ctx *cx, int var)
{
    int h = an_tensor_of(cx, var);
    if (h < 0 || cx->handles[h].released || !cx->handles[h].known)
        return NULL;
    return &cx->handles[h];
}

static bool env_query(void *ctx, const ir_expr *q, int64_t *out)
{
    an_ctx *cx = ctx;
    const an_handle *h = query_handle(cx, q->var);
    int64_t a = 0, d;
    if (q->query == IR_Q_ELEMENT_SIZE)
        return an_eval(cx, q->a, &a) && (*out = mt_dtype_size((tl_dtype)a)) > 0;
    if (q->kind == IR_EXPR_TENSOR_NULL) { /* a released handle is still a non-null pointer */
        int hv = an_tensor_of(cx, q->var);
        if (hv == AN_UNKNOWN)
            return false;
        *out = hv == AN_UNSET;
        return true;
    }
    if (!h || (q->a && !an_eval(cx, q->a, &a)))
        return false;
    const mt_layout *l = &h->l;
    switch (q->query) {
    case IR_Q_NDIM: *out = l->ndim; return true;
    case IR_Q_SIZE: return mt_wrap_dim(a, l->ndim, &d) && l->ndim > 0 && (*out = l->shape[d], true);
    case IR_Q_STRIDE:
        return mt_wrap_dim(a, l->ndim, &d) && l->ndim > 0 && (*out = l->strides[d], true);
    case IR_Q_NUMEL: *out = mt_numel(l); return true;
    case IR_Q_NBYTES: *out = mt_nbytes(l); return true;
    case IR_Q_STORAGE_OFFSET: *out = l->offset; return true;
    case IR_Q_STORAGE_NBYTES: *out = l->storage_nbytes; return true;
    case IR_Q_IS_CONTIGUOUS: *out = mt_is_contiguous(l); return true;
    case IR_Q_IS_CONTIGUOUS_FORMAT: *out = mt_is_contiguous_format(l, (tl_format)a); return true;
    case IR_Q_DTYPE_OF: *out = l->dtype; return true;
    case IR_Q_DEVICE_OF: *out = l->device; return true;
    case IR_Q_SHARES_STORAGE: {
        const an_handle *h2 = query_handle(cx, q->var2);
        return h2 && h->storage >= 0 && h2->storage >= 0 &&
               (*out = h->storage == h2->storage, true);
    }
    default: return false;
    }
}

bool an_eval(an_ctx *cx, const ir_expr *e, int64_t *out)
{
    ir_env env = {env_var, env_query, env_place, cx, an_ptr_compare};
    return e && ir_expr_eval(e, &env, out);
}

int an_tensor_of(an_ctx *cx, int var)
{
    if (var == IR_UNKNOWN_TENSOR || var == IR_NO_VAR)
        return AN_UNKNOWN;
    if (var == IR_NULL_TENSOR)
        return AN_UNSET;
    return *an_tensor_slot(cx, var);
}

/* The state of one call being executed. */
typedef struct call_args {
    mt_call mc;
    int handle[TL_MAX_LIST];
    int n_handles;
    bool known;       /* every argument known */
    bool poison;      /* an operand is poison or released: stay silent */
    bool storage_unknown; /* some operand's storage cannot be followed */
    int too_many;         /* a tl_ints literal with more than TL_MAX_DIMS values: how many */
    unsigned unknown_ints; /* bit k: integer argument k (mc.i[k]) is not known */
    bool other_unknown;   /* an argument that is not an integer is not known */
    bool offset_unknown;  /* an operand's offset is not known (its layout is otherwise) */
    const char *why;  /* first unknown argument's reason */
} call_args;

static const char *var_name(an_ctx *cx, int var)
{
    return var >= 0 ? cx->u->vars[var].name : "NULL";
}

/* A tensor operand: checks use after release and NULL. */
static void tensor_arg(an_ctx *cx, const ir_stmt *s, call_args *a, int var)
{
    int h = an_tensor_of(cx, var);
    int k = a->n_handles++;
    a->handle[k] = h;
    if (h == AN_UNKNOWN || h == AN_UNSET) {
        a->known = false;
        a->other_unknown = true;
        a->why = a->why ? a->why
                 : h == AN_UNSET ? an_strfmt("%s holds no tensor here", var_name(cx, var))
                                 : an_strfmt("%s cannot be followed", var_name(cx, var));
        return;
    }
    an_handle *hd = &cx->handles[h];
    if (hd->released) {
        an_diag *d = an_diag_add(cx, AN_ERROR, "use-after-release", s->loc.line, s->loc.col,
                                 "tl_%s uses '%s' after it was released", mt_ops[s->call.op].name,
                                 var_name(cx, var));
        (void)d;
        a->poison = true;
    }
    a->poison = a->poison || hd->poison;
    if (!hd->known && !a->why)
        a->why = an_strfmt("the layout of %s is unknown", var_name(cx, var));
    a->other_unknown = a->other_unknown || !hd->known;
    a->offset_unknown = a->offset_unknown || hd->offset_unknown;
    a->known = a->known && hd->known;
    if (hd->storage >= 0 && hd->known) { /* a view's, after an out= resize grew the storage */
        const an_storage *st = &cx->r->storages[hd->storage];
        if (st->nbytes >= 0)
            hd->l.storage_nbytes = st->external ? st->external_nbytes : st->nbytes;
        a->mc.external[k] = st->external;
    }
    a->mc.in[k] = &hd->l;
    a->mc.storage[k] = hd->storage;
    a->storage_unknown = a->storage_unknown || hd->storage < 0;
}

static void int_arg(an_ctx *cx, call_args *a, const ir_expr *e, int64_t *out)
{
    if (an_eval(cx, e, out))
        return;
    a->known = false;
    if (!a->why)
        a->why = an_strfmt("an argument is not known statically%s%s",
                           e && e->kind == IR_EXPR_UNKNOWN ? ": " : "",
                           e && e->kind == IR_EXPR_UNKNOWN && e->reason ? e->reason : "");
}

/* A tl_ints object in memory: its count, then its values. */
static void ints_in_place(an_ctx *cx, call_args *a, const ir_arg *arg, tl_ints *out)
{
    an_loc l, f;
    int64_t n, v;
    const char *why = NULL;
    out->n = 0;
    if (!an_place_loc(cx, arg->place, &l, NULL, &why) || l.n + 2 > AN_MAX_PATH) {
        a->known = false;
        a->why = a->why ? a->why : an_strfmt("a shape is not known: %s", why ? why : arg->place->text);
        return;
    }
    f = l;
    f.key[f.n++] = arg->key_n;
    if (!an_mem_int(cx, &f, &n) || n < 0 || n > TL_MAX_DIMS) {
        a->known = false;
        a->why = a->why ? a->why : an_strfmt("the count of %s is not known", arg->place->text);
        return;
    }
    out->n = (int)n;
    f = l;
    f.key[f.n++] = arg->key_v;
    f.n++;
    for (int k = 0; k < out->n; k++) {
        f.key[f.n - 1] = k;
        if (an_mem_int(cx, &f, &v)) {
            out->v[k] = v;
        } else {
            a->known = false;
            a->why = a->why ? a->why : an_strfmt("a value of %s is not known", arg->place->text);
        }
    }
}

static void ints_arg(an_ctx *cx, call_args *a, const ir_arg *arg, tl_ints *out)
{
    if (arg->n == IR_INTS_IN_PLACE) {
        ints_in_place(cx, a, arg, out);
        return;
    }
    out->n = arg->n < 0 ? 0 : arg->n;
    if (arg->n > TL_MAX_DIMS) { /* the runtime rejects it: an error, not an unknown */
        a->too_many = arg->n;
        out->n = 0;
        return;
    }
    if (arg->n < 0) {
        a->known = false;
        a->why = a->why ? a->why : an_strfmt("a shape is not known: %s",
                                             arg->reason ? arg->reason : "not a TL_SHAPE literal");
        out->n = 0;
        return;
    }
    for (int k = 0; k < arg->n; k++)
        int_arg(cx, a, arg->exprs[k], &out->v[k]);
}

static void collect_args(an_ctx *cx, const ir_stmt *s, call_args *a)
{
    int ni = 0, ns = 0;
    int64_t v;
    memset(a, 0, sizeof *a);
    a->known = true;
    a->mc.op = s->call.op;
    for (int k = 0; k < s->call.n_args; k++) {
        const ir_arg *arg = &s->call.args[k];
        switch (arg->kind) {
        case IR_ARG_TENSOR: tensor_arg(cx, s, a, arg->var); break;
        case IR_ARG_LIST:
            if (arg->n < 0) {
                a->known = false;
                a->other_unknown = true;
                a->why = a->why ? a->why : an_strdup("the tensor list is not a TL_LIST literal");
            }
            for (int j = 0; j < arg->n && j < TL_MAX_LIST; j++)
                tensor_arg(cx, s, a, arg->vars[j]);
            break;
        case IR_ARG_INTS: {
            bool before = a->known;
            ints_arg(cx, a, arg, &a->mc.s[ns++ & 1]);
            a->other_unknown = a->other_unknown || (before && !a->known);
            break;
        }
        case IR_ARG_INT: {
            bool before = a->known;
            int k = ni++ & 3;
            int_arg(cx, a, arg->expr, &a->mc.i[k]);
            if (before && !a->known)
                a->unknown_ints |= 1u << k;
            else if (!an_eval(cx, arg->expr, &v))
                a->unknown_ints |= 1u << k;
            break;
        }
        case IR_ARG_BOOL: int_arg(cx, a, arg->expr, &v); a->mc.b = v != 0;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_DOUBLE: a->mc.f = arg->value; break;
        case IR_ARG_DTYPE: int_arg(cx, a, arg->expr, &v); a->mc.dtype = (tl_dtype)v;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_DEVICE: int_arg(cx, a, arg->expr, &v); a->mc.device = (tl_device)v;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_FORMAT: int_arg(cx, a, arg->expr, &v); a->mc.format = (tl_format)v;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_PTR: break; /* host memory: no data is needed */
        }
    }
    a->mc.n_in = a->n_handles;
    a->mc.has_storage_ids = !a->storage_unknown;
}

const char *an_status_check(tl_status s)
{
    switch (s) {
    case TL_ERR_INVALID_VIEW: case TL_ERR_BAD_DIM: return "invalid-view";
    case TL_ERR_SHAPE_MISMATCH: return "shape-mismatch";
    case TL_ERR_DTYPE_MISMATCH: return "dtype-mismatch";
    case TL_ERR_OVERLAPPING_WRITE: return "overlapping-write";
    case TL_ERR_RELEASED: return "use-after-release";
    case TL_ERR_DEVICE: return "device-mismatch";
    case TL_ERR_OUT_OF_MEMORY: return "byte-overflow";
    default: return "invalid-argument";
    }
}

/* Assign handle h to the call's result variable; the handle it held may be lost. */
static void bind_result(an_ctx *cx, const ir_stmt *s, int h)
{
    int var = s->call.result;
    if (var < 0)
        return;
    int *slot = an_tensor_slot(cx, var);
    int old = *slot;
    *slot = h;
    an_handle_dropped(cx, old, var, s->loc.line, s->loc.col, "overwritten");
}

static void log_call(an_ctx *cx, const ir_stmt *s, const call_args *a, int value, int storage,
                     int64_t moved, bool error)
{
    an_event *e = an_event_push(cx, AN_EV_CALL, s->loc.line, s->loc.col);
    if (!e)
        return;
    e->op = s->call.op;
    e->stmt = s->call.stmt;
    e->value = value;
    e->n_in = a->n_handles;
    e->storage = storage;
    e->moved_bytes = moved;
    e->error = error;
    e->poison = a->poison;
    for (int k = 0; k < a->n_handles && k < AN_EV_MAX_IN; k++) {
        int h = a->handle[k];
        e->in_value[k] = h >= 0 ? cx->handles[h].value : -1;
        e->in_storage[k] = h >= 0 ? cx->handles[h].storage : -1;
        e->in_offset[k] = h >= 0 && cx->handles[h].known && !cx->handles[h].offset_unknown
                              ? cx->handles[h].l.offset : -1;
    }
}

static void record_value(an_ctx *cx, int value, const an_handle *h, const mt_result *r,
                         const call_args *a, const char *why)
{
    an_value *v = &cx->r->values[value];
    if (v->n_exec++ > 0)
        return;
    v->executed = true;
    v->known = h->known;
    v->offset_unknown = h->offset_unknown;
    v->error = h->poison;
    v->l = h->l;
    v->storage = h->storage;
    v->kind = r ? r->kind : MT_KIND_NEW;
    if (r && r->kind == MT_KIND_VIEW && a->handle[r->view_of] >= 0)
        v->view_of = cx->handles[a->handle[r->view_of]].value;
    v->bytes_moved = r ? r->read_bytes + r->written_bytes : 0;
    v->reason = an_strdup(r && h->known ? r->msg : why);
}

/* The device of the first operand that can be followed, else the call's device argument. */
static tl_device operand_device(const an_ctx *cx, const call_args *a)
{
    for (int k = 0; k < a->n_handles; k++)
        if (a->handle[k] >= 0 && cx->handles[a->handle[k]].known)
            return cx->handles[a->handle[k]].l.device;
    return a->mc.device;
}

/* The result of a call whose arguments are not all known. */
static an_handle unknown_result(an_ctx *cx, const ir_stmt *s, const call_args *a, int value,
                                mt_result *r)
{
    an_handle h = {.storage = -1, .value = value, .poison = a->poison};
    mt_family fam = mt_ops[s->call.op].family;
    memset(r, 0, sizeof *r);
    r->kind = fam == MT_INPLACE || fam == MT_ACCESS ? MT_KIND_INPLACE : MT_KIND_NEW;
    if (fam == MT_VIEW && a->handle[0] >= 0) {
        h.storage = cx->handles[a->handle[0]].storage;
        r->kind = MT_KIND_VIEW;
    } else if (!a->poison && (fam == MT_CREATE || fam == MT_COPY || fam == MT_COMPUTE)) {
        h.storage = an_storage_new(cx, an_top(cx)->func, value, s->loc.line, s->loc.col,
                                   operand_device(cx, a), -1);
    }
    return h;
}

static an_handle known_result(an_ctx *cx, const ir_stmt *s, const call_args *a, int value,
                              const mt_result *r)
{
    an_handle h = {.known = true, .l = r->out, .storage = -1, .value = value};
    if (r->kind == MT_KIND_VIEW)
        h.storage = cx->handles[a->handle[r->view_of]].storage;
    else if (r->kind == MT_KIND_NEW)
        h.storage = an_storage_new(cx, an_top(cx)->func, value, s->loc.line, s->loc.col,
                                   r->out.device, r->alloc_nbytes);
    if (r->kind == MT_KIND_NEW && r->external) {
        cx->r->storages[h.storage].external = true;
        cx->r->storages[h.storage].external_nbytes = r->out.storage_nbytes;
    }
    if (r->kind == MT_KIND_INPLACE && r->resized && a->handle[0] >= 0) {
        /* out= resized: the handle takes its new layout, its storage grows */
        an_handle *o = &cx->handles[a->handle[0]];
        an_storage_grow(cx, o->storage, r->grow_nbytes);
        o->l = r->out;
    }
    return h;
}

static bool same_but_offset(const mt_result *x, const mt_result *y)
{
    const mt_layout *a = &x->out, *b = &y->out;
    if (x->kind != y->kind || a->ndim != b->ndim || a->dtype != b->dtype || a->device != b->device)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return false;
    return true;
}

/* A view whose only unknown arguments are integers that move its start
 * (select's index, narrow's start): run the rule at two values; when
 * everything but the offset agrees, the result is known but its offset.
 * Returns true and fills *r when so. */
static bool view_with_unknown_offset(call_args *a, mt_op op, mt_result *r)
{
    mt_result r2;
    if (mt_ops[op].family != MT_VIEW || a->other_unknown || a->poison || !a->unknown_ints)
        return false;
    mt_call c2 = a->mc;
    for (int k = 0; k < 4; k++)
        if (a->unknown_ints & (1u << k)) {
            a->mc.i[k] = 1;
            c2.i[k] = 2;
        }
    if (mt_run(&a->mc, r) != TL_OK || mt_run(&c2, &r2) != TL_OK || r->kind != MT_KIND_VIEW ||
        !same_but_offset(r, &r2))
        return false;
    snprintf(r->msg, sizeof r->msg, "%s: the offset depends on an index not known statically",
             mt_ops[op].name);
    return true;
}

static void report_error(an_ctx *cx, const ir_stmt *s, const mt_result *r)
{
    an_diag_add(cx, AN_ERROR, an_status_check(r->status), s->loc.line, s->loc.col, "tl_%s: %s",
                mt_ops[s->call.op].name, r->msg);
}

static bool op_returns_tensor(mt_op op)
{
    mt_family f = mt_ops[op].family;
    return f != MT_INPLACE && f != MT_ACCESS && f != MT_RELEASE;
}

void an_exec_call(an_ctx *cx, const ir_stmt *s)
{
    call_args a;
    mt_result r;
    int value = an_site_get(cx, s);
    an_handle h;
    bool failed = false;
    collect_args(cx, s, &a);
    cx->n_calls++;
    if (a.too_many && !a.poison) {
        an_diag_add(cx, AN_ERROR, "invalid-argument", s->loc.line, s->loc.col,
                    "tl_%s: a tl_ints holds 0 to %d values, not %d", mt_ops[s->call.op].name,
                    TL_MAX_DIMS, a.too_many);
        failed = true;
        h = (an_handle){.poison = true, .storage = -1, .value = value};
        memset(&r, 0, sizeof r);
    } else if (!a.known && view_with_unknown_offset(&a, s->call.op, &r)) {
        h = known_result(cx, s, &a, value, &r);
        h.offset_unknown = true;
        a.known = true;
    } else if (!a.known || a.poison) {
        h = unknown_result(cx, s, &a, value, &r);
    } else if (mt_run(&a.mc, &r) != TL_OK) {
        report_error(cx, s, &r);
        failed = true;
        h = (an_handle){.poison = true, .storage = -1, .value = value};
    } else {
        h = known_result(cx, s, &a, value, &r);
        h.offset_unknown = r.kind == MT_KIND_VIEW && a.offset_unknown;
    }
    if (op_returns_tensor(s->call.op)) {
        int idx = an_handle_new(cx, &h);
        if (h.storage >= 0)
            cx->refs[h.storage]++;
        bind_result(cx, s, idx);
    }
    if (value >= 0)
        record_value(cx, value, &h, h.known ? &r : NULL, &a,
                     a.poison ? "an operand is the result of an error or was released"
                     : a.why ? a.why : r.msg);
    int64_t moved = h.known || (!a.poison && a.known) ? r.read_bytes + r.written_bytes : 0;
    an_account_moved(cx, moved);
    int written = op_returns_tensor(s->call.op) ? h.storage
                  : a.n_handles > 0 && a.handle[0] >= 0 ? cx->handles[a.handle[0]].storage : -1;
    log_call(cx, s, &a, value, written, moved, failed);
    if (h.known && r.resized && cx->r->n_events > 0 && cx->log_events) {
        an_event *e = &cx->r->events[cx->r->n_events - 1];
        if (e->kind == AN_EV_CALL && e->line == s->loc.line && e->col == s->loc.col) {
            e->resized = true;
            e->grown_bytes = r.grow_nbytes;
        }
    }
    free((void *)a.why);
}

void an_exec_release(an_ctx *cx, const ir_stmt *s)
{
    int var = s->release.var;
    int h = an_tensor_of(cx, var);
    if (h < 0)
        return;
    an_handle *hd = &cx->handles[h];
    if (hd->released) {
        an_diag_add(cx, AN_ERROR, "double-release", s->loc.line, s->loc.col,
                    "'%s' is released twice", var_name(cx, var));
        return;
    }
    hd->released = true;
    bool was_live = hd->storage >= 0 && cx->live_storage[hd->storage];
    an_storage_unref(cx, hd->storage, an_top(cx)->func, s->loc.line, s->loc.col);
    an_event *e = an_event_push(cx, AN_EV_RELEASE, s->loc.line, s->loc.col);
    if (!e)
        return;
    e->op = MT_OP_release;
    e->storage = hd->storage;
    e->handle_value = hd->value;
    e->var = var;
    e->freed = was_live && !cx->live_storage[hd->storage];
}
