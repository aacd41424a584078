/*
 * fe_program.h: the translation units of a compile database as one program.
 *
 * Every unit is parsed, then lowered into one ir_unit whose files follow
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
} fe_program_unit;

/* Parse, lower and link units[0..n).  On FE_OK, *out is the program (to free
 * with ir_unit_free); a failure of the environment for one unit is returned
 * with *failed its index, and *out stays NULL. */
fe_status fe_parse_program(int n, const fe_program_unit *units, ir_unit **out, int *failed);

#endif /* TL_FE_PROGRAM_H */
