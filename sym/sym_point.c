/*
 * sym_point.c: the generic point (sym.c's header): the values there of the
 * symbols, given when a comparison first needs them, and of the atoms and
 * monomials built over them (their hints).
 *
 * Places.  Each size or value read at run time gets a rank when it is made
 * (the order of reading: sx_symbol, sx_symbol_value), but no value.  A
 * comparison that no proof decides needs the values of the symbols it
 * mentions; those that have none are then placed, in rank order: each
 * takes an exponent e, its value being 2^e, between PLACE_LOW and
 * PLACE_HIGH, and strictly between the exponents of the placed symbols of
 * the ranks around it (an earlier rank's larger, a later rank's smaller).
 * So of any two placed sizes the one read earlier is a multiple of the one
 * read later, at least twice it, as a width is of a head count, whichever
 * was placed first.  The exponent preferred is PLACE_HIGH - rank, the value
 * a symbol of that rank would have if every symbol read took a place (as
 * before places were given lazily, when symbol k was 2^(36 - k)): where it
 * fits, the point is that one; where it does not (a late rank), the
 * exponent just under the placed symbol read before it.  A program makes
 * as many symbols as it likes (a token read at every step, a sampler's
 * random state, the symbols of loop trials that are undone); only those
 * compared take places, at most PLACE_HIGH - PLACE_LOW + 1 in a row.
 *
 * Why every decision stays true at one point.  A place, once given, never
 * changes: a value computed from placed symbols is final, and every
 * decision sx_cmp made was made with the values of placed symbols only (a
 * comparison over a symbol with no place has no value, NAN, and decides
 * nothing).  Placing more symbols extends the point; it moves no value a
 * decision used.  What was not decided at the point but is known all the
 * same (the facts pushed, a loop's counter between its bounds, and the
 * assumptions recorded without a comparison: sx_assume) may mention a
 * symbol with no place; when one is placed, each fact and assumption with
 * a value is checked there (point_holds), and a placing that breaks one
 * (or that the doubles cannot tell holds) is undone: those symbols stay
 * without a place (unplaceable), and the comparisons that need them are
 * not decided, with the note sx_failed_why gives.  The hints the trial
 * computed are logged and set back (a hint that is a number is otherwise
 * final, and kept).
 *
 * Why not wider.  The values are doubles: a quotient that does not divide
 * exactly is checked only below 2^53 (sym_prove.c, exact_atom), so the
 * highest exponent is 52, and the lowest 5 (no size is 0 or 1, nor below
 * the small constants programs compare with).  A size compared after 48
 * others in the order read, or read between two placed next to each other,
 * finds no place: what needs it is not decided (a note, bounds).
 */
#include "sym_internal.h"

#include <math.h>
#include <stdlib.h>

enum { PLACE_HIGH = 52, PLACE_LOW = 5 };
/* sx_symbol_generic's exponents are the places' less 16: 2^36 .. 2^5 (where
 * products of a few sizes fit in 64 bits, for a search of values) */
enum { GENERIC_HIGH = 36 };

/* ---- hints ---- */

double hint_compute(const atom *k)
{
    switch (k->kind) {
    case A_SYM: {
        const symbol *s = &S.syms.items[k->sym];
        if (s->place >= 0)
            return ldexp(1.0, s->place);
        return s->rank < 0 && !big(s->like) ? hint_of(s->like) : NAN;
    }
    case A_DIV: {
        int64_t la = lb_of(k->a), lbb = lb_of(k->b);
        /* the integer quotient at the generic point (where n*(d/n) == d when
         * d is read before n: a width is a multiple of a head count); a
         * quotient of two sizes that is 0 there (n/d with d read first) is
         * no generic value: it would decide n < d, which sizes need not be */
        double ha = hint_of(k->a), hb = hint_of(k->b);
        double h = isnan(ha) || isnan(hb) ? NAN : hb > 0 ? floor(ha / hb) : 0.0;
        if (h < 1 && k->a.e != 0 && la != NO_LB && la >= 1 && lbb != NO_LB && lbb >= 1)
            h = NAN;
        return h;
    }
    default: {
        double ha = hint_of(k->a), hb = hint_of(k->b);
        return isnan(ha) || isnan(hb) ? NAN : k->kind == A_MAX ? fmax(ha, hb) : fmin(ha, hb);
    }
    }
}

/* A hint that is a number is final (places never change, but in a trial
 * that is undone: logged); one that is NAN is computed again once the
 * places have changed since. */
static void hint_log(uint32_t key)
{
    if (S.trying)
        VEC_PUSH(S.tried, key);
}

double atom_hint(uint32_t id)
{
    atom *k = &S.atoms.items[id];
    if (!isnan(k->hint) || k->hint_at == S.places)
        return k->hint;
    double h = hint_compute(k);
    k = &S.atoms.items[id];
    k->hint = h;
    k->hint_at = S.places;
    if (!isnan(h))
        hint_log(2 * id);
    return h;
}

double mono_hint(uint32_t id)
{
    mono *m = &S.monos.items[id];
    if (!isnan(m->hint) || m->hint_at == S.places)
        return m->hint;
    double h = 1.0;
    for (uint32_t i = 0; i < m->n; i++) {
        factor f = S.factors.items[m->first + i];
        double a = atom_hint(f.atom);
        for (uint32_t p = 0; p < f.pow; p++)
            h *= a;
    }
    m = &S.monos.items[id];
    m->hint = h;
    m->hint_at = S.places;
    if (!isnan(h))
        hint_log(2 * id + 1);
    return h;
}

/* ---- places ---- */

typedef struct wanted {
    int *sym;
    int n, cap;
} wanted;

/* Collect the symbols with a rank and no place that atom id needs (a loop
 * counter's value being like's, those of like). */
static bool want_symbol(uint32_t id, const void *ctx)
{
    wanted *w = (wanted *)ctx;
    const atom *a = &S.atoms.items[id];
    if (a->kind != A_SYM)
        return false;
    const symbol *s = &S.syms.items[a->sym];
    if (s->rank < 0) {
        (void)any_atom(s->like, want_symbol, ctx); /* (nothing in a number or a big one) */
        return false;
    }
    if (s->place >= 0)
        return false;
    for (int i = 0; i < w->n; i++)
        if (w->sym[i] == a->sym)
            return false;
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 8;
        w->sym = tl_xreallocarray(w->sym, (size_t)w->cap, sizeof *w->sym);
    }
    w->sym[w->n++] = a->sym;
    return false;
}

/* The order of places: by rank, then (ranks being equal) as made. */
static bool before(int i, int j)
{
    const symbol *a = &S.syms.items[i], *b = &S.syms.items[j];
    return a->rank != b->rank ? a->rank < b->rank : i < j;
}

static int by_rank(const void *x, const void *y)
{
    int i = *(const int *)x, j = *(const int *)y;
    return i == j ? 0 : before(i, j) ? -1 : 1;
}

/* The exponent symbol i takes, or -1: none is free between those of the
 * placed symbols around it. */
static int choose_place(int i)
{
    int hi = PLACE_HIGH + 1, lo = PLACE_LOW - 1;
    for (size_t j = 0; j < S.syms.n; j++) {
        const symbol *s = &S.syms.items[j];
        if (s->place < 0 || (int)j == i)
            continue;
        if (before((int)j, i) && s->place < hi)
            hi = s->place;
        else if (!before((int)j, i) && s->place > lo)
            lo = s->place;
    }
    int want = PLACE_HIGH - S.syms.items[i].rank;
    if (want > lo && want < hi)
        return want;
    return hi - 1 > lo ? hi - 1 : -1;
}

/* Does atom id need one of the symbols of w (a counter's, through like)? */
static bool needs_one_of(uint32_t id, const void *ctx)
{
    const wanted *w = ctx;
    const atom *a = &S.atoms.items[id];
    if (a->kind != A_SYM)
        return false;
    const symbol *s = &S.syms.items[a->sym];
    if (s->rank < 0)
        return any_atom(s->like, needs_one_of, ctx);
    for (int k = 0; k < w->n; k++)
        if (w->sym[k] == a->sym)
            return true;
    return false;
}

/* Does every fact and assumption that needs a symbol of w hold at the point
 * with w placed?  (Those that need none have the values they had.) */
static bool point_consistent(const wanted *w)
{
    for (size_t k = 0; k < S.facts.n; k++)
        if (any_atom(S.facts.items[k], needs_one_of, w) &&
            !point_holds(S.facts.items[k], ">="))
            return false;
    for (size_t k = 0; k < S.assumptions.n; k++) {
        const assumption *a = &S.assumptions.items[k];
        if (any_atom(a->d, needs_one_of, w) && !point_holds(a->d, a->op))
            return false;
    }
    return true;
}

/* The trial of places from tried[mark] on is undone: its symbols have none
 * again, its hints none.  The symbol that found no room (stuck), or all of
 * them when together they broke a fact or an assumption (stuck < 0), keep
 * none: they are unplaceable. */
static void places_undo(const wanted *w, size_t mark, int stuck)
{
    for (int k = 0; k < w->n; k++) {
        S.syms.items[w->sym[k]].place = -1;
        if (stuck < 0 || w->sym[k] == stuck)
            S.syms.items[w->sym[k]].unplaceable = true;
    }
    for (size_t k = mark; k < S.tried.n; k++) {
        uint32_t key = S.tried.items[k];
        if (key & 1)
            S.monos.items[key >> 1].hint = NAN;
        else
            S.atoms.items[key >> 1].hint = NAN;
    }
    S.places++;
}

bool place_symbols(sx_int d)
{
    wanted w = {NULL, 0, 0};
    (void)any_atom(d, want_symbol, &w);
    bool ok = w.n > 0;
    for (int k = 0; k < w.n && ok; k++)
        ok = !S.syms.items[w.sym[k]].unplaceable;
    if (!ok) {
        free(w.sym);
        return false;
    }
    qsort(w.sym, (size_t)w.n, sizeof *w.sym, by_rank);
    size_t mark = S.tried.n;
    int stuck = -1;
    S.trying = true;
    for (int k = 0; k < w.n && ok; k++) {
        int e = choose_place(w.sym[k]);
        ok = e >= 0;
        S.syms.items[w.sym[k]].place = e;
        if (!ok)
            stuck = w.sym[k];
    }
    S.places++;
    ok = ok && point_consistent(&w);
    S.trying = false;
    if (!ok)
        places_undo(&w, mark, stuck);
    S.tried.n = mark;
    free(w.sym);
    return ok;
}

int64_t sx_symbol_generic(int i)
{
    if (i < 0 || (size_t)i >= S.syms.n)
        return 0;
    const symbol *s = &S.syms.items[i];
    int e = s->place >= 0 ? s->place : s->rank >= 0 && !s->unplaceable ? PLACE_HIGH - s->rank : -1;
    e -= PLACE_HIGH - GENERIC_HIGH;
    return e >= PLACE_LOW ? INT64_C(1) << e : 0;
}
