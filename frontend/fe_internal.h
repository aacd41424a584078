/*
 * fe_internal.h: what the front end's files share (not for other modules).
 *
 * The lowering is one recursive walk over libclang cursors with a context
 * (fe_ctx) that knows the unit being built, the block statements go into,
 * and the map from declarations to variable ids.  Four walkers, by what an
 * expression or statement must produce:
 *   fe_lower_stmt        a statement: pushes IR statements into fx->cur
 *   fe_lower_tensor      a tensor value: returns the variable holding it
 *   fe_lower_int         an integer value: returns an ir_expr
 *   fe_lower_effects     a value nobody reads: only its side effects
 * Side effects inside expressions (API calls, user calls, assignments) are
 * hoisted as statements into fx->cur before the statement that uses them.
 *
 * Files: fe_parse.c (libclang, diagnostics, helpers), fe_lower.c
 * (statements, functions), fe_lower_expr.c (tensor values, assignments,
 * effects), fe_lower_call.c (calls), fe_lower_ints.c (tl_ints variables),
 * fe_place.c (places: stores, loads, aggregate copies, initializers),
 * fe_eval.c (integer values), fe_opcode.c (operators as clang parsed them).
 * The rest of the front end includes it too for its helpers: fe_program.c
 * (units linked into one program), fe_session.c (a document's parses),
 * fe_capture.c and fe_capture_rd.c (a unit's IR written and read back).
 */
#ifndef TL_FE_INTERNAL_H
#define TL_FE_INTERNAL_H

#include <clang-c/Index.h>

#include "frontend.h"
#include "deep.h"   /* parses and lowerings run on a deep stack */
#include "xalloc.h" /* every allocation of the front end: out of memory ends the process */

/* Declaration cursor -> int, open addressing on clang_hashCursor (variable
 * ids by canonical declaration; indexes into the callee cache). */
typedef struct fe_cursor_map {
    CXCursor *keys;
    int *vals;
    unsigned cap, n; /* slots, entries */
} fe_cursor_map;

/* Function name -> index in unit->funcs. */
typedef struct fe_func_map {
    const char **keys;
    int *vals;
    unsigned cap, n;
} fe_func_map;

/* A program's file being lowered into the program's unit (fe_program.c). */
typedef struct fe_program_file {
    const char *path;
    const fe_func_map *program; /* external function name -> the unit defining it; NULL:
                                 * not known (a unit captured alone guesses, fe_capture.h) */
    int stmt_serial;            /* C statements numbered so far, in every file */
    fe_func_map *globals;       /* variables of external linkage: name -> variable id, one
                                 * variable for every unit's declarations of the name */
    fe_func_map asked;          /* functions called, not defined in the file: name -> 1 when
                                 * lowered as another unit's, 0 as a library's */
    int n_externs, cap_externs;
    int *externs;               /* the variables of external linkage it made */
    int n_lines;                /* of the file */
} fe_program_file;

typedef struct fe_ctx {
    CXTranslationUnit tu;
    CXFile main_file;
    CXFile api_file;         /* the tensorlint header once seen, else NULL */
    const char *src;         /* the main file's bytes (for operator spellings) */
    size_t src_len;          /* bytes */
    ir_unit *u;
    int func;                /* index of the function being lowered */
    ir_block *cur;           /* where statements go */
    bool tensor_code;        /* the current function touched the API or a tensor */
    fe_cursor_map vars;      /* the current function's variables (small: cache-warm) */
    fe_cursor_map globals;   /* variables with static storage, for every function */
    fe_func_map funcs;
    fe_cursor_map callee_ids; /* function declaration -> index into callees */
    struct fe_callee *callees; /* what each function declaration called is */
    int n_callees, cap_callees;
    CXCursor *func_cursors;  /* definitions, by function index */
    struct fe_ints_var **ints; /* by variable id: the elements of a tl_ints variable, or NULL */
    int cap_ints;
    int stmt_serial;         /* C statements numbered so far (ir_stmt.call.stmt) */
    const char **label_names; /* the current function's labels: id label_base + k */
    int n_labels, cap_labels, label_base;
    int line_base;           /* a program's unit: lines before this file's (ir.h) */
    fe_program_file *pfile;  /* a program's file, or NULL (one file) */
    fe_func_map *program_globals; /* a program's unit: its variables of external linkage */
} fe_ctx;

/* ---- fe_parse.c: locations, types, maps ---- */

/* A program: parse one full command (paths absolute) without lowering it;
 * then lower it into the program's unit; then dispose of it. */
fe_status fe_tu_parse_command(const char *path, int argc, const char *const *argv,
                              CXIndex *idx, CXTranslationUnit *tu, double *seconds);
/* The same with text as the file's unsaved contents (NULL: the file). */
fe_status fe_tu_parse_command_text(const char *path, int argc, const char *const *argv,
                                   const char *text, size_t len, CXIndex *idx,
                                   CXTranslationUnit *tu, double *seconds);
void fe_build_program_file(CXTranslationUnit tu, ir_unit *u, fe_program_file *p);
void fe_tu_dispose(CXTranslationUnit tu, CXIndex idx);
/* A program's file lowered alone into a new unit named p->path (its lines
 * its own, p->globals a map of its own): what a capture holds. */
ir_unit *fe_lower_alone(CXTranslationUnit tu, fe_program_file *p);
/* fe_capture.c: the unit parsed as tu lowered alone and serialised;
 * program NULL: the link's table not known (guessed, fe_capture.h). */
struct fe_capture;
struct fe_program_unit;
struct fe_capture *fe_capture_lower(CXTranslationUnit tu, const struct fe_program_unit *unit,
                                    const fe_func_map *program, double parse_seconds);
/* has_tensor_code spread over the calls of funcs[first ..) */
void fe_spread_from(ir_unit *u, int first);

ir_loc fe_loc(fe_ctx *fx, CXCursor c);
ir_loc fe_loc_at(fe_ctx *fx, CXSourceLocation l);
/* File offset (bytes) of l in the main file, or -1 when it is elsewhere. */
long fe_offset(fe_ctx *fx, CXSourceLocation l);
bool fe_in_main_file(fe_ctx *fx, CXCursor c);
ir_var_kind fe_type_kind(CXType t);
bool fe_type_is_tensor(CXType t);
bool fe_type_is_tensor_ptr(CXType t); /* tl_tensor ** */
bool fe_type_is_float(CXType t);
/* Is c the null pointer constant (0, NULL, (void *)0)? */
bool fe_is_null_constant(CXCursor c);
/* The cursor's spelling, copied into the unit's arena. */
const char *fe_spelling(fe_ctx *fx, CXCursor c);
/* The C text of c from the main file's bytes, on one line (line breaks
 * and tabs folded), in the unit's arena; NULL when it is not in the main file or is
 * longer than 200 bytes. */
const char *fe_source_text(fe_ctx *fx, CXCursor c);
/* Up to max children of c into kids; returns the number of children (may exceed max). */
int fe_children(CXCursor c, CXCursor *kids, int max);
/* c without implicit casts, parentheses and (when casts) explicit casts. */
CXCursor fe_strip(CXCursor c, bool casts);

/* The value for key, or -1 when absent. */
int fe_map_get(const fe_cursor_map *m, CXCursor key);
void fe_map_put(fe_cursor_map *m, CXCursor key, int val); /* key not yet present */
void fe_map_clear(fe_cursor_map *m); /* empty; costs no more than filling it did */
void fe_map_free(fe_cursor_map *m);

int fe_var_lookup(fe_ctx *fx, CXCursor decl); /* IR_NO_VAR when absent */
void fe_var_bind(fe_ctx *fx, CXCursor decl, int var);
int fe_func_lookup(fe_ctx *fx, const char *name); /* -1 when absent */
/* name (called by call) is not defined in this file but another unit of the
 * program defines it with external linkage: a call of it is a user call the
 * link resolves.  Without the program's table, a function declared outside
 * the system headers is taken to be another unit's; each answer is kept in
 * the program file's asked (fe_capture.h). */
bool fe_func_elsewhere(fe_ctx *fx, const char *name, CXCursor call);
void fe_func_map_put(fe_func_map *m, const char *name, int index);
int fe_func_map_get(const fe_func_map *m, const char *name); /* -1 when absent */
void fe_func_map_free(fe_func_map *m);

/* A variable for declaration decl (VarDecl or ParmDecl), made on first use. */
int fe_var_of_decl(fe_ctx *fx, CXCursor decl);
/* Record that var, of type t, wraps (an unsigned integer narrower than 64 bits). */
void fe_set_wrap(fe_ctx *fx, int var, CXType t);
void fe_global_init(fe_ctx *fx, CXCursor decl, int var);
/* An UNSUPPORTED statement plus a unit note; var escapes (or IR_NO_VAR). */
void fe_unsupported(fe_ctx *fx, ir_loc loc, int var, const char *message);
void fe_push(fe_ctx *fx, ir_stmt *s);

/* ---- fe_eval.c: integer values ---- */

/* clang's constant folder on c: true and *out when c is an integer constant. */
bool fe_eval_int(CXCursor c, int64_t *out);
/* The same for a double (an integer constant converts). */
bool fe_eval_double(CXCursor c, double *out);
ir_expr *fe_lower_int(fe_ctx *fx, CXCursor c);
/* The operator's spelling between two file offsets ("+", "<<="), or NULL. */
const char *fe_op_between(fe_ctx *fx, long from, long to, char *buf, size_t size);
/* The operator of a unary, binary or compound-assignment cursor c, its
 * operands in kids[0..*n) (kids holds 2), whether a unary one is postfix. */
const char *fe_operator(fe_ctx *fx, CXCursor c, CXCursor *kids, int *n, bool *postfix,
                        char *buf, size_t size);
ir_op fe_binop_of(const char *text); /* IR_N_OPS when text is no binary operator */

/* ---- fe_opcode.c: operators as clang parsed them ---- */

/* Can operators be read from clang's nodes (the layout check passed)? */
bool fe_ast_operators(void);
/* The operator of a unary, binary or compound-assignment cursor ("+=",
 * "++" with *postfix), or NULL when it cannot be read from the node. */
const char *fe_ast_operator(CXCursor c, bool *postfix);
/* Fold e when its operands are constants. */
ir_expr *fe_fold(fe_ctx *fx, ir_expr *e);

/* ---- fe_lower_call.c: API calls, queries, user calls ---- */

typedef enum fe_callee_kind {
    FE_CALLEE_OP,       /* an op of ops.def; skip says how many leading args are file/line */
    FE_CALLEE_QUERY,    /* a query of the API */
    FE_CALLEE_API_OTHER,/* another function of the API header (tl_manual_seed ...) */
    FE_CALLEE_USER,     /* a named function outside the API */
    FE_CALLEE_POINTER   /* a call through a pointer */
} fe_callee_kind;

typedef struct fe_callee {
    fe_callee_kind kind;
    mt_op op;
    int skip;
    ir_query query;
    const char *name;
    bool noreturn;      /* USER: declared not to return (exit, abort, a _Noreturn function):
                           a call of it ends the program */
} fe_callee;

/* Is c a call of a function declared not to return (exit, abort, _Noreturn)? */
bool fe_call_noreturn(CXCursor c);
/* What call calls.  Worked out once per function declaration (cached in
 * fx->callees): a dense program calls the same few API functions
 * thousands of times. */
fe_callee fe_callee_of(fe_ctx *fx, CXCursor call);
/* Is decl (a function's) declared in the tensorlint header? */
bool fe_is_api_decl(fe_ctx *fx, CXCursor decl);
/* Lower an API op call; dst receives the result (IR_NO_VAR: a temporary when
 * want_value, else discarded).  Returns the result variable or IR_NO_VAR. */
int fe_lower_op_call(fe_ctx *fx, CXCursor call, const fe_callee *ce, int dst, bool want_value);
/* Lower a user call.  kind says what the caller wants back. */
int fe_lower_user_call(fe_ctx *fx, CXCursor call, const fe_callee *ce, int dst, ir_var_kind want);
ir_expr *fe_lower_query(fe_ctx *fx, CXCursor call, const fe_callee *ce);

/* The InitListExpr of a compound literal (tl_ints){n, {a, b}}, or null. */
CXCursor fe_literal_init(CXCursor arg);
#define FE_MAX_ELEMS 64 /* elements read from a tl_ints or tl_list literal */
/* The elements of a literal: init = {n, {e0, e1, ...}}.  Returns n, or -1
 * with *reason when n is not a constant; elems gets the element cursors. */
int fe_literal_parts(fe_ctx *fx, CXCursor init, CXCursor *elems, int max, int *n_elems,
                     const char **reason);

/* ---- fe_lower_ints.c: tl_ints variables ---- */

bool fe_type_is_ints(CXType t);
/* var (a tl_ints variable) = value. */
void fe_ints_set(fe_ctx *fx, int var, CXCursor value);
/* A tl_ints argument naming a tracked variable: fills out and returns true. */
bool fe_ints_arg(fe_ctx *fx, CXCursor arg, ir_arg *out);
/* lhs = rhs where lhs is a tl_ints variable or one of its fields: true when handled. */
bool fe_ints_store(fe_ctx *fx, CXCursor lhs, CXCursor rhs);
/* lhs (an element or field of a tl_ints variable) changed in a way not followed. */
void fe_ints_touched(fe_ctx *fx, CXCursor lhs);
/* The value of s.v[k] (constant k) or s.n for a tracked s, or NULL. */
ir_expr *fe_ints_read(fe_ctx *fx, CXCursor c);
/* var's elements are no longer known (its address escaped). */
void fe_ints_clobber(fe_ctx *fx, int var, const char *reason);

/* ---- fe_lower_expr.c: tensor values and side effects ---- */

/* The variable holding the value of tensor expression c; with dst !=
 * IR_NO_VAR the value ends up in dst. */
int fe_lower_tensor(fe_ctx *fx, CXCursor c, int dst);
void fe_lower_effects(fe_ctx *fx, CXCursor c);
/* An assignment (= or op=) or ++/--; returns the assigned variable or IR_NO_VAR. */
int fe_lower_assign(fe_ctx *fx, CXCursor c, bool *handled);
/* The same, and *updated: the integer place (not a variable) it stored to,
 * whose value is the assignment's (NULL when none). */
int fe_lower_assign_at(fe_ctx *fx, CXCursor c, bool *handled, ir_place **updated);

/* ---- fe_place.c: places, pointers, stores, initializers ---- */

bool fe_type_is_pointer(CXType t); /* a pointer that is not a tensor handle */
bool fe_type_is_array(CXType t);
bool fe_expr_is_array(CXCursor c); /* an array object (not an array-declared parameter) */
bool fe_type_is_record(CXType t);  /* a struct (a union is not modelled) */
bool fe_type_is_function(CXType t); /* a function type (what *fp designates) */
bool fe_type_is_object(CXType t);  /* a struct, an array or a pointer: lives in memory */
/* The C text of expression c (one line, at most 200 bytes), else its spelling. */
const char *fe_text(fe_ctx *fx, CXCursor c);
/* The place the lvalue c names, or NULL with *why. */
ir_place *fe_lower_place(fe_ctx *fx, CXCursor c, const char **why);
ir_place *fe_place_of_var(fe_ctx *fx, int var);
ir_place *fe_place_field(fe_ctx *fx, const ir_place *base, CXCursor field, CXCursor at);
ir_place *fe_place_index(fe_ctx *fx, const ir_place *base, ir_expr *index, CXCursor at);
/* The pointer value of c (pointer-typed, or an array that decays). */
ir_ptr *fe_lower_ptr(fe_ctx *fx, CXCursor c);
void fe_store_tensor(fe_ctx *fx, ir_loc loc, ir_place *dst, int src);
void fe_store_int(fe_ctx *fx, ir_loc loc, ir_place *dst, ir_expr *value);
void fe_store_ptr(fe_ctx *fx, ir_loc loc, ir_place *dst, ir_ptr *ptr);
void fe_fill(fe_ctx *fx, ir_loc loc, ir_place *dst, bool zero, const char *why);
/* A borrowing temporary loaded with the handle in p. */
int fe_load_tensor(fe_ctx *fx, ir_place *p, ir_loc loc);
/* value (of type t) into dst: a handle, an integer, a pointer, a struct copy. */
void fe_assign_place(fe_ctx *fx, ir_loc loc, ir_place *dst, CXType t, CXCursor value);
/* An initializer (braced or not) of dst, of type t. */
void fe_init_place(fe_ctx *fx, ir_place *dst, CXType t, CXCursor init);
/* What an external function may do to the object its i-th argument points to. */
void fe_external_pointer_arg(fe_ctx *fx, CXCursor call, const char *callee, int i, CXCursor arg);

/* ---- fe_lower.c: statements and functions ---- */

void fe_lower_stmt(fe_ctx *fx, CXCursor c);
void fe_lower_function(fe_ctx *fx, int index);

/* ---- fe_parse.c: the unit of a parsed translation unit (fe_session.c reuses it) ---- */

/* Lower tu into a new unit named path (*out); the parse took parse_seconds. */
fe_status fe_build(CXTranslationUnit tu, const char *path, double parse_seconds, ir_unit **out);

#endif /* TL_FE_INTERNAL_H */
