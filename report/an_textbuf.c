/*
 * an_textbuf.c: the report writers' output buffer, its slow paths (see
 * an_textbuf.h).
 */
#include "an_textbuf.h"

#include <stdlib.h>

#include "xalloc.h"

void an_tb_grow(an_textbuf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < need)
        cap *= 2;
    b->buf = tl_xrealloc(b->buf, cap);
    b->cap = cap;
}

void an_tb_flush(an_textbuf *b, FILE *out)
{
    fwrite(b->buf, 1, b->len, out);
    b->len = 0;
}

void an_tb_free(an_textbuf *b)
{
    free(b->buf);
    *b = (an_textbuf){0};
}
