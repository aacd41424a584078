/*
 * fe_parse.c: run libclang on one file and drive the lowering.
 *
 * Approach: one CXIndex and one translation unit per call, parsed with
 * KeepGoing (so a file with errors still yields an AST to lower) and no
 * preamble (a one-shot parse would only pay for serialising it).  The top
 * level of the translation unit is walked once: every cursor whose
 * expansion location is outside the main file is skipped without
 * recursing, so the thousands of declarations from system headers cost one
 * location lookup each.  Function definitions in the main file are numbered
 * first (so a call can name a function defined further down), then lowered
 * one by one (fe_lower.c).  clang's diagnostics are copied into the unit.
 *
 * Also here: the small helpers every lowering file uses (locations, type
 * classification, the declaration -> variable map).
 */
#include "fe_internal.h"

#include <limits.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef TL_SOURCE_INCLUDE_DIR
#define TL_SOURCE_INCLUDE_DIR ""
#endif

const char *fe_status_name(fe_status s)
{
    switch (s) {
    case FE_OK: return "ok";
    case FE_ERR_NO_FILE: return "no such file";
    case FE_ERR_IS_DIR: return "is a directory, not a C file";
    case FE_ERR_LIBCLANG: return "libclang could not parse the file";
    case FE_ERR_NO_ACCESS: return "cannot be read: permission denied";
    case FE_ERR_UNREADABLE: return "cannot be read (a loop of symbolic links, a name too long "
                                   "or an I/O error)";
    case FE_ERR_INTERNAL: return "internal error of tensorlint: the unit's IR did not read "
                                 "back (please report it)";
    }
    return "?";
}

/* ---- the include directory ---- */

static bool fe_has_header(const char *dir)
{
    char *p = tl_xasprintf("%s/tensorlint/tensor.h", dir);
    bool ok = access(p, R_OK) == 0;
    free(p);
    return ok;
}

/* <exe>/../include, or NULL. */
static char *fe_installed_include_dir(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    char *dir = tl_xasprintf("%s/../include", exe);
    if (fe_has_header(dir))
        return dir;
    free(dir);
    return NULL;
}

static char *fe_include;

static void fe_find_include_dir(void)
{
    /* libclang parses on a thread of its own with an 8 MiB stack, which a
     * deep nesting of statements (an else-if chain of 10,000 arms)
     * overflows; with LIBCLANG_NOTHREADS it parses on the caller's thread,
     * which tl_run_deep gives a stack of TL_DEEP_STACK bytes.  Set once,
     * before any parse (every parse asks for the include directory first). */
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    fe_include = fe_installed_include_dir();
    if (!fe_include && *TL_SOURCE_INCLUDE_DIR && fe_has_header(TL_SOURCE_INCLUDE_DIR))
        fe_include = tl_xstrdup(TL_SOURCE_INCLUDE_DIR);
}

/* Found once for the process (check -j parses on several threads). */
const char *fe_include_dir(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fe_find_include_dir);
    return fe_include;
}

/* ---- locations and types ---- */

ir_loc fe_loc_at(fe_ctx *fx, CXSourceLocation l)
{
    CXFile f;
    unsigned line, col;
    /* Where the tokens were written when that is the main file (a call in a
     * macro argument), else the use site of the outermost macro. */
    clang_getFileLocation(l, &f, &line, &col, NULL);
    if (!f || !clang_File_isEqual(f, fx->main_file))
        clang_getExpansionLocation(l, NULL, &line, &col, NULL);
    return (ir_loc){(int)line + fx->line_base, (int)col};
}

ir_loc fe_loc(fe_ctx *fx, CXCursor c)
{
    return fe_loc_at(fx, clang_getCursorLocation(c));
}

long fe_offset(fe_ctx *fx, CXSourceLocation l)
{
    CXFile f;
    unsigned off;
    clang_getFileLocation(l, &f, NULL, NULL, &off);
    if (!f || !clang_File_isEqual(f, fx->main_file))
        return -1;
    return (long)off;
}

const char *fe_source_text(fe_ctx *fx, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    long a = fe_offset(fx, clang_getRangeStart(r)), b = fe_offset(fx, clang_getRangeEnd(r));
    if (a < 0 || b <= a || (size_t)b > fx->src_len || b - a > 200)
        return NULL;
    char *s = ir_alloc(fx->u, (size_t)(b - a) + 1);
    size_t n = 0;
    for (long i = a; i < b; i++) /* one line: folded white space */
        if (fx->src[i] != '\n' && fx->src[i] != '\r' && fx->src[i] != '\t')
            s[n++] = fx->src[i];
        else if (n && s[n - 1] != ' ')
            s[n++] = ' ';
    s[n] = '\0';
    return s;
}

bool fe_in_main_file(fe_ctx *fx, CXCursor c)
{
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    return f && clang_File_isEqual(f, fx->main_file);
}

/* The declaration of struct tl_tensor in the translation unit being lowered,
 * once found (per thread: -p parses on several threads). */
static _Thread_local struct {
    CXTranslationUnit tu;
    CXCursor decl;
} fe_tensor_decl;

/* A pointer whose pointee is the struct tl_tensor.  Compared by declaration
 * once the declaration is known (no string per query). */
static bool fe_points_to_tensor(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_Pointer)
        return false;
    CXType p = clang_getCanonicalType(clang_getPointeeType(t));
    if (p.kind != CXType_Record)
        return false;
    CXCursor decl = clang_getTypeDeclaration(p);
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(decl);
    if (fe_tensor_decl.tu == tu && tu)
        return clang_equalCursors(decl, fe_tensor_decl.decl);
    CXString s = clang_getCursorSpelling(decl);
    bool yes = strcmp(clang_getCString(s), "tl_tensor") == 0;
    clang_disposeString(s);
    if (yes) {
        fe_tensor_decl.tu = tu;
        fe_tensor_decl.decl = decl;
    }
    return yes;
}

bool fe_type_is_tensor(CXType t)
{
    return fe_points_to_tensor(t);
}

bool fe_type_is_tensor_ptr(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer && fe_points_to_tensor(clang_getPointeeType(t));
}

bool fe_is_null_constant(CXCursor c)
{
    CXCursor s = fe_strip(c, true);
    int64_t v;
    enum CXCursorKind k = clang_getCursorKind(s);
    return k == CXCursor_GNUNullExpr || (k == CXCursor_IntegerLiteral && fe_eval_int(s, &v) && v == 0);
}

bool fe_type_is_float(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Float128:
    case CXType_Half:
    case CXType_Float16:
    case CXType_BFloat16: return true;
    default: return false;
    }
}

ir_var_kind fe_type_kind(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if ((c.kind >= CXType_Bool && c.kind <= CXType_Int128) || c.kind == CXType_Enum)
        return IR_VAR_INT;
    return fe_points_to_tensor(c) ? IR_VAR_TENSOR : IR_VAR_OTHER;
}

const char *fe_spelling(fe_ctx *fx, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    const char *p = clang_getCString(s);
    const char *copy = ir_strdup(fx->u, p && *p ? p : "<unnamed>");
    clang_disposeString(s);
    return copy;
}

typedef struct fe_kids {
    CXCursor *kids;
    int max, n;
} fe_kids;

static enum CXChildVisitResult fe_kid_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fe_kids *k = data;
    if (k->n < k->max)
        k->kids[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

int fe_children(CXCursor c, CXCursor *kids, int max)
{
    fe_kids k = {kids, max, 0};
    clang_visitChildren(c, fe_kid_visit, &k);
    return k.n;
}

/* `0 ? 0 : x` (the API's builders reject an empty argument list with it):
 * *x, true. */
static bool fe_builder_guard(CXCursor c, CXCursor *x)
{
    CXCursor kids[3];
    int64_t a, b;
    if (fe_children(c, kids, 3) != 3)
        return false;
    CXCursor ca = kids[0], cb = kids[1];
    while (clang_getCursorKind(ca) == CXCursor_UnexposedExpr ||
           clang_getCursorKind(ca) == CXCursor_ParenExpr) {
        CXCursor k1[2];
        if (fe_children(ca, k1, 2) != 1)
            break;
        ca = k1[0];
    }
    while (clang_getCursorKind(cb) == CXCursor_UnexposedExpr ||
           clang_getCursorKind(cb) == CXCursor_ParenExpr) {
        CXCursor k1[2];
        if (fe_children(cb, k1, 2) != 1)
            break;
        cb = k1[0];
    }
    if (clang_getCursorKind(ca) != CXCursor_IntegerLiteral ||
        clang_getCursorKind(cb) != CXCursor_IntegerLiteral || !fe_eval_int(ca, &a) || a != 0 ||
        !fe_eval_int(cb, &b) || b != 0)
        return false;
    *x = kids[2];
    return true;
}

CXCursor fe_strip(CXCursor c, bool casts)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        CXCursor kids[2];
        int n;
        if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr) {
            if (fe_children(c, kids, 2) != 1)
                return c;
            c = kids[0];
        } else if (k == CXCursor_CStyleCastExpr && casts) {
            n = fe_children(c, kids, 2);
            if (n < 1 || n > 2)
                return c;
            c = kids[n - 1];
        } else if (k == CXCursor_ConditionalOperator && fe_builder_guard(c, &c)) {
            continue; /* TL_SHAPE's and TL_LIST's "0 ? 0 : x" is x */
        } else {
            return c;
        }
    }
}

/* ---- maps ---- */

/* Empty slots hold -1; values are never negative. */
static void fe_map_grow(fe_cursor_map *m)
{
    unsigned cap = m->cap ? m->cap * 2 : 256;
    CXCursor *keys = tl_xcalloc(cap, sizeof *keys);
    int *vals = tl_xcalloc(cap, sizeof *vals);
    for (unsigned i = 0; i < cap; i++)
        vals[i] = -1;
    for (unsigned i = 0; i < m->cap; i++) {
        if (m->vals[i] < 0)
            continue;
        unsigned h = clang_hashCursor(m->keys[i]) & (cap - 1);
        while (vals[h] >= 0)
            h = (h + 1) & (cap - 1);
        keys[h] = m->keys[i];
        vals[h] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
}

int fe_map_get(const fe_cursor_map *m, CXCursor key)
{
    if (!m->cap)
        return -1;
    unsigned h = clang_hashCursor(key) & (m->cap - 1);
    while (m->vals[h] >= 0) {
        if (clang_equalCursors(m->keys[h], key))
            return m->vals[h];
        h = (h + 1) & (m->cap - 1);
    }
    return -1;
}

void fe_map_put(fe_cursor_map *m, CXCursor key, int val)
{
    if ((m->n + 1) * 2 > m->cap)
        fe_map_grow(m);
    unsigned h = clang_hashCursor(key) & (m->cap - 1);
    while (m->vals[h] >= 0)
        h = (h + 1) & (m->cap - 1);
    m->keys[h] = key;
    m->vals[h] = val;
    m->n++;
}

void fe_map_clear(fe_cursor_map *m)
{
    if ((size_t)m->n * 8 < m->cap) { /* sparse (a big function came before): start small */
        fe_map_free(m);
        *m = (fe_cursor_map){0};
        return;
    }
    for (unsigned i = 0; i < m->cap; i++)
        m->vals[i] = -1;
    m->n = 0;
}

void fe_map_free(fe_cursor_map *m)
{
    free(m->keys);
    free(m->vals);
}

int fe_var_lookup(fe_ctx *fx, CXCursor decl)
{
    decl = clang_getCanonicalCursor(decl);
    int var = fe_map_get(&fx->vars, decl);
    if (var < 0)
        var = fe_map_get(&fx->globals, decl);
    return var >= 0 ? var : IR_NO_VAR;
}

void fe_var_bind(fe_ctx *fx, CXCursor decl, int var)
{
    fe_map_put(fx->u->vars[var].is_global ? &fx->globals : &fx->vars,
               clang_getCanonicalCursor(decl), var);
}

static unsigned fe_str_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void fe_func_map_put(fe_func_map *m, const char *name, int index)
{
    if ((m->n + 1) * 2 > m->cap) {
        fe_func_map old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->keys = tl_xcalloc(m->cap, sizeof *m->keys);
        m->vals = tl_xcalloc(m->cap, sizeof *m->vals);
        m->n = 0;
        for (unsigned i = 0; i < old.cap; i++)
            if (old.keys[i])
                fe_func_map_put(m, old.keys[i], old.vals[i]);
        free(old.keys);
        free(old.vals);
    }
    unsigned h = fe_str_hash(name) & (m->cap - 1);
    while (m->keys[h] && strcmp(m->keys[h], name) != 0)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->n++;
    m->keys[h] = name;
    m->vals[h] = index;
}

int fe_func_lookup(fe_ctx *fx, const char *name)
{
    return fe_func_map_get(&fx->funcs, name);
}

/* A function declared by the program (not in a system header). */
static bool fe_declared_by_user(CXCursor call)
{
    CXCursor decl = clang_getCursorReferenced(call);
    return !clang_Cursor_isNull(decl) &&
           !clang_Location_isInSystemHeader(clang_getCursorLocation(decl));
}

bool fe_func_elsewhere(fe_ctx *fx, const char *name, CXCursor call)
{
    fe_program_file *p = fx->pfile;
    if (!p || fe_func_lookup(fx, name) >= 0)
        return false;
    int seen = fe_func_map_get(&p->asked, name);
    if (seen >= 0)
        return seen == 1;
    bool yes = p->program ? fe_func_map_get(p->program, name) >= 0 : fe_declared_by_user(call);
    fe_func_map_put(&p->asked, ir_strdup(fx->u, name), yes);
    return yes;
}

void fe_func_map_free(fe_func_map *m)
{
    free(m->keys);
    free(m->vals);
    *m = (fe_func_map){0};
}

int fe_func_map_get(const fe_func_map *m, const char *name)
{
    if (!m->cap)
        return -1;
    unsigned h = fe_str_hash(name) & (m->cap - 1);
    for (; m->keys[h]; h = (h + 1) & (m->cap - 1))
        if (strcmp(m->keys[h], name) == 0)
            return m->vals[h];
    return -1;
}

/* An unsigned integer type narrower than 64 bits wraps at its width. */
void fe_set_wrap(fe_ctx *fx, int var, CXType t)
{
    CXType c = clang_getCanonicalType(t);
    bool is_unsigned = c.kind == CXType_UChar || c.kind == CXType_UShort ||
                       c.kind == CXType_UInt || c.kind == CXType_ULong ||
                       c.kind == CXType_ULongLong || c.kind == CXType_Char_U;
    long long size = clang_Type_getSizeOf(c);
    if (is_unsigned && size > 0 && size < 8)
        fx->u->vars[var].wrap_bits = (uint8_t)(8 * size);
}

/* A program's variable of external linkage: every unit's declarations of
 * its name are one variable (C's linkage), made by the first unit that uses
 * it; each unit's initializer of it (the definition's) runs before main. */
static int fe_program_global(fe_ctx *fx, CXCursor decl)
{
    const char *name = fe_spelling(fx, decl);
    int id = fe_func_map_get(fx->program_globals, name);
    if (id < 0) {
        id = ir_var_new(fx->u, name, fe_type_kind(clang_getCursorType(decl)), -1,
                        fe_loc(fx, decl));
        fx->u->vars[id].is_const = clang_isConstQualifiedType(clang_getCursorType(decl));
        fe_set_wrap(fx, id, clang_getCursorType(decl));
        fe_func_map_put(fx->program_globals, fx->u->vars[id].name, id);
        fe_program_file *p = fx->pfile;
        tl_xgrow(p->externs, &p->cap_externs, (size_t)p->n_externs + 1, 16);
        p->externs[p->n_externs++] = id;
    }
    fe_var_bind(fx, decl, id);
    fe_global_init(fx, clang_getCursorDefinition(decl), id);
    return id;
}

int fe_var_of_decl(fe_ctx *fx, CXCursor decl)
{
    int id = fe_var_lookup(fx, decl);
    if (id != IR_NO_VAR)
        return id;
    bool global = clang_Cursor_hasVarDeclGlobalStorage(decl) == 1;
    if (global && fx->program_globals && clang_getCursorLinkage(decl) == CXLinkage_External)
        return fe_program_global(fx, decl);
    id = ir_var_new(fx->u, fe_spelling(fx, decl), fe_type_kind(clang_getCursorType(decl)),
                    global ? -1 : fx->func, fe_loc(fx, decl));
    fe_var_bind(fx, decl, id);
    fx->u->vars[id].is_const = clang_isConstQualifiedType(clang_getCursorType(decl));
    fe_set_wrap(fx, id, clang_getCursorType(decl));
    if (global)
        fe_global_init(fx, decl, id);
    return id;
}

/* A variable of static storage is initialized once, before main runs: its
 * initializer goes into the unit's globals_init block (zero when none). */
void fe_global_init(fe_ctx *fx, CXCursor decl, int var)
{
    CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
    if (clang_Cursor_isNull(init))
        return;
    ir_block *saved = fx->cur;
    int func = fx->func;
    bool tensor_code = fx->tensor_code;
    fx->cur = fx->u->globals_init;
    fx->func = -1;
    fe_init_place(fx, fe_place_of_var(fx, var), clang_getCursorType(decl), init);
    fx->cur = saved;
    fx->func = func;
    fx->tensor_code = tensor_code;
}

void fe_push(fe_ctx *fx, ir_stmt *s)
{
    ir_block_push(fx->u, fx->cur, s);
}

void fe_unsupported(fe_ctx *fx, ir_loc loc, int var, const char *message)
{
    ir_stmt *s = ir_stmt_new(fx->u, IR_UNSUPPORTED, loc);
    s->unsup.message = message;
    s->unsup.var = var;
    fe_push(fx, s);
    ir_note_add(fx->u, fx->func, loc, message);
}

/* ---- diagnostics ---- */

static void fe_diag_copy(fe_ctx *fx, CXDiagnostic d)
{
    ir_diag out = {.severity = (ir_severity)clang_getDiagnosticSeverity(d)};
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
    if (f) {
        CXString name = clang_getFileName(f);
        out.file = ir_strdup(fx->u, clang_getCString(name));
        clang_disposeString(name);
        out.line = (int)line;
        out.col = (int)col;
    } /* else a driver diagnostic ("unknown argument: '-fbogus'"): an error, as in clang */
    CXString msg = clang_getDiagnosticSpelling(d);
    CXString opt = clang_getDiagnosticOption(d, NULL);
    out.message = ir_strdup(fx->u, clang_getCString(msg));
    out.option = ir_strdup(fx->u, clang_getCString(opt) ? clang_getCString(opt) : "");
    clang_disposeString(msg);
    clang_disposeString(opt);
    ir_diag_add(fx->u, &out);
    CXDiagnosticSet kids = clang_getChildDiagnostics(d);
    for (unsigned i = 0, n = clang_getNumDiagnosticsInSet(kids); i < n; i++) {
        CXDiagnostic k = clang_getDiagnosticInSet(kids, i);
        fe_diag_copy(fx, k);
        clang_disposeDiagnostic(k);
    }
}

static void fe_diags_copy(fe_ctx *fx)
{
    for (unsigned i = 0, n = clang_getNumDiagnostics(fx->tu); i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(fx->tu, i);
        fe_diag_copy(fx, d);
        clang_disposeDiagnostic(d);
    }
}

/* ---- the walk ---- */

typedef struct fe_defs {
    fe_ctx *fx;
    CXCursor *cursors;
    int n, cap;
} fe_defs;

static enum CXChildVisitResult fe_collect(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fe_defs *d = data;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
        return CXChildVisit_Continue;
    if (!fe_in_main_file(d->fx, c))
        return CXChildVisit_Continue;
    tl_xgrow(d->cursors, &d->cap, (size_t)d->n + 1, 16);
    d->cursors[d->n++] = c;
    return CXChildVisit_Continue;
}

/* has_tensor_code spreads from callees to callers (a worklist over the
 * reversed call graph, linear in the number of calls). */
static void fe_spread_tensor_code(ir_unit *u, int n_edges, const int (*edges)[2])
{
    int n = u->n_funcs;
    int *start = tl_xcalloc((size_t)n + 1, sizeof *start);
    int *callers = tl_xcalloc((size_t)n_edges + 1, sizeof *callers);
    int *work = tl_xcalloc((size_t)n + 1, sizeof *work);
    int *fill = tl_xcalloc((size_t)n + 1, sizeof *fill);
    for (int i = 0; i < n_edges; i++)
        start[edges[i][1] + 1]++;
    for (int i = 0; i < n; i++)
        start[i + 1] += start[i];
    for (int i = 0; i < n_edges; i++) {
        int callee = edges[i][1];
        callers[start[callee] + fill[callee]++] = edges[i][0];
    }
    int top = 0;
    for (int i = 0; i < n; i++)
        if (u->funcs[i]->has_tensor_code)
            work[top++] = i;
    while (top > 0) {
        int f = work[--top];
        for (int k = start[f]; k < start[f + 1]; k++) {
            ir_func *caller = u->funcs[callers[k]];
            if (!caller->has_tensor_code) {
                caller->has_tensor_code = true;
                work[top++] = callers[k];
            }
        }
    }
    free(start);
    free(callers);
    free(work);
    free(fill);
}

/* Collect (caller, callee) pairs of USER_CALL statements; a call through
 * a pointer may reach every function whose address is taken. */
typedef struct fe_edges {
    int (*v)[2];
    int n, cap;
    const ir_unit *u;
    int pointer_caller; /* the last caller given the edges of a call through a pointer */
} fe_edges;

static void fe_edge_add(fe_edges *e, int caller, int callee)
{
    tl_xgrow(e->v, &e->cap, (size_t)e->n + 1, 64);
    e->v[e->n][0] = caller;
    e->v[e->n][1] = callee;
    e->n++;
}

static void fe_edges_of_block(const ir_block *b, int caller, fe_edges *e);

static void fe_edges_of_stmt(const ir_stmt *s, int caller, fe_edges *e)
{
    const ir_block *blocks[5] = {0};
    switch (s->kind) {
    case IR_USER_CALL:
        if (s->user_call.fn && e->pointer_caller != caller) {
            e->pointer_caller = caller;
            for (int f = 0; f < e->u->n_funcs; f++)
                if (e->u->funcs[f]->address_taken)
                    fe_edge_add(e, caller, f);
        }
        if (s->user_call.callee >= 0)
            fe_edge_add(e, caller, s->user_call.callee);
        return;
    case IR_BLOCK: blocks[0] = s->block; break;
    case IR_IF:
        blocks[0] = s->branch.then_blk;
        blocks[1] = s->branch.else_blk;
        break;
    case IR_LOOP:
        blocks[0] = s->loop.init;
        blocks[1] = s->loop.cond_pre;
        blocks[2] = s->loop.step;
        blocks[3] = s->loop.body;
        break;
    default: return;
    }
    for (int i = 0; blocks[i]; i++)
        fe_edges_of_block(blocks[i], caller, e);
}

static void fe_edges_of_block(const ir_block *b, int caller, fe_edges *e)
{
    for (int i = 0; i < b->n_stmts; i++)
        fe_edges_of_stmt(b->stmts[i], caller, e);
}

/* has_tensor_code over the calls of funcs[first .. n_funcs) (a program's
 * link: of every function, once its calls across units are resolved). */
void fe_spread_from(ir_unit *u, int first)
{
    fe_edges e = {.u = u, .pointer_caller = -1};
    for (int i = first; i < u->n_funcs; i++)
        fe_edges_of_block(u->funcs[i]->body, i, &e);
    fe_spread_tensor_code(u, e.n, (const int(*)[2])e.v);
    free(e.v);
}

/* The file's functions are appended after those already in the unit (a
 * program's earlier files): func_cursors is indexed as unit->funcs. */
static void fe_lower_unit(fe_ctx *fx)
{
    fe_defs d = {.fx = fx};
    int base = fx->u->n_funcs;
    clang_visitChildren(clang_getTranslationUnitCursor(fx->tu), fe_collect, &d);
    fx->func_cursors = tl_xcalloc((size_t)(base + d.n) + 1, sizeof *fx->func_cursors);
    for (int i = 0; i < d.n; i++) {
        int index = ir_func_add(fx->u, fe_spelling(fx, d.cursors[i]), fe_loc(fx, d.cursors[i]));
        fe_func_map_put(&fx->funcs, fx->u->funcs[index]->name, index);
        fx->func_cursors[index] = d.cursors[i];
    }
    free(d.cursors);
    for (int i = 0; i < d.n; i++)
        fe_lower_function(fx, base + i);
    fe_spread_from(fx->u, base);
}

static void fe_ctx_free(fe_ctx *fx)
{
    fe_map_free(&fx->vars);
    fe_map_free(&fx->globals);
    free(fx->label_names);
    fe_map_free(&fx->callee_ids);
    free(fx->callees);
    free(fx->funcs.keys);
    free(fx->funcs.vals);
    free(fx->func_cursors);
    free(fx->ints);
}

static double fe_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A program's variable defined in this file with external linkage: made
 * (its initializer run before main) even when no function of the file uses
 * it, since another file may. */
static enum CXChildVisitResult fe_program_var(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fe_ctx *fx = data;
    if (clang_getCursorKind(c) == CXCursor_VarDecl && clang_isCursorDefinition(c) &&
        clang_Location_isFromMainFile(clang_getCursorLocation(c)) &&
        clang_getCursorLinkage(c) == CXLinkage_External)
        fe_var_of_decl(fx, c);
    return CXChildVisit_Continue;
}

/* Lines of the text src[0..len): a last line without its newline counts. */
static int fe_count_lines(const char *src, size_t len)
{
    int n = 0;
    for (size_t k = 0; k < len; k++)
        n += src[k] == '\n';
    return n + (len > 0 && src[len - 1] != '\n');
}

/* Lower the parsed translation unit into u.  With p (a program's file), its
 * lines and functions follow those already in u and calls of functions
 * another unit defines are left for the link (fe_program.c). */
static void fe_build_into(CXTranslationUnit tu, ir_unit *u, fe_program_file *p)
{
    fe_ctx fx = {.tu = tu, .u = u};
    fe_tensor_decl.tu = NULL; /* a new unit may reuse a disposed one's address */
    CXString spelling = clang_getTranslationUnitSpelling(tu);
    fx.main_file = clang_getFile(tu, clang_getCString(spelling));
    clang_disposeString(spelling);
    if (fx.main_file)
        fx.src = clang_getFileContents(tu, fx.main_file, &fx.src_len);
    if (p) {
        p->n_lines = fe_count_lines(fx.src, fx.src_len);
        ir_file *f = ir_unit_file_add(u, p->path, p->n_lines);
        fx.line_base = f->line_base;
        fx.pfile = p;
        fx.program_globals = p->globals;
        fx.stmt_serial = p->stmt_serial;
    }
    fe_diags_copy(&fx);
    if (fx.main_file)
        fe_lower_unit(&fx);
    if (p && fx.main_file)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), fe_program_var, &fx);
    if (p) {
        u->files[u->n_files - 1].n_funcs = u->n_funcs - u->files[u->n_files - 1].first_func;
        p->stmt_serial = fx.stmt_serial;
    }
    fe_ctx_free(&fx);
}

/* Lower the parsed translation unit into a new unit named path; the parse
 * took parse_seconds. */
fe_status fe_build(CXTranslationUnit tu, const char *path, double parse_seconds,
                   ir_unit **out)
{
    *out = ir_unit_new(path);
    (*out)->parse_seconds = parse_seconds;
    fe_build_into(tu, *out, NULL);
    return FE_OK;
}

void fe_build_program_file(CXTranslationUnit tu, ir_unit *u, fe_program_file *p)
{
    fe_build_into(tu, u, p);
}

ir_unit *fe_lower_alone(CXTranslationUnit tu, fe_program_file *p)
{
    ir_unit *u = ir_unit_new(p->path);
    fe_build_into(tu, u, p);
    return u;
}

/* argv plus the project's include directory, as a NULL-terminated copy. */
static const char **fe_args_with_include(int argc, const char *const *argv, int *n_out)
{
    const char *dir = fe_include_dir();
    const char **args = tl_xcalloc((size_t)argc + 3, sizeof *args);
    int n = 0;
    for (int i = 0; i < argc; i++)
        args[n++] = argv[i];
    if (dir) {
        args[n++] = "-isystem";
        args[n++] = dir;
    }
    *n_out = n;
    return args;
}

static const unsigned fe_parse_options =
    CXTranslationUnit_KeepGoing;

static bool fe_disable_free;

void fe_set_disable_free(bool on) { fe_disable_free = on; }

/* Dispose of tu and idx unless -disable-free is on. */
static void fe_dispose(CXTranslationUnit tu, CXIndex idx)
{
    if (fe_disable_free)
        return;
    if (tu)
        clang_disposeTranslationUnit(tu);
    if (idx)
        clang_disposeIndex(idx);
}

static fe_status fe_errno_status(int err)
{
    if (err == ENOENT || err == ENOTDIR)
        return FE_ERR_NO_FILE;
    return err == EACCES || err == EPERM ? FE_ERR_NO_ACCESS : FE_ERR_UNREADABLE;
}

/* Can path be read as a source file?  Says why not: missing, a folder,
 * not readable by this user, or another failure. */
static fe_status fe_readable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return fe_errno_status(errno);
    if (S_ISDIR(st.st_mode))
        return FE_ERR_IS_DIR;
    return access(path, R_OK) != 0 ? fe_errno_status(errno) : FE_OK;
}

/* One parse's arguments and results, for tl_run_deep. */
typedef struct fe_parse_job {
    const char *path, *directory;
    int argc;
    const char *const *argv;
    ir_unit **out;
    fe_status st;
} fe_parse_job;

static fe_status fe_parse_file_here(const char *path, int argc, const char *const *argv,
                                    ir_unit **out);
static fe_status fe_parse_command_here(const char *path, const char *directory, int argc,
                                       const char *const *argv, ir_unit **out);

static void fe_parse_file_job(void *data)
{
    fe_parse_job *j = data;
    j->st = fe_parse_file_here(j->path, j->argc, j->argv, j->out);
}

static void fe_parse_command_job(void *data)
{
    fe_parse_job *j = data;
    j->st = fe_parse_command_here(j->path, j->directory, j->argc, j->argv, j->out);
}

fe_status fe_parse_file(const char *path, int argc, const char *const *argv, ir_unit **out)
{
    fe_parse_job j = {.path = path, .argc = argc, .argv = argv, .out = out};
    tl_run_deep(fe_parse_file_job, &j);
    return j.st;
}

fe_status fe_parse_command(const char *path, const char *directory, int argc,
                           const char *const *argv, ir_unit **out)
{
    fe_parse_job j = {.path = path, .directory = directory, .argc = argc, .argv = argv, .out = out};
    tl_run_deep(fe_parse_command_job, &j);
    return j.st;
}

static fe_status fe_parse_file_here(const char *path, int argc, const char *const *argv,
                                    ir_unit **out)
{
    *out = NULL;
    fe_status readable = fe_readable(path);
    if (readable != FE_OK)
        return readable;
    int n;
    const char **args = fe_args_with_include(argc, argv, &n);
    fe_status st = FE_ERR_LIBCLANG;
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    double t0 = fe_now();
    if (idx && clang_parseTranslationUnit2(idx, path, args, n, NULL, 0, fe_parse_options, &tu) ==
                   CXError_Success)
        st = fe_build(tu, path, fe_now() - t0, out);
    fe_dispose(tu, idx);
    free(args);
    return st;
}

/* path, resolved against directory when relative. */
static char *fe_resolve(const char *directory, const char *path)
{
    if (!directory || path[0] == '/')
        return tl_xstrdup(path);
    return tl_xasprintf("%s/%s", directory, path);
}

fe_status fe_tu_parse_command(const char *path, int argc, const char *const *argv,
                              CXIndex *idx, CXTranslationUnit *tu, double *seconds)
{
    return fe_tu_parse_command_text(path, argc, argv, NULL, 0, idx, tu, seconds);
}

fe_status fe_tu_parse_command_text(const char *path, int argc, const char *const *argv,
                                   const char *text, size_t len, CXIndex *idx,
                                   CXTranslationUnit *tu, double *seconds)
{
    *idx = NULL;
    *tu = NULL;
    fe_status readable = text ? FE_OK : fe_readable(path);
    if (readable != FE_OK)
        return readable;
    int n;
    const char **args = fe_args_with_include(argc, argv, &n);
    double t0 = fe_now();
    *idx = clang_createIndex(0, 0);
    fe_status st = FE_ERR_LIBCLANG;
    struct CXUnsavedFile unsaved = {path, text, (unsigned long)len};
    if (*idx && clang_parseTranslationUnit2FullArgv(*idx, NULL, args, n, text ? &unsaved : NULL,
                                                    text ? 1 : 0, fe_parse_options,
                                                    tu) == CXError_Success)
        st = FE_OK;
    *seconds = fe_now() - t0;
    free(args);
    return st;
}

void fe_tu_dispose(CXTranslationUnit tu, CXIndex idx)
{
    fe_dispose(tu, idx);
}

static fe_status fe_parse_command_here(const char *path, const char *directory, int argc,
                                       const char *const *argv, ir_unit **out)
{
    *out = NULL;
    char *resolved = fe_resolve(directory, path);
    fe_status readable = fe_readable(resolved);
    free(resolved);
    if (readable != FE_OK)
        return readable;
    int n;
    const char **args = fe_args_with_include(argc, argv, &n);
    char *wd = NULL;
    if (directory) {
        wd = tl_xasprintf("-working-directory=%s", directory);
        args[n++] = wd;
    }
    fe_status st = FE_ERR_LIBCLANG;
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    double t0 = fe_now();
    if (idx && clang_parseTranslationUnit2FullArgv(idx, NULL, args, n, NULL, 0, fe_parse_options,
                                                   &tu) == CXError_Success)
        st = fe_build(tu, path, fe_now() - t0, out);
    fe_dispose(tu, idx);
    free(wd);
    free(args);
    return st;
}
