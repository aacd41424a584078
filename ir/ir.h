/*
 * ir.h: the intermediate representation the front end produces and the
 * abstract interpreter runs.
 *
 * One ir_unit per parsed C file.  It holds every function defined in that
 * file (in source order), the variables of the whole unit (one id per
 * declaration, so shadowing never merges two variables), clang's
 * diagnostics, and notes about constructs the front end could not lower.
 *
 * A function body is a tree of blocks of statements in source order: API
 * calls (with their arguments already classified by the op's signature in
 * ops.def), releases, integer and handle assignments, if/else, loops,
 * break/continue, calls of user functions and returns.  Integer
 * expressions (shapes, dims, loop bounds) are small trees over constants
 * and integer variables; anything else is an UNKNOWN leaf with a reason.
 *
 * Invariants:
 *  - every location is a (line, column) in the unit's main file, 1-based,
 *    columns in bytes; a call produced by a macro is placed at the macro's
 *    use site (its expansion location).  A unit that holds a whole program
 *    (several files linked, fe_program.h) numbers its lines as clang's
 *    source manager numbers offsets: file k's line L is program line
 *    files[k].line_base + L, the files' lines one after another, so lines
 *    of two files never meet; ir_unit_file_at maps one back;
 *  - variable ids index unit->vars; a tensor operand is a variable id or
 *    one of IR_NULL_TENSOR / IR_UNKNOWN_TENSOR (the latter always follows
 *    an UNSUPPORTED statement that says why);
 *  - nested API calls are hoisted: the inner call is a CALL into a fresh
 *    temporary variable (is_temp) placed before the statement that uses it;
 *  - all memory belongs to the unit's arena: ir_unit_free() frees it all,
 *    and nothing in a unit is freed or moved before that.
 */
#ifndef TL_IR_H
#define TL_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "meta.h" /* mt_op, the op table */

typedef struct ir_arena ir_arena;
typedef struct ir_expr ir_expr;
typedef struct ir_stmt ir_stmt;
typedef struct ir_block ir_block;

/* ---- locations and variables ---- */

typedef struct ir_loc {
    int line; /* 1-based; 0 when unknown */
    int col;  /* 1-based, bytes */
} ir_loc;

/* Special values where a variable id is expected. */
#define IR_NO_VAR (-1)         /* no variable: a discarded result, a bare return */
#define IR_NULL_TENSOR (-2)    /* the null handle (NULL, 0) */
#define IR_UNKNOWN_TENSOR (-3) /* a handle the front end cannot follow (an UNSUPPORTED says why) */

typedef enum ir_var_kind {
    IR_VAR_TENSOR, /* of type tl_tensor * (const-qualified too) */
    IR_VAR_INT,    /* any integer, bool, char or enum type; also the hidden
                    * elements "s[0]", "s[1]" of a tl_ints variable s */
    IR_VAR_OTHER   /* anything else: floats, pointers, structs, arrays */
} ir_var_kind;

typedef struct ir_var {
    const char *name; /* "<tmp>" for a temporary */
    ir_var_kind kind;
    bool is_temp;     /* made by the front end for a nested call: reports show null as its name */
    bool is_borrow;   /* a temporary that reads a handle a place holds: it owns nothing */
    bool is_carrier;  /* a call's result on its way into a place: named after the place */
    bool is_param;
    bool is_global;   /* a file-scope variable (func is -1) */
    bool is_const;    /* const-qualified: its initializer holds in every root */
    uint8_t wrap_bits; /* an unsigned integer narrower than 64 bits: its values wrap modulo
                          2^wrap_bits, as C's do (0: none) */
    int func;         /* index in unit->funcs of the owning function, -1 for a global */
    ir_loc loc;       /* the declaration (for a temporary: the call it holds) */
} ir_var;

/* ---- places: where C keeps a value ---- */

/* A place is a variable followed by a path of steps, the C lvalue
 * `w->layers[l].wq` as var w, DEREF, FIELD layers, INDEX l, FIELD wq.
 * Handles, integers and pointers live in places; the interpreter resolves
 * a place to a location (an object and a path of concrete keys) when the
 * statement runs, so an index or a pointer is read at that moment. */
typedef enum ir_step_kind {
    IR_STEP_FIELD, /* .name: key is the field's bit offset in its struct */
    IR_STEP_INDEX, /* [index] of an array object */
    IR_STEP_DEREF  /* the object the pointer here points to, index elements on
                    * (p[i]; index NULL: *p) */
} ir_step_kind;

typedef struct ir_step {
    ir_step_kind kind;
    int64_t key;        /* FIELD */
    const char *name;   /* FIELD: the field's name */
    ir_expr *index;     /* INDEX; DEREF: the element offset or NULL */
} ir_step;

typedef struct ir_place {
    int var;            /* the root variable */
    int n_steps;
    ir_step *steps;
    const char *text;   /* its C spelling: "w->layers[l].wq" */
} ir_place;

/* A pointer value, as a statement stores it. */
typedef enum ir_ptr_kind {
    IR_PTR_NULL,    /* NULL, 0 */
    IR_PTR_ADDR,    /* &place (an array place: its first element, as C decays it) */
    IR_PTR_LOAD,    /* the pointer held in place */
    IR_PTR_HEAP,    /* malloc/calloc/realloc(NULL, n): a new heap block */
    IR_PTR_FUNC,    /* a function designator (f, &f): a pointer naming the function */
    IR_PTR_REALLOC, /* realloc(old, size): a new heap block holding old's contents */
    IR_PTR_UNKNOWN  /* anything else; reason says what */
} ir_ptr_kind;

typedef struct ir_ptr ir_ptr;
struct ir_ptr {
    ir_ptr_kind kind;
    ir_place *place;    /* ADDR, LOAD */
    ir_expr *offset;    /* elements added (p + i, &a[i] as a[0] + i), or NULL */
    bool zeroed;        /* HEAP: calloc's block reads as zeros */
    bool elem;          /* ADDR: the place is an array element (p[i] moves along it) */
    const char *reason; /* UNKNOWN */
    int func;           /* FUNC: index in unit->funcs, or -1: not defined in the unit */
    int ext;            /* FUNC with func -1: index in unit->ext_funcs */
    const char *name;   /* FUNC: the function's name */
    ir_ptr *old;        /* REALLOC: the block given back */
    ir_expr *size;      /* REALLOC: the new size in bytes */
    int64_t elem_size;  /* REALLOC: bytes of the element the result points to (0: not known) */
};

/* ---- integer expressions ---- */

typedef enum ir_expr_kind {
    IR_EXPR_CONST,       /* value */
    IR_EXPR_VAR,         /* read of integer variable var */
    IR_EXPR_UNARY,       /* op a */
    IR_EXPR_BINARY,      /* a op b */
    IR_EXPR_COND,        /* a ? b : c */
    IR_EXPR_QUERY,       /* an API query on tensor var (and var2), with argument a */
    IR_EXPR_TENSOR_NULL, /* 1 when the handle in tensor var is null, else 0 */
    IR_EXPR_PLACE,       /* read of the integer held in place */
    IR_EXPR_PTR_CMP,     /* pa op pb on two pointer values (== != < <= > >=) */
    IR_EXPR_SAME_HANDLE, /* 1 when tensor vars var and var2 hold one handle (a == b), else 0 */
    IR_EXPR_UNKNOWN      /* not computable by the front end; reason says why */
} ir_expr_kind;

/* Operators, with C's meaning on int64_t ("&&" and "||" give 0 or 1). */
typedef enum ir_op {
    IR_OP_NEG, IR_OP_NOT, IR_OP_BITNOT,                               /* unary - ! ~ */
    IR_OP_ADD, IR_OP_SUB, IR_OP_MUL, IR_OP_DIV, IR_OP_REM,            /* + - * / % */
    IR_OP_SHL, IR_OP_SHR,                                             /* << >> */
    IR_OP_LT, IR_OP_LE, IR_OP_GT, IR_OP_GE, IR_OP_EQ, IR_OP_NE,       /* < <= > >= == != */
    IR_OP_LAND, IR_OP_LOR, IR_OP_AND, IR_OP_OR, IR_OP_XOR,            /* && || & | ^ */
    IR_N_OPS
} ir_op;

/* Queries of the API (no op in ops.def: they create nothing, but they read
 * a handle, so a query of a released handle is a use after release). */
typedef enum ir_query {
    IR_Q_NDIM,                 /* tl_ndim(var) */
    IR_Q_SIZE,                 /* tl_size(var, a) */
    IR_Q_STRIDE,               /* tl_stride(var, a) */
    IR_Q_NUMEL,                /* tl_numel(var) */
    IR_Q_NBYTES,               /* tl_nbytes(var) */
    IR_Q_STORAGE_OFFSET,       /* tl_storage_offset(var) */
    IR_Q_STORAGE_NBYTES,       /* tl_storage_nbytes(var) */
    IR_Q_IS_CONTIGUOUS,        /* tl_is_contiguous(var) */
    IR_Q_IS_CONTIGUOUS_FORMAT, /* tl_is_contiguous_format(var, a) */
    IR_Q_DTYPE_OF,             /* tl_dtype_of(var) */
    IR_Q_DEVICE_OF,            /* tl_device_of(var) */
    IR_Q_SHARES_STORAGE,       /* tl_shares_storage(var, var2) */
    IR_Q_PRINT,                /* tl_print(var): void, value 0 */
    IR_Q_ELEMENT_SIZE,         /* tl_element_size(a): no tensor, var is IR_NO_VAR */
    IR_N_QUERIES
} ir_query;

struct ir_expr {
    ir_expr_kind kind;
    ir_loc loc;
    int64_t value;      /* CONST */
    int var;            /* VAR, QUERY, TENSOR_NULL, SAME_HANDLE */
    int var2;           /* QUERY: the second tensor of SHARES_STORAGE; SAME_HANDLE: the other
                         * side; else IR_NO_VAR */
    ir_op op;           /* UNARY, BINARY */
    ir_query query;     /* QUERY */
    ir_expr *a, *b, *c; /* operands; QUERY: a is the integer argument or NULL */
    const char *reason; /* UNKNOWN: "call of f()", "non-const global g", "float expression" */
    const ir_place *place; /* PLACE */
    const ir_ptr *pa, *pb; /* PTR_CMP */
};

/* ---- API call arguments, classified by the op's signature letter ---- */

typedef enum ir_arg_kind {
    IR_ARG_TENSOR = 't', /* var */
    IR_ARG_LIST = 'L',   /* n vars (n is -1 when the list is not a TL_LIST literal) */
    IR_ARG_INTS = 'S',   /* n exprs: a TL_SHAPE literal, or the elements of a tl_ints
                          * variable; n is -1 when unknown (reason says why), and
                          * IR_INTS_IN_PLACE when a tl_ints object in memory holds them */
    IR_ARG_INT = 'i',    /* expr */
    IR_ARG_BOOL = 'b',   /* expr */
    IR_ARG_DOUBLE = 'f', /* known, value */
    IR_ARG_DTYPE = 'y',  /* expr (tl_dtype value) */
    IR_ARG_DEVICE = 'v', /* expr (tl_device value) */
    IR_ARG_FORMAT = 'm', /* expr (tl_format value) */
    IR_ARG_PTR = 'p'     /* host memory: lowered for its effects only (the analysis needs
                          * no data) */
} ir_arg_kind;

#define IR_INTS_IN_PLACE (-2) /* ir_arg.n: read count and values from place when the call runs */

typedef struct ir_arg {
    ir_arg_kind kind;
    int var;            /* TENSOR: variable id, IR_NULL_TENSOR or IR_UNKNOWN_TENSOR */
    int n;              /* INTS: number of integers; LIST: number of tensors; -1 unknown */
    ir_expr **exprs;    /* INTS: n expressions */
    int *vars;          /* LIST: n tensor operands, as for TENSOR */
    ir_expr *expr;      /* INT, BOOL, DTYPE, DEVICE, FORMAT */
    bool known;         /* DOUBLE: value is known */
    double value;       /* DOUBLE */
    const char *reason; /* INTS/LIST with n == -1, DOUBLE not known: why */
    ir_place *place;    /* INTS with n == IR_INTS_IN_PLACE: a tl_ints object */
    int64_t key_n, key_v; /* its fields n and v (bit offsets, as field steps key them) */
} ir_arg;

/* An argument of a call of a user function, by the parameter's kind. */
typedef struct ir_uarg {
    ir_var_kind kind; /* of the argument expression */
    int var;          /* TENSOR: as for ir_arg */
    ir_expr *expr;    /* INT */
    ir_ptr *ptr;      /* OTHER: a pointer argument, or NULL */
    ir_place *place;  /* OTHER: a struct passed by value (copied), or NULL */
} ir_uarg;

/* ---- statements ---- */

typedef enum ir_stmt_kind {
    IR_CALL,          /* call: an API call (not tl_release) */
    IR_RELEASE,       /* release: tl_release(var) */
    IR_ASSIGN_INT,    /* assign_int: var = value */
    IR_ASSIGN_TENSOR, /* assign_tensor: dst = src, a plain copy of the handle */
    IR_BLOCK,         /* block: a nested { } scope */
    IR_IF,            /* branch: if (cond) then_blk else else_blk */
    IR_LOOP,          /* loop */
    IR_BREAK,
    IR_CONTINUE,
    IR_USER_CALL,     /* user_call: a call of a function that is not the API */
    IR_RETURN,        /* ret */
    IR_EVAL,          /* eval: an expression evaluated for its queries (tl_print(x);) */
    IR_LOAD,          /* load: tensor variable dst = the handle held in place src */
    IR_STORE,         /* store: place dst = a handle, an integer or a pointer */
    IR_COPY,          /* copy: place dst = place src, the whole object (struct assignment) */
    IR_FILL,          /* fill: everything in place dst becomes zero, or unknown */
    IR_LABEL,         /* label: a goto target */
    IR_GOTO,          /* jump: goto label */
    IR_EXIT,          /* the program ends here: the call before it (exit, abort, any function
                       * declared not to return) does not come back; text is that call */
    IR_UNSUPPORTED,   /* unsup: a construct not lowered; the analysis goes on after it */
    IR_N_STMT_KINDS
} ir_stmt_kind;

typedef enum ir_loop_kind { IR_LOOP_FOR, IR_LOOP_WHILE, IR_LOOP_DO } ir_loop_kind;

struct ir_stmt {
    ir_stmt_kind kind;
    ir_loc loc; /* CALL: the expansion location of the call */
    const char *text; /* the C text, for messages: IF, the condition under which then_blk
                       * runs; RETURN, GOTO, EXIT, the statement; NULL otherwise or unknown */
    union {
        struct {
            mt_op op;
            int result; /* variable id receiving the new handle, or IR_NO_VAR (void op, discarded) */
            int n_args; /* == strlen(mt_ops[op].signature) */
            ir_arg *args;
            int site;   /* this call's index among the unit's CALLs (0 .. n_call_sites-1) */
            int stmt;   /* the C statement (full expression) it is part of: calls with the
                         * same number may run in any order C allows */
        } call;
        struct {
            int var; /* variable id, IR_NULL_TENSOR or IR_UNKNOWN_TENSOR */
        } release;
        struct {
            int var;
            ir_expr *value;
        } assign_int;
        struct {
            int dst;
            int src; /* variable id, IR_NULL_TENSOR or IR_UNKNOWN_TENSOR */
        } assign_tensor;
        ir_block *block;
        struct {
            ir_expr *cond;
            ir_block *then_blk;
            ir_block *else_blk; /* NULL when there is no else */
            const char *else_text; /* the last if of an else-if chain or a switch that has a
                                    * final else (default): the C condition under which the
                                    * run takes one of the chain's arms, not that else
                                    * ("a == 1 || a == 2"); "" when a part has no text;
                                    * NULL otherwise (the negation of text) */
        } branch;
        struct {
            ir_loop_kind kind;
            ir_block *init;     /* FOR: the init clause; its decls live until the loop ends */
            ir_block *cond_pre; /* statements hoisted out of cond, run before each test */
            ir_expr *cond;      /* NULL: no condition, an infinite loop */
            ir_block *step;     /* FOR: the increment clause */
            ir_block *body;     /* DO: runs before the first test */
        } loop;
        struct {
            int callee;       /* index in unit->funcs, or -1: not defined in this file (or
                               * called through a pointer) */
            const char *name; /* the callee's name; fn: the pointer expression's C spelling */
            int result;       /* variable id receiving the returned value, or IR_NO_VAR */
            int n_args;
            ir_uarg *args;
            ir_ptr *fn;       /* a call through a pointer (callee -1): the function it points
                               * to when the statement runs is the callee; NULL otherwise */
            ir_block *ext;    /* fn: what a callee not defined in the file does to the objects
                               * its pointer arguments point to (FILLs), run when fn names no
                               * function of the file */
        } user_call;
        struct {
            int var;        /* returned tensor: variable id or a special value; IR_NO_VAR otherwise */
            ir_expr *value; /* returned integer, or NULL */
            ir_ptr *ptr;    /* returned pointer, or NULL */
            ir_place *place; /* returned struct (copied out), or NULL */
        } ret;
        struct {
            ir_expr *expr;
        } eval;
        struct {
            int dst;          /* a tensor variable */
            ir_place *src;
        } load;
        struct {
            ir_place *dst;
            ir_var_kind kind; /* TENSOR: src; INT: value; OTHER: ptr */
            int src;          /* variable id, IR_NULL_TENSOR or IR_UNKNOWN_TENSOR */
            bool move;        /* src is a temporary that gives its handle up */
            ir_expr *value;
            ir_ptr *ptr;
        } store;
        struct {
            ir_place *dst, *src;
            bool arrays; /* memcpy: dst and src are element pointers; copy their arrays */
        } copy;
        struct {
            ir_place *dst;
            bool zero;          /* zeros (memset 0, = {0}); else unknown */
            bool data;          /* !zero: elements of a tensor (tl_copy_to_host), not sizes */
            const char *why;    /* !zero: why the contents are no longer known */
        } fill;
        struct {
            int id;             /* the label: unique in the unit */
            const char *name;
        } label;
        struct {
            const char *message; /* "goto", "tensor handle stored in an array element" */
            int var;             /* a tensor variable whose handle escapes here, or IR_NO_VAR */
        } unsup;
    };
};

/* Loop init/step/cond_pre and if arms are blocks too; only a block that is a
 * C compound statement (or a loop body, or a function body) declares
 * variables.  The tensor variables in decls go out of scope at `end`. */
struct ir_block {
    int n_stmts;
    ir_stmt **stmts;
    int n_decls;
    int *decls;  /* tensor variables declared directly in this block, in order */
    ir_loc end;  /* the closing brace; {0,0} for a block with no braces */
    int cap_stmts, cap_decls; /* builder state */
};

/* ---- functions, diagnostics, the unit ---- */

typedef struct ir_func {
    const char *name;
    ir_loc loc;          /* the function's name in its definition */
    ir_loc end;          /* the closing brace */
    int n_params;
    int *params;         /* variable ids, in order (kind says tensor / int / other) */
    bool returns_tensor; /* the return type is tl_tensor * */
    bool returns_int;
    bool is_static;
    bool has_tensor_code; /* uses the API, a tensor variable, or calls a function that does
                           * (a call through a pointer may call any function whose address
                           * is taken) */
    bool address_taken;  /* a pointer to it is made outside its own body: calls through
                          * pointers may reach it */
    ir_block *body;
} ir_func;

typedef enum ir_severity {
    IR_SEV_IGNORED, IR_SEV_NOTE, IR_SEV_WARNING, IR_SEV_ERROR, IR_SEV_FATAL /* clang's order */
} ir_severity;

/* A diagnostic passed through from clang. */
typedef struct ir_diag {
    ir_severity severity;
    const char *file;    /* NULL for a diagnostic with no location (a driver error) */
    int line, col;
    const char *message; /* without location and severity */
    const char *option;  /* "-Wunused-variable" or "" */
} ir_diag;

/* A construct the front end did not lower (mirrors the UNSUPPORTED statements). */
typedef struct ir_note {
    ir_loc loc;
    int func; /* index in funcs, or -1 */
    const char *message;
} ir_note;

/* One source file of a program unit: its lines are program lines
 * line_base + 1 .. line_base + n_lines. */
typedef struct ir_file {
    const char *path;  /* as the compile database names it, made absolute */
    int line_base;     /* lines of the files before it */
    int n_lines;
    int first_func;    /* its functions are funcs[first_func .. first_func + n_funcs) */
    int n_funcs;
} ir_file;

typedef struct ir_unit {
    const char *path; /* the file as given; a program: its first file */
    int n_funcs;
    ir_func **funcs;  /* every function defined in the file, in source order */
    int n_vars;
    ir_var *vars;     /* indexed by variable id; stable once the unit is built */
    int n_diags;
    ir_diag *diags;   /* in clang's order */
    int n_errors;     /* diags of severity error or fatal */
    int n_link_errors; /* of those, two units defining one external name (fe_program.c) */
    int n_notes;
    ir_note *notes;
    int n_call_sites; /* CALL statements made (ir_stmt.call.site numbers them) */
    int n_labels;     /* LABEL ids made */
    int cur_stmt;     /* builder state: the C statement being lowered (call.stmt) */
    int n_heap_sites; /* IR_PTR_HEAP pointers made */
    int n_ext_funcs;  /* functions not defined in the file whose address is taken */
    const char **ext_funcs; /* their names (IR_PTR_FUNC ext indexes them) */
    int cap_ext_funcs; /* builder state */
    ir_block *globals_init; /* the initializers of file-scope and static variables, run
                             * once before each root */
    ir_arena *arena;
    int cap_funcs, cap_vars, cap_diags, cap_notes; /* builder state */
    double parse_seconds; /* libclang's parse of the file (wall clock) */
    int n_files;      /* 0: one file, path, its lines as they are; else a program */
    ir_file *files;   /* a program's files, in the compile database's order */
    int cap_files;    /* builder state */
} ir_unit;

/* ---- the unit and its arena ---- */

/* Out of memory, these end the process (xalloc.h): they never return NULL. */
ir_unit *ir_unit_new(const char *path);
void ir_unit_free(ir_unit *u);        /* frees the unit and everything in it; NULL is ignored */
void *ir_alloc(ir_unit *u, size_t n); /* zeroed memory from the arena */
char *ir_strdup(ir_unit *u, const char *s);
char *ir_strfmt(ir_unit *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- a program's files ---- */

/* The file holding program line (NULL for a one-file unit, or a line of no file). */
const ir_file *ir_unit_file_at(const ir_unit *u, int line);
/* The path of the file holding line (u->path for a one-file unit). */
const char *ir_unit_path_at(const ir_unit *u, int line);
/* line in its own file (the line itself for a one-file unit; 0 stays 0). */
int ir_unit_line_at(const ir_unit *u, int line);
/* A line for a message: "12" in a one-file unit, "12 of model.c" (the
 * file's own line and the file's name) in a program; to free(). */
char *ir_unit_line_text(const ir_unit *u, int line);
/* A program's text: its files one after another, each ending with a line
 * break, so that program lines index it (NULL when a file cannot be read,
 * and for a one-file unit); *len bytes, NUL-terminated, to free(). */
char *ir_unit_program_text(const ir_unit *u, size_t *len);
/* Append a file of n_lines lines; its line base follows the files before. */
ir_file *ir_unit_file_add(ir_unit *u, const char *path, int n_lines);

/* ---- builders ---- */

int ir_var_new(ir_unit *u, const char *name, ir_var_kind kind, int func, ir_loc loc);
int ir_temp_new(ir_unit *u, int func, ir_loc loc); /* a tensor temporary */
int ir_func_add(ir_unit *u, const char *name, ir_loc loc); /* index of a new empty function */
int ir_ext_func(ir_unit *u, const char *name); /* index of name in u->ext_funcs (added once) */
void ir_diag_add(ir_unit *u, const ir_diag *d);
void ir_note_add(ir_unit *u, int func, ir_loc loc, const char *message);

ir_expr *ir_expr_const(ir_unit *u, ir_loc loc, int64_t value);
ir_expr *ir_expr_var(ir_unit *u, ir_loc loc, int var);
ir_expr *ir_expr_unary(ir_unit *u, ir_loc loc, ir_op op, ir_expr *a);
ir_expr *ir_expr_binary(ir_unit *u, ir_loc loc, ir_op op, ir_expr *a, ir_expr *b);
ir_expr *ir_expr_cond(ir_unit *u, ir_loc loc, ir_expr *a, ir_expr *b, ir_expr *c);
ir_expr *ir_expr_query(ir_unit *u, ir_loc loc, ir_query q, int var, int var2, ir_expr *a);
ir_expr *ir_expr_tensor_null(ir_unit *u, ir_loc loc, int var);
ir_expr *ir_expr_same_handle(ir_unit *u, ir_loc loc, int a, int b);
ir_expr *ir_expr_unknown(ir_unit *u, ir_loc loc, const char *reason);
ir_expr *ir_expr_place(ir_unit *u, ir_loc loc, const ir_place *p);
ir_expr *ir_expr_ptr_cmp(ir_unit *u, ir_loc loc, ir_op op, const ir_ptr *a, const ir_ptr *b);

ir_block *ir_block_new(ir_unit *u);
ir_stmt *ir_stmt_new(ir_unit *u, ir_stmt_kind kind, ir_loc loc); /* fields zeroed, vars IR_NO_VAR */
void ir_block_push(ir_unit *u, ir_block *b, ir_stmt *s);
void ir_block_declare(ir_unit *u, ir_block *b, int var);

/* ---- evaluation (shared by the front end's folding and the interpreter) ---- */

/* Apply op with C's meaning on int64_t.  False when undefined (division by
 * zero, overflow, a shift out of range). */
bool ir_op_unary(ir_op op, int64_t a, int64_t *out);
bool ir_op_binary(ir_op op, int64_t a, int64_t b, int64_t *out);

/* The interpreter's view of the state: the value of integer variable var, or
 * of an IR_EXPR_QUERY / IR_EXPR_TENSOR_NULL / IR_EXPR_SAME_HANDLE expression
 * q; return false when
 * unknown.  query may be NULL (all queries unknown). */
typedef struct ir_env {
    bool (*var)(void *ctx, int var, int64_t *out);
    bool (*query)(void *ctx, const ir_expr *q, int64_t *out);
    bool (*place)(void *ctx, const ir_place *p, int64_t *out); /* may be NULL */
    void *ctx;
    bool (*ptr_cmp)(void *ctx, const ir_expr *e, int64_t *out); /* may be NULL */
} ir_env;

/* Evaluate e; false when any value it needs is unknown.  env may be NULL
 * (only constants are known).  && || ?: evaluate only what C evaluates. */
bool ir_expr_eval(const ir_expr *e, const ir_env *env, int64_t *out);

/* ---- names and the text dump ---- */

const char *ir_op_name(ir_op op);            /* "+", "<=" */
const char *ir_query_name(ir_query q);       /* "tl_size" */
const char *ir_stmt_kind_name(ir_stmt_kind k); /* "call" */
const char *ir_severity_name(ir_severity s); /* "error" */
const char *ir_var_kind_name(ir_var_kind k); /* "tensor" */

/* Print e in C syntax, with variable names: "(n * 2)", "?(call of f())". */
void ir_expr_print(FILE *out, const ir_unit *u, const ir_expr *e);
void ir_place_print(FILE *out, const ir_unit *u, const ir_place *p);
void ir_ptr_print(FILE *out, const ir_unit *u, const ir_ptr *p);
/* The whole unit as indented text (the dump-ir command; golden tests). */
void ir_unit_dump(FILE *out, const ir_unit *u);
/* One diagnostic, clang style: "file:line:col: error: message". */
void ir_diag_print(FILE *out, const ir_diag *d);

#endif /* TL_IR_H */
