/*
 * sym_prove.c: comparisons of symbolic integers (see sym.h): the proofs
 * from lower bounds, facts and exact divisions (sx_prove), the decisions at
 * the generic point that become assumptions (sx_cmp, sx_assume), and the
 * text of conditions.  Interning, arithmetic and the state are sym.c's.
 *
 * A comparison is of d = a - b with 0.  A proof uses what is known for
 * every value (atoms' lower bounds, the facts pushed, divisions an
 * assumption made exact); what no proof decides is decided at the generic
 * point, unless the point cannot tell (a size past those it places, a
 * quotient 0 there, two products equal there by accident): then the
 * answer is unknown (sx_failed), never a guess.  Each decision is recorded
 * once, in the form a reader checks it ("n > 1").
 */
#include "sym.h"

#include <math.h>
#include <string.h>

#include "sym_internal.h"
/* ---- comparisons ---- */

/* The atom of an expression that is one atom alone (any kind), else 0. */
uint32_t lone_atom_any(sx_int a)
{
    uint32_t n;
    int64_t c;
    if (a.e == 0 || big(a))
        return 0;
    const term *t = terms_of(a, &n, &c);
    if (n != 1 || c != 0 || t[0].coef != 1 || S.monos.items[t[0].mono].n != 1 ||
        S.factors.items[S.monos.items[t[0].mono].first].pow != 1)
        return 0;
    return S.factors.items[S.monos.items[t[0].mono].first].atom;
}

static bool sx_same_neg(sx_int a, sx_int b)
{
    sx_int s = sx_add(a, b);
    return s.e == 0 && s.c == 0;
}

/* d with each b*floor(a/b) an assumption made exact replaced by a,
 * remembered per expression while the exact divisions stay the same. */
static sx_int apply_exact_uncached(sx_int d);

static sx_int apply_exact(sx_int d)
{
    enum { SLOTS = 4096 };
    static _Thread_local struct { uint32_t e; uint64_t gen; sx_int out; } memo[SLOTS];
    if (S.exact.n == 0 || d.e == 0 || big(d))
        return d;
    uint32_t slot = (d.e * 2654435761u) % SLOTS;
    if (memo[slot].e == d.e && memo[slot].gen == exact_generation)
        return memo[slot].out;
    sx_int out = apply_exact_uncached(d);
    memo[slot].e = d.e;
    memo[slot].gen = exact_generation;
    memo[slot].out = out;
    return out;
}

static sx_int apply_exact_uncached(sx_int d)
{
    for (int round = 0; round < 8 && S.exact.n > 0 && d.e != 0 && !big(d); round++) {
        uint32_t n;
        int64_t c;
        const term *t0 = terms_of(d, &n, &c);
        term t[SX_MAX_TERMS];
        memcpy(t, t0, n * sizeof *t);
        sx_int r = {c, 0};
        bool changed = false;
        for (uint32_t i = 0; i < n; i++) {
            mono m = S.monos.items[t[i].mono];
            factor f[SX_MAX_TERMS];
            if (m.n > SX_MAX_TERMS)
                return d;
            memcpy(f, &S.factors.items[m.first], m.n * sizeof *f);
            sx_int num = {1, 0};
            for (size_t e = 0; e < S.exact.n; e++) {
                int at_div = -1, at_b = -1;
                for (uint32_t j = 0; j < m.n; j++) {
                    if (f[j].atom == S.exact.items[e].div && f[j].pow > 0)
                        at_div = (int)j;
                    if (f[j].atom == S.exact.items[e].divisor && f[j].pow > 0)
                        at_b = (int)j;
                }
                if (at_div < 0 || at_b < 0)
                    continue;
                f[at_div].pow--;
                f[at_b].pow--;
                num = sx_mul(num, S.atoms.items[S.exact.items[e].div].a);
                changed = true;
                break;
            }
            sx_int x = sx_mul((sx_int){t[i].coef, 0}, num);
            for (uint32_t j = 0; j < m.n; j++)
                for (uint32_t p = 0; p < f[j].pow; p++)
                    x = sx_mul(x, atom_expr(f[j].atom));
            r = sx_add(r, x);
        }
        if (!changed)
            break;
        d = r;
    }
    return d;
}

/* An assumption "d == 0" that says b*floor(a/b) == a makes that division exact. */
static void note_exact(sx_int d)
{
    uint32_t n;
    int64_t c;
    if (d.e == 0 || big(d))
        return;
    const term *t0 = terms_of(d, &n, &c);
    term t[SX_MAX_TERMS]; /* copies: building expressions below may move the tables */
    memcpy(t, t0, n * sizeof *t);
    for (uint32_t i = 0; i < n; i++) {
        mono m = S.monos.items[t[i].mono];
        for (uint32_t j = 0; j < m.n; j++) {
            uint32_t id = S.factors.items[m.first + j].atom;
            atom k = S.atoms.items[id];
            uint32_t b = k.kind == A_DIV ? lone_atom_any(k.b) : 0;
            if (!b)
                continue;
            sx_int form = sx_sub(sx_mul(k.b, atom_expr(id)), k.a);
            if ((form.e == d.e && form.c == d.c) || sx_same_neg(form, d)) {
                exact_div e = {id, b, S.assumptions.n - 1};
                VEC_PUSH(S.exact, e);
                exact_generation++;
                proof_generation++;
                return;
            }
        }
    }
}

static bool prove_diff(sx_int d, sx_rel rel, bool *out);
static bool prove_by_operands(sx_int d, sx_rel rel, bool *out);
static sx_int divide_common_symbols(sx_int d);

static bool prove_uncached(sx_int d, sx_rel rel, bool *out)
{
    if (prove_diff(d, rel, out))
        return true;
    sx_int x = apply_exact(d); /* with the divisions assumed exact */
    if (x.e != d.e && !big(x) && prove_diff(x, rel, out))
        return true;
    /* dim*n - 2*dim*q has the sign of n - 2*q, which a fact may decide */
    x = divide_common_symbols(d);
    if (x.e != d.e && !big(x) && prove_diff(x, rel, out))
        return true;
    return prove_by_operands(d, rel, out);
}

bool sx_prove(sx_int a, sx_rel rel, sx_int b, bool *out)
{
    enum { SLOTS = 4096 }; /* a direct-mapped memo: peaks and loops ask the same again */
    static _Thread_local struct {
        uint64_t gen;
        uint32_t e;
        int64_t c;
        sx_rel rel;
        bool decided, result;
    } memo[SLOTS];
    if (big(a) || big(b)) {
        S.failed = true;
        return false;
    }
    sx_int d = sx_sub(a, b);
    if (big(d))
        return false;
    if (d.e == 0)
        return prove_diff(d, rel, out);
    size_t at = (size_t)(mix(mix(d.e, (uint64_t)d.c), (uint64_t)rel) & (SLOTS - 1));
    if (memo[at].gen == proof_generation && memo[at].e == d.e && memo[at].c == d.c &&
        memo[at].rel == rel) {
        if (memo[at].decided)
            *out = memo[at].result;
        return memo[at].decided;
    }
    uint64_t gen = proof_generation;
    bool r = false, decided = prove_uncached(d, rel, &r);
    if (gen != proof_generation) { /* (no proof changes the state; if one did, keep nothing) */
        if (decided)
            *out = r;
        return decided;
    }
    memo[at].gen = gen;
    memo[at].e = d.e;
    memo[at].c = d.c;
    memo[at].rel = rel;
    memo[at].decided = decided;
    memo[at].result = r;
    if (decided)
        *out = r;
    return decided;
}

/* d >= 0 follows from d' >= 0 where d' <= d puts an operand in place of a
 * min with a negative coefficient or a max with a positive one
 * (n - min(s, n) >= n - n); d <= 0 likewise.  One atom at a time. */
static bool operands_hold(sx_int d, sx_rel rel)
{
    uint32_t n;
    int64_t c;
    bool lower = rel == SX_GT || rel == SX_GE; /* want d > 0 or d >= 0: bound d below */
    const term *t0 = terms_of(d, &n, &c);
    term t[SX_MAX_TERMS];
    memcpy(t, t0, n * sizeof *t);
    for (uint32_t i = 0; i < n; i++) {
        mono m = S.monos.items[t[i].mono];
        if (m.n != 1 || S.factors.items[m.first].pow != 1)
            continue;
        uint32_t id = S.factors.items[m.first].atom;
        atom k = S.atoms.items[id];
        bool neg = (t[i].coef < 0) == lower; /* the term pulls d down (up) */
        if (!((k.kind == A_MIN && neg) || (k.kind == A_MAX && !neg)))
            continue;
        sx_int ops[2] = {k.a, k.b};
        for (int o = 0; o < 2; o++) {
            sx_int relaxed = subst(d, id, ops[o]);
            bool r;
            if (big(relaxed) || !prove_diff(relaxed, rel, &r))
                continue;
            if (r) /* the relaxed side holds, so d's does */
                return true;
        }
    }
    return false;
}

/* d rel 0 decided by operands_hold: it holds, or its negation does
 * (64*min(16, n) - 1024 > 0 is false: 64*16 - 1024 <= 0). */
static bool prove_by_operands(sx_int d, sx_rel rel, bool *out)
{
    static const sx_rel negation[] = {[SX_LT] = SX_GE, [SX_LE] = SX_GT, [SX_GT] = SX_LE,
                                      [SX_GE] = SX_LT};
    if (d.e == 0 || big(d) || rel == SX_EQ || rel == SX_NE)
        return false;
    if (operands_hold(d, rel)) {
        *out = true;
        return true;
    }
    if (operands_hold(d, negation[rel])) {
        *out = false;
        return true;
    }
    return false;
}

/* Do a and b have a factor (an atom of a monomial) in common? */
static bool shares_factor(sx_int a, sx_int b)
{
    uint32_t na, nb;
    int64_t ca, cb;
    if (a.e == 0 || b.e == 0 || big(a) || big(b))
        return false;
    const term *ta = terms_of(a, &na, &ca), *tb = terms_of(b, &nb, &cb);
    for (uint32_t i = 0; i < na; i++) {
        const mono *ma = &S.monos.items[ta[i].mono];
        for (uint32_t x = 0; x < ma->n; x++)
            for (uint32_t j = 0; j < nb; j++) {
                const mono *mb = &S.monos.items[tb[j].mono];
                for (uint32_t y = 0; y < mb->n; y++)
                    if (S.factors.items[ma->first + x].atom == S.factors.items[mb->first + y].atom)
                        return true;
            }
    }
    return false;
}

/* How many times fact f goes into d: the ratio of their coefficients on
 * the first monomial both have, when it is a positive integer (4*n - 8*q
 * against n - 2*q - 1: 4), else 1. */
static int64_t fact_scale(sx_int d, sx_int f)
{
    uint32_t nd, nf;
    int64_t cd, cf;
    if (d.e == 0 || f.e == 0 || big(d) || big(f))
        return 1;
    const term *tf = terms_of(f, &nf, &cf), *td = terms_of(d, &nd, &cd);
    for (uint32_t j = 0; j < nf; j++)
        for (uint32_t i = 0; i < nd; i++)
            if (td[i].mono == tf[j].mono)
                return tf[j].coef != 0 && td[i].coef != INT64_MIN &&
                               td[i].coef % tf[j].coef == 0 &&
                               td[i].coef / tf[j].coef > 0
                           ? td[i].coef / tf[j].coef
                           : 1;
    return 1;
}

/* The best lower bound of d less a multiple of one fact or of two (a counter
 * l <= n - 1 and the fact n <= steps give steps - l >= 1), better than lo. */
static int64_t lb_facts(sx_int d, int64_t lo)
{
    for (size_t i = 0; i < S.facts.n; i++) { /* d = k*f + r with f >= 0, k >= 1: d >= lb(r) */
        sx_int f = S.facts.items[i];
        if (!shares_factor(d, f))
            continue; /* r's terms are d's and -k*f's apart: no bound better than d's */
        sx_int r1 = add_scaled(d, f, -fact_scale(d, f));
        int64_t r = lb_of(r1);
        if (r != NO_LB && (lo == NO_LB || r > lo))
            lo = r;
        for (size_t j = 0; j < S.facts.n && r1.e != 0 && !big(r1); j++) {
            sx_int g = S.facts.items[j];
            if (j == i || !shares_factor(r1, g))
                continue;
            r = lb_of(add_scaled(r1, g, -fact_scale(r1, g)));
            if (r != NO_LB && (lo == NO_LB || r > lo))
                lo = r;
        }
    }
    return lo;
}

/* Decide d rel 0 from the bounds and facts. */
static bool prove_diff(sx_int d, sx_rel rel, bool *out)
{
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
    int64_t lo = lb_of(d), hi_neg = lb_signed(d, -1); /* d >= lo, -d >= hi_neg */
    if (S.facts.n > 0) {
        lo = lb_facts(d, lo);
        hi_neg = lb_facts(sx_neg(d), hi_neg);
    }
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

/* ---- the generic point's values, exactly ---- */

static bool exact_hint(sx_int a, double *out, int depth);

/* A coefficient the doubles hold exactly. */
static bool c_too_wide(int64_t c) { return c > (INT64_C(1) << 53) || c < -(INT64_C(1) << 53); }

/* x is a finite integer (a double is what it holds: only how it was
 * computed may have rounded). */
static bool exact_int(double x) { return isfinite(x) && x == floor(x); }

/* Atom id's value at the point is its hint, exactly: a symbol's is an
 * integer; a max or min is one of its operands' exact values; a quotient's
 * floor is checked against its exact operands (fma rounds once, so the
 * sign of q*b - a is exact). */
static bool exact_atom(uint32_t id, int depth)
{
    double hk = atom_hint(id);
    const atom *k = &S.atoms.items[id];
    if (!exact_int(hk))
        return false;
    if (k->kind == A_SYM)
        return true;
    double ha, hb;
    if (depth > 8 || !exact_hint(k->a, &ha, depth + 1) || !exact_hint(k->b, &hb, depth + 1))
        return false;
    if (k->kind == A_MAX)
        return hk == fmax(ha, hb);
    if (k->kind == A_MIN)
        return hk == fmin(ha, hb);
    double q = hk;
    if (hb > 0 && fma(q, hb, -ha) == 0)
        return true; /* q*b == a exactly (fma rounds once: a difference of integers
                        that is not 0 is at least 1), so q is a/b, however large */
    return hb > 0 && q + 1 != q && fma(q, hb, -ha) <= 0 && fma(q + 1, hb, -ha) > 0;
}

/* The product x*y, when no bit of it is rounded off. */
static bool exact_mul(double x, double y, double *out)
{
    double p = x * y;
    if (!isfinite(p) || fma(x, y, -p) != 0)
        return false;
    *out = p;
    return true;
}

/* a's value at the generic point when the doubles compute it with no
 * rounding (each product's and sum's error 0: fma, and Knuth's two-sum),
 * so that its sign and its being 0 are a's own there. */
static bool exact_hint(sx_int a, double *out, int depth)
{
    uint32_t n;
    int64_t c;
    if (a.e == 0) {
        *out = (double)a.c;
        return !c_too_wide(a.c);
    }
    const term *t = terms_of(a, &n, &c);
    double sum = (double)c;
    if (c_too_wide(c))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const mono *m = &S.monos.items[t[i].mono];
        double v = 1, x;
        for (uint32_t f = 0; f < m->n; f++) {
            const factor *fa = &S.factors.items[m->first + f];
            if (!exact_atom(fa->atom, depth))
                return false;
            for (uint32_t p = 0; p < fa->pow; p++)
                if (!exact_mul(v, atom_hint(fa->atom), &v))
                    return false;
        }
        if (c_too_wide(t[i].coef) || !exact_mul((double)t[i].coef, v, &x))
            return false;
        double s = sum + x, bv = s - sum;
        if (!isfinite(s) || (sum - (s - bv)) + (x - bv) != 0)
            return false;
        sum = s;
    }
    *out = sum;
    return true;
}


/* Is the atom anything but a symbol with a generic value of its own? */
static bool not_plain_symbol(uint32_t id, const void *ctx)
{
    (void)ctx;
    const atom *a = &S.atoms.items[id];
    return a->kind != A_SYM || S.syms.items[a->sym].rank < 0;
}

/* Why d's value h at the generic point cannot decide a comparison (NULL: it
 * can).  The point has no value for d (past its symbols, a quotient that is
 * 0 there); d is a polynomial in sizes alone, not 0, whose value there is 0
 * (two products of sizes that happen to be equal there: n*q and m*p when
 * every size is a power of two); or d's terms cancel below what a double
 * tells apart (unless exact: the doubles hold d's value there exactly). */
static const char *generic_doubt(sx_int d, double h, bool exact)
{
    if (isnan(h))
        return "the comparison needs a run-time size that the values the analysis decides "
               "comparisons at have no room for (" SX_GENERIC_SIZES_TEXT " sizes compared, "
               "each at least twice the next), or a quotient of sizes that may be 0";
    uint32_t n;
    int64_t c;
    const term *t = terms_of(d, &n, &c);
    double mag = fabs((double)c);
    for (uint32_t i = 0; i < n; i++)
        mag += fabs((double)t[i].coef * mono_hint(t[i].mono));
    if (h == 0 && !any_atom(d, not_plain_symbol, NULL))
        return "two formulas in the sizes are equal at the values the analysis decides "
               "comparisons at, and not for every size";
    if (!exact && mag >= 0x1p52 && fabs(h) <= mag * 0x1p-40)
        return "the formulas compared are too close to tell apart at the values the analysis "
               "decides comparisons at";
    return NULL;
}

bool point_holds(sx_int d, const char *op)
{
    if (big(d))
        return true; /* (no value: nothing to break) */
    double h = hint_of(d);
    if (isnan(h))
        return true;
    bool exact = exact_hint(d, &h, 0);
    if (!exact && (h == 0 || generic_doubt(d, h, exact)))
        return false;
    switch (op[0]) {
    case '=': return h == 0;
    case '!': return h != 0;
    case '<': return op[1] == '=' ? h <= 0 : h < 0;
    default: return op[1] == '=' ? h >= 0 : h > 0;
    }
}

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
    if (isnan(h) && place_symbols(d)) /* the sizes it needs take places now */
        h = hint_of(d);
    bool exact = exact_hint(d, &h, 0);
    const char *why = generic_doubt(d, h, exact);
    if (why) { /* not decided, and nothing assumed: unknown from here on */
        S.failed = true;
        S.fail_why = why;
        return false;
    }
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


/* "k*X + c > 0" (or >=) on one atom X with k > 0 raises X's lower bound. */
static void raise_bound(sx_int d, const char *op)
{
    uint32_t n;
    int64_t c;
    if (op[0] != '>' || d.e == 0)
        return;
    const term *t = terms_of(d, &n, &c);
    if (n != 1 || t[0].coef <= 0 || S.monos.items[t[0].mono].n != 1 ||
        S.factors.items[S.monos.items[t[0].mono].first].pow != 1 || c == INT64_MIN)
        return;
    uint32_t id = S.factors.items[S.monos.items[t[0].mono].first].atom;
    int64_t k = t[0].coef, need = -c; /* k*X >= need (+1 when strict) */
    if (op[1] == 0 && __builtin_add_overflow(need, 1, &need))
        return;
    int64_t lb = need / k + (need % k > 0); /* ceil(need / k) */
    if (S.atoms.items[id].lb != NO_LB && S.atoms.items[id].lb >= lb)
        return;
    lb_raise r = {id, S.atoms.items[id].lb, S.assumptions.n - 1};
    VEC_PUSH(S.raises, r);
    S.atoms.items[id].lb = lb;
    proof_generation++;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
    uint64_t y = b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x > INT64_MAX ? 1 : (int64_t)x;
}

/* "d op 0" in its plainest form: d divided by the gcd of its coefficients
 * and constant (rounding the constant toward the condition for < and >),
 * and of "d < 0" and "d + 1 <= 0" the one without a constant when there is one. */
/* d with a symbol every term has divided out (no constant term; a symbol is
 * >= 1, so the sign and a zero stay as they were): n*d - n is d - 1. */
static sx_int divide_common_symbols(sx_int d)
{
    for (int round = 0; round < 8; round++) {
        uint32_t n;
        int64_t c;
        const term *t = terms_of(d, &n, &c);
        if (c != 0 || n < 2)
            return d;
        mono m0 = S.monos.items[t[0].mono];
        uint32_t common = 0;
        for (uint32_t j = 0; j < m0.n && !common; j++) {
            uint32_t a = S.factors.items[m0.first + j].atom;
            if (S.atoms.items[a].kind != A_SYM)
                continue;
            bool everywhere = true;
            for (uint32_t i = 1; i < n && everywhere; i++) {
                mono m = S.monos.items[t[i].mono];
                bool has = false;
                for (uint32_t k = 0; k < m.n && !has; k++)
                    has = S.factors.items[m.first + k].atom == a;
                everywhere = has;
            }
            if (everywhere)
                common = a;
        }
        if (!common)
            return d;
        term tt[SX_MAX_TERMS];
        memcpy(tt, t, n * sizeof *tt);
        spoly *q = scratch(2);
        q->n = n;
        q->c = 0;
        for (uint32_t i = 0; i < n; i++) {
            mono m = S.monos.items[tt[i].mono];
            factor f[SX_MAX_TERMS];
            uint32_t nf = 0;
            for (uint32_t k = 0; k < m.n && nf < SX_MAX_TERMS; k++) {
                factor x = S.factors.items[m.first + k];
                if (x.atom == common && --x.pow == 0)
                    continue;
                f[nf++] = x;
            }
            if (nf == 0) { /* the term was the symbol alone: a constant now */
                q->c += tt[i].coef;
                q->n--;
                continue;
            }
            q->t[i - (n - q->n)] = (term){mono_intern(f, nf), tt[i].coef};
        }
        d = intern(q);
    }
    return d;
}

static void plain_condition(sx_int *d, const char **op)
{
    uint32_t n;
    int64_t c, g = 0;
    *d = divide_common_symbols(*d);
    const term *t = terms_of(*d, &n, &c);
    for (uint32_t i = 0; i < n; i++)
        g = gcd64(g, t[i].coef);
    if (g > 1) { /* g*p + c op 0  <=>  p + c/g op 0, c/g rounded the safe way */
        spoly *q = scratch(2);
        q->n = n;
        for (uint32_t i = 0; i < n; i++)
            q->t[i] = (term){t[i].mono, t[i].coef / g};
        int64_t fl = c / g - (c % g != 0 && c < 0), ce = fl + (c % g != 0);
        if (c % g == 0)
            q->c = c / g;
        else if ((*op)[0] == '=')
            return; /* g*p == -c has no integer solution: leave it as it is */
        else /* g*p + c >= 0 is p + floor(c/g) >= 0; > and <= take the ceiling */
            q->c = (*op)[0] == '>' ? ((*op)[1] ? fl : ce) : ((*op)[1] ? ce : fl);
        *d = intern(q);
        t = terms_of(*d, &n, &c);
    }
    if ((*op)[0] == '=')
        return;
    /* strict or not: d < 0 is d + 1 <= 0, d > 0 is d - 1 >= 0; the other form
     * when it drops the constant ("steps <= seq_len", not "steps < seq_len + 1") */
    bool strict = (*op)[1] == 0, less = (*op)[0] == '<';
    int64_t other = strict ? (less ? c + 1 : c - 1) : (less ? c - 1 : c + 1);
    if (other == 0) {
        *d = sx_add(*d, (sx_int){other - c, 0});
        *op = less ? (strict ? "<=" : "<") : (strict ? ">=" : ">");
    }
}

/* "d op 0" (plain) as text "L op R", the positive terms on the left. */
static void cond_text(sx_int d, const char *op, char *text, size_t size)
{
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
    if (L.e == 0 && R.e != 0) { /* "dim > 1", not "1 < dim" */
        sx_int t = L;
        L = R;
        R = t;
        op = op[0] == '<' ? (op[1] ? ">=" : ">") : op[0] == '>' ? (op[1] ? "<=" : "<") : op;
    }
    char *left = sx_strdup(L), *right = sx_strdup(R);
    snprintf(text, size, "%s %s %s", left, op, right);
    free(left);
    free(right);
}

sx_int sx_plain_nonneg(sx_int d, bool strict)
{
    const char *op = strict ? ">" : ">=";
    if (big(d) || d.e == 0)
        return strict ? sx_sub(d, (sx_int){1, 0}) : d;
    plain_condition(&d, &op);
    return op[1] ? d : sx_sub(d, (sx_int){1, 0}); /* d > 0 is d - 1 >= 0 */
}

const char *sx_cond_str(sx_int a, sx_rel rel, sx_int b, char *buf, size_t size)
{
    static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
    sx_int d = sx_sub(a, b);
    const char *op = ops[rel];
    if (big(d) || d.e == 0 || rel == SX_NE) {
        char *x = sx_strdup(a), *y = sx_strdup(b);
        snprintf(buf, size, "%s %s %s", x, op, y);
        free(x);
        free(y);
        return buf;
    }
    plain_condition(&d, &op);
    cond_text(d, op, buf, size);
    return buf;
}

static void record(sx_int d, const char *op)
{
    char text[8192];
    plain_condition(&d, &op);
    for (size_t i = 0; i < S.assumptions.n; i++) /* the same condition (symbols may share names) */
        if (S.assumptions.items[i].d.e == d.e && S.assumptions.items[i].d.c == d.c &&
            strcmp(S.assumptions.items[i].op, op) == 0)
            return;
    cond_text(d, op, text, sizeof text);
    assumption a = {tl_xstrdup(text), S.site, d, op};
    VEC_PUSH(S.assumptions, a);
    raise_bound(d, op);
    if (op[0] == '=')
        note_exact(d);
}

void sx_assume(sx_int d, const char *op)
{
    if (!big(d) && d.e != 0)
        record(d, op);
}

/* Assumption i as "f >= 0" over the integers (d > 0 is d - 1 >= 0, d < 0 is
 * -d - 1 >= 0); false for an equation. */
static bool as_nonneg(size_t i, sx_int *f)
{
    const assumption *a = &S.assumptions.items[i];
    bool less = a->op[0] == '<', strict = a->op[1] == 0;
    if (a->op[0] == '=')
        return false;
    *f = less ? sx_neg(a->d) : a->d;
    if (strict)
        *f = sx_sub(*f, (sx_int){1, 0});
    return !big(*f);
}

/* Assumption j an equation "s == v" of one symbol s (d = s - v or v - s):
 * f with s replaced by v. */
static bool as_equation_fixes(size_t j, sx_int f, sx_int *out)
{
    const assumption *a = &S.assumptions.items[j];
    uint32_t n;
    int64_t c;
    if (a->op[0] != '=')
        return false;
    (void)terms_of(a->d, &n, &c);
    sx_int rest = sx_sub(a->d, (sx_int){c, 0});
    if (sx_symbol_of(rest) >= 0)
        *out = sx_subst(f, rest, (sx_int){-c, 0});
    else if (sx_symbol_of(sx_neg(rest)) >= 0)
        *out = sx_subst(f, sx_neg(rest), (sx_int){c, 0});
    else
        return false;
    return !big(*out);
}

/* Whether "f >= 0" follows from assumption j (j != skip), which is listed
 * or, when both say the same, comes first (j < skip). */
static bool as_implies(size_t j, sx_int f, size_t skip)
{
    sx_int g, k;
    if (j == skip)
        return false;
    if (as_equation_fixes(j, f, &k)) /* n == 4 implies n >= 1, n > 2 */
        return k.e == 0 && k.c >= 0;
    if (!as_nonneg(j, &g)) /* implied by another: g >= 0, f = g + k */
        return false;
    k = sx_sub(f, g);
    return !big(k) && k.e == 0 && k.c >= 0 && (k.c > 0 || j < skip);
}

bool sx_assumption_listed(int i)
{
    const assumption *a = &S.assumptions.items[i];
    sx_int f;
    uint32_t n;
    int64_t c;
    if (sx_mentions_origin(a->d, "loop"))
        return false; /* a loop's counter in one iteration: no run has a value for it */
    (void)terms_of(a->d, &n, &c);
    if (c >= INT64_C(1) << 62 || c <= -(INT64_C(1) << 62))
        return false; /* n < 2^63 - 1: the products' fitting in 64 bits, said once */
    if (!as_nonneg((size_t)i, &f)) {
        for (size_t j = 0; j < (size_t)i; j++) /* the same equation twice */
            if (S.assumptions.items[j].op[0] == '=' &&
                sx_sub(a->d, S.assumptions.items[j].d).e == 0 &&
                sx_sub(a->d, S.assumptions.items[j].d).c == 0)
                return false;
        return true;
    }
    for (size_t j = 0; j < S.assumptions.n; j++)
        if (as_implies(j, f, (size_t)i))
            return false;
    return true;
}

bool sx_size_floor_listed(int i)
{
    sx_int f = sx_sub(sx_symbol_expr(i), (sx_int){1, 0});
    for (size_t j = 0; j < S.assumptions.n; j++)
        if (sx_assumption_listed((int)j) && as_implies(j, f, S.assumptions.n))
            return false;
    return true;
}

void sx_assumption_get(int i, sx_int *d, const char **op)
{
    *d = S.assumptions.items[i].d;
    *op = S.assumptions.items[i].op;
}

