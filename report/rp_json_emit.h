/*
 * rp_json_emit.h: JSON written as it is produced, for the report
 * (rp_json.c).  One writer, two sinks: compact text appended to an
 * rp_textbuf (what `report --format=json` prints), or a Jansson tree (what
 * check --baseline and the Markdown comment read back).  The report's
 * fields are written once, in one order, for both.
 *
 * The text is byte for byte what Jansson's json_dumps gives for the same
 * tree with JSON_COMPACT: no blanks, integers in decimal, strings with `"`
 * and `\` escaped, \b \f \n \r \t for those control characters and \u00XX
 * (upper-case hex) for the others below 0x20, everything else (`/`, DEL,
 * non-ASCII) as it is.  No doubles are written.
 *
 * Strings are bytes from anywhere (the user's files too), and a key is
 * never dropped: valid UTF-8 (as Jansson's json_string takes it: shortest
 * forms, no surrogates, nothing above U+10FFFF) is written as it is; a byte
 * that starts no whole UTF-8 sequence becomes U+FFFD; a string holding a
 * whole sequence that is not valid (an overlong form, a surrogate) becomes
 * "(a name that is not UTF-8)".  Where a field must rather be left out,
 * the caller asks rp_json_utf8_valid first.
 *
 * key is the member's name inside an object (ASCII needing no escapes), and
 * NULL for an array's element; a mismatch, or containers left open or
 * nested deeper than RP_JW_MAX_DEPTH, aborts (on in every build).
 */
#ifndef TL_RP_JSON_EMIT_H
#define TL_RP_JSON_EMIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rp_textbuf.h"
#include "ir.h"

enum { RP_JW_MAX_DEPTH = 16 }; /* containers open at once */

typedef struct rp_jw {
    rp_textbuf *text;              /* the text sink, or NULL: the tree sink */
    FILE *out;                     /* text: where it goes in pieces, or NULL: kept */
    bool comma;                    /* text: the next item follows another */
    int depth;                     /* containers open */
    char close[RP_JW_MAX_DEPTH];   /* '}' or ']' for each open container */
    json_t *open[RP_JW_MAX_DEPTH]; /* tree: the open containers, outermost first */
    json_t *root;                  /* tree: the first container opened */
    const ir_unit *unit;           /* lines are this unit's (a program's: rp_jw_line maps
                                      them to their files), or NULL: as they are */
} rp_jw;

/* A writer that appends to text.  With out, the text is written there
 * whenever a container closes with RP_TB_FLUSH_AT bytes waiting, so the
 * buffer stays small however long the document; the caller flushes the
 * rest and frees the buffer. */
rp_jw rp_jw_text(rp_textbuf *text, FILE *out);
/* A writer that builds a tree; rp_jw_tree_take hands it over. */
rp_jw rp_jw_tree(void);
/* The tree written (every container closed), now the caller's; NULL if none. */
json_t *rp_jw_tree_take(rp_jw *w);

void rp_jw_object(rp_jw *w, const char *key); /* opens {, closed by rp_jw_end */
void rp_jw_array(rp_jw *w, const char *key);  /* opens [, closed by rp_jw_end */
void rp_jw_end(rp_jw *w);

void rp_jw_null(rp_jw *w, const char *key);
void rp_jw_bool(rp_jw *w, const char *key, bool v);
void rp_jw_int(rp_jw *w, const char *key, int64_t v);
/* A line of w->unit: a program's writes file_key with the line's file (when
 * file_key is not NULL) then key with the line in that file; else key with
 * the line.  Line 0 (none) is written as it is, with a null file. */
void rp_jw_line(rp_jw *w, const char *file_key, const char *key, int line);
/* s: any bytes, repaired as above; NULL writes null. */
void rp_jw_str(rp_jw *w, const char *key, const char *s);

/* Whether s[0..n) is UTF-8 that Jansson's json_string accepts. */
bool rp_json_utf8_valid(const char *s, size_t n);

#endif /* TL_RP_JSON_EMIT_H */
