/*
 * rp_locate.c: where a diagnostic is, in words that survive unrelated
 * edits: the function that contains it and the text of the call it points
 * at.  A baseline matches diagnostics on these (and the check), never on
 * line numbers, so a change that shifts lines above a warning leaves the
 * warning matched.
 *
 * The call's text is read back from the source: from the diagnostic's
 * column, an identifier and its balanced argument list (string and
 * character literals and comments skipped), with every run of blanks
 * written as one space and no blank next to a parenthesis or before a
 * comma, so reformatting a call does not change it.  A position that does
 * not start a call gives the rest of the statement, normalised the same way.
 */
#define _GNU_SOURCE /* open_memstream */
#include "rp_report.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum { RP_CALL_TEXT_MAX = 240 }; /* bytes kept of a call's text; longer is cut with "..." */

const char *rp_line_function(const an_report *r, int line)
{
    const ir_unit *u = r->unit;
    for (int k = 0; u && k < u->n_funcs; k++) {
        const ir_func *f = u->funcs[k];
        if (line >= f->loc.line && (f->end.line == 0 || line <= f->end.line))
            return f->name;
    }
    return NULL;
}

static char *rp_file_read(const char *path, size_t *size)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *m = tl_xmemstream(&text, &len);
    char buf[65536];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
        fwrite(buf, 1, n, m);
    int failed = ferror(f) ? errno : 0; /* a directory reads as an error (EISDIR) */
    fclose(f);
    tl_xmemstream_close(m);
    if (failed) {
        free(text);
        errno = failed;
        return NULL;
    }
    *size = len;
    return text;
}

/* The source over text (taken), its lines indexed once so that a call's
 * text is found without scanning the file again for each diagnostic. */
static rp_source *rp_source_take(char *text, size_t size)
{
    rp_source *s = tl_xcalloc(1, sizeof *s);
    size_t n_lines = 1;
    for (size_t k = 0; k < size; k++)
        n_lines += text[k] == '\n';
    s->line_start = tl_xcalloc(n_lines + 1, sizeof(size_t));
    s->text = text;
    s->size = size;
    s->line_start[0] = 0;
    for (size_t k = 0, l = 1; k < size; k++)
        if (text[k] == '\n')
            s->line_start[l++] = k + 1;
    s->n_lines = (int)n_lines;
    return s;
}

rp_source *rp_source_load(const char *path)
{
    size_t size = 0;
    char *text = rp_file_read(path, &size);
    return text ? rp_source_take(text, size) : NULL;
}

rp_source *rp_source_load_unit(const ir_unit *u)
{
    size_t size = 0;
    if (u->n_files == 0)
        return rp_source_load(u->path);
    char *text = ir_unit_program_text(u, &size);
    return text ? rp_source_take(text, size) : NULL;
}

rp_source *rp_source_of(const char *text, size_t size)
{
    char *copy = tl_xmalloc(size + 1);
    memcpy(copy, text, size);
    copy[size] = '\0';
    return rp_source_take(copy, size);
}

void rp_source_free(rp_source *s)
{
    if (!s)
        return;
    free(s->text);
    free(s->line_start);
    free(s);
}

/* The offset of line:col, or -1 when it is outside the text. */
static long rp_offset_of(const rp_source *s, int line, int col)
{
    if (line < 1 || line > s->n_lines || col < 1)
        return -1;
    size_t k = s->line_start[line - 1] + (size_t)col - 1;
    return k <= s->size ? (long)k : -1;
}

/* Appends c to the normalised text: blanks as one space, none next to
 * parentheses, brackets and before commas. */
static void rp_put_norm(FILE *m, char c, char *last, bool *pending_space)
{
    if (isspace((unsigned char)c)) {
        *pending_space = *last != '\0';
        return;
    }
    if (*pending_space && !strchr("([", *last) && !strchr(")],;", c))
        fputc(' ', m);
    *pending_space = false;
    fputc(c, m);
    *last = c;
}

/* Skips a literal or comment starting at text[k]; returns the offset after it, or k. */
static size_t rp_skip_literal(const char *text, size_t size, size_t k, FILE *m, char *last,
                              bool *space)
{
    if (text[k] == '/' && k + 1 < size && (text[k + 1] == '/' || text[k + 1] == '*')) {
        const char *end = text[k + 1] == '/' ? memchr(text + k, '\n', size - k)
                                             : strstr(text + k + 2, "*/");
        *space = *last != '\0';
        return end ? (size_t)(end - text) + (text[k + 1] == '*' ? 2 : 0) : size;
    }
    if (text[k] != '"' && text[k] != '\'')
        return k;
    char q = text[k];
    rp_put_norm(m, q, last, space);
    for (k++; k < size && text[k] != q && text[k] != '\n'; k++) {
        if (text[k] == '\\' && k + 1 < size)
            fputc(text[k++], m);
        fputc(text[k], m);
    }
    if (k < size && text[k] == q)
        fputc(q, m);
    *last = q;
    return k + 1;
}

char *rp_source_call_text(const rp_source *src, int line, int col)
{
    long at = src ? rp_offset_of(src, line, col) : -1;
    if (at < 0)
        return NULL;
    const char *text = src->text;
    size_t size = src->size;
    char *out = NULL, last = '\0';
    size_t len = 0;
    bool space = false, call = isalpha((unsigned char)text[at]) || text[at] == '_';
    int depth = 0;
    FILE *m = tl_xmemstream(&out, &len);
    for (size_t k = (size_t)at; k < size;) {
        size_t next = rp_skip_literal(text, size, k, m, &last, &space);
        if (next != k) {
            k = next;
            continue;
        }
        char c = text[k++];
        if (depth == 0 && c == '}' && !call && last == '\0') {
            rp_put_norm(m, c, &last, &space); /* a scope's end: the brace is the text */
            break;
        }
        if (depth == 0 && (c == ';' || c == '{' || c == '}' || (c == ')' && call)))
            break;
        if (depth == 0 && call && last != '\0' && !isalnum((unsigned char)c) && c != '_' &&
            c != '(' && !isspace((unsigned char)c))
            break; /* the identifier is not followed by its argument list */
        depth += (c == '(' || c == '[') - (c == ')' || c == ']');
        rp_put_norm(m, c, &last, &space);
        if (depth == 0 && c == ')' && call)
            break;
        if (depth < 0 || ftell(m) > RP_CALL_TEXT_MAX)
            break;
    }
    tl_xmemstream_close(m);
    if (len > RP_CALL_TEXT_MAX)
        strcpy(out + RP_CALL_TEXT_MAX - 3, "...");
    return out;
}
