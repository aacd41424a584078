/*
 * dg_util.c: growable strings, HTML escaping, byte and shape formatting and
 * colour ramps for the diagrams.
 */
#include "dg_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rp_report.h"

static void buf_reserve(dg_buf *b, size_t extra)
{
    if (b->s && b->len + extra + 1 <= b->cap)
        return;
    tl_xgrow(b->s, &b->cap, b->len + extra + 1, 64);
    b->s[b->len] = '\0';
}

void dg_buf_printf(dg_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void dg_buf_puts(dg_buf *b, const char *s)
{
    size_t n = strlen(s);
    buf_reserve(b, n);
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void dg_buf_html(dg_buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': dg_buf_puts(b, "&amp;"); break;
        case '<': dg_buf_puts(b, "&lt;"); break;
        case '>': dg_buf_puts(b, "&gt;"); break;
        case '"': dg_buf_puts(b, "&quot;"); break;
        default: {
            char c[2] = {*s, '\0'};
            dg_buf_puts(b, c);
        }
        }
    }
    buf_reserve(b, 0);
}

void dg_buf_free(dg_buf *b)
{
    free(b->s);
    *b = (dg_buf){0};
}

char *dg_buf_take(dg_buf *b)
{
    buf_reserve(b, 0);
    char *s = b->s;
    *b = (dg_buf){0};
    return s;
}

void dg_buf_bytes(dg_buf *b, int64_t bytes)
{
    char tmp[48];
    dg_buf_puts(b, rp_format_bytes(tmp, sizeof tmp, bytes));
}

void dg_buf_total(dg_buf *b, const an_func_report *f, char which, bool html)
{
    if (!f->symbolic) {
        if (which == 'c')
            dg_buf_printf(b, "%lld", (long long)f->n_calls);
        else
            dg_buf_bytes(b, which == 'p' ? f->peak_live_bytes
                            : which == 'e' ? f->end_live_bytes : f->moved_bytes);
        return;
    }
    sx_int v = which == 'p' ? f->peak_sx : which == 'e' ? f->end_sx
             : which == 'm' ? f->moved_sx : f->calls_sx;
    char text[2048];
    sx_str(v, text, sizeof text);
    if (html)
        dg_buf_html(b, text);
    else
        dg_buf_puts(b, text);
    if (which != 'c')
        dg_buf_puts(b, " B");
}

void dg_buf_bytes_short(dg_buf *b, int64_t bytes)
{
    static const char units[] = "BKMGTPE";
    double v = (double)bytes;
    int u = 0;
    if (bytes < 0) {
        dg_buf_puts(b, "?");
        return;
    }
    while (v >= 1000.0 && u < 6) { /* 1000 so that "1023K" never needs 5 digits */
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        dg_buf_printf(b, "%" PRId64 "B", bytes);
    else if (v < 9.95 && v != (double)(int64_t)v)
        dg_buf_printf(b, "%.1f%c", v, units[u]);
    else
        dg_buf_printf(b, "%.0f%c", v, units[u]);
}

void dg_color_mix(char out[8], unsigned lo, unsigned hi, double t)
{
    unsigned c[3];
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    for (int k = 0; k < 3; k++) {
        double a = (double)((lo >> (16 - 8 * k)) & 0xff), b = (double)((hi >> (16 - 8 * k)) & 0xff);
        c[k] = (unsigned)(a + (b - a) * t + 0.5);
    }
    snprintf(out, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}

const char *dg_value_name(const an_value *v)
{
    return v->name ? v->name : mt_ops[v->op].name;
}

void dg_buf_storage_bytes(dg_buf *b, const an_storage *s)
{
    if (!s->symbolic) {
        dg_buf_bytes(b, s->nbytes);
        return;
    }
    char text[1024];
    dg_buf_printf(b, "%s B", sx_str(s->nbytes_sx, text, sizeof text));
}

void dg_buf_shape(dg_buf *b, const an_report *r, const an_value *v)
{
    if (v->executed && !v->known && !v->error && v->sl > 0) { /* sizes over symbols */
        const an_slayout *l = &r->slayouts[v->sl - 1];
        char text[512];
        dg_buf_puts(b, "(");
        for (int d = 0; d < l->ndim; d++)
            dg_buf_printf(b, "%s%s", d ? ", " : "", sx_str(l->shape[d], text, sizeof text));
        dg_buf_printf(b, "%s) %s", l->ndim == 1 ? "," : "", mt_dtype_name(l->dtype));
        return;
    }
    if (!v->executed || !v->known || v->error) {
        dg_buf_puts(b, "?");
        return;
    }
    dg_buf_puts(b, "(");
    for (int d = 0; d < v->l.ndim; d++)
        dg_buf_printf(b, "%s%" PRId64, d ? ", " : "", v->l.shape[d]);
    dg_buf_printf(b, "%s) %s", v->l.ndim == 1 ? "," : "", mt_dtype_name(v->l.dtype));
}

void dg_buf_html_wrapped(dg_buf *b, const char *text, int width)
{
    int col = 0;
    for (const char *p = text; *p;) {
        const char *end = p;
        while (*end && *end != ' ' && *end != '\n')
            end++;
        int n = (int)(end - p);
        if (col > 0 && col + 1 + n > width) {
            dg_buf_puts(b, "<BR ALIGN=\"LEFT\"/>");
            col = 0;
        } else if (col > 0) {
            dg_buf_puts(b, " ");
            col++;
        }
        char *word = tl_xcalloc((size_t)n + 1, 1);
        memcpy(word, p, (size_t)n);
        dg_buf_html(b, word);
        free(word);
        col += n;
        if (*end == '\n') {
            dg_buf_puts(b, "<BR ALIGN=\"LEFT\"/>");
            col = 0;
        }
        p = *end ? end + 1 : end;
    }
    if (col > 0)
        dg_buf_puts(b, "<BR ALIGN=\"LEFT\"/>");
}

void dg_buf_line(dg_buf *b, const an_report *r, int line)
{
    char *at = r && r->unit ? ir_unit_line_text(r->unit, line) : tl_xasprintf("%d", line);
    dg_buf_puts(b, at);
    free(at);
}
