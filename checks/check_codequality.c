/*
 * check_codequality.c: the diagnostics of a check run as a GitLab code
 * quality report (the Code Climate issue format GitLab reads from a
 * `codequality` artifact): a JSON array of issues, each with a
 * description, check_name, a fingerprint, a severity and a location (a
 * path relative to the source root and a begin line).
 *
 * GitLab compares a merge request's report with its target branch's by
 * fingerprint, so the fingerprint must not change when lines above an
 * issue change: it is a hash of the path, the check, the text of the call
 * the diagnostic points at (rp_source_call_text) and how many issues with the
 * same three came before it, never of the line.
 */
#include "check_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *ck_cq_severity(an_severity s)
{
    return s == AN_ERROR ? "critical" : s == AN_WARNING ? "major" : "info";
}

/* FNV-1a, 64 bits, over the NUL-separated parts. */
static uint64_t ck_cq_hash(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s;; p++) {
        h ^= *p;
        h *= UINT64_C(1099511628211);
        if (!*p)
            return h;
    }
}

/* path relative to root when under it, else as given. */
static const char *ck_cq_path(const char *path, const char *root, char *buf, size_t size)
{
    char real[PATH_MAX];
    size_t n = strlen(root);
    if (realpath(path, real) && strncmp(real, root, n) == 0 && real[n] == '/') {
        snprintf(buf, size, "%s", real + n + 1);
        return buf;
    }
    return path;
}

typedef struct ck_cq_seen {  /* fingerprints so far, to count repeats */
    int n, cap;
    uint64_t *keys;
} ck_cq_seen;

static int ck_cq_repeats(ck_cq_seen *s, uint64_t key)
{
    int count = 0;
    for (int k = 0; k < s->n; k++)
        count += s->keys[k] == key;
    tl_xgrow(s->keys, &s->cap, (size_t)s->n + 1, 16);
    s->keys[s->n++] = key;
    return count;
}

static json_t *ck_cq_issue(const ck_sarif_file *f, const an_diag *d, const char *path,
                           const rp_source *src, ck_cq_seen *seen)
{
    char *call = rp_source_call_text(src, d->line, d->col);
    uint64_t key = ck_cq_hash(ck_cq_hash(ck_cq_hash(UINT64_C(14695981039346656037), path),
                                         d->check), call ? call : "");
    char repeat[16], fp[40];
    snprintf(repeat, sizeof repeat, "%d", ck_cq_repeats(seen, key));
    snprintf(fp, sizeof fp, "%016llx", (unsigned long long)ck_cq_hash(key, repeat));
    free(call);
    (void)f;
    return json_pack("{s:s,s:s,s:s,s:s,s:{s:s,s:{s:i}}}", "description", d->message,
                     "check_name", d->check, "fingerprint", fp, "severity",
                     ck_cq_severity(d->severity), "location", "path", path, "lines", "begin",
                     d->line);
}

json_t *ck_codequality(const ck_sarif_file *files, int n_files, const char *srcroot)
{
    char root[PATH_MAX], rel[PATH_MAX];
    if (!realpath(srcroot ? srcroot : ".", root))
        snprintf(root, sizeof root, "%s", srcroot ? srcroot : ".");
    json_t *issues = json_array();
    for (int k = 0; k < n_files; k++) {
        const ck_sarif_file *f = &files[k];
        rp_source *src = rp_source_load(f->path);
        const char *path = ck_cq_path(f->path, root, rel, sizeof rel);
        ck_cq_seen seen = {0, 0, NULL};
        for (int d = 0; d < f->n_diags; d++)
            if (f->diags[d].severity != AN_NOTE)
                json_array_append_new(issues, ck_cq_issue(f, &f->diags[d], path, src, &seen));
        free(seen.keys);
        rp_source_free(src);
    }
    return issues;
}
