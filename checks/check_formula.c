/*
 * check_formula.c: what the rules need to reason on byte counts that are
 * formulas over sizes known only at run time (docs/symbolic.md).
 *
 * A rule states the conditions it needs (a byte count above a threshold, a
 * view below a fraction of its storage) as comparisons of formulas.  Each
 * is proved for every value of the symbols, refuted for every value, or
 * left undecided; a rule fires when none is refuted, and says "(when ...)"
 * with the undecided ones.  A formula over a loop's probe counter (a
 * symbol that stands for "some iteration", not for a size) or one too big
 * to compare decides nothing: the rule stays quiet.  With known sizes every
 * comparison is decided, so a rule reasons exactly as on numbers.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

sx_int ck_storage_sx(const an_storage *st)
{
    return st->symbolic ? st->nbytes_sx : (sx_int){st->nbytes, 0};
}

bool ck_value_nbytes_sx(const ck_ctx *cx, int value, sx_int *out)
{
    const an_value *v = &cx->r->values[value];
    if (v->known) {
        *out = (sx_int){mt_nbytes(&v->l), 0};
        return true;
    }
    if (v->sl <= 0)
        return false;
    const an_slayout *l = &cx->r->slayouts[v->sl - 1];
    sx_int n = {mt_dtype_size(l->dtype), 0};
    for (int d = 0; d < l->ndim; d++)
        n = sx_mul(n, l->shape[d]);
    *out = n;
    return ck_sx_usable(n);
}

bool ck_value_dtype(const ck_ctx *cx, int value, tl_dtype *out)
{
    const an_value *v = &cx->r->values[value];
    if (v->known)
        *out = v->l.dtype;
    else if (v->sl > 0)
        *out = cx->r->slayouts[v->sl - 1].dtype;
    else
        return false;
    return true;
}

sx_int ck_value_moved_sx(const an_value *v)
{
    return v->known || v->sl <= 0 ? (sx_int){v->bytes_moved, 0} : v->bytes_moved_sx;
}

bool ck_broadcast_factor_sx(const ck_ctx *cx, int value, sx_int *out)
{
    const an_value *v = &cx->r->values[value];
    if (v->known) {
        *out = (sx_int){ck_broadcast_factor(&v->l), 0};
        return true;
    }
    if (v->sl <= 0)
        return false;
    const an_slayout *l = &cx->r->slayouts[v->sl - 1];
    sx_int f = {1, 0};
    for (int d = 0; d < l->ndim; d++) {
        bool zero;
        if (!sx_prove(l->strides[d], SX_EQ, (sx_int){0, 0}, &zero))
            return false; /* a stride that may or may not be 0 */
        if (zero)
            f = sx_mul(f, l->shape[d]);
    }
    *out = f;
    return ck_sx_usable(f);
}

bool ck_sx_usable(sx_int a)
{
    return a.e != SX_TOO_BIG && !sx_mentions_origin(a, "loop");
}

ck_bytes_text ck_sx_bytes(sx_int a)
{
    ck_bytes_text t;
    if (a.e == 0)
        return ck_bytes(a.c);
    char f[sizeof t.s - 8];
    sx_str(a, f, sizeof f);
    snprintf(t.s, sizeof t.s, "%s B", f);
    return t;
}

/* Whether a formula's text is one name ("n", "config.dim"): no parentheses
 * needed after a '/'. */
static bool ck_sx_plain(const char *s)
{
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.>#-") ==
           strlen(s) && !strstr(s, " ");
}

char *ck_sx_fraction(sx_int part, sx_int whole)
{
    if (whole.e == 0 && part.e == 0)
        return whole.c > 0 ? tl_xasprintf("%.1f%%", 100.0 * (double)part.c / (double)whole.c)
                           : NULL;
    if (part.e == 0 && part.c == 0)
        return tl_xasprintf("0%%");
    sx_int q = sx_div(whole, part); /* whole = q*part: the part is 1/q of it */
    if (ck_sx_usable(q) && sx_same(sx_mul(q, part), whole)) {
        if (q.e == 0)
            return q.c > 0 ? tl_xasprintf("%.1f%%", 100.0 / (double)q.c) : NULL;
        char *s = sx_strdup(q);
        char *t = tl_xasprintf(ck_sx_plain(s) ? "1/%s" : "1/(%s)", s);
        free(s);
        return t;
    }
    for (int64_t k = 2; k <= 64 && part.e != 0; k++) { /* 2/config.rows */
        sx_int kq = sx_div(sx_mul(whole, (sx_int){k, 0}), part);
        if (kq.e != 0 && ck_sx_usable(kq) && sx_same(sx_mul(kq, part), sx_mul(whole, (sx_int){k, 0}))) {
            char *s = sx_strdup(kq);
            char *t = tl_xasprintf(ck_sx_plain(s) ? "%lld/%s" : "%lld/(%s)", (long long)k, s);
            free(s);
            return t;
        }
    }
    sx_int per_mille = sx_div(sx_mul(part, (sx_int){1000, 0}), whole);
    if (per_mille.e == 0 && sx_same(sx_mul(per_mille, whole), sx_mul(part, (sx_int){1000, 0})))
        return tl_xasprintf("%.1f%%", (double)per_mille.c / 10.0);
    return NULL;
}

/* ---- conditions ---- */

void ck_conds_init(ck_conds *c) { *c = (ck_conds){.never = false, .n = 0, .d = NULL}; }

void ck_conds_free(ck_conds *c)
{
    free(c->d);
    ck_conds_init(c);
}

/* Push the report's assumptions on sizes as facts (each "p >= 0"); returns
 * the mark to forget them at. */
static int ck_assumed_facts(void)
{
    int mark = sx_n_facts();
    for (int k = 0; k < sx_n_assumptions(); k++) {
        sx_int d;
        const char *op;
        sx_assumption_get(k, &d, &op);
        if (sx_mentions_origin(d, "loop"))
            continue;
        if (op[0] == '>' || op[0] == '=')
            sx_fact_push(sx_plain_nonneg(d, op[0] == '>' && !op[1]));
        if (op[0] == '<' || op[0] == '=')
            sx_fact_push(sx_plain_nonneg(sx_neg(d), op[0] == '<' && !op[1]));
    }
    return mark;
}

/* a rel b proved or refuted under the report's assumptions. */
static bool ck_prove_assumed(sx_int a, sx_rel rel, sx_int b, bool *holds)
{
    int mark = ck_assumed_facts();
    bool decided = sx_prove(a, rel, b, holds);
    sx_forget_facts(mark);
    return decided;
}

void ck_conds_need(ck_conds *c, sx_int a, sx_rel rel, sx_int b)
{
    bool holds;
    if (c->never)
        return;
    if (!ck_sx_usable(a) || !ck_sx_usable(b) || rel == SX_EQ || rel == SX_NE) {
        c->never = true; /* decides nothing: quiet */
        return;
    }
    if (ck_prove_assumed(a, rel, b, &holds)) {
        c->never = !holds;
        return;
    }
    sx_int d = sx_plain_nonneg(rel == SX_GE || rel == SX_GT ? sx_sub(a, b) : sx_sub(b, a),
                               rel == SX_GT || rel == SX_LT); /* the condition is d >= 0 */
    for (int k = 0; k < c->n; k++)
        if (sx_same(c->d[k].d, d))
            return; /* said already */
    c->d = tl_xreallocarray(c->d, (size_t)c->n + 1, sizeof *c->d);
    c->d[c->n++] = (struct ck_cond){d, a, rel, b};
}

/* Drop each condition that the others and the report's assumptions imply
 * (n >= 256 when n >= 456 is there too), so that the text says only what is
 * needed. */
static void ck_conds_prune(ck_conds *c)
{
    for (int k = 0; k < c->n;) {
        int facts = ck_assumed_facts();
        bool implied = false;
        for (int j = 0; j < c->n; j++)
            if (j != k)
                sx_fact_push(c->d[j].d);
        bool proved = sx_prove(c->d[k].d, SX_GE, (sx_int){0, 0}, &implied) && implied;
        sx_forget_facts(facts);
        if (!proved) {
            k++;
            continue;
        }
        memmove(c->d + k, c->d + k + 1, sizeof *c->d * (size_t)(c->n - k - 1));
        c->n--;
    }
}

/* ---- a witness: sizes for which every condition holds ---- */

typedef struct ck_point {
    int n;
    int64_t *v;    /* per symbol */
    bool *has;
} ck_point;

static bool ck_holds(sx_int d, const char *op, const ck_point *p)
{
    int64_t x;
    if (!sx_eval(d, p->v, p->has, &x))
        return false;
    switch (op[0]) {
    case '<': return op[1] ? x <= 0 : x < 0;
    case '>': return op[1] ? x >= 0 : x > 0;
    default: return x == 0;
    }
}

/* Whether the sizes of p meet the report's assumptions (those on sizes) and
 * every condition of c. */
static bool ck_point_fits(const ck_conds *c, const ck_point *p)
{
    for (int k = 0; k < c->n; k++)
        if (!ck_holds(c->d[k].d, ">=", p))
            return false;
    for (int k = 0; k < sx_n_assumptions(); k++) {
        sx_int d;
        const char *op;
        sx_assumption_get(k, &d, &op);
        if (!sx_mentions_origin(d, "loop") && !ck_holds(d, op, p))
            return false;
    }
    return true;
}

/* All sizes at the generic point times 2^shift (at least 1). */
static void ck_point_scaled(ck_point *p, int shift)
{
    for (int i = 0; i < p->n; i++) {
        int64_t g = sx_symbol_generic(i);
        p->v[i] = shift >= 0 ? (g <= (INT64_C(1) << 40) >> shift ? g << shift : g) : g >> -shift;
        if (p->v[i] < 1)
            p->v[i] = 1;
    }
}

/* Whether some sizes meet every condition of c and the report's
 * assumptions: the generic point scaled by 2^-20 .. 2^20 (every fourth
 * power), and at each of those each size alone run over 1, 2, 3 and the
 * powers of two up to 2^40.  Finding none does not prove there are none; the rules
 * then stay quiet, as when a condition is refuted. */
static bool ck_conds_witness(const ck_conds *c)
{
    ck_point p = {sx_n_symbols(), NULL, NULL};
    p.v = tl_xmalloc(sizeof *p.v * ((size_t)p.n + 1));
    p.has = tl_xmalloc(sizeof *p.has * ((size_t)p.n + 1));
    for (int i = 0; i < p.n; i++)
        p.has[i] = true;
    bool found = false;
    for (int shift = 0; !found && shift <= 20; shift = shift > 0 ? -shift : 4 - shift) {
        ck_point_scaled(&p, shift);
        found = ck_point_fits(c, &p);
        for (int i = 0; !found && i < p.n; i++) {
            int64_t keep = p.v[i];
            for (int e = 0; !found && e <= 42; e++) {
                p.v[i] = e < 3 ? e + 1 : INT64_C(1) << (e - 2);
                found = ck_point_fits(c, &p);
            }
            p.v[i] = keep;
        }
    }
    free(p.v);
    free(p.has);
    return found;
}

int ck_conds_verdict(ck_conds *c)
{
    if (c->never)
        return 0;
    if (c->n == 0)
        return 1;
    ck_conds_prune(c);
    return ck_conds_witness(c) ? -1 : 0;
}

char *ck_conds_when(ck_conds *c)
{
    ck_conds_prune(c);
    char *s = tl_xasprintf("%s", "");
    for (int k = 0; k < c->n; k++) {
        char buf[1024];
        sx_cond_str(c->d[k].a, c->d[k].rel, c->d[k].b, buf, sizeof buf);
        char *t = tl_xasprintf("%s%s%s", s, k ? " and " : " (when ", buf);
        free(s);
        s = t;
    }
    char *t = tl_xasprintf("%s%s", s, c->n ? ")" : "");
    free(s);
    return t;
}

/* The items of " (when a and b)" appended to items[*n] (each allocated). */
static void ck_when_items(const char *when, char ***items, int *n)
{
    const char *p = strstr(when, " (when ");
    if (!p)
        return;
    char *body = tl_xstrdup(p + strlen(" (when "));
    body[strlen(body) - 1] = 0; /* the ')' */
    for (char *q = body, *next; q; q = next) {
        next = strstr(q, " and ");
        if (next) {
            *next = 0;
            next += strlen(" and ");
        }
        bool seen = false;
        for (int k = 0; k < *n && !seen; k++)
            seen = strcmp((*items)[k], q) == 0;
        if (seen)
            continue;
        *items = tl_xreallocarray(*items, (size_t)*n + 1, sizeof **items);
        (*items)[(*n)++] = tl_xstrdup(q);
    }
    free(body);
}

char *ck_when_join(char *a, char *b)
{
    char **items = NULL;
    int n = 0;
    ck_when_items(a, &items, &n);
    ck_when_items(b, &items, &n);
    char *s = tl_xasprintf("%s", "");
    for (int k = 0; k < n; k++) {
        char *t = tl_xasprintf("%s%s%s", s, k ? " and " : " (when ", items[k]);
        free(s);
        free(items[k]);
        s = t;
    }
    char *t = tl_xasprintf("%s%s", s, n ? ")" : "");
    free(s);
    free(items);
    free(a);
    free(b);
    return t;
}
