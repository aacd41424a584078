/*
 * fe_session.h: one file kept parsed while an editor changes it (the
 * language server).  The first parse builds a translation unit with a
 * precompiled preamble; each later parse reparses that unit with the
 * editor's text for the file (libclang's unsaved files), so the headers
 * are not read again.  The file need not exist on disk.
 *
 * Statuses as in frontend.h: a failure of the environment is the returned
 * status and *out stays NULL; the program's own problems are in the unit.
 * A session is used by one thread at a time.
 */
#ifndef TL_FE_SESSION_H
#define TL_FE_SESSION_H

#include <stddef.h>

#include "frontend.h"

typedef struct fe_session fe_session;

/* A session for the file at path (absolute).  argv[0..argc) are either the
 * compiler arguments without compiler and file (full_command false), or a
 * full compile command whose paths are absolute (full_command true: argv[0]
 * is the compiler and path is among the arguments, as fe_compdb_absolute
 * gives it).  The arguments are copied. */
fe_session *fe_session_new(const char *path, int argc, const char *const *argv, bool full_command);

/* Parse the file with text[0..len) as its contents and lower it into a new
 * unit (*out, to free with ir_unit_free).  The first call parses; later
 * calls reparse the kept translation unit.  After FE_ERR_LIBCLANG the kept
 * unit is dropped and the next call parses afresh. */
fe_status fe_session_parse(fe_session *s, const char *text, size_t len, ir_unit **out);

/* Whether the session holds a parsed translation unit (the next parse is a reparse). */
bool fe_session_is_warm(const fe_session *s);

void fe_session_free(fe_session *s);

#endif /* TL_FE_SESSION_H */
