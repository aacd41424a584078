/*
 * check_nolint.c: clang-tidy's suppression comments, read from the source
 * text (libclang shows no comments):
 *
 *     stmt;  // NOLINT                       every check on this line
 *     stmt;  // NOLINT(hidden-copy, up*)     the listed checks (globs)
 *     // NOLINTNEXTLINE(late-release)        the next line
 *     // NOLINTBEGIN(upcast) ... // NOLINTEND(upcast)   the lines between
 *
 * The markers are searched in comments only (clang-tidy searches the whole
 * line; a string that mentions NOLINT should not count).  A NOLINTEND
 * closes the latest open NOLINTBEGIN with the same list.  Problems with the
 * comments themselves (a name that is no check, an unmatched BEGIN or END)
 * become [nolint] warnings.  Errors (the program is wrong) are never
 * suppressed.
 */
#include "check_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct ck_nolint_range {
    int first, last;  /* lines */
    int line, col;    /* the marker, for problems */
    char *globs;      /* "a,b*" without blanks, or NULL: every check */
    bool open;        /* a NOLINTBEGIN not yet closed */
} ck_nolint_range;

struct ck_nolint {
    const char *path;
    int n, cap;
    ck_nolint_range *r;
    int n_problems;
    an_diag *problems;
};

static void ck_nolint_problem(ck_nolint *nl, int line, int col, char *message)
{
    nl->problems = tl_xrealloc(nl->problems, sizeof *nl->problems * (size_t)(nl->n_problems + 1));
    nl->problems[nl->n_problems++] = (an_diag){
        .file = nl->path, .line = line, .col = col, .severity = ck_checks[CK_nolint].severity,
        .check = ck_checks[CK_nolint].name, .message = message};
}

static ck_nolint_range *ck_nolint_push(ck_nolint *nl, ck_nolint_range r)
{
    tl_xgrow(nl->r, &nl->cap, (size_t)nl->n + 1, 16);
    nl->r[nl->n] = r;
    return &nl->r[nl->n++];
}

/* The "(...)" list right after a marker, blanks removed, or NULL when there
 * is none; *end is one past it. */
static char *ck_nolint_list(const char *t, int len, int at, int *end)
{
    *end = at;
    if (at >= len || t[at] != '(')
        return NULL;
    const char *close = memchr(t + at, ')', (size_t)(len - at));
    if (!close)
        return NULL;
    char *list = tl_xasprintf("%.*s", (int)(close - t - at - 1), t + at + 1), *w = list;
    for (char *p = list; *p; p++)
        if (!isspace((unsigned char)*p))
            *w++ = *p;
    *w = '\0';
    *end = (int)(close - t) + 1;
    return list;
}

/* A [nolint] problem for every entry of the list that selects no check. */
static void ck_nolint_check_names(ck_nolint *nl, const char *list, int line, int col)
{
    bool mask[CK_N_CHECKS] = {false};
    const char *p = list;
    while (p && *p) {
        const char *comma = strchr(p, ',');
        int n = comma ? (int)(comma - p) : (int)strlen(p);
        char *one = tl_xasprintf("%.*s", n, p), *error = NULL;
        if (!ck_select(one, mask, &error))
            ck_nolint_problem(nl, line, col, tl_xasprintf("%s in a NOLINT comment", error));
        free(error);
        free(one);
        p = comma ? comma + 1 : NULL;
    }
}

static bool ck_same_list(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* NOLINTEND at (line, col): close the latest open BEGIN with the same list. */
static void ck_nolint_end(ck_nolint *nl, const char *list, int line, int col)
{
    for (int k = nl->n - 1; k >= 0; k--) {
        if (nl->r[k].open && ck_same_list(nl->r[k].globs, list)) {
            nl->r[k].open = false;
            nl->r[k].last = line;
            return;
        }
    }
    ck_nolint_problem(nl, line, col, tl_xasprintf("NOLINTEND%s%s%s without a matching NOLINTBEGIN",
                                                  list ? "(" : "", list ? list : "", list ? ")" : ""));
}

/* The markers in one line's piece of comment t (starting at column col). */
static void ck_nolint_line(void *ctx, int line, int col, const char *t, int len)
{
    ck_nolint *nl = ctx;
    static const char *const kinds[] = {"NOLINTNEXTLINE", "NOLINTBEGIN", "NOLINTEND", "NOLINT"};
    for (int at = 0; at + 6 <= len; at++) {
        if (strncmp(t + at, "NOLINT", 6) != 0)
            continue;
        int kind = 0, klen = 0, end;
        while (kind < 4 && !(at + (klen = (int)strlen(kinds[kind])) <= len &&
                             strncmp(t + at, kinds[kind], (size_t)klen) == 0))
            kind++;
        char *list = ck_nolint_list(t, len, at + klen, &end);
        if (list)
            ck_nolint_check_names(nl, list, line, col + at);
        ck_nolint_range r = {line, line, line, col + at, list, false};
        if (kind == 0)
            r.first = r.last = line + 1;
        if (kind == 1) {
            r.last = 1 << 30;
            r.open = true;
        }
        if (kind == 2) {
            ck_nolint_end(nl, list, line, col + at);
            free(list);
        } else {
            ck_nolint_push(nl, r);
        }
        at = end > at ? end - 1 : at + klen - 1;
    }
}

/* The markers of src (freed here); NULL when src is NULL. */
static ck_nolint *ck_nolint_scan_src(const char *path, ck_src *src)
{
    if (!src)
        return NULL;
    ck_nolint *nl = tl_xcalloc(1, sizeof *nl);
    nl->path = path;
    ck_src_comments(src, ck_nolint_line, nl);
    for (int k = 0; k < nl->n; k++)
        if (nl->r[k].open)
            ck_nolint_problem(nl, nl->r[k].line, nl->r[k].col,
                              tl_xasprintf("NOLINTBEGIN without a matching NOLINTEND: it suppresses "
                                           "to the end of the file"));
    ck_src_free(src);
    return nl;
}

ck_nolint *ck_nolint_scan(const char *path)
{
    return ck_nolint_scan_src(path, ck_src_load(path));
}

ck_nolint *ck_nolint_scan_text(const char *path, const char *text, size_t len)
{
    return ck_nolint_scan_src(path, ck_src_from_text(text, len));
}

/* Whether one of the comma-separated globs matches check. */
static bool ck_list_selects(const char *globs, const char *check)
{
    if (!globs)
        return true;
    for (const char *p = globs; *p;) {
        const char *comma = strchr(p, ',');
        char *one = tl_xasprintf("%.*s", comma ? (int)(comma - p) : (int)strlen(p), p);
        bool hit = ck_glob_match(one, check);
        free(one);
        if (hit)
            return true;
        if (!comma)
            break;
        p = comma + 1;
    }
    return false;
}

bool ck_nolint_suppresses(const ck_nolint *nl, const an_diag *d)
{
    if (!nl || d->severity == AN_ERROR)
        return false;
    for (int k = 0; k < nl->n; k++)
        if (d->line >= nl->r[k].first && d->line <= nl->r[k].last &&
            ck_list_selects(nl->r[k].globs, d->check))
            return true;
    return false;
}

int ck_nolint_problems(const ck_nolint *nl, const an_diag **out)
{
    *out = nl ? nl->problems : NULL;
    return nl ? nl->n_problems : 0;
}

void ck_nolint_free(ck_nolint *nl)
{
    if (!nl)
        return;
    for (int k = 0; k < nl->n; k++)
        free(nl->r[k].globs);
    for (int k = 0; k < nl->n_problems; k++)
        free(nl->problems[k].message);
    free(nl->problems);
    free(nl->r);
    free(nl);
}
