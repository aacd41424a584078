/*
 * check_source.c: the source text of a unit, read again for fix-its.  The
 * IR gives a call's start (line, column of the callee's name); a fix-it
 * needs the call's extent, its arguments and the end of its statement.
 * A small C lexer finds them: it skips comments, string and character
 * literals and balances parentheses.  Anything it does not recognise
 * (a macro standing for the call, an unbalanced line) makes it answer
 * false, and then the diagnostic simply has no fix-it.
 *
 * Positions are 1-based lines and byte columns; an end is one past.
 */
#include "check_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct ck_src {
    char *text;
    size_t size;
    int n_lines;
    size_t *line_start; /* n_lines + 1 offsets (the last is size + 1) */
};

/* Index the lines of s->text[0..s->size), which is NUL-terminated. */
static ck_src *ck_src_index(ck_src *s)
{
    s->text[s->size] = '\0';
    size_t n_lines = 1;
    for (size_t k = 0; k < s->size; k++)
        n_lines += s->text[k] == '\n';
    s->line_start = tl_xmalloc(sizeof(size_t) * (n_lines + 1));
    s->line_start[0] = 0;
    for (size_t k = 0, l = 1; k < s->size; k++)
        if (s->text[k] == '\n')
            s->line_start[l++] = k + 1;
    s->n_lines = (int)n_lines;
    s->line_start[n_lines] = s->size + 1;
    return s;
}

ck_src *ck_src_load(const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    ck_src *s = tl_xcalloc(1, sizeof *s);
    size_t cap = 4096;
    s->text = tl_xmalloc(cap);
    for (size_t n; (n = fread(s->text + s->size, 1, cap - s->size, f)) > 0;) {
        s->size += n;
        if (s->size == cap)
            s->text = tl_xrealloc(s->text, cap *= 2);
    }
    fclose(f);
    return ck_src_index(s);
}

ck_src *ck_src_load_unit(const ir_unit *u)
{
    size_t len;
    if (u->n_files == 0)
        return ck_src_load(u->path);
    char *text = ir_unit_program_text(u, &len);
    ck_src *s = text ? ck_src_from_text(text, len) : NULL;
    free(text);
    return s;
}

ck_src *ck_src_from_text(const char *text, size_t len)
{
    ck_src *s = tl_xcalloc(1, sizeof *s);
    s->text = tl_xmalloc(len + 1);
    memcpy(s->text, text, len);
    s->size = len;
    return ck_src_index(s);
}

void ck_src_free(ck_src *s)
{
    if (!s)
        return;
    free(s->text);
    free(s->line_start);
    free(s);
}

const char *ck_src_line(const ck_src *s, int line, int *len)
{
    if (!s || line < 1 || line > s->n_lines)
        return NULL;
    size_t b = s->line_start[line - 1], e = s->line_start[line] - 1;
    if (e > b && s->text[e - 1] == '\r')
        e--;
    *len = (int)(e - b);
    return s->text + b;
}

/* Offset of pos, or false when pos is outside the text. */
static bool ck_offset(const ck_src *s, ck_pos pos, size_t *out)
{
    int len;
    if (!ck_src_line(s, pos.line, &len) || pos.col < 1 || pos.col > len + 1)
        return false;
    *out = s->line_start[pos.line - 1] + (size_t)pos.col - 1;
    return true;
}

static ck_pos ck_pos_of(const ck_src *s, size_t off)
{
    int lo = 0, hi = s->n_lines - 1;
    while (lo < hi) { /* the last line whose start <= off */
        int mid = (lo + hi + 1) / 2;
        if (s->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (ck_pos){lo + 1, (int)(off - s->line_start[lo]) + 1};
}

/* One past the comment or literal starting at off, or off when none starts there. */
static size_t ck_skip_lexeme(const ck_src *s, size_t off)
{
    const char *t = s->text;
    if (t[off] == '/' && t[off + 1] == '/') {
        while (off < s->size && t[off] != '\n')
            off++;
        return off;
    }
    if (t[off] == '/' && t[off + 1] == '*') {
        const char *end = strstr(t + off + 2, "*/");
        return end ? (size_t)(end - t) + 2 : s->size;
    }
    if (t[off] == '"' || t[off] == '\'') {
        char q = t[off++];
        while (off < s->size && t[off] != q && t[off] != '\n')
            off += t[off] == '\\' ? 2 : 1;
        return off < s->size ? off + 1 : s->size;
    }
    return off;
}

static size_t ck_skip_blanks(const ck_src *s, size_t off)
{
    for (;;) {
        while (off < s->size && isspace((unsigned char)s->text[off]))
            off++;
        size_t next = s->text[off] == '/' ? ck_skip_lexeme(s, off) : off;
        if (next == off)
            return off;
        off = next;
    }
}

static bool ck_is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* A span [b, e) with blanks trimmed on both ends. */
static ck_span ck_trimmed(const ck_src *s, size_t b, size_t e)
{
    while (b < e && isspace((unsigned char)s->text[b]))
        b++;
    while (e > b && isspace((unsigned char)s->text[e - 1]))
        e--;
    return (ck_span){ck_pos_of(s, b), ck_pos_of(s, e)};
}

/* Scan the argument list whose '(' is at off; fill args and the end. */
static bool ck_scan_args(const ck_src *s, size_t off, ck_call_text *out, size_t *end)
{
    int depth = 0;
    size_t arg_begin = off + 1;
    out->n_args = 0;
    for (size_t k = off; k < s->size;) {
        size_t next = ck_skip_lexeme(s, k);
        if (next != k) {
            k = next;
            continue;
        }
        char c = s->text[k];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        if ((c == ',' && depth == 1) || depth == 0) {
            ck_span a = ck_trimmed(s, arg_begin, k);
            if (out->n_args < CK_MAX_ARGS && (c == ',' || a.begin.col != a.end.col ||
                                               a.begin.line != a.end.line))
                out->args[out->n_args++] = a;
            arg_begin = k + 1;
        }
        if (depth == 0) {
            *end = k + 1;
            return c == ')';
        }
        k++;
    }
    return false;
}

bool ck_src_call(const ck_src *s, ck_pos pos, const char *name, ck_call_text *out)
{
    size_t off, n = strlen(name);
    if (!s || !ck_offset(s, pos, &off) || strncmp(s->text + off, name, n) != 0 ||
        ck_is_ident(s->text[off + n]) || (off > 0 && ck_is_ident(s->text[off - 1])))
        return false;
    size_t paren = ck_skip_blanks(s, off + n), end;
    if (s->text[paren] != '(' || !ck_scan_args(s, paren, out, &end))
        return false;
    out->name = (ck_span){pos, ck_pos_of(s, off + n)};
    out->whole = (ck_span){pos, ck_pos_of(s, end)};
    return true;
}

bool ck_src_stmt_end(const ck_src *s, ck_pos pos, ck_pos *out)
{
    size_t off;
    int depth = 0;
    if (!s || !ck_offset(s, pos, &off))
        return false;
    for (size_t k = off; k < s->size;) {
        size_t next = ck_skip_lexeme(s, k);
        if (next != k) {
            k = next;
            continue;
        }
        char c = s->text[k];
        if (c == '(' || c == '[')
            depth++;
        else if (c == ')' || c == ']')
            depth--;
        else if (c == '{' || c == '}' || depth < 0)
            return false;
        else if (c == ';' && depth == 0) {
            *out = ck_pos_of(s, k + 1);
            return true;
        }
        k++;
    }
    return false;
}

char *ck_src_text(const ck_src *s, ck_span span)
{
    size_t b, e;
    if (!s || !ck_offset(s, span.begin, &b) || !ck_offset(s, span.end, &e) || e < b)
        return NULL;
    return tl_xasprintf("%.*s", (int)(e - b), s->text + b);
}

char *ck_src_indent(const ck_src *s, int line)
{
    int len, n = 0;
    const char *t = ck_src_line(s, line, &len);
    while (t && n < len && (t[n] == ' ' || t[n] == '\t'))
        n++;
    return tl_xasprintf("%.*s", n, t ? t : "");
}

/* Skip blanks in t[k..len). */
static int ck_blanks(const char *t, int k, int len)
{
    while (k < len && isspace((unsigned char)t[k]))
        k++;
    return k;
}

bool ck_src_is_release_line(const ck_src *s, int line, const char *var)
{
    int len, k, n = (int)strlen(var);
    const char *t = ck_src_line(s, line, &len);
    if (!t)
        return false;
    k = ck_blanks(t, 0, len);
    if (len - k < 10 || strncmp(t + k, "tl_release", 10) != 0)
        return false;
    k = ck_blanks(t, k + 10, len);
    if (k >= len || t[k] != '(')
        return false;
    k = ck_blanks(t, k + 1, len);
    if (len - k < n || strncmp(t + k, var, (size_t)n) != 0)
        return false;
    k = ck_blanks(t, k + n, len);
    if (k >= len || t[k] != ')')
        return false;
    k = ck_blanks(t, k + 1, len);
    if (k >= len || t[k] != ';')
        return false;
    k = ck_blanks(t, k + 1, len);
    return k == len || (len - k >= 2 && t[k] == '/' && t[k + 1] == '/');
}

bool ck_src_extent(const ck_src *s, ck_pos pos, ck_pos *end)
{
    size_t off, k;
    if (!s || !ck_offset(s, pos, &off) || off >= s->size || s->text[off] == '\n')
        return false;
    for (k = off; k < s->size && ck_is_ident(s->text[k]); k++)
        ;
    if (k == off) {
        *end = ck_pos_of(s, off + 1);
        return true;
    }
    size_t paren = ck_skip_blanks(s, k), close;
    ck_call_text ignored;
    if (s->text[paren] == '(' && ck_scan_args(s, paren, &ignored, &close))
        k = close;
    *end = ck_pos_of(s, k);
    return true;
}

/* Code points of the UTF-8 sequence at t (at most n bytes): its length, and
 * the UTF-16 units it takes (1 or 2); an invalid byte counts as U+FFFD. */
static int ck_utf8_step(const unsigned char *t, int n, int *units)
{
    int len = t[0] < 0x80 ? 1 : (t[0] >> 5) == 6 ? 2 : (t[0] >> 4) == 14 ? 3
              : (t[0] >> 3) == 30 ? 4 : 0;
    for (int k = 1; k < len; k++)
        if (k >= n || (t[k] & 0xc0) != 0x80)
            len = 0;
    *units = len == 4 ? 2 : 1;
    return len ? len : 1;
}

int ck_src_utf16_col(const ck_src *s, int line, int col)
{
    int len, units = 0, u;
    const char *t = ck_src_line(s, line, &len);
    if (!t)
        return col;
    int k = 0;
    while (k < col - 1 && k < len) {
        k += ck_utf8_step((const unsigned char *)t + k, len - k, &u);
        units += u;
    }
    return units + (col - 1 - k > 0 ? col - 1 - k : 0) + 1;
}

/* The code point of the len-byte UTF-8 sequence at t (U+FFFD for a bad byte). */
static uint32_t ck_code_point(const unsigned char *t, int len)
{
    if (len == 1)
        return t[0] < 0x80 ? t[0] : 0xfffd;
    uint32_t cp = t[0] & (0x7f >> len);
    for (int k = 1; k < len; k++)
        cp = cp << 6 | (t[k] & 0x3f);
    return cp;
}

/* The UTF-16 code units of the text, the way a JavaScript string holds it. */
static uint16_t *ck_src_utf16(const ck_src *s, size_t *n_out)
{
    uint16_t *u = tl_xreallocarray(NULL, s->size + 1, sizeof *u);
    size_t n = 0;
    for (size_t k = 0; k < s->size;) {
        const unsigned char *t = (const unsigned char *)s->text + k;
        int units, len = ck_utf8_step(t, (int)(s->size - k), &units);
        uint32_t cp = ck_code_point(t, len);
        if (cp >= 0x10000) {
            u[n++] = (uint16_t)(0xd800 + ((cp - 0x10000) >> 10));
            u[n++] = (uint16_t)(0xdc00 + ((cp - 0x10000) & 0x3ff));
        } else {
            u[n++] = (uint16_t)cp;
        }
        k += (size_t)len;
    }
    *n_out = n;
    return u;
}

/* ---- GitHub's primaryLocationLineHash (codeql-action's fingerprints.ts) ----
 * A rolling hash, base 37 modulo 2^64, over the 100 characters that follow
 * the start of each line, blanks skipped and line ends made "\n"; a line's
 * hash is written "<hex>:<n>", n counting equal hashes so far. */

#define CK_HASH_BLOCK 100

typedef struct ck_hasher {
    uint64_t window[CK_HASH_BLOCK], hash, first_mod;
    int line_numbers[CK_HASH_BLOCK];
    int index, line, n_lines;
    bool line_start, prev_cr;
    uint64_t *seen;     /* hashes output so far (counts by linear probing) */
    int *seen_count;
    size_t seen_cap;
    char **out;         /* per line (1-based) */
} ck_hasher;

static int ck_hash_count(ck_hasher *h, uint64_t v)
{
    size_t k = (size_t)(v * 0x9E3779B97F4A7C15ull) & (h->seen_cap - 1);
    while (h->seen_count[k] && h->seen[k] != v)
        k = (k + 1) & (h->seen_cap - 1);
    h->seen[k] = v;
    return ++h->seen_count[k];
}

static void ck_hash_output(ck_hasher *h)
{
    int line = h->line_numbers[h->index];
    int count = ck_hash_count(h, h->hash);
    if (line >= 1 && line <= h->n_lines && !h->out[line])
        h->out[line] = tl_xasprintf("%llx:%d", (unsigned long long)h->hash, count);
    h->line_numbers[h->index] = -1;
}

static void ck_hash_update(ck_hasher *h, uint64_t c)
{
    uint64_t begin = h->window[h->index];
    h->window[h->index] = c;
    h->hash = 37 * h->hash + c - h->first_mod * begin;
    h->index = (h->index + 1) % CK_HASH_BLOCK;
}

static void ck_hash_char(ck_hasher *h, uint64_t c)
{
    if (c == ' ' || c == '\t' || (h->prev_cr && c == '\n')) {
        h->prev_cr = false;
        return;
    }
    h->prev_cr = c == '\r';
    if (c == '\r')
        c = '\n';
    if (h->line_numbers[h->index] != -1)
        ck_hash_output(h);
    if (h->line_start) {
        h->line_start = false;
        h->line_numbers[h->index] = ++h->line;
    }
    if (c == '\n')
        h->line_start = true;
    ck_hash_update(h, c);
}

char **ck_src_line_hashes(const ck_src *s)
{
    ck_hasher h = {.first_mod = 1, .line_start = true, .n_lines = s->n_lines + 1};
    size_t n;
    uint16_t *u = ck_src_utf16(s, &n);
    for (int k = 0; k < CK_HASH_BLOCK; k++) {
        h.first_mod *= 37;
        h.line_numbers[k] = -1;
    }
    for (h.seen_cap = 64; h.seen_cap < 2 * (size_t)h.n_lines + 2; h.seen_cap *= 2)
        ;
    h.seen = tl_xcalloc(h.seen_cap, sizeof *h.seen);
    h.seen_count = tl_xcalloc(h.seen_cap, sizeof *h.seen_count);
    h.out = tl_xcalloc((size_t)h.n_lines + 2, sizeof *h.out);
    for (size_t k = 0; k < n; k++)
        ck_hash_char(&h, u[k]);
    ck_hash_char(&h, 65535);
    for (int k = 0; k < CK_HASH_BLOCK; k++) {
        if (h.line_numbers[h.index] != -1)
            ck_hash_output(&h);
        ck_hash_update(&h, 0);
    }
    free(u);
    free(h.seen);
    free(h.seen_count);
    return h.out;
}

int ck_src_n_lines(const ck_src *s) { return s ? s->n_lines : 0; }

void ck_src_comments(const ck_src *s, ck_comment_fn fn, void *ctx)
{
    for (size_t k = 0; s && k < s->size;) {
        const char *t = s->text;
        size_t next = t[k] == '/' || t[k] == '"' || t[k] == '\'' ? ck_skip_lexeme(s, k) : k;
        if (next == k) {
            k++;
            continue;
        }
        if (t[k] == '/') { /* a comment: hand it over line by line */
            for (size_t b = k; b < next;) {
                const char *nl = memchr(t + b, '\n', next - b);
                size_t e = nl ? (size_t)(nl - t) : next;
                ck_pos p = ck_pos_of(s, b);
                fn(ctx, p.line, p.col, t + b, (int)(e - b));
                b = e + 1;
            }
        }
        k = next;
    }
}
