/*
 * rp_json_emit.c: the report's JSON writer (rp_json_emit.h).
 *
 * The text sink reserves room for an item before writing it (its key, 20
 * bytes for an integer, 6 per byte of a string at most) and writes it with
 * plain stores: integers by hand, strings escaped in one pass.  A value
 * costs no printf, no tree node and no cycle check, which is what Jansson's
 * encoder spends its time on.  The tree sink makes the same values with
 * Jansson, so that both sinks give the same JSON for one sequence of calls
 * (tests/unit/test_json_emit.c dumps the tree with Jansson to check it).
 */
#include "rp_json_emit.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JW_ASSERT(cond) ((cond) ? (void)0 : jw_die(__FILE__, __LINE__, #cond))

_Noreturn static void jw_die(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: JSON writer misused: %s\n", file, line, what);
    abort();
}

/* What a string holding a whole but invalid UTF-8 sequence becomes. */
static const char jw_not_utf8[] = "(a name that is not UTF-8)";

/* ---- UTF-8 ---- */

/* The sequence at s (n bytes left) by its shape: a lead byte and its
 * continuation bytes, 1 to 4 bytes; 0 when s[0] starts no whole sequence.
 * *valid: whether Jansson accepts it (shortest form, no surrogate, at most
 * U+10FFFF). */
static size_t jw_utf8_seq(const unsigned char *s, size_t n, bool *valid)
{
    unsigned char c = s[0];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    uint32_t cp = len == 1 ? c : c & (0x7Fu >> len);
    for (size_t k = 1; k < len; k++) {
        if ((s[k] >> 6) != 2)
            return 0;
        cp = cp << 6 | (s[k] & 0x3Fu);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    *valid = cp >= least[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
    return len;
}

bool rp_json_utf8_valid(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0; k < n;) {
        bool valid = true;
        size_t len = u[k] < 0x80 ? 1 : jw_utf8_seq(u + k, n - k, &valid);
        if (len == 0 || !valid)
            return false;
        k += len;
    }
    return true;
}

/* s[0..n) repaired into out (room for 3n bytes): a byte that starts no
 * whole sequence as U+FFFD.  Returns the end, or NULL at a whole sequence
 * that is not valid. */
static char *jw_utf8_repair(char *out, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0; k < n;) {
        bool valid = true;
        size_t len = u[k] < 0x80 ? 1 : jw_utf8_seq(u + k, n - k, &valid);
        if (len == 0) {
            memcpy(out, "\xEF\xBF\xBD", 3);
            out += 3, k++;
        } else if (!valid) {
            return NULL;
        } else {
            memcpy(out, u + k, len);
            out += len, k += len;
        }
    }
    return out;
}

/* ---- the text sink ---- */

/* The escape of an ASCII character that JSON (and Jansson) escapes. */
static char *jw_put_escape(char *p, unsigned char c)
{
    static const char hex[] = "0123456789ABCDEF";
    *p++ = '\\';
    switch (c) {
    case '"': *p++ = '"'; break;
    case '\\': *p++ = '\\'; break;
    case '\b': *p++ = 'b'; break;
    case '\f': *p++ = 'f'; break;
    case '\n': *p++ = 'n'; break;
    case '\r': *p++ = 'r'; break;
    case '\t': *p++ = 't'; break;
    default:
        memcpy(p, "u00", 3);
        p[3] = hex[c >> 4];
        p[4] = hex[c & 15];
        p += 5;
    }
    return p;
}

/* s[0..n) as a quoted, escaped JSON string at p (room for 6n + 2 bytes),
 * repaired as jw_utf8_repair repairs.  Returns the end, or NULL at a whole
 * sequence that is not valid. */
static char *jw_put_string(char *p, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    *p++ = '"';
    for (size_t k = 0; k < n;) {
        unsigned char c = u[k];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            *p++ = (char)c, k++;
        } else if (c < 0x80) {
            p = jw_put_escape(p, c), k++;
        } else {
            bool valid = true;
            size_t len = jw_utf8_seq(u + k, n - k, &valid);
            if (len == 0) {
                memcpy(p, "\xEF\xBF\xBD", 3);
                p += 3, k++;
            } else if (!valid) {
                return NULL;
            } else {
                memcpy(p, u + k, len);
                p += len, k += len;
            }
        }
    }
    *p++ = '"';
    return p;
}

/* v in decimal at p (room for 20 bytes). */
static char *jw_put_int(char *p, int64_t v)
{
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char digits[20];
    int n = 0;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    if (v < 0)
        *p++ = '-';
    while (n > 0)
        *p++ = digits[--n];
    return p;
}

/* The comma before an item that follows another, and its key. */
static void jw_text_key(rp_jw *w, const char *key)
{
    size_t n = key ? strlen(key) : 0;
    char *p = rp_tb_room(w->text, n + 4);
    if (w->comma)
        *p++ = ',';
    if (key) {
        *p++ = '"';
        memcpy(p, key, n);
        p += n;
        *p++ = '"';
        *p++ = ':';
    }
    rp_tb_commit(w->text, p);
}

static void jw_text_mem(rp_jw *w, const char *key, const char *s, size_t n)
{
    jw_text_key(w, key);
    rp_tb_mem(w->text, s, n);
    w->comma = true;
}

/* ---- the tree sink ---- */

/* Jansson returns NULL when it runs out of memory: the tool's out-of-memory
 * exit (xalloc.h). */
static void jw_tree_add(rp_jw *w, const char *key, json_t *v)
{
    if (!v)
        tl_out_of_memory(0);
    if (w->depth == 0) {
        w->root = v;
    } else if (key) {
        json_object_set_new_nocheck(w->open[w->depth - 1], key, v);
    } else {
        json_array_append_new(w->open[w->depth - 1], v);
    }
}

/* s[0..n) as a Jansson string, repaired as the text sink repairs it. */
static json_t *jw_tree_string(const char *s, size_t n)
{
    if (rp_json_utf8_valid(s, n))
        return json_stringn_nocheck(s, n);
    rp_textbuf repaired = {0};
    char *end = jw_utf8_repair(rp_tb_room(&repaired, 3 * n), s, n);
    json_t *j = end ? json_stringn_nocheck(repaired.buf, (size_t)(end - repaired.buf))
                    : json_string(jw_not_utf8);
    rp_tb_free(&repaired);
    return j;
}

/* ---- the writer ---- */

rp_jw rp_jw_text(rp_textbuf *text, FILE *out) { return (rp_jw){.text = text, .out = out}; }

rp_jw rp_jw_tree(void) { return (rp_jw){0}; }

void rp_jw_line(rp_jw *w, const char *file_key, const char *key, int line)
{
    if (!w->unit || w->unit->n_files == 0) {
        rp_jw_int(w, key, line);
        return;
    }
    const ir_file *f = ir_unit_file_at(w->unit, line);
    if (file_key)
        rp_jw_str(w, file_key, f ? f->path : NULL);
    rp_jw_int(w, key, f ? line - f->line_base : line);
}

json_t *rp_jw_tree_take(rp_jw *w)
{
    JW_ASSERT(!w->text && w->depth == 0);
    json_t *root = w->root;
    w->root = NULL;
    return root;
}

/* Every item: a key inside an object, none inside an array; scalars only
 * inside a container, and one tree root. */
static void jw_check(const rp_jw *w, const char *key, bool container)
{
    if (w->depth > 0)
        JW_ASSERT((key != NULL) == (w->close[w->depth - 1] == '}'));
    else
        JW_ASSERT(container && !key && !w->root);
}

static void jw_open(rp_jw *w, const char *key, char open, char close)
{
    jw_check(w, key, true);
    JW_ASSERT(w->depth < RP_JW_MAX_DEPTH);
    if (w->text) {
        jw_text_mem(w, key, &open, 1);
        w->comma = false;
    } else {
        json_t *c = open == '{' ? json_object() : json_array();
        jw_tree_add(w, key, c);
        w->open[w->depth] = c;
    }
    w->close[w->depth++] = close;
}

void rp_jw_object(rp_jw *w, const char *key) { jw_open(w, key, '{', '}'); }

void rp_jw_array(rp_jw *w, const char *key) { jw_open(w, key, '[', ']'); }

void rp_jw_end(rp_jw *w)
{
    JW_ASSERT(w->depth > 0);
    w->depth--;
    if (w->text) {
        rp_tb_mem(w->text, &w->close[w->depth], 1);
        w->comma = true;
        if (w->out && w->text->len >= RP_TB_FLUSH_AT)
            rp_tb_flush(w->text, w->out);
    }
}

void rp_jw_null(rp_jw *w, const char *key)
{
    jw_check(w, key, false);
    if (w->text)
        jw_text_mem(w, key, "null", 4);
    else
        jw_tree_add(w, key, json_null());
}

void rp_jw_bool(rp_jw *w, const char *key, bool v)
{
    jw_check(w, key, false);
    if (w->text)
        jw_text_mem(w, key, v ? "true" : "false", v ? 4 : 5);
    else
        jw_tree_add(w, key, json_boolean(v));
}

void rp_jw_int(rp_jw *w, const char *key, int64_t v)
{
    jw_check(w, key, false);
    if (!w->text) {
        jw_tree_add(w, key, json_integer(v));
        return;
    }
    jw_text_key(w, key);
    rp_tb_commit(w->text, jw_put_int(rp_tb_room(w->text, 20), v));
    w->comma = true;
}

void rp_jw_str(rp_jw *w, const char *key, const char *s)
{
    if (!s) {
        rp_jw_null(w, key);
        return;
    }
    jw_check(w, key, false);
    size_t n = strlen(s);
    if (!w->text) {
        jw_tree_add(w, key, jw_tree_string(s, n));
        return;
    }
    jw_text_key(w, key);
    char *end = jw_put_string(rp_tb_room(w->text, 6 * n + 2), s, n);
    if (!end)
        end = jw_put_string(rp_tb_room(w->text, 6 * sizeof jw_not_utf8), jw_not_utf8,
                            sizeof jw_not_utf8 - 1);
    rp_tb_commit(w->text, end);
    w->comma = true;
}
