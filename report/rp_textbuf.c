/*
 * rp_textbuf.c: the report writers' output buffer, its slow paths (see
 * rp_textbuf.h).
 */
#include "rp_textbuf.h"

#include <stdlib.h>

#include "xalloc.h"

void rp_tb_grow(rp_textbuf *b, size_t need)
{
    tl_xgrow(b->buf, &b->cap, need, 4096);
}

void rp_tb_flush(rp_textbuf *b, FILE *out)
{
    fwrite(b->buf, 1, b->len, out);
    b->len = 0;
}

void rp_tb_free(rp_textbuf *b)
{
    free(b->buf);
    *b = (rp_textbuf){0};
}
