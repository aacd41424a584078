/*
 * fe_program.h: the translation units of a compile database as one program.
 *
 * Every unit is parsed (or read from its capture, fe_capture.h), then
 * lowered into one ir_unit whose files follow
 * one another (ir.h: a program's lines), then linked by C's rules: a call
 * of a function that another unit defines with external linkage calls that
 * definition; a static function stays in its unit (its own unit's
 * definition is found first, another unit's is never seen); two external
 * definitions of one name are an error of the program, an ir_diag that
 * names both.  The interpreter then runs the unit as it runs one file:
 * roots are found across the program.
 */
#ifndef TL_FE_PROGRAM_H
#define TL_FE_PROGRAM_H

#include "frontend.h"

typedef struct fe_program_unit {
    const char *path;          /* the source file, absolute (the unit's file in reports) */
    int argc;
    const char *const *argv;   /* the full command, paths absolute (fe_compdb_absolute) */
    const char *text;          /* the file's unsaved contents (an editor's), or NULL: such a
                                * unit is always parsed, and its capture never written */
    size_t len;                /* bytes of text */
} fe_program_unit;

/* Where a program's captures are kept, and what happened to them. */
typedef struct fe_program_cache {
    const char *build_dir; /* captures in BUILD_DIR/tensorlint-capture (fe_capture_path) */
    int n_read;            /* out: units read from current captures */
    int n_parsed;          /* out: units parsed (no capture, or a stale or broken one) */
    int n_write_failed;    /* out: captures that could not be written */
    char *write_error;     /* out: the first of those and why (to free), or NULL */
} fe_program_cache;

/* Parse, lower and link units[0..n).  On FE_OK, *out is the program (to free
 * with ir_unit_free); a failure of the environment for one unit is returned
 * with *failed its index, and *out stays NULL. */
fe_status fe_parse_program(int n, const fe_program_unit *units, ir_unit **out, int *failed);

/* The same, reading each unit's capture from cache->build_dir where it is
 * current (fe_capture_current) and writing a new one for every unit parsed.
 * The program is the one fe_parse_program makes. */
fe_status fe_parse_program_cached(int n, const fe_program_unit *units, fe_program_cache *cache,
                                  ir_unit **out, int *failed);

#endif /* TL_FE_PROGRAM_H */
