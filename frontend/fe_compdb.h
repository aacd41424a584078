/*
 * fe_compdb.h: the compile commands of a build directory, read through
 * libclang's compilation-database API (compile_commands.json, as CMake's
 * CMAKE_EXPORT_COMPILE_COMMANDS or bear write it).  Each command can be
 * parsed with fe_parse_command (frontend.h).
 */
#ifndef TL_FE_COMPDB_H
#define TL_FE_COMPDB_H

#include "frontend.h"

typedef struct fe_compile_command {
    char *directory; /* the directory the command runs in */
    char *file;      /* the source file as the database names it */
    int argc;
    char **argv;     /* the full command: argv[0] is the compiler */
} fe_compile_command;

typedef struct fe_compdb {
    int n;
    fe_compile_command *cmds; /* in the database's order */
} fe_compdb;

/* Every command of build_dir/compile_commands.json.  FE_ERR_NO_FILE when
 * libclang cannot load the database (missing or malformed: the caller
 * checks the file itself for a precise message); *out stays NULL then. */
fe_status fe_compdb_load(const char *build_dir, fe_compdb **out);
void fe_compdb_free(fe_compdb *db);

/* What is wrong with the shape of the database file, read with Jansson
 * only to say it precisely where libclang just fails: "FILE:L:C: not a
 * valid compilation database: ...", "FILE: no compile commands in it",
 * "FILE: entry N (SOURCE) has no \"file\" string" ... (allocated); NULL
 * when its shape is fine.  The words of `check -p` and the language server. */
char *fe_compdb_problem(const char *file);

/* The command's source file as an absolute path, resolved when it exists
 * (allocated). */
char *fe_compdb_file_path(const fe_compile_command *c);

/* The command with every relative path (the source file, -I, -isystem,
 * -include ... and their joined forms) made absolute against its
 * directory, so it parses with fe_parse_command(..., NULL, ...) from any
 * current directory.  (Given a directory, libclang's -working-directory
 * changes the whole process's current directory, which threads share.)
 * argc entries, to free with fe_compdb_argv_free. */
char **fe_compdb_absolute(const fe_compile_command *c);
void fe_compdb_argv_free(char **argv, int argc);

#endif /* TL_FE_COMPDB_H */
