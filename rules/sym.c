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
 * "n >= 1"); the rest are decided at generic values (each symbol a distinct
 * value above 1000: PyTorch's "sizes are not 0 or 1" specialisation) and
 * recorded as assumptions.
 */
#include "sym.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum atom_kind { A_SYM, A_DIV, A_MAX, A_MIN };

typedef struct atom {
    int kind;
    int sym;          /* A_SYM */
    sx_int a, b;      /* A_DIV, A_MAX, A_MIN */
    int64_t lb;       /* lower bound; INT64_MIN: none known */
    double hint;      /* its generic value */
} atom;

typedef struct factor {
    uint32_t atom;
    uint32_t pow;
} factor;

typedef struct mono {
    uint32_t first, n; /* factors[first .. first + n) */
    int64_t lb;        /* INT64_MIN: none known */
    double hint;
    int degree;
} mono;

typedef struct term {
    uint32_t mono;
    int64_t coef;
} term;

typedef struct poly {
    int64_t c;
    uint32_t first, n; /* terms[first .. first + n) */
} poly;

typedef struct symbol {
    char *name;
    char *origin;
    int line, col;
    bool used;
} symbol;

typedef struct assumption {
    char *text;
    int line;
} assumption;

/* A growable array of T: items, n, cap. */
#define VEC(T) struct { T *items; size_t n, cap; }
#define VEC_PUSH(v, x)                                                                   \
    do {                                                                                 \
        if ((v).n == (v).cap) {                                                          \
            size_t cap_ = (v).cap ? 2 * (v).cap : 64;                                    \
            void *p_ = realloc((v).items, cap_ * sizeof *(v).items);                     \
            if (!p_) {                                                                   \
                fputs("tensorlint: out of memory\n", stderr);                            \
                abort();                                                                 \
            }                                                                            \
            (v).items = p_;                                                              \
            (v).cap = cap_;                                                              \
        }                                                                                \
        (v).items[(v).n++] = (x);                                                        \
    } while (0)

/* An open-addressing table of ids (0: empty) keyed by a hash of the content. */
typedef struct table {
    uint32_t *slot;
    uint64_t *hash;
    size_t cap, n;
} table;

typedef struct spoly spoly;

typedef struct sx_state {
    VEC(symbol) syms;
    VEC(atom) atoms;
    VEC(factor) factors;
    VEC(mono) monos;
    VEC(term) terms;
    VEC(poly) polys;
    VEC(assumption) assumptions;
    table atom_tab, mono_tab, poly_tab;
    int site;
    bool failed;
    spoly *scratch[3];  /* the polynomials being built */
} sx_state;

static _Thread_local sx_state S; /* one per thread: check -j analyses files on several threads */

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) {
        fputs("tensorlint: out of memory\n", stderr);
        abort();
    }
    return memcpy(p, s, n);
}

/* ---- hashing and interning ---- */

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fputs("tensorlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void table_grow(table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 256;
    uint32_t *slot = xcalloc(cap, sizeof *slot);
    uint64_t *hash = xcalloc(cap, sizeof *hash);
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

#define NO_LB INT64_MIN

static int64_t lb_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (a == NO_LB || b == NO_LB || a < 0 || b < 0)
        return NO_LB;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t lb_of(sx_int a);
static double hint_of(sx_int a);

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
        k.lb = 1;
        k.hint = 1000.0 + 13.0 * k.sym + 3.0;
        break;
    case A_DIV: {
        int64_t la = lb_of(k.a), lbb = lb_of(k.b);
        k.lb = la != NO_LB && la >= 0 && lbb != NO_LB && lbb >= 1 ? 0 : NO_LB;
        /* exact at the generic point: n*(d/n) == d decides as "d is a multiple of
         * n", and d/n == 1 as "d/n > 1" (a generic quotient is not an integer) */
        k.hint = hint_of(k.a) / hint_of(k.b);
        break;
    }
    case A_MAX: case A_MIN: {
        int64_t la = lb_of(k.a), lbb = lb_of(k.b);
        if (k.kind == A_MAX)
            k.lb = la == NO_LB ? lbb : lbb == NO_LB ? la : (la > lbb ? la : lbb);
        else
            k.lb = la == NO_LB || lbb == NO_LB ? NO_LB : (la < lbb ? la : lbb);
        double ha = hint_of(k.a), hb = hint_of(k.b);
        k.hint = k.kind == A_MAX ? fmax(ha, hb) : fmin(ha, hb);
        break;
    }
    }
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

static uint32_t mono_intern(const factor *f, uint32_t n)
{
    uint64_t h = 7;
    for (uint32_t i = 0; i < n; i++)
        h = mix(mix(h, f[i].atom), f[i].pow);
    mono_key k = {f, n};
    size_t at;
    uint32_t id = table_find(&S.mono_tab, h, mono_same, &k, &at);
    if (id)
        return id;
    mono m = {(uint32_t)S.factors.n, n, 1, 1.0, 0};
    for (uint32_t i = 0; i < n; i++) {
        const atom *a = &S.atoms.items[f[i].atom];
        for (uint32_t p = 0; p < f[i].pow; p++) {
            m.lb = lb_mul(m.lb, a->lb);
            m.hint *= a->hint;
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

struct spoly {
    int64_t c;
    uint32_t n;
    bool big; /* overflowed or too many terms */
    term t[SX_MAX_TERMS * SX_MAX_TERMS];
};

static bool poly_same(uint32_t id, const void *key)
{
    const poly *p = &S.polys.items[id];
    const spoly *k = key;
    return p->c == k->c && p->n == k->n &&
           memcmp(&S.terms.items[p->first], k->t, k->n * sizeof *k->t) == 0;
}

static void ensure_reserved(void)
{
    if (S.polys.n == 0) {
        poly nil = {0};
        VEC_PUSH(S.polys, nil); /* 0: known values */
        VEC_PUSH(S.polys, nil); /* SX_TOO_BIG */
    }
}

static int term_cmp(const void *a, const void *b)
{
    const term *x = a, *y = b;
    return x->mono < y->mono ? -1 : x->mono > y->mono;
}

/* Sort, merge equal monomials, drop zero terms, intern. */
static sx_int intern(spoly *s)
{
    if (s->big)
        goto too_big;
    qsort(s->t, s->n, sizeof s->t[0], term_cmp);
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

static spoly *scratch(int which)
{
    spoly **buf = S.scratch;
    if (!buf[which])
        buf[which] = xcalloc(1, sizeof *buf[which]);
    buf[which]->c = 0;
    buf[which]->n = 0;
    buf[which]->big = false;
    return buf[which];
}

/* Terms of a (0 for a known value). */
static const term *terms_of(sx_int a, uint32_t *n, int64_t *c)
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

static sx_int atom_expr(uint32_t atom_id)
{
    factor f = {atom_id, 1};
    spoly *s = scratch(0);
    s->t[0] = (term){mono_intern(&f, 1), 1};
    s->n = 1;
    return intern(s);
}

/* ---- facts ---- */

static int64_t lb_of(sx_int a)
{
    if (a.e == 0)
        return a.c;
    if (a.e == SX_TOO_BIG)
        return NO_LB;
    uint32_t n;
    int64_t lb;
    const term *t = terms_of(a, &n, &lb);
    for (uint32_t i = 0; i < n; i++) {
        int64_t m = S.monos.items[t[i].mono].lb, x;
        if (t[i].coef < 0 || m == NO_LB)
            return NO_LB;
        if (__builtin_mul_overflow(t[i].coef, m, &x) || __builtin_add_overflow(lb, x, &lb))
            return INT64_MAX;
    }
    return lb;
}

static double hint_of(sx_int a)
{
    if (a.e == 0)
        return (double)a.c;
    uint32_t n;
    int64_t c;
    const term *t = terms_of(a, &n, &c);
    double h = (double)c;
    for (uint32_t i = 0; i < n; i++)
        h += (double)t[i].coef * S.monos.items[t[i].mono].hint;
    return h;
}

/* ---- arithmetic ---- */

static bool big(sx_int a) { return a.e == SX_TOO_BIG; }

static sx_int too_big(void)
{
    S.failed = true;
    return (sx_int){0, SX_TOO_BIG};
}

static sx_int add_scaled(sx_int a, sx_int b, int64_t k)
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

static sx_int minmax(int kind, sx_int a, sx_int b)
{
    if (big(a) || big(b))
        return too_big();
    bool ge;
    if (sx_prove(a, SX_GE, b, &ge))
        return (kind == A_MAX) == ge ? a : b;
    if (a.e > b.e || (a.e == b.e && a.c > b.c)) {
        sx_int t = a;
        a = b;
        b = t;
    }
    return binary_atom(kind, a, b);
}

sx_int sx_max(sx_int a, sx_int b) { return minmax(A_MAX, a, b); }
sx_int sx_min(sx_int a, sx_int b) { return minmax(A_MIN, a, b); }

/* ---- comparisons ---- */

bool sx_prove(sx_int a, sx_rel rel, sx_int b, bool *out)
{
    if (big(a) || big(b)) {
        S.failed = true;
        return false;
    }
    sx_int d = sx_sub(a, b);
    if (big(d))
        return false;
    if (d.e == 0) {
        switch (rel) {
        case SX_EQ: *out = d.c == 0; break;
        case SX_NE: *out = d.c != 0; break;
        case SX_LT: *out = d.c < 0; break;
        case SX_LE: *out = d.c <= 0; break;
        case SX_GT: *out = d.c > 0; break;
        case SX_GE: *out = d.c >= 0; break;
        }
        return true;
    }
    int64_t lo = lb_of(d), hi_neg = lb_of(sx_neg(d)); /* d >= lo, -d >= hi_neg */
    bool pos = lo != NO_LB && lo > 0, nonneg = lo != NO_LB && lo >= 0;
    bool neg = hi_neg != NO_LB && hi_neg > 0, nonpos = hi_neg != NO_LB && hi_neg >= 0;
    switch (rel) {
    case SX_EQ: case SX_NE:
        if (!pos && !neg)
            return false;
        *out = rel == SX_NE;
        return true;
    case SX_GT: case SX_LE:
        if (pos || nonpos) {
            *out = (rel == SX_GT) == pos;
            return true;
        }
        return false;
    case SX_GE: case SX_LT:
        if (nonneg || neg) {
            *out = (rel == SX_GE) == nonneg;
            return true;
        }
        return false;
    }
    return false;
}

static void record(sx_int d, const char *op);

bool sx_cmp(sx_int a, sx_rel rel, sx_int b)
{
    bool r;
    if (sx_prove(a, rel, b, &r))
        return r;
    if (big(a) || big(b))
        return false;
    sx_int d = sx_sub(a, b);
    if (big(d))
        return false;
    double h = hint_of(d);
    switch (rel) {
    case SX_EQ: r = h == 0; break;
    case SX_NE: r = h != 0; break;
    case SX_LT: r = h < 0; break;
    case SX_LE: r = h <= 0; break;
    case SX_GT: r = h > 0; break;
    case SX_GE: r = h >= 0; break;
    }
    /* the condition assumed, as the generic values decided it */
    if (rel == SX_EQ || rel == SX_NE)
        record(d, h > 0 ? ">" : h < 0 ? "<" : "==");
    else if (rel == SX_LT || rel == SX_GE)
        record(d, h < 0 ? "<" : ">=");
    else
        record(d, h > 0 ? ">" : "<=");
    return r;
}

/* ---- printing ---- */

typedef struct out {
    char *buf;
    size_t size, len;
} out;

static void put(out *o, const char *s)
{
    size_t n = strlen(s);
    if (o->size && o->len + 1 < o->size) {
        size_t k = o->size - 1 - o->len < n ? o->size - 1 - o->len : n;
        memcpy(o->buf + o->len, s, k);
        o->buf[o->len + k] = 0;
    }
    o->len += n;
}

static void put_expr(out *o, sx_int a, bool in_product);

static bool is_single_atom_or_known(sx_int a)
{
    if (a.e == 0)
        return a.c >= 0;
    uint32_t n;
    int64_t c;
    const term *t = terms_of(a, &n, &c);
    return n == 1 && c == 0 && t[0].coef == 1 && S.monos.items[t[0].mono].n == 1 &&
           S.factors.items[S.monos.items[t[0].mono].first].pow == 1 &&
           S.atoms.items[S.factors.items[S.monos.items[t[0].mono].first].atom].kind == A_SYM;
}

static void put_atom(out *o, uint32_t id, bool alone)
{
    const atom *a = &S.atoms.items[id];
    switch (a->kind) {
    case A_SYM:
        put(o, S.syms.items[a->sym].name);
        return;
    case A_DIV: {
        sx_int x = a->a, y = a->b;
        if (!alone)
            put(o, "(");
        bool px = !is_single_atom_or_known(x), py = !is_single_atom_or_known(y);
        if (px)
            put(o, "(");
        put_expr(o, x, false);
        put(o, px ? ")/" : "/");
        if (py)
            put(o, "(");
        put_expr(o, y, false);
        if (py)
            put(o, ")");
        if (!alone)
            put(o, ")");
        return;
    }
    case A_MAX: case A_MIN: {
        sx_int x = a->a, y = a->b;
        put(o, a->kind == A_MAX ? "max(" : "min(");
        put_expr(o, x, false);
        put(o, ", ");
        put_expr(o, y, false);
        put(o, ")");
        return;
    }
    }
}

static void put_mono(out *o, uint32_t m, bool alone)
{
    const mono *mm = &S.monos.items[m];
    bool first = true;
    for (uint32_t i = 0; i < mm->n; i++) {
        factor f = S.factors.items[mm->first + i];
        for (uint32_t p = 0; p < f.pow; p++) {
            if (!first)
                put(o, "*");
            put_atom(o, f.atom, alone && mm->n == 1 && f.pow == 1);
            first = false;
        }
    }
}

/* Display order: higher degree first, then the order monomials were made. */
static int display_cmp(const void *a, const void *b)
{
    const term *x = a, *y = b;
    int dx = S.monos.items[x->mono].degree, dy = S.monos.items[y->mono].degree;
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return x->mono < y->mono ? -1 : x->mono > y->mono;
}

static void put_expr(out *o, sx_int a, bool in_product)
{
    char num[32];
    if (a.e == 0) {
        snprintf(num, sizeof num, "%lld", (long long)a.c);
        put(o, num);
        return;
    }
    if (a.e == SX_TOO_BIG) {
        put(o, "?");
        return;
    }
    uint32_t n;
    int64_t c;
    const term *t0 = terms_of(a, &n, &c);
    term t[SX_MAX_TERMS];
    memcpy(t, t0, n * sizeof *t);
    qsort(t, n, sizeof *t, display_cmp);
    bool paren = in_product && (n > 1 || c != 0);
    if (paren)
        put(o, "(");
    for (uint32_t i = 0; i < n; i++) {
        int64_t k = t[i].coef;
        if (i > 0)
            put(o, k < 0 ? " - " : " + ");
        else if (k < 0)
            put(o, "-");
        uint64_t mag = k < 0 ? (uint64_t)0 - (uint64_t)k : (uint64_t)k;
        if (mag != 1) {
            snprintf(num, sizeof num, "%llu*", (unsigned long long)mag);
            put(o, num);
        }
        put_mono(o, t[i].mono, n == 1 && c == 0 && mag == 1 && !in_product);
    }
    if (c != 0) {
        uint64_t mag = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
        snprintf(num, sizeof num, "%s%llu", c < 0 ? " - " : " + ", (unsigned long long)mag);
        put(o, num);
    }
    if (paren)
        put(o, ")");
}

const char *sx_str(sx_int a, char *buf, size_t size)
{
    out o = {buf, size, 0};
    if (size)
        buf[0] = 0;
    put_expr(&o, a, false);
    return buf;
}

/* "d rel 0" as "L rel R": the positive terms on the left, the rest on the right. */
static void record(sx_int d, const char *op)
{
    char left[256], right[256], text[600];
    uint32_t n;
    int64_t c;
    const term *t = terms_of(d, &n, &c);
    spoly *l = scratch(2);
    term lt[SX_MAX_TERMS], rt[SX_MAX_TERMS];
    uint32_t nl = 0, nr = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (t[i].coef > 0)
            lt[nl++] = t[i];
        else
            rt[nr++] = (term){t[i].mono, -t[i].coef};
    }
    l->n = nl;
    memcpy(l->t, lt, nl * sizeof *lt);
    l->c = c > 0 ? c : 0;
    sx_int L = intern(l);
    spoly *r = scratch(2);
    r->n = nr;
    memcpy(r->t, rt, nr * sizeof *rt);
    r->c = c < 0 ? -c : 0;
    sx_int R = intern(r);
    sx_str(L, left, sizeof left);
    sx_str(R, right, sizeof right);
    snprintf(text, sizeof text, "%s %s %s", left, op, right);
    for (size_t i = 0; i < S.assumptions.n; i++)
        if (strcmp(S.assumptions.items[i].text, text) == 0)
            return;
    assumption a = {xstrdup(text), S.site};
    VEC_PUSH(S.assumptions, a);
}

/* ---- symbols, evaluation ---- */

sx_int sx_symbol(const char *name, const char *origin, int line, int col)
{
    symbol s = {xstrdup(name ? name : "?"), xstrdup(origin ? origin : ""), line, col, false};
    VEC_PUSH(S.syms, s);
    atom k = {A_SYM, (int)S.syms.n - 1, {0, 0}, {0, 0}, 0, 0};
    return atom_expr(atom_intern(k));
}

int sx_n_symbols(void) { return (int)S.syms.n; }
const char *sx_symbol_name(int i) { return S.syms.items[i].name; }
const char *sx_symbol_origin(int i) { return S.syms.items[i].origin; }
int sx_symbol_line(int i) { return S.syms.items[i].line; }
int sx_symbol_col(int i) { return S.syms.items[i].col; }
bool sx_symbol_used(int i) { return S.syms.items[i].used; }

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

/* ---- state ---- */

void sx_set_site(int line) { S.site = line; }
int sx_n_assumptions(void) { return (int)S.assumptions.n; }
const char *sx_assumption_text(int i) { return S.assumptions.items[i].text; }
int sx_assumption_line(int i) { return S.assumptions.items[i].line; }
bool sx_failed(void) { return S.failed; }
void sx_clear_failed(void) { S.failed = false; }

void sx_reset(void)
{
    for (size_t i = 0; i < S.syms.n; i++) {
        free(S.syms.items[i].name);
        free(S.syms.items[i].origin);
    }
    for (size_t i = 0; i < S.assumptions.n; i++)
        free(S.assumptions.items[i].text);
    free(S.syms.items);
    free(S.atoms.items);
    free(S.factors.items);
    free(S.monos.items);
    free(S.terms.items);
    free(S.polys.items);
    free(S.assumptions.items);
    free(S.atom_tab.slot);
    free(S.atom_tab.hash);
    free(S.mono_tab.slot);
    free(S.mono_tab.hash);
    free(S.poly_tab.slot);
    free(S.poly_tab.hash);
    for (int k = 0; k < 3; k++)
        free(S.scratch[k]);
    memset(&S, 0, sizeof S);
}
