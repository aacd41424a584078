/*
 * an_textbuf.h: a growing byte buffer that the report writers (an_text.c,
 * an_json.c) append to and write out in large pieces, instead of one
 * stdio call per cell or token.  Write errors are left on the FILE, where
 * the caller's flush finds them (tools/cli.c: cli_output_done).  The
 * appends are inline: they run once per cell of a big table.
 */
#ifndef TL_AN_TEXTBUF_H
#define TL_AN_TEXTBUF_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum { AN_TB_FLUSH_AT = 1 << 16 }; /* bytes worth waiting for before a write */

typedef struct an_textbuf {
    char *buf;
    size_t len, cap;
} an_textbuf;

/* Grows the buffer to hold at least need bytes (out of memory ends the
 * process: xalloc.h). */
void an_tb_grow(an_textbuf *b, size_t need);
/* Writes what is waiting to out and empties the buffer. */
void an_tb_flush(an_textbuf *b, FILE *out);
void an_tb_free(an_textbuf *b);

/* Room for more bytes; returns where they go (an_tb_commit marks them used). */
static inline char *an_tb_room(an_textbuf *b, size_t more)
{
    if (b->len + more > b->cap)
        an_tb_grow(b, b->len + more);
    return b->buf + b->len;
}

/* The bytes from an_tb_room's pointer up to end are now part of the text. */
static inline void an_tb_commit(an_textbuf *b, const char *end) { b->len = (size_t)(end - b->buf); }

static inline void an_tb_mem(an_textbuf *b, const char *s, size_t n)
{
    memcpy(an_tb_room(b, n), s, n);
    b->len += n;
}

static inline void an_tb_str(an_textbuf *b, const char *s) { an_tb_mem(b, s, strlen(s)); }

/* n spaces; nothing when n <= 0. */
static inline void an_tb_spaces(an_textbuf *b, int n)
{
    if (n <= 0)
        return;
    memset(an_tb_room(b, (size_t)n), ' ', (size_t)n);
    b->len += (size_t)n;
}

#endif /* TL_AN_TEXTBUF_H */
