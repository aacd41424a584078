/*
 * rp_compare.c: a report against its base revision's report (rp_compare.h).
 *
 * Everything here reads the JSON of docs/formats.md, the base's as loaded
 * from a file and the head's as rp_report_json builds it, so the two sides
 * are compared through one representation.  A base that is not such a
 * report is refused as a whole, with the reason, before anything is
 * compared: a half-read baseline would make every warning "new".
 */
#include "rp_compare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rp_report.h"
#include "xalloc.h"

long long rp_json_int(const json_t *o, const char *key, long long fallback)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? json_integer_value(v) : fallback;
}

const char *rp_json_str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

an_claim rp_json_claim(const json_t *f, const char *key)
{
    const json_t *bounds = json_object_get(f, "bounds"), *not_exact = json_object_get(f, "not_exact");
    const char *c = json_string_value(json_object_get(bounds, key));
    if (c)
        for (int k = AN_CLAIM_UPPER; k <= AN_CLAIM_NONE; k++)
            if (strcmp(c, an_claim_name((an_claim)k)) == 0)
                return (an_claim)k;
    if (json_is_object(bounds))
        return c ? AN_CLAIM_NONE : AN_CLAIM_EXACT; /* a word of a later schema: not bounded */
    size_t k;
    const json_t *e;
    json_array_foreach(not_exact, k, e) if (json_is_string(e) && strcmp(json_string_value(e), key) == 0)
        return AN_CLAIM_NONE;
    bool old_mark = !json_is_array(not_exact) && json_is_true(json_object_get(f, "bytes_are_lower_bounds"));
    return old_mark ? AN_CLAIM_NONE : AN_CLAIM_EXACT;
}

/* ---- loading ---- */

static char *rp_refuse(const char *path, const char *fmt, const char *detail)
{
    char *why = tl_xasprintf(fmt, detail), *msg = tl_xasprintf("%s: %s", path, why);
    free(why);
    return msg;
}

/* Why f is not a FUNCTION of a schema-1 report, or NULL. */
static const char *rp_bad_function(const json_t *f)
{
    if (!json_is_object(f))
        return "an entry of \"functions\" is not an object";
    if (!json_is_string(json_object_get(f, "name")) || !json_is_string(json_object_get(f, "file")))
        return "a function has no \"name\" or \"file\" string";
    if (!json_is_integer(json_object_get(f, "peak_live_bytes")) ||
        !json_is_integer(json_object_get(f, "moved_bytes")))
        return "a function's \"peak_live_bytes\" or \"moved_bytes\" is not an integer";
    if (!json_is_array(json_object_get(f, "values")) ||
        !json_is_array(json_object_get(f, "storages")))
        return "a function has no \"values\" or \"storages\" array";
    return NULL;
}

/* Why d is not a DIAGNOSTIC this comparison can pair, or NULL. */
static const char *rp_bad_diag(const json_t *d)
{
    if (!json_is_object(d) || !json_is_string(json_object_get(d, "file")) ||
        !json_is_string(json_object_get(d, "check")) ||
        !json_is_integer(json_object_get(d, "line")))
        return "a diagnostic has no \"file\", \"check\" or \"line\"";
    return NULL;
}

/* Why report is not a schema-1 report (the detail in *detail), or NULL. */
static const char *rp_bad_report(const json_t *report, const char **detail)
{
    const json_t *schema = json_object_get(report, "schema");
    const json_t *funcs = json_object_get(report, "functions");
    const json_t *diags = json_object_get(report, "diagnostics");
    size_t k;
    const json_t *e;
    bool any_call = false;
    if (!json_is_object(report) || !schema || !json_is_array(funcs) || !json_is_array(diags))
        return "not a tensorlint report (the output of `tensorlint report --format=json`: an "
               "object with \"schema\", \"functions\" and \"diagnostics\")%s";
    if (!json_is_integer(schema) || json_integer_value(schema) < 1 || json_integer_value(schema) > 3)
        return "a report of another schema (\"schema\": %s); this tensorlint compares schemas 1 "
               "to 3";
    json_array_foreach(funcs, k, e) if ((*detail = rp_bad_function(e)) != NULL) return
        "not a report this tensorlint can read: %s";
    json_array_foreach(diags, k, e) {
        if ((*detail = rp_bad_diag(e)) != NULL)
            return "not a report this tensorlint can read: %s";
        any_call |= json_object_get(e, "call") != NULL;
    }
    if (json_array_size(diags) > 0 && !any_call)
        return "its diagnostics carry no \"call\" (an older tensorlint wrote it%s): write the "
               "base's report again with this version";
    return NULL;
}

json_t *rp_baseline_load(const char *path, char **error)
{
    json_error_t je;
    rp_source *src = rp_source_load(path); /* one read: json_load_file reads a byte at a time */
    json_t *report = src ? json_loadb(src->text, src->size, 0, &je) : NULL;
    if (!src) {
        *error = rp_refuse(path, "cannot be read (%s)", strerror(errno));
        return NULL;
    }
    if (!report) {
        char *detail = tl_xasprintf("line %d: %s", je.line, je.text);
        *error = rp_refuse(path, "is not JSON (%s)", detail);
        free(detail);
        rp_source_free(src);
        return NULL;
    }
    rp_source_free(src);
    const char *detail = "";
    const char *why = rp_bad_report(report, &detail);
    if (why) {
        char *schema = json_dumps(json_object_get(report, "schema"), JSON_ENCODE_ANY);
        *error = rp_refuse(path, why, strstr(why, "another schema") ? (schema ? schema : "?")
                                                                   : detail);
        free(schema);
        json_decref(report);
        return NULL;
    }
    return report;
}

/* "a.c" names "a.c", "./a.c" and "/x/y/a.c"; "y/a.c" names "/x/y/a.c". */
static bool rp_same_file(const char *a, const char *b)
{
    while (strncmp(a, "./", 2) == 0)
        a += 2;
    while (strncmp(b, "./", 2) == 0)
        b += 2;
    size_t na = strlen(a), nb = strlen(b);
    if (na == nb)
        return strcmp(a, b) == 0;
    const char *longer = na > nb ? a : b, *shorter = na > nb ? b : a;
    size_t n = strlen(shorter), m = strlen(longer);
    return strcmp(longer + m - n, shorter) == 0 && longer[m - n - 1] == '/';
}

bool rp_report_names_file(const json_t *report, const char *file)
{
    size_t k;
    const json_t *e;
    json_array_foreach(json_object_get(report, "functions"), k, e)
        if (rp_same_file(rp_json_str(e, "file"), file))
            return true;
    json_array_foreach(json_object_get(report, "diagnostics"), k, e)
        if (rp_same_file(rp_json_str(e, "file"), file))
            return true;
    return false;
}

static void rp_list_add(char **list, const char *item)
{
    if (*list && strstr(*list, item))
        return;
    char *s = tl_xasprintf("%s%s%s", *list ? *list : "", *list ? ", " : "", item);
    free(*list);
    *list = s;
}

char *rp_report_files(const json_t *report)
{
    char *list = NULL;
    size_t k;
    const json_t *e;
    json_array_foreach(json_object_get(report, "functions"), k, e)
        rp_list_add(&list, rp_json_str(e, "file"));
    json_array_foreach(json_object_get(report, "diagnostics"), k, e)
        rp_list_add(&list, rp_json_str(e, "file"));
    return list ? list : tl_xstrdup("no file");
}

/* ---- functions ---- */

/* The same calls: the same ops on the same variables, in order. */
static bool rp_same_calls(const json_t *a, const json_t *b)
{
    const json_t *va = json_object_get(a, "values"), *vb = json_object_get(b, "values");
    if (json_array_size(va) != json_array_size(vb) || json_array_size(va) == 0)
        return false;
    for (size_t k = 0; k < json_array_size(va); k++) {
        const json_t *x = json_array_get(va, k), *y = json_array_get(vb, k);
        if (strcmp(rp_json_str(x, "op"), rp_json_str(y, "op")) != 0 ||
            strcmp(rp_json_str(x, "name"), rp_json_str(y, "name")) != 0)
            return false;
    }
    return true;
}

static const json_t *rp_find_function(const json_t *report, const char *file, const char *name,
                                      const bool *taken)
{
    size_t k;
    const json_t *f;
    json_array_foreach(json_object_get(report, "functions"), k, f)
        if (!taken[k] && rp_same_file(rp_json_str(f, "file"), file) &&
            strcmp(rp_json_str(f, "name"), name) == 0)
            return f;
    return NULL;
}

static size_t rp_index_of(const json_t *array, const json_t *e)
{
    for (size_t k = 0; k < json_array_size(array); k++)
        if (json_array_get(array, k) == e)
            return k;
    return (size_t)-1;
}

/* A head function without a partner: renamed from an unpaired base function with its calls? */
static void rp_pair_renamed(rp_comparison *c, const json_t *base, const char *file, bool *taken)
{
    const json_t *bf = json_object_get(base, "functions");
    for (int p = 0; p < c->n_pairs; p++) {
        if (c->pairs[p].change != RP_FN_ADDED)
            continue;
        for (size_t k = 0; k < json_array_size(bf); k++) {
            const json_t *f = json_array_get(bf, k);
            if (taken[k] || !rp_same_file(rp_json_str(f, "file"), file) ||
                rp_find_function(base, file, rp_json_str(c->pairs[p].head, "name"), taken) ||
                !rp_same_calls(f, c->pairs[p].head))
                continue;
            taken[k] = true;
            c->pairs[p].base = f;
            c->pairs[p].change = RP_FN_RENAMED;
            break;
        }
    }
}

static void rp_pair_functions(rp_comparison *c, const json_t *base, const json_t *head,
                              const char *file)
{
    const json_t *bf = json_object_get(base, "functions"), *hf = json_object_get(head, "functions");
    bool *taken = tl_xcalloc(json_array_size(bf), sizeof *taken);
    size_t k;
    const json_t *f;
    c->pairs = tl_xcalloc(json_array_size(bf) + json_array_size(hf), sizeof *c->pairs);
    json_array_foreach(hf, k, f) {
        const json_t *b = rp_find_function(base, file, rp_json_str(f, "name"), taken);
        if (b)
            taken[rp_index_of(bf, b)] = true;
        c->pairs[c->n_pairs++] = (rp_fn_pair){b, f, b ? RP_FN_SAME : RP_FN_ADDED};
    }
    rp_pair_renamed(c, base, file, taken);
    json_array_foreach(bf, k, f)
        if (!taken[k] && rp_same_file(rp_json_str(f, "file"), file))
            c->pairs[c->n_pairs++] = (rp_fn_pair){f, NULL, RP_FN_REMOVED};
    free(taken);
}

const char *rp_compare_base_name(const rp_comparison *c, const char *name)
{
    for (int k = 0; k < c->n_pairs; k++)
        if (c->pairs[k].head && c->pairs[k].base &&
            strcmp(rp_json_str(c->pairs[k].head, "name"), name) == 0)
            return rp_json_str(c->pairs[k].base, "name");
    return name;
}

/* ---- diagnostics ---- */

/* A diagnostic's pairing key: check, function (the base's name), call. */
typedef struct rp_diag_key {
    char *key;
    int index;   /* in its report's diagnostics */
} rp_diag_key;

static char *an_key_of(const json_t *d, const char *function)
{
    return tl_xasprintf("%s%c%s%c%s", rp_json_str(d, "check"), 0, function, 0,
                        rp_json_str(d, "call"));
}

/* Keys hold NULs: compare the three parts in turn. */
static int rp_key_cmp(const char *a, const char *b)
{
    for (int part = 0; part < 3; part++) {
        int c = strcmp(a, b);
        if (c != 0)
            return c;
        a += strlen(a) + 1;
        b += strlen(b) + 1;
    }
    return 0;
}

static int rp_cmp_diag_key(const void *x, const void *y)
{
    const rp_diag_key *a = x, *b = y;
    int c = rp_key_cmp(a->key, b->key);
    return c != 0 ? c : a->index - b->index;
}

/* The first entry of keys[0..n) with key k, or n. */
static int rp_key_lower(const rp_diag_key *keys, int n, const char *k)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (rp_key_cmp(keys[mid].key, k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Pairs each head diagnostic with the first unpaired base diagnostic of
 * the same key: the base's keys sorted (key, then order) and searched, a
 * cursor per run of equal keys, so n diagnostics cost n log n. */
static void rp_pair_diags(rp_comparison *c, const json_t *base, const json_t *head,
                          const char *file)
{
    const json_t *bd = json_object_get(base, "diagnostics");
    const json_t *hd = json_object_get(head, "diagnostics");
    c->n_base_diags = (int)json_array_size(bd);
    c->n_head_diags = (int)json_array_size(hd);
    c->base_matched = tl_xcalloc((size_t)c->n_base_diags, sizeof *c->base_matched);
    c->base_in_file = tl_xcalloc((size_t)c->n_base_diags, sizeof *c->base_in_file);
    c->head_match = tl_xcalloc((size_t)c->n_head_diags, sizeof *c->head_match);
    rp_diag_key *keys = tl_xcalloc((size_t)c->n_base_diags, sizeof *keys);
    int *cursor = tl_xcalloc((size_t)c->n_base_diags, sizeof *cursor);
    int n = 0;
    for (int b = 0; b < c->n_base_diags; b++) {
        const json_t *d = json_array_get(bd, (size_t)b);
        c->base_in_file[b] = rp_same_file(rp_json_str(d, "file"), file);
        if (c->base_in_file[b])
            keys[n++] = (rp_diag_key){an_key_of(d, rp_json_str(d, "function")), b};
    }
    qsort(keys, (size_t)n, sizeof *keys, rp_cmp_diag_key);
    for (int k = 0; k < n; k++)
        cursor[k] = k;
    for (int h = 0; h < c->n_head_diags; h++) {
        const json_t *d = json_array_get(hd, (size_t)h);
        char *key = an_key_of(d, rp_compare_base_name(c, rp_json_str(d, "function")));
        int first = rp_key_lower(keys, n, key), at = first < n ? cursor[first] : n;
        c->head_match[h] = at < n && rp_key_cmp(keys[at].key, key) == 0 ? keys[at].index : -1;
        if (c->head_match[h] >= 0) {
            c->base_matched[c->head_match[h]] = true;
            cursor[first] = at + 1;
        }
        free(key);
    }
    for (int k = 0; k < n; k++)
        free(keys[k].key);
    free(keys);
    free(cursor);
}

rp_comparison *rp_compare(const json_t *base, const json_t *head, const char *file)
{
    rp_comparison *c = tl_xcalloc(1, sizeof *c);
    rp_pair_functions(c, base, head, file);
    rp_pair_diags(c, base, head, file);
    return c;
}

void rp_comparison_free(rp_comparison *c)
{
    if (!c)
        return;
    free(c->pairs);
    free(c->head_match);
    free(c->base_matched);
    free(c->base_in_file);
    free(c);
}
