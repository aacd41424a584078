/*
 * check_sarif.c: the diagnostics of a check run as one SARIF 2.1.0 log
 * (built with Jansson), for code review and GitHub code scanning.
 *
 * One run; its rules are the whole check table, in table order, so a
 * ruleIndex is a ck_id.  Each rule has a short and full description, help
 * text (plain and markdown), a helpUri to docs/checks/<name>.md under the
 * configured base, a default level and tags.  Each result has the rule,
 * its level, the message, one location (file relative to %SRCROOT% when it
 * is under the source root, else an absolute file URI; a region whose
 * columns are UTF-16 code units, as columnKind says), the notes as related
 * locations, GitHub's primaryLocationLineHash, and the fix-its as a fix.
 * Files that could not be analysed are tool execution notifications.
 * Against a baseline (check --baseline) each result has its baselineState,
 * new or unchanged, and the base's results gone from a file follow its
 * results as absent ones, at the base's lines.
 */
#include "check_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *ck_level(an_severity s)
{
    return s == AN_ERROR ? "error" : s == AN_WARNING ? "warning" : "note";
}

/* path with every byte outside [A-Za-z0-9-._~/] written %XX. */
static char *ck_uri_escape(const char *path)
{
    size_t n = strlen(path);
    char *out = tl_xmalloc(3 * n + 1), *w = out;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            *w++ = (char)*p;
        else
            w += sprintf(w, "%%%02X", *p);
    }
    *w = '\0';
    return out;
}

/* An artifactLocation for path: relative to the source root when under it. */
static json_t *ck_artifact(const char *path, const char *root)
{
    char real[PATH_MAX];
    const char *abs = realpath(path, real) ? real : path;
    size_t n = strlen(root);
    if (root[0] && strncmp(abs, root, n) == 0 && abs[n] == '/') {
        char *uri = ck_uri_escape(abs + n + 1);
        json_t *a = json_pack("{s:s,s:s}", "uri", uri, "uriBaseId", "%SRCROOT%");
        free(uri);
        return a;
    }
    char *esc = ck_uri_escape(abs), *uri = tl_xasprintf("file://%s", esc);
    json_t *a = json_pack("{s:s}", "uri", uri);
    free(esc);
    free(uri);
    return a;
}

static json_t *ck_region(const ck_src *src, int line, int col, bool extent)
{
    ck_pos end;
    json_t *r = json_pack("{s:i,s:i}", "startLine", line, "startColumn",
                          ck_src_utf16_col(src, line, col));
    if (extent && ck_src_extent(src, (ck_pos){line, col}, &end)) {
        json_object_set_new(r, "endLine", json_integer(end.line));
        json_object_set_new(r, "endColumn", json_integer(ck_src_utf16_col(src, end.line, end.col)));
    }
    return r;
}

static json_t *ck_location(const ck_src *src, const json_t *artifact, int line, int col,
                           bool extent)
{
    return json_pack("{s:{s:O,s:o}}", "physicalLocation", "artifactLocation", artifact, "region",
                     ck_region(src, line, col, extent));
}

static json_t *ck_fix(const ck_src *src, const json_t *artifact, const an_diag *d)
{
    json_t *reps = json_array();
    for (int k = 0; k < d->n_fixits; k++) {
        const an_fixit *f = &d->fixits[k];
        json_t *region = json_pack("{s:i,s:i,s:i,s:i}", "startLine", f->line, "startColumn",
                                   ck_src_utf16_col(src, f->line, f->col), "endLine", f->end_line,
                                   "endColumn", ck_src_utf16_col(src, f->end_line, f->end_col));
        json_array_append_new(reps, json_pack("{s:o,s:{s:s}}", "deletedRegion", region,
                                              "insertedContent", "text", f->text));
    }
    char *what = tl_xasprintf("the mechanical fix for [%s]", d->check);
    json_t *fix = json_pack("{s:{s:s},s:[{s:O,s:o}]}", "description", "text", what,
                            "artifactChanges", "artifactLocation", artifact, "replacements", reps);
    free(what);
    return fix;
}

/* A note's location: in the diagnostic's file, or (a program's) in its own. */
static json_t *ck_note_location(const ck_src *src, const json_t *artifact, const an_note *n,
                                const char *root)
{
    if (!n->file)
        return ck_location(src, artifact, n->line, n->col, false);
    ck_src *other = ck_src_load(n->file);
    json_t *a = ck_artifact(n->file, root);
    json_t *loc = other ? ck_location(other, a, n->line, n->col, false)
                        : json_pack("{s:{s:O,s:{s:i,s:i}}}", "physicalLocation",
                                    "artifactLocation", a, "region", "startLine", n->line,
                                    "startColumn", n->col);
    json_decref(a);
    ck_src_free(other);
    return loc;
}

static json_t *ck_result(const ck_src *src, char **hashes, const json_t *artifact,
                         const an_diag *d, const char *state, const char *root)
{
    int rule = ck_find(d->check);
    json_t *res = json_pack("{s:s}", "ruleId", d->check);
    if (rule >= 0)
        json_object_set_new(res, "ruleIndex", json_integer(rule));
    json_object_set_new(res, "level", json_string(ck_level(d->severity)));
    json_object_set_new(res, "message", json_pack("{s:s}", "text", d->message));
    json_object_set_new(res, "locations",
                        json_pack("[o]", ck_location(src, artifact, d->line, d->col,
                                                     !state || strcmp(state, "absent") != 0)));
    if (d->n_notes > 0) {
        json_t *rel = json_array();
        for (int k = 0; k < d->n_notes; k++) {
            json_t *loc = ck_note_location(src, artifact, &d->notes[k], root);
            json_object_set_new(loc, "id", json_integer(k + 1));
            json_object_set_new(loc, "message", json_pack("{s:s}", "text", d->notes[k].message));
            json_array_append_new(rel, loc);
        }
        json_object_set_new(res, "relatedLocations", rel);
    }
    const char *hash = hashes && d->line >= 1 && d->line <= ck_src_n_lines(src) + 1
                           ? hashes[d->line] : NULL;
    if (hash)
        json_object_set_new(res, "partialFingerprints",
                            json_pack("{s:s}", "primaryLocationLineHash", hash));
    if (d->n_fixits > 0)
        json_object_set_new(res, "fixes", json_pack("[o]", ck_fix(src, artifact, d)));
    if (state)
        json_object_set_new(res, "baselineState", json_string(state));
    return res;
}

/* ---- the rules ---- */

static json_t *ck_tags(const char *tags)
{
    json_t *a = json_array();
    for (const char *p = tags; *p;) {
        const char *comma = strchr(p, ',');
        int n = comma ? (int)(comma - p) : (int)strlen(p);
        char *t = tl_xasprintf("%.*s", n, p);
        json_array_append_new(a, json_string(t));
        free(t);
        if (!comma)
            break;
        p = comma + 1;
    }
    return a;
}

static json_t *ck_rule(const ck_info *c, const char *doc_url)
{
    char *uri = tl_xasprintf("%s%s.md", doc_url, c->name);
    char *full = tl_xasprintf("%s. %s", c->summary,
                              c->severity == AN_ERROR ? "The program is wrong: PyTorch raises here."
                              : c->severity == AN_WARNING ? "The program pays bytes or traffic it "
                                                         "did not need to."
                                                       : "A limit of the analysis.");
    char *text = tl_xasprintf("%s. The message states the cost in bytes and notes point at the "
                              "cause. Suppress one line with // NOLINT(%s). Details: %s",
                              c->summary, c->name, uri);
    char *md = tl_xasprintf("**%s**: %s.\n\nThe message states the cost in bytes; notes point at the "
                            "cause. Suppress one line with `// NOLINT(%s)`. See [%s](%s).",
                            c->name, c->summary, c->name, c->name, uri);
    const char *sev = c->severity == AN_ERROR ? "error"
                      : c->severity == AN_WARNING ? "warning" : "recommendation";
    json_t *r = json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:{s:s,s:s},s:s,s:{s:s},s:{s:o,s:s,s:s}}",
                          "id", c->name, "name", c->name, "shortDescription", "text", c->summary,
                          "fullDescription", "text", full, "help", "text", text, "markdown", md,
                          "helpUri", uri, "defaultConfiguration", "level", ck_level(c->severity),
                          "properties", "tags", ck_tags(c->tags), "precision",
                          c->severity == AN_ERROR ? "very-high" : "high", "problem.severity", sev);
    free(uri);
    free(full);
    free(text);
    free(md);
    return r;
}

static json_t *ck_driver(const ck_sarif_options *o)
{
    json_t *rules = json_array();
    for (int k = 0; k < CK_N_CHECKS; k++)
        json_array_append_new(rules, ck_rule(&ck_checks[k], o->doc_url));
    return json_pack("{s:s,s:s,s:s,s:o}", "name", "tensorlint", "version", o->version,
                     "semanticVersion", o->version, "rules", rules);
}

/* ---- the log ---- */

static void ck_file_results(json_t *results, const ck_sarif_file *f, const char *root)
{
    ck_src *src = ck_src_load(f->path);
    char **hashes = src ? ck_src_line_hashes(src) : NULL;
    json_t *artifact = ck_artifact(f->path, root);
    const ck_base_result *b = f->base;
    for (int k = 0; k < f->n_diags; k++)
        json_array_append_new(results, ck_result(src, hashes, artifact, &f->diags[k],
                                                 !b ? NULL : b->states[k] == CK_BASE_NEW
                                                               ? "new" : "unchanged", root));
    for (int k = 0; b && k < b->n_absent; k++) /* base lines: no head line hash, no extent */
        json_array_append_new(results, ck_result(src, NULL, artifact, &b->absent[k], "absent", root));
    for (int k = 0; hashes && k <= ck_src_n_lines(src) + 1; k++)
        free(hashes[k]);
    free(hashes);
    json_decref(artifact);
    ck_src_free(src);
}

static json_t *ck_invocation(const ck_sarif_file *files, int n, const char *root)
{
    json_t *notes = json_array();
    for (int k = 0; k < n; k++) {
        if (!files[k].failure)
            continue;
        json_array_append_new(notes, json_pack("{s:s,s:{s:s},s:[{s:{s:o}}]}", "level", "error",
                                               "message", "text", files[k].failure, "locations",
                                               "physicalLocation", "artifactLocation",
                                               ck_artifact(files[k].path, root)));
    }
    return json_pack("{s:b,s:o}", "executionSuccessful", json_array_size(notes) == 0,
                     "toolExecutionNotifications", notes);
}

json_t *ck_sarif_log(const ck_sarif_file *files, int n_files, const ck_sarif_options *o)
{
    char root[PATH_MAX];
    if (!realpath(o->srcroot ? o->srcroot : ".", root))
        snprintf(root, sizeof root, "%s", o->srcroot ? o->srcroot : ".");
    json_t *results = json_array();
    for (int k = 0; k < n_files; k++)
        ck_file_results(results, &files[k], root);
    char *esc = ck_uri_escape(root);
    char *root_uri = tl_xasprintf("file://%s%s", esc, root[strlen(root) - 1] == '/' ? "" : "/");
    json_t *run = json_pack("{s:{s:o},s:{s:{s:s}},s:s,s:[o],s:o}", "tool", "driver",
                            ck_driver(o), "originalUriBaseIds", "%SRCROOT%", "uri", root_uri,
                            "columnKind", "utf16CodeUnits", "invocations",
                            ck_invocation(files, n_files, root), "results", results);
    free(esc);
    free(root_uri);
    return json_pack("{s:s,s:s,s:[o]}", "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
                     "version", "2.1.0", "runs", run);
}
