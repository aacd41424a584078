/*
 * rp_markdown.c: `report --format=markdown`, the report as a pull-request
 * comment.  Per function: the peak and its line, the bytes moved, and
 * against a baseline the change of each (an arrow, the difference, the old
 * value); then the warnings (only the new ones against a baseline, with a
 * count of the unchanged), the functions renamed, added or removed, and one
 * link line per diagram the caller wrote.
 *
 * The comparison is rp_compare.c's over the JSON of both reports, so the
 * comment and `check --baseline` agree on what is new.  Text from the
 * program (messages quote calls) is escaped for Markdown.
 */
#include "rp_report.h"

#include <stdlib.h>
#include <string.h>

#include "rp_compare.h"

/* s with Markdown's inline syntax characters escaped. */
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>|#", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

static const char *md_bytes(char *buf, size_t size, long long bytes)
{
    return rp_format_bytes(buf, size, bytes);
}

/* "▲ +4 MiB (was 12 MiB)", "▼ -2 MiB (was 8 MiB)", "= (same)". */
static void md_change(FILE *out, long long was, long long now)
{
    char a[32], b[32];
    if (now == was) {
        fputs("= (same)", out);
        return;
    }
    fprintf(out, "%s %s%s (was %s)", now > was ? "▲" : "▼", now > was ? "+" : "-",
            md_bytes(a, sizeof a, now > was ? now - was : was - now), md_bytes(b, sizeof b, was));
}

/* The largest storages live at the peak, by the first name that keeps each
 * alive there: "; live there: d 256 MiB, x 128 MiB, b 128 MiB" (the JSON's
 * peak_live; those whose size is a formula, and those with no name, are
 * left out of it, and a count says how many are not named here). */
static void md_peak_live(FILE *out, const json_t *f)
{
    const json_t *live = json_object_get(f, "peak_live");
    size_t n = json_is_array(live) ? json_array_size(live) : 0, shown = 0;
    for (size_t k = 0; k < n && shown < 3; k++) {
        const json_t *e = json_array_get(live, k);
        const json_t *names = json_object_get(e, "names"), *bytes = json_object_get(e, "nbytes");
        if (!json_is_integer(bytes) || !json_is_array(names) || json_array_size(names) == 0)
            continue;
        char b[32];
        fputs(shown++ ? ", " : "<br>live there: ", out);
        md_text(out, json_string_value(json_array_get(names, 0)));
        fprintf(out, " %s", md_bytes(b, sizeof b, json_integer_value(bytes)));
    }
    if (shown > 0 && n > shown)
        fprintf(out, " (%zu more)", n - shown);
}

static void md_function_row(FILE *out, const rp_fn_pair *p, bool with_base)
{
    char a[32], b[32];
    const json_t *f = p->head ? p->head : p->base;
    long long line = rp_json_int(f, "peak_line", 0);
    an_claim claim = rp_json_claim(f, "peak_live_bytes");
    fprintf(out, "| %s`", p->change == RP_FN_REMOVED ? "~~" : "");
    md_text(out, rp_json_str(f, "name"));
    fprintf(out, "`%s", p->change == RP_FN_REMOVED ? "~~ (removed)" : "");
    if (p->change == RP_FN_RENAMED)
        fprintf(out, " (was `%s`)", rp_json_str(p->base, "name"));
    if (p->change == RP_FN_ADDED && with_base)
        fputs(" (new)", out);
    if (!p->head) {
        fprintf(out, " | - | was %s | - | was %s |\n",
                md_bytes(a, sizeof a, rp_json_int(p->base, "peak_live_bytes", 0)),
                md_bytes(b, sizeof b, rp_json_int(p->base, "moved_bytes", 0)));
        return;
    }
    fprintf(out, " | %s%s%s%s", claim == AN_CLAIM_UPPER || claim == AN_CLAIM_LOWER
            ? an_claim_words(claim) : "", claim == AN_CLAIM_UPPER || claim == AN_CLAIM_LOWER
            ? " " : "", md_bytes(a, sizeof a, rp_json_int(f, "peak_live_bytes", 0)),
            claim == AN_CLAIM_NONE ? " (not bounded)" : "");
    const char *peak_file = rp_json_str(f, "peak_file"); /* a program's: the line's file */
    if (!peak_file[0])
        peak_file = NULL; /* one file: its lines */
    const char *base = peak_file ? strrchr(peak_file, '/') : NULL;
    if (line > 0 && peak_file) {
        fprintf(out, " (line %lld of ", line);
        md_text(out, base ? base + 1 : peak_file);
        fputc(')', out);
    } else if (line > 0) {
        fprintf(out, " (line %lld)", line);
    }
    md_peak_live(out, f);
    if (with_base) {
        fputs(" | ", out);
        if (p->base)
            md_change(out, rp_json_int(p->base, "peak_live_bytes", 0),
                      rp_json_int(f, "peak_live_bytes", 0));
        else
            fputs("new", out);
    }
    fprintf(out, " | %s", md_bytes(b, sizeof b, rp_json_int(f, "moved_bytes", 0)));
    if (with_base) {
        fputs(" | ", out);
        if (p->base)
            md_change(out, rp_json_int(p->base, "moved_bytes", 0), rp_json_int(f, "moved_bytes", 0));
        else
            fputs("new", out);
    }
    fputs(" |\n", out);
}

static void md_table(FILE *out, const rp_comparison *c, bool with_base)
{
    if (c->n_pairs == 0) {
        fputs("No function uses the tensor API.\n", out);
        return;
    }
    fputs(with_base ? "| function | peak | change | bytes moved | change |\n"
                      "|---|---:|---|---:|---|\n"
                    : "| function | peak | bytes moved |\n|---|---:|---:|\n", out);
    for (int k = 0; k < c->n_pairs; k++)
        md_function_row(out, &c->pairs[k], with_base);
}

static void md_diag(FILE *out, const json_t *d)
{
    fprintf(out, "- **%s** `%s:%lld:%lld` ", rp_json_str(d, "severity"), rp_json_str(d, "file"),
            rp_json_int(d, "line", 0), rp_json_int(d, "column", 0));
    md_text(out, rp_json_str(d, "message"));
    fprintf(out, " [`%s`]\n", rp_json_str(d, "check"));
}

static void md_diags(FILE *out, const json_t *head, const json_t *base, const rp_comparison *c)
{
    bool with_base = base != NULL;
    const json_t *diags = json_object_get(head, "diagnostics");
    int shown = 0, unchanged = 0, absent = 0;
    fprintf(out, "\n### %s\n\n", with_base ? "New warnings" : "Warnings");
    for (int k = 0; k < c->n_head_diags; k++) {
        const json_t *d = json_array_get(diags, (size_t)k);
        if (strcmp(rp_json_str(d, "severity"), "note") == 0)
            continue;
        if (with_base && c->head_match[k] >= 0) {
            unchanged++;
            continue;
        }
        md_diag(out, d);
        shown++;
    }
    for (int b = 0; with_base && b < c->n_base_diags; b++)
        absent += c->base_in_file[b] && !c->base_matched[b] &&
                  strcmp(rp_json_str(json_array_get(json_object_get(base, "diagnostics"),
                                                    (size_t)b), "severity"), "note") != 0;
    if (shown == 0)
        fputs("None.\n", out);
    if (with_base)
        fprintf(out, "\n%d unchanged (not shown); %d gone since the base.\n", unchanged, absent);
}

static void md_links(FILE *out, const rp_md_options *o)
{
    if (o->n_links == 0)
        return;
    fputs("\n### Diagrams\n\n", out);
    for (int k = 0; k < o->n_links; k++) {
        fputs("- `", out);
        md_text(out, o->links[k].function);
        fprintf(out, "` %s: [%s](%s)\n", o->links[k].label, o->links[k].path, o->links[k].path);
    }
}

int rp_report_write_markdown(FILE *out, const an_report *r, const rp_md_options *o)
{
    json_t *head = rp_report_json(r);
    json_t *none = json_pack("{s:i,s:[],s:[]}", "schema", 1, "functions", "diagnostics");
    bool with_base = o->base != NULL;
    rp_comparison *c = rp_compare(with_base ? o->base : none, head, r->unit->path);
    fputs("## tensorlint: `", out);
    md_text(out, r->unit->path);
    fputs("`\n\n", out);
    if (with_base) /* (not the baseline's path: a CI runner's temporary file means nothing here) */
        fputs("Against the base revision's report (▲ more, ▼ less).\n\n", out);
    md_table(out, c, with_base);
    md_diags(out, head, o->base, c);
    md_links(out, o);
    rp_comparison_free(c);
    json_decref(head);
    json_decref(none);
    return 0;
}
