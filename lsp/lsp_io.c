/*
 * lsp_io.c: the base protocol's framing.  A message is a header block
 * ("Content-Length: N\r\n", optionally "Content-Type: ...\r\n", then
 * "\r\n") and N bytes of UTF-8 JSON.  Header names are case-insensitive.
 *
 * Input is read into one growing buffer with poll() and read(), so the
 * server can wait with a timeout (the debounce) and can tell whether more
 * input is waiting.  A header block without a usable Content-Length is
 * reported as LSP_FRAME_BAD and skipped: whole, or up to the last
 * "Content-Length:" inside it when junk was written before a header, so
 * one bad message does not lose the stream.  Output is written with
 * write() until every byte is out.
 *
 * Bodies are read as JSON with NUL allowed in strings; an escaped lone
 * surrogate, which JSON's grammar allows and editors send (a document cut
 * in the middle of a UTF-16 pair), is rewritten in place to the escape of
 * U+FFFD (both are six bytes) before Jansson, which rejects it, reads it.
 */
#include "lsp_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int lsp_reader_fill(lsp_reader *r, int timeout_ms)
{
    if (r->eof)
        return -1;
    struct pollfd p = {r->fd, POLLIN, 0};
    int n = poll(&p, 1, timeout_ms);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    if (n == 0)
        return 0;
    if (r->cap - r->len < 65536) {
        r->cap = r->cap ? r->cap * 2 : 131072;
        r->buf = tl_xrealloc(r->buf, r->cap);
    }
    ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len);
    if (got < 0 && errno == EINTR)
        return 0;
    if (got <= 0) {
        r->eof = true;
        return -1;
    }
    r->len += (size_t)got;
    return 1;
}

bool lsp_reader_pending(const lsp_reader *r)
{
    struct pollfd p = {r->fd, POLLIN, 0};
    return !r->eof && poll(&p, 1, 0) > 0;
}

/* The end of the header block ("\r\n\r\n") in buf[0..len), or NULL. */
static const char *lsp_header_end(const char *buf, size_t len)
{
    for (size_t k = 0; k + 3 < len; k++)
        if (buf[k] == '\r' && buf[k + 1] == '\n' && buf[k + 2] == '\r' && buf[k + 3] == '\n')
            return buf + k;
    return NULL;
}

/* Content-Length from the header lines in [h, end); -1 when absent or invalid. */
static long long lsp_content_length(const char *h, const char *end)
{
    long long n = -1;
    while (h < end) {
        const char *eol = memchr(h, '\r', (size_t)(end - h));
        if (!eol)
            eol = end;
        static const char key[] = "Content-Length:";
        if ((size_t)(eol - h) > sizeof key - 1 && strncasecmp(h, key, sizeof key - 1) == 0) {
            const char *p = h + sizeof key - 1;
            while (p < eol && *p == ' ')
                p++;
            char *stop;
            long long v = p < eol && *p >= '0' && *p <= '9' ? strtoll(p, &stop, 10) : -1;
            n = v >= 0 && v <= LSP_MAX_BODY && stop == eol ? v : -1;
            if (n < 0)
                return -1;
        }
        h = eol + 2;
    }
    return n;
}

/* The offset of the last "Content-Length:" in [buf, end), or 0 when none is past the start. */
static size_t lsp_last_header(const char *buf, const char *end)
{
    static const char key[] = "Content-Length:";
    size_t n = (size_t)(end - buf), k = n;
    while (k-- > 1)
        if (k + sizeof key - 1 <= n && strncasecmp(buf + k, key, sizeof key - 1) == 0)
            return k;
    return 0;
}

static void lsp_consume(lsp_reader *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
}

lsp_frame lsp_reader_next(lsp_reader *r, char **body, size_t *len)
{
    const char *end = lsp_header_end(r->buf, r->len);
    if (!end) {
        if (r->len > 65536) { /* no header is this long: drop it */
            lsp_consume(r, r->len);
            return LSP_FRAME_BAD;
        }
        return LSP_FRAME_NONE;
    }
    size_t head = (size_t)(end - r->buf) + 4;
    long long n = lsp_content_length(r->buf, end);
    if (n < 0) { /* junk before a header: resynchronise at the last Content-Length in it */
        size_t at = lsp_last_header(r->buf, end);
        lsp_consume(r, at > 0 ? at : head);
        return LSP_FRAME_BAD;
    }
    if (r->len - head < (size_t)n)
        return LSP_FRAME_NONE;
    *body = tl_xmalloc((size_t)n + 1);
    memcpy(*body, r->buf + head, (size_t)n);
    (*body)[n] = '\0';
    *len = (size_t)n;
    lsp_consume(r, head + (size_t)n);
    return LSP_FRAME_OK;
}

void lsp_reader_free(lsp_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->len = r->cap = 0;
}

static bool lsp_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

bool lsp_write(int fd, json_t *msg)
{
    char *body = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(msg);
    if (!body)
        return false;
    char head[64];
    size_t n = strlen(body);
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
    bool ok = lsp_write_all(fd, head, (size_t)h) && lsp_write_all(fd, body, n);
    free(body);
    return ok;
}

static int lsp_hex4(const char *p)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        int c = (unsigned char)p[k], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* The \uXXXX escape at p (n bytes left), or -1. */
static int lsp_escape_at(const char *p, size_t n)
{
    return n >= 6 && p[0] == '\\' && p[1] == 'u' ? lsp_hex4(p + 2) : -1;
}

/* Rewrite the lone surrogates escaped inside the strings of body to \ufffd. */
static void lsp_mend_surrogates(char *body, size_t len)
{
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        if (body[i] == '"') {
            in_string = !in_string;
        } else if (in_string && body[i] == '\\' && i + 1 < len) {
            int u = lsp_escape_at(body + i, len - i);
            if (u >= 0xD800 && u <= 0xDBFF) {
                int next = lsp_escape_at(body + i + 6, len - i - 6); /* u >= 0: 6 bytes are there */
                if (next >= 0xDC00 && next <= 0xDFFF) {
                    i += 11; /* a pair: both escapes kept */
                    continue;
                }
            }
            if (u >= 0xD800 && u <= 0xDFFF)
                memcpy(body + i + 2, "fffd", 4);
            i += u >= 0 ? 5 : 1; /* past the escape (the loop adds one) */
        }
    }
}

json_t *lsp_json_load(char *body, size_t len, json_error_t *err)
{
    lsp_mend_surrogates(body, len);
    return json_loadb(body, len, JSON_ALLOW_NUL, err);
}
