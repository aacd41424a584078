/*
 * check_ir.c: uses of tensor variables that the event log does not show.
 * The log records API calls, releases and lost handles; a query
 * (tl_size(x, 0), tl_print(x)), a call of a function not defined in the
 * file, a handle copied into another variable (y = x), one that escapes
 * into something the front end does not follow, or a return, leaves no
 * event.  The lifetime rules must not move a release above such a use, so
 * they ask here whether a variable of a given name is mentioned in a
 * function between two lines.
 *
 * The list is built once per run by walking every function's IR.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct ck_mention {
    int func, line;
    int var;
    ck_mention_kind kind;
} ck_mention;

typedef struct ck_stmt_ref {  /* where a statement sits */
    int func, line, col;
    ir_stmt_kind kind;
    const ir_block *block;
    int index;                /* in block->stmts */
} ck_stmt_ref;

struct ck_ir_index {
    const an_report *r; /* calls through pointers: the functions they reached */
    int n, cap;
    ck_mention *m;     /* sorted by function, then line */
    int n_funcs;
    int *func_start;   /* per function: its first mention; n_funcs + 1 entries */
    int n_stmts, cap_stmts;
    ck_stmt_ref *stmts; /* calls and releases, sorted by function, line, column, kind */
};

static void ck_mention_add(ck_ir_index *ms, const ir_unit *u, int func, int line, int var,
                           ck_mention_kind kind)
{
    if (var < 0 || var >= u->n_vars || u->vars[var].kind != IR_VAR_TENSOR)
        return;
    tl_xgrow(ms->m, &ms->cap, (size_t)ms->n + 1, 64);
    ms->m[ms->n++] = (ck_mention){func, line, var, kind};
}

/* Queries inside an integer expression. */
static void ck_expr_walk(ck_ir_index *ms, const ir_unit *u, int func, const ir_expr *e)
{
    if (!e)
        return;
    if (e->kind == IR_EXPR_QUERY || e->kind == IR_EXPR_TENSOR_NULL ||
        e->kind == IR_EXPR_SAME_HANDLE) {
        ck_mention_add(ms, u, func, e->loc.line, e->var, CK_MENTION_QUERY);
        ck_mention_add(ms, u, func, e->loc.line, e->var2, CK_MENTION_QUERY);
    }
    ck_expr_walk(ms, u, func, e->a);
    ck_expr_walk(ms, u, func, e->b);
    ck_expr_walk(ms, u, func, e->c);
}

static void ck_args_walk(ck_ir_index *ms, const ir_unit *u, int func, const ir_stmt *s)
{
    for (int k = 0; k < s->call.n_args; k++) {
        const ir_arg *a = &s->call.args[k];
        ck_expr_walk(ms, u, func, a->expr);
        for (int j = 0; a->kind == IR_ARG_INTS && j < a->n; j++)
            ck_expr_walk(ms, u, func, a->exprs[j]);
    }
}

#define CK_MAX_CALLEES 64 /* callees of one call through a pointer looked at */

/* A call through a pointer passes its handles to a function of the file
 * when every function it reached is one (and it ran). */
static ck_mention_kind ck_pointer_call_kind(const an_report *r, const ir_stmt *s)
{
    int callees[CK_MAX_CALLEES];
    int n = an_report_callees(r, s->loc.line, s->loc.col, callees, CK_MAX_CALLEES);
    if (n == 0 || n > CK_MAX_CALLEES)
        return CK_MENTION_EXTERNAL;
    for (int k = 0; k < n; k++)
        if (callees[k] < 0)
            return CK_MENTION_EXTERNAL;
    return CK_MENTION_USER;
}

static void ck_user_call_walk(ck_ir_index *ms, const ir_unit *u, int func, const ir_stmt *s)
{
    ck_mention_kind kind = s->user_call.fn ? ck_pointer_call_kind(ms->r, s)
                           : s->user_call.callee < 0 ? CK_MENTION_EXTERNAL
                                                     : CK_MENTION_USER;
    for (int k = 0; k < s->user_call.n_args; k++) {
        const ir_uarg *a = &s->user_call.args[k];
        if (a->kind == IR_VAR_TENSOR)
            ck_mention_add(ms, u, func, s->loc.line, a->var, kind);
        else
            ck_expr_walk(ms, u, func, a->expr);
    }
}

static void ck_block_walk(ck_ir_index *ms, const ir_unit *u, int func, const ir_block *b);

static void ck_stmt_walk(ck_ir_index *ms, const ir_unit *u, int func, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_CALL: ck_args_walk(ms, u, func, s); break;
    case IR_ASSIGN_INT: ck_expr_walk(ms, u, func, s->assign_int.value); break;
    case IR_ASSIGN_TENSOR:
        ck_mention_add(ms, u, func, s->loc.line, s->assign_tensor.src, CK_MENTION_ALIAS);
        break;
    case IR_BLOCK: ck_block_walk(ms, u, func, s->block); break;
    case IR_IF:
        ck_expr_walk(ms, u, func, s->branch.cond);
        ck_block_walk(ms, u, func, s->branch.then_blk);
        ck_block_walk(ms, u, func, s->branch.else_blk);
        break;
    case IR_LOOP:
        ck_expr_walk(ms, u, func, s->loop.cond);
        ck_block_walk(ms, u, func, s->loop.init);
        ck_block_walk(ms, u, func, s->loop.cond_pre);
        ck_block_walk(ms, u, func, s->loop.body);
        ck_block_walk(ms, u, func, s->loop.step);
        break;
    case IR_USER_CALL: ck_user_call_walk(ms, u, func, s); break;
    case IR_RETURN:
        ck_mention_add(ms, u, func, s->loc.line, s->ret.var, CK_MENTION_RETURN);
        ck_expr_walk(ms, u, func, s->ret.value);
        break;
    case IR_EVAL: ck_expr_walk(ms, u, func, s->eval.expr); break;
    case IR_UNSUPPORTED:
        ck_mention_add(ms, u, func, s->loc.line, s->unsup.var, CK_MENTION_ESCAPE);
        break;
    default: break;
    }
}

static void ck_stmt_ref_add(ck_ir_index *ms, int func, const ir_block *b, int k)
{
    const ir_stmt *s = b->stmts[k];
    if (s->kind != IR_CALL && s->kind != IR_RELEASE)
        return;
    tl_xgrow(ms->stmts, &ms->cap_stmts, (size_t)ms->n_stmts + 1, 64);
    ms->stmts[ms->n_stmts++] = (ck_stmt_ref){func, s->loc.line, s->loc.col, s->kind, b, k};
}

static void ck_block_walk(ck_ir_index *ms, const ir_unit *u, int func, const ir_block *b)
{
    for (int k = 0; b && k < b->n_stmts; k++) {
        ck_stmt_ref_add(ms, func, b, k);
        ck_stmt_walk(ms, u, func, b->stmts[k]);
    }
}

static int ck_cmp_ref_key(int func, int line, int col, ir_stmt_kind kind, const ck_stmt_ref *r)
{
    if (func != r->func)
        return func < r->func ? -1 : 1;
    int c = ck_loc_cmp(line, col, r->line, r->col);
    return c ? c : kind != r->kind ? (kind < r->kind ? -1 : 1) : 0;
}

static int ck_cmp_ref(const void *a, const void *b)
{
    const ck_stmt_ref *x = a;
    return ck_cmp_ref_key(x->func, x->line, x->col, x->kind, b);
}

/* The statement of kind at (line, col) in func, or NULL. */
static const ck_stmt_ref *ck_stmt_find(const ck_ctx *cx, int func, ir_stmt_kind kind, int line,
                                       int col)
{
    const ck_ir_index *ix = ck_ir(cx);
    int lo = 0, hi = ix->n_stmts;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, c = ck_cmp_ref_key(func, line, col, kind, &ix->stmts[mid]);
        if (c == 0)
            return &ix->stmts[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static int ck_cmp_mention(const void *a, const void *b)
{
    const ck_mention *x = a, *y = b;
    if (x->func != y->func)
        return x->func - y->func;
    return x->line != y->line ? x->line - y->line : x->var - y->var;
}

ck_ir_index *ck_ir_index_build(const an_report *r)
{
    const ir_unit *u = r->unit;
    ck_ir_index *ms = tl_xcalloc(1, sizeof *ms);
    ms->r = r;
    ms->func_start = tl_xcalloc((size_t)u->n_funcs + 2, sizeof(int));
    for (int f = 0; f < u->n_funcs; f++)
        ck_block_walk(ms, u, f, u->funcs[f]->body);
    if (ms->n > 1)
        qsort(ms->m, (size_t)ms->n, sizeof *ms->m, ck_cmp_mention);
    if (ms->n_stmts > 1)
        qsort(ms->stmts, (size_t)ms->n_stmts, sizeof *ms->stmts, ck_cmp_ref);
    ms->n_funcs = u->n_funcs;
    for (int k = 0, f = 0; f <= u->n_funcs; f++) {
        while (k < ms->n && ms->m[k].func < f)
            k++;
        ms->func_start[f] = k;
    }
    return ms;
}

void ck_ir_index_free(ck_ir_index *ms)
{
    if (!ms)
        return;
    free(ms->m);
    free(ms->stmts);
    free(ms->func_start);
    free(ms);
}

bool ck_mentioned(const ck_ctx *cx, const char *name, int func, int after_line, int before_line,
                  unsigned kinds)
{
    const ck_ir_index *ms = ck_ir(cx);
    const ir_unit *u = cx->r->unit;
    if (!name || func < 0 || func >= ms->n_funcs)
        return false;
    int lo = ms->func_start[func], hi = ms->func_start[func + 1];
    while (lo < hi) { /* the first mention after after_line */
        int mid = lo + (hi - lo) / 2;
        if (ms->m[mid].line <= after_line)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int k = lo; k < ms->func_start[func + 1] && ms->m[k].line < before_line; k++)
        if ((kinds & (1u << ms->m[k].kind)) && strcmp(u->vars[ms->m[k].var].name, name) == 0)
            return true;
    return false;
}

/* A block whose closing brace is at end, searched in b. */
static const ir_block *ck_block_find(const ir_block *b, ir_loc end)
{
    if (!b)
        return NULL;
    if (b->end.line == end.line && b->end.col == end.col)
        return b;
    for (int k = 0; k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        const ir_block *found = NULL;
        if (s->kind == IR_BLOCK)
            found = ck_block_find(s->block, end);
        else if (s->kind == IR_IF && !(found = ck_block_find(s->branch.then_blk, end)))
            found = ck_block_find(s->branch.else_blk, end);
        else if (s->kind == IR_LOOP)
            found = ck_block_find(s->loop.body, end);
        if (found)
            return found;
    }
    return NULL;
}

const ir_block *ck_ir_block_ending(const ck_ctx *cx, int func, int line, int col)
{
    const ir_unit *u = cx->r->unit;
    if (func < 0 || func >= u->n_funcs)
        return NULL;
    return ck_block_find(u->funcs[func]->body, (ir_loc){line, col});
}

bool ck_ir_block_jumps(const ir_block *b)
{
    for (int k = 0; b && k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        switch (s->kind) {
        case IR_RETURN: case IR_BREAK: case IR_CONTINUE: case IR_GOTO: case IR_EXIT:
        case IR_UNSUPPORTED: return true;
        case IR_BLOCK: if (ck_ir_block_jumps(s->block)) return true; break;
        case IR_IF:
            if (ck_ir_block_jumps(s->branch.then_blk) || ck_ir_block_jumps(s->branch.else_blk))
                return true;
            break;
        case IR_LOOP: if (ck_ir_block_jumps(s->loop.body)) return true; break;
        default: break;
        }
    }
    return false;
}

/* Whether b holds, through plain nested blocks only, a statement of kind at loc. */
static bool ck_top_find(const ir_block *b, ir_stmt_kind kind, ir_loc loc)
{
    for (int k = 0; b && k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        if (s->kind == kind && s->loc.line == loc.line && s->loc.col == loc.col)
            return true;
        if (s->kind == IR_BLOCK && ck_top_find(s->block, kind, loc))
            return true;
    }
    return false;
}

bool ck_ir_straight_line(const ck_ctx *cx, int func, ir_stmt_kind kind, int line, int col)
{
    const ir_unit *u = cx->r->unit;
    if (func < 0 || func >= u->n_funcs)
        return false;
    return ck_top_find(u->funcs[func]->body, kind, (ir_loc){line, col});
}

bool ck_ir_is_main(const ck_ctx *cx, int func)
{
    const ir_unit *u = cx->r->unit;
    return func >= 0 && func < u->n_funcs && strcmp(u->funcs[func]->name, "main") == 0;
}

const ir_block *ck_ir_block_of(const ck_ctx *cx, int func, ir_stmt_kind kind, int line, int col)
{
    const ck_stmt_ref *ref = ck_stmt_find(cx, func, kind, line, col);
    return ref ? ref->block : NULL;
}

const ir_block *ck_ir_body(const ck_ctx *cx, int func)
{
    const ir_unit *u = cx->r->unit;
    return func >= 0 && func < u->n_funcs ? u->funcs[func]->body : NULL;
}

int ck_loc_cmp(int line, int col, int line2, int col2)
{
    return line != line2 ? (line < line2 ? -1 : 1) : col != col2 ? (col < col2 ? -1 : 1) : 0;
}

int ck_ir_stmt_at(const ir_block *b, int line, int col)
{
    if (!b || (b->end.line > 0 && ck_loc_cmp(line, col, b->end.line, b->end.col) > 0))
        return -1;
    int lo = 0, hi = b->n_stmts; /* the first statement starting after (line, col) */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ck_loc_cmp(b->stmts[mid]->loc.line, b->stmts[mid]->loc.col, line, col) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

ir_loc ck_ir_stmt_next(const ir_block *b, int k)
{
    if (k + 1 < b->n_stmts)
        return b->stmts[k + 1]->loc;
    return b->end.line > 0 ? b->end : (ir_loc){1 << 30, 0};
}

/* The closing brace that ends compound statement s, or {0, 0}. */
static ir_loc ck_stmt_brace(const ir_stmt *s)
{
    switch (s->kind) {
    case IR_BLOCK: return s->block->end;
    case IR_IF: return s->branch.else_blk ? s->branch.else_blk->end : s->branch.then_blk->end;
    case IR_LOOP: return s->loop.kind == IR_LOOP_DO ? (ir_loc){0, 0} : s->loop.body->end;
    default: return (ir_loc){0, 0};
    }
}

bool ck_ir_stmt_after(const ck_ctx *cx, const ir_block *b, int k, ck_pos *out)
{
    const ir_stmt *s = b->stmts[k];
    if (s->kind == IR_CALL || s->kind == IR_USER_CALL || s->kind == IR_RELEASE ||
        s->kind == IR_ASSIGN_TENSOR || s->kind == IR_ASSIGN_INT || s->kind == IR_EVAL)
        return ck_src_stmt_end(ck_source(cx), (ck_pos){s->loc.line, s->loc.col}, out);
    ir_loc brace = ck_stmt_brace(s);
    int len;
    const char *line = ck_src_line(ck_source(cx), brace.line, &len);
    if (brace.line <= 0 || !line || brace.col < 1 || brace.col > len || line[brace.col - 1] != '}')
        return false;
    *out = (ck_pos){brace.line, brace.col + 1};
    return true;
}

/* Mark the functions b calls, and theirs, in closure (through pointers:
 * the functions the calls reached). */
static void ck_calls_walk(const an_report *r, const ir_block *b, bool *closure)
{
    const ir_unit *u = r->unit;
    for (int k = 0; b && k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k];
        int callees[CK_MAX_CALLEES], n = 0;
        if (s->kind == IR_USER_CALL && s->user_call.fn)
            n = an_report_callees(r, s->loc.line, s->loc.col, callees, CK_MAX_CALLEES);
        else if (s->kind == IR_USER_CALL)
            callees[n++] = s->user_call.callee;
        for (int j = 0; j < n && j < CK_MAX_CALLEES; j++) {
            int callee = callees[j];
            if (callee >= 0 && callee < u->n_funcs && !closure[callee]) {
                closure[callee] = true;
                ck_calls_walk(r, u->funcs[callee]->body, closure);
            }
        }
        if (s->kind == IR_BLOCK)
            ck_calls_walk(r, s->block, closure);
        else if (s->kind == IR_IF) {
            ck_calls_walk(r, s->branch.then_blk, closure);
            ck_calls_walk(r, s->branch.else_blk, closure);
        } else if (s->kind == IR_LOOP) {
            ck_calls_walk(r, s->loop.init, closure);
            ck_calls_walk(r, s->loop.cond_pre, closure);
            ck_calls_walk(r, s->loop.body, closure);
            ck_calls_walk(r, s->loop.step, closure);
        }
    }
}

bool *ck_ir_closure(const ck_ctx *cx, int func)
{
    const ir_unit *u = cx->r->unit;
    bool *closure = tl_xcalloc((size_t)u->n_funcs + 1, sizeof *closure);
    if (func >= 0 && func < u->n_funcs) {
        closure[func] = true;
        ck_calls_walk(cx->r, u->funcs[func]->body, closure);
    }
    return closure;
}

int ck_ir_call_result(const ck_ctx *cx, int func, int line, int col)
{
    const ck_stmt_ref *ref = ck_stmt_find(cx, func, IR_CALL, line, col);
    return ref ? ref->block->stmts[ref->index]->call.result : IR_NO_VAR;
}

bool ck_var_mentioned(const ck_ctx *cx, int var, unsigned kinds)
{
    const ck_ir_index *ms = ck_ir(cx);
    for (int k = 0; var >= 0 && k < ms->n; k++)
        if (ms->m[k].var == var && (kinds & (1u << ms->m[k].kind)))
            return true;
    return false;
}
