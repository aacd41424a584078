/*
 * an_exec.c: statements and blocks, calls of the program's own functions,
 * roots and the report's totals.
 *
 * Branches are an_branch.c's (their saved states an_snap.c's), loops
 * an_loop.c's, statements on memory an_store.c's.
 */
#include "an_internal.h"
#include "deep.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static an_flow exec_stmt(an_ctx *cx, const ir_stmt *s);

/* The tensor variables declared in b go out of scope: a handle only they
 * held is lost (main's body excepted: its end is the program's end). */
static void scope_exit(an_ctx *cx, const ir_block *b, bool program_end)
{
    an_frame *f = an_top(cx);
    for (int k = 0; k < b->n_decls; k++) {
        int var = b->decls[k], h = f->tensor[cx->vars.slot[var]];
        f->tensor[cx->vars.slot[var]] = AN_UNSET;
        if (!program_end)
            an_handle_dropped(cx, h, var, b->end.line, b->end.col, "out of scope");
    }
}

/* The index of label id among b's own statements, or -1. */
static int find_label(const ir_block *b, int id)
{
    for (int k = 0; k < b->n_stmts; k++)
        if (b->stmts[k]->kind == IR_LABEL && b->stmts[k]->label.id == id)
            return k;
    return -1;
}

/* A goto whose label is in this block continues after the label; one whose
 * label is elsewhere leaves the block, as a break would, until an
 * enclosing block has it. */
static an_flow exec_block_scoped(an_ctx *cx, const ir_block *b, bool program_end)
{
    an_flow fl = AN_FLOW_NEXT;
    if (!b)
        return fl;
    for (int k = 0; k < b->n_stmts; k++) {
        fl = exec_stmt(cx, b->stmts[k]);
        if (fl == AN_FLOW_GOTO) {
            int at = find_label(b, cx->ctl.goto_label);
            if (at < 0)
                break;
            if (++cx->ctl.n_gotos > cx->opt.max_iterations) {
                an_stop_at(cx, b->stmts[at]->loc.line, b->stmts[at]->loc.col,
                           tl_xasprintf("stopped after %lld jumps (--max-iterations); later "
                                        "totals are bounds", (long long)cx->opt.max_iterations));
                return AN_FLOW_STOP;
            }
            fl = AN_FLOW_NEXT;
            k = at;
            continue;
        }
        if (fl != AN_FLOW_NEXT)
            break;
    }
    if (fl != AN_FLOW_STOP) { /* at exit() nothing goes out of scope: the program ends */
        an_settle_peaks(cx); /* the peak's names: the block's variables still hold theirs */
        scope_exit(cx, b, program_end || fl == AN_FLOW_EXIT);
    }
    return fl;
}

an_flow an_exec_block(an_ctx *cx, const ir_block *b) { return exec_block_scoped(cx, b, false); }

/* ---- calls of the file's own functions ---- */

static bool on_stack(const an_ctx *cx, int func)
{
    for (int k = 0; k < cx->ctl.depth; k++)
        if (cx->ctl.stack[k]->func == func)
            return true;
    return false;
}

static void bind_params(an_ctx *cx, const ir_stmt *s, int func, an_frame *callee)
{
    const ir_func *fn = cx->u->funcs[func];
    cx->ctl.pending = callee; /* its parameters are locations before it runs */
    for (int k = 0; k < fn->n_params && k < s->user_call.n_args; k++) {
        int p = fn->params[k], slot = cx->vars.slot[p];
        const ir_uarg *a = &s->user_call.args[k];
        an_loc to = {.frame = callee->serial, .var = p};
        an_loc from;
        an_cell c;
        if (cx->u->vars[p].kind == IR_VAR_TENSOR)
            callee->tensor[slot] = a->kind == IR_VAR_TENSOR ? an_tensor_of(cx, a->var) : AN_UNKNOWN;
        else if (cx->u->vars[p].kind == IR_VAR_INT && a->expr)
            an_assign_int(cx, a->expr, cx->u->vars[p].name, &callee->int_known[slot],
                          &callee->ints[slot]);
        else if (a->ptr) {
            an_ptr_eval(cx, a->ptr, &c);
            an_mem_write(cx, &to, &c);
        } else if (a->place && an_place_loc(cx, a->place, &from, NULL, NULL)) {
            an_mem_copy(cx, &to, &from, s->loc.line, s->loc.col);
        } else if (cx->u->vars[p].kind == IR_VAR_OTHER) {
            an_mem_write(cx, &to, &(an_cell){.kind = AN_CELL_UNKNOWN});
        }
    }
    cx->ctl.pending = NULL;
}

/* A pointer or struct result of a call the analysis does not follow. */
static void unknown_object_result(an_ctx *cx, int result)
{
    an_loc l = an_loc_of_var(cx, result);
    an_mem_write(cx, &l, &(an_cell){.kind = AN_CELL_UNKNOWN});
}

/* A call the analysis does not follow: a function not defined in this
 * file (said once, as external-call), or one it stops at (recursion: the
 * caller has said why).  What it returns is not known. */
static void external_call(an_ctx *cx, const ir_stmt *s, const char *name, bool defined)
{
    int result = s->user_call.result;
    for (int k = 0; k < s->user_call.n_args && !defined; k++) {
        if (s->user_call.args[k].kind != IR_VAR_TENSOR)
            continue;
        an_diag_add(cx, AN_NOTE, "external-call", s->loc.line, s->loc.col,
                    "'%s' is not defined in this file: assumed not to release or keep the "
                    "tensors passed to it", name);
        break;
    }
    if (result < 0)
        return;
    if (cx->u->vars[result].kind == IR_VAR_TENSOR) {
        *an_tensor_slot(cx, result) = AN_UNKNOWN;
        if (!defined)
            an_diag_add(cx, AN_NOTE, "external-call", s->loc.line, s->loc.col,
                        "the tensor returned by '%s' is not followed: totals that depend on it "
                        "are bounds", name);
        an_mark_bound(cx);
    } else if (cx->u->vars[result].kind == IR_VAR_INT) {
        bool *known;
        an_int_slot(cx, result, &known);
        *known = false;
    } else {
        unknown_object_result(cx, result);
    }
}

static void take_result(an_ctx *cx, const ir_stmt *s, an_frame *f)
{
    int result = s->user_call.result;
    an_loc ret = {.frame = AN_RET};
    if (result >= 0 && cx->u->vars[result].kind == IR_VAR_TENSOR) {
        int *slot = an_tensor_slot(cx, result);
        int old = *slot;
        *slot = f->ret_handle;
        an_handle_dropped(cx, old, result, s->loc.line, s->loc.col, "overwritten");
    } else if (result >= 0 && cx->u->vars[result].kind == IR_VAR_INT) {
        bool *known;
        int64_t *v = an_int_slot(cx, result, &known);
        *known = f->ret_int_known;
        *v = f->ret_int;
    } else if (result >= 0) {
        an_loc l = an_loc_of_var(cx, result);
        if (f->has_ret_ptr)
            an_mem_write(cx, &l, &f->ret_ptr);
        else if (f->has_ret_obj)
            an_mem_copy(cx, &l, &ret, s->loc.line, s->loc.col);
        else
            unknown_object_result(cx, result);
    } else {
        an_handle_dropped(cx, f->ret_handle, -1, s->loc.line, s->loc.col, "result discarded");
    }
    if (f->has_ret_obj)
        an_mem_fill(cx, &ret, true, s->loc.line, s->loc.col);
}

/* Record that the call through a pointer s reached callee (once per pair). */
static void indirect_add(an_ctx *cx, const ir_stmt *s, int callee, const char *name)
{
    an_report *r = cx->r;
    int func = an_top(cx)->func;
    for (int k = 0; k < r->n_indirect; k++) {
        const an_indirect *x = &r->indirect[k];
        if (x->line == s->loc.line && x->col == s->loc.col && x->func == func &&
            x->callee == callee && (callee != AN_CALLEE_EXTERNAL || strcmp(x->name, name) == 0))
            return;
    }
    r->indirect = tl_xrealloc(r->indirect, sizeof *r->indirect * (size_t)(r->n_indirect + 1));
    r->indirect[r->n_indirect++] = (an_indirect){.line = s->loc.line, .col = s->loc.col,
                                                 .func = func, .callee = callee, .name = name,
                                                 .through = s->user_call.name};
}

/* The function the pointer of call s names now: *callee is its index in
 * unit->funcs, or -1 with *name for one not defined in the file.  False,
 * with *why, when the analysis cannot tell which function it is. */
static bool resolve_callee(an_ctx *cx, const ir_stmt *s, int *callee, const char **name,
                           const char **why)
{
    an_cell c;
    const ir_ptr *fn = s->user_call.fn;
    if (!an_ptr_eval(cx, fn, &c) || !c.known) {
        *why = fn->kind == IR_PTR_UNKNOWN && fn->reason ? fn->reason
               : "which function it points to is not known here";
        return false;
    }
    if (c.ptr < 0) {
        *why = "it is null here";
        return false;
    }
    an_loc l = cx->mem.ptrs[c.ptr];
    if (l.frame != AN_FUNC || l.n != 0) {
        *why = "it points to no function the analysis knows";
        return false;
    }
    *callee = l.var >= 0 ? l.var : -1;
    *name = l.var >= 0 ? cx->u->funcs[l.var]->name : cx->u->ext_funcs[-1 - l.var];
    return true;
}

/* Could a call through a pointer the analysis cannot resolve change the
 * totals?  When it passes or returns a handle, or some function whose
 * address is taken has tensor code. */
static bool unresolved_matters(an_ctx *cx, const ir_stmt *s)
{
    const ir_unit *u = cx->u;
    int result = s->user_call.result;
    if (result >= 0 && u->vars[result].kind == IR_VAR_TENSOR)
        return true;
    for (int k = 0; k < s->user_call.n_args; k++)
        if (s->user_call.args[k].kind == IR_VAR_TENSOR)
            return true;
    for (int f = 0; f < u->n_funcs; f++)
        if (u->funcs[f]->address_taken && u->funcs[f]->has_tensor_code)
            return true;
    return false;
}

/* A call through a pointer the analysis cannot resolve: the handles passed
 * escape, what the callee may write through the pointers it gets is not
 * known, and neither is what it returns. */
static void unresolved_call(an_ctx *cx, const ir_stmt *s, const char *why)
{
    int result = s->user_call.result;
    bool tensor_args = false;
    for (int k = 0; k < s->user_call.n_args; k++) {
        const ir_uarg *a = &s->user_call.args[k];
        if (a->kind != IR_VAR_TENSOR)
            continue;
        tensor_args = true;
        if (a->var >= 0 && cx->u->vars[a->var].kind == IR_VAR_TENSOR)
            *an_tensor_slot(cx, a->var) = AN_UNKNOWN;
    }
    bool tensor_result = result >= 0 && cx->u->vars[result].kind == IR_VAR_TENSOR;
    if (unresolved_matters(cx, s)) {
        an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                    "not analysed: the call through '%s' (%s)%s%s; the analysis goes on, and "
                    "totals that depend on it are bounds",
                    s->user_call.name, why,
                    tensor_args ? "; the tensors passed to it are not followed" : "",
                    tensor_result ? "; the tensor it returns is not known" : "");
        an_mark_bound(cx);
    }
    indirect_add(cx, s, AN_CALLEE_UNKNOWN, NULL);
    if (s->user_call.ext)
        an_exec_block(cx, s->user_call.ext);
    if (result < 0)
        return;
    if (tensor_result) {
        *an_tensor_slot(cx, result) = AN_UNKNOWN;
    } else if (cx->u->vars[result].kind == IR_VAR_INT) {
        bool *known;
        an_int_slot(cx, result, &known);
        *known = false;
    } else {
        unknown_object_result(cx, result);
    }
}

static an_flow exec_user_call(an_ctx *cx, const ir_stmt *s)
{
    int callee = s->user_call.callee;
    const char *name = s->user_call.name, *why;
    if (s->user_call.fn) { /* through a pointer: the function it names now */
        if (!resolve_callee(cx, s, &callee, &name, &why)) {
            unresolved_call(cx, s, why);
            return AN_FLOW_NEXT;
        }
        indirect_add(cx, s, callee >= 0 ? callee : AN_CALLEE_EXTERNAL, name);
    }
    if (callee < 0) {
        external_call(cx, s, name, false);
        if (s->user_call.fn && s->user_call.ext)
            an_exec_block(cx, s->user_call.ext);
        return AN_FLOW_NEXT;
    }
    int max_depth = cx->opt.max_depth < AN_MAX_DEPTH ? cx->opt.max_depth : AN_MAX_DEPTH;
    if (on_stack(cx, callee) || cx->ctl.depth >= max_depth) {
        an_diag_add(cx, AN_NOTE, "recursion", s->loc.line, s->loc.col,
                    on_stack(cx, callee)
                        ? "call of '%s' not followed: it is recursive (the analysis follows each "
                          "function once on the call stack); totals are bounds"
                        : "call of '%s' not followed: calls nest deeper than %d; totals are bounds",
                    name, max_depth);
        an_mark_bound(cx);
        external_call(cx, s, name, true);
        return AN_FLOW_NEXT;
    }
    an_frame *f = an_frame_new(cx, callee);
    bind_params(cx, s, callee, f);
    an_flow fl = an_run_function(cx, callee, f);
    if (fl == AN_FLOW_EXIT) { /* the program ended in it: the call does not come back */
        an_frame_free(f);
        cx->ctl.leave = (an_leave){.line = s->loc.line, .callee = cx->u->funcs[callee]->name};
        return cx->ctl.stopped ? AN_FLOW_STOP : AN_FLOW_EXIT;
    }
    take_result(cx, s, f);
    an_frame_free(f);
    return cx->ctl.stopped ? AN_FLOW_STOP : AN_FLOW_NEXT;
}

static an_flow exec_return(an_ctx *cx, const ir_stmt *s)
{
    an_frame *f = an_top(cx);
    an_loc from, ret = {.frame = AN_RET};
    if (s->ret.var != IR_NO_VAR)
        f->ret_handle = an_tensor_of(cx, s->ret.var);
    if (s->ret.value)
        an_assign_int(cx, s->ret.value, NULL, &f->ret_int_known, &f->ret_int);
    if (s->ret.ptr) {
        f->has_ret_ptr = true;
        an_ptr_eval(cx, s->ret.ptr, &f->ret_ptr);
    }
    if (s->ret.place && an_place_loc(cx, s->ret.place, &from, NULL, NULL)) {
        f->has_ret_obj = true;
        an_mem_copy(cx, &ret, &from, s->loc.line, s->loc.col);
    }
    cx->ctl.leave = (an_leave){.line = s->loc.line, .text = s->text ? s->text : "return"};
    return AN_FLOW_RETURN;
}

static void exec_assign_int(an_ctx *cx, const ir_stmt *s)
{
    int v = s->assign_int.var;
    bool *known;
    if (v < 0)
        return;
    int64_t *slot = an_int_slot(cx, v, &known);
    an_assign_int(cx, s->assign_int.value, cx->u->vars[v].name, known, slot);
    unsigned bits = cx->u->vars[v].wrap_bits;
    if (*known && bits > 0 && bits < 64) /* C's unsigned arithmetic: modulo 2^bits */
        *slot = (int64_t)((uint64_t)*slot & ((UINT64_C(1) << bits) - 1));
}

static void exec_eval(an_ctx *cx, const ir_stmt *s)
{
    int64_t ignored;
    const ir_expr *e = s->eval.expr;
    if (e && (e->kind == IR_EXPR_QUERY) && e->var >= 0) {
        int h = an_tensor_of(cx, e->var);
        if (h >= 0 && cx->tens.handles[h].released)
            an_diag_add(cx, AN_ERROR, "use-after-release", s->loc.line, s->loc.col,
                        "%s uses '%s' after it was released", ir_query_name(e->query),
                        cx->u->vars[e->var].name);
    }
    an_eval(cx, e, &ignored);
}

static void exec_assign_tensor(an_ctx *cx, const ir_stmt *s)
{
    int dst = s->assign_tensor.dst;
    int h = an_tensor_of(cx, s->assign_tensor.src);
    int *slot = an_tensor_slot(cx, dst), old = *slot;
    *slot = h;
    an_handle_dropped(cx, old, dst, s->loc.line, s->loc.col, "overwritten");
}

static void exec_unsupported(an_ctx *cx, const ir_stmt *s)
{
    an_diag_add(cx, AN_NOTE, "unsupported", s->loc.line, s->loc.col,
                "not analysed: %s; the analysis goes on, and totals that depend on it are "
                "bounds", s->unsup.message);
    an_mark_bound(cx);
    if (s->unsup.var >= 0 && cx->u->vars[s->unsup.var].kind == IR_VAR_TENSOR)
        *an_tensor_slot(cx, s->unsup.var) = AN_UNKNOWN;
}

/* Before any statement: false (AN_FLOW_STOP) once the analysis stopped. */
bool an_stmt_begin(an_ctx *cx, const ir_stmt *s)
{
    if (cx->ctl.stopped)
        return false;
    char *why = NULL;
    if (cx->acct.n_calls >= cx->opt.max_calls)
        why = tl_xasprintf("analysis stopped after %lld API calls (--max-calls); later totals "
                           "are lower bounds", (long long)cx->opt.max_calls);
    else if (++cx->acct.n_steps > cx->opt.max_steps)
        why = tl_xasprintf("analysis stopped after %lld statements (--max-steps); later "
                           "totals are lower bounds", (long long)cx->opt.max_steps);
    else if (tl_stack_low()) /* statements nested deeper than the stack holds */
        why = tl_xstrdup("analysis stopped: statements nested deeper than the analysis "
                         "follows; later totals are lower bounds");
    if (why) {
        an_stop_at(cx, s->loc.line, s->loc.col, why);
        return false;
    }
    an_top(cx)->line = s->loc.line;
    an_top(cx)->col = s->loc.col;
    return true;
}

static an_flow exec_stmt(an_ctx *cx, const ir_stmt *s)
{
    if (!an_stmt_begin(cx, s))
        return AN_FLOW_STOP;
    switch (s->kind) {
    case IR_CALL: an_exec_call(cx, s); break;
    case IR_RELEASE: an_exec_release(cx, s); break;
    case IR_ASSIGN_INT: exec_assign_int(cx, s); break;
    case IR_ASSIGN_TENSOR: exec_assign_tensor(cx, s); break;
    case IR_BLOCK: return an_exec_block(cx, s->block);
    case IR_IF: return an_exec_if(cx, s);
    case IR_LOOP: return an_exec_loop(cx, s);
    case IR_BREAK: return AN_FLOW_BREAK;
    case IR_CONTINUE: return AN_FLOW_CONTINUE;
    case IR_USER_CALL: return exec_user_call(cx, s);
    case IR_RETURN: return exec_return(cx, s);
    case IR_EVAL: exec_eval(cx, s); break;
    case IR_LOAD: an_exec_load(cx, s); break;
    case IR_STORE: an_exec_store(cx, s); break;
    case IR_COPY: an_exec_copy(cx, s); break;
    case IR_FILL: an_exec_fill(cx, s); break;
    case IR_LABEL: break;
    case IR_GOTO:
        cx->ctl.goto_label = s->label.id;
        cx->ctl.leave = (an_leave){.line = s->loc.line, .text = s->text ? s->text : "goto"};
        return AN_FLOW_GOTO;
    case IR_EXIT:
        cx->ctl.leave = (an_leave){.line = s->loc.line, .text = s->text ? s->text : "exit"};
        return AN_FLOW_EXIT;
    case IR_UNSUPPORTED: exec_unsupported(cx, s); break;
    default: break;
    }
    return AN_FLOW_NEXT;
}

/* Before a root runs: C's zero initialization and the initializers of the
 * variables of static storage.  A root other than main may be called after
 * anything has changed them: there, only const ones keep their values. */
static void init_globals(an_ctx *cx, bool is_main)
{
    const ir_unit *u = cx->u;
    for (int g = 0; g < cx->vars.n_globals; g++) {
        an_loc l = {.frame = 0, .var = cx->vars.global_vars[g]};
        an_mem_write(cx, &l, &(an_cell){.kind = AN_CELL_ZERO});
    }
    an_exec_block(cx, u->globals_init);
    for (int g = 0; g < cx->vars.n_globals && !is_main; g++) {
        int v = cx->vars.global_vars[g];
        if (!u->vars[v].is_const && !u->vars[v].is_temp) {
            an_loc l = {.frame = 0, .var = v};
            an_mem_fill(cx, &l, false, 0, 0);
        }
    }
}

an_flow an_run_function(an_ctx *cx, int func, an_frame *f)
{
    an_func_report *fr = an_func_report_of(cx, func);
    bool upper_loop = cx->ctl.upper_loop, upper_func = cx->ctl.upper_func;
    cx->ctl.stack[cx->ctl.depth++] = f;
    f->line = cx->u->funcs[func]->loc.line;
    if (fr)
        fr->executed = true;
    an_account_live(cx); /* what is live on entry counts toward the callee's peak */
    bool program_end = cx->ctl.depth == 1 && strcmp(cx->u->funcs[func]->name, "main") == 0;
    if (cx->ctl.depth == 1)
        init_globals(cx, program_end);
    an_flow fl = exec_block_scoped(cx, cx->u->funcs[func]->body, program_end);
    if (fl == AN_FLOW_GOTO) {
        const ir_func *fn = cx->u->funcs[func];
        an_diag_add(cx, AN_NOTE, "unsupported", fn->loc.line, fn->loc.col,
                    "not followed: a goto into a nested block in '%s'; the analysis of the "
                    "function stops there, and its totals are bounds", fn->name);
        an_mark_bound(cx);
    }
    an_ret_settle(cx, f, fl); /* the returns taken on the way join the end */
    an_settle_peaks(cx); /* the peak's names: the frame's variables still hold theirs */
    an_mem_frame_exit(cx, f, program_end || fl == AN_FLOW_EXIT);
    if (fr && !cx->acct.fs[func].done_first) {
        cx->acct.fs[func].done_first = true;
        fr->end_live_bytes = cx->acct.live;
        fr->end_sx = cx->acct.live_sx;
    }
    an_settle_peaks(cx);
    cx->ctl.depth--;
    cx->ctl.upper_loop = upper_loop; /* an early exit inside it ends here */
    cx->ctl.upper_func = upper_func;
    return fl == AN_FLOW_EXIT ? AN_FLOW_EXIT : AN_FLOW_NEXT;
}
