/*
 * frontend.h: parse one C file with libclang and lower it to the IR (ir.h).
 *
 * The only module that includes libclang; its callers see statuses and
 * ir_units.  Three channels, never mixed: a failure of the environment (file
 * missing, libclang failing) is the returned status and *out stays NULL; a
 * problem in the parsed program (clang errors, constructs the IR cannot
 * express) is in the unit (diags, notes, UNSUPPORTED statements) and the
 * status is FE_OK; a broken invariant aborts.  Running out of memory is
 * none of these: it ends the process (xalloc.h, docs/design.md).
 *
 * The project's include directory is appended (as -isystem, after every
 * user flag) so that <tensorlint/tensor.h> resolves with no flags: the
 * installed copy next to the executable (<exe>/../include) when it exists,
 * else the source tree's runtime/include.
 */
#ifndef TL_FRONTEND_H
#define TL_FRONTEND_H

#include "ir.h"

typedef enum fe_status {
    FE_OK = 0,
    FE_ERR_NO_FILE,  /* the source file does not exist */
    FE_ERR_IS_DIR,   /* the path names a directory */
    FE_ERR_LIBCLANG, /* libclang could not build a translation unit */
    FE_ERR_NO_ACCESS,  /* the file exists but this user may not read it */
    FE_ERR_UNREADABLE, /* stat or open failed otherwise: a link loop, a name too long, I/O */
    FE_ERR_INTERNAL    /* a broken invariant of tensorlint (its own IR did not read back):
                          a bug to report; the caller goes on without that result */
} fe_status;

const char *fe_status_name(fe_status s); /* "no such file" */

/* Parse path with compiler arguments argv[0..argc) (no compiler name, no
 * file) and lower it.  On FE_OK, *out is a unit to free with ir_unit_free. */
fe_status fe_parse_file(const char *path, int argc, const char *const *argv, ir_unit **out);

/* Parse with a full compile command (argv[0] is the compiler, the source
 * file is among the arguments), as a compilation database gives it, run
 * in directory (NULL: the current one).  path names the source file (as in
 * the command) for the unit and for finding the main file. */
fe_status fe_parse_command(const char *path, const char *directory, int argc,
                           const char *const *argv, ir_unit **out);

/* Like clang's -disable-free: when on, parsing does not dispose of the
 * translation unit (the process is about to exit and the OS reclaims it
 * faster).  Off by default; the command-line tool turns it on outside
 * sanitizer builds. */
void fe_set_disable_free(bool on);

/* The include directory the front end adds, or NULL when none was found. */
const char *fe_include_dir(void);

#endif /* TL_FRONTEND_H */
