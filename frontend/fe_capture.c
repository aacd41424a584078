/*
 * fe_capture.c: captures made, written, read and checked (fe_capture.h).
 *
 * Approach: a unit is lowered alone into its own ir_unit, as a program's
 * file (fe_parse.c: its external variables listed, each question "is this
 * function another unit's?" answered and kept), then written to bytes
 * (fe_capture_ir.c).  Reading a file checks its magic, format, tool
 * version and checksum before anything in it is believed; its IR is read
 * only when a program links it (fe_program.c).
 */
#include "fe_capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe_capture_ir.h"
#include "fe_internal.h"

#ifndef TL_VERSION
#define TL_VERSION "0"
#endif

static const char fe_cap_magic[4] = {'T', 'L', 'I', 'R'};

/* ---- hashes ---- */

static uint64_t fe_fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t k = 0; k < n; k++)
        h = (h ^ p[k]) * 1099511628211ull;
    return h;
}

#define FE_FNV_INIT 14695981039346656037ull

static uint64_t fe_fnv_str(uint64_t h, const char *s)
{
    return fe_fnv(h, s ? s : "", strlen(s ? s : "") + 1);
}

uint64_t fe_capture_command_hash(int argc, const char *const *argv)
{
    uint64_t h = fe_fnv_str(FE_FNV_INIT, "tensorlint capture");
    int format = FE_CAPTURE_FORMAT;
    h = fe_fnv(h, &format, sizeof format);
    h = fe_fnv_str(h, TL_VERSION);
    CXString cv = clang_getClangVersion();
    h = fe_fnv_str(h, clang_getCString(cv));
    clang_disposeString(cv);
    h = fe_fnv_str(h, fe_include_dir());
    for (int k = 0; k < argc; k++)
        h = fe_fnv_str(h, argv[k]);
    return h;
}

/* The hash of a file's content; false when it cannot be read. */
static bool fe_hash_file(const char *path, uint64_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint64_t h = FE_FNV_INIT;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = fe_fnv(h, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    *out = h;
    return ok;
}

/* ---- a capture made by lowering ---- */

typedef struct fe_cap_list {
    fe_capture *c;
    CXTranslationUnit tu;
    int cap_deps, cap_syms;
} fe_cap_list;

static void fe_cap_dep_add(fe_cap_list *l, const char *path, uint64_t hash)
{
    fe_capture *c = l->c;
    for (int k = 0; k < c->n_deps; k++)
        if (strcmp(c->deps[k].path, path) == 0)
            return;
    tl_xgrow(c->deps, &l->cap_deps, (size_t)c->n_deps + 1, 32);
    c->deps[c->n_deps++] = (fe_cap_dep){ir_strdup(c->arena, path), hash};
}

static void fe_cap_inclusion(CXFile file, CXSourceLocation *stack, unsigned n, CXClientData data)
{
    (void)stack;
    (void)n;
    fe_cap_list *l = data;
    CXString real = clang_File_tryGetRealPathName(file);
    CXString name = clang_getFileName(file);
    const char *path = clang_getCString(real);
    if (!path || !*path)
        path = clang_getCString(name);
    if (path && *path) {
        /* the content the parse read, as a later check hashes the file */
        size_t size = 0;
        const char *text = clang_getFileContents(l->tu, file, &size);
        uint64_t h = FE_FNV_INIT;
        if (text)
            h = fe_fnv(h, text, size);
        else if (!fe_hash_file(path, &h))
            h = 0;
        fe_cap_dep_add(l, path, h);
    }
    clang_disposeString(real);
    clang_disposeString(name);
}

static enum CXChildVisitResult fe_cap_sym_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fe_cap_list *l = data;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)) ||
        clang_getCursorLinkage(c) != CXLinkage_External)
        return CXChildVisit_Continue;
    fe_capture *cap = l->c;
    tl_xgrow(cap->syms, &l->cap_syms, (size_t)cap->n_syms + 1, 32);
    CXString s = clang_getCursorSpelling(c);
    unsigned line, col;
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, &col, NULL);
    cap->syms[cap->n_syms++] = (fe_cap_sym){ir_strdup(cap->arena, clang_getCString(s)),
                                            (int)line, (int)col};
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

/* Arrays made with tl_x* moved into the arena (one owner for everything). */
static void *fe_cap_own(fe_capture *c, void *p, size_t bytes)
{
    void *q = ir_alloc(c->arena, bytes + 1);
    if (p)
        memcpy(q, p, bytes);
    free(p);
    return q;
}

static void fe_cap_header(fe_wr *w, const fe_capture *c)
{
    fe_wr_bytes(w, fe_cap_magic, 4);
    fe_wr_int(w, FE_CAPTURE_FORMAT);
    fe_wr_str(w, TL_VERSION);
    fe_wr_str(w, c->path);
    fe_wr_u64(w, c->command_hash);
    fe_wr_int(w, c->n_deps);
    for (int k = 0; k < c->n_deps; k++) {
        fe_wr_str(w, c->deps[k].path);
        fe_wr_u64(w, c->deps[k].hash);
    }
    fe_wr_int(w, c->n_syms);
    for (int k = 0; k < c->n_syms; k++) {
        fe_wr_str(w, c->syms[k].name);
        fe_wr_int(w, c->syms[k].line);
        fe_wr_int(w, c->syms[k].col);
    }
    fe_wr_int(w, c->n_asks);
    for (int k = 0; k < c->n_asks; k++) {
        fe_wr_str(w, c->asks[k].name);
        fe_wr_u8(w, c->asks[k].elsewhere);
    }
}

/* The questions the lowering asked, from its map. */
static void fe_cap_asks(fe_capture *c, const fe_func_map *asked)
{
    c->asks = ir_alloc(c->arena, (size_t)asked->n * sizeof *c->asks + 1);
    for (unsigned i = 0; i < asked->cap; i++)
        if (asked->keys[i])
            c->asks[c->n_asks++] = (fe_cap_ask){ir_strdup(c->arena, asked->keys[i]),
                                                asked->vals[i] == 1};
}

/* The bytes: the header, the IR's length and the IR, the checksum. */
static void fe_cap_serialise(fe_capture *c, const ir_unit *u, const fe_lowered *l)
{
    fe_wr w = {0}, body = {0};
    fe_cap_header(&w, c);
    fe_wr_unit(&body, u, l);
    fe_wr_u64(&w, body.n);
    c->body = w.n;
    fe_wr_bytes(&w, body.p, body.n);
    free(body.p);
    fe_wr_u64(&w, fe_fnv(FE_FNV_INIT, w.p, w.n));
    c->data = w.p;
    c->len = w.n - 8; /* the IR ends before the checksum */
}

fe_capture *fe_capture_lower(CXTranslationUnit tu, const fe_program_unit *unit,
                             const fe_func_map *program, double parse_seconds)
{
    fe_capture *c = tl_xcalloc(1, sizeof *c);
    c->arena = ir_unit_new("");
    c->path = ir_strdup(c->arena, unit->path);
    c->command_hash = fe_capture_command_hash(unit->argc, unit->argv);
    c->parse_seconds = parse_seconds;
    fe_cap_list l = {c, tu, 0, 0};
    clang_getInclusions(tu, fe_cap_inclusion, &l);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), fe_cap_sym_visit, &l);
    c->deps = fe_cap_own(c, c->deps, (size_t)c->n_deps * sizeof *c->deps);
    c->syms = fe_cap_own(c, c->syms, (size_t)c->n_syms * sizeof *c->syms);
    fe_func_map globals = {0};
    fe_program_file p = {.path = unit->path, .program = program, .globals = &globals};
    ir_unit *u = fe_lower_alone(tu, &p);
    fe_cap_asks(c, &p.asked);
    fe_lowered low = {p.n_lines, p.stmt_serial, p.n_externs, p.externs};
    fe_cap_serialise(c, u, &low);
    fe_func_map_free(&p.asked);
    fe_func_map_free(&globals);
    free(p.externs);
    ir_unit_free(u);
    return c;
}

fe_status fe_capture_unit(const fe_program_unit *unit, fe_capture **out)
{
    *out = NULL;
    CXIndex idx;
    CXTranslationUnit tu;
    double seconds = 0;
    fe_status st = fe_tu_parse_command(unit->path, unit->argc, unit->argv, &idx, &tu, &seconds);
    if (st == FE_OK)
        *out = fe_capture_lower(tu, unit, NULL, seconds);
    fe_tu_dispose(tu, idx);
    return st;
}

void fe_capture_free(fe_capture *c)
{
    if (!c)
        return;
    free(c->data);
    ir_unit_free(c->arena);
    free(c);
}

/* ---- reading ---- */

static bool fe_cap_read_header(fe_rd *r, fe_capture *c)
{
    c->path = fe_rd_str(r);
    c->command_hash = fe_rd_u64(r);
    c->n_deps = fe_rd_count(r, 12);
    c->deps = ir_alloc(c->arena, (size_t)c->n_deps * sizeof *c->deps + 1);
    for (int k = 0; k < c->n_deps && !r->why; k++) {
        c->deps[k].path = fe_rd_str(r);
        c->deps[k].hash = fe_rd_u64(r);
        if (!c->deps[k].path)
            fe_rd_fail(r, "the capture lists a file without a name");
    }
    c->n_syms = fe_rd_count(r, 12);
    c->syms = ir_alloc(c->arena, (size_t)c->n_syms * sizeof *c->syms + 1);
    for (int k = 0; k < c->n_syms && !r->why; k++) {
        c->syms[k].name = fe_rd_str(r);
        c->syms[k].line = fe_rd_int(r);
        c->syms[k].col = fe_rd_int(r);
        if (!c->syms[k].name)
            fe_rd_fail(r, "the capture lists a function without a name");
    }
    c->n_asks = fe_rd_count(r, 5);
    c->asks = ir_alloc(c->arena, (size_t)c->n_asks * sizeof *c->asks + 1);
    for (int k = 0; k < c->n_asks && !r->why; k++) {
        c->asks[k].name = fe_rd_str(r);
        c->asks[k].elsewhere = fe_rd_u8(r) != 0;
        if (!c->asks[k].name)
            fe_rd_fail(r, "the capture lists a function without a name");
    }
    uint64_t body = fe_rd_u64(r);
    c->body = (size_t)(r->p - c->data);
    if (!r->why && (!c->path || body != (uint64_t)(r->end - r->p)))
        fe_rd_fail(r, "the capture's parts do not add up to its length");
    return !r->why;
}

fe_capture *fe_capture_from_bytes(uint8_t *data, size_t len, const char **why)
{
    *why = NULL;
    if (len < 12 || memcmp(data, fe_cap_magic, 4) != 0) {
        *why = "not a tensorlint capture";
    } else {
        fe_rd r = {.p = data + 4, .end = data + len};
        if (fe_rd_int(&r) != FE_CAPTURE_FORMAT)
            *why = "a capture of another format version (written by another tensorlint)";
        else if (len < 24)
            *why = "the capture is truncated";
    }
    uint64_t sum = 0;
    for (int k = 0; !*why && k < 8; k++)
        sum |= (uint64_t)data[len - 8 + (size_t)k] << (8 * k);
    if (!*why && sum != fe_fnv(FE_FNV_INIT, data, len - 8))
        *why = "the capture is corrupt (its checksum does not match)";
    if (*why) {
        free(data);
        return NULL;
    }
    fe_capture *c = tl_xcalloc(1, sizeof *c);
    c->arena = ir_unit_new("");
    c->data = data;
    c->len = len;
    fe_rd r = {.p = data + 8, .end = data + len - 8, .u = c->arena};
    const char *version = fe_rd_str(&r);
    if (!r.why && (!version || strcmp(version, TL_VERSION) != 0))
        fe_rd_fail(&r, "a capture written by another version of tensorlint");
    if (!r.why)
        fe_cap_read_header(&r, c);
    if (r.why) {
        *why = r.why;
        fe_capture_free(c);
        return NULL;
    }
    c->len = len - 8; /* the IR ends before the checksum */
    return c;
}

fe_capture *fe_capture_read(const char *file, const char **why)
{
    FILE *f = fopen(file, "rb");
    if (!f) {
        *why = errno == ENOENT ? "no capture" : "the capture cannot be read";
        return NULL;
    }
    uint8_t *data = NULL;
    size_t len = 0, cap = 0, n;
    do {
        tl_xgrow(data, &cap, len + 1, 65536);
        n = fread(data + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(data);
        *why = "the capture cannot be read";
        return NULL;
    }
    return fe_capture_from_bytes(data, len, why);
}

bool fe_capture_current(const fe_capture *c, const fe_program_unit *unit, const char **why)
{
    *why = NULL;
    if (strcmp(c->path, unit->path) != 0)
        *why = "the capture is of another file";
    else if (c->command_hash != fe_capture_command_hash(unit->argc, unit->argv))
        *why = "the compile command, the tool or libclang changed";
    for (int k = 0; !*why && k < c->n_deps; k++) {
        uint64_t h;
        if (!fe_hash_file(c->deps[k].path, &h) || h != c->deps[k].hash)
            *why = "a file it read changed";
    }
    return *why == NULL;
}

/* ---- writing ---- */

/* Make every folder above file (as mkdir -p; another process making one
 * at the same moment is no failure). */
static bool fe_make_parents(const char *file)
{
    char *dir = tl_xstrdup(file);
    bool ok = true;
    for (char *s = dir + 1; ok && (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            ok = false;
        *s = '/';
    }
    free(dir);
    return ok;
}

bool fe_capture_write(const fe_capture *c, const char *file)
{
    if (!fe_make_parents(file))
        return false;
    static unsigned serial;
    char *tmp = tl_xasprintf("%s.tmp.%ld.%u", file, (long)getpid(), serial++);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(c->data, 1, c->len + 8, f) == c->len + 8;
    if (f && fclose(f) != 0)
        ok = false;
    int err = errno;
    if (ok && rename(tmp, file) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok && f)
        unlink(tmp);
    free(tmp);
    errno = err;
    return ok;
}

char *fe_capture_path(const char *build_dir, const char *path)
{
    size_t n = strlen(build_dir);
    while (n > 1 && build_dir[n - 1] == '/')
        n--;
    return tl_xasprintf("%.*s/tensorlint-capture%s%s.tlir", (int)n, build_dir,
                        path[0] == '/' ? "" : "/", path);
}
