/*
 * mt_int.h: the one integer type of the layout rules.
 *
 * Every size, stride, offset and byte count the meta functions compute is an
 * mt_int, and every operation on one goes through the functions below.  The
 * rules are compiled twice from the same source:
 *
 *   - concretely (the runtime, the fixtures): mt_int is int64_t and each
 *     function is the plain C operation, inlined (+, -, x wrap as PyTorch's
 *     int64 arithmetic does; / and % as C's on the non-negative operands the
 *     rules divide);
 *   - symbolically (the analyzer, with MT_SYMBOLIC defined): mt_int is a
 *     constant or a normalised expression over named run-time symbols
 *     (sym/sym.h), so the same rules compute "4*config.dim" where the
 *     runtime computes 1152.  A comparison the symbols do not decide is
 *     decided for generic sizes and recorded as an assumption (PyTorch's
 *     guards on SymInts), never silently.
 *
 * Operands may be mt_int or any C integer: MI(x) lifts an integer to an
 * mt_int in both builds.
 */
#ifndef TL_MT_INT_H
#define TL_MT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "sym.h"

#ifdef MT_SYMBOLIC
typedef sx_int mt_int;

static inline mt_int mi_c(int64_t v) { return (mt_int){v, 0}; }
static inline mt_int mi_id(mt_int a) { return a; }
#define MI(x) _Generic((x), mt_int: mi_id, default: mi_c)(x)

static inline bool mi_known(mt_int a) { return a.e == 0; }
/* The value of a known mt_int (0 for a symbolic one: test mi_known first). */
static inline int64_t mi_v(mt_int a) { return a.e == 0 ? a.c : 0; }

static inline mt_int mi_add_(mt_int a, mt_int b)
{
    if (!a.e && !b.e)
        return mi_c((int64_t)((uint64_t)a.c + (uint64_t)b.c));
    return sx_add(a, b);
}
static inline mt_int mi_sub_(mt_int a, mt_int b)
{
    if (!a.e && !b.e)
        return mi_c((int64_t)((uint64_t)a.c - (uint64_t)b.c));
    return sx_sub(a, b);
}
static inline mt_int mi_mul_(mt_int a, mt_int b)
{
    if (!a.e && !b.e)
        return mi_c((int64_t)((uint64_t)a.c * (uint64_t)b.c));
    return sx_mul(a, b);
}
static inline mt_int mi_div_(mt_int a, mt_int b)
{
    if (!a.e && !b.e)
        return mi_c(b.c == 0 ? 0 : a.c / b.c);
    return sx_div(a, b);
}
static inline mt_int mi_mod_(mt_int a, mt_int b)
{
    if (!a.e && !b.e)
        return mi_c(b.c == 0 ? 0 : a.c % b.c);
    return sx_mod(a, b);
}
static inline mt_int mi_max_(mt_int a, mt_int b)
{
    if (!a.e && !b.e)
        return a.c >= b.c ? a : b;
    return sx_max(a, b);
}
static inline mt_int mi_min_(mt_int a, mt_int b)
{
    if (!a.e && !b.e)
        return a.c <= b.c ? a : b;
    return sx_min(a, b);
}
static inline bool mi_cmp_(mt_int a, sx_rel rel, mt_int b)
{
    if (!a.e && !b.e) {
        switch (rel) {
        case SX_EQ: return a.c == b.c;
        case SX_NE: return a.c != b.c;
        case SX_LT: return a.c < b.c;
        case SX_LE: return a.c <= b.c;
        case SX_GT: return a.c > b.c;
        case SX_GE: return a.c >= b.c;
        }
    }
    return sx_cmp(a, rel, b);
}
/* a == b for every value of the symbols (no assumption recorded). */
static inline bool mi_same_(mt_int a, mt_int b)
{
    bool eq;
    if (!a.e && !b.e)
        return a.c == b.c;
    return sx_prove(a, SX_EQ, b, &eq) && eq;
}
/* *out = a x b; false when a known product overflows int64.  A symbolic
 * product is exact (sizes that fit int64 are an assumption of the analysis). */
static inline bool mi_mul_ovf(mt_int a, mt_int b, mt_int *out)
{
    if (!a.e && !b.e) {
        out->e = 0;
        return !__builtin_mul_overflow(a.c, b.c, &out->c);
    }
    *out = sx_mul(a, b);
    return true;
}
static inline bool mi_add_ovf(mt_int a, mt_int b, mt_int *out)
{
    if (!a.e && !b.e) {
        out->e = 0;
        return !__builtin_add_overflow(a.c, b.c, &out->c);
    }
    *out = sx_add(a, b);
    return true;
}
/* The text of a: "12", "4*config.dim". */
static inline const char *mi_str(mt_int a, char *buf, unsigned long size)
{
    return sx_str(a, buf, size);
}

#else /* concrete */

typedef int64_t mt_int;

#define MI(x) ((mt_int)(x))
static inline mt_int mi_c(int64_t v) { return v; }
static inline bool mi_known(mt_int a) { (void)a; return true; }
static inline int64_t mi_v(mt_int a) { return a; }

static inline mt_int mi_add_(mt_int a, mt_int b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline mt_int mi_sub_(mt_int a, mt_int b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline mt_int mi_mul_(mt_int a, mt_int b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static inline mt_int mi_div_(mt_int a, mt_int b) { return b == 0 ? 0 : a / b; }
static inline mt_int mi_mod_(mt_int a, mt_int b) { return b == 0 ? 0 : a % b; }
static inline mt_int mi_max_(mt_int a, mt_int b) { return a >= b ? a : b; }
static inline mt_int mi_min_(mt_int a, mt_int b) { return a <= b ? a : b; }
static inline bool mi_cmp_(mt_int a, sx_rel rel, mt_int b)
{
    switch (rel) {
    case SX_EQ: return a == b;
    case SX_NE: return a != b;
    case SX_LT: return a < b;
    case SX_LE: return a <= b;
    case SX_GT: return a > b;
    case SX_GE: return a >= b;
    }
    return false;
}
static inline bool mi_same_(mt_int a, mt_int b) { return a == b; }
static inline bool mi_mul_ovf(mt_int a, mt_int b, mt_int *out)
{
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool mi_add_ovf(mt_int a, mt_int b, mt_int *out)
{
    return !__builtin_add_overflow(a, b, out);
}
#include <stdio.h>
static inline const char *mi_str(mt_int a, char *buf, unsigned long size)
{
    snprintf(buf, size, "%lld", (long long)a);
    return buf;
}

#endif

/* Arithmetic (x and + wrap for known values as int64 does; / and % are for
 * non-negative operands, floor division; a zero divisor gives 0). */
#define mi_add(a, b) mi_add_(MI(a), MI(b))
#define mi_sub(a, b) mi_sub_(MI(a), MI(b))
#define mi_mul(a, b) mi_mul_(MI(a), MI(b))
#define mi_div(a, b) mi_div_(MI(a), MI(b))
#define mi_mod(a, b) mi_mod_(MI(a), MI(b))
#define mi_max(a, b) mi_max_(MI(a), MI(b))
#define mi_min(a, b) mi_min_(MI(a), MI(b))
/* Comparisons (symbolic ones decided for generic sizes, recorded as assumptions). */
/* Equal for every value: decides nothing, so it records nothing.  Rules test
 * it first where equal operands settle the answer whatever their values. */
#define mi_same(a, b) mi_same_(MI(a), MI(b))
#define mi_eq(a, b) mi_cmp_(MI(a), SX_EQ, MI(b))
#define mi_ne(a, b) mi_cmp_(MI(a), SX_NE, MI(b))
#define mi_lt(a, b) mi_cmp_(MI(a), SX_LT, MI(b))
#define mi_le(a, b) mi_cmp_(MI(a), SX_LE, MI(b))
#define mi_gt(a, b) mi_cmp_(MI(a), SX_GT, MI(b))
#define mi_ge(a, b) mi_cmp_(MI(a), SX_GE, MI(b))

#endif /* TL_MT_INT_H */
