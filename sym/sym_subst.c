/*
 * sym_subst.c: which atoms an expression mentions, an atom replaced by an
 * expression (a probe's counter renamed, an iteration's value put in), and
 * sums over a loop counter in closed form.
 */
#include "sym_internal.h"

#include <string.h>

bool any_atom(sx_int a, bool (*f)(uint32_t id, const void *ctx), const void *ctx)
{
    if (a.e == 0 || a.e == SX_TOO_BIG)
        return false;
    uint32_t n;
    int64_t c;
    const term *t = terms_of(a, &n, &c);
    for (uint32_t i = 0; i < n; i++) {
        const mono *m = &S.monos.items[t[i].mono];
        for (uint32_t k = 0; k < m->n; k++) {
            uint32_t id = S.factors.items[m->first + k].atom;
            const atom *x = &S.atoms.items[id];
            if (f(id, ctx) || (x->kind != A_SYM && (any_atom(x->a, f, ctx) || any_atom(x->b, f, ctx))))
                return true;
        }
    }
    return false;
}

static bool is_atom(uint32_t id, const void *ctx) { return id == *(const uint32_t *)ctx; }

bool expr_mentions(sx_int a, uint32_t sym_atom) { return any_atom(a, is_atom, &sym_atom); }

bool atom_mentions(uint32_t id, uint32_t sym_atom)
{
    if (id == sym_atom)
        return true;
    const atom *a = &S.atoms.items[id];
    return a->kind != A_SYM && (expr_mentions(a->a, sym_atom) || expr_mentions(a->b, sym_atom));
}

/* The atom of a lone symbol expression, 0 if sym is not one. */
uint32_t symbol_atom(sx_int sym)
{
    uint32_t n;
    int64_t c;
    if (sym.e == 0 || sym.e == SX_TOO_BIG)
        return 0;
    const term *t = terms_of(sym, &n, &c);
    if (n != 1 || c != 0 || t[0].coef != 1 || S.monos.items[t[0].mono].n != 1 ||
        S.factors.items[S.monos.items[t[0].mono].first].pow != 1)
        return 0;
    uint32_t id = S.factors.items[S.monos.items[t[0].mono].first].atom;
    return S.atoms.items[id].kind == A_SYM ? id : 0;
}

int sx_symbol_of(sx_int a)
{
    uint32_t id = symbol_atom(a);
    return id ? S.atoms.items[id].sym : -1;
}

void sx_symbol_rename(int i, const char *name)
{
    free(S.syms.items[i].name);
    S.syms.items[i].name = tl_xstrdup(name);
}

static sx_int subst_atom(uint32_t id, uint32_t sym_atom, sx_int v)
{
    if (id == sym_atom)
        return v;
    atom k = S.atoms.items[id]; /* a copy: building may move the table */
    if (k.kind == A_SYM || (sym_atom && !atom_mentions(id, sym_atom)))
        return atom_expr(id);
    sx_int x = subst(k.a, sym_atom, v), y = subst(k.b, sym_atom, v);
    switch (k.kind) {
    case A_DIV: return sx_div(x, y);
    case A_MAX: return sx_max(x, y);
    default: return sx_min(x, y);
    }
}

sx_int subst(sx_int a, uint32_t sym_atom, sx_int v)
{
    if (a.e == 0 || a.e == SX_TOO_BIG || (sym_atom && !expr_mentions(a, sym_atom)))
        return a;
    uint32_t n;
    int64_t c;
    const term *t0 = terms_of(a, &n, &c);
    term t[SX_MAX_TERMS];
    memcpy(t, t0, n * sizeof *t);
    sx_int r = {c, 0};
    for (uint32_t i = 0; i < n; i++) {
        factor f[SX_MAX_TERMS];
        mono m = S.monos.items[t[i].mono];
        if (m.n > SX_MAX_TERMS)
            return too_big();
        memcpy(f, &S.factors.items[m.first], m.n * sizeof *f);
        sx_int x = {t[i].coef, 0};
        for (uint32_t j = 0; j < m.n; j++) {
            sx_int y = subst_atom(f[j].atom, sym_atom, v);
            for (uint32_t p = 0; p < f[j].pow; p++)
                x = sx_mul(x, y);
        }
        r = sx_add(r, x);
    }
    return r;
}

sx_int sx_subst(sx_int a, sx_int sym, sx_int v)
{
    uint32_t id = lone_atom_any(sym); /* a symbol, or any one atom (min(steps, n)) */
    return id ? subst(a, id, v) : a;
}

sx_int sx_refine(sx_int a) { return subst(a, 0, (sx_int){0, 0}); }

/* n(n+1)(2n+1)/6 */
static sx_int sum_squares_to(sx_int n)
{
    sx_int one = {1, 0};
    return sx_div(sx_mul(sx_mul(n, sx_add(n, one)), sx_add(sx_mul((sx_int){2, 0}, n), one)),
                  (sx_int){6, 0});
}

/* a = c0 + c1*sym + c2*sym^2, c1 and c2 free of sym, checked by rebuilding a. */
static bool coeffs(sx_int a, uint32_t id, sx_int sym, sx_int *c)
{
    sx_int p1 = subst(a, id, (sx_int){1, 0}), m1 = subst(a, id, (sx_int){-1, 0}), two = {2, 0};
    c[0] = subst(a, id, (sx_int){0, 0});
    c[1] = sx_div(sx_sub(p1, m1), two);
    c[2] = sx_div(sx_sub(sx_add(p1, m1), sx_mul(two, c[0])), two);
    if (expr_mentions(c[1], id) || expr_mentions(c[2], id))
        return false;
    sx_int again = sx_add(c[0], sx_add(sx_mul(c[1], sym), sx_mul(c[2], sx_mul(sym, sym))));
    return again.e == a.e && again.c == a.c && !big(again);
}

bool sx_sum(sx_int a, sx_int sym, sx_int lo, sx_int hi, sx_int *out)
{
    uint32_t id = symbol_atom(sym);
    sx_int c[3], one = {1, 0}, two = {2, 0};
    if (!id || big(a) || big(lo) || big(hi))
        return false;
    sx_int count = sx_add(sx_sub(hi, lo), one);
    if (!expr_mentions(a, id)) {
        *out = sx_mul(a, count);
        return !big(*out);
    }
    if (!coeffs(a, id, sym, c))
        return false;
    /* the sums over lo..hi of l and of l^2 */
    sx_int s1 = sx_div(sx_mul(sx_add(lo, hi), count), two);
    sx_int s2 = sx_sub(sum_squares_to(hi), sum_squares_to(sx_sub(lo, one)));
    *out = sx_add(sx_mul(c[0], count), sx_add(sx_mul(c[1], s1), sx_mul(c[2], s2)));
    return !big(*out);
}

bool sx_poly_coeffs(sx_int a, sx_int sym, sx_int *c1, sx_int *c2)
{
    uint32_t id = symbol_atom(sym);
    sx_int c[3];
    if (!id || big(a) || !coeffs(a, id, sym, c))
        return false;
    *c1 = c[1];
    *c2 = c[2];
    return true;
}

static bool shares(sx_int a, sx_int b)
{
    uint32_t n;
    int64_t c;
    if (a.e == 0 || big(a))
        return false;
    const term *t = terms_of(a, &n, &c);
    for (uint32_t i = 0; i < n; i++) {
        const mono *m = &S.monos.items[t[i].mono];
        for (uint32_t f = 0; f < m->n; f++) {
            uint32_t id = S.factors.items[m->first + f].atom;
            const atom *k = &S.atoms.items[id];
            if (k->kind == A_SYM ? expr_mentions(b, id) : shares(k->a, b) || shares(k->b, b))
                return true;
        }
    }
    return false;
}

bool sx_shares_symbol(sx_int a, sx_int b) { return shares(a, b); }

bool sx_depends_on(sx_int a, sx_int sym)
{
    uint32_t n;
    int64_t c;
    if (sym.e == 0 || sym.e == SX_TOO_BIG)
        return false;
    const term *t = terms_of(sym, &n, &c);
    if (n != 1 || S.monos.items[t[0].mono].n != 1)
        return false;
    return expr_mentions(a, S.factors.items[S.monos.items[t[0].mono].first].atom);
}


/* Whether atom id is a symbol whose origin is ctx. */
static bool has_origin(uint32_t id, const void *ctx)
{
    const atom *a = &S.atoms.items[id];
    return a->kind == A_SYM && strcmp(S.syms.items[a->sym].origin, ctx) == 0;
}

bool sx_mentions_origin(sx_int a, const char *origin) { return any_atom(a, has_origin, origin); }

/* Whether atom id is a symbol of index *ctx or later. */
static bool is_newer(uint32_t id, const void *ctx)
{
    const atom *a = &S.atoms.items[id];
    return a->kind == A_SYM && a->sym >= *(const int *)ctx;
}

bool sx_mentions_newer(sx_int a, int from) { return any_atom(a, is_newer, &from); }
