/*
 * fe_capture_rd.c: a unit's IR read from a capture into a program
 * (fe_capture_ir.h), relocated as it is built.
 *
 * Every index is checked against the unit's own counts before it is
 * relocated, every kind against its enum, a call's arguments against its
 * op's signature, and every child the interpreter follows without a test
 * must be there; nesting deeper than FE_RD_DEPTH is refused.
 */
#include "fe_capture_ir.h"

#include <stdlib.h>
#include <string.h>

#include "fe_internal.h"

#define FE_RD_DEPTH (1 << 20)

/* Which variable ids a field may hold. */
typedef enum rd_var_want {
    RD_VAR,     /* a variable */
    RD_OPERAND  /* a variable or IR_NO_VAR / IR_NULL_TENSOR / IR_UNKNOWN_TENSOR */
} rd_var_want;

static int rd_var(fe_rd *r, rd_var_want want)
{
    int v = fe_rd_int(r);
    if (v >= 0 && v < r->n_vars)
        return r->var_map[v];
    if (want == RD_OPERAND && v >= IR_UNKNOWN_TENSOR && v < 0)
        return v;
    fe_rd_fail(r, "the capture names a variable it does not hold");
    return IR_NO_VAR;
}

static int rd_func(fe_rd *r)
{
    int f = fe_rd_int(r);
    if (f >= -1 && f < r->n_funcs)
        return f < 0 ? f : f + r->func_base;
    fe_rd_fail(r, "the capture names a function it does not hold");
    return -1;
}

static unsigned rd_enum(fe_rd *r, unsigned n)
{
    unsigned v = fe_rd_u8(r);
    if (v >= n) {
        fe_rd_fail(r, "the capture holds an unknown kind");
        return 0;
    }
    return v;
}

static ir_loc rd_loc(fe_rd *r)
{
    ir_loc l;
    l.line = fe_rd_int(r);
    l.col = fe_rd_int(r);
    if (l.line < 0 || l.col < 0)
        fe_rd_fail(r, "the capture holds a negative line or column");
    if (l.line > 0)
        l.line += r->line_base;
    return l;
}

static bool rd_deeper(fe_rd *r)
{
    if (++r->depth <= FE_RD_DEPTH)
        return true;
    return fe_rd_fail(r, "the capture nests deeper than a capture may");
}

static bool rd_need(fe_rd *r, bool ok)
{
    return ok || fe_rd_fail(r, "the capture lacks a part of a statement");
}

static ir_expr *rd_expr(fe_rd *r);
static ir_block *rd_block(fe_rd *r);

static ir_place *rd_place(fe_rd *r)
{
    if (fe_rd_u8(r) == 0 || r->why || !rd_deeper(r))
        return NULL;
    ir_place *p = ir_alloc(r->u, sizeof *p);
    p->var = rd_var(r, RD_VAR);
    p->n_steps = fe_rd_count(r, 18);
    p->steps = ir_alloc(r->u, (size_t)p->n_steps * sizeof *p->steps + 1);
    for (int k = 0; k < p->n_steps && !r->why; k++) {
        p->steps[k].kind = (ir_step_kind)rd_enum(r, IR_STEP_DEREF + 1);
        p->steps[k].key = (int64_t)fe_rd_u64(r);
        p->steps[k].name = fe_rd_str(r);
        p->steps[k].index = rd_expr(r);
        if (p->steps[k].kind == IR_STEP_INDEX)
            rd_need(r, p->steps[k].index != NULL);
    }
    p->text = fe_rd_str(r);
    r->depth--;
    return p;
}

static ir_ptr *rd_ptr(fe_rd *r)
{
    if (fe_rd_u8(r) == 0 || r->why || !rd_deeper(r))
        return NULL;
    ir_ptr *p = ir_alloc(r->u, sizeof *p);
    p->kind = (ir_ptr_kind)rd_enum(r, IR_PTR_UNKNOWN + 1);
    p->place = rd_place(r);
    p->offset = rd_expr(r);
    p->zeroed = fe_rd_u8(r) != 0;
    p->elem = fe_rd_u8(r) != 0;
    p->reason = fe_rd_str(r);
    p->func = rd_func(r);
    int ext = fe_rd_int(r);
    p->name = fe_rd_str(r);
    p->old = rd_ptr(r);
    p->size = rd_expr(r);
    p->elem_size = (int64_t)fe_rd_u64(r);
    if (p->kind == IR_PTR_FUNC && p->func < 0) {
        if (ext >= 0 && ext < r->n_ext)
            p->ext = r->ext_map[ext];
        else
            fe_rd_fail(r, "the capture names a function it does not list");
    }
    if (p->kind == IR_PTR_ADDR || p->kind == IR_PTR_LOAD)
        rd_need(r, p->place != NULL);
    if (p->kind == IR_PTR_REALLOC)
        rd_need(r, p->old && p->size);
    r->depth--;
    return p;
}

static void rd_expr_need(fe_rd *r, const ir_expr *e)
{
    switch (e->kind) {
    case IR_EXPR_VAR: rd_need(r, e->var >= 0); return;
    case IR_EXPR_UNARY: rd_need(r, e->a != NULL); return;
    case IR_EXPR_BINARY: rd_need(r, e->a && e->b); return;
    case IR_EXPR_COND: rd_need(r, e->a && e->b && e->c); return;
    case IR_EXPR_PLACE: rd_need(r, e->place != NULL); return;
    case IR_EXPR_PTR_CMP: rd_need(r, e->pa && e->pb); return;
    /* (an operand the front end does not follow is IR_UNKNOWN_TENSOR: the
     * interpreter answers "not known" for it) */
    case IR_EXPR_SAME_HANDLE: rd_need(r, e->var != IR_NO_VAR && e->var2 != IR_NO_VAR); return;
    default: return;
    }
}

static ir_expr *rd_expr(fe_rd *r)
{
    unsigned tag = fe_rd_u8(r);
    if (tag == 0 || r->why)
        return NULL;
    if (tag > IR_EXPR_UNKNOWN + 1u) {
        fe_rd_fail(r, "the capture holds an unknown kind");
        return NULL;
    }
    if (!rd_deeper(r))
        return NULL;
    ir_expr *e = ir_alloc(r->u, sizeof *e);
    e->kind = (ir_expr_kind)(tag - 1);
    e->loc = rd_loc(r);
    e->value = (int64_t)fe_rd_u64(r);
    e->var = rd_var(r, RD_OPERAND);
    e->var2 = rd_var(r, RD_OPERAND);
    e->op = (ir_op)rd_enum(r, IR_N_OPS);
    e->query = (ir_query)rd_enum(r, IR_N_QUERIES);
    e->a = rd_expr(r);
    e->b = rd_expr(r);
    e->c = rd_expr(r);
    e->reason = fe_rd_str(r);
    e->place = rd_place(r);
    e->pa = rd_ptr(r);
    e->pb = rd_ptr(r);
    rd_expr_need(r, e);
    r->depth--;
    return e;
}

static void rd_arg(fe_rd *r, ir_arg *a, char want)
{
    a->kind = (ir_arg_kind)fe_rd_u8(r);
    if ((int)a->kind != (int)(unsigned char)want)
        fe_rd_fail(r, "the capture's call does not match its op's arguments");
    a->var = rd_var(r, RD_OPERAND);
    a->n = fe_rd_int(r);
    if (a->n < IR_INTS_IN_PLACE || (a->n == IR_INTS_IN_PLACE && a->kind != IR_ARG_INTS) ||
        (a->n > 0 && (size_t)a->n > (size_t)(r->end - r->p) / 4))
        fe_rd_fail(r, "the capture holds a bad count of arguments");
    if (a->kind == IR_ARG_INTS && a->n > 0 && !r->why) {
        a->exprs = ir_alloc(r->u, (size_t)a->n * sizeof *a->exprs);
        for (int k = 0; k < a->n && !r->why; k++)
            a->exprs[k] = rd_expr(r);
    }
    if (a->kind == IR_ARG_LIST && a->n > 0 && !r->why) {
        a->vars = ir_alloc(r->u, (size_t)a->n * sizeof *a->vars);
        for (int k = 0; k < a->n && !r->why; k++)
            a->vars[k] = rd_var(r, RD_OPERAND);
    }
    a->expr = rd_expr(r);
    a->known = fe_rd_u8(r) != 0;
    uint64_t bits = fe_rd_u64(r);
    memcpy(&a->value, &bits, sizeof a->value);
    a->reason = fe_rd_str(r);
    a->place = rd_place(r);
    a->key_n = (int64_t)fe_rd_u64(r);
    a->key_v = (int64_t)fe_rd_u64(r);
    if (a->n == IR_INTS_IN_PLACE)
        rd_need(r, a->place != NULL);
}

static void rd_call(fe_rd *r, ir_stmt *s)
{
    int op = fe_rd_int(r);
    if (op < 0 || op >= MT_N_OPS) {
        fe_rd_fail(r, "the capture calls an op this version does not have");
        return;
    }
    s->call.op = (mt_op)op;
    s->call.result = rd_var(r, RD_OPERAND);
    const char *sig = mt_ops[op].signature;
    s->call.n_args = fe_rd_int(r);
    if (s->call.n_args != (int)strlen(sig)) {
        fe_rd_fail(r, "the capture's call does not match its op's arguments");
        return;
    }
    s->call.args = ir_alloc(r->u, (size_t)s->call.n_args * sizeof *s->call.args + 1);
    for (int k = 0; k < s->call.n_args && !r->why; k++)
        rd_arg(r, &s->call.args[k], sig[k]);
    int site = fe_rd_int(r);
    if (site < 0 || site >= r->n_sites)
        fe_rd_fail(r, "the capture numbers a call site it does not count");
    s->call.site = site + r->site_base;
    int stmt = fe_rd_int(r);
    if (stmt < 0)
        fe_rd_fail(r, "the capture numbers a statement below zero");
    s->call.stmt = stmt + r->stmt_base;
}

static void rd_user_call(fe_rd *r, ir_stmt *s)
{
    s->user_call.callee = rd_func(r);
    s->user_call.name = fe_rd_str(r);
    s->user_call.result = rd_var(r, RD_OPERAND);
    s->user_call.n_args = fe_rd_count(r, 6);
    s->user_call.args = ir_alloc(r->u, (size_t)s->user_call.n_args * sizeof(ir_uarg) + 1);
    for (int k = 0; k < s->user_call.n_args && !r->why; k++) {
        ir_uarg *a = &s->user_call.args[k];
        a->kind = (ir_var_kind)rd_enum(r, IR_VAR_OTHER + 1);
        a->var = rd_var(r, RD_OPERAND);
        a->expr = rd_expr(r);
        a->ptr = rd_ptr(r);
        a->place = rd_place(r);
    }
    s->user_call.fn = rd_ptr(r);
    s->user_call.ext = rd_block(r);
    rd_need(r, s->user_call.name != NULL);
}

static void rd_label(fe_rd *r, ir_stmt *s)
{
    int id = fe_rd_int(r);
    if (id < 0 || id >= r->n_labels)
        fe_rd_fail(r, "the capture names a label it does not count");
    s->label.id = id + r->label_base;
    s->label.name = fe_rd_str(r);
}

static void rd_stmt_fields(fe_rd *r, ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL: rd_call(r, s); return;
    case IR_RELEASE: s->release.var = rd_var(r, RD_OPERAND); return;
    case IR_ASSIGN_INT:
        s->assign_int.var = rd_var(r, RD_VAR);
        s->assign_int.value = rd_expr(r);
        return;
    case IR_ASSIGN_TENSOR:
        s->assign_tensor.dst = rd_var(r, RD_VAR);
        s->assign_tensor.src = rd_var(r, RD_OPERAND);
        return;
    case IR_BLOCK: rd_need(r, (s->block = rd_block(r)) != NULL); return;
    case IR_IF:
        s->branch.cond = rd_expr(r);
        s->branch.then_blk = rd_block(r);
        s->branch.else_blk = rd_block(r);
        s->branch.else_text = fe_rd_str(r);
        return;
    case IR_LOOP:
        s->loop.kind = (ir_loop_kind)rd_enum(r, IR_LOOP_DO + 1);
        s->loop.init = rd_block(r);
        s->loop.cond_pre = rd_block(r);
        s->loop.cond = rd_expr(r);
        s->loop.step = rd_block(r);
        s->loop.body = rd_block(r);
        return;
    case IR_USER_CALL: rd_user_call(r, s); return;
    case IR_RETURN:
        s->ret.var = rd_var(r, RD_OPERAND);
        s->ret.value = rd_expr(r);
        s->ret.ptr = rd_ptr(r);
        s->ret.place = rd_place(r);
        return;
    case IR_EVAL: s->eval.expr = rd_expr(r); return;
    case IR_LOAD:
        s->load.dst = rd_var(r, RD_VAR);
        rd_need(r, (s->load.src = rd_place(r)) != NULL);
        return;
    case IR_STORE:
        rd_need(r, (s->store.dst = rd_place(r)) != NULL);
        s->store.kind = (ir_var_kind)rd_enum(r, IR_VAR_OTHER + 1);
        s->store.src = rd_var(r, RD_OPERAND);
        s->store.move = fe_rd_u8(r) != 0;
        s->store.value = rd_expr(r);
        s->store.ptr = rd_ptr(r);
        return;
    case IR_COPY:
        s->copy.dst = rd_place(r);
        s->copy.src = rd_place(r);
        s->copy.arrays = fe_rd_u8(r) != 0;
        rd_need(r, s->copy.dst && s->copy.src);
        return;
    case IR_FILL:
        rd_need(r, (s->fill.dst = rd_place(r)) != NULL);
        s->fill.zero = fe_rd_u8(r) != 0;
        s->fill.data = fe_rd_u8(r) != 0;
        s->fill.why = fe_rd_str(r);
        return;
    case IR_LABEL:
    case IR_GOTO: rd_label(r, s); return;
    case IR_UNSUPPORTED:
        s->unsup.message = fe_rd_str(r);
        s->unsup.var = rd_var(r, RD_OPERAND);
        return;
    default: return;
    }
}

static ir_block *rd_block(fe_rd *r)
{
    if (fe_rd_u8(r) == 0 || r->why || !rd_deeper(r))
        return NULL;
    ir_block *b = ir_block_new(r->u);
    b->n_stmts = fe_rd_count(r, 13);
    b->stmts = ir_alloc(r->u, (size_t)b->n_stmts * sizeof *b->stmts + 1);
    for (int k = 0; k < b->n_stmts && !r->why; k++) {
        ir_stmt_kind kind = (ir_stmt_kind)rd_enum(r, IR_N_STMT_KINDS);
        ir_loc loc = rd_loc(r);
        ir_stmt *s = ir_stmt_new(r->u, kind, loc);
        s->text = fe_rd_str(r);
        rd_stmt_fields(r, s);
        b->stmts[k] = s;
    }
    b->n_decls = fe_rd_count(r, 4);
    b->decls = ir_alloc(r->u, (size_t)b->n_decls * sizeof *b->decls + 1);
    for (int k = 0; k < b->n_decls && !r->why; k++)
        b->decls[k] = rd_var(r, RD_VAR);
    b->end = rd_loc(r);
    b->cap_stmts = b->n_stmts;
    b->cap_decls = b->n_decls;
    r->depth--;
    if (r->why) { /* a partial block: a NULL statement is never left to be walked */
        b->n_stmts = 0;
        b->n_decls = 0;
    }
    return b;
}

/* ---- the unit ---- */

/* The unit's variables, appended to the program's (or merged). */
static void rd_vars(fe_rd *r, fe_func_map *globals)
{
    r->n_vars = fe_rd_count(r, 19);
    r->var_map = tl_xcalloc((size_t)r->n_vars + 1, sizeof *r->var_map);
    for (int k = 0; k < r->n_vars && !r->why; k++) {
        const char *name = fe_rd_str(r);
        ir_var_kind kind = (ir_var_kind)rd_enum(r, IR_VAR_OTHER + 1);
        unsigned flags = fe_rd_u8(r);
        unsigned wrap = fe_rd_u8(r);
        int func = rd_func(r);
        ir_loc loc = rd_loc(r);
        int seen = (flags & 64) && name ? fe_func_map_get(globals, name) : -1;
        if (r->why || !rd_need(r, name != NULL) || seen >= 0) {
            r->var_map[k] = seen >= 0 ? seen : 0;
            continue;
        }
        int id = ir_var_new(r->u, name, kind, func, loc);
        ir_var *v = &r->u->vars[id];
        v->is_temp = flags & 1;
        v->is_borrow = flags & 2;
        v->is_carrier = flags & 4;
        v->is_param = flags & 8;
        v->is_global = flags & 16;
        v->is_const = flags & 32;
        v->wrap_bits = (uint8_t)wrap;
        if (flags & 64)
            fe_func_map_put(globals, name, id);
        r->var_map[k] = id;
    }
}

static void rd_funcs(fe_rd *r)
{
    for (int k = 0; k < r->n_funcs && !r->why; k++) {
        const char *name = fe_rd_str(r);
        ir_loc loc = rd_loc(r);
        int index = ir_func_add(r->u, name ? name : "", loc);
        ir_func *f = r->u->funcs[index];
        rd_need(r, name != NULL);
        f->end = rd_loc(r);
        f->n_params = fe_rd_count(r, 4);
        f->params = ir_alloc(r->u, (size_t)f->n_params * sizeof *f->params + 1);
        for (int i = 0; i < f->n_params && !r->why; i++)
            f->params[i] = rd_var(r, RD_VAR);
        unsigned flags = fe_rd_u8(r);
        f->returns_tensor = flags & 1;
        f->returns_int = flags & 2;
        f->is_static = flags & 4;
        f->has_tensor_code = flags & 8;
        f->address_taken = flags & 16;
        f->body = rd_block(r);
        if (!f->body) {
            rd_need(r, false);
            f->body = ir_block_new(r->u);
        }
    }
}

static void rd_diags_notes(fe_rd *r)
{
    int n = fe_rd_count(r, 17);
    for (int k = 0; k < n && !r->why; k++) {
        ir_diag d = {0};
        d.severity = (ir_severity)rd_enum(r, IR_SEV_FATAL + 1);
        d.file = fe_rd_str(r);
        d.line = fe_rd_int(r);
        d.col = fe_rd_int(r);
        d.message = fe_rd_str(r);
        d.option = fe_rd_str(r);
        if (!r->why && rd_need(r, d.message && d.option))
            ir_diag_add(r->u, &d);
    }
    n = fe_rd_count(r, 16);
    for (int k = 0; k < n && !r->why; k++) {
        ir_loc loc = rd_loc(r);
        int func = rd_func(r);
        const char *message = fe_rd_str(r);
        if (!r->why && rd_need(r, message != NULL))
            ir_note_add(r->u, func, loc, message);
    }
}

/* The counts of the unit, its file added: the bases of its indexes. */
static void rd_counts(fe_rd *r, const char *path, int *n_serial)
{
    int n_lines = fe_rd_int(r);
    *n_serial = fe_rd_int(r);
    r->n_sites = fe_rd_int(r);
    r->n_labels = fe_rd_int(r);
    int n_heap = fe_rd_int(r);
    r->n_funcs = fe_rd_int(r);
    if (n_lines < 0 || *n_serial < 0 || r->n_sites < 0 || r->n_labels < 0 || n_heap < 0 ||
        r->n_funcs < 0 || (size_t)r->n_funcs > (size_t)(r->end - r->p)) {
        fe_rd_fail(r, "the capture holds a negative count");
        return;
    }
    ir_file *f = ir_unit_file_add(r->u, path, n_lines);
    r->line_base = f->line_base;
    r->func_base = r->u->n_funcs;
    r->site_base = r->u->n_call_sites;
    r->label_base = r->u->n_labels;
    r->u->n_heap_sites += n_heap;
    r->n_ext = fe_rd_count(r, 4);
    r->ext_map = tl_xcalloc((size_t)r->n_ext + 1, sizeof *r->ext_map);
    for (int k = 0; k < r->n_ext && !r->why; k++) {
        const char *name = fe_rd_str(r);
        if (rd_need(r, name != NULL))
            r->ext_map[k] = ir_ext_func(r->u, name);
    }
}

bool fe_rd_unit(fe_rd *r, const char *path, fe_func_map *globals, int *stmt_serial)
{
    int n_serial = 0;
    r->stmt_base = *stmt_serial;
    rd_counts(r, path, &n_serial);
    rd_vars(r, globals);
    rd_funcs(r);
    ir_block *init = rd_block(r);
    for (int k = 0; init && k < init->n_stmts; k++)
        ir_block_push(r->u, r->u->globals_init, init->stmts[k]);
    for (int k = 0; init && k < init->n_decls; k++)
        ir_block_declare(r->u, r->u->globals_init, init->decls[k]);
    rd_diags_notes(r);
    if (!r->why && r->p != r->end)
        fe_rd_fail(r, "the capture has bytes after its unit");
    free(r->var_map);
    free(r->ext_map);
    r->var_map = r->ext_map = NULL;
    if (r->why)
        return false;
    ir_file *f = &r->u->files[r->u->n_files - 1];
    f->n_funcs = r->u->n_funcs - f->first_func;
    r->u->n_call_sites += r->n_sites;
    r->u->n_labels += r->n_labels;
    *stmt_serial += n_serial;
    return true;
}
