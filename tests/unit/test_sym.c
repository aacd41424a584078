/* The symbolic integers of sym/sym.h: normal forms, exact division,
 * comparisons decided or recorded as assumptions, printing, evaluation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sym.h"

static sx_int K(int64_t v) { return (sx_int){v, 0}; }

static const char *str(sx_int a)
{
    static char buf[512];
    return sx_str(a, buf, sizeof buf);
}

static int setup(void **state)
{
    (void)state;
    sx_reset();
    return 0;
}

static void normal_forms_are_unique(void **state)
{
    (void)state;
    sx_int b = sx_symbol("B", "argv", 1, 1), s = sx_symbol("S", "argv", 2, 1);
    sx_int x = sx_mul(sx_mul(b, s), K(4)), y = sx_mul(K(4), sx_mul(s, b));
    assert_int_equal(x.e, y.e);
    assert_string_equal(str(x), "4*B*S");
    assert_string_equal(str(sx_sub(sx_add(x, b), x)), "B");
    sx_int zero = sx_sub(x, y);
    assert_int_equal(zero.e, 0);
    assert_int_equal(zero.c, 0);
    assert_string_equal(str(sx_add(sx_mul(b, b), sx_neg(K(3)))), "B*B - 3");
}

static void division(void **state)
{
    (void)state;
    sx_int b = sx_symbol("B", "argv", 1, 1), d = sx_symbol("config.dim", "fread", 2, 1);
    sx_int h = sx_symbol("p->n_heads", "fread", 3, 1);
    sx_int numel = sx_mul(sx_mul(b, d), K(6));
    assert_int_equal(sx_div(numel, sx_mul(b, K(3))).e, sx_mul(d, K(2)).e); /* exact */
    assert_string_equal(str(sx_div(sx_add(sx_mul(b, K(2)), K(1)), K(2))), "B"); /* floor */
    assert_string_equal(str(sx_mul(sx_div(d, h), K(2))), "2*(config.dim/p->n_heads)");
    assert_string_equal(str(sx_mod(b, K(2))), "B - 2*(B/2)");
}

static void comparisons_and_assumptions(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "argv", 1, 1), m = sx_symbol("m", "argv", 2, 1);
    bool r;
    /* decided by the symbols being sizes (>= 1): nothing assumed */
    assert_true(sx_cmp(sx_mul(n, m), SX_GT, K(0)));
    assert_true(sx_prove(n, SX_GE, K(1), &r) && r);
    assert_int_equal(sx_n_assumptions(), 0);
    /* not decided: generic sizes decide, and the condition is recorded */
    sx_set_site(7);
    assert_false(sx_cmp(n, SX_EQ, K(1)));
    assert_int_equal(sx_n_assumptions(), 1);
    assert_string_equal(sx_assumption_text(0), "n > 1");
    assert_int_equal(sx_assumption_line(0), 7);
    assert_false(sx_prove(n, SX_LT, m, &r));
    (void)sx_cmp(n, SX_LT, m);
    assert_int_equal(sx_n_assumptions(), 2);
    (void)sx_cmp(n, SX_EQ, K(1)); /* the same condition is listed once */
    assert_int_equal(sx_n_assumptions(), 2);
    /* max keeps both when neither is provably larger, one when it is */
    assert_string_equal(str(sx_max(sx_add(n, K(1)), n)), "n + 1");
    assert_string_equal(str(sx_max(n, m)), "max(n, m)");
}

static void evaluation(void **state)
{
    (void)state;
    sx_int b = sx_symbol("B", "argv", 1, 1), d = sx_symbol("d", "argv", 2, 1);
    sx_int e = sx_add(sx_mul(sx_mul(b, d), K(4)), sx_mul(sx_div(d, K(3)), K(2)));
    int64_t v[2] = {7, 10}, out;
    bool has[2] = {true, true};
    assert_true(sx_eval(e, v, has, &out));
    assert_int_equal(out, 4 * 7 * 10 + 2 * (10 / 3));
    has[1] = false;
    assert_false(sx_eval(e, v, has, &out));
}

/* 100 chained reshapes: (B, S, d) viewed as (B*S, d) and back; the sizes
 * stay the same three small expressions, never grow. */
static void chained_reshapes_stay_small(void **state)
{
    (void)state;
    sx_int b = sx_symbol("B", "argv", 1, 1), s = sx_symbol("S", "argv", 2, 1);
    sx_int d = sx_symbol("d", "argv", 3, 1);
    sx_int numel = sx_mul(sx_mul(b, s), d), shape[3] = {b, s, d};
    for (int k = 0; k < 100; k++) {
        sx_int rows = sx_div(numel, shape[2]);    /* -1 inferred */
        sx_int back = sx_div(numel, sx_mul(b, d)); /* and split again */
        shape[0] = sx_div(rows, back);
        shape[1] = back;
    }
    assert_int_equal(shape[0].e, b.e);
    assert_int_equal(shape[1].e, s.e);
    assert_false(sx_failed());
}

/* A formula is printed whole (sx_strdup) or visibly cut, never shortened. */
static void printing_long_formulas(void **state)
{
    (void)state;
    sx_int x = K(0);
    for (int k = 0; k < 40; k++)
        x = sx_add(x, sx_mul(K(k + 1), sx_symbol("config.some_long_field_name", "fread", k, 1)));
    char *whole = sx_strdup(x), small[64];
    assert_true(strlen(whole) > 1000);
    assert_null(strstr(whole, "..."));
    sx_str(x, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_string_equal(small + sizeof small - 4, "...");
    assert_int_equal(strncmp(small, whole, sizeof small - 4), 0);
    free(whole);
}

static void too_big_is_unknown(void **state)
{
    (void)state;
    sx_int x = K(1);
    for (int k = 0; k < 10; k++) /* (n_0 + 1)(n_1 + 1)...: 2^10 terms */
        x = sx_mul(x, sx_add(sx_symbol("n", "argv", k, 1), K(1)));
    assert_int_equal(x.e, SX_TOO_BIG);
    assert_true(sx_failed());
    assert_string_equal(str(x), "?");
}

static int64_t at(sx_int e, int n, const int64_t *v)
{
    bool has[8] = {true, true, true, true, true, true, true, true};
    int64_t out = -1;
    assert_true(n <= 8 && sx_eval(e, v, has, &out));
    return out;
}

/* Renaming a symbol, and sums over a loop counter in closed form. */
static void substitution_and_sums(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "argv", 1, 1), d = sx_symbol("d", "argv", 2, 1);
    sx_int l = sx_symbol("l", "loop", 3, 1), l2 = sx_symbol("l", "loop", 3, 1);
    sx_int e = sx_add(sx_mul(sx_mul(K(4), l), d), K(3));
    assert_string_equal(str(sx_subst(e, l, K(5))), "20*d + 3");
    /* the same polynomial built twice is one id (terms compare field by field) */
    assert_int_equal(sx_subst(e, l, l2).e, sx_add(K(3), sx_mul(d, sx_mul(l2, K(4)))).e);
    assert_false(sx_depends_on(sx_subst(e, l, l2), l));
    assert_true(sx_depends_on(sx_subst(e, l, l2), l2));
    /* sum over l = 1 .. n - 1: linear and quadratic in l, checked at n = 7, d = 3 */
    sx_int sum, lo = K(1), hi = sx_sub(n, K(1));
    int64_t v[4] = {7, 3, 0, 0};
    assert_true(sx_sum(sx_add(sx_mul(K(2), l), d), l, lo, hi, &sum));
    assert_int_equal(at(sum, 4, v), 2 * 21 + 6 * 3);
    assert_true(sx_sum(sx_mul(sx_mul(l, l), d), l, lo, hi, &sum));
    assert_int_equal(at(sum, 4, v), 91 * 3);
    assert_true(sx_sum(d, l, lo, hi, &sum)); /* free of l: times the count */
    assert_string_equal(str(sum), "n*d - d");
    sx_int c1, c2;
    assert_true(sx_poly_coeffs(sx_add(sx_mul(K(3), l), n), l, &c1, &c2));
    assert_int_equal(c1.c, 3);
    assert_int_equal(c2.c, 0);
    /* not a polynomial in l: no closed form */
    assert_false(sx_sum(sx_max(l, d), l, lo, hi, &sum));
    assert_false(sx_sum(sx_mul(sx_mul(l, l), l), l, lo, hi, &sum));
}

/* Facts (a counter between its bounds) decide comparisons without assumptions. */
static void facts_decide(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "argv", 1, 1), l = sx_symbol("l", "loop", 2, 1);
    bool r;
    assert_false(sx_prove(l, SX_LT, n, &r));
    int mark = sx_n_facts();
    sx_fact_push(sx_sub(l, K(1)));                   /* l >= 1 */
    sx_fact_push(sx_sub(sx_sub(n, K(1)), l));        /* l <= n - 1 */
    assert_true(sx_prove(l, SX_LT, n, &r) && r);
    assert_true(sx_prove(sx_add(l, K(1)), SX_LE, n, &r) && r);
    assert_true(sx_cmp(l, SX_LT, n));
    assert_int_equal(sx_n_assumptions(), 0);
    sx_forget_facts(mark);
    assert_false(sx_prove(l, SX_LT, n, &r));
}

/* Conditions are recorded in their plainest form, all true at the generic
 * point, and forgetting them undoes what they implied. */
static void recorded_conditions(void **state)
{
    (void)state;
    sx_int seq = sx_symbol("seq", "fread", 1, 1), steps = sx_symbol("steps", "argv", 2, 1);
    sx_int dim = sx_symbol("dim", "fread", 3, 1), heads = sx_symbol("heads", "fread", 4, 1);
    bool r;
    assert_true(sx_cmp(sx_sub(steps, K(1)), SX_LT, seq));
    assert_string_equal(sx_assumption_text(0), "steps <= seq");
    (void)sx_cmp(sx_mul(K(2), steps), SX_LT, sx_add(sx_mul(K(2), seq), K(1)));
    assert_int_equal(sx_n_assumptions(), 1); /* 2*steps < 2*seq + 1 is steps <= seq */
    /* a width read before a head count divides by it at the generic point */
    sx_int hs = sx_div(dim, heads);
    assert_true(sx_cmp(sx_mul(heads, hs), SX_EQ, dim));
    assert_true(sx_cmp(hs, SX_GT, K(1)));
    int n = sx_n_assumptions();
    assert_string_equal(sx_assumption_text(n - 1), "dim/heads > 1");
    assert_true(sx_prove(sx_mul(hs, heads), SX_GT, K(1), &r) && r); /* dim/heads >= 2 */
    sx_forget_assumptions(n - 1);
    assert_false(sx_prove(sx_mul(hs, heads), SX_GT, K(1), &r));
    assert_int_equal(sx_n_assumptions(), n - 1);
}

/* A difference whose negative terms larger terms cover is decided: every
 * size is at least 1, so 16*d*d*n >= 16*d*d; min and max operands decide
 * both ways (64*min(16, n) <= 1024). */
static void covered_terms_and_operands(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "argv", 1, 1), d = sx_symbol("d", "argv", 2, 1);
    sx_int h = sx_symbol("h", "argv", 3, 1);
    bool r;
    sx_int dd = sx_mul(d, d), big = sx_add(sx_mul(K(16), sx_mul(dd, n)), sx_mul(K(8), sx_mul(d, h)));
    assert_true(sx_prove(big, SX_GE, sx_mul(K(16), dd), &r) && r);
    assert_true(sx_prove(sx_mul(K(16), dd), SX_GT, big, &r) && !r);
    /* 16*d*d*n >= 17*d*d is not decided (n = 1 breaks it, n = 2 holds) */
    assert_false(sx_prove(sx_mul(K(16), sx_mul(dd, n)), SX_GE, sx_mul(K(17), dd), &r));
    sx_int m = sx_mul(K(64), sx_min(K(16), n));
    assert_true(sx_prove(m, SX_GT, K(1024), &r) && !r);
    assert_true(sx_prove(m, SX_LE, K(1024), &r) && r);
    assert_false(sx_prove(m, SX_GT, K(512), &r));
}

/* A stepped loop's facts: the last chunk's length n - c*q lies in 1..c, with
 * q = (n - 1)/c; the facts decide multiples of themselves (4*d*(n - c*q) > 0)
 * and refine a min they bound (min(c, n) is c while n > c is a fact). */
static void scaled_facts_and_refine(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "argv", 1, 1), d = sx_symbol("d", "argv", 2, 1);
    sx_int c = sx_symbol("c", "argv", 3, 1), one = K(1);
    sx_int q = sx_div(sx_sub(n, one), c), last = sx_sub(n, sx_mul(c, q));
    bool r;
    assert_false(sx_prove(sx_mul(sx_mul(K(4), d), last), SX_GT, K(0), &r));
    int facts = sx_n_facts();
    sx_fact_push(sx_sub(last, one));    /* n - c*q - 1 >= 0 */
    sx_fact_push(sx_sub(c, last));      /* c - (n - c*q) >= 0 */
    assert_true(sx_prove(sx_mul(sx_mul(K(4), d), last), SX_GT, K(0), &r) && r);
    assert_true(sx_prove(sx_mul(K(16), last), SX_LE, sx_mul(K(16), c), &r) && r);
    assert_true(sx_prove(sx_mul(d, last), SX_EQ, K(0), &r) && !r);
    /* n*d - c*q*d can be d or more, not decided against 2*d */
    assert_false(sx_prove(sx_mul(d, last), SX_GE, sx_mul(K(2), d), &r));
    sx_int m = sx_min(c, n);
    assert_true(sx_same(sx_refine(m), m));
    sx_fact_push(sx_sub(sx_sub(n, c), one)); /* n > c */
    assert_true(sx_same(sx_refine(sx_add(m, d)), sx_add(c, d)));
    sx_forget_facts(facts);
    assert_true(sx_same(sx_refine(sx_add(m, d)), sx_add(m, d)));
    assert_int_equal(sx_n_assumptions(), 0);
}

/* What the checks ask of conditions: the plain form "p >= 0" of a
 * comparison, on which one condition implied by another is seen with
 * facts; whether a formula is over a probe's counter; the generic point. */
static void plain_conditions_and_origins(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "argv", 1, 1), d = sx_symbol("d", "argv", 2, 1);
    sx_int l = sx_symbol("l", "loop", 3, 1);
    bool r;
    /* 368640*n - 167772160 > 0 is n >= 456: n - 456 >= 0 */
    sx_int p = sx_plain_nonneg(sx_sub(sx_mul(K(368640), n), K(167772160)), true);
    assert_string_equal(str(p), "n - 456");
    /* 100*n*d - 400*d > 0 is n > 4: n - 5 >= 0 */
    assert_string_equal(str(sx_plain_nonneg(sx_sub(sx_mul(K(100), sx_mul(n, d)),
                                                   sx_mul(K(400), d)), true)), "n - 5");
    assert_string_equal(str(sx_plain_nonneg(sx_sub(n, K(7)), false)), "n - 7");
    int mark = sx_n_facts();
    sx_fact_push(p); /* n >= 456 implies n >= 256 */
    assert_true(sx_prove(sx_sub(n, K(256)), SX_GE, K(0), &r) && r);
    sx_forget_facts(mark);
    assert_false(sx_prove(sx_sub(n, K(256)), SX_GE, K(0), &r));
    assert_true(sx_mentions_origin(sx_add(sx_mul(n, l), d), "loop"));
    assert_false(sx_mentions_origin(sx_add(sx_mul(n, d), K(3)), "loop"));
    assert_true(sx_mentions_origin(sx_max(n, sx_div(d, l)), "loop"));
    assert_false(sx_symbol_used(2)); /* asking marks nothing */
    assert_int_equal(sx_symbol_generic(0), INT64_C(1) << 36);
    assert_int_equal(sx_symbol_generic(1), INT64_C(1) << 35);
}

/* The generic point places SX_GENERIC_SIZES sizes compared in a row (each
 * at least twice the next); past them, a quotient of sizes that is 0 there,
 * two products equal there only: a comparison nothing proves is not decided
 * (sx_failed) and assumes nothing. */
static void generic_point_limits(void **state)
{
    (void)state;
    sx_int s[SX_GENERIC_SIZES + 4];
    char name[16];
    for (int k = 0; k < SX_GENERIC_SIZES + 4; k++) {
        snprintf(name, sizeof name, "s%d", k);
        s[k] = sx_symbol(name, "argv", k + 1, 1);
    }
    sx_int l = sx_symbol_near("l", "loop", 1, 1, s[0]); /* a counter takes no place */
    assert_int_equal(sx_symbol_generic(31), 32); /* (a search's start: 2^(36 - k)) */
    assert_int_equal(sx_symbol_generic(32), 0);
    int a = sx_n_assumptions();
    /* each compared with the next, in the order read: SX_GENERIC_SIZES are placed,
     * and decided; one more has no room below the last */
    for (int k = 0; k + 1 < SX_GENERIC_SIZES; k++) {
        sx_clear_failed();
        assert_true(sx_cmp(s[k], SX_GT, s[k + 1]));
        assert_false(sx_failed());
    }
    assert_true(sx_n_assumptions() > a);
    a = sx_n_assumptions();
    sx_int w = s[SX_GENERIC_SIZES], h = s[SX_GENERIC_SIZES + 1];
    sx_clear_failed();
    (void)sx_cmp(s[SX_GENERIC_SIZES - 1], SX_GT, w);
    assert_true(sx_failed());
    assert_non_null(strstr(sx_failed_why(), "no room for (" SX_GENERIC_SIZES_TEXT " sizes"));
    /* (w/h)/2 with w and h past the point's places: neither 0 nor anything, unknown */
    sx_int half = sx_div(sx_div(w, h), K(2));
    sx_clear_failed();
    (void)sx_cmp(half, SX_EQ, K(0));
    assert_true(sx_failed());
    assert_int_equal(sx_n_assumptions(), a);
    /* s1/s0 is 0 at the point (s0 is read first, so larger): not a generic value */
    sx_clear_failed();
    (void)sx_cmp(sx_div(s[1], s[0]), SX_GE, K(1));
    assert_true(sx_failed());
    /* s0*s3 and s1*s2 are 2^69 both: equal there, not for every size */
    sx_clear_failed();
    (void)sx_cmp(sx_mul(s[0], s[3]), SX_EQ, sx_mul(s[1], s[2]));
    assert_true(sx_failed());
    assert_int_equal(sx_n_assumptions(), a);
    /* what the point does decide is decided, and recorded */
    sx_clear_failed();
    assert_true(sx_cmp(s[0], SX_GT, sx_mul(K(3), s[2])));
    assert_false(sx_failed());
    assert_int_equal(sx_n_assumptions(), a + 1);
    assert_true(sx_cmp(sx_mul(K(2), sx_div(s[2], s[3])), SX_GE, K(2))); /* s2/s3 = 2 there */
    sx_clear_failed();
    assert_true(sx_cmp(l, SX_LE, s[0])); /* near its first value: decided */
    assert_false(sx_failed());
    /* 2^105 on both sides, computed with no rounding: equal there exactly (decided and
     * recorded); past 2^53 with a rounded term, as close, not decided */
    sx_int kv = sx_div(sx_mul(s[0], s[1]), s[2]);
    sx_clear_failed();
    assert_true(sx_cmp(sx_mul(s[0], sx_max(K(1), kv)), SX_EQ, sx_mul(s[0], kv)));
    assert_false(sx_failed());
    sx_int odd = sx_add(sx_mul(s[0], sx_mul(s[1], s[2])), K(1)); /* 2^153 + 1: rounds */
    sx_clear_failed();
    (void)sx_cmp(sx_max(odd, s[3]), SX_EQ, odd);
    assert_true(sx_failed());
}

/* Places are given when a comparison first needs a symbol, in the order
 * the symbols were read: a long program's symbols take none until compared,
 * a symbol compared after later ones takes a place between them, and a
 * placing that would break a fact is not made (nothing decided over it). */
static void places_when_needed(void **state)
{
    (void)state;
    enum { N = 302 };
    sx_int s[N];
    char name[16];
    for (int k = 0; k < N; k++) {
        snprintf(name, sizeof name, "t%d", k);
        s[k] = k % 3 ? sx_symbol(name, "run time", k + 1, 1)
                     : sx_symbol_value(name, "run time", k + 1, 1);
    }
    /* two read early: placed, decided, recorded */
    int a = sx_n_assumptions();
    sx_clear_failed();
    assert_true(sx_cmp(sx_mul(K(2), sx_div(s[1], s[2])), SX_GE, K(2)));
    assert_false(sx_failed());
    assert_int_equal(sx_n_assumptions(), a + 1);
    /* compared out of the order read: each between those read before and after */
    assert_true(sx_cmp(s[2], SX_GT, s[12]));
    assert_true(sx_cmp(s[10], SX_GT, s[12]));
    assert_true(sx_cmp(s[11], SX_GT, s[12]));
    assert_true(sx_cmp(s[10], SX_GT, s[11]));
    assert_true(sx_cmp(sx_div(s[10], s[11]), SX_GE, K(2)));
    /* read far later (past the 48th): each just under the one read before it */
    assert_true(sx_cmp(s[12], SX_GT, s[250]));
    assert_true(sx_cmp(s[250], SX_GT, s[299]));
    assert_true(sx_cmp(sx_div(s[12], s[299]), SX_EQ, K(4)));
    assert_false(sx_failed());
    /* one read between 12 and 250, which are next to each other: no room, not decided */
    a = sx_n_assumptions();
    (void)sx_cmp(s[200], SX_GT, s[299]);
    assert_true(sx_failed());
    assert_int_equal(sx_n_assumptions(), a);
    /* a fact the order of the places breaks (t301 read later, yet at least twice
     * t300): the placing is undone, and nothing is decided over either */
    int f = sx_n_facts();
    sx_fact_push(sx_sub(s[301], sx_mul(K(2), s[300])));
    sx_clear_failed();
    (void)sx_cmp(sx_mul(s[300], s[301]), SX_GT, sx_mul(K(5), s[299]));
    assert_true(sx_failed());
    sx_forget_facts(f);
    sx_clear_failed();
    (void)sx_cmp(s[300], SX_GT, K(5));
    assert_true(sx_failed());
    assert_int_equal(sx_n_assumptions(), a);
    /* what was decided before is decided again the same way */
    sx_clear_failed();
    assert_true(sx_cmp(s[10], SX_GT, s[11]));
    assert_true(sx_cmp(s[299], SX_GT, K(1000)));
    assert_false(sx_failed());
}

/* A report lists an assumption once, not beside one that implies it, and
 * not one only overflow could break. */
static void listed_assumptions(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "argv", 1, 1), m = sx_symbol("m", "argv", 2, 1);
    sx_assume(sx_sub(n, K(32)), ">=");                  /* n >= 32 */
    sx_assume(sx_sub(n, K(32)), ">");                   /* n > 32: implies the first */
    sx_assume(sx_sub(m, K(INT64_MAX)), "<");            /* m < 2^63 - 1 */
    sx_assume(sx_sub(m, K(5)), "<=");                   /* m <= 5 */
    assert_int_equal(sx_n_assumptions(), 4);
    assert_false(sx_assumption_listed(0));
    assert_true(sx_assumption_listed(1));
    assert_string_equal(sx_assumption_text(1), "n > 32");
    assert_false(sx_assumption_listed(2));
    assert_true(sx_assumption_listed(3));
    /* the floor every size has is not listed beside a bound above it: n > 32
     * implies n >= 1; m <= 5 does not */
    assert_false(sx_size_floor_listed(sx_symbol_of(n)));
    assert_true(sx_size_floor_listed(sx_symbol_of(m)));
}

/* Symbols made by work the analysis undid are used no more (unlisted),
 * a root's parameter aside; one a formula names again is used again. */
static void unused_after_undo(void **state)
{
    (void)state;
    sx_int n = sx_symbol("n", "atoi", 1, 1);
    sx_int w = sx_symbol("w", "strlen", 2, 1);
    sx_int argc = sx_symbol("argc", "parameter", 3, 1);
    sx_int d = sx_symbol("d", "atoi", 4, 1);
    sx_symbols_of(sx_add(sx_add(n, w), sx_add(argc, d)), NULL);
    assert_true(sx_symbol_used(0) && sx_symbol_used(1) && sx_symbol_used(2) && sx_symbol_used(3));
    sx_symbols_unuse(1);
    assert_true(sx_symbol_used(0));  /* made before the mark */
    assert_false(sx_symbol_used(1)); /* made by what was undone */
    assert_true(sx_symbol_used(2));  /* a parameter: the root's input */
    assert_false(sx_symbol_used(3));
    sx_symbols_of(sx_mul(d, K(2)), NULL); /* a formula of the report names it */
    assert_true(sx_symbol_used(3));
}

/* An equation of one symbol implies every bound it meets, and is listed once. */
static void equation_assumptions(void **state)
{
    (void)state;
    sx_int k = sx_symbol("k", "argv", 1, 1);
    sx_assume(sx_sub(k, K(4)), "==");                   /* k == 4 */
    sx_assume(sx_sub(k, K(2)), ">");                    /* k > 2: k == 4 implies it */
    sx_assume(sx_sub(K(4), k), "==");                   /* 4 - k == 0: the same equation */
    sx_assume(sx_sub(k, K(5)), "<");                    /* k < 5: implied */
    assert_int_equal(sx_n_assumptions(), 4);
    assert_true(sx_assumption_listed(0));
    assert_false(sx_assumption_listed(1));
    assert_false(sx_assumption_listed(3));
    assert_false(sx_size_floor_listed(sx_symbol_of(k)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(normal_forms_are_unique, setup),
        cmocka_unit_test_setup(division, setup),
        cmocka_unit_test_setup(comparisons_and_assumptions, setup),
        cmocka_unit_test_setup(evaluation, setup),
        cmocka_unit_test_setup(chained_reshapes_stay_small, setup),
        cmocka_unit_test_setup(too_big_is_unknown, setup),
        cmocka_unit_test_setup(printing_long_formulas, setup),
        cmocka_unit_test_setup(substitution_and_sums, setup),
        cmocka_unit_test_setup(facts_decide, setup),
        cmocka_unit_test_setup(recorded_conditions, setup),
        cmocka_unit_test_setup(covered_terms_and_operands, setup),
        cmocka_unit_test_setup(scaled_facts_and_refine, setup),
        cmocka_unit_test_setup(plain_conditions_and_origins, setup),
        cmocka_unit_test_setup(generic_point_limits, setup),
        cmocka_unit_test_setup(places_when_needed, setup),
        cmocka_unit_test_setup(listed_assumptions, setup),
        cmocka_unit_test_setup(equation_assumptions, setup),
        cmocka_unit_test_setup(unused_after_undo, setup),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    sx_reset();
    return rc;
}
