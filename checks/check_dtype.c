/*
 * check_dtype.c: the rules about dtype: a cast to a wider float that
 * multiplies the tensor's bytes and every consumer's traffic (upcast), and
 * a cast there and back with nothing in between needing the other dtype
 * (cast-roundtrip).
 *
 * Bytes are numel x element size; the traffic ratio
 * of a cast from a to b is size(b) / size(a), 2x for 16 to 32 bits.
 */
#include "check_internal.h"

#include <stdlib.h>

#define CK_MAX_CONSUMER_NOTES 4

static bool ck_is_upcast(tl_dtype from, tl_dtype to)
{
    return mt_is_floating(from) && mt_is_floating(to) && mt_dtype_size(to) > mt_dtype_size(from);
}

/* The dtype of the other tensor operand of e (not into storage s), or -1. */
static int ck_other_dtype(const ck_ctx *cx, const an_event *e, int s)
{
    for (int k = 0; k < e->n_in && k < AN_EV_MAX_IN; k++) {
        int u = e->in_value[k];
        tl_dtype dt;
        if (e->in_storage[k] != s && u >= 0 && ck_value_dtype(cx, u, &dt))
            return (int)dt;
    }
    return -1;
}

/* The operand of e that points into s, or -1. */
static int ck_operand_into(const an_event *e, int s)
{
    for (int k = 0; k < e->n_in && k < AN_EV_MAX_IN; k++)
        if (e->in_storage[k] == s)
            return e->in_value[k];
    return -1;
}

/* Whether event e repeats an earlier consumer's call site. */
static bool ck_seen_site(const ck_ctx *cx, const ck_evix *uses, int64_t k)
{
    const an_event *e = ck_event(cx, uses[k]);
    for (int64_t j = 0; j < k; j++) {
        const an_event *f = ck_event(cx, uses[j]);
        if (f->line == e->line && f->col == e->col)
            return true;
    }
    return false;
}

/* One note per consumer site: what it reads, and whether it could take the narrow type. */
static void ck_consumer_notes(const ck_ctx *cx, an_diag *d, int s, tl_dtype narrow, tl_dtype wide)
{
    int64_t n = ck_list_len(&cx->storage_uses, s), shown = 0;
    const ck_evix *uses = ck_list_at(&cx->storage_uses, s);
    for (int64_t k = 0; d && k < n && k < 64 && shown < CK_MAX_CONSUMER_NOTES; k++) {
        const an_event *e = ck_event(cx, uses[k]);
        int u = ck_operand_into(e, s), other = ck_other_dtype(cx, e, s);
        sx_int wide_bytes;
        tl_dtype dt;
        if ((e->value >= 0 && e->storage == s) || u < 0 || ck_seen_site(cx, uses, k) ||
            !ck_value_nbytes_sx(cx, u, &wide_bytes) || !ck_value_dtype(cx, u, &dt))
            continue;
        /* numel x the narrow size: exact, the wide size divides the bytes */
        sx_int narrow_bytes = sx_div(sx_mul(wide_bytes, (sx_int){mt_dtype_size(narrow), 0}),
                                     (sx_int){mt_dtype_size(dt), 0});
        if (other == (int)wide)
            ck_note(d, e->line, e->col, "tl_%s reads %s here with another %s operand; with both in "
                    "%s it would read %s", mt_ops[e->op].name, ck_sx_bytes(wide_bytes).s,
                    mt_dtype_name(wide), mt_dtype_name(narrow), ck_sx_bytes(narrow_bytes).s);
        else
            ck_note(d, e->line, e->col, "tl_%s reads %s here; it could take the %s tensor and read "
                    "%s", mt_ops[e->op].name, ck_sx_bytes(wide_bytes).s, mt_dtype_name(narrow),
                    ck_sx_bytes(narrow_bytes).s);
        shown++;
    }
}

/* upcast over run-time sizes: the bytes are formulas, and the threshold is
 * a condition on them ("when 2*n*d >= 1048576") unless the sizes decide it. */
static void ck_upcast_symbolic(ck_ctx *cx, int v, int in)
{
    const an_report *r = cx->r;
    const an_value *c = &r->values[v];
    tl_dtype from, to;
    const an_storage *st = &r->storages[c->storage];
    if (!ck_value_dtype(cx, in, &from) || !ck_value_dtype(cx, v, &to) || !ck_is_upcast(from, to) ||
        !st->symbolic)
        return;
    sx_int bytes = st->nbytes_sx, min = {cx->o->upcast_min_bytes, 0};
    sx_int narrow = sx_div(sx_mul(bytes, (sx_int){(int64_t)mt_dtype_size(from), 0}),
                           (sx_int){(int64_t)mt_dtype_size(to), 0});
    bool ge, decided = sx_prove(bytes, SX_GE, min, &ge);
    if (decided && !ge)
        return; /* below the threshold for every size */
    char cond[1024] = "";
    if (!decided) {
        char c2[1000];
        snprintf(cond, sizeof cond, " (when %s)", sx_cond_str(bytes, SX_GE, min, c2, sizeof c2));
    }
    char *b = sx_strdup(bytes), *nw = sx_strdup(narrow), *more = sx_strdup(sx_sub(bytes, narrow));
    char *label = ck_value_label(cx, in), *times = ck_times_sx(cx, v, sx_sub(bytes, narrow));
    an_diag *d = ck_diag_add(cx, CK_upcast, c->line, c->col,
                             "tl_to widens %s from %s to %s: %s B instead of %s B (%s B more), "
                             "and every read of it moves %dx the bytes%s%s", label,
                             mt_dtype_name(from), mt_dtype_name(to), b, nw, more,
                             mt_dtype_size(to) / mt_dtype_size(from), times, cond);
    ck_consumer_notes(cx, d, c->storage, from, to);
    free(b);
    free(nw);
    free(more);
    free(label);
    free(times);
}

/* tl_to from f16/bf16 to f32/f64 (or f32 to f64) whose result is at least
 * the threshold: the copy is size(b)/size(a) times the input's bytes, and
 * every later read of it moves that ratio more than the narrow tensor. */
void ck_rule_upcast(ck_ctx *cx)
{
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *c = &r->values[v];
        int in = ck_operand(cx, v, 0);
        if (c->op == MT_OP_to && in >= 0 && !c->known && ck_value_allocates_any(cx, v)) {
            ck_upcast_symbolic(cx, v, in);
            continue;
        }
        if (c->op != MT_OP_to || !ck_value_allocates(cx, v) || in < 0 || !r->values[in].known)
            continue;
        tl_dtype from = r->values[in].l.dtype, to = c->l.dtype;
        int64_t bytes = ck_value_bytes(cx, v), narrow = mt_numel(&c->l) * mt_dtype_size(from);
        if (!ck_is_upcast(from, to) || bytes < cx->o->upcast_min_bytes)
            continue;
        char *label = ck_value_label(cx, in), *times = ck_times(cx, v, bytes - narrow);
        an_diag *d = ck_diag_add(cx, CK_upcast, c->line, c->col,
                                 "tl_to widens %s from %s to %s: %s instead of %s (%s more), and "
                                 "every read of it moves %dx the bytes%s", label,
                                 mt_dtype_name(from), mt_dtype_name(to), ck_bytes(bytes).s,
                                 ck_bytes(narrow).s, ck_bytes(bytes - narrow).s,
                                 mt_dtype_size(to) / mt_dtype_size(from), times);
        ck_consumer_notes(cx, d, c->storage, from, to);
        free(label);
        free(times);
    }
}

/* tl_to(tl_to(x, b), a) where x is of dtype a, the first cast is exact and
 * nothing but the second cast reads the b tensor: both passes (their bytes
 * moved) buy nothing, x already holds the values.  A lossy first cast
 * (f32 to f16 and back) rounds on purpose and stays quiet.  Over sizes
 * known at run time the bytes are a formula (a cast between dtypes always
 * copies: no condition). */
void ck_rule_cast_roundtrip(ck_ctx *cx)
{
    if (!cx->log_complete)
        return;
    const an_report *r = cx->r;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *c2 = &r->values[v];
        int c1 = ck_operand(cx, v, 0);
        tl_dtype a, b, a0;
        if (c2->op != MT_OP_to || !ck_value_allocates_any(cx, v) || c1 < 0 ||
            r->values[c1].op != MT_OP_to || !ck_value_allocates_any(cx, c1))
            continue;
        const an_value *first = &r->values[c1];
        int x = ck_operand(cx, c1, 0);
        if (x < 0 || !ck_value_dtype(cx, x, &a0) || !ck_value_dtype(cx, c1, &b) ||
            !ck_value_dtype(cx, v, &a) || a0 != a || !ck_cast_exact(a, b) ||
            !ck_only_used_by(cx, first->storage, v) || ck_storage_escapes(cx, first->storage))
            continue;
        sx_int moved = sx_add(ck_value_moved_sx(first), ck_value_moved_sx(c2));
        if (!ck_sx_usable(moved))
            continue;
        char *label = ck_value_label(cx, x), *times = ck_times_sx(cx, v, moved);
        char *at = ck_line_text(cx, first->line);
        an_diag *d = ck_diag_add(cx, CK_cast_roundtrip, c2->line, c2->col,
                                 "tl_to casts back to %s what tl_to at line %s cast to %s, and "
                                 "nothing in between reads the %s tensor: both passes move %s "
                                 "for nothing, %s already holds these values%s",
                                 mt_dtype_name(a), at, mt_dtype_name(b),
                                 mt_dtype_name(b), ck_sx_bytes(moved).s, label, times);
        free(at);
        ck_note(d, first->line, first->col, "the first cast, to %s", mt_dtype_name(b));
        ck_fix_unnest(cx, d, v, c1);
        free(label);
        free(times);
    }
}
