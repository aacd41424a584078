/*
 * rp_textbuf.h: a growing byte buffer that the report writers (rp_text.c,
 * rp_json.c) append to and write out in large pieces, instead of one
 * stdio call per cell or token.  Write errors are left on the FILE, where
 * the caller's flush finds them (tools/cli.c: cli_output_done).  The
 * appends are inline: they run once per cell of a big table.
 */
#ifndef TL_RP_TEXTBUF_H
#define TL_RP_TEXTBUF_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum { RP_TB_FLUSH_AT = 1 << 16 }; /* bytes worth waiting for before a write */

typedef struct rp_textbuf {
    char *buf;
    size_t len, cap;
} rp_textbuf;

/* Grows the buffer to hold at least need bytes (out of memory ends the
 * process: xalloc.h). */
void rp_tb_grow(rp_textbuf *b, size_t need);
/* Writes what is waiting to out and empties the buffer. */
void rp_tb_flush(rp_textbuf *b, FILE *out);
void rp_tb_free(rp_textbuf *b);

/* Room for more bytes; returns where they go (rp_tb_commit marks them used). */
static inline char *rp_tb_room(rp_textbuf *b, size_t more)
{
    if (b->len + more > b->cap)
        rp_tb_grow(b, b->len + more);
    return b->buf + b->len;
}

/* The bytes from rp_tb_room's pointer up to end are now part of the text. */
static inline void rp_tb_commit(rp_textbuf *b, const char *end) { b->len = (size_t)(end - b->buf); }

static inline void rp_tb_mem(rp_textbuf *b, const char *s, size_t n)
{
    memcpy(rp_tb_room(b, n), s, n);
    b->len += n;
}

static inline void rp_tb_str(rp_textbuf *b, const char *s) { rp_tb_mem(b, s, strlen(s)); }

/* n spaces; nothing when n <= 0. */
static inline void rp_tb_spaces(rp_textbuf *b, int n)
{
    if (n <= 0)
        return;
    memset(rp_tb_room(b, (size_t)n), ' ', (size_t)n);
    b->len += (size_t)n;
}

#endif /* TL_RP_TEXTBUF_H */
