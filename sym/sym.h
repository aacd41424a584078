/*
 * sym.h: symbolic integers, the value domain of the rules' symbolic build.
 *
 * A symbol is a run-time integer named after its source ("config.dim",
 * "batch").  An sx_int is a known int64 (e == 0) or a normalised expression
 * (e != 0): a polynomial with int64 coefficients over atoms, an atom being a
 * symbol or floor(a / b), a mod b, max(a, b), min(a, b) of expressions.
 * Equal expressions get equal ids (hash-consed), so equality of normal forms
 * is equality of ids.
 *
 * Symbols stand for sizes: the analysis assumes each is >= 1 and that every
 * product fits int64.  A comparison that these facts do not decide is decided
 * as it comes out at the generic point (powers of two given to the symbols
 * a comparison needs, in the order read: no size is 0 or 1, and an earlier
 * size is a multiple of a later one; sym_point.c), and the condition
 * is recorded as an assumption with the current site; the answer is then
 * exact under the recorded assumptions, which all hold at that point.  An expression that
 * grows past SX_MAX_TERMS terms, or a coefficient that overflows, becomes
 * SX_TOO_BIG: the analysis then treats the value as unknown (sx_failed()).
 *
 * The state (symbols, interned expressions, assumptions, facts) is an
 * sx_state owned by whoever owns the expressions: the analyzer's report
 * (an_report.sx).  The sx_ functions work on the state made current on the
 * calling thread with sx_state_use; an sx_int is meaningful only while the
 * state it was made in is current.  Threads never share a state.
 */
#ifndef TL_SYM_H
#define TL_SYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sx_int {
    int64_t c;  /* the value, when e == 0 */
    uint32_t e; /* 0: known; else an expression id */
} sx_int;

typedef enum sx_rel { SX_EQ, SX_NE, SX_LT, SX_LE, SX_GT, SX_GE } sx_rel;

enum { SX_TOO_BIG = 1, SX_MAX_TERMS = 64 };
/* Sizes the generic point can place in a row (2^52 .. 2^5), each read
 * earlier a multiple of each read later; only those compared take places
 * (sym_point.c); see sx_cmp. */
enum { SX_GENERIC_SIZES = 48 };
#define SX_GENERIC_SIZES_TEXT "48"


typedef struct sx_state sx_state;

/* A new, empty state, and its end (its expressions, symbols and assumptions
 * go with it; if it was current, no state is current after). */
sx_state *sx_state_new(void);
void sx_state_free(sx_state *s);
/* Make s the state the sx_ functions work on, on this thread (NULL: none,
 * an idle state of the thread's own); returns the state current before. */
sx_state *sx_state_use(sx_state *s);

/* Forget every symbol, expression and assumption of the current state. */
void sx_reset(void);

/* A new symbol (names may repeat: each call is a distinct symbol).  origin:
 * "argv", "getenv", "fread", "parameter", ... */
sx_int sx_symbol(const char *name, const char *origin, int line, int col);
/* A symbol for a value that is no size (an element a program read back from
 * a tensor): no lower bound, so comparisons on it stay undecided. */
sx_int sx_symbol_value(const char *name, const char *origin, int line, int col);
int sx_n_symbols(void);
sx_int sx_symbol_expr(int i); /* symbol i as an expression */
const char *sx_symbol_name(int i);
const char *sx_symbol_origin(int i);
int sx_symbol_line(int i);
int sx_symbol_col(int i);
bool sx_symbol_used(int i); /* it appears in an expression the analysis computed with */
/* Symbols from..n - 1 are used no more: what they were made for was undone (a
 * trial of the analysis, a loop's iteration whose writes are forgotten); one
 * that is used again (a formula of the report names it) is used from then on.
 * A root's parameter (origin "parameter") stays: its value is the root's
 * input, whatever was undone (argc, which binding unrolls an option loop). */
void sx_symbols_unuse(int from);
/* The index of the symbol a is, when a is one symbol alone; else -1. */
int sx_symbol_of(sx_int a);
/* Symbol i is printed as name from now on (a helper's local named after the
 * caller's variable it was returned to). */
void sx_symbol_rename(int i, const char *name);
/* A size read at run time (>= 1): not a value read back from a tensor
 * (sx_symbol_value), nor a loop's counter at some iteration (origin "loop"),
 * whose range is the loop's. */
bool sx_symbol_is_size(int i);
/* Symbol i's value at the generic point, where comparisons the symbols do not
 * decide are decided, scaled to where products of a few sizes fit in 64 bits
 * (2^-16 of it: 2^36 for the first symbol read, 2^(36 - k) for the k-th,
 * an earlier size a multiple of a later one), for a search of sizes that
 * meet conditions to start from.  A symbol no comparison has placed yet
 * (sym_point.c) has the value its rank would give it.  0: none (a loop's
 * counter, or past 2^5). */
int64_t sx_symbol_generic(int i);

sx_int sx_add(sx_int a, sx_int b);
sx_int sx_sub(sx_int a, sx_int b);
sx_int sx_mul(sx_int a, sx_int b);
sx_int sx_div(sx_int a, sx_int b); /* floor division; b > 0 */
sx_int sx_mod(sx_int a, sx_int b);
sx_int sx_max(sx_int a, sx_int b);
sx_int sx_min(sx_int a, sx_int b);
/* max of v[0..n), none of which another dominates (the caller has pruned
 * them): no comparisons, only the normal form's order. */
sx_int sx_max_of(const sx_int *v, int n);
sx_int sx_neg(sx_int a);
/* Decide a rel b, recording an assumption when the symbols do not decide it. */
bool sx_cmp(sx_int a, sx_rel rel, sx_int b);
/* Decide a rel b only if it holds (or fails) for every value: *out, true; else false. */
bool sx_prove(sx_int a, sx_rel rel, sx_int b, bool *out);

/* "a rel b" as text in its plainest form ("dim*steps + steps <= 6*dim").  Returns buf. */
const char *sx_cond_str(sx_int a, sx_rel rel, sx_int b, char *buf, size_t size);
/* "d > 0" (strict) or "d >= 0" as "p >= 0", p in its plainest form: symbols
 * every term has divided out, coefficients by their gcd, the constant
 * rounded (368640*n - 167772160 >= 0 is n - 456 >= 0): what a comparison
 * with facts (sx_fact_push) needs to see one condition imply another. */
sx_int sx_plain_nonneg(sx_int d, bool strict);
/* The expression as text, newly allocated, whatever its length. */
char *sx_strdup(sx_int a);
/* The expression as text, the report's syntax: "4*config.dim*(n/2)".  Returns buf;
 * a text longer than size ends in "..." (for messages: sx_strdup where it must be whole). */
const char *sx_str(sx_int a, char *buf, size_t size);
/* The value with symbols bound to values[i] (symbol i); false when a symbol
 * has no value (has[i] false) or the arithmetic overflows. */
bool sx_eval(sx_int a, const int64_t *values, const bool *has, int64_t *out);
/* Symbols appearing in a: marks them in used[] (n = sx_n_symbols(); may be
 * NULL) and as used (sx_symbol_used). */
void sx_symbols_of(sx_int a, bool *used);
/* The sizes among a's symbols marked as used (a comparison they decided),
 * loop counters (origin "loop") left as they are: their range is the loop's. */
void sx_sizes_of(sx_int a);
/* Whether a mentions the symbol sym (an expression sx_symbol made). */
/* Is a the same expression as b (normal forms are unique)? */
static inline bool sx_same(sx_int a, sx_int b) { return a.e == b.e && a.c == b.c; }
bool sx_depends_on(sx_int a, sx_int sym);
/* Whether a and b mention a symbol in common. */
bool sx_shares_symbol(sx_int a, sx_int b);
/* Whether a mentions a symbol of that origin ("loop": a probe's counter);
 * unlike sx_symbols_of, it marks nothing as used. */
bool sx_mentions_origin(sx_int a, const char *origin);
/* Whether a mentions a symbol made at or after index from (marks nothing used). */
bool sx_mentions_newer(sx_int a, int from);
/* a with the symbol sym replaced by v. */
sx_int sx_subst(sx_int a, sx_int sym, sx_int v);
/* a rebuilt under the facts now: each min, max (and floor division) decided
 * again, so that min(2, n) is 2 while n >= 2 is a fact. */
sx_int sx_refine(sx_int a);
/* The sum of a over sym = lo .. hi (0 <= lo, lo - 1 <= hi), when a is a
 * polynomial of degree <= 2 in sym: false otherwise. */
bool sx_sum(sx_int a, sx_int sym, sx_int lo, sx_int hi, sx_int *out);
/* a = c0 + c1*sym + c2*sym^2 with c1, c2 free of sym: false when a is not. */
bool sx_poly_coeffs(sx_int a, sx_int sym, sx_int *c1, sx_int *c2);

/* The site recorded with the assumptions made from now on (a line). */
void sx_set_site(int line);
int sx_n_assumptions(void);
const char *sx_assumption_text(int i); /* "n_heads > 1" */
int sx_assumption_line(int i);
/* Whether a report lists assumption i: not one another implies (n >= 32
 * beside n > 32), nor one only overflow could break (n < 2^63 - 1: the
 * products' fitting in 64 bits is said once), nor one over a loop's counter
 * in one iteration (no run has a value for it). */
bool sx_assumption_listed(int i);
/* Whether a report lists "name >= 1" of size symbol i: not when a listed
 * assumption implies it (name > 1, name == 4). */
bool sx_size_floor_listed(int i);
/* Drop the assumptions recorded after the first n (a trial that is undone). */
void sx_forget_assumptions(int n);
/* Assumption i as the condition "d op 0" (op: "<", "<=", ">", ">=", "=="). */
void sx_assumption_get(int i, sx_int *d, const char **op);
/* Record "d op 0" as an assumption at the current site (op a string literal). */
void sx_assume(sx_int d, const char *op);
/* A symbol whose comparisons that nothing proves are decided as for a value
 * near like's (a loop counter near its first value), not a generic one. */
sx_int sx_symbol_near(const char *name, const char *origin, int line, int col, sx_int like);

/* Facts: expressions known to be >= 0 while they are pushed (a loop counter
 * between its bounds).  sx_prove and sx_cmp use them; sx_forget_facts(n)
 * keeps the first n. */
void sx_fact_push(sx_int nonneg);
int sx_n_facts(void);
void sx_forget_facts(int n);
/* An expression became SX_TOO_BIG, or a comparison met one, since the last
 * sx_clear_failed(). */
bool sx_failed(void);
/* Why, for a note: "the sizes' formulas grew too large to follow", or why a
 * comparison was not decided. */
const char *sx_failed_why(void);
void sx_clear_failed(void);

#endif /* TL_SYM_H */
