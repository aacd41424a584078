/*
 * fe_lower.c: statements and function bodies.
 *
 * Each C statement becomes IR statements pushed into fx->cur, in source
 * order.  A compound statement is a block that lists the tensor variables
 * it declares (they go out of scope at its closing brace); the arms of an
 * if, a loop body and a case body are blocks too.  A switch whose cases
 * never fall through becomes a chain of ifs (`case 1: case 2:` labels on
 * one body are fine); one that falls through, or breaks out of the middle
 * of a case, is UNSUPPORTED.  A label is a LABEL statement where it stands
 * and goto a GOTO to it (the interpreter finds the label in an enclosing
 * block); a computed goto is UNSUPPORTED.
 *
 * libclang omits the missing clauses of `for (;;)` from the children, so
 * the clauses present are told apart by their position against the two
 * semicolons of the header, read from the source.
 */
#include "fe_internal.h"

#include <stdlib.h>
#include <string.h>

static void fe_lower_var_decl(fe_ctx *fx, CXCursor d);
static void fe_lower_stmt_in(fe_ctx *fx, CXCursor c);

/* A compound statement's children.  A declaration statement is entered in
 * the same walk (its declarations come next, with it as parent) rather than
 * by a clang_visitChildren of its own, which would set up a new walk for
 * every declaration statement. */
static enum CXChildVisitResult fe_stmt_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    fe_ctx *fx = data;
    if (clang_getCursorKind(parent) == CXCursor_DeclStmt) {
        if (clang_getCursorKind(c) == CXCursor_VarDecl) {
            fx->u->cur_stmt = ++fx->stmt_serial; /* each declarator is a full expression */
            fe_lower_var_decl(data, c);
        }
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_DeclStmt)
        return CXChildVisit_Recurse;
    fe_lower_stmt(data, c);
    return CXChildVisit_Continue;
}

/* The location of a compound statement's closing brace. */
static ir_loc fe_end_loc(fe_ctx *fx, CXCursor c)
{
    ir_loc loc = fe_loc_at(fx, clang_getRangeEnd(clang_getCursorExtent(c)));
    if (loc.col > 1)
        loc.col--;
    return loc;
}

/* Lower c into block b: a compound's statements go directly into b. */
static void fe_lower_body(fe_ctx *fx, ir_block *b, CXCursor c)
{
    ir_block *saved = fx->cur;
    fx->cur = b;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
        clang_visitChildren(c, fe_stmt_visit, fx);
        b->end = fe_end_loc(fx, c);
    } else {
        fe_lower_stmt(fx, c);
    }
    fx->cur = saved;
}

static ir_block *fe_body_block(fe_ctx *fx, CXCursor c)
{
    ir_block *b = ir_block_new(fx->u);
    fe_lower_body(fx, b, c);
    return b;
}

/* ---- declarations ---- */

static void fe_lower_var_decl(fe_ctx *fx, CXCursor d)
{
    int var = fe_var_of_decl(fx, d);
    const ir_var *v = &fx->u->vars[var];
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (v->is_global) /* a static local: initialized once, before any call */
        return;
    if (v->kind == IR_VAR_TENSOR) {
        fx->tensor_code = true;
        ir_block_declare(fx->u, fx->cur, var);
        if (!clang_Cursor_isNull(init))
            fe_lower_tensor(fx, init, var);
        return;
    }
    if (clang_Cursor_isNull(init))
        return;
    if (v->kind == IR_VAR_INT) {
        ir_stmt *s = ir_stmt_new(fx->u, IR_ASSIGN_INT, fe_loc(fx, d));
        s->assign_int.var = var;
        s->assign_int.value = fe_lower_int(fx, init);
        fe_push(fx, s);
        return;
    }
    if (fe_type_is_ints(clang_getCursorType(d)))
        fe_ints_set(fx, var, init);
    else
        fe_init_place(fx, fe_place_of_var(fx, var), clang_getCursorType(d), init);
}

static enum CXChildVisitResult fe_decl_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_VarDecl)
        fe_lower_var_decl(data, c);
    return CXChildVisit_Continue;
}

/* ---- if, loops ---- */

/* One if: its condition's effects and the IF go into fx->cur; returns the
 * else arm's statement (null cursor when none), not lowered. */
static CXCursor fe_lower_if_arm(fe_ctx *fx, CXCursor c, ir_stmt **made)
{
    CXCursor kids[3];
    int n = fe_children(c, kids, 3);
    *made = NULL;
    if (n < 2 || n > 3) {
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "malformed if");
        return clang_getNullCursor();
    }
    ir_stmt *s = ir_stmt_new(fx->u, IR_IF, fe_loc(fx, c));
    s->branch.cond = fe_lower_int(fx, kids[0]);
    s->text = fe_source_text(fx, kids[0]);
    s->branch.then_blk = fe_body_block(fx, kids[1]);
    fe_push(fx, s);
    *made = s;
    return n == 3 ? kids[2] : clang_getNullCursor();
}

/* c, as an operand of ||: parenthesised when it has an operator that binds
 * less tightly (||, ?:, an assignment). */
static const char *fe_or_operand(fe_ctx *fx, const char *c)
{
    bool loose = strstr(c, "||") || strchr(c, '?');
    for (const char *p = strchr(c, '='); p && !loose; p = strchr(p + 1, '='))
        loose = p[1] != '=' && (p == c || !strchr("=!<>", p[-1]));
    return loose ? ir_strfmt(fx->u, "(%s)", c) : c;
}

/* The text of a chain's conditions or-ed ("a == 1 || a == 2"), built in one
 * growing buffer: a chain of n arms costs its length, not n copies of it. */
typedef struct fe_chain {
    char *buf;
    size_t len, cap;
    bool textless; /* a part has no text: the chain's is "" */
} fe_chain;

/* One more condition or-ed in; a case's text (its labels' equalities or-ed)
 * is its own operand (sw). */
static void fe_chain_or(fe_ctx *fx, fe_chain *ch, const char *c, bool sw)
{
    if (!c)
        ch->textless = true;
    if (ch->textless)
        return;
    c = sw ? c : fe_or_operand(fx, c);
    size_t n = strlen(c), need = ch->len + n + 5;
    if (need > ch->cap) {
        ch->cap = need > 2 * ch->cap ? need : 2 * ch->cap;
        ch->buf = tl_xrealloc(ch->buf, ch->cap);
    }
    if (ch->len) {
        memcpy(ch->buf + ch->len, " || ", 4);
        ch->len += 4;
    }
    memcpy(ch->buf + ch->len, c, n + 1);
    ch->len += n;
}

/* The chain's text, kept by the unit ("" when a part had none); the buffer goes. */
static const char *fe_chain_text(fe_ctx *fx, fe_chain *ch)
{
    const char *t = ch->textless ? "" : ir_strdup(fx->u, ch->buf ? ch->buf : "");
    free(ch->buf);
    *ch = (fe_chain){0};
    return t;
}

/* if / else if / ... / else: the chain is walked in a loop, each `else if`
 * lowered into the else block of the if before it (as fe_lower_stmt would,
 * with its own statement number), so an else-if chain of any length takes
 * no stack. */
static void fe_lower_if(fe_ctx *fx, CXCursor c)
{
    ir_block *outer = fx->cur;
    int parent = fx->u->cur_stmt;
    ir_stmt *s;
    CXCursor next = fe_lower_if_arm(fx, c, &s);
    fe_chain chain = {0};
    if (s)
        fe_chain_or(fx, &chain, s->text, false);
    bool is_chain = false;
    while (s && !clang_Cursor_isNull(next) && clang_getCursorKind(next) == CXCursor_IfStmt) {
        s->branch.else_blk = ir_block_new(fx->u);
        fx->cur = s->branch.else_blk;
        fx->u->cur_stmt = ++fx->stmt_serial;
        next = fe_lower_if_arm(fx, next, &s);
        if (s)
            fe_chain_or(fx, &chain, s->text, false);
        is_chain = true;
    }
    if (s && !clang_Cursor_isNull(next)) {
        s->branch.else_blk = fe_body_block(fx, next);
        /* a run not taking the final else took one of the arms: the run that
         * reaches the last if has every earlier condition false, so its own
         * condition alone is not what a run meant to go on meets */
        if (is_chain)
            s->branch.else_text = fe_chain_text(fx, &chain);
    }
    free(chain.buf);
    fx->cur = outer;
    fx->u->cur_stmt = parent;
}

/* The loop condition c, its hoisted statements in loop.cond_pre. */
static void fe_loop_cond(fe_ctx *fx, ir_stmt *s, CXCursor c)
{
    ir_block *saved = fx->cur;
    fx->cur = s->loop.cond_pre;
    s->loop.cond = fe_lower_int(fx, c);
    fx->cur = saved;
}

static ir_stmt *fe_loop_new(fe_ctx *fx, CXCursor c, ir_loop_kind kind)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_LOOP, fe_loc(fx, c));
    s->loop.kind = kind;
    s->loop.init = ir_block_new(fx->u);
    s->loop.cond_pre = ir_block_new(fx->u);
    s->loop.step = ir_block_new(fx->u);
    return s;
}

static void fe_lower_while(fe_ctx *fx, CXCursor c, bool is_do)
{
    CXCursor kids[2];
    if (fe_children(c, kids, 2) != 2) {
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "malformed loop");
        return;
    }
    ir_stmt *s = fe_loop_new(fx, c, is_do ? IR_LOOP_DO : IR_LOOP_WHILE);
    CXCursor cond = kids[is_do ? 1 : 0], body = kids[is_do ? 0 : 1];
    if (!is_do)
        fe_loop_cond(fx, s, cond);
    s->loop.body = fe_body_block(fx, body);
    if (is_do)
        fe_loop_cond(fx, s, cond);
    fe_push(fx, s);
}

/* Offsets of the two semicolons of a for header starting at `from`. */
static bool fe_for_semicolons(fe_ctx *fx, long from, long *semi)
{
    if (from < 0)
        return false;
    int depth = 0, found = 0;
    for (size_t i = (size_t)from; i < fx->src_len && found < 2; i++) {
        char ch = fx->src[i];
        if (ch == '(') {
            depth++;
        } else if (ch == ')') {
            if (--depth <= 0)
                return false;
        } else if (ch == '/' && i + 1 < fx->src_len && (fx->src[i + 1] == '*' || fx->src[i + 1] == '/')) {
            const char *end = fx->src[i + 1] == '*' ? strstr(fx->src + i + 2, "*/") : strchr(fx->src + i, '\n');
            if (!end)
                return false;
            i = (size_t)(end - fx->src);
        } else if (ch == '"' || ch == '\'') {
            for (i++; i < fx->src_len && fx->src[i] != ch; i++)
                if (fx->src[i] == '\\')
                    i++;
        } else if (ch == ';' && depth == 1) {
            semi[found++] = (long)i;
        }
    }
    return found == 2;
}

static void fe_lower_for(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[4], clause[3] = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
    int n = fe_children(c, kids, 4);
    long semi[2];
    if (n < 1 || n > 4) {
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "malformed for");
        return;
    }
    if (n == 4) {
        memcpy(clause, kids, sizeof clause);
    } else if (n > 1) {
        if (!fe_for_semicolons(fx, fe_offset(fx, clang_getRangeStart(clang_getCursorExtent(c))), semi)) {
            fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "for loop with omitted clauses inside a macro");
            return;
        }
        for (int i = 0; i < n - 1; i++) {
            long at = fe_offset(fx, clang_getRangeStart(clang_getCursorExtent(kids[i])));
            clause[at < semi[0] ? 0 : at < semi[1] ? 1 : 2] = kids[i];
        }
    }
    ir_stmt *s = fe_loop_new(fx, c, IR_LOOP_FOR);
    if (!clang_Cursor_isNull(clause[0]))
        fe_lower_body(fx, s->loop.init, clause[0]);
    if (!clang_Cursor_isNull(clause[1]))
        fe_loop_cond(fx, s, clause[1]);
    if (!clang_Cursor_isNull(clause[2])) {
        ir_block *saved = fx->cur;
        fx->cur = s->loop.step;
        fe_lower_effects(fx, clause[2]);
        fx->cur = saved;
    }
    s->loop.body = fe_body_block(fx, kids[n - 1]);
    fe_push(fx, s);
}

/* ---- switch ---- */

typedef struct fe_case_group {
    CXCursor labels[16];  /* case value expressions; null cursor: default */
    int n_labels;
    bool is_default;
    CXCursor *stmts;      /* statements of the body, in order */
    int n_stmts, cap;
} fe_case_group;

typedef struct fe_switch {
    fe_ctx *fx;
    fe_case_group *groups;
    int n_groups, cap_groups;
    const char *problem; /* why it cannot be lowered, or NULL */
} fe_switch;

static void fe_group_push(fe_switch *sw, CXCursor stmt)
{
    if (!sw->n_groups)
        return; /* before the first label: unreachable */
    fe_case_group *g = &sw->groups[sw->n_groups - 1];
    tl_xgrow(g->stmts, &g->cap, (size_t)g->n_stmts + 1, 8);
    g->stmts[g->n_stmts++] = stmt;
}

/* A label starts a group, or joins the current one when that has no statements. */
static void fe_group_label(fe_switch *sw, CXCursor label)
{
    fe_case_group *g = sw->n_groups ? &sw->groups[sw->n_groups - 1] : NULL;
    if (!g || g->n_stmts) {
        tl_xgrow(sw->groups, &sw->cap_groups, (size_t)sw->n_groups + 1, 8);
        g = &sw->groups[sw->n_groups++];
        memset(g, 0, sizeof *g);
    }
    if (clang_getCursorKind(label) == CXCursor_DefaultStmt) {
        g->is_default = true;
        return;
    }
    CXCursor kids[3];
    if (fe_children(label, kids, 3) != 2) {
        sw->problem = "case range";
        return;
    }
    if (g->n_labels == 16) {
        sw->problem = "more than 16 case labels on one statement";
        return;
    }
    g->labels[g->n_labels++] = kids[0];
}

static enum CXChildVisitResult fe_switch_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fe_switch *sw = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    while (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
        fe_group_label(sw, c);
        CXCursor kids[3];
        int n = fe_children(c, kids, 3);
        if (n < 1 || n > 3)
            return CXChildVisit_Continue;
        c = kids[n - 1];
        k = clang_getCursorKind(c);
    }
    fe_group_push(sw, c);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult fe_last_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    *(CXCursor *)data = c;
    return CXChildVisit_Continue;
}

/* Does a statement end by leaving the switch (break, return, continue, goto,
 * a call that does not return such as exit(1))? */
static bool fe_ends_case(CXCursor c)
{
    CXCursor last = clang_getNullCursor();
    switch (clang_getCursorKind(c)) {
    case CXCursor_BreakStmt:
    case CXCursor_ReturnStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_GotoStmt: return true;
    case CXCursor_CompoundStmt:
        clang_visitChildren(c, fe_last_visit, &last);
        return !clang_Cursor_isNull(last) && fe_ends_case(last);
    default: return fe_call_noreturn(c);
    }
}

static enum CXChildVisitResult fe_break_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BreakStmt) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
        k == CXCursor_SwitchStmt || clang_isExpression(k) || clang_isDeclaration(k))
        return CXChildVisit_Continue;
    return CXChildVisit_Recurse;
}

/* The statements of compound c, in a malloc'd array (*out); their number. */
static int fe_compound_stmts(CXCursor c, CXCursor **out)
{
    int n = fe_children(c, NULL, 0);
    *out = tl_xmalloc((size_t)n * sizeof **out);
    return fe_children(c, *out, n);
}

/* Does s break out of the switch other than by its final break (is_last)? */
static bool fe_breaks_early(CXCursor s, bool is_last)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    bool found = false;
    if (k == CXCursor_BreakStmt)
        return !is_last;
    if (k != CXCursor_CompoundStmt) {
        clang_visitChildren(s, fe_break_visit, &found);
        return found;
    }
    CXCursor *kids;
    int n = fe_compound_stmts(s, &kids);
    for (int i = 0; i < n && !found; i++)
        found = fe_breaks_early(kids[i], is_last && i == n - 1);
    free(kids);
    return found;
}

static bool fe_group_breaks_early(const fe_case_group *g)
{
    for (int i = 0; i < g->n_stmts; i++)
        if (fe_breaks_early(g->stmts[i], i == g->n_stmts - 1))
            return true;
    return false;
}

/* Lower s, a statement of a case; a final break (is_last) is dropped. */
static void fe_lower_case_stmt(fe_ctx *fx, CXCursor s, bool is_last)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (is_last && k == CXCursor_BreakStmt)
        return;
    if (!is_last || k != CXCursor_CompoundStmt) {
        fe_lower_stmt(fx, s);
        return;
    }
    ir_stmt *st = ir_stmt_new(fx->u, IR_BLOCK, fe_loc(fx, s));
    ir_block *saved = fx->cur;
    st->block = fx->cur = ir_block_new(fx->u);
    CXCursor *kids;
    int n = fe_compound_stmts(s, &kids);
    for (int i = 0; i < n; i++)
        fe_lower_case_stmt(fx, kids[i], i == n - 1);
    free(kids);
    st->block->end = fe_end_loc(fx, s);
    fx->cur = saved;
    fe_push(fx, st);
}

static const char *fe_switch_check(const fe_switch *sw)
{
    if (sw->problem)
        return sw->problem;
    for (int i = 0; i < sw->n_groups; i++) {
        const fe_case_group *g = &sw->groups[i];
        if (i < sw->n_groups - 1 && (!g->n_stmts || !fe_ends_case(g->stmts[g->n_stmts - 1])))
            return "switch case that falls through";
        if (fe_group_breaks_early(g))
            return "break out of the middle of a switch case";
    }
    return NULL;
}

/* The statements of group g, without its final break, as a block. */
static ir_block *fe_group_block(fe_ctx *fx, const fe_case_group *g)
{
    ir_block *b = ir_block_new(fx->u), *saved = fx->cur;
    fx->cur = b;
    for (int i = 0; i < g->n_stmts; i++)
        fe_lower_case_stmt(fx, g->stmts[i], i == g->n_stmts - 1);
    fx->cur = saved;
    return b;
}

/* The C text of group g's condition, value_text == l0 || ... (NULL: unknown). */
static const char *fe_group_text(fe_ctx *fx, const fe_case_group *g, const char *value_text)
{
    const char *text = NULL;
    for (int i = 0; i < g->n_labels && value_text; i++) {
        const char *label = fe_source_text(fx, g->labels[i]);
        if (!label)
            return NULL;
        text = text ? ir_strfmt(fx->u, "%s || %s == %s", text, value_text, label)
                    : ir_strfmt(fx->u, "%s == %s", value_text, label);
    }
    return text;
}

/* value == l0 || value == l1 ... */
static ir_expr *fe_group_cond(fe_ctx *fx, const fe_case_group *g, ir_expr *value)
{
    ir_expr *cond = NULL;
    for (int i = 0; i < g->n_labels; i++) {
        ir_loc loc = fe_loc(fx, g->labels[i]);
        ir_expr *eq = fe_fold(fx, ir_expr_binary(fx->u, loc, IR_OP_EQ, value, fe_lower_int(fx, g->labels[i])));
        cond = cond ? fe_fold(fx, ir_expr_binary(fx->u, loc, IR_OP_LOR, cond, eq)) : eq;
    }
    return cond;
}

static void fe_switch_emit(fe_ctx *fx, CXCursor c, const fe_switch *sw, ir_expr *value,
                           const char *value_text)
{
    ir_stmt *prev = NULL;
    fe_chain chain = {0}; /* the cases' conditions or-ed: what a run not taking default meets */
    for (int i = 0; i < sw->n_groups; i++) {
        const fe_case_group *g = &sw->groups[i];
        if (g->is_default)
            continue;
        ir_stmt *s = ir_stmt_new(fx->u, IR_IF, g->n_labels ? fe_loc(fx, g->labels[0]) : fe_loc(fx, c));
        s->branch.cond = fe_group_cond(fx, g, value);
        s->text = fe_group_text(fx, g, value_text);
        fe_chain_or(fx, &chain, s->text, true);
        s->branch.then_blk = fe_group_block(fx, g);
        if (prev) {
            prev->branch.else_blk = ir_block_new(fx->u);
            ir_block_push(fx->u, prev->branch.else_blk, s);
        } else {
            fe_push(fx, s);
        }
        prev = s;
    }
    for (int i = 0; i < sw->n_groups; i++) {
        if (!sw->groups[i].is_default)
            continue;
        ir_block *b = fe_group_block(fx, &sw->groups[i]);
        if (prev) {
            prev->branch.else_blk = b;
            prev->branch.else_text = fe_chain_text(fx, &chain);
        } else {
            ir_stmt *s = ir_stmt_new(fx->u, IR_BLOCK, fe_loc(fx, c));
            s->block = b;
            fe_push(fx, s);
        }
    }
    free(chain.buf);
}

static void fe_lower_switch(fe_ctx *fx, CXCursor c)
{
    CXCursor kids[2];
    if (fe_children(c, kids, 2) != 2) {
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "malformed switch");
        return;
    }
    fe_switch sw_store = {.fx = fx}, *sw = &sw_store;
    ir_expr *value = fe_lower_int(fx, kids[0]);
    if (clang_getCursorKind(kids[1]) == CXCursor_CompoundStmt)
        clang_visitChildren(kids[1], fe_switch_visit, sw);
    else
        fe_switch_visit(kids[1], c, sw);
    const char *problem = fe_switch_check(sw);
    if (problem)
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, problem);
    else
        fe_switch_emit(fx, c, sw, value, fe_source_text(fx, kids[0]));
    for (int i = 0; i < sw->n_groups; i++)
        free(sw->groups[i].stmts);
    free(sw->groups);
}

/* ---- the rest ---- */

/* return p; of a pointer, return s; of a struct (copied out). */
static void fe_lower_return_object(fe_ctx *fx, ir_stmt *s, CXCursor kid)
{
    const char *why;
    CXType t = clang_getCursorType(kid);
    if (fe_type_is_pointer(t)) {
        s->ret.ptr = fe_lower_ptr(fx, kid);
    } else if (fe_type_is_record(t)) {
        s->ret.place = fe_lower_place(fx, kid, &why);
        if (!s->ret.place)
            fe_lower_effects(fx, kid);
    } else {
        fe_lower_effects(fx, kid);
    }
}

static void fe_lower_return(fe_ctx *fx, CXCursor c)
{
    CXCursor kid;
    int n = fe_children(c, &kid, 1);
    ir_stmt *s = ir_stmt_new(fx->u, IR_RETURN, fe_loc(fx, c));
    s->text = fe_source_text(fx, c);
    if (n == 1) {
        switch (fe_type_kind(clang_getCursorType(kid))) {
        case IR_VAR_TENSOR: s->ret.var = fe_lower_tensor(fx, kid, IR_NO_VAR); break;
        case IR_VAR_INT: s->ret.value = fe_lower_int(fx, kid); break;
        case IR_VAR_OTHER: fe_lower_return_object(fx, s, kid); break;
        }
    }
    fe_push(fx, s);
}

/* The label's name: a LabelStmt's spelling, a GotoStmt's LabelRef child. */
static const char *fe_label_name(fe_ctx *fx, CXCursor c)
{
    CXCursor kid;
    if (clang_getCursorKind(c) == CXCursor_GotoStmt && fe_children(c, &kid, 1) == 1)
        return fe_spelling(fx, kid);
    return fe_spelling(fx, c);
}

/* LABEL or GOTO; a label's id is unique in the unit, found by name in the function. */
static void fe_lower_label(fe_ctx *fx, CXCursor c, ir_stmt_kind kind)
{
    const char *name = fe_label_name(fx, c);
    int k = 0;
    while (k < fx->n_labels && strcmp(fx->label_names[k], name) != 0)
        k++;
    if (k == fx->n_labels) {
        tl_xgrow(fx->label_names, &fx->cap_labels, (size_t)fx->n_labels + 1, 8);
        fx->label_names[fx->n_labels++] = name;
        fx->u->n_labels++;
    }
    ir_stmt *s = ir_stmt_new(fx->u, kind, fe_loc(fx, c));
    if (kind == IR_GOTO)
        s->text = fe_source_text(fx, c);
    s->label.id = fx->label_base + k;
    s->label.name = name;
    fe_push(fx, s);
}

/* Every C statement numbers its calls (ir_stmt.call.stmt); a nested
 * statement has its own number, and its parent's comes back after it. */
void fe_lower_stmt(fe_ctx *fx, CXCursor c)
{
    int parent = fx->u->cur_stmt;
    fx->u->cur_stmt = ++fx->stmt_serial;
    fe_lower_stmt_in(fx, c);
    fx->u->cur_stmt = parent;
}

static void fe_lower_stmt_in(fe_ctx *fx, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor kid;
    switch (k) {
    case CXCursor_CompoundStmt: {
        ir_stmt *s = ir_stmt_new(fx->u, IR_BLOCK, fe_loc(fx, c));
        s->block = fe_body_block(fx, c);
        fe_push(fx, s);
        return;
    }
    case CXCursor_DeclStmt: clang_visitChildren(c, fe_decl_visit, fx); return;
    case CXCursor_IfStmt: fe_lower_if(fx, c); return;
    case CXCursor_WhileStmt: fe_lower_while(fx, c, false); return;
    case CXCursor_DoStmt: fe_lower_while(fx, c, true); return;
    case CXCursor_ForStmt: fe_lower_for(fx, c); return;
    case CXCursor_SwitchStmt: fe_lower_switch(fx, c); return;
    case CXCursor_BreakStmt: fe_push(fx, ir_stmt_new(fx->u, IR_BREAK, fe_loc(fx, c))); return;
    case CXCursor_ContinueStmt: fe_push(fx, ir_stmt_new(fx->u, IR_CONTINUE, fe_loc(fx, c))); return;
    case CXCursor_ReturnStmt: fe_lower_return(fx, c); return;
    case CXCursor_GotoStmt: fe_lower_label(fx, c, IR_GOTO); return;
    case CXCursor_IndirectGotoStmt: fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "computed goto"); return;
    case CXCursor_LabelStmt:
        fe_lower_label(fx, c, IR_LABEL);
        if (fe_children(c, &kid, 1) == 1)
            fe_lower_stmt(fx, kid);
        return;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, "case label outside a switch body");
        return;
    case CXCursor_NullStmt:
    case CXCursor_AsmStmt:
    case CXCursor_MSAsmStmt: return;
    default: break;
    }
    if (clang_isExpression(k)) {
        fe_lower_effects(fx, c);
        return;
    }
    CXString s = clang_getCursorKindSpelling(k);
    fe_unsupported(fx, fe_loc(fx, c), IR_NO_VAR, ir_strfmt(fx->u, "statement %s", clang_getCString(s)));
    clang_disposeString(s);
}

/* ---- functions ---- */

static void fe_lower_params(fe_ctx *fx, CXCursor c, ir_func *f)
{
    int n = clang_Cursor_getNumArguments(c);
    if (n <= 0)
        return;
    f->params = ir_alloc(fx->u, (size_t)n * sizeof *f->params);
    for (int i = 0; i < n; i++) {
        CXCursor p = clang_Cursor_getArgument(c, (unsigned)i);
        int var = ir_var_new(fx->u, fe_spelling(fx, p), fe_type_kind(clang_getCursorType(p)), fx->func,
                             fe_loc(fx, p));
        fx->u->vars[var].is_param = true;
        fe_set_wrap(fx, var, clang_getCursorType(p));
        fe_var_bind(fx, p, var);
        if (fx->u->vars[var].kind == IR_VAR_TENSOR)
            fx->tensor_code = true;
        f->params[f->n_params++] = var;
    }
}

static enum CXChildVisitResult fe_body_find(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
        *(CXCursor *)data = c;
    return CXChildVisit_Continue;
}

void fe_lower_function(fe_ctx *fx, int index)
{
    CXCursor c = fx->func_cursors[index];
    ir_func *f = fx->u->funcs[index];
    fx->func = index;
    fx->tensor_code = false;
    fe_map_clear(&fx->vars);
    fx->label_base = fx->u->n_labels;
    fx->n_labels = 0;
    CXType ret = clang_getResultType(clang_getCursorType(c));
    f->returns_tensor = fe_type_kind(ret) == IR_VAR_TENSOR;
    f->returns_int = fe_type_kind(ret) == IR_VAR_INT;
    f->is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
    fe_lower_params(fx, c, f);
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(c, fe_body_find, &body);
    if (!clang_Cursor_isNull(body))
        fe_lower_body(fx, f->body, body);
    f->end = f->body->end;
    f->has_tensor_code = fx->tensor_code || f->returns_tensor;
}
