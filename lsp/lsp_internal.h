/*
 * lsp_internal.h: what the language server's files share.
 *
 * The server is one thread: it reads every message that has arrived,
 * handles them in order, and analyses a changed document only once no
 * message is waiting and the document has been quiet for the debounce
 * time (lsp_server.c).  Files, in the order a message flows:
 *   lsp_io.c        Content-Length framing in and out
 *   lsp_server.c    the loop, lifecycle, JSON-RPC errors, cancellation, progress
 *   lsp_text.c      document text: positions (UTF-8/16/32), incremental edits, URIs
 *   lsp_compdb.c    the compile command of a file (compile_commands.json)
 *   lsp_analysis.c  a document analysed: parse (kept unit), interpreter, checks, NOLINT
 *   lsp_features.c  diagnostics, hover, inlay hints, code actions as LSP JSON
 */
#ifndef TL_LSP_INTERNAL_H
#define TL_LSP_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "an.h"
#include "check.h"
#include "fe_session.h"
#include "lsp.h"
#include "xalloc.h" /* every allocation of the server: out of memory ends it (exit code 2) */

/* ---- lsp_io.c ---- */

typedef struct lsp_reader {
    int fd;
    char *buf;
    size_t len, cap; /* bytes held, bytes allocated */
    bool eof;
} lsp_reader;

typedef enum lsp_frame {
    LSP_FRAME_NONE,   /* no complete message yet */
    LSP_FRAME_OK,     /* *body holds one message's bytes */
    LSP_FRAME_BAD     /* a header block without a usable Content-Length: skipped */
} lsp_frame;

enum { LSP_MAX_BODY = 64 << 20 }; /* bytes: a larger Content-Length is refused */

/* Wait up to timeout_ms (-1: forever) for input and append what arrived.
 * 1 when bytes came, 0 on timeout, -1 at end of input or on an error. */
int lsp_reader_fill(lsp_reader *r, int timeout_ms);
/* The next framed message, if complete: its body (owned by the caller) and length. */
lsp_frame lsp_reader_next(lsp_reader *r, char **body, size_t *len);
/* Whether input is waiting on the descriptor right now. */
bool lsp_reader_pending(const lsp_reader *r);
void lsp_reader_free(lsp_reader *r);
/* Write msg (consumed) framed to fd; false when the write failed. */
bool lsp_write(int fd, json_t *msg);
/* A message body as JSON: any JSON text, "\u0000" in strings included (a
 * string's length is json_string_length), and an escaped lone surrogate
 * ("\ud800" not followed by a low one, or a low one alone) read as U+FFFD,
 * as LSP clients expect; NULL with err set for text that is not JSON. */
json_t *lsp_json_load(char *body, size_t len, json_error_t *err);

/* ---- lsp_text.c ---- */

typedef enum lsp_encoding { LSP_UTF8 = 8, LSP_UTF16 = 16, LSP_UTF32 = 32 } lsp_encoding;

typedef struct lsp_pos {
    int line;      /* 0-based */
    int character; /* 0-based, in the negotiated encoding's code units */
} lsp_pos;

/* The byte offset of p in text; a character past the end of its line (or a
 * line past the end) clamps to the line's (the text's) end, as LSP says. */
size_t lsp_text_offset(const char *text, size_t len, lsp_pos p, lsp_encoding enc);
/* The position of a 1-based line and byte column (libclang's) in text. */
lsp_pos lsp_text_pos(const char *text, size_t len, int line, int col, lsp_encoding enc);
/* The 1-based line and byte column of byte offset off. */
void lsp_text_line_col(const char *text, size_t len, size_t off, int *line, int *col);
/* Replace [from, to) of *text by repl: a new allocation in *text. */
void lsp_text_replace(char **text, size_t *len, size_t from, size_t to, const char *repl,
                      size_t repl_len);
/* The path of a file:// URI (percent-decoded), or NULL for another scheme. */
char *lsp_uri_to_path(const char *uri);
/* The file:// URI of an absolute path. */
char *lsp_path_to_uri(const char *path);
/* Byte offsets [*from, *to) of the identifier around off; false when none. */
bool lsp_text_ident(const char *text, size_t len, size_t off, size_t *from, size_t *to);
/* One past a call's closing parenthesis, the call's name ending at off (1-based line/col
 * spans are the caller's); off itself when no balanced call follows. */
size_t lsp_text_call_end(const char *text, size_t len, size_t off);

/* ---- lsp_compdb.c ---- */

typedef struct lsp_compdbs lsp_compdbs;

typedef struct lsp_command {
    bool full_command;  /* argv is a full command from a database (paths absolute) */
    char *path;         /* the file as the command names it (the unsaved file's name) */
    int argc;
    char **argv;
    char *origin;       /* "…/build/compile_commands.json" or "default flags" */
    char *db_dir;       /* the directory of the database that gave argv, or NULL */
    int entry;          /* argv's entry in that database (from 1), or 0 */
    char *db_problem;   /* the nearest database is malformed: what is wrong, else NULL */
} lsp_command;

/* A C unit of a database: its file (absolute, resolved), its full command
 * (paths absolute), its entry (from 1). */
typedef struct lsp_unit {
    char *path;
    int argc;
    char **argv;
    int entry;
} lsp_unit;

lsp_compdbs *lsp_compdbs_new(const char *dir_override);
void lsp_compdbs_free(lsp_compdbs *c);
/* The command for the file at path (absolute): from the nearest database
 * that lists it (its directory and parents, each with build/), else the
 * fallback arguments.  Always fills *out; free with lsp_command_clear. */
void lsp_command_find(lsp_compdbs *c, const char *path, int n_args, const char *const *args,
                      lsp_command *out);
void lsp_command_clear(lsp_command *c);
/* The C units of dir's database, each file once, sorted by path (the units
 * of `-p`, check_compdb.c); their count.  Free with lsp_units_free. */
int lsp_compdb_program(lsp_compdbs *c, const char *dir, lsp_unit **units);
void lsp_units_free(lsp_unit *units, int n);

/* ---- lsp_analysis.c ---- */

typedef struct lsp_result {
    int version;            /* the document version analysed */
    char *text;             /* the text analysed (positions are converted against it) */
    size_t len;             /* bytes */
    ir_unit *unit;
    an_report *report;      /* NULL when not analysed */
    ck_nolint *nolint;
    int n_diags;
    const an_diag **diags;  /* what to publish: the report's and NOLINT's, suppressions applied */
    char *failure;          /* why the file was not analysed, or NULL */
    int fail_line, fail_col;/* where (1-based; 0 when nowhere) */
    double seconds;         /* parse + analysis + checks */
    /* a document of a database's program (0 / NULL for one analysed alone) */
    int n_units;            /* the program's units */
    int n_read, n_parsed;   /* units read from current captures, units parsed */
    const char *file;       /* the document's unit in the program (its path) */
    int line_base, n_lines; /* its program lines: line_base + 1 .. line_base + n_lines */
    an_diag *local;         /* the document's diagnostics in its own lines (diags point here) */
    int n_local;
} lsp_result;

typedef struct lsp_doc {
    char *uri;
    char *path;             /* absolute, or NULL when the URI is not a file */
    int version;
    char *text;
    size_t len;
    lsp_command cmd;
    fe_session *session;    /* NULL until the first analysis */
    lsp_result *result;     /* the newest analysis, or NULL */
    bool dirty;             /* text changed since result */
    double due;             /* s (monotonic): when a dirty document is analysed */
    double edited_at;       /* s: the last change (for the log's latency) */
    bool force;             /* analyse at due even when not dirty (save) */
    struct lsp_doc *next;
} lsp_doc;

/* Analyse doc's current text; never NULL.  A document its database lists is
 * analysed with the database's whole program (the other open documents'
 * texts, the other units' captures); else alone, in its session. */
lsp_result *lsp_analyse(lsp_doc *doc, const lsp_doc *docs, lsp_compdbs *dbs,
                        const ck_options *ck, const an_options *an);
/* A program line in r's document's own lines, or 0 when another file holds it. */
int lsp_result_line(const lsp_result *r, int line);
void lsp_result_free(lsp_result *r);

/* ---- lsp_features.c ---- */

typedef struct lsp_ctx {
    lsp_encoding enc;
    bool markdown;          /* the client renders markdown hovers */
    bool related_info;      /* the client shows relatedInformation */
    const char *doc_url;
} lsp_ctx;

json_t *lsp_diagnostics_json(const lsp_ctx *cx, const lsp_doc *doc, const lsp_result *r);
/* The hover at p, or json null. */
json_t *lsp_hover_json(const lsp_ctx *cx, const lsp_result *r, lsp_pos p);
json_t *lsp_inlay_hints_json(const lsp_ctx *cx, const lsp_result *r, lsp_pos from, lsp_pos to);
json_t *lsp_code_actions_json(const lsp_ctx *cx, const lsp_doc *doc, const lsp_result *r,
                              lsp_pos from, lsp_pos to);
json_t *lsp_range_json(lsp_pos a, lsp_pos b);

/* ---- lsp_server.c ---- */

double lsp_now(void); /* s, monotonic */
void lsp_log(lsp_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lsp_log_set(lsp_log_level level);

#endif /* TL_LSP_INTERNAL_H */
