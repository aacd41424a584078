/*
 * fe_capture.h: the capture of one translation unit, its IR (ir.h) lowered
 * alone and serialised, so that a program's unchanged units are never
 * parsed again (docs/ci.md, "Captures").
 *
 * A capture holds, besides the unit's IR in its own lines:
 *  - its key: the tool's version, the format's, libclang's, the full compile
 *    command, and the path and content hash of every file the parse read
 *    (the unit and each header it includes, the API's header too).  It is
 *    current when every one of them is unchanged (fe_capture_current);
 *  - what the link needs without reading the IR: the functions it defines
 *    with external linkage (name, line, column) and, for each function it
 *    calls that it does not define, whether its lowering took the callee to
 *    be defined by another unit (a user call the link resolves) or a
 *    library function.  A unit captured alone guesses (a function declared
 *    outside the system headers is another unit's); the program checks
 *    each guess against its units' definitions, and a unit that guessed
 *    wrong is lowered again (fe_program.c), so a program made of captures is
 *    the program made by parsing, exactly.
 *
 * The file: "TLIR", the format version, the header above, the IR, and an
 * FNV-1a 64 checksum of everything before it.  Reading checks the checksum
 * and every count, index and kind, so a corrupt, truncated or foreign file
 * is refused with a reason, never trusted.
 */
#ifndef TL_FE_CAPTURE_H
#define TL_FE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "fe_program.h"

#define FE_CAPTURE_FORMAT 3

typedef struct fe_cap_sym {
    const char *name;
    int line, col; /* the definition's name, in its file */
} fe_cap_sym;

typedef struct fe_cap_ask {
    const char *name;
    bool elsewhere; /* lowered as another unit's function (a user call to link) */
} fe_cap_ask;

typedef struct fe_cap_dep {
    const char *path;  /* absolute */
    uint64_t hash;     /* of its content when captured */
} fe_cap_dep;

typedef struct fe_capture {
    ir_unit *arena;          /* owns the strings and arrays below */
    const char *path;        /* the unit's source file, absolute */
    uint64_t command_hash;   /* versions, include directory, the full command */
    int n_deps;
    fe_cap_dep *deps;        /* the unit's file first, then every header */
    int n_syms;
    fe_cap_sym *syms;
    int n_asks;
    fe_cap_ask *asks;
    uint8_t *data;           /* the serialised capture (the file's bytes) */
    size_t len;
    size_t body;             /* offset of the IR in data */
    double parse_seconds;    /* the parse that made it (0 when read from a file) */
} fe_capture;

/* Parse and lower one unit alone (full command, paths absolute) into a
 * capture.  FE_OK with *out to free, else the environment's failure. */
fe_status fe_capture_unit(const fe_program_unit *unit, fe_capture **out);

/* The hash of a unit's command as a capture keys it. */
uint64_t fe_capture_command_hash(int argc, const char *const *argv);

/* Read data[0..len) (taken: freed with the capture, or at once on failure).
 * NULL with *why (static text) when the bytes are not a whole capture of
 * this format. */
fe_capture *fe_capture_from_bytes(uint8_t *data, size_t len, const char **why);

/* Read a capture file: NULL with *why when it is missing ("no capture"),
 * unreadable, corrupt or of another format. */
fe_capture *fe_capture_read(const char *file, const char **why);

/* Whether the capture is of this unit and command, and every file it read
 * still has the content it had; *why says what changed when not. */
bool fe_capture_current(const fe_capture *c, const fe_program_unit *unit, const char **why);

/* Write the capture to file whole or not at all (a temporary file renamed),
 * making its folder; false with errno set when that fails. */
bool fe_capture_write(const fe_capture *c, const char *file);

void fe_capture_free(fe_capture *c);

/* Where a build's capture of the unit at path (absolute) lives:
 * BUILD_DIR/tensorlint-capture/<path>.tlir (to free). */
char *fe_capture_path(const char *build_dir, const char *path);

#endif /* TL_FE_CAPTURE_H */
