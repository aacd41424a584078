/*
 * fe_program.c: several translation units lowered into one program and
 * linked (fe_program.h).
 *
 * Approach: every unit becomes a capture (fe_capture.h): read from the
 * build's capture folder when one is there and current, else parsed.  The
 * functions each unit defines with external linkage make the link's
 * symbol table (from the capture's list, or from the parsed unit), so that
 * the lowering of a call knows whether another unit defines its callee:
 * such a call is a user call left unresolved (callee -1), not a library
 * call with unknown effects.  A capture read from a file answered that
 * question when it was made, perhaps by a guess: one whose answers the
 * table contradicts is parsed again.  Each parsed unit is lowered alone
 * with the table and serialised (its capture written when the program
 * keeps them).  Then every capture's IR is read into the program's ir_unit
 * (its lines after the files before it, its functions appended), so a
 * program is built by one path whether its units were parsed or read.
 * The link resolves every call left unresolved whose name the table holds
 * to that definition's function index, and spreads has_tensor_code over
 * the program's calls.
 *
 * A unit given with its unsaved text (an editor's buffer, the language
 * server) is always parsed from that text, and its capture never written:
 * the capture would describe the buffer under the file's key.
 *
 * Invariant: a function is found by name only among the non-static
 * functions of the program; a unit's own functions (static or not) were
 * resolved by its lowering, before any other unit's.
 */
#include "fe_program.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe_capture.h"
#include "fe_capture_ir.h"
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
    ir_diag d = {.severity = IR_SEV_ERROR, .file = ir_strdup(t->u, t->units[again->unit].path),
                 .line = again->line, .col = again->col, .option = ""};
    d.message = ir_strfmt(t->u, "function '%s' is defined in two units of the program: %s:%d:%d "
                          "and %s:%d:%d (C allows one external definition)", again->name,
                          t->units[first->unit].path, first->line, first->col,
                          t->units[again->unit].path, again->line, again->col);
    ir_diag_add(t->u, &d);
    t->u->n_link_errors++;
}

static void fe_symtab_put(fe_symtab *t, const char *name, int line, int col)
{
    fe_symbol sym = {tl_xstrdup(name), t->unit, line, col};
    int seen = fe_func_map_get(&t->by_name, sym.name);
    if (seen >= 0) {
        fe_symtab_duplicate(t, &t->syms[seen], &sym);
        free(sym.name);
        return;
    }
    tl_xgrow(t->syms, &t->cap, (size_t)t->n + 1, 64);
    t->syms[t->n] = sym;
    fe_func_map_put(&t->by_name, t->syms[t->n].name, t->n);
    t->n++;
}

static void fe_symtab_add(fe_symtab *t, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    unsigned line, col;
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, &col, NULL);
    fe_symtab_put(t, clang_getCString(s), (int)line, (int)col);
    clang_disposeString(s);
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

/* Tests only: TENSORLINT_TEST_READBACK_FAULT=K makes the K-th unit's own IR
 * (counted from 1) fail to read back, the broken invariant fe_prog_link
 * survives; 0 when unset. */
static int fe_prog_fault_unit(void)
{
    const char *v = getenv("TENSORLINT_TEST_READBACK_FAULT");
    return v ? atoi(v) : 0;
}

typedef struct fe_prog {
    int n;
    const fe_program_unit *units;
    fe_program_cache *cache;
    bool *force;          /* units whose capture is not to be read */
    fe_capture **caps;    /* each unit's capture (read, or made by lowering) */
    bool *loaded;         /* caps[k] was read from its file */
    CXIndex *idx;         /* units parsed this time, until lowered */
    CXTranslationUnit *tu;
    double *seconds;
    ir_unit *u;
    fe_symtab t;
    int failed;           /* the unit whose parse failed */
    int bad;              /* a unit whose capture's IR could not be read, or -1 */
    int fault;            /* fe_prog_fault_unit() */
} fe_prog;

/* The current capture of unit k, or NULL. */
static fe_capture *fe_prog_read(fe_prog *g, int k)
{
    if (!g->cache || !g->cache->build_dir || g->force[k] || g->units[k].text)
        return NULL;
    char *file = fe_capture_path(g->cache->build_dir, g->units[k].path);
    const char *why;
    fe_capture *c = fe_capture_read(file, &why);
    free(file);
    if (c && !fe_capture_current(c, &g->units[k], &why)) {
        fe_capture_free(c);
        c = NULL;
    }
    return c;
}

static fe_status fe_prog_parse(fe_prog *g, int k)
{
    fe_status st = fe_tu_parse_command_text(g->units[k].path, g->units[k].argc,
                                            g->units[k].argv, g->units[k].text, g->units[k].len,
                                            &g->idx[k], &g->tu[k], &g->seconds[k]);
    g->u->parse_seconds += g->seconds[k];
    if (st != FE_OK)
        g->failed = k;
    return st;
}

/* The link's table: every unit's external definitions, in the units' order. */
static void fe_prog_symbols(fe_prog *g)
{
    for (int k = 0; k < g->n; k++) {
        g->t.unit = k;
        if (g->tu[k]) {
            clang_visitChildren(clang_getTranslationUnitCursor(g->tu[k]), fe_symtab_visit, &g->t);
            continue;
        }
        for (int i = 0; i < g->caps[k]->n_syms; i++)
            fe_symtab_put(&g->t, g->caps[k]->syms[i].name, g->caps[k]->syms[i].line,
                          g->caps[k]->syms[i].col);
    }
}

/* A capture lowered without the program's table guessed what the table
 * says of every function it called: true when each guess holds. */
static bool fe_prog_guesses_hold(const fe_prog *g, const fe_capture *c)
{
    for (int i = 0; i < c->n_asks; i++)
        if (c->asks[i].elsewhere != (fe_func_map_get(&g->t.by_name, c->asks[i].name) >= 0))
            return false;
    return true;
}

/* Write unit k's new capture where the program keeps them; a failure is
 * counted, never fatal (the analysis goes on from the parse). */
static void fe_prog_write(fe_prog *g, int k)
{
    g->cache ? g->cache->n_parsed++ : 0;
    if (!g->cache || !g->cache->build_dir || g->units[k].text)
        return;
    char *file = fe_capture_path(g->cache->build_dir, g->units[k].path);
    if (!fe_capture_write(g->caps[k], file) && g->cache->n_write_failed++ == 0)
        g->cache->write_error = tl_xasprintf("%s: %s", file, strerror(errno));
    free(file);
}

/* Captures read where current; the other units parsed, then lowered with
 * the program's table (and their captures written). */
static fe_status fe_prog_units(fe_prog *g)
{
    fe_status st = FE_OK;
    for (int k = 0; st == FE_OK && k < g->n; k++) {
        g->caps[k] = fe_prog_read(g, k);
        g->loaded[k] = g->caps[k] != NULL;
        if (!g->caps[k])
            st = fe_prog_parse(g, k);
    }
    if (st != FE_OK)
        return st;
    fe_prog_symbols(g);
    for (int k = 0; st == FE_OK && k < g->n; k++) {
        if (g->caps[k] && !fe_prog_guesses_hold(g, g->caps[k])) {
            fe_capture_free(g->caps[k]);
            g->caps[k] = NULL;
            st = fe_prog_parse(g, k);
        }
    }
    for (int k = 0; st == FE_OK && k < g->n; k++) {
        if (!g->tu[k]) {
            g->cache ? g->cache->n_read++ : 0;
            continue;
        }
        g->caps[k] = fe_capture_lower(g->tu[k], &g->units[k], &g->t.by_name, g->seconds[k]);
        fe_tu_dispose(g->tu[k], g->idx[k]);
        g->tu[k] = NULL;
        g->idx[k] = NULL;
        fe_prog_write(g, k);
    }
    return st;
}

/* Every unit's IR read into the program, in the units' order.  A capture
 * read from a file whose IR does not read is g->bad (to parse again); one
 * made by this lowering always reads: when it does not (a broken
 * invariant), the unit is g->failed with FE_ERR_INTERNAL, said on stderr,
 * and the caller goes on without the program (the language server then
 * analyses the document alone) rather than the process dying. */
static bool fe_prog_link(fe_prog *g)
{
    fe_func_map globals = {0};
    int serial = 0;
    bool ok = true;
    for (int k = 0; ok && k < g->n; k++) {
        const fe_capture *c = g->caps[k];
        fe_rd r = {.p = c->data + c->body, .end = c->data + c->len, .u = g->u};
        ok = fe_rd_unit(&r, g->units[k].path, &globals, &serial);
        if (!ok && g->loaded[k]) {
            g->bad = k;
        } else if (!ok || g->fault == k + 1) {
            fprintf(stderr, "tensorlint: internal error: the IR of %s does not read back: %s\n",
                    g->units[k].path, ok ? "a fault injected by a test" : r.why);
            g->failed = k;
            ok = false;
        }
    }
    fe_func_map_free(&globals);
    if (ok)
        fe_link(g->u);
    return ok;
}

static void fe_prog_clear(fe_prog *g)
{
    for (int k = 0; k < g->n; k++) {
        fe_tu_dispose(g->tu[k], g->idx[k]);
        fe_capture_free(g->caps[k]);
    }
    free(g->caps);
    free(g->loaded);
    free(g->tu);
    free(g->idx);
    free(g->seconds);
    fe_symtab_free(&g->t);
}

/* One try: the program, or a failure; g->bad set when a capture must go. */
static fe_status fe_prog_try(fe_prog *g)
{
    g->u = ir_unit_new(g->n > 0 ? g->units[0].path : "");
    g->caps = tl_xcalloc((size_t)g->n + 1, sizeof *g->caps);
    g->loaded = tl_xcalloc((size_t)g->n + 1, sizeof *g->loaded);
    g->tu = tl_xcalloc((size_t)g->n + 1, sizeof *g->tu);
    g->idx = tl_xcalloc((size_t)g->n + 1, sizeof *g->idx);
    g->seconds = tl_xcalloc((size_t)g->n + 1, sizeof *g->seconds);
    g->t = (fe_symtab){.u = g->u, .units = g->units};
    g->bad = -1;
    if (g->cache)
        g->cache->n_read = g->cache->n_parsed = 0;
    fe_status st = fe_prog_units(g);
    if (st == FE_OK && !fe_prog_link(g))
        st = g->bad >= 0 ? FE_ERR_LIBCLANG /* tried again */ : FE_ERR_INTERNAL;
    fe_prog_clear(g);
    if (st != FE_OK) {
        ir_unit_free(g->u);
        g->u = NULL;
    }
    return st;
}

typedef struct fe_prog_job {
    fe_prog *g;
    fe_status st;
} fe_prog_job;

static void fe_prog_run(void *arg)
{
    fe_prog_job *j = arg;
    do {
        if (j->g->bad >= 0)
            j->g->force[j->g->bad] = true;
        j->st = fe_prog_try(j->g);
    } while (j->st != FE_OK && j->g->bad >= 0);
}

fe_status fe_parse_program_cached(int n, const fe_program_unit *units, fe_program_cache *cache,
                                  ir_unit **out, int *failed)
{
    fe_prog g = {.n = n, .units = units, .cache = cache, .failed = -1, .bad = -1,
                 .fault = fe_prog_fault_unit()};
    g.force = tl_xcalloc((size_t)n + 1, sizeof *g.force);
    fe_prog_job j = {&g, FE_OK};
    tl_run_deep(fe_prog_run, &j);
    free(g.force);
    *out = g.u;
    *failed = g.failed;
    return j.st;
}

fe_status fe_parse_program(int n, const fe_program_unit *units, ir_unit **out, int *failed)
{
    return fe_parse_program_cached(n, units, NULL, out, failed);
}
