/*
 * fe_program.c: several translation units lowered into one program and
 * linked (fe_program.h).
 *
 * Approach: parse every unit first and list the functions each defines
 * with external linkage in its main file (the link's symbol table), so
 * that the lowering of a call knows whether another unit defines its
 * callee: such a call is a user call left unresolved (callee -1), not a
 * library call with unknown effects.  Each unit is then lowered into the
 * program's ir_unit (its lines after the files before it, its functions
 * appended), and disposed of.  The link resolves every call left
 * unresolved whose name the table holds to that definition's function
 * index, and spreads has_tensor_code over the program's calls.
 *
 * Invariant: a function is found by name only among the non-static
 * functions of the program; a unit's own functions (static or not) were
 * resolved by its lowering, before any other unit's.
 */
#include "fe_program.h"

#include <stdlib.h>
#include <string.h>

#include "fe_internal.h"

typedef struct fe_symbol {
    char *name;
    int unit;       /* index in the program's units */
    int line, col;  /* the definition's name, in its file */
} fe_symbol;

typedef struct fe_symtab {
    fe_func_map by_name; /* name -> index in syms */
    fe_symbol *syms;
    int n, cap;
    ir_unit *u;          /* where a duplicate's error goes */
    const fe_program_unit *units;
    int unit;            /* the unit being listed */
} fe_symtab;

/* Two external definitions of one name: an error of the program naming both. */
static void fe_symtab_duplicate(fe_symtab *t, const fe_symbol *first, const fe_symbol *again)
{
    ir_diag d = {.severity = IR_SEV_ERROR, .file = t->units[again->unit].path,
                 .line = again->line, .col = again->col, .option = ""};
    d.message = ir_strfmt(t->u, "function '%s' is defined in two units of the program: %s:%d:%d "
                          "and %s:%d:%d (C allows one external definition)", again->name,
                          t->units[first->unit].path, first->line, first->col,
                          t->units[again->unit].path, again->line, again->col);
    ir_diag_add(t->u, &d);
}

static void fe_symtab_add(fe_symtab *t, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    unsigned line, col;
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, &col, NULL);
    fe_symbol sym = {tl_xstrdup(clang_getCString(s)), t->unit, (int)line, (int)col};
    clang_disposeString(s);
    int seen = fe_func_map_get(&t->by_name, sym.name);
    if (seen >= 0) {
        fe_symtab_duplicate(t, &t->syms[seen], &sym);
        free(sym.name);
        return;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->syms = tl_xreallocarray(t->syms, (size_t)t->cap, sizeof *t->syms);
    }
    t->syms[t->n] = sym;
    fe_func_map_put(&t->by_name, t->syms[t->n].name, t->n);
    t->n++;
}

/* A function defined in the main file with external linkage. */
static enum CXChildVisitResult fe_symtab_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
        clang_Location_isFromMainFile(clang_getCursorLocation(c)) &&
        clang_getCursorLinkage(c) == CXLinkage_External)
        fe_symtab_add(data, c);
    return CXChildVisit_Continue;
}

static void fe_symtab_free(fe_symtab *t)
{
    for (int k = 0; k < t->n; k++)
        free(t->syms[k].name);
    free(t->syms);
    fe_func_map_free(&t->by_name);
}

/* ---- the link ---- */

static void fe_link_block(const fe_func_map *defs, ir_block *b);

static void fe_link_stmt(const fe_func_map *defs, ir_stmt *s)
{
    switch (s->kind) {
    case IR_USER_CALL:
        if (s->user_call.callee < 0 && !s->user_call.fn)
            s->user_call.callee = fe_func_map_get(defs, s->user_call.name);
        return;
    case IR_BLOCK: fe_link_block(defs, s->block); return;
    case IR_IF:
        fe_link_block(defs, s->branch.then_blk);
        if (s->branch.else_blk)
            fe_link_block(defs, s->branch.else_blk);
        return;
    case IR_LOOP:
        fe_link_block(defs, s->loop.init);
        fe_link_block(defs, s->loop.cond_pre);
        fe_link_block(defs, s->loop.step);
        fe_link_block(defs, s->loop.body);
        return;
    default: return;
    }
}

static void fe_link_block(const fe_func_map *defs, ir_block *b)
{
    for (int i = 0; b && i < b->n_stmts; i++)
        fe_link_stmt(defs, b->stmts[i]);
}

/* Resolve the calls each unit left to the external definitions. */
static void fe_link(ir_unit *u)
{
    fe_func_map defs = {0};
    for (int f = 0; f < u->n_funcs; f++)
        if (!u->funcs[f]->is_static)
            fe_func_map_put(&defs, u->funcs[f]->name, f);
    for (int f = 0; f < u->n_funcs; f++)
        fe_link_block(&defs, u->funcs[f]->body);
    fe_func_map_free(&defs);
    fe_spread_from(u, 0);
}

/* ---- the program ---- */

typedef struct fe_parsed {
    CXIndex idx;
    CXTranslationUnit tu;
} fe_parsed;

static void fe_parsed_free(fe_parsed *p, int n)
{
    for (int k = 0; k < n; k++)
        fe_tu_dispose(p[k].tu, p[k].idx);
    free(p);
}

/* Parse every unit and list its external definitions; FE_OK or the first failure. */
static fe_status fe_program_parse(int n, const fe_program_unit *units, fe_parsed *p,
                                  fe_symtab *t, int *failed)
{
    for (int k = 0; k < n; k++) {
        double seconds = 0;
        fe_status st = fe_tu_parse_command(units[k].path, units[k].argc, units[k].argv,
                                           &p[k].idx, &p[k].tu, &seconds);
        t->u->parse_seconds += seconds;
        if (st != FE_OK) {
            *failed = k;
            return st;
        }
        t->unit = k;
        clang_visitChildren(clang_getTranslationUnitCursor(p[k].tu), fe_symtab_visit, t);
    }
    return FE_OK;
}

fe_status fe_parse_program(int n, const fe_program_unit *units, ir_unit **out, int *failed)
{
    *out = NULL;
    *failed = -1;
    ir_unit *u = ir_unit_new(n > 0 ? units[0].path : "");
    fe_parsed *p = tl_xcalloc((size_t)n + 1, sizeof *p);
    fe_symtab t = {.u = u, .units = units};
    fe_status st = fe_program_parse(n, units, p, &t, failed);
    fe_func_map globals = {0};
    fe_program_file pf = {.program = &t.by_name, .globals = &globals};
    for (int k = 0; st == FE_OK && k < n; k++) {
        pf.path = units[k].path;
        fe_build_program_file(p[k].tu, u, &pf);
        fe_tu_dispose(p[k].tu, p[k].idx);
        p[k] = (fe_parsed){0};
    }
    fe_parsed_free(p, n);
    fe_symtab_free(&t);
    fe_func_map_free(&globals);
    if (st != FE_OK) {
        ir_unit_free(u);
        return st;
    }
    fe_link(u);
    *out = u;
    return FE_OK;
}
