/*
 * check_onehot.c: a matmul with a one-hot matrix (one-hot-matmul).  The
 * one-hot matrix is tl_eq of indices and a tl_arange (broadcast against
 * each other), perhaps cast, copied, viewed or transposed on its way to
 * tl_matmul / tl_matmul_out.  The product only selects rows of the other
 * operand (one-hot @ W: tl_index_select) or adds rows into place
 * (one-hot^T @ dY: tl_index_add_), and the one-hot matrix costs an
 * N x V allocation, and its multiply N x V x C work, to do it.
 *
 * The chain is read off the values' first executions (ck_operand): the
 * ops that pass a tensor's contents on (views, reshape, contiguous, clone,
 * casts) are followed, at most CK_ONEHOT_DEPTH of them.
 */
#include "check_internal.h"

#include <stdlib.h>

enum { CK_ONEHOT_DEPTH = 8 }; /* ops followed from a matmul operand back to tl_eq */

/* Ops whose result holds its first operand's elements, rearranged or cast. */
static bool ck_passes_on(mt_op op)
{
    mt_family f = mt_ops[op].family;
    return f == MT_VIEW || f == MT_VIEW_OR_COPY || op == MT_OP_clone;
}

static bool ck_is_transpose(mt_op op)
{
    return op == MT_OP_t || op == MT_OP_transpose || op == MT_OP_permute;
}

/* Whether value v holds tl_arange's values (through ops that pass them on). */
static bool ck_from_arange(const ck_ctx *cx, int v, int depth)
{
    for (; v >= 0 && depth < CK_ONEHOT_DEPTH; depth++) {
        mt_op op = cx->r->values[v].op;
        if (op == MT_OP_arange)
            return true;
        if (!ck_passes_on(op))
            return false;
        v = ck_operand(cx, v, 0);
    }
    return false;
}

/* The one-hot chain behind a matmul operand. */
typedef struct ck_onehot {
    int eq;            /* the tl_eq value */
    int arange;        /* its operand that comes from tl_arange */
    int64_t bytes;     /* bytes the chain allocates: the BOOL matrix, its casts and copies */
    bool transposed;   /* an odd number of transposes on the way */
} ck_onehot;

/* Whether value v (a matmul operand) is a one-hot matrix; fills *oh. */
static bool ck_one_hot_of(const ck_ctx *cx, int v, ck_onehot *oh)
{
    *oh = (ck_onehot){.eq = -1, .arange = -1};
    for (int depth = 0; v >= 0 && depth < CK_ONEHOT_DEPTH; depth++) {
        mt_op op = cx->r->values[v].op;
        int64_t b = ck_value_allocates(cx, v) ? ck_value_bytes(cx, v) : 0;
        oh->bytes += b > 0 ? b : 0;
        if (op == MT_OP_eq) {
            for (int k = 0; k < 2; k++)
                if (ck_from_arange(cx, ck_operand(cx, v, k), 0)) {
                    oh->eq = v;
                    oh->arange = ck_operand(cx, v, k);
                    return true;
                }
            return false;
        }
        if (!ck_passes_on(op))
            return false;
        oh->transposed ^= ck_is_transpose(op);
        v = ck_operand(cx, v, 0);
    }
    return false;
}

static void ck_onehot_report(ck_ctx *cx, mt_op op, int line, int col, int k, const ck_onehot *oh)
{
    const an_value *eq = &cx->r->values[oh->eq];
    char bytes[32];
    rp_format_bytes(bytes, sizeof bytes, oh->bytes);
    /* one-hot @ W selects W's rows; one-hot^T @ dY adds dY's rows into place */
    bool gathers = (k == 0) != oh->transposed;
    char *at = ck_line_text(cx, eq->line);
    an_diag *d = ck_diag_add(cx, CK_one_hot_matmul, line, col,
                             "tl_%s multiplies a one-hot matrix (tl_eq of indices and tl_arange, "
                             "line %s) that materialises %s per execution %s",
                             mt_ops[op].name, at, bytes,
                             gathers ? "to select rows: tl_index_select(w, 0, indices) selects "
                                       "them without it"
                                     : "to add rows into place: tl_index_add_(dw, 0, indices, dy) "
                                       "adds them without it");
    ck_note(d, eq->line, eq->col, "the one-hot matrix is built here");
    free(at);
}

/* The operand of a matmul (inputs a, b: k = 0, 1) that is a one-hot matrix, or -1. */
static int ck_onehot_operand(const ck_ctx *cx, int a, int b, ck_onehot *oh)
{
    if (ck_one_hot_of(cx, a, oh))
        return 0;
    return ck_one_hot_of(cx, b, oh) ? 1 : -1;
}

/* A tl_matmul or tl_matmul_out one of whose operands is a one-hot matrix. */
void ck_rule_one_hot_matmul(ck_ctx *cx)
{
    const an_report *r = cx->r;
    ck_onehot oh;
    for (int v = 0; v < r->n_values; v++) {
        const an_value *x = &r->values[v];
        int k;
        if (x->executed && x->op == MT_OP_matmul &&
            (k = ck_onehot_operand(cx, ck_operand(cx, v, 0), ck_operand(cx, v, 1), &oh)) >= 0)
            ck_onehot_report(cx, x->op, x->line, x->col, k, &oh);
    }
    int last_line = -1, last_col = -1; /* an out= site once, at its first execution */
    for (int64_t i = 0; i < cx->n_picks[CK_PICK_WRITE]; i++) {
        const an_event *e = ck_event(cx, cx->picks[CK_PICK_WRITE][i]);
        int k;
        if (e->kind != AN_EV_CALL || e->op != MT_OP_matmul_out || e->n_in < 3 ||
            (e->line == last_line && e->col == last_col) ||
            (k = ck_onehot_operand(cx, e->in_value[1], e->in_value[2], &oh)) < 0)
            continue;
        ck_onehot_report(cx, e->op, e->line, e->col, k, &oh);
        last_line = e->line, last_col = e->col;
    }
}
