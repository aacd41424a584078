/*
 * sym_internal.h: the representation behind sym/sym.h, shared by the files
 * of the symbolic domain (sym.c: interning, arithmetic, comparisons and
 * assumptions; sym_print.c: the text of expressions; sym_subst.c: renaming,
 * sums over a counter, which symbols an expression mentions; sym_point.c:
 * the generic point's values, given when comparisons need them).  Nothing
 * outside these files includes it.
 */
#ifndef TL_SYM_INTERNAL_H
#define TL_SYM_INTERNAL_H

#include "sym.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>

enum atom_kind { A_SYM, A_DIV, A_MAX, A_MIN };

typedef struct atom {
    int kind;
    int sym;          /* A_SYM */
    sx_int a, b;      /* A_DIV, A_MAX, A_MIN */
    int64_t lb;       /* lower bound; INT64_MIN: none known */
    double hint;      /* its value at the generic point; NAN: none (yet) */
    uint64_t hint_at; /* sx_state.places when a NAN hint was computed (sym_point.c) */
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
    uint64_t hint_at;  /* as atom.hint_at */
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
    bool value;        /* no size: no lower bound (sx_symbol_value) */
    int rank;          /* its order among the symbols that take a place at the generic point
                          (-1: none, a loop's counter takes its first value's: like) */
    int place;         /* its exponent there once a comparison needed it (-1: none yet) */
    bool unplaceable;  /* no place fits it (sym_point.c): comparisons over it are not decided */
    sx_int like;       /* a loop's counter: its value there is like's (sx_symbol_near) */
} symbol;

typedef struct assumption {
    char *text;
    int line;
    sx_int d;           /* the condition is "d op 0" */
    const char *op;     /* a string literal */
} assumption;

typedef struct lb_raise {
    uint32_t atom;
    int64_t old;
    size_t assumption; /* the assumption that raised it */
} lb_raise;

typedef struct exact_div { /* the assumption b*floor(a/b) == a */
    uint32_t div;       /* the atom floor(a/b) */
    uint32_t divisor;   /* b's atom (b is one symbol or atom) */
    size_t assumption;
} exact_div;

/* A growable array of T: items, n, cap. */
#define VEC(T) struct { T *items; size_t n, cap; }
#define VEC_PUSH(v, x)                                                                   \
    do {                                                                                 \
        if ((v).n == (v).cap) {                                                          \
            size_t cap_ = (v).cap ? 2 * (v).cap : 64;                                    \
            (v).items = tl_xreallocarray((v).items, cap_, sizeof *(v).items);            \
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
    VEC(sx_int) facts;  /* expressions known to be >= 0 (sx_fact_push) */
    VEC(lb_raise) raises; /* atom bounds raised by assumptions, to undo with them */
    VEC(exact_div) exact; /* divisions an assumption made exact, to undo with it */
    table atom_tab, mono_tab, poly_tab;
    int site;
    bool failed;
    const char *fail_why; /* why the last failure (sx_failed) happened; NULL: too large */
    int n_ranked;       /* symbols given a rank so far (symbol.rank) */
    uint64_t places;    /* bumped when the places change: NAN hints are computed again */
    bool trying;        /* places being tried: hints that get a value are logged in tried */
    VEC(uint32_t) tried; /* atom ids (2*id) and monomial ids (2*id + 1) */
    spoly *scratch[3];  /* the polynomials being built */
} sx_state;

/* The internal names, kept short in the code, are prefixed in the objects. */
#define S (*(sx__current ? sx__current : &sx__idle))
#define terms_of sx__terms_of
#define atom_expr sx__atom_expr
#define lone_atom_any sx__lone_atom_any
#define symbol_atom sx__symbol_atom
#define expr_mentions sx__expr_mentions
#define any_atom sx__any_atom
#define atom_mentions sx__atom_mentions
#define subst sx__subst

/* The state the sx_ functions work on, on this thread (sx_state_use): the
 * report being built or read.  Threads never share one (check -j analyses a
 * file a thread).  sx__idle serves a thread that has made no state current:
 * sx_reset clears it, as the unit tests of this module do. */
extern _Thread_local sx_state *sx__current;
extern _Thread_local sx_state sx__idle;

/* ---- shared by sym.c (interning, arithmetic, state) and sym_prove.c ---- */

#define NO_LB INT64_MIN /* no lower bound known */

/* A polynomial being built: c + sum of t[0 .. n). */
struct spoly {
    int64_t c;
    uint32_t n;
    bool big; /* overflowed or too many terms */
    term t[SX_MAX_TERMS * SX_MAX_TERMS];
};

#define exact_generation sx__exact_generation
#define proof_generation sx__proof_generation
#define mix sx__mix
#define lb_signed sx__lb_signed
#define lb_of sx__lb_of
#define hint_of sx__hint_of
#define atom_hint sx__atom_hint
#define mono_hint sx__mono_hint
#define hint_compute sx__hint_compute
#define place_symbols sx__place_symbols
#define point_holds sx__point_holds
#define mono_intern sx__mono_intern
#define intern sx__intern
#define scratch(which) sx__scratch(which)
#define add_scaled sx__add_scaled

/* Bumped when the exact divisions change or the state changes: apply_exact's memo is
 * valid for one generation; likewise proof_generation for sx_prove's (facts, raised
 * lower bounds, exact divisions). */
extern _Thread_local uint64_t exact_generation;
extern _Thread_local uint64_t proof_generation;
uint64_t mix(uint64_t h, uint64_t x);
int64_t lb_signed(sx_int a, int64_t sign); /* a's lower bound (sign 1) or of -a (sign -1) */
int64_t lb_of(sx_int a);
double hint_of(sx_int a);                   /* a at the generic point (NAN: none yet) */

/* sym_point.c: the generic point's values */
double atom_hint(uint32_t id);
double mono_hint(uint32_t id);
double hint_compute(const atom *k);         /* k's value from its operands' (or its symbol's) */
/* Give places to the symbols d needs that have none: false when d needs
 * none, or when some cannot take one (they stay without: d is not decided). */
bool place_symbols(sx_int d);
/* sym_prove.c: "d op 0" holds at the point (true also when d has no value
 * there yet); false when it fails there or the doubles cannot tell. */
bool point_holds(sx_int d, const char *op);
uint32_t mono_intern(const factor *f, uint32_t n);
sx_int intern(spoly *s);                    /* the normal form of s */
spoly *scratch(int which);                  /* scratch polynomial 0, 1 or 2, emptied */
sx_int add_scaled(sx_int a, sx_int b, int64_t k); /* a + k*b */

/* sym.c */
const term *terms_of(sx_int a, uint32_t *n, int64_t *c);
sx_int atom_expr(uint32_t atom_id);
uint32_t lone_atom_any(sx_int a); /* the atom of a lone-atom expression, else 0 */
static inline bool big(sx_int a) { return a.e == SX_TOO_BIG; }
/* An expression past the limits: unknown from here on (sx_failed). */
static inline sx_int too_big(void)
{
    S.failed = true;
    return (sx_int){0, SX_TOO_BIG};
}

/* sym_subst.c */
uint32_t symbol_atom(sx_int sym);  /* the atom of a lone symbol, else 0 */
/* Does f say yes of some atom of a (its symbols, floor divisions, min and
 * max, and theirs within)? */
bool any_atom(sx_int a, bool (*f)(uint32_t id, const void *ctx), const void *ctx);
bool expr_mentions(sx_int a, uint32_t atom_id);
bool atom_mentions(uint32_t id, uint32_t atom_id);
sx_int subst(sx_int a, uint32_t atom_id, sx_int v); /* the atom replaced by v; atom 0:
                                                       every atom rebuilt */

#endif /* TL_SYM_INTERNAL_H */
