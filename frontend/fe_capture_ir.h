/*
 * fe_capture_ir.h: the byte writer and reader of captures, and a unit's IR
 * written and read (fe_capture_ir.c, fe_capture_rd.c); the frontend's own.
 */
#ifndef TL_FE_CAPTURE_IR_H
#define TL_FE_CAPTURE_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

typedef struct fe_wr {
    uint8_t *p;
    size_t n, cap;
} fe_wr;

void fe_wr_bytes(fe_wr *w, const void *b, size_t n);
void fe_wr_u64(fe_wr *w, uint64_t v);
void fe_wr_int(fe_wr *w, int v);
void fe_wr_u8(fe_wr *w, unsigned v);
void fe_wr_str(fe_wr *w, const char *s); /* NULL as well */

/* What the lowering of a unit alone knows beyond the unit. */
typedef struct fe_lowered {
    int n_lines;      /* of its file */
    int stmt_serial;  /* C statements it numbered */
    int n_externs;
    int *externs;     /* its variables of external linkage (the program merges them by name) */
} fe_lowered;

/* The unit's IR, in the order the reader reads it. */
void fe_wr_unit(fe_wr *w, const ir_unit *u, const fe_lowered *l);

/* A reader of bytes p..end into the arena of u; after the first failure
 * every read gives 0 and why says what failed. */
typedef struct fe_rd {
    const uint8_t *p, *end;
    const char *why;
    ir_unit *u;
    /* relocation (fe_capture_rd.c) */
    int n_vars;
    int *var_map;
    int n_funcs, func_base;
    int n_ext;
    int *ext_map;
    int n_sites, site_base, n_labels, label_base, stmt_base, line_base;
    int depth;
} fe_rd;

bool fe_rd_fail(fe_rd *r, const char *why); /* false */
uint64_t fe_rd_u64(fe_rd *r);
int fe_rd_int(fe_rd *r);
unsigned fe_rd_u8(fe_rd *r);
int fe_rd_count(fe_rd *r, size_t min_bytes);
const char *fe_rd_str(fe_rd *r);

/* Name -> variable id of a program's variables of external linkage (names
 * in the program's arena); the frontend's fe_func_map. */
struct fe_func_map;

/* Append the unit whose IR r holds to the program r->u: a file of path,
 * its variables (those of external linkage merged into globals by name),
 * functions, initializers, diagnostics and notes, every index and line
 * relocated; *stmt_serial advances by the unit's C statements.  False with
 * r->why when the bytes are not a unit's IR (the program is then not to
 * be used). */
bool fe_rd_unit(fe_rd *r, const char *path, struct fe_func_map *globals, int *stmt_serial);

#endif /* TL_FE_CAPTURE_IR_H */
