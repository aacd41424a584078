/*
 * check_select.c: choosing checks with clang-tidy's globs.  A selection is
 * a comma-separated list applied in order to a mask over the check table:
 * `hidden-copy` or `*-copy` turns matching checks on, a leading `-` turns
 * them off, so `*,-tiny-cuda-tensor` is every check but one and
 * `-*,upcast` only one.  `*` matches any run of characters.  A plain name
 * (no `*`) that names no check is an error, so a typo does not silently
 * select nothing.
 */
#include "check_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool ck_glob_match(const char *glob, const char *name)
{
    for (; *glob; glob++, name++) {
        if (*glob == '*') {
            while (glob[1] == '*')
                glob++;
            for (const char *n = name;; n++) {
                if (ck_glob_match(glob + 1, n))
                    return true;
                if (!*n)
                    return false;
            }
        }
        if (*glob != *name)
            return false;
    }
    return *name == '\0';
}

/* Apply one glob (n bytes at g, blanks trimmed) to mask. */
static bool ck_select_one(const char *g, size_t n, bool *mask, char **error)
{
    bool on = true;
    if (n > 0 && g[0] == '-') {
        on = false;
        g++;
        n--;
    }
    char *glob = tl_xasprintf("%.*s", (int)n, g);
    int matched = 0;
    for (int k = 0; k < CK_N_CHECKS; k++) {
        if (ck_glob_match(glob, ck_checks[k].name)) {
            mask[k] = on;
            matched++;
        }
    }
    bool ok = n > 0 && (matched > 0 || strchr(glob, '*'));
    if (!ok && error)
        *error = n == 0 ? tl_xasprintf("an empty check name") : tl_xasprintf("unknown check '%s'", glob);
    free(glob);
    return ok;
}

bool ck_select(const char *globs, bool *mask, char **error)
{
    const char *p = globs;
    if (error)
        *error = NULL;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        size_t b = 0;
        while (b < n && isspace((unsigned char)p[b]))
            b++;
        while (n > b && isspace((unsigned char)p[n - 1]))
            n--;
        if (!ck_select_one(p + b, n - b, mask, error))
            return false;
        p = end ? end + 1 : p + n;
        if (!end)
            break;
    }
    return true;
}
