/*
 * sym.c: symbolic integers (see sym.h).
 *
 * Normal form.  An expression is c + sum of coef_i * m_i, with the monomials
 * m_i distinct, sorted by id and coef_i != 0; a monomial is a product of
 * atoms with powers, sorted by atom id; an atom is a symbol, floor(a / b),
 * max(a, b) or min(a, b) of expressions (max and min with their operands in
 * id order).  Atoms, monomials and expressions are interned in tables, so a
 * normal form has one id and two expressions are equal exactly when their
 * ids are.  Every operation builds its result in a scratch polynomial and
 * interns it; a result with no terms is a known value.
 *
 * Facts.  Each atom has a lower bound (a symbol >= 1, floor(a / b) >= 0 for
 * a >= 0, max/min from their operands); a polynomial whose coefficients are
 * all positive is at least its constant plus each coefficient times its
 * monomial's bound.  That decides most comparisons of sizes ("n*d > 0",
 * "n >= 1"); the rest are decided at the generic point and recorded as
 * assumptions.  The generic point is an assignment of integers, powers of
 * two: no size is 0 or 1 (PyTorch's specialisation), and of two sizes
 * compared the one read earlier is a multiple of the one read later, as a
 * width is of a head count; floor(a / b) is the integer quotient there.
 * Every decision is then true at that one point, so the recorded
 * assumptions never contradict each other.
 *
 * A symbol takes its value there (its place) only when a comparison first
 * needs it, in the order the symbols were read (sym_point.c, which says
 * why every decision stays true as places are given): a program may read
 * any number of integers; those compared take places, 2^52 down to 2^5.
 * A symbol with no place free between those of the symbols read around
 * it, a quotient of sizes that is 0 there, two distinct polynomials equal
 * there, or a difference the doubles cannot tell from 0 has no generic
 * value.  A comparison over such a value that nothing proves is not
 * decided: sx_cmp fails (sx_failed, sx_failed_why), and the analysis
 * treats what depends on it as unknown.
 */
#include "sym.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym_internal.h"

_Thread_local sx_state *sx__current;
_Thread_local sx_state sx__idle;
/* Bumped when the exact divisions change or the state is reset: apply_exact's memo is valid
 * for one generation. */
_Thread_local uint64_t exact_generation = 1;
/* Bumped whenever what a proof may use changes (facts, raised lower bounds,
 * exact divisions, a reset): sx_prove's memo is valid for one generation. */
_Thread_local uint64_t proof_generation = 1;

/* ---- hashing and interning ---- */

uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static void table_grow(table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 256;
    uint32_t *slot = tl_xcalloc(cap, sizeof *slot);
    uint64_t *hash = tl_xcalloc(cap, sizeof *hash);
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slot[i])
            continue;
        size_t j = t->hash[i] & (cap - 1);
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = t->slot[i];
        hash[j] = t->hash[i];
    }
    free(t->slot);
    free(t->hash);
    t->slot = slot;
    t->hash = hash;
    t->cap = cap;
}

/* The id in t with hash h for which same(id, key) holds, or 0 with *at the empty slot. */
static uint32_t table_find(table *t, uint64_t h, bool (*same)(uint32_t, const void *),
                           const void *key, size_t *at)
{
    if (2 * (t->n + 1) > t->cap)
        table_grow(t);
    size_t j = h & (t->cap - 1);
    while (t->slot[j]) {
        if (t->hash[j] == h && same(t->slot[j], key))
            return t->slot[j];
        j = (j + 1) & (t->cap - 1);
    }
    *at = j;
    return 0;
}

static void table_put(table *t, size_t at, uint64_t h, uint32_t id)
{
    t->slot[at] = id;
    t->hash[at] = h;
    t->n++;
}

/* ---- lower bounds and hints ---- */


static int64_t lb_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (a == NO_LB || b == NO_LB || a < 0 || b < 0)
        return NO_LB;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}


static bool atom_same(uint32_t id, const void *key)
{
    const atom *x = &S.atoms.items[id], *k = key;
    return x->kind == k->kind && x->sym == k->sym && x->a.c == k->a.c && x->a.e == k->a.e &&
           x->b.c == k->b.c && x->b.e == k->b.e;
}

static uint32_t atom_intern(atom k)
{
    uint64_t h = mix(mix(mix(mix(mix((uint64_t)k.kind, (uint64_t)k.sym), (uint64_t)k.a.c),
                             k.a.e), (uint64_t)k.b.c), k.b.e);
    size_t at;
    uint32_t id = table_find(&S.atom_tab, h, atom_same, &k, &at);
    if (id)
        return id;
    switch (k.kind) {
    case A_SYM:
        k.lb = S.syms.items[k.sym].value ? NO_LB : 1; /* a value read back is no size */
        break;
    case A_DIV: {
        int64_t la = lb_of(k.a), lbb = lb_of(k.b);
        k.lb = la != NO_LB && la >= 0 && lbb != NO_LB && lbb >= 1 ? 0 : NO_LB;
        break;
    }
    case A_MAX: case A_MIN: {
        int64_t la = lb_of(k.a), lbb = lb_of(k.b);
        if (k.kind == A_MAX)
            k.lb = la == NO_LB ? lbb : lbb == NO_LB ? la : (la > lbb ? la : lbb);
        else
            k.lb = la == NO_LB || lbb == NO_LB ? NO_LB : (la < lbb ? la : lbb);
        break;
    }
    }
    k.hint = hint_compute(&k); /* (sym_point.c) */
    k.hint_at = S.places;
    if (S.atoms.n == 0) {
        atom nil = {0};
        VEC_PUSH(S.atoms, nil); /* id 0 is no atom */
    }
    id = (uint32_t)S.atoms.n;
    VEC_PUSH(S.atoms, k);
    table_put(&S.atom_tab, at, h, id);
    return id;
}

typedef struct mono_key {
    const factor *f;
    uint32_t n;
} mono_key;

static bool mono_same(uint32_t id, const void *key)
{
    const mono *m = &S.monos.items[id];
    const mono_key *k = key;
    return m->n == k->n && memcmp(&S.factors.items[m->first], k->f, k->n * sizeof *k->f) == 0;
}

uint32_t mono_intern(const factor *f, uint32_t n)
{
    uint64_t h = 7;
    for (uint32_t i = 0; i < n; i++)
        h = mix(mix(h, f[i].atom), f[i].pow);
    mono_key k = {f, n};
    size_t at;
    uint32_t id = table_find(&S.mono_tab, h, mono_same, &k, &at);
    if (id)
        return id;
    mono m = {(uint32_t)S.factors.n, n, 1, 1.0, 0, S.places};
    for (uint32_t i = 0; i < n; i++) {
        double h = atom_hint(f[i].atom);
        const atom *a = &S.atoms.items[f[i].atom];
        for (uint32_t p = 0; p < f[i].pow; p++) {
            m.lb = lb_mul(m.lb, a->lb);
            m.hint *= h;
        }
        m.degree += (int)f[i].pow;
        VEC_PUSH(S.factors, f[i]);
    }
    if (S.monos.n == 0) {
        mono nil = {0};
        VEC_PUSH(S.monos, nil);
    }
    id = (uint32_t)S.monos.n;
    VEC_PUSH(S.monos, m);
    table_put(&S.mono_tab, at, h, id);
    return id;
}

/* ---- scratch polynomials ---- */


static bool poly_same(uint32_t id, const void *key)
{
    const poly *p = &S.polys.items[id];
    const spoly *k = key;
    if (p->c != k->c || p->n != k->n)
        return false;
    for (uint32_t i = 0; i < k->n; i++) /* field by field: a term has padding */
        if (S.terms.items[p->first + i].mono != k->t[i].mono ||
            S.terms.items[p->first + i].coef != k->t[i].coef)
            return false;
    return true;
}

static void ensure_reserved(void)
{
    if (S.polys.n == 0) {
        poly nil = {0};
        VEC_PUSH(S.polys, nil); /* 0: known values */
        VEC_PUSH(S.polys, nil); /* SX_TOO_BIG */
    }
}

/* Sort, merge equal monomials, drop zero terms, intern. */
sx_int intern(spoly *s)
{
    if (s->big)
        goto too_big;
    for (uint32_t i = 1; i < s->n; i++) { /* insertion sort: a few terms, mostly in order */
        term x = s->t[i];
        uint32_t j = i;
        for (; j > 0 && s->t[j - 1].mono > x.mono; j--)
            s->t[j] = s->t[j - 1];
        s->t[j] = x;
    }
    uint32_t w = 0;
    for (uint32_t i = 0; i < s->n; i++) { /* merge equal monomials */
        if (w > 0 && s->t[w - 1].mono == s->t[i].mono) {
            if (__builtin_add_overflow(s->t[w - 1].coef, s->t[i].coef, &s->t[w - 1].coef))
                goto too_big;
        } else {
            s->t[w++] = s->t[i];
        }
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < w; i++) /* drop the zeros */
        if (s->t[i].coef != 0)
            s->t[k++] = s->t[i];
    w = k;
    s->n = w;
    if (s->n == 0)
        return (sx_int){s->c, 0};
    if (s->n > SX_MAX_TERMS)
        goto too_big;
    ensure_reserved();
    uint64_t h = mix(11, (uint64_t)s->c);
    for (uint32_t i = 0; i < s->n; i++)
        h = mix(mix(h, s->t[i].mono), (uint64_t)s->t[i].coef);
    size_t at;
    uint32_t id = table_find(&S.poly_tab, h, poly_same, s, &at);
    if (id)
        return (sx_int){0, id};
    poly p = {s->c, (uint32_t)S.terms.n, s->n};
    for (uint32_t i = 0; i < s->n; i++)
        VEC_PUSH(S.terms, s->t[i]);
    id = (uint32_t)S.polys.n;
    VEC_PUSH(S.polys, p);
    table_put(&S.poly_tab, at, h, id);
    return (sx_int){0, id};
too_big:
    S.failed = true;
    return (sx_int){0, SX_TOO_BIG};
}

spoly *scratch(int which)
{
    spoly **buf = S.scratch;
    if (!buf[which])
        buf[which] = tl_xcalloc(1, sizeof *buf[which]);
    buf[which]->c = 0;
    buf[which]->n = 0;
    buf[which]->big = false;
    return buf[which];
}

/* Terms of a (0 for a known value). */
const term *terms_of(sx_int a, uint32_t *n, int64_t *c)
{
    if (a.e == 0) {
        *n = 0;
        *c = a.c;
        return NULL;
    }
    const poly *p = &S.polys.items[a.e];
    *n = p->n;
    *c = p->c;
    return &S.terms.items[p->first];
}

sx_int atom_expr(uint32_t atom_id)
{
    factor f = {atom_id, 1};
    spoly *s = scratch(0);
    s->t[0] = (term){mono_intern(&f, 1), 1};
    s->n = 1;
    return intern(s);
}

/* ---- facts ---- */

/* A monomial's lower bound from its atoms' current ones (an assumption may
 * have raised an atom's). */
static int64_t mono_lb(uint32_t id)
{
    const mono *m = &S.monos.items[id];
    int64_t lb = 1;
    for (uint32_t i = 0; i < m->n; i++) {
        factor f = S.factors.items[m->first + i];
        for (uint32_t p = 0; p < f.pow; p++)
            lb = lb_mul(lb, S.atoms.items[f.atom].lb);
    }
    return lb;
}

/* Is monomial small a factor of big with what is left at least 1 (small <=
 * big for every value: 16*d*d <= 16*d*d*n when n >= 1)? */
static bool mono_under(uint32_t small, uint32_t big)
{
    const mono *ms = &S.monos.items[small], *mb = &S.monos.items[big];
    for (uint32_t i = 0; i < ms->n; i++) { /* small's factors are in big, as often or more */
        factor f = S.factors.items[ms->first + i];
        bool found = false;
        if (S.atoms.items[f.atom].lb == INT64_MIN || S.atoms.items[f.atom].lb < 0)
            return false;
        for (uint32_t j = 0; j < mb->n && !found; j++)
            found = S.factors.items[mb->first + j].atom == f.atom &&
                    S.factors.items[mb->first + j].pow >= f.pow;
        if (!found)
            return false;
    }
    for (uint32_t j = 0; j < mb->n; j++) { /* the rest of big is at least 1 */
        factor f = S.factors.items[mb->first + j];
        uint32_t in_small = 0;
        for (uint32_t i = 0; i < ms->n; i++)
            if (S.factors.items[ms->first + i].atom == f.atom)
                in_small = S.factors.items[ms->first + i].pow;
        if (f.pow > in_small && (S.atoms.items[f.atom].lb == INT64_MIN || S.atoms.items[f.atom].lb < 1))
            return false;
    }
    return true;
}

/* A lower bound of sign*a (sign 1 or -1), NO_LB when none is known.  A
 * negative term is paid for by positive ones whose monomials it divides
 * (k*m' - k*m >= 0 when m' = m*q, q >= 1); what they pay counts 0. */
int64_t lb_signed(sx_int a, int64_t sign)
{
    if (a.e == 0)
        return a.c == INT64_MIN && sign < 0 ? NO_LB : sign * a.c;
    if (a.e == SX_TOO_BIG)
        return NO_LB;
    uint32_t n;
    int64_t lb;
    const term *t = terms_of(a, &n, &lb);
    if (lb == INT64_MIN && sign < 0)
        return NO_LB;
    lb *= sign;
    int64_t left[SX_MAX_TERMS]; /* each positive term's coefficient not yet paid out */
    for (uint32_t i = 0; i < n; i++) {
        if (t[i].coef == INT64_MIN)
            return NO_LB;
        left[i] = t[i].coef * sign;
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t need = -left[i];
        if (need <= 0)
            continue;
        for (uint32_t j = 0; j < n && need > 0; j++) {
            if (j == i || left[j] <= 0 || !mono_under(t[i].mono, t[j].mono))
                continue;
            int64_t take = left[j] < need ? left[j] : need;
            left[j] -= take;
            need -= take;
        }
        if (need > 0)
            return NO_LB;
        left[i] = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t m = mono_lb(t[i].mono), x;
        if (left[i] == 0)
            continue;
        if (m == NO_LB)
            return NO_LB;
        if (__builtin_mul_overflow(left[i], m, &x) || __builtin_add_overflow(lb, x, &lb))
            return INT64_MAX;
    }
    return lb;
}

int64_t lb_of(sx_int a) { return lb_signed(a, 1); }

double hint_of(sx_int a)
{
    if (a.e == 0)
        return (double)a.c;
    uint32_t n;
    int64_t c;
    const term *t = terms_of(a, &n, &c);
    double h = (double)c;
    for (uint32_t i = 0; i < n; i++)
        h += (double)t[i].coef * mono_hint(t[i].mono);
    return h;
}

/* ---- arithmetic ---- */


sx_int add_scaled(sx_int a, sx_int b, int64_t k)
{
    if (big(a) || big(b))
        return too_big();
    spoly *s = scratch(1);
    uint32_t na, nb;
    int64_t ca, cb, kc;
    const term *ta = terms_of(a, &na, &ca), *tb = terms_of(b, &nb, &cb);
    if (__builtin_mul_overflow(cb, k, &kc) || __builtin_add_overflow(ca, kc, &s->c))
        return too_big();
    for (uint32_t i = 0; i < na; i++)
        s->t[s->n++] = ta[i];
    for (uint32_t i = 0; i < nb; i++) {
        term t = tb[i];
        if (__builtin_mul_overflow(t.coef, k, &t.coef))
            return too_big();
        s->t[s->n++] = t;
    }
    return intern(s);
}

sx_int sx_add(sx_int a, sx_int b) { return add_scaled(a, b, 1); }
sx_int sx_sub(sx_int a, sx_int b) { return add_scaled(a, b, -1); }
sx_int sx_neg(sx_int a) { return add_scaled((sx_int){0, 0}, a, -1); }

static uint32_t mono_mul(uint32_t x, uint32_t y)
{
    factor f[2 * SX_MAX_TERMS];
    const mono *mx = &S.monos.items[x], *my = &S.monos.items[y];
    const factor *fx = &S.factors.items[mx->first], *fy = &S.factors.items[my->first];
    uint32_t i = 0, j = 0, n = 0;
    while ((i < mx->n || j < my->n) && n < 2 * SX_MAX_TERMS) {
        if (j == my->n || (i < mx->n && fx[i].atom < fy[j].atom))
            f[n++] = fx[i++];
        else if (i == mx->n || fy[j].atom < fx[i].atom)
            f[n++] = fy[j++];
        else {
            f[n] = fx[i++];
            f[n++].pow += fy[j++].pow;
        }
    }
    return mono_intern(f, n);
}

sx_int sx_mul(sx_int a, sx_int b)
{
    if (big(a) || big(b))
        return too_big();
    uint32_t na, nb;
    int64_t ca, cb;
    const term *ta = terms_of(a, &na, &ca), *tb = terms_of(b, &nb, &cb);
    if ((uint64_t)(na + 1) * (nb + 1) > (uint64_t)SX_MAX_TERMS * SX_MAX_TERMS)
        return too_big();
    spoly *s = scratch(1);
    if (__builtin_mul_overflow(ca, cb, &s->c))
        return too_big();
    for (uint32_t i = 0; i < na; i++) {
        term t = ta[i];
        if (__builtin_mul_overflow(t.coef, cb, &t.coef))
            return too_big();
        s->t[s->n++] = t;
    }
    for (uint32_t j = 0; j < nb; j++) {
        term t = tb[j];
        if (__builtin_mul_overflow(t.coef, ca, &t.coef))
            return too_big();
        s->t[s->n++] = t;
    }
    for (uint32_t i = 0; i < na; i++)
        for (uint32_t j = 0; j < nb; j++) {
            term t = {mono_mul(ta[i].mono, tb[j].mono), 0};
            /* ta/tb may move when mono_mul grows the tables: re-read them */
            ta = terms_of(a, &na, &ca);
            tb = terms_of(b, &nb, &cb);
            if (__builtin_mul_overflow(ta[i].coef, tb[j].coef, &t.coef))
                return too_big();
            s->t[s->n++] = t;
        }
    return intern(s);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* m / d when monomial d divides m (every factor of d in m with at least its power). */
static bool mono_div(uint32_t m, uint32_t d, uint32_t *out)
{
    factor f[2 * SX_MAX_TERMS];
    const mono *mm = &S.monos.items[m], *md = &S.monos.items[d];
    const factor *fm = &S.factors.items[mm->first], *fd = &S.factors.items[md->first];
    uint32_t i = 0, j = 0, n = 0;
    for (; i < mm->n; i++) {
        factor x = fm[i];
        if (j < md->n && fd[j].atom == x.atom) {
            if (fd[j].pow > x.pow)
                return false;
            x.pow -= fd[j++].pow;
        }
        if (x.pow)
            f[n++] = x;
    }
    if (j < md->n)
        return false;
    *out = n ? mono_intern(f, n) : 0;
    return true;
}

static sx_int binary_atom(int kind, sx_int a, sx_int b)
{
    atom k = {kind, -1, a, b, 0, 0};
    return atom_expr(atom_intern(k));
}

sx_int sx_div(sx_int a, sx_int b)
{
    if (big(a) || big(b))
        return too_big();
    if (a.e == b.e && a.c == b.c && a.e)
        return (sx_int){1, 0};
    uint32_t na, nb;
    int64_t ca, cb;
    const term *ta = terms_of(a, &na, &ca), *tb = terms_of(b, &nb, &cb);
    if (nb == 0) {
        if (cb <= 0)
            return too_big(); /* the rules divide by positive values only */
        if (na == 0)
            return (sx_int){floor_div(ca, cb), 0};
        for (uint32_t i = 0; i < na; i++)
            if (ta[i].coef % cb != 0)
                return binary_atom(A_DIV, a, b);
        /* floor((k*q + c) / k) = q + floor(c / k) for an integer-valued q */
        spoly *s = scratch(1);
        s->c = floor_div(ca, cb);
        for (uint32_t i = 0; i < na; i++)
            s->t[s->n++] = (term){ta[i].mono, ta[i].coef / cb};
        return intern(s);
    }
    if (nb == 1 && cb == 0 && ca == 0 && tb[0].coef > 0) {
        /* a monomial divisor dividing every term exactly */
        spoly *s = scratch(2);
        for (uint32_t i = 0; i < na; i++) {
            uint32_t q;
            if (ta[i].coef % tb[0].coef != 0 || !mono_div(ta[i].mono, tb[0].mono, &q))
                return binary_atom(A_DIV, a, b);
            ta = terms_of(a, &na, &ca);
            tb = terms_of(b, &nb, &cb);
            if (q == 0)
                s->c += ta[i].coef / tb[0].coef;
            else
                s->t[s->n++] = (term){q, ta[i].coef / tb[0].coef};
        }
        return intern(s);
    }
    return binary_atom(A_DIV, a, b);
}

sx_int sx_mod(sx_int a, sx_int b)
{
    /* a mod b = a - b * floor(a / b) */
    return sx_sub(a, sx_mul(b, sx_div(a, b)));
}

/* The atom id when a is that one atom of kind alone (coefficient 1), else 0. */
static uint32_t lone_atom(sx_int a, int kind)
{
    if (a.e == 0 || a.e == SX_TOO_BIG)
        return 0;
    uint32_t n;
    int64_t c;
    const term *t = terms_of(a, &n, &c);
    if (n != 1 || c != 0 || t[0].coef != 1)
        return 0;
    const mono *m = &S.monos.items[t[0].mono];
    if (m->n != 1 || S.factors.items[m->first].pow != 1)
        return 0;
    uint32_t id = S.factors.items[m->first].atom;
    return S.atoms.items[id].kind == kind ? id : 0;
}

enum { MINMAX_OPS = 16 };

/* The operands of nested max (min) atoms, flattened into ops. */
static bool minmax_operands(int kind, sx_int a, sx_int *ops, int *n)
{
    uint32_t id = lone_atom(a, kind);
    if (id) {
        sx_int x = S.atoms.items[id].a, y = S.atoms.items[id].b;
        return minmax_operands(kind, x, ops, n) && minmax_operands(kind, y, ops, n);
    }
    if (*n == MINMAX_OPS)
        return false;
    ops[(*n)++] = a;
    return true;
}

static int sx_order(const void *p, const void *q)
{
    const sx_int *a = p, *b = q;
    if (a->e != b->e)
        return a->e < b->e ? -1 : 1;
    return (a->c > b->c) - (a->c < b->c);
}

/* max (min) in a normal form: nested ones flattened, operands that another
 * provably dominates dropped, the rest in id order. */
static sx_int minmax(int kind, sx_int a, sx_int b)
{
    if (big(a) || big(b))
        return too_big();
    sx_int ops[MINMAX_OPS];
    int n = 0;
    if (!minmax_operands(kind, a, ops, &n) || !minmax_operands(kind, b, ops, &n))
        return too_big();
    int kept = 0;
    for (int i = 0; i < n; i++) {
        bool dominated = false;
        for (int j = 0; j < n && !dominated; j++) {
            bool ge;
            if (i == j || !sx_prove(ops[j], kind == A_MAX ? SX_GE : SX_LE, ops[i], &ge) || !ge)
                continue;
            /* j covers i; of equal operands the first is kept */
            bool eq = ops[i].e == ops[j].e && ops[i].c == ops[j].c;
            dominated = !eq || j < i;
        }
        if (!dominated)
            ops[kept++] = ops[i];
    }
    qsort(ops, (size_t)kept, sizeof *ops, sx_order);
    sx_int r = ops[0];
    for (int i = 1; i < kept; i++)
        r = binary_atom(kind, r, ops[i]);
    return r;
}

sx_int sx_max(sx_int a, sx_int b) { return minmax(A_MAX, a, b); }

sx_int sx_max_of(const sx_int *v, int n)
{
    sx_int ops[MINMAX_OPS];
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (big(v[i]))
            return too_big();
        bool dup = false;
        for (int j = 0; j < k && !dup; j++)
            dup = ops[j].e == v[i].e && ops[j].c == v[i].c;
        if (!dup && k == MINMAX_OPS)
            return too_big();
        if (!dup)
            ops[k++] = v[i];
    }
    if (k == 0)
        return (sx_int){0, 0};
    qsort(ops, (size_t)k, sizeof *ops, sx_order);
    sx_int r = ops[0];
    for (int i = 1; i < k; i++)
        r = binary_atom(A_MAX, r, ops[i]);
    return r;
}
sx_int sx_min(sx_int a, sx_int b) { return minmax(A_MIN, a, b); }

/* A new symbol: one read at run time, with a rank among those the generic
 * point places (sym_point.c), or a loop's counter, whose value there is
 * like's. */
static sx_int new_symbol(const char *name, const char *origin, int line, int col, bool value,
                         bool counter, sx_int like)
{
    symbol s = {.name = tl_xstrdup(name ? name : "?"), .origin = tl_xstrdup(origin ? origin : ""),
                .line = line, .col = col, .value = value, .rank = counter ? -1 : S.n_ranked++,
                .place = -1, .like = counter ? like : (sx_int){0, 0}};
    VEC_PUSH(S.syms, s);
    atom k = {A_SYM, (int)S.syms.n - 1, {0, 0}, {0, 0}, 0, 0, 0};
    return atom_expr(atom_intern(k));
}

sx_int sx_symbol_near(const char *name, const char *origin, int line, int col, sx_int like)
{
    return new_symbol(name, origin, line, col, false, true, like);
}

/* ---- symbols, evaluation ---- */

sx_int sx_symbol_value(const char *name, const char *origin, int line, int col)
{
    return new_symbol(name, origin, line, col, true, false, (sx_int){0, 0});
}

sx_int sx_symbol(const char *name, const char *origin, int line, int col)
{
    return new_symbol(name, origin, line, col, false, false, (sx_int){0, 0});
}

sx_int sx_symbol_expr(int i)
{
    atom k = {A_SYM, i, {0, 0}, {0, 0}, 0, 0};
    return atom_expr(atom_intern(k));
}

int sx_n_symbols(void) { return (int)S.syms.n; }
const char *sx_symbol_name(int i) { return S.syms.items[i].name; }
const char *sx_symbol_origin(int i) { return S.syms.items[i].origin; }
int sx_symbol_line(int i) { return S.syms.items[i].line; }
int sx_symbol_col(int i) { return S.syms.items[i].col; }
bool sx_symbol_used(int i) { return S.syms.items[i].used; }

void sx_symbols_unuse(int from)
{
    for (size_t i = from > 0 ? (size_t)from : 0; i < S.syms.n; i++)
        if (strcmp(S.syms.items[i].origin, "parameter") != 0)
            S.syms.items[i].used = false;
}

bool sx_symbol_is_size(int i)
{
    return !S.syms.items[i].value && strcmp(S.syms.items[i].origin, "loop") != 0;
}

static bool eval_atom(uint32_t id, const int64_t *v, const bool *has, int64_t *out);

bool sx_eval(sx_int a, const int64_t *values, const bool *has, int64_t *out)
{
    if (a.e == 0) {
        *out = a.c;
        return true;
    }
    if (a.e == SX_TOO_BIG)
        return false;
    uint32_t n;
    int64_t acc;
    const term *t = terms_of(a, &n, &acc);
    for (uint32_t i = 0; i < n; i++) {
        const mono *m = &S.monos.items[t[i].mono];
        int64_t x = t[i].coef;
        for (uint32_t f = 0; f < m->n; f++) {
            factor fa = S.factors.items[m->first + f];
            int64_t y;
            if (!eval_atom(fa.atom, values, has, &y))
                return false;
            for (uint32_t p = 0; p < fa.pow; p++)
                if (__builtin_mul_overflow(x, y, &x))
                    return false;
        }
        if (__builtin_add_overflow(acc, x, &acc))
            return false;
    }
    *out = acc;
    return true;
}

static bool eval_atom(uint32_t id, const int64_t *v, const bool *has, int64_t *out)
{
    const atom *a = &S.atoms.items[id];
    int64_t x, y;
    if (a->kind == A_SYM) {
        if (!has[a->sym])
            return false;
        *out = v[a->sym];
        return true;
    }
    sx_int ea = a->a, eb = a->b;
    if (!sx_eval(ea, v, has, &x) || !sx_eval(eb, v, has, &y))
        return false;
    switch (a->kind) {
    case A_DIV:
        if (y == 0)
            return false;
        *out = floor_div(x, y);
        return true;
    case A_MAX: *out = x > y ? x : y; return true;
    case A_MIN: *out = x < y ? x : y; return true;
    }
    return false;
}

static void symbols_of_atom(uint32_t id, bool *used);

void sx_symbols_of(sx_int a, bool *used)
{
    if (a.e == 0 || a.e == SX_TOO_BIG)
        return;
    uint32_t n;
    int64_t c;
    const term *t = terms_of(a, &n, &c);
    for (uint32_t i = 0; i < n; i++) {
        const mono *m = &S.monos.items[t[i].mono];
        for (uint32_t f = 0; f < m->n; f++)
            symbols_of_atom(S.factors.items[m->first + f].atom, used);
    }
}

static void symbols_of_atom(uint32_t id, bool *used)
{
    const atom *a = &S.atoms.items[id];
    if (a->kind == A_SYM) {
        if (used)
            used[a->sym] = true;
        S.syms.items[a->sym].used = true;
        return;
    }
    sx_symbols_of(a->a, used);
    sx_symbols_of(a->b, used);
}

/* Marks a size symbol as used (loop counters left out); never stops the walk. */
static bool mark_size(uint32_t id, const void *ctx)
{
    (void)ctx;
    const atom *k = &S.atoms.items[id];
    if (k->kind == A_SYM && strcmp(S.syms.items[k->sym].origin, "loop") != 0)
        S.syms.items[k->sym].used = true;
    return false;
}

void sx_sizes_of(sx_int a) { (void)any_atom(a, mark_size, NULL); }

/* ---- state ---- */

void sx_set_site(int line) { S.site = line; }
int sx_n_assumptions(void) { return (int)S.assumptions.n; }

void sx_forget_assumptions(int n)
{
    while (S.exact.n > 0 && S.exact.items[S.exact.n - 1].assumption >= (size_t)n) {
        S.exact.n--;
        exact_generation++;
        proof_generation++;
    }
    while (S.raises.n > 0 && S.raises.items[S.raises.n - 1].assumption >= (size_t)n) {
        lb_raise r = S.raises.items[--S.raises.n];
        S.atoms.items[r.atom].lb = r.old;
        proof_generation++;
    }
    while (S.assumptions.n > (size_t)n)
        free(S.assumptions.items[--S.assumptions.n].text);
}

void sx_fact_push(sx_int nonneg)
{
    if (!big(nonneg)) {
        VEC_PUSH(S.facts, nonneg);
        proof_generation++;
    }
}

int sx_n_facts(void) { return (int)S.facts.n; }

void sx_forget_facts(int n)
{
    if (S.facts.n > (size_t)n) {
        S.facts.n = (size_t)n;
        proof_generation++;
    }
}
const char *sx_assumption_text(int i) { return S.assumptions.items[i].text; }
int sx_assumption_line(int i) { return S.assumptions.items[i].line; }
bool sx_failed(void) { return S.failed; }
const char *sx_failed_why(void)
{
    return S.fail_why ? S.fail_why : "the sizes' formulas grew too large to follow";
}
void sx_clear_failed(void)
{
    S.failed = false;
    S.fail_why = NULL;
}

static void state_clear(sx_state *st)
{
    for (size_t i = 0; i < st->syms.n; i++) {
        free(st->syms.items[i].name);
        free(st->syms.items[i].origin);
    }
    for (size_t i = 0; i < st->assumptions.n; i++)
        free(st->assumptions.items[i].text);
    free(st->syms.items);
    free(st->atoms.items);
    free(st->factors.items);
    free(st->monos.items);
    free(st->terms.items);
    free(st->polys.items);
    free(st->assumptions.items);
    free(st->facts.items);
    free(st->raises.items);
    free(st->exact.items);
    free(st->tried.items);
    free(st->atom_tab.slot);
    free(st->atom_tab.hash);
    free(st->mono_tab.slot);
    free(st->mono_tab.hash);
    free(st->poly_tab.slot);
    free(st->poly_tab.hash);
    for (int k = 0; k < 3; k++)
        free(st->scratch[k]);
    memset(st, 0, sizeof *st);
}

/* The memos of apply_exact and sx_prove hold ids of one state: a change of state, or of
 * what a state holds, starts new generations. */
static void new_generation(void)
{
    exact_generation++;
    proof_generation++;
}

void sx_reset(void)
{
    state_clear(&S);
    new_generation();
}

sx_state *sx_state_new(void) { return tl_xcalloc(1, sizeof(sx_state)); }

void sx_state_free(sx_state *st)
{
    if (!st)
        return;
    if (st == sx__current) {
        sx__current = NULL;
        new_generation();
    }
    state_clear(st);
    free(st);
}

sx_state *sx_state_use(sx_state *st)
{
    sx_state *before = sx__current;
    if (st != before) {
        sx__current = st;
        new_generation();
    }
    return before;
}
