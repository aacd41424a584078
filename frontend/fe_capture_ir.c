/*
 * fe_capture_ir.c: a unit's IR written to bytes, and read back into a
 * program (fe_capture.h).
 *
 * Approach: the writer walks the unit as a tree, every node's fields in a
 * fixed order (integers little-endian, strings with their length, -1 for
 * NULL; an absent child is a 0 byte); the reader walks the same order and
 * relocates as it builds: lines after the program's files, variables
 * through a map (a variable of external linkage is the program's one
 * variable of that name), functions, call sites, labels and C statements
 * after the program's, pointers to functions not defined in the unit by
 * the program's list of them.  It builds into the program's arena, checks
 * every count against the bytes left, every index against its table and
 * every kind against its enum; the first failure stops it with a reason.
 *
 * Invariant: the fields written and read are in one order; reading a
 * unit's bytes into an empty program gives the unit back (its ir_unit_dump
 * is the same).
 */
#include "fe_capture_ir.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* ---- the writer ---- */

void fe_wr_bytes(fe_wr *w, const void *b, size_t n)
{
    tl_xgrow(w->p, &w->cap, w->n + n, 4096);
    memcpy(w->p + w->n, b, n);
    w->n += n;
}

void fe_wr_u64(fe_wr *w, uint64_t v)
{
    uint8_t b[8];
    for (int k = 0; k < 8; k++)
        b[k] = (uint8_t)(v >> (8 * k));
    fe_wr_bytes(w, b, 8);
}

void fe_wr_int(fe_wr *w, int v)
{
    uint32_t x = (uint32_t)v;
    uint8_t b[4] = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24)};
    fe_wr_bytes(w, b, 4);
}

void fe_wr_u8(fe_wr *w, unsigned v)
{
    uint8_t b = (uint8_t)v;
    fe_wr_bytes(w, &b, 1);
}

void fe_wr_str(fe_wr *w, const char *s)
{
    if (!s) {
        fe_wr_int(w, -1);
        return;
    }
    size_t n = strlen(s);
    fe_wr_int(w, (int)n);
    fe_wr_bytes(w, s, n);
}

static void wr_loc(fe_wr *w, ir_loc l)
{
    fe_wr_int(w, l.line);
    fe_wr_int(w, l.col);
}

static void wr_expr(fe_wr *w, const ir_expr *e);
static void wr_block(fe_wr *w, const ir_block *b);

static void wr_place(fe_wr *w, const ir_place *p)
{
    fe_wr_u8(w, p != NULL);
    if (!p)
        return;
    fe_wr_int(w, p->var);
    fe_wr_int(w, p->n_steps);
    for (int k = 0; k < p->n_steps; k++) {
        fe_wr_u8(w, p->steps[k].kind);
        fe_wr_u64(w, (uint64_t)p->steps[k].key);
        fe_wr_str(w, p->steps[k].name);
        wr_expr(w, p->steps[k].index);
    }
    fe_wr_str(w, p->text);
}

static void wr_ptr(fe_wr *w, const ir_ptr *p)
{
    fe_wr_u8(w, p != NULL);
    if (!p)
        return;
    fe_wr_u8(w, p->kind);
    wr_place(w, p->place);
    wr_expr(w, p->offset);
    fe_wr_u8(w, p->zeroed);
    fe_wr_u8(w, p->elem);
    fe_wr_str(w, p->reason);
    fe_wr_int(w, p->func);
    fe_wr_int(w, p->ext);
    fe_wr_str(w, p->name);
    wr_ptr(w, p->old);
    wr_expr(w, p->size);
    fe_wr_u64(w, (uint64_t)p->elem_size);
}

static void wr_expr(fe_wr *w, const ir_expr *e)
{
    fe_wr_u8(w, e ? 1u + e->kind : 0);
    if (!e)
        return;
    wr_loc(w, e->loc);
    fe_wr_u64(w, (uint64_t)e->value);
    fe_wr_int(w, e->var);
    fe_wr_int(w, e->var2);
    fe_wr_u8(w, e->op);
    fe_wr_u8(w, e->query);
    wr_expr(w, e->a);
    wr_expr(w, e->b);
    wr_expr(w, e->c);
    fe_wr_str(w, e->reason);
    wr_place(w, e->place);
    wr_ptr(w, e->pa);
    wr_ptr(w, e->pb);
}

static void wr_arg(fe_wr *w, const ir_arg *a)
{
    fe_wr_u8(w, (unsigned)a->kind);
    fe_wr_int(w, a->var);
    fe_wr_int(w, a->n);
    for (int k = 0; a->kind == IR_ARG_INTS && k < a->n; k++)
        wr_expr(w, a->exprs[k]);
    for (int k = 0; a->kind == IR_ARG_LIST && k < a->n; k++)
        fe_wr_int(w, a->vars[k]);
    wr_expr(w, a->expr);
    fe_wr_u8(w, a->known);
    uint64_t bits;
    memcpy(&bits, &a->value, sizeof bits);
    fe_wr_u64(w, bits);
    fe_wr_str(w, a->reason);
    wr_place(w, a->place);
    fe_wr_u64(w, (uint64_t)a->key_n);
    fe_wr_u64(w, (uint64_t)a->key_v);
}

static void wr_uarg(fe_wr *w, const ir_uarg *a)
{
    fe_wr_u8(w, a->kind);
    fe_wr_int(w, a->var);
    wr_expr(w, a->expr);
    wr_ptr(w, a->ptr);
    wr_place(w, a->place);
}

static void wr_stmt_fields(fe_wr *w, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL:
        fe_wr_int(w, s->call.op);
        fe_wr_int(w, s->call.result);
        fe_wr_int(w, s->call.n_args);
        for (int k = 0; k < s->call.n_args; k++)
            wr_arg(w, &s->call.args[k]);
        fe_wr_int(w, s->call.site);
        fe_wr_int(w, s->call.stmt);
        return;
    case IR_RELEASE: fe_wr_int(w, s->release.var); return;
    case IR_ASSIGN_INT: fe_wr_int(w, s->assign_int.var); wr_expr(w, s->assign_int.value); return;
    case IR_ASSIGN_TENSOR:
        fe_wr_int(w, s->assign_tensor.dst);
        fe_wr_int(w, s->assign_tensor.src);
        return;
    case IR_BLOCK: wr_block(w, s->block); return;
    case IR_IF:
        wr_expr(w, s->branch.cond);
        wr_block(w, s->branch.then_blk);
        wr_block(w, s->branch.else_blk);
        fe_wr_str(w, s->branch.else_text);
        return;
    case IR_LOOP:
        fe_wr_u8(w, s->loop.kind);
        wr_block(w, s->loop.init);
        wr_block(w, s->loop.cond_pre);
        wr_expr(w, s->loop.cond);
        wr_block(w, s->loop.step);
        wr_block(w, s->loop.body);
        return;
    case IR_USER_CALL:
        fe_wr_int(w, s->user_call.callee);
        fe_wr_str(w, s->user_call.name);
        fe_wr_int(w, s->user_call.result);
        fe_wr_int(w, s->user_call.n_args);
        for (int k = 0; k < s->user_call.n_args; k++)
            wr_uarg(w, &s->user_call.args[k]);
        wr_ptr(w, s->user_call.fn);
        wr_block(w, s->user_call.ext);
        return;
    case IR_RETURN:
        fe_wr_int(w, s->ret.var);
        wr_expr(w, s->ret.value);
        wr_ptr(w, s->ret.ptr);
        wr_place(w, s->ret.place);
        return;
    case IR_EVAL: wr_expr(w, s->eval.expr); return;
    case IR_LOAD: fe_wr_int(w, s->load.dst); wr_place(w, s->load.src); return;
    case IR_STORE:
        wr_place(w, s->store.dst);
        fe_wr_u8(w, s->store.kind);
        fe_wr_int(w, s->store.src);
        fe_wr_u8(w, s->store.move);
        wr_expr(w, s->store.value);
        wr_ptr(w, s->store.ptr);
        return;
    case IR_COPY:
        wr_place(w, s->copy.dst);
        wr_place(w, s->copy.src);
        fe_wr_u8(w, s->copy.arrays);
        return;
    case IR_FILL:
        wr_place(w, s->fill.dst);
        fe_wr_u8(w, s->fill.zero);
        fe_wr_u8(w, s->fill.data);
        fe_wr_str(w, s->fill.why);
        return;
    case IR_LABEL:
    case IR_GOTO: fe_wr_int(w, s->label.id); fe_wr_str(w, s->label.name); return;
    case IR_UNSUPPORTED: fe_wr_str(w, s->unsup.message); fe_wr_int(w, s->unsup.var); return;
    default: return; /* BREAK, CONTINUE, EXIT: kind, location and text only */
    }
}

static void wr_block(fe_wr *w, const ir_block *b)
{
    fe_wr_u8(w, b != NULL);
    if (!b)
        return;
    fe_wr_int(w, b->n_stmts);
    for (int k = 0; k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        fe_wr_u8(w, s->kind);
        wr_loc(w, s->loc);
        fe_wr_str(w, s->text);
        wr_stmt_fields(w, s);
    }
    fe_wr_int(w, b->n_decls);
    for (int k = 0; k < b->n_decls; k++)
        fe_wr_int(w, b->decls[k]);
    wr_loc(w, b->end);
}

static void wr_var(fe_wr *w, const ir_var *v, bool is_extern)
{
    fe_wr_str(w, v->name);
    fe_wr_u8(w, v->kind);
    unsigned flags = (unsigned)v->is_temp | (unsigned)v->is_borrow << 1 |
                     (unsigned)v->is_carrier << 2 | (unsigned)v->is_param << 3 |
                     (unsigned)v->is_global << 4 | (unsigned)v->is_const << 5 |
                     (unsigned)is_extern << 6;
    fe_wr_u8(w, flags);
    fe_wr_u8(w, v->wrap_bits);
    fe_wr_int(w, v->func);
    wr_loc(w, v->loc);
}

static void wr_func(fe_wr *w, const ir_func *f)
{
    fe_wr_str(w, f->name);
    wr_loc(w, f->loc);
    wr_loc(w, f->end);
    fe_wr_int(w, f->n_params);
    for (int k = 0; k < f->n_params; k++)
        fe_wr_int(w, f->params[k]);
    unsigned flags = (unsigned)f->returns_tensor | (unsigned)f->returns_int << 1 |
                     (unsigned)f->is_static << 2 | (unsigned)f->has_tensor_code << 3 |
                     (unsigned)f->address_taken << 4;
    fe_wr_u8(w, flags);
    wr_block(w, f->body);
}

static void wr_diag(fe_wr *w, const ir_diag *d)
{
    fe_wr_u8(w, d->severity);
    fe_wr_str(w, d->file);
    fe_wr_int(w, d->line);
    fe_wr_int(w, d->col);
    fe_wr_str(w, d->message);
    fe_wr_str(w, d->option);
}

void fe_wr_unit(fe_wr *w, const ir_unit *u, const fe_lowered *l)
{
    fe_wr_int(w, l->n_lines);
    fe_wr_int(w, l->stmt_serial);
    fe_wr_int(w, u->n_call_sites);
    fe_wr_int(w, u->n_labels);
    fe_wr_int(w, u->n_heap_sites);
    fe_wr_int(w, u->n_funcs);
    fe_wr_int(w, u->n_ext_funcs);
    for (int k = 0; k < u->n_ext_funcs; k++)
        fe_wr_str(w, u->ext_funcs[k]);
    fe_wr_int(w, u->n_vars);
    bool *ext = tl_xcalloc((size_t)u->n_vars + 1, 1);
    for (int k = 0; k < l->n_externs; k++)
        ext[l->externs[k]] = true;
    for (int k = 0; k < u->n_vars; k++)
        wr_var(w, &u->vars[k], ext[k]);
    free(ext);
    for (int k = 0; k < u->n_funcs; k++)
        wr_func(w, u->funcs[k]);
    wr_block(w, u->globals_init);
    fe_wr_int(w, u->n_diags);
    for (int k = 0; k < u->n_diags; k++)
        wr_diag(w, &u->diags[k]);
    fe_wr_int(w, u->n_notes);
    for (int k = 0; k < u->n_notes; k++) {
        wr_loc(w, u->notes[k].loc);
        fe_wr_int(w, u->notes[k].func);
        fe_wr_str(w, u->notes[k].message);
    }
}

/* ---- the reader: primitives ---- */

bool fe_rd_fail(fe_rd *r, const char *why)
{
    if (!r->why)
        r->why = why;
    r->p = r->end;
    return false;
}

static bool rd_take(fe_rd *r, void *b, size_t n)
{
    if (r->why || (size_t)(r->end - r->p) < n) {
        memset(b, 0, n);
        return fe_rd_fail(r, "the capture is truncated");
    }
    memcpy(b, r->p, n);
    r->p += n;
    return true;
}

uint64_t fe_rd_u64(fe_rd *r)
{
    uint8_t b[8];
    rd_take(r, b, 8);
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = v << 8 | b[k];
    return v;
}

int fe_rd_int(fe_rd *r)
{
    uint8_t b[4];
    rd_take(r, b, 4);
    return (int)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                 (uint32_t)b[3] << 24);
}

unsigned fe_rd_u8(fe_rd *r)
{
    uint8_t b;
    rd_take(r, &b, 1);
    return b;
}

/* A count of items of at least min_bytes each: never more than the bytes left. */
int fe_rd_count(fe_rd *r, size_t min_bytes)
{
    int n = fe_rd_int(r);
    if (n < 0 || (size_t)n > (size_t)(r->end - r->p) / (min_bytes ? min_bytes : 1)) {
        fe_rd_fail(r, "the capture holds a count larger than its bytes");
        return 0;
    }
    return n;
}

/* A string into the arena of r->u (NULL as written). */
const char *fe_rd_str(fe_rd *r)
{
    int n = fe_rd_int(r);
    if (n == -1 || r->why)
        return NULL;
    if (n < 0 || (size_t)n > (size_t)(r->end - r->p)) {
        fe_rd_fail(r, "the capture holds a string longer than its bytes");
        return NULL;
    }
    char *s = ir_alloc(r->u, (size_t)n + 1);
    memcpy(s, r->p, (size_t)n);
    r->p += n;
    return s;
}
