/*
 * lsp_text.c: document text as LSP sees it.  Positions are 0-based lines
 * and characters counted in the negotiated encoding's code units (UTF-16
 * unless the client offered another); libclang counts 1-based lines and
 * byte columns.  Text is UTF-8; a malformed byte counts as one code unit.
 * Lines end at "\n" ("\r\n" keeps its "\r" before the end, which no
 * position may address).
 */
#include "lsp_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the UTF-8 sequence starting with byte c (1 for a malformed lead). */
static size_t lsp_utf8_len(unsigned char c)
{
    if (c >= 0xF0 && c < 0xF8)
        return 4;
    if (c >= 0xE0)
        return c < 0xF0 ? 3 : 1;
    if (c >= 0xC0)
        return 2;
    return 1;
}

/* Code units of the sequence of n bytes in encoding enc. */
static int lsp_units(size_t n, lsp_encoding enc)
{
    if (enc == LSP_UTF8)
        return (int)n;
    if (enc == LSP_UTF16)
        return n == 4 ? 2 : 1;
    return 1;
}

static size_t lsp_line_start(const char *text, size_t len, int line, bool *past_end)
{
    size_t off = 0;
    *past_end = false;
    for (int l = 0; l < line; l++) {
        const char *nl = memchr(text + off, '\n', len - off);
        if (!nl) {
            *past_end = true;
            return len;
        }
        off = (size_t)(nl - text) + 1;
    }
    return off;
}

static size_t lsp_line_end(const char *text, size_t len, size_t start)
{
    const char *nl = memchr(text + start, '\n', len - start);
    size_t end = nl ? (size_t)(nl - text) : len;
    if (end > start && text[end - 1] == '\r')
        end--;
    return end;
}

size_t lsp_text_offset(const char *text, size_t len, lsp_pos p, lsp_encoding enc)
{
    bool past;
    if (p.line < 0)
        return 0;
    size_t off = lsp_line_start(text, len, p.line, &past);
    if (past)
        return len;
    size_t end = lsp_line_end(text, len, off);
    for (int units = 0; off < end && units < p.character;) {
        size_t n = lsp_utf8_len((unsigned char)text[off]);
        if (off + n > end)
            n = 1;
        units += lsp_units(n, enc);
        off += n;
    }
    return off;
}

lsp_pos lsp_text_pos(const char *text, size_t len, int line, int col, lsp_encoding enc)
{
    bool past;
    lsp_pos p = {line > 0 ? line - 1 : 0, 0};
    size_t off = lsp_line_start(text, len, p.line, &past);
    size_t end = lsp_line_end(text, len, off);
    size_t want = off + (size_t)(col > 1 ? col - 1 : 0);
    while (off < end && off < want) {
        size_t n = lsp_utf8_len((unsigned char)text[off]);
        if (off + n > end)
            n = 1;
        p.character += lsp_units(n, enc);
        off += n;
    }
    return p;
}

void lsp_text_line_col(const char *text, size_t len, size_t off, int *line, int *col)
{
    int l = 1;
    size_t start = 0;
    if (off > len)
        off = len;
    for (size_t k = 0; k < off; k++)
        if (text[k] == '\n') {
            l++;
            start = k + 1;
        }
    *line = l;
    *col = (int)(off - start) + 1;
}

void lsp_text_replace(char **text, size_t *len, size_t from, size_t to, const char *repl,
                      size_t repl_len)
{
    if (to < from)
        to = from;
    size_t n = *len - (to - from) + repl_len;
    char *t = tl_xmalloc(n + 1);
    memcpy(t, *text, from);
    memcpy(t + from, repl, repl_len);
    memcpy(t + from + repl_len, *text + to, *len - to);
    t[n] = '\0';
    free(*text);
    *text = t;
    *len = n;
}

static int lsp_hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *lsp_uri_to_path(const char *uri)
{
    static const char scheme[] = "file://";
    if (strncmp(uri, scheme, sizeof scheme - 1) != 0)
        return NULL;
    const char *p = uri + sizeof scheme - 1;
    if (*p != '/') /* file://host/path: only the local host */
        return NULL;
    char *out = tl_xmalloc(strlen(p) + 1), *o = out;
    for (; *p; p++) {
        int hi, lo;
        if (*p == '%' && (hi = lsp_hex(p[1])) >= 0 && (lo = lsp_hex(p[2])) >= 0) {
            *o++ = (char)(hi * 16 + lo);
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

char *lsp_path_to_uri(const char *path)
{
    static const char keep[] = "-._~/!$&'()*+,;=:@";
    char *out = tl_xmalloc(strlen(path) * 3 + sizeof "file://"), *o = out;
    o += sprintf(o, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr(keep, *p))
            *o++ = (char)*p;
        else
            o += sprintf(o, "%%%02X", *p);
    }
    *o = '\0';
    return out;
}

static bool lsp_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

bool lsp_text_ident(const char *text, size_t len, size_t off, size_t *from, size_t *to)
{
    if (off > len)
        return false;
    size_t a = off, b = off;
    while (a > 0 && lsp_ident_char(text[a - 1]))
        a--;
    while (b < len && lsp_ident_char(text[b]))
        b++;
    if (a == b || isdigit((unsigned char)text[a]))
        return false;
    *from = a;
    *to = b;
    return true;
}

size_t lsp_text_call_end(const char *text, size_t len, size_t off)
{
    size_t k = off;
    while (k < len && (text[k] == ' ' || text[k] == '\t'))
        k++;
    if (k >= len || text[k] != '(')
        return off;
    int depth = 0;
    for (; k < len; k++) {
        char c = text[k];
        if (c == '"' || c == '\'') { /* a literal: skip to its end */
            for (k++; k < len && text[k] != c && text[k] != '\n'; k++)
                k += text[k] == '\\';
            continue;
        }
        depth += c == '(';
        depth -= c == ')';
        if (depth == 0)
            return k + 1;
    }
    return off;
}
