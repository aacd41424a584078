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

/* Elements past its offset a layout reaches (-1: none, -2: a negative stride). */
static int64_t layout_reach(const mt_layout *l);

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
    if (h < 0 || cx->tens.handles[h].released || !cx->tens.handles[h].known)
        return NULL;
    return &cx->tens.handles[h];
}

/* a == b on two handles: one handle is one pointer; two handles that are
 * live, each standing for one tensor of the run, are two (every call that
 * returns a handle returns a new one).  Not known where a handle may stand
 * for another at run time (an_handle.ident_unsure: two arms or iterations
 * joined), for an element of a segment (each read a handle of its own), or
 * for a released tensor (its memory may be another's now). */
static bool same_handle(an_ctx *cx, const ir_expr *q, int64_t *out)
{
    int a = an_tensor_of(cx, q->var), b = an_tensor_of(cx, q->var2);
    if (a == AN_UNKNOWN || b == AN_UNKNOWN)
        return false;
    if (a == AN_UNSET || b == AN_UNSET) { /* null: equal only to null */
        *out = a == b;
        return true;
    }
    const an_handle *x = &cx->tens.handles[a], *y = &cx->tens.handles[b];
    if (x->ident_unsure || y->ident_unsure || x->seg_elem || y->seg_elem)
        return false;
    if (a == b) {
        *out = 1;
        return true;
    }
    if (x->released || y->released)
        return false;
    *out = 0;
    return true;
}

static bool env_query(void *ctx, const ir_expr *q, int64_t *out)
{
    an_ctx *cx = ctx;
    if (q->kind == IR_EXPR_SAME_HANDLE)
        return same_handle(cx, q, out);
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

/* How many symbols of this root are named name (or name#k): its counter. */
static int *symbol_count(an_ctx *cx, const char *name)
{
    if (2 * (cx->sym.n_names + 1) > cx->sym.cap) { /* grow and rehash */
        int cap = cx->sym.cap ? 2 * cx->sym.cap : 64;
        char **names = tl_xcalloc((size_t)cap, sizeof *names);
        int *counts = tl_xcalloc((size_t)cap, sizeof *counts);
        for (int k = 0; k < cx->sym.cap; k++) {
            if (!cx->sym.names[k])
                continue;
            size_t h = an_hash_str(cx->sym.names[k]) & (size_t)(cap - 1);
            while (names[h])
                h = (h + 1) & (size_t)(cap - 1);
            names[h] = cx->sym.names[k];
            counts[h] = cx->sym.counts[k];
        }
        free(cx->sym.names);
        free(cx->sym.counts);
        cx->sym.names = names;
        cx->sym.counts = counts;
        cx->sym.cap = cap;
    }
    size_t h = an_hash_str(name) & (size_t)(cx->sym.cap - 1);
    while (cx->sym.names[h] && strcmp(cx->sym.names[h], name) != 0)
        h = (h + 1) & (size_t)(cx->sym.cap - 1);
    if (!cx->sym.names[h]) {
        cx->sym.names[h] = tl_xstrdup(name);
        cx->sym.n_names++;
    }
    return &cx->sym.counts[h];
}

an_sym_mark an_symbol_names_mark(const an_ctx *cx)
{
    an_sym_mark m = {.n = 0, .names = NULL, .counts = NULL, .n_symbols = sx_n_symbols()};
    if (cx->sym.n_names == 0)
        return m;
    m.names = tl_xmalloc(sizeof *m.names * (size_t)cx->sym.n_names);
    m.counts = tl_xmalloc(sizeof *m.counts * (size_t)cx->sym.n_names);
    for (int k = 0; k < cx->sym.cap; k++)
        if (cx->sym.names[k]) {
            m.names[m.n] = cx->sym.names[k];
            m.counts[m.n++] = cx->sym.counts[k];
        }
    return m;
}

void an_symbol_names_back(an_ctx *cx, an_sym_mark *m)
{
    for (int k = 0; k < cx->sym.cap; k++)
        cx->sym.counts[k] = 0;
    for (int k = 0; k < m->n; k++)
        *symbol_count(cx, m->names[k]) = m->counts[k]; /* (names are never removed) */
    /* the symbols made since are undone with their names: listed no more (a
     * name given again is another symbol's), unless a formula names them */
    sx_symbols_unuse(m->n_symbols);
    an_symbol_names_unmark(m);
}

void an_symbol_names_unmark(an_sym_mark *m)
{
    free(m->names);
    free(m->counts);
    *m = (an_sym_mark){0, NULL, NULL, 0};
}

void an_symbol_names_clear(an_ctx *cx)
{
    for (int k = 0; k < cx->sym.cap; k++)
        free(cx->sym.names[k]);
    free(cx->sym.names);
    free(cx->sym.counts);
    cx->sym.names = NULL;
    cx->sym.counts = NULL;
    cx->sym.cap = cx->sym.n_names = 0;
}

/* The value --bind gives name: true, and the bind is marked as met. */
static bool bound_value(an_ctx *cx, const char *name, int64_t *v)
{
    for (int k = 0; k < cx->opt.n_binds; k++)
        if (strcmp(cx->opt.bind_names[k], name) == 0) {
            if (cx->sym.bind_used)
                cx->sym.bind_used[k] = true;
            *v = cx->opt.bind_values[k];
            return true;
        }
    return false;
}

/* name, or name#k for the k-th symbol of that spelling in this root (a
 * value read again after it changed; another root's parameter n is its own
 * n).  Counted whether or not --bind gives it a value; with --bind, a name
 * the analysis without gave another origin is passed over. */
static const char *unique_name(an_ctx *cx, const char *name, char *buf, size_t size)
{
    for (;;) {
        int same = (*symbol_count(cx, name))++;
        const char *s = name;
        if (same > 0) {
            snprintf(buf, size, "%s#%d", name, same + 1);
            s = buf;
        }
        bool taken = false;
        const an_name_map *m = cx->sym.names_from;
        for (int k = 0; m && k < m->n && !taken; k++)
            taken = m->roots[k] == cx->ctl.root && strcmp(m->names[k], s) == 0;
        if (!taken)
            return s;
    }
}

static void grow_per_symbol(void **a, int *cap, size_t elem, int sym)
{
    if (sym < *cap)
        return;
    int n = *cap ? 2 * *cap : 64;
    while (n <= sym)
        n *= 2;
    *a = tl_xreallocarray(*a, (size_t)n, elem);
    memset((char *)*a + elem * (size_t)*cap, 0, elem * (size_t)(n - *cap));
    *cap = n;
}

static void mark_local(an_ctx *cx, int sym, bool local)
{
    if (sym < 0)
        return;
    grow_per_symbol((void **)&cx->sym.local, &cx->sym.cap_local, sizeof *cx->sym.local, sym);
    cx->sym.local[sym] = local;
}

/* The origin of the next symbol spelled name made at line:col: the root,
 * the site, the spelling and how many of them the site made before on this
 * path (counted with the spellings, so given back with them). */
static void origin_key(an_ctx *cx, const char *name, int line, int col, char *key, size_t size)
{
    snprintf(key, size, "\x01%d:%d:%s", line, col, name);
    int nth = ++*symbol_count(cx, key);
    snprintf(key, size, "%d:%d:%d:%s#%d", cx->ctl.root, line, col, name, nth);
}

/* The name the analysis without --bind gave the symbol of that origin, or NULL. */
static const char *name_given(const an_ctx *cx, const char *key)
{
    const an_name_map *m = cx->sym.names_from;
    for (int k = 0; m && k < m->n; k++)
        if (strcmp(m->origins[k], key) == 0)
            return m->names[k];
    return NULL;
}

/* Is the function running now a helper (not the root)? */
static bool in_helper(an_ctx *cx) { return cx->ctl.depth > 0 && an_top(cx)->func != cx->ctl.root; }

/* A symbol named name made at line:col, its origin keyed at the site
 * (site: "", line:col) or at the variable whose unknown value it is (site:
 * "var", the variable's declaration): such a symbol is made where the value
 * is first read, and which read is first depends on the path. */
static sx_int new_symbol_keyed(an_ctx *cx, const char *name, const char *origin, int line, int col,
                               const char *site, ir_loc at, bool value, bool local)
{
    char buf[300], key[400], spelling[300];
    int64_t b;
    snprintf(spelling, sizeof spelling, "%s%s%s", site, *site ? " " : "", name);
    origin_key(cx, spelling, at.line, at.col, key, sizeof key);
    const char *given = name_given(cx, key);
    const char *spelled = given ? given : unique_name(cx, name, buf, sizeof buf);
    if (bound_value(cx, spelled, &b))
        return (sx_int){b, 0};
    sx_int s = value ? sx_symbol_value(spelled, origin, line, col)
                     : sx_symbol(spelled, origin, line, col);
    int sym = sx_symbol_of(s);
    if (local && !given) /* (a name given is final: returning the value renames nothing) */
        mark_local(cx, sym, true);
    if (sym >= 0) {
        grow_per_symbol((void **)&cx->sym.origin, &cx->sym.cap_origin, sizeof *cx->sym.origin,
                        sym);
        free(cx->sym.origin[sym]);
        cx->sym.origin[sym] = tl_xstrdup(key);
    }
    return s;
}

static sx_int new_symbol(an_ctx *cx, const char *name, const char *origin, int line, int col,
                         bool value, bool local)
{
    return new_symbol_keyed(cx, name, origin, line, col, "", (ir_loc){.line = line, .col = col},
                            value, local);
}

void an_symbol_names_harvest(an_ctx *cx, an_name_map *m)
{
    for (int k = 0; k < cx->sym.cap_origin && k < sx_n_symbols(); k++) {
        if (!cx->sym.origin[k])
            continue;
        if (m->n == m->cap) {
            m->cap = m->cap ? 2 * m->cap : 16;
            m->roots = tl_xreallocarray(m->roots, (size_t)m->cap, sizeof *m->roots);
            m->origins = tl_xreallocarray(m->origins, (size_t)m->cap, sizeof *m->origins);
            m->names = tl_xreallocarray(m->names, (size_t)m->cap, sizeof *m->names);
        }
        m->roots[m->n] = atoi(cx->sym.origin[k]); /* (the key begins with its root) */
        m->origins[m->n] = tl_xstrdup(cx->sym.origin[k]);
        m->names[m->n++] = tl_xstrdup(sx_symbol_name(k));
    }
}
sx_int an_new_symbol(an_ctx *cx, const char *name, const char *origin, int line, int col)
{
    return new_symbol(cx, name, origin, line, col, false, false);
}

sx_int an_new_value_symbol(an_ctx *cx, const char *name, const char *origin, int line, int col)
{
    return new_symbol(cx, name, origin, line, col, true, false);
}

/* A symbol a helper made and named after its own local (`int v = atoi(s);
 * return v;`), returned to the caller's variable name: named after that
 * from here on (`int rows = env_int("ROWS", 4), cols = env_int("COLS", 8);`
 * gives rows and cols, not v and v#2), or its --bind value.  (With --bind,
 * the symbol has the name already: the one its origin had without.) */
static void name_returned(an_ctx *cx, const char *name, sx_int *v)
{
    int sym = sx_symbol_of(*v);
    if (!name || sym < 0 || sym >= cx->sym.cap_local || !cx->sym.local[sym])
        return;
    char buf[300];
    int64_t b;
    const char *spelled = unique_name(cx, name, buf, sizeof buf);
    mark_local(cx, sym, in_helper(cx));
    sx_symbol_rename(sym, spelled);
    if (bound_value(cx, spelled, &b))
        *v = (sx_int){b, 0};
}

void an_name_map_free(an_name_map *m)
{
    for (int k = 0; k < m->n; k++) {
        free(m->origins[k]);
        free(m->names[k]);
    }
    free(m->roots);
    free(m->origins);
    free(m->names);
    *m = (an_name_map){0, 0, NULL, NULL, NULL};
}

void an_symbol_origins_free(an_ctx *cx)
{
    for (int k = 0; k < cx->sym.cap_origin; k++)
        free(cx->sym.origin[k]);
    free(cx->sym.origin);
    cx->sym.origin = NULL;
    cx->sym.cap_origin = 0;
}

/* "atoi" from "call of atoi()", "fread" from "cfg written by fread()". */
static const char *origin_of(const char *reason, char *buf, size_t size)
{
    const char *p = reason ? strstr(reason, "call of ") : NULL;
    p = p ? p + 8 : reason ? strstr(reason, "by ") : NULL;
    if (p && reason && p == strstr(reason, "by "))
        p += 3;
    if (!p)
        return "run time";
    size_t n = strcspn(p, "( ");
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
    return buf;
}

static bool sx_of_var(an_ctx *cx, int var, int line, int col, sx_int *out)
{
    bool *known;
    if (var < 0)
        return false;
    int64_t *v = an_int_slot(cx, var, &known);
    if (an_int_get(*known, *v, out))
        return true;
    /* an integer variable with no known value: from here on, the symbol named after it */
    const ir_var *iv = &cx->u->vars[var];
    int64_t token = *v < 0 ? *v : 0;
    /* (a join of values one of which may be below 1 is no size: no floor) */
    *out = iv->is_param ? an_new_symbol(cx, iv->name, "parameter", iv->loc.line, iv->loc.col)
                        : new_symbol_keyed(cx, iv->name, "run time", line, col, "var", iv->loc,
                                           an_token_floorless(cx, token), in_helper(cx));
    if (token && -token <= cx->sym.n_unknown_tokens) { /* the value every read of it is */
        int t = (int)-token, cap = cx->sym.cap_tokens;
        grow_per_symbol((void **)&cx->sym.token_value, &cx->sym.cap_tokens,
                        sizeof *cx->sym.token_value, t);
        grow_per_symbol((void **)&cx->sym.token_read, &cap, sizeof *cx->sym.token_read, t);
        cx->sym.token_value[t] = *out;
        cx->sym.token_read[t] = true;
    }
    an_int_put(true, *out, known, v);
    return true;
}

int64_t an_unknown_token(an_ctx *cx) { return -(int64_t)++cx->sym.n_unknown_tokens; }

int64_t an_floorless_token(an_ctx *cx)
{
    int64_t t = an_unknown_token(cx);
    grow_per_symbol((void **)&cx->sym.token_floorless, &cx->sym.cap_floorless,
                    sizeof *cx->sym.token_floorless, (int)-t);
    cx->sym.token_floorless[-t] = true;
    return t;
}

bool an_token_floorless(const an_ctx *cx, int64_t t)
{
    return t < 0 && -t < cx->sym.cap_floorless && cx->sym.token_floorless[-t];
}

bool an_unknown_is(const an_ctx *cx, bool known, int64_t i, int64_t t)
{
    sx_int v;
    if (t >= 0 || -t >= cx->sym.cap_tokens || !an_int_get(known, i, &v))
        return false;
    return cx->sym.token_read[-t] && sx_same(cx->sym.token_value[-t], v);
}

static bool sx_binary(ir_op op, sx_int a, sx_int b, sx_int *out)
{
    bool r;
    switch (op) {
    case IR_OP_ADD: *out = sx_add(a, b); break;
    case IR_OP_SUB: *out = sx_sub(a, b); break;
    case IR_OP_MUL: *out = sx_mul(a, b); break;
    case IR_OP_DIV: case IR_OP_REM:
        /* C truncates; on a >= 0, b > 0 that is the floor the domain has */
        if (!sx_prove(a, SX_GE, (sx_int){0, 0}, &r) || !r ||
            !sx_prove(b, SX_GT, (sx_int){0, 0}, &r) || !r)
            return false;
        *out = op == IR_OP_DIV ? sx_div(a, b) : sx_mod(a, b);
        break;
    case IR_OP_LT: case IR_OP_LE: case IR_OP_GT: case IR_OP_GE: case IR_OP_EQ: case IR_OP_NE: {
        static const sx_rel rel[] = {[IR_OP_LT] = SX_LT, [IR_OP_LE] = SX_LE, [IR_OP_GT] = SX_GT,
                                     [IR_OP_GE] = SX_GE, [IR_OP_EQ] = SX_EQ, [IR_OP_NE] = SX_NE};
        if (!sx_prove(a, rel[op], b, &r))
            return false; /* a condition on a symbol: the branch is not known */
        sx_sizes_of(a); /* decided by their being sizes (>= 1): listed, with that */
        sx_sizes_of(b);
        *out = (sx_int){r, 0};
        return true;
    }
    default: return false;
    }
    return out->e != SX_TOO_BIG;
}

/* `x < y ? x : y` and its kin, on a condition the sizes do not decide: the
 * min or max of the two (a clamp written as an expression). */
static bool select_sx(an_ctx *cx, const ir_expr *e, sx_int *out)
{
    const ir_expr *c = e->a;
    sx_int x, y, t, f;
    if (!c || c->kind != IR_EXPR_BINARY ||
        (c->op != IR_OP_LT && c->op != IR_OP_LE && c->op != IR_OP_GT && c->op != IR_OP_GE) ||
        !an_eval_sx(cx, c->a, &x) || !an_eval_sx(cx, c->b, &y) || !an_eval_sx(cx, e->b, &t) ||
        !an_eval_sx(cx, e->c, &f))
        return false;
    bool less = c->op == IR_OP_LT || c->op == IR_OP_LE; /* the true arm is taken when x is smaller */
    if (sx_same(t, x) && sx_same(f, y))
        *out = less ? sx_min(x, y) : sx_max(x, y);
    else if (sx_same(t, y) && sx_same(f, x))
        *out = less ? sx_max(x, y) : sx_min(x, y);
    else
        return false;
    return out->e != SX_TOO_BIG;
}

bool an_eval_sx(an_ctx *cx, const ir_expr *e, sx_int *out)
{
    sx_int a, b;
    int64_t v;
    if (!e)
        return false;
    switch (e->kind) {
    case IR_EXPR_VAR: return sx_of_var(cx, e->var, e->loc.line, e->loc.col, out);
    case IR_EXPR_PLACE: {
        an_loc l;
        return an_place_loc(cx, e->place, &l, NULL, NULL) &&
               an_mem_int_sx(cx, &l, e->place, e->loc.line, e->loc.col, out);
    }
    case IR_EXPR_UNARY:
        if (e->op == IR_OP_NEG && an_eval_sx(cx, e->a, &a) && a.e) {
            *out = sx_neg(a);
            return out->e != SX_TOO_BIG;
        }
        break;
    case IR_EXPR_BINARY:
        if (e->op == IR_OP_LAND || e->op == IR_OP_LOR) { /* decided when a side decides it */
            bool is_or = e->op == IR_OP_LOR, ka = an_eval_sx(cx, e->a, &a) && a.e == 0;
            if (ka && (a.c != 0) == is_or) {
                *out = (sx_int){is_or, 0};
                return true;
            }
            bool kb = an_eval_sx(cx, e->b, &b) && b.e == 0;
            if (kb && (b.c != 0) == is_or) {
                *out = (sx_int){is_or, 0};
                return true;
            }
            if (ka && kb) {
                *out = (sx_int){!is_or ? 1 : 0, 0}; /* && of two trues, || of two falses */
                return true;
            }
            return false;
        }
        if (!an_eval_sx(cx, e->a, &a) || !an_eval_sx(cx, e->b, &b))
            return false;
        if (a.e == 0 && b.e == 0) {
            if (!ir_op_binary(e->op, a.c, b.c, &v))
                return false;
            *out = (sx_int){v, 0};
            return true;
        }
        return sx_binary(e->op, a, b, out);
    case IR_EXPR_COND: {
        if (an_eval_sx(cx, e->a, &a) && a.e == 0)
            return an_eval_sx(cx, a.c ? e->b : e->c, out);
        return select_sx(cx, e, out);
    }
    default: break;
    }
    if (!an_eval(cx, e, &v))
        return false;
    *out = (sx_int){v, 0};
    return true;
}

/* The value of an integer assigned from e: known, symbolic, or (an unknown
 * value from a call or a read) a new symbol named name. */
static bool eval_assigned(an_ctx *cx, const ir_expr *e, const char *name, sx_int *out)
{
    if (e && name && e->kind == IR_EXPR_VAR && e->var >= 0 && cx->u->vars[e->var].is_temp) {
        bool *known; /* what a call not followed returned: a symbol named after its place */
        int64_t *v = an_int_slot(cx, e->var, &known);
        if (!an_int_get(*known, *v, out)) {
            *out = new_symbol(cx, name, "run time", e->loc.line, e->loc.col, false, in_helper(cx));
            an_int_put(true, *out, known, v);
            return true;
        }
        name_returned(cx, name, out);
        an_int_put(true, *out, known, v);
        return true;
    }
    if (an_eval_sx(cx, e, out))
        return true;
    if (!e || !name || e->kind != IR_EXPR_UNKNOWN)
        return false;
    char buf[64];
    *out = new_symbol(cx, name, origin_of(e->reason, buf, sizeof buf), e->loc.line, e->loc.col,
                      false, in_helper(cx));
    return true;
}

void an_assign_int(an_ctx *cx, const ir_expr *e, const char *name, bool *known, int64_t *i)
{
    sx_int v;
    bool ok = eval_assigned(cx, e, name, &v);
    an_int_put(ok, v, known, i);
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
    bool symbolic;    /* some argument is symbolic (known is false then) */
    bool sym_ok;      /* every argument is known or symbolic: sc can run */
    an_scall sc;      /* the call over symbolic integers */
} call_args;

static const char *var_name(an_ctx *cx, int var)
{
    return var >= 0 ? cx->u->vars[var].name : "NULL";
}

void an_sl_of_layout(const mt_layout *l, an_slayout *out)
{
    memset(out, 0, sizeof *out);
    out->ndim = l->ndim;
    for (int d = 0; d < l->ndim; d++) {
        out->shape[d] = (sx_int){l->shape[d], 0};
        out->strides[d] = (sx_int){l->strides[d], 0};
    }
    out->offset = (sx_int){l->offset, 0};
    out->dtype = l->dtype;
    out->device = l->device;
    out->storage_nbytes = (sx_int){l->storage_nbytes, 0};
    out->contiguous = mt_is_contiguous(l);
}

/* A tensor operand: checks use after release and NULL. */
static void tensor_arg(an_ctx *cx, const ir_stmt *s, call_args *a, int var)
{
    int h = an_tensor_of(cx, var);
    int k = a->n_handles++;
    a->handle[k] = h;
    if (h == AN_UNSET && an_uninit_use(cx, s, var))
        a->poison = true; /* (the error is said: the call's result stays silent) */
    if (h == AN_UNKNOWN || h == AN_UNSET) {
        a->known = a->sym_ok = false;
        a->other_unknown = true;
        a->why = a->why ? a->why
                 : h == AN_UNSET ? tl_xasprintf("%s holds no tensor here", var_name(cx, var))
                                 : tl_xasprintf("%s cannot be followed", var_name(cx, var));
        return;
    }
    an_handle *hd = &cx->tens.handles[h];
    if (hd->released) {
        an_diag *d = an_diag_add(cx, AN_ERROR, "use-after-release", s->loc.line, s->loc.col,
                                 "tl_%s uses '%s' after it was released", mt_ops[s->call.op].name,
                                 var_name(cx, var));
        (void)d;
        a->poison = true;
    }
    a->poison = a->poison || hd->poison;
    if (hd->known)
        an_sl_of_layout(&hd->l, &a->sc.in[k]);
    else if (hd->sl > 0 && !hd->offset_unknown)
        a->sc.in[k] = cx->r->slayouts[hd->sl - 1];
    else
        a->sym_ok = false;
    a->sc.storage[k] = hd->storage;
    if (!hd->known && hd->sl > 0)
        a->symbolic = true;
    if (!hd->known && !a->why)
        a->why = tl_xasprintf("the layout of %s is unknown", var_name(cx, var));
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

static void int_arg(an_ctx *cx, call_args *a, const ir_expr *e, int64_t *out, sx_int *sx)
{
    if (an_eval(cx, e, out)) {
        if (sx)
            *sx = (sx_int){*out, 0};
        return;
    }
    sx_int v;
    if (an_eval_sx(cx, e, &v) && v.e == 0) { /* read now: a symbol --bind gave a value */
        *out = v.c;
        if (sx)
            *sx = v;
        return;
    }
    a->known = false;
    if (sx && an_eval_sx(cx, e, sx)) { /* a size, not a dtype, device or flag */
        a->symbolic = true;
        *out = 0;
        return;
    }
    a->sym_ok = false;
    if (!a->why)
        a->why = tl_xasprintf("an argument is not known statically%s%s",
                              e && e->kind == IR_EXPR_UNKNOWN ? ": " : "",
                              e && e->kind == IR_EXPR_UNKNOWN && e->reason ? e->reason : "");
}

/* A tl_ints object in memory: its count, then its values. */
static void ints_in_place(an_ctx *cx, call_args *a, const ir_arg *arg, tl_ints *out,
                          an_sints *sx)
{
    an_loc l, f;
    int64_t n, v;
    const char *why = NULL;
    out->n = 0;
    if (!an_place_loc(cx, arg->place, &l, NULL, &why) || l.n + 2 > AN_MAX_PATH) {
        a->known = a->sym_ok = false;
        a->why = a->why ? a->why : tl_xasprintf("a shape is not known: %s", why ? why : arg->place->text);
        return;
    }
    f = l;
    f.key[f.n++] = arg->key_n;
    if (!an_mem_int(cx, &f, &n) || n < 0 || n > TL_MAX_DIMS) {
        a->known = a->sym_ok = false;
        a->why = a->why ? a->why : tl_xasprintf("the count of %s is not known", arg->place->text);
        return;
    }
    out->n = sx->n = (int)n;
    f = l;
    f.key[f.n++] = arg->key_v;
    f.n++;
    for (int k = 0; k < out->n; k++) {
        f.key[f.n - 1] = k;
        if (an_mem_int(cx, &f, &v)) {
            out->v[k] = v;
            sx->v[k] = (sx_int){v, 0};
        } else if (an_mem_int_sx(cx, &f, arg->place, 0, 0, &sx->v[k])) {
            out->v[k] = sx->v[k].c;
            if (sx->v[k].e) {
                a->known = false;
                a->symbolic = true;
            }
        } else {
            a->known = a->sym_ok = false;
            a->why = a->why ? a->why : tl_xasprintf("a value of %s is not known", arg->place->text);
        }
    }
}

static void ints_arg(an_ctx *cx, call_args *a, const ir_arg *arg, tl_ints *out, an_sints *sx)
{
    if (arg->n == IR_INTS_IN_PLACE) {
        ints_in_place(cx, a, arg, out, sx);
        return;
    }
    out->n = sx->n = arg->n < 0 ? 0 : arg->n;
    if (arg->n > TL_MAX_DIMS) { /* the runtime rejects it: an error, not an unknown */
        a->too_many = arg->n;
        out->n = sx->n = 0;
        return;
    }
    if (arg->n < 0) {
        a->known = a->sym_ok = false;
        a->why = a->why ? a->why : tl_xasprintf("a shape is not known: %s",
                                                arg->reason ? arg->reason : "not a TL_SHAPE literal");
        out->n = sx->n = 0;
        return;
    }
    for (int k = 0; k < arg->n; k++)
        int_arg(cx, a, arg->exprs[k], &out->v[k], &sx->v[k]);
}

static void collect_args(an_ctx *cx, const ir_stmt *s, call_args *a)
{
    int ni = 0, ns = 0;
    int64_t v;
    memset(a, 0, sizeof *a);
    a->known = a->sym_ok = true;
    a->mc.op = s->call.op;
    a->sc.op = s->call.op;
    for (int k = 0; k < s->call.n_args; k++) {
        const ir_arg *arg = &s->call.args[k];
        switch (arg->kind) {
        case IR_ARG_TENSOR: tensor_arg(cx, s, a, arg->var); break;
        case IR_ARG_LIST:
            if (arg->n < 0) {
                a->known = a->sym_ok = false;
                a->other_unknown = true;
                a->why = a->why ? a->why : an_strdup("the tensor list is not a TL_LIST literal");
            }
            for (int j = 0; j < arg->n && j < TL_MAX_LIST; j++)
                tensor_arg(cx, s, a, arg->vars[j]);
            break;
        case IR_ARG_INTS: {
            bool before = a->known;
            ints_arg(cx, a, arg, &a->mc.s[ns & 1], &a->sc.s[ns & 1]);
            ns++;
            a->other_unknown = a->other_unknown || (before && !a->known);
            break;
        }
        case IR_ARG_INT: {
            bool before = a->known;
            int k = ni++ & 3;
            int_arg(cx, a, arg->expr, &a->mc.i[k], &a->sc.i[k]);
            if (before && !a->known)
                a->unknown_ints |= 1u << k;
            else if (!an_eval(cx, arg->expr, &v))
                a->unknown_ints |= 1u << k;
            break;
        }
        case IR_ARG_BOOL: int_arg(cx, a, arg->expr, &v, NULL); a->mc.b = v != 0;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_DOUBLE: a->mc.f = arg->value; break;
        case IR_ARG_DTYPE: int_arg(cx, a, arg->expr, &v, NULL); a->mc.dtype = (tl_dtype)v;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_DEVICE: int_arg(cx, a, arg->expr, &v, NULL); a->mc.device = (tl_device)v;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_FORMAT: int_arg(cx, a, arg->expr, &v, NULL); a->mc.format = (tl_format)v;
            a->other_unknown = a->other_unknown || !a->known; break;
        case IR_ARG_PTR: break; /* host memory: no data is needed */
        }
    }
    a->mc.n_in = a->n_handles;
    a->mc.has_storage_ids = !a->storage_unknown;
    /* the symbolic call: the same arguments, sizes as sx_int */
    a->sc.n_in = a->n_handles;
    a->sc.f = a->mc.f;
    a->sc.b = a->mc.b;
    a->sc.dtype = a->mc.dtype;
    a->sc.device = a->mc.device;
    a->sc.format = a->mc.format;
    a->sc.has_storage_ids = a->mc.has_storage_ids;
    memcpy(a->sc.external, a->mc.external, sizeof a->sc.external);
    a->sym_ok = a->sym_ok && a->symbolic && !a->too_many;
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
        e->in_value[k] = h >= 0 ? cx->tens.handles[h].value : -1;
        e->in_storage[k] = h >= 0 ? cx->tens.handles[h].storage : -1;
        e->in_offset[k] = h >= 0 && cx->tens.handles[h].known && !cx->tens.handles[h].offset_unknown
                              ? cx->tens.handles[h].l.offset : -1;
        e->in_reach[k] = e->in_offset[k] >= 0 ? layout_reach(&cx->tens.handles[h].l) : -2;
    }
}

static void record_value(an_ctx *cx, int value, const an_handle *h, const mt_result *r,
                         const call_args *a, const char *why)
{
    an_value *v = &cx->r->values[value];
    an_value_ran(cx, v);
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
        v->view_of = cx->tens.handles[a->handle[r->view_of]].value;
    v->bytes_moved = r ? r->read_bytes + r->written_bytes : 0;
    v->reason = an_strdup(r && h->known ? r->msg : why);
}

/* The device of the first operand that can be followed, else the call's device argument. */
static tl_device operand_device(const an_ctx *cx, const call_args *a)
{
    for (int k = 0; k < a->n_handles; k++)
        if (a->handle[k] >= 0 && cx->tens.handles[a->handle[k]].known)
            return cx->tens.handles[a->handle[k]].l.device;
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
        h.storage = cx->tens.handles[a->handle[0]].storage;
        r->kind = MT_KIND_VIEW;
    } else if (!a->poison && (fam == MT_CREATE || fam == MT_COPY || fam == MT_COMPUTE)) {
        h.storage = an_storage_new(cx, an_top(cx)->func, value, s->loc.line, s->loc.col,
                                   operand_device(cx, a), -1);
    }
    return h;
}

/* Elements past its offset a layout reaches (-1: none); strides are >= 0. */
static int64_t layout_reach(const mt_layout *l)
{
    int64_t reach = 0;
    for (int d = 0; d < l->ndim; d++) {
        if (l->shape[d] == 0)
            return -1;
        if (l->strides[d] < 0)
            return -2;
        reach += (l->shape[d] - 1) * l->strides[d];
    }
    return reach;
}

/* What the op allocates and frees within the call (cross_entropy's
 * log_softmax, a CPU cast of an input): counted in the peak on top of what
 * is live once the result is made, then gone. */
static void account_temp(an_ctx *cx, sx_int temp)
{
    if (temp.e == 0 && temp.c <= 0)
        return;
    if (temp.e == 0) {
        cx->acct.live += temp.c;
        an_account_live(cx);
        cx->acct.live -= temp.c;
        return;
    }
    cx->acct.live_sx = sx_add(cx->acct.live_sx, temp);
    an_account_live(cx);
    cx->acct.live_sx = sx_sub(cx->acct.live_sx, temp);
}

static an_handle known_result(an_ctx *cx, const ir_stmt *s, const call_args *a, int value,
                              const mt_result *r)
{
    an_handle h = {.known = true, .l = r->out, .storage = -1, .value = value};
    if (r->kind == MT_KIND_VIEW)
        h.storage = cx->tens.handles[a->handle[r->view_of]].storage;
    else if (r->kind == MT_KIND_NEW)
        h.storage = an_storage_new(cx, an_top(cx)->func, value, s->loc.line, s->loc.col,
                                   r->out.device, r->alloc_nbytes);
    if (r->kind == MT_KIND_NEW && r->external) {
        cx->r->storages[h.storage].external = true;
        cx->r->storages[h.storage].external_nbytes = r->out.storage_nbytes;
    }
    if (r->kind == MT_KIND_INPLACE && r->resized && a->handle[0] >= 0) {
        /* out= resized: the handle takes its new layout, its storage grows */
        an_handle *o = &cx->tens.handles[a->handle[0]];
        an_storage_grow(cx, o->storage, r->grow_nbytes);
        o->l = r->out;
    }
    account_temp(cx, (sx_int){.c = r->temp_nbytes});
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

/* A call whose sizes are symbolic: the rules' symbolic build gives its
 * result as formulas.  False (nothing done) when the rule needs a value
 * that is a symbol here, or fails for generic sizes: the call is then
 * unknown, as before symbols. */
static bool symbolic_call(an_ctx *cx, const ir_stmt *s, call_args *a, int value, an_handle *h)
{
    an_sresult r;
    sx_clear_failed();
    if (an_sym_run(&a->sc, &r, s->loc.line) != TL_OK || sx_failed()) {
        free((void *)a->why);
        a->why = tl_xasprintf("%s", sx_failed() ? sx_failed_why() : r.msg);
        if (sx_failed()) /* the prover's limits: unknown, said where, never a guess */
            an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                        "tl_%s not followed: %s; its result is not known, and totals that "
                        "depend on it are bounds", mt_ops[s->call.op].name, sx_failed_why());
        return false;
    }
    *h = (an_handle){.storage = -1, .value = value};
    if (r.kind != MT_KIND_NONE && r.kind != MT_KIND_INPLACE)
        h->sl = an_slayout_add(cx, &r.out);
    if (r.kind == MT_KIND_VIEW) {
        h->storage = cx->tens.handles[a->handle[r.view_of]].storage;
    } else if (r.kind == MT_KIND_NEW) {
        h->storage = an_storage_new_sx(cx, an_top(cx)->func, value, s->loc.line, s->loc.col,
                                       r.out.device, r.alloc_nbytes);
        if (r.external) {
            an_storage *st = &cx->r->storages[h->storage];
            st->external = true;
            st->external_nbytes = r.out.storage_nbytes.e ? -1 : r.out.storage_nbytes.c;
            st->external_sx = r.out.storage_nbytes;
            if (st->symbolic) { /* the caller's memory: nothing is allocated or counted */
                st->symbolic = false;
                cx->acct.live_sx = sx_sub(cx->acct.live_sx, st->nbytes_sx);
            }
            st->nbytes = st->block_bytes = st->alloc_bytes = st->made_nbytes = 0;
        }
    } else if (r.kind == MT_KIND_INPLACE && r.resized && a->handle[0] >= 0) {
        an_handle *o = &cx->tens.handles[a->handle[0]]; /* out= resized to a symbolic shape */
        o->known = false;
        o->sl = an_slayout_add(cx, &r.out);
        an_mark_bound(cx);
    }
    account_temp(cx, r.temp_nbytes);
    sx_int moved = sx_add(r.read_bytes, r.written_bytes);
    if (moved.e)
        an_account_moved_sx(cx, moved);
    else
        an_account_moved(cx, moved.c);
    if (value >= 0) {
        an_value *v = &cx->r->values[value];
        an_value_ran(cx, v);
        if (v->n_exec++ == 0) {
            v->executed = true;
            v->known = false;
            v->sl = h->sl;
            v->storage = h->storage;
            v->kind = (mt_kind)r.kind;
            if (r.kind == MT_KIND_VIEW && a->handle[r.view_of] >= 0)
                v->view_of = cx->tens.handles[a->handle[r.view_of]].value;
            v->bytes_moved = moved.e ? -1 : moved.c;
            v->bytes_moved_sx = moved;
            v->reason = an_strdup(r.msg);
        }
    }
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
    bool failed = false, symbolic = false;
    collect_args(cx, s, &a);
    cx->acct.n_calls++;
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
    } else if (!a.known && a.sym_ok && !a.poison && symbolic_call(cx, s, &a, value, &h)) {
        symbolic = true;
        memset(&r, 0, sizeof r);
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
            cx->tens.refs[h.storage]++;
        bind_result(cx, s, idx);
    }
    if (symbolic) { /* recorded by symbolic_call */
        int written = op_returns_tensor(s->call.op) ? h.storage
            : a.n_handles > 0 && a.handle[0] >= 0   ? cx->tens.handles[a.handle[0]].storage
                                                    : -1;
        log_call(cx, s, &a, value, written, 0, false);
        free((void *)a.why);
        return;
    }
    if (value >= 0)
        record_value(cx, value, &h, h.known ? &r : NULL, &a,
                     a.poison ? "an operand is the result of an error or was released"
                     : a.why ? a.why : r.msg);
    int64_t moved = h.known || (!a.poison && a.known) ? r.read_bytes + r.written_bytes : 0;
    an_account_moved(cx, moved);
    int written = op_returns_tensor(s->call.op) ? h.storage
        : a.n_handles > 0 && a.handle[0] >= 0   ? cx->tens.handles[a.handle[0]].storage
                                                : -1;
    log_call(cx, s, &a, value, written, moved, failed);
    if (h.known && r.resized && cx->r->n_events > 0 && cx->out.log_events) {
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
    if (h == AN_UNSET)
        an_uninit_use(cx, s, var);
    if (h < 0)
        return;
    an_handle *hd = &cx->tens.handles[h];
    if (hd->released) {
        an_diag_add(cx, AN_ERROR, "double-release", s->loc.line, s->loc.col,
                    "'%s' is released twice", var_name(cx, var));
        return;
    }
    bool was_live = hd->storage >= 0 && cx->tens.live_storage[hd->storage];
    if (hd->seg_elem) {
        an_seg_release(cx, h, s->loc.line, s->loc.col);
    } else {
        an_settle_peaks(cx); /* the peak's names: the released handle's is one */
        hd->released = true;
        an_storage_unref(cx, hd->storage, an_top(cx)->func, s->loc.line, s->loc.col);
    }
    an_event *e = an_event_push(cx, AN_EV_RELEASE, s->loc.line, s->loc.col);
    if (!e)
        return;
    e->op = MT_OP_release;
    e->storage = hd->storage;
    e->handle_value = hd->value;
    e->var = var;
    e->freed = was_live && !cx->tens.live_storage[hd->storage];
}
