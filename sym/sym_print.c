/*
 * sym_print.c: symbolic integers as text, the report's syntax: higher
 * degree first, "(B/2)" for a floor division in a product, max(a, b).
 */
#include "sym_internal.h"

#include <string.h>

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

char *sx_strdup(sx_int a)
{
    out count = {NULL, 0, 0};
    put_expr(&count, a, false); /* measures */
    return (char *)sx_str(a, tl_xmalloc(count.len + 1), count.len + 1);
}

const char *sx_str(sx_int a, char *buf, size_t size)
{
    out o = {buf, size, 0};
    if (size)
        buf[0] = 0;
    put_expr(&o, a, false);
    if (o.len >= size && size > 4) /* cut: say so, never a shorter formula */
        memcpy(buf + size - 4, "...", 4);
    return buf;
}
