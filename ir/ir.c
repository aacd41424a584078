/*
 * ir.c: the IR's arena, builders, integer evaluation and text dump.
 *
 * Approach: every node of a unit comes from one arena (a list of chunks);
 * the unit is freed in one call.  Growable arrays (statements of a block,
 * the unit's variables) double inside the arena: the old copy is left
 * behind, so at most half of an array's bytes are wasted and no pointer
 * into the arena is ever freed alone.  An allocation that fails is the
 * tool's out-of-memory exit (xalloc.h): the arena is the one place the
 * front end allocates per node, and a status threaded through every
 * builder would hide the lowering logic.
 *
 * The dump is deterministic: variables print as name#id, statements in
 * source order with their line:col, so golden tests can compare text.
 */
#include "ir.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define IR_CHUNK_BYTES (64 * 1024) /* bytes per arena chunk, unless one request is larger */

typedef struct ir_chunk {
    struct ir_chunk *next;
    size_t used, size; /* bytes */
    max_align_t data[];
} ir_chunk;

struct ir_arena {
    ir_chunk *head;
};

void *ir_alloc(ir_unit *u, size_t n)
{
    size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    ir_chunk *c = u->arena->head;
    if (!c || c->size - c->used < n) {
        size_t size = n > IR_CHUNK_BYTES ? n : IR_CHUNK_BYTES;
        c = tl_xmalloc(sizeof *c + size);
        c->next = u->arena->head;
        c->used = 0;
        c->size = size;
        u->arena->head = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *ir_strdup(ir_unit *u, const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(ir_alloc(u, n), s, n);
}

char *ir_strfmt(ir_unit *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = ir_alloc(u, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* Make room for one more element in an arena array of *cap elements. */
static void *ir_grow(ir_unit *u, void *items, int n, int *cap, size_t elem)
{
    if (n < *cap)
        return items;
    int new_cap = *cap ? *cap * 2 : 8;
    void *p = ir_alloc(u, (size_t)new_cap * elem);
    if (n)
        memcpy(p, items, (size_t)n * elem);
    *cap = new_cap;
    return p;
}

ir_unit *ir_unit_new(const char *path)
{
    ir_unit *u = tl_xcalloc(1, sizeof *u);
    u->arena = tl_xcalloc(1, sizeof *u->arena);
    u->path = ir_strdup(u, path);
    u->globals_init = ir_block_new(u);
    return u;
}

void ir_unit_free(ir_unit *u)
{
    if (!u)
        return;
    for (ir_chunk *c = u->arena->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(u->arena);
    free(u);
}

/* ---- a program's files ---- */

const ir_file *ir_unit_file_at(const ir_unit *u, int line)
{
    int lo = 0, hi = u->n_files; /* binary search: the last file whose base is below line */
    if (line <= 0 || hi == 0)
        return NULL;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (u->files[mid].line_base < line)
            lo = mid;
        else
            hi = mid;
    }
    const ir_file *f = &u->files[lo];
    return line > f->line_base && line <= f->line_base + f->n_lines ? f : NULL;
}

const char *ir_unit_path_at(const ir_unit *u, int line)
{
    const ir_file *f = ir_unit_file_at(u, line);
    return f ? f->path : u->path;
}

int ir_unit_line_at(const ir_unit *u, int line)
{
    const ir_file *f = ir_unit_file_at(u, line);
    return f ? line - f->line_base : line;
}

char *ir_unit_line_text(const ir_unit *u, int line)
{
    const ir_file *f = ir_unit_file_at(u, line);
    if (!f)
        return tl_xasprintf("%d", line);
    const char *base = strrchr(f->path, '/');
    return tl_xasprintf("%d of %s", line - f->line_base, base ? base + 1 : f->path);
}

/* Append the file at path to *buf (growing it); false when it cannot be read. */
static bool ir_text_append(const char *path, char **buf, size_t *len, size_t *cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    for (size_t n = 1; n > 0;) {
        if (*cap - *len < 4096) {
            *cap = *cap * 2 + 4096;
            *buf = tl_xrealloc(*buf, *cap);
        }
        n = fread(*buf + *len, 1, *cap - *len - 2, f);
        *len += n;
    }
    bool ok = !ferror(f);
    fclose(f);
    if (*len > 0 && (*buf)[*len - 1] != '\n')
        (*buf)[(*len)++] = '\n';
    return ok;
}

char *ir_unit_program_text(const ir_unit *u, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (int k = 0; k < u->n_files; k++) {
        if (!ir_text_append(u->files[k].path, &buf, len, &cap)) {
            free(buf);
            *len = 0;
            return NULL;
        }
    }
    if (buf)
        buf[*len] = '\0';
    return buf;
}

ir_file *ir_unit_file_add(ir_unit *u, const char *path, int n_lines)
{
    ir_file *files = ir_grow(u, u->files, u->n_files, &u->cap_files, sizeof *u->files);
    ir_file *f = &files[u->n_files];
    const ir_file *prev = u->n_files ? &files[u->n_files - 1] : NULL;
    *f = (ir_file){.path = ir_strdup(u, path), .n_lines = n_lines,
                   .line_base = prev ? prev->line_base + prev->n_lines : 0,
                   .first_func = u->n_funcs};
    u->files = files;
    u->n_files++;
    return f;
}

/* ---- builders ---- */

int ir_var_new(ir_unit *u, const char *name, ir_var_kind kind, int func, ir_loc loc)
{
    u->vars = ir_grow(u, u->vars, u->n_vars, &u->cap_vars, sizeof *u->vars);
    ir_var *v = &u->vars[u->n_vars];
    *v = (ir_var){.name = name, .kind = kind, .func = func, .is_global = func < 0, .loc = loc};
    return u->n_vars++;
}

int ir_temp_new(ir_unit *u, int func, ir_loc loc)
{
    int id = ir_var_new(u, "<tmp>", IR_VAR_TENSOR, func, loc);
    u->vars[id].is_temp = true;
    return id;
}

int ir_func_add(ir_unit *u, const char *name, ir_loc loc)
{
    u->funcs = ir_grow(u, u->funcs, u->n_funcs, &u->cap_funcs, sizeof *u->funcs);
    ir_func *f = ir_alloc(u, sizeof *f);
    f->name = name;
    f->loc = loc;
    f->body = ir_block_new(u);
    u->funcs[u->n_funcs] = f;
    return u->n_funcs++;
}

int ir_ext_func(ir_unit *u, const char *name)
{
    for (int k = 0; k < u->n_ext_funcs; k++)
        if (strcmp(u->ext_funcs[k], name) == 0)
            return k;
    u->ext_funcs = ir_grow(u, u->ext_funcs, u->n_ext_funcs, &u->cap_ext_funcs,
                           sizeof *u->ext_funcs);
    u->ext_funcs[u->n_ext_funcs] = ir_strdup(u, name);
    return u->n_ext_funcs++;
}

void ir_diag_add(ir_unit *u, const ir_diag *d)
{
    u->diags = ir_grow(u, u->diags, u->n_diags, &u->cap_diags, sizeof *u->diags);
    u->diags[u->n_diags++] = *d;
    if (d->severity >= IR_SEV_ERROR)
        u->n_errors++;
}

void ir_note_add(ir_unit *u, int func, ir_loc loc, const char *message)
{
    u->notes = ir_grow(u, u->notes, u->n_notes, &u->cap_notes, sizeof *u->notes);
    u->notes[u->n_notes++] = (ir_note){.loc = loc, .func = func, .message = message};
}

static ir_expr *ir_expr_new(ir_unit *u, ir_expr_kind kind, ir_loc loc)
{
    ir_expr *e = ir_alloc(u, sizeof *e);
    e->kind = kind;
    e->loc = loc;
    e->var = IR_NO_VAR;
    e->var2 = IR_NO_VAR;
    return e;
}

ir_expr *ir_expr_const(ir_unit *u, ir_loc loc, int64_t value)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_CONST, loc);
    e->value = value;
    return e;
}

ir_expr *ir_expr_var(ir_unit *u, ir_loc loc, int var)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_VAR, loc);
    e->var = var;
    return e;
}

ir_expr *ir_expr_unary(ir_unit *u, ir_loc loc, ir_op op, ir_expr *a)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_UNARY, loc);
    e->op = op;
    e->a = a;
    return e;
}

ir_expr *ir_expr_binary(ir_unit *u, ir_loc loc, ir_op op, ir_expr *a, ir_expr *b)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_BINARY, loc);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

ir_expr *ir_expr_cond(ir_unit *u, ir_loc loc, ir_expr *a, ir_expr *b, ir_expr *c)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_COND, loc);
    e->a = a;
    e->b = b;
    e->c = c;
    return e;
}

ir_expr *ir_expr_query(ir_unit *u, ir_loc loc, ir_query q, int var, int var2, ir_expr *a)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_QUERY, loc);
    e->query = q;
    e->var = var;
    e->var2 = var2;
    e->a = a;
    return e;
}

ir_expr *ir_expr_tensor_null(ir_unit *u, ir_loc loc, int var)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_TENSOR_NULL, loc);
    e->var = var;
    return e;
}

ir_expr *ir_expr_same_handle(ir_unit *u, ir_loc loc, int a, int b)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_SAME_HANDLE, loc);
    e->var = a;
    e->var2 = b;
    return e;
}

ir_expr *ir_expr_unknown(ir_unit *u, ir_loc loc, const char *reason)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_UNKNOWN, loc);
    e->reason = reason;
    return e;
}

ir_expr *ir_expr_ptr_cmp(ir_unit *u, ir_loc loc, ir_op op, const ir_ptr *a, const ir_ptr *b)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_PTR_CMP, loc);
    e->op = op;
    e->pa = a;
    e->pb = b;
    return e;
}

ir_expr *ir_expr_place(ir_unit *u, ir_loc loc, const ir_place *p)
{
    ir_expr *e = ir_expr_new(u, IR_EXPR_PLACE, loc);
    e->place = p;
    return e;
}

ir_block *ir_block_new(ir_unit *u)
{
    return ir_alloc(u, sizeof(ir_block));
}

ir_stmt *ir_stmt_new(ir_unit *u, ir_stmt_kind kind, ir_loc loc)
{
    ir_stmt *s = ir_alloc(u, sizeof *s);
    s->kind = kind;
    s->loc = loc;
    switch (kind) {
    case IR_CALL:
        s->call.result = IR_NO_VAR;
        s->call.site = u->n_call_sites++;
        s->call.stmt = u->cur_stmt;
        break;
    case IR_RELEASE: s->release.var = IR_NO_VAR; break;
    case IR_ASSIGN_INT: s->assign_int.var = IR_NO_VAR; break;
    case IR_ASSIGN_TENSOR: s->assign_tensor.dst = s->assign_tensor.src = IR_NO_VAR; break;
    case IR_USER_CALL: s->user_call.result = IR_NO_VAR; s->user_call.callee = -1; break;
    case IR_RETURN: s->ret.var = IR_NO_VAR; break;
    case IR_UNSUPPORTED: s->unsup.var = IR_NO_VAR; break;
    case IR_LOAD: s->load.dst = IR_NO_VAR; break;
    case IR_STORE: s->store.src = IR_NO_VAR; break;
    default: break;
    }
    return s;
}

void ir_block_push(ir_unit *u, ir_block *b, ir_stmt *s)
{
    b->stmts = ir_grow(u, b->stmts, b->n_stmts, &b->cap_stmts, sizeof *b->stmts);
    b->stmts[b->n_stmts++] = s;
}

void ir_block_declare(ir_unit *u, ir_block *b, int var)
{
    b->decls = ir_grow(u, b->decls, b->n_decls, &b->cap_decls, sizeof *b->decls);
    b->decls[b->n_decls++] = var;
}

/* ---- evaluation ---- */

bool ir_op_unary(ir_op op, int64_t a, int64_t *out)
{
    switch (op) {
    case IR_OP_NEG:
        if (a == INT64_MIN)
            return false;
        *out = -a;
        return true;
    case IR_OP_NOT: *out = !a; return true;
    case IR_OP_BITNOT: *out = ~a; return true;
    default: return false;
    }
}

bool ir_op_binary(ir_op op, int64_t a, int64_t b, int64_t *out)
{
    switch (op) {
    case IR_OP_ADD: return !__builtin_add_overflow(a, b, out);
    case IR_OP_SUB: return !__builtin_sub_overflow(a, b, out);
    case IR_OP_MUL: return !__builtin_mul_overflow(a, b, out);
    case IR_OP_DIV:
    case IR_OP_REM:
        if (b == 0 || (a == INT64_MIN && b == -1))
            return false;
        *out = op == IR_OP_DIV ? a / b : a % b;
        return true;
    case IR_OP_SHL:
        if (b < 0 || b >= 63 || a < 0 || a > (INT64_MAX >> b))
            return false;
        *out = a << b;
        return true;
    case IR_OP_SHR:
        if (b < 0 || b >= 64)
            return false;
        *out = a >> b;
        return true;
    case IR_OP_LT: *out = a < b; return true;
    case IR_OP_LE: *out = a <= b; return true;
    case IR_OP_GT: *out = a > b; return true;
    case IR_OP_GE: *out = a >= b; return true;
    case IR_OP_EQ: *out = a == b; return true;
    case IR_OP_NE: *out = a != b; return true;
    case IR_OP_LAND: *out = a && b; return true;
    case IR_OP_LOR: *out = a || b; return true;
    case IR_OP_AND: *out = a & b; return true;
    case IR_OP_OR: *out = a | b; return true;
    case IR_OP_XOR: *out = a ^ b; return true;
    default: return false;
    }
}

/* && and || look at b only when a does not decide, as C does. */
static bool ir_eval_logical(const ir_expr *e, const ir_env *env, int64_t *out)
{
    int64_t a, b;
    bool known_a = ir_expr_eval(e->a, env, &a);
    if (known_a && (e->op == IR_OP_LAND ? !a : a)) {
        *out = e->op == IR_OP_LOR;
        return true;
    }
    if (!ir_expr_eval(e->b, env, &b))
        return false;
    if (!known_a) {
        /* a unknown: b alone decides only when it is the absorbing value */
        if (e->op == IR_OP_LAND ? b : !b)
            return false;
        *out = e->op == IR_OP_LOR;
        return true;
    }
    *out = b != 0;
    return true;
}

bool ir_expr_eval(const ir_expr *e, const ir_env *env, int64_t *out)
{
    int64_t a, b;
    switch (e->kind) {
    case IR_EXPR_CONST: *out = e->value; return true;
    case IR_EXPR_VAR: return env && env->var && env->var(env->ctx, e->var, out);
    case IR_EXPR_UNARY: return ir_expr_eval(e->a, env, &a) && ir_op_unary(e->op, a, out);
    case IR_EXPR_BINARY:
        if (e->op == IR_OP_LAND || e->op == IR_OP_LOR)
            return ir_eval_logical(e, env, out);
        return ir_expr_eval(e->a, env, &a) && ir_expr_eval(e->b, env, &b) &&
               ir_op_binary(e->op, a, b, out);
    case IR_EXPR_COND:
        if (!ir_expr_eval(e->a, env, &a))
            return false;
        return ir_expr_eval(a ? e->b : e->c, env, out);
    case IR_EXPR_QUERY:
    case IR_EXPR_TENSOR_NULL:
    case IR_EXPR_SAME_HANDLE: return env && env->query && env->query(env->ctx, e, out);
    case IR_EXPR_PLACE: return env && env->place && env->place(env->ctx, e->place, out);
    case IR_EXPR_PTR_CMP: return env && env->ptr_cmp && env->ptr_cmp(env->ctx, e, out);
    case IR_EXPR_UNKNOWN: return false;
    }
    return false;
}

/* ---- names ---- */

static const char *const ir_op_names[IR_N_OPS] = {
    [IR_OP_NEG] = "-",  [IR_OP_NOT] = "!",   [IR_OP_BITNOT] = "~", [IR_OP_ADD] = "+",
    [IR_OP_SUB] = "-",  [IR_OP_MUL] = "*",   [IR_OP_DIV] = "/",    [IR_OP_REM] = "%",
    [IR_OP_SHL] = "<<", [IR_OP_SHR] = ">>",  [IR_OP_LT] = "<",     [IR_OP_LE] = "<=",
    [IR_OP_GT] = ">",   [IR_OP_GE] = ">=",   [IR_OP_EQ] = "==",    [IR_OP_NE] = "!=",
    [IR_OP_LAND] = "&&", [IR_OP_LOR] = "||", [IR_OP_AND] = "&",    [IR_OP_OR] = "|",
    [IR_OP_XOR] = "^",
};

static const char *const ir_query_names[IR_N_QUERIES] = {
    [IR_Q_NDIM] = "tl_ndim",
    [IR_Q_SIZE] = "tl_size",
    [IR_Q_STRIDE] = "tl_stride",
    [IR_Q_NUMEL] = "tl_numel",
    [IR_Q_NBYTES] = "tl_nbytes",
    [IR_Q_STORAGE_OFFSET] = "tl_storage_offset",
    [IR_Q_STORAGE_NBYTES] = "tl_storage_nbytes",
    [IR_Q_IS_CONTIGUOUS] = "tl_is_contiguous",
    [IR_Q_IS_CONTIGUOUS_FORMAT] = "tl_is_contiguous_format",
    [IR_Q_DTYPE_OF] = "tl_dtype_of",
    [IR_Q_DEVICE_OF] = "tl_device_of",
    [IR_Q_SHARES_STORAGE] = "tl_shares_storage",
    [IR_Q_PRINT] = "tl_print",
    [IR_Q_ELEMENT_SIZE] = "tl_element_size",
};

static const char *const ir_stmt_names[IR_N_STMT_KINDS] = {
    [IR_CALL] = "call",           [IR_RELEASE] = "release",     [IR_ASSIGN_INT] = "int",
    [IR_ASSIGN_TENSOR] = "tensor", [IR_BLOCK] = "block",        [IR_IF] = "if",
    [IR_LOOP] = "loop",           [IR_BREAK] = "break",         [IR_CONTINUE] = "continue",
    [IR_USER_CALL] = "user-call", [IR_RETURN] = "return",       [IR_EVAL] = "eval",
    [IR_LOAD] = "load",           [IR_STORE] = "store",         [IR_COPY] = "copy",
    [IR_FILL] = "fill",           [IR_LABEL] = "label",         [IR_GOTO] = "goto",
    [IR_EXIT] = "exit",           [IR_UNSUPPORTED] = "unsupported",
};

const char *ir_op_name(ir_op op) { return op < IR_N_OPS ? ir_op_names[op] : "?"; }
const char *ir_query_name(ir_query q) { return q < IR_N_QUERIES ? ir_query_names[q] : "?"; }

const char *ir_stmt_kind_name(ir_stmt_kind k)
{
    return k < IR_N_STMT_KINDS ? ir_stmt_names[k] : "?";
}

const char *ir_severity_name(ir_severity s)
{
    static const char *const names[] = {"ignored", "note", "warning", "error", "fatal error"};
    return s <= IR_SEV_FATAL ? names[s] : "?";
}

const char *ir_var_kind_name(ir_var_kind k)
{
    static const char *const names[] = {"tensor", "int", "other"};
    return k <= IR_VAR_OTHER ? names[k] : "?";
}

/* ---- printing ---- */

static void ir_var_print(FILE *out, const ir_unit *u, int var)
{
    if (var == IR_NULL_TENSOR)
        fputs("NULL", out);
    else if (var == IR_UNKNOWN_TENSOR)
        fputs("?", out);
    else if (var < 0 || var >= u->n_vars)
        fputs("-", out);
    else
        fprintf(out, "%s#%d", u->vars[var].name, var);
}

void ir_expr_print(FILE *out, const ir_unit *u, const ir_expr *e)
{
    switch (e->kind) {
    case IR_EXPR_CONST: fprintf(out, "%" PRId64, e->value); break;
    case IR_EXPR_VAR: ir_var_print(out, u, e->var); break;
    case IR_EXPR_UNARY:
        fputs(ir_op_name(e->op), out);
        ir_expr_print(out, u, e->a);
        break;
    case IR_EXPR_BINARY:
        fputc('(', out);
        ir_expr_print(out, u, e->a);
        fprintf(out, " %s ", ir_op_name(e->op));
        ir_expr_print(out, u, e->b);
        fputc(')', out);
        break;
    case IR_EXPR_COND:
        fputc('(', out);
        ir_expr_print(out, u, e->a);
        fputs(" ? ", out);
        ir_expr_print(out, u, e->b);
        fputs(" : ", out);
        ir_expr_print(out, u, e->c);
        fputc(')', out);
        break;
    case IR_EXPR_QUERY:
        fprintf(out, "%s(", ir_query_name(e->query));
        if (e->var != IR_NO_VAR)
            ir_var_print(out, u, e->var);
        if (e->var2 != IR_NO_VAR) {
            fputs(", ", out);
            ir_var_print(out, u, e->var2);
        }
        if (e->a) {
            fputs(e->var != IR_NO_VAR ? ", " : "", out);
            ir_expr_print(out, u, e->a);
        }
        fputc(')', out);
        break;
    case IR_EXPR_TENSOR_NULL:
        fputs("isnull(", out);
        ir_var_print(out, u, e->var);
        fputc(')', out);
        break;
    case IR_EXPR_SAME_HANDLE:
        fputs("same(", out);
        ir_var_print(out, u, e->var);
        fputs(", ", out);
        ir_var_print(out, u, e->var2);
        fputc(')', out);
        break;
    case IR_EXPR_UNKNOWN: fprintf(out, "?(%s)", e->reason ? e->reason : ""); break;
    case IR_EXPR_PLACE: ir_place_print(out, u, e->place); break;
    case IR_EXPR_PTR_CMP:
        fputc('(', out);
        ir_ptr_print(out, u, e->pa);
        fprintf(out, " %s ", ir_op_name(e->op));
        ir_ptr_print(out, u, e->pb);
        fputc(')', out);
        break;
    }
}

void ir_place_print(FILE *out, const ir_unit *u, const ir_place *p)
{
    if (!p) {
        fputs("?", out);
        return;
    }
    ir_var_print(out, u, p->var);
    for (int i = 0; i < p->n_steps; i++) {
        const ir_step *st = &p->steps[i];
        switch (st->kind) {
        case IR_STEP_FIELD: fprintf(out, ".%s", st->name ? st->name : "?"); break;
        case IR_STEP_INDEX:
            fputc('[', out);
            ir_expr_print(out, u, st->index);
            fputc(']', out);
            break;
        case IR_STEP_DEREF:
            fputs("*", out);
            if (st->index) {
                fputc('[', out);
                ir_expr_print(out, u, st->index);
                fputc(']', out);
            }
            break;
        }
    }
}

void ir_ptr_print(FILE *out, const ir_unit *u, const ir_ptr *p)
{
    switch (p ? p->kind : IR_PTR_UNKNOWN) {
    case IR_PTR_NULL: fputs("NULL", out); return;
    case IR_PTR_ADDR: fputs("&", out); ir_place_print(out, u, p->place); break;
    case IR_PTR_LOAD: ir_place_print(out, u, p->place); break;
    case IR_PTR_HEAP: fputs(p->zeroed ? "heap(zeroed)" : "heap", out); break;
    case IR_PTR_FUNC:
        fprintf(out, "func %s", p->name ? p->name : "?");
        if (p->func >= 0)
            fprintf(out, "@%d", p->func);
        return;
    case IR_PTR_REALLOC:
        fputs("realloc(", out);
        ir_ptr_print(out, u, p->old);
        fputs(", ", out);
        ir_expr_print(out, u, p->size);
        fprintf(out, ") elem %lld", (long long)p->elem_size);
        break;
    case IR_PTR_UNKNOWN: fprintf(out, "?(%s)", p && p->reason ? p->reason : ""); return;
    }
    if (p->offset) {
        fputs(" + ", out);
        ir_expr_print(out, u, p->offset);
    }
}

static void ir_arg_print(FILE *out, const ir_unit *u, const ir_arg *a)
{
    switch (a->kind) {
    case IR_ARG_TENSOR: ir_var_print(out, u, a->var); break;
    case IR_ARG_INTS:
    case IR_ARG_LIST:
        if (a->kind == IR_ARG_INTS && a->n == IR_INTS_IN_PLACE) {
            fputs("ints in ", out);
            ir_place_print(out, u, a->place);
            break;
        }
        if (a->n < 0) {
            fprintf(out, "?(%s)", a->reason ? a->reason : "");
            break;
        }
        fputc('[', out);
        for (int i = 0; i < a->n; i++) {
            fputs(i ? ", " : "", out);
            if (a->kind == IR_ARG_INTS)
                ir_expr_print(out, u, a->exprs[i]);
            else
                ir_var_print(out, u, a->vars[i]);
        }
        fputc(']', out);
        break;
    case IR_ARG_DOUBLE:
        if (a->known)
            fprintf(out, "%g", a->value);
        else
            fprintf(out, "?(%s)", a->reason ? a->reason : "");
        break;
    case IR_ARG_PTR: fputs("<host>", out); break;
    default: ir_expr_print(out, u, a->expr); break;
    }
}

static void ir_uarg_print(FILE *out, const ir_unit *u, const ir_uarg *a)
{
    if (a->kind == IR_VAR_TENSOR)
        ir_var_print(out, u, a->var);
    else if (a->kind == IR_VAR_INT)
        ir_expr_print(out, u, a->expr);
    else if (a->ptr)
        ir_ptr_print(out, u, a->ptr);
    else if (a->place) {
        fputs("copy ", out);
        ir_place_print(out, u, a->place);
    } else
        fputs("_", out);
}

static void ir_block_dump(FILE *out, const ir_unit *u, const ir_block *b, int depth);

static void ir_indent(FILE *out, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
}

/* "name#id = " when var is a variable, nothing otherwise. */
static void ir_result_print(FILE *out, const ir_unit *u, int var)
{
    if (var == IR_NO_VAR)
        return;
    ir_var_print(out, u, var);
    fputs(" = ", out);
}

static void ir_labelled_block(FILE *out, const ir_unit *u, const char *label,
                              const ir_block *b, int depth)
{
    ir_indent(out, depth);
    fprintf(out, "%s:\n", label);
    ir_block_dump(out, u, b, depth + 1);
}

static void ir_call_dump(FILE *out, const ir_unit *u, const ir_stmt *s)
{
    fputs("call ", out);
    ir_result_print(out, u, s->call.result);
    fprintf(out, "tl_%s(", mt_ops[s->call.op].name);
    for (int i = 0; i < s->call.n_args; i++) {
        fputs(i ? ", " : "", out);
        ir_arg_print(out, u, &s->call.args[i]);
    }
    fputs(")\n", out);
}

static void ir_user_call_dump(FILE *out, const ir_unit *u, const ir_stmt *s)
{
    fputs("user-call ", out);
    ir_result_print(out, u, s->user_call.result);
    if (s->user_call.fn) {
        fputs("(*", out);
        ir_ptr_print(out, u, s->user_call.fn);
        fputc(')', out);
    } else {
        fprintf(out, "%s", s->user_call.name);
    }
    if (s->user_call.callee >= 0)
        fprintf(out, "@%d", s->user_call.callee);
    fputc('(', out);
    for (int i = 0; i < s->user_call.n_args; i++) {
        fputs(i ? ", " : "", out);
        ir_uarg_print(out, u, &s->user_call.args[i]);
    }
    fputs(")\n", out);
}

static void ir_loop_dump(FILE *out, const ir_unit *u, const ir_stmt *s, int depth)
{
    static const char *const kinds[] = {"for", "while", "do"};
    fprintf(out, "loop %s", kinds[s->loop.kind]);
    if (s->loop.cond) {
        fputs(" cond ", out);
        ir_expr_print(out, u, s->loop.cond);
    } else {
        fputs(" forever", out);
    }
    fputc('\n', out);
    if (s->loop.init && (s->loop.init->n_stmts || s->loop.init->n_decls))
        ir_labelled_block(out, u, "init", s->loop.init, depth + 1);
    if (s->loop.cond_pre && s->loop.cond_pre->n_stmts)
        ir_labelled_block(out, u, "cond-pre", s->loop.cond_pre, depth + 1);
    if (s->loop.step && s->loop.step->n_stmts)
        ir_labelled_block(out, u, "step", s->loop.step, depth + 1);
    ir_labelled_block(out, u, "body", s->loop.body, depth + 1);
}

static void ir_return_dump(FILE *out, const ir_unit *u, const ir_stmt *s)
{
    fputs("return", out);
    if (s->ret.var != IR_NO_VAR) {
        fputc(' ', out);
        ir_var_print(out, u, s->ret.var);
    } else if (s->ret.value) {
        fputc(' ', out);
        ir_expr_print(out, u, s->ret.value);
    } else if (s->ret.ptr) {
        fputc(' ', out);
        ir_ptr_print(out, u, s->ret.ptr);
    } else if (s->ret.place) {
        fputs(" copy ", out);
        ir_place_print(out, u, s->ret.place);
    }
    fputc('\n', out);
}

static void ir_store_dump(FILE *out, const ir_unit *u, const ir_stmt *s)
{
    fputs("store ", out);
    ir_place_print(out, u, s->store.dst);
    fputs(" = ", out);
    if (s->store.kind == IR_VAR_TENSOR)
        ir_var_print(out, u, s->store.src);
    else if (s->store.kind == IR_VAR_INT)
        ir_expr_print(out, u, s->store.value);
    else
        ir_ptr_print(out, u, s->store.ptr);
    fputs(s->store.move ? " (move)\n" : "\n", out);
}

/* An if after its location; an else arm that is one if and nothing else
 * (an else-if, with no end of its own) is printed in the loop, not by
 * recursion: chains of thousands of arms. */
static void ir_if_dump(FILE *out, const ir_unit *u, const ir_stmt *s, int depth)
{
    for (;;) {
        fputs("if ", out);
        ir_expr_print(out, u, s->branch.cond);
        fputc('\n', out);
        ir_labelled_block(out, u, "then", s->branch.then_blk, depth + 1);
        const ir_block *e = s->branch.else_blk;
        if (!e)
            return;
        if (e->n_decls || e->n_stmts != 1 || e->stmts[0]->kind != IR_IF || e->end.line) {
            ir_labelled_block(out, u, "else", e, depth + 1);
            return;
        }
        ir_indent(out, depth + 1);
        fputs("else:\n", out);
        s = e->stmts[0];
        depth += 2;
        ir_indent(out, depth);
        fprintf(out, "%d:%d ", s->loc.line, s->loc.col);
    }
}

static void ir_stmt_dump(FILE *out, const ir_unit *u, const ir_stmt *s, int depth)
{
    ir_indent(out, depth);
    fprintf(out, "%d:%d ", s->loc.line, s->loc.col);
    switch (s->kind) {
    case IR_CALL: ir_call_dump(out, u, s); break;
    case IR_RELEASE:
        fputs("release ", out);
        ir_var_print(out, u, s->release.var);
        fputc('\n', out);
        break;
    case IR_ASSIGN_INT:
        fputs("int ", out);
        ir_result_print(out, u, s->assign_int.var);
        ir_expr_print(out, u, s->assign_int.value);
        fputc('\n', out);
        break;
    case IR_ASSIGN_TENSOR:
        fputs("tensor ", out);
        ir_result_print(out, u, s->assign_tensor.dst);
        ir_var_print(out, u, s->assign_tensor.src);
        fputc('\n', out);
        break;
    case IR_BLOCK:
        fputs("block\n", out);
        ir_block_dump(out, u, s->block, depth + 1);
        break;
    case IR_IF: ir_if_dump(out, u, s, depth); break;
    case IR_LOOP: ir_loop_dump(out, u, s, depth); break;
    case IR_BREAK: fputs("break\n", out); break;
    case IR_CONTINUE: fputs("continue\n", out); break;
    case IR_USER_CALL:
        ir_user_call_dump(out, u, s);
        if (s->user_call.ext && s->user_call.ext->n_stmts)
            ir_labelled_block(out, u, "if not defined in the file", s->user_call.ext, depth + 1);
        break;
    case IR_RETURN: ir_return_dump(out, u, s); break;
    case IR_LOAD:
        fputs("load ", out);
        ir_result_print(out, u, s->load.dst);
        ir_place_print(out, u, s->load.src);
        fputc('\n', out);
        break;
    case IR_STORE: ir_store_dump(out, u, s); break;
    case IR_COPY:
        fputs("copy ", out);
        ir_place_print(out, u, s->copy.dst);
        fputs(" = ", out);
        ir_place_print(out, u, s->copy.src);
        fputc('\n', out);
        break;
    case IR_FILL:
        fputs("fill ", out);
        ir_place_print(out, u, s->fill.dst);
        fprintf(out, s->fill.zero ? " zero\n" : " unknown \"%s\"\n", s->fill.why ? s->fill.why : "");
        break;
    case IR_LABEL: fprintf(out, "label %s#%d\n", s->label.name, s->label.id); break;
    case IR_GOTO: fprintf(out, "goto %s#%d\n", s->label.name, s->label.id); break;
    case IR_EXIT: fprintf(out, "exit \"%s\"\n", s->text ? s->text : ""); break;
    case IR_EVAL:
        fputs("eval ", out);
        ir_expr_print(out, u, s->eval.expr);
        fputc('\n', out);
        break;
    case IR_UNSUPPORTED:
        fprintf(out, "unsupported \"%s\"", s->unsup.message);
        if (s->unsup.var != IR_NO_VAR) {
            fputs(" escapes ", out);
            ir_var_print(out, u, s->unsup.var);
        }
        fputc('\n', out);
        break;
    case IR_N_STMT_KINDS: break;
    }
}

static void ir_block_dump(FILE *out, const ir_unit *u, const ir_block *b, int depth)
{
    if (b->n_decls) {
        ir_indent(out, depth);
        fputs("decls", out);
        for (int i = 0; i < b->n_decls; i++) {
            fputc(' ', out);
            ir_var_print(out, u, b->decls[i]);
        }
        fputc('\n', out);
    }
    for (int i = 0; i < b->n_stmts; i++)
        ir_stmt_dump(out, u, b->stmts[i], depth);
    if (b->end.line) {
        ir_indent(out, depth);
        fprintf(out, "%d:%d end\n", b->end.line, b->end.col);
    }
}

static void ir_func_dump(FILE *out, const ir_unit *u, int index)
{
    const ir_func *f = u->funcs[index];
    fprintf(out, "func @%d %s%s(", index, f->is_static ? "static " : "", f->name);
    for (int i = 0; i < f->n_params; i++) {
        const ir_var *v = &u->vars[f->params[i]];
        fprintf(out, "%s%s %s#%d", i ? ", " : "", ir_var_kind_name(v->kind), v->name, f->params[i]);
    }
    fprintf(out, ") -> %s at %d:%d", f->returns_tensor ? "tensor" : f->returns_int ? "int" : "other",
            f->loc.line, f->loc.col);
    if (f->address_taken)
        fputs(" (address taken)", out);
    if (!f->has_tensor_code) {
        fputs(" (no tensor code)\n", out);
        return;
    }
    fputc('\n', out);
    ir_block_dump(out, u, f->body, 1);
}

void ir_diag_print(FILE *out, const ir_diag *d)
{
    if (d->file)
        fprintf(out, "%s:%d:%d: ", d->file, d->line, d->col);
    else
        fputs("tensorlint: ", out);
    fprintf(out, "%s: %s", ir_severity_name(d->severity), d->message);
    if (d->option && *d->option)
        fprintf(out, " [%s]", d->option);
    fputc('\n', out);
}

void ir_unit_dump(FILE *out, const ir_unit *u)
{
    fprintf(out, "unit %s\n", u->path);
    for (int i = 0; i < u->n_diags; i++) {
        const ir_diag *d = &u->diags[i];
        const char *base = d->file ? strrchr(d->file, '/') : NULL;
        fprintf(out, "diag %s %s:%d:%d %s\n", ir_severity_name(d->severity),
                base ? base + 1 : d->file ? d->file : "-", d->line, d->col, d->message);
    }
    for (int i = 0; i < u->n_notes; i++)
        fprintf(out, "note %d:%d %s\n", u->notes[i].loc.line, u->notes[i].loc.col,
                u->notes[i].message);
    if (u->globals_init && u->globals_init->n_stmts) {
        fputs("globals\n", out);
        ir_block_dump(out, u, u->globals_init, 1);
    }
    for (int i = 0; i < u->n_funcs; i++)
        ir_func_dump(out, u, i);
}
