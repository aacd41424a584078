/*
 * check_budget.c: over-budget, the memory budget a team agreed on for a
 * function.  A comment directly above the function's definition,
 *
 *     // tensorlint: budget peak 512MiB
 *     // tensorlint: budget moved 2GiB
 *
 * or `check --budget=FUNCTION=BYTES` (a peak budget; it overrides the
 * comment's) sets it.  A peak over its budget is an error at the peak's
 * line that names the budget, the peak, the excess and the storages live
 * there, largest first; bytes moved over budget are an error at the
 * function's name, with the calls that move most.  A budget met is silent.
 *
 * The numbers are the report's: where a storage's size is unknown the peak
 * is a lower bound and the message says "at least"; where the peak is
 * reached on one arm of a branch whose condition is not known statically
 * (the interpreter keeps the heavier arm), a note says which arm and that
 * the budget is exceeded only when that arm runs.
 *
 * A budget comment this file cannot read, or one with no function under
 * it, is a warning of the same check, so a typo does not turn a budget off
 * in silence.
 */
#define _GNU_SOURCE /* qsort_r */
#include "check_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { CK_BUDGET_SHOWN = 4 }; /* storages or calls listed in a message */

bool ck_parse_bytes(const char *s, int64_t *out)
{
    static const struct { const char *suffix; int shift; } units[] = {
        {"", 0}, {"K", 10}, {"KiB", 10}, {"M", 20}, {"MiB", 20}, {"G", 30}, {"GiB", 30}};
    char *end;
    if (!isdigit((unsigned char)s[0]))
        return false;
    long long v = strtoll(s, &end, 10);
    while (*end == ' ')
        end++;
    for (size_t k = 0; v >= 0 && k < sizeof units / sizeof units[0]; k++) {
        if (strcmp(end, units[k].suffix) == 0 && v <= (INT64_MAX >> units[k].shift)) {
            *out = (int64_t)v << units[k].shift;
            return true;
        }
    }
    return false;
}

/* ---- the comments ---- */

typedef enum ck_budget_kind { CK_BUDGET_PEAK, CK_BUDGET_MOVED } ck_budget_kind;

typedef struct ck_budget_mark {   /* one `tensorlint: budget` comment */
    int line, col;
    bool ok;                      /* understood */
    ck_budget_kind kind;
    int64_t bytes;
    char *text;                   /* what it said, for a warning */
} ck_budget_mark;

typedef struct ck_budget_scan {
    int n, cap;
    ck_budget_mark *marks;
} ck_budget_scan;

/* "budget peak 512MiB" (after "tensorlint:"), up to the end of the comment. */
static bool ck_budget_parse(const char *text, ck_budget_mark *m)
{
    char kind[16], bytes[64];
    int n = 0;
    if (sscanf(text, " budget %15s %63[^*\n]%n", kind, bytes, &n) < 2)
        return false;
    size_t len = strlen(bytes);
    while (len > 0 && isspace((unsigned char)bytes[len - 1]))
        bytes[--len] = '\0';
    if (strcmp(kind, "peak") != 0 && strcmp(kind, "moved") != 0)
        return false;
    m->kind = kind[0] == 'p' ? CK_BUDGET_PEAK : CK_BUDGET_MOVED;
    return ck_parse_bytes(bytes, &m->bytes);
}

static void ck_budget_comment(void *ctx, int line, int col, const char *text, int len)
{
    ck_budget_scan *sc = ctx;
    char *piece = tl_xasprintf("%.*s", len, text);
    char *at = strstr(piece, "tensorlint:");
    if (!at || strncmp(at + 11 + strspn(at + 11, " "), "budget", 6) != 0) {
        free(piece);
        return;
    }
    tl_xgrow(sc->marks, &sc->cap, (size_t)sc->n + 1, 4);
    ck_budget_mark *m = &sc->marks[sc->n++];
    *m = (ck_budget_mark){.line = line, .col = col + (int)(at - piece)};
    m->ok = ck_budget_parse(at + 11, m);
    m->text = tl_xasprintf("%s", at);
    free(piece);
}

/* Whether the lines between a comment and the function's name hold only
 * comments and the declaration's start (no ';', '{' or '}'). */
static bool ck_budget_directly_above(const ck_src *src, int line, int name_line)
{
    for (int l = line + 1; l < name_line; l++) {
        int len;
        const char *t = ck_src_line(src, l, &len);
        int b = t ? (int)strspn(t, " \t") : 0;
        if (!t || len - b == 0)
            return false; /* a blank line separates the comment from the code */
        if (strncmp(t + b, "//", 2) == 0 || strncmp(t + b, "/*", 2) == 0 || t[b] == '*')
            continue;
        for (int k = b; k < len; k++)
            if (t[k] == ';' || t[k] == '{' || t[k] == '}')
                return false;
    }
    return true;
}

/* The function whose definition the comment at line sits directly above, or -1. */
static int ck_budget_target(const ck_ctx *cx, int line)
{
    const ir_unit *u = cx->r->unit;
    int best = -1;
    for (int k = 0; k < u->n_funcs; k++)
        if (u->funcs[k]->loc.line > line &&
            (best < 0 || u->funcs[k]->loc.line < u->funcs[best]->loc.line))
            best = k;
    return best >= 0 && ck_budget_directly_above(ck_source(cx), line, u->funcs[best]->loc.line)
               ? best : -1;
}

/* ---- the peak ---- */

static int ck_cmp_storage_bytes(const void *a, const void *b, void *r)
{
    const an_storage *s = ((const an_report *)r)->storages;
    int64_t x = s[*(const int *)a].nbytes, y = s[*(const int *)b].nbytes;
    return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

/* "S2 'd' 256 MiB (line 27), S0 'x' 128 MiB (line 23), and 2 more (64 MiB)". */
static char *ck_live_list(const ck_ctx *cx, const an_func_report *f)
{
    int n = f->n_peak_storages;
    int *ids = tl_xcalloc((size_t)n + 1, sizeof *ids);
    memcpy(ids, f->peak_storages, sizeof *ids * (size_t)n);
    qsort_r(ids, (size_t)n, sizeof *ids, ck_cmp_storage_bytes, cx->r);
    char *s = tl_xasprintf("%s", "");
    int64_t rest = 0;
    for (int k = 0; k < n; k++) {
        const an_storage *st = &cx->r->storages[ids[k]];
        const an_value *v = st->value >= 0 ? &cx->r->values[st->value] : NULL;
        char *t;
        if (k >= CK_BUDGET_SHOWN) {
            rest += st->nbytes > 0 ? st->nbytes : 0;
            continue;
        }
        char *at = ck_line_text(cx, st->alloc_line);
        t = tl_xasprintf("%s%sS%d%s%s%s %s (line %s)", s, k ? ", " : "", st->id,
                         v && v->name ? " '" : "", v && v->name ? v->name : "",
                         v && v->name ? "'" : "", st->nbytes >= 0 ? ck_bytes(st->nbytes).s
                                                               : "unknown bytes", at);
        free(at);
        free(s);
        s = t;
    }
    if (n > CK_BUDGET_SHOWN) {
        char *t = tl_xasprintf("%s, and %d more (%s)", s, n - CK_BUDGET_SHOWN, ck_bytes(rest).s);
        free(s);
        s = t;
    }
    free(ids);
    return s;
}

/* The column of the function's call at line (its first), else 1. */
static int ck_call_col(const ck_ctx *cx, const an_func_report *f, int line)
{
    for (int k = 0; k < f->n_values; k++)
        if (cx->r->values[f->values[k]].line == line)
            return cx->r->values[f->values[k]].col;
    return 1;
}

/* The first and last line of block b (its statements; its brace when known). */
static void ck_block_lines(const ir_block *b, int *first, int *last)
{
    *first = b && b->n_stmts > 0 ? b->stmts[0]->loc.line : 0;
    *last = b && b->end.line > 0 ? b->end.line
            : b && b->n_stmts > 0 ? b->stmts[b->n_stmts - 1]->loc.line : 0;
}

/* Whether the function has a value that ran on lines [first, last]. */
static bool ck_ran_between(const ck_ctx *cx, const an_func_report *f, int first, int last)
{
    for (int k = 0; k < f->n_values; k++) {
        const an_value *v = &cx->r->values[f->values[k]];
        if (v->executed && v->line >= first && v->line <= last)
            return true;
    }
    return false;
}

static const ir_stmt *ck_unknown_branch(const ck_ctx *cx, const an_func_report *f,
                                        const ir_block *b, int line, bool *in_then);

/* An if holding line in an arm: the innermost unknown branch there, or this one
 * when its other arm ran too. */
static const ir_stmt *ck_unknown_if(const ck_ctx *cx, const an_func_report *f, const ir_stmt *s,
                                    int line, bool *in_then)
{
    int t0, t1, e0, e1;
    ck_block_lines(s->branch.then_blk, &t0, &t1);
    ck_block_lines(s->branch.else_blk, &e0, &e1);
    bool then_has = line >= t0 && line <= t1, else_has = line >= e0 && line <= e1;
    const ir_block *arm = then_has ? s->branch.then_blk : else_has ? s->branch.else_blk : NULL;
    const ir_stmt *deeper = arm ? ck_unknown_branch(cx, f, arm, line, in_then) : NULL;
    if (deeper || !arm)
        return deeper;
    if (!(then_has ? ck_ran_between(cx, f, e0, e1) : ck_ran_between(cx, f, t0, t1)))
        return NULL;
    *in_then = then_has;
    return s;
}

/* The innermost branch with an arm holding line whose two arms both ran
 * (so its condition was unknown); its statement and whether line is in the
 * then-arm.  NULL when there is none. */
static const ir_stmt *ck_unknown_branch(const ck_ctx *cx, const an_func_report *f,
                                        const ir_block *b, int line, bool *in_then)
{
    for (int k = 0; b && k < b->n_stmts; k++) {
        const ir_stmt *s = b->stmts[k], *found = NULL;
        if (s->kind == IR_IF)
            found = ck_unknown_if(cx, f, s, line, in_then);
        else if (s->kind == IR_BLOCK)
            found = ck_unknown_branch(cx, f, s->block, line, in_then);
        else if (s->kind == IR_LOOP) {
            const ir_block *parts[] = {s->loop.init, s->loop.cond_pre, s->loop.body, s->loop.step};
            for (size_t p = 0; !found && p < sizeof parts / sizeof parts[0]; p++)
                found = ck_unknown_branch(cx, f, parts[p], line, in_then);
        }
        if (found)
            return found;
    }
    return NULL;
}

/* After the join of a branch whose condition is unknown, the storages live
 * at the peak may come from the heavier arm only: say which, once per branch. */
static void ck_budget_arm_storages(ck_ctx *cx, const an_func_report *f, an_diag *d)
{
    const ir_stmt *seen = NULL;
    for (int k = 0; d && k < f->n_peak_storages; k++) {
        const an_storage *st = &cx->r->storages[f->peak_storages[k]];
        bool in_then = false;
        const ir_stmt *br = ck_unknown_branch(cx, f, cx->r->unit->funcs[f->func]->body,
                                              st->alloc_line, &in_then);
        if (!br || br == seen)
            continue;
        seen = br;
        ck_note(d, br->loc.line, br->loc.col, "S%d (%s), live at the peak, is made on the %s arm "
                "of this branch, whose condition is not known statically: the peak assumes that "
                "arm ran (the analysis keeps the heavier arm)", st->id, ck_bytes(st->nbytes).s,
                in_then ? "first (if)" : "second (else)");
    }
}

/* A peak over sizes known at run time: each candidate that can exceed the
 * budget is an error at its line, with the condition under which it does
 * ("(when n*dim > 131072)") unless it does for every value. */
/* What a total's number claims, before it in a message: "at most ",
 * "at least ", "" (exact), "as analysed (not bounded) ". */
static const char *ck_claim_prefix(an_claim c)
{
    static const char *const prefix[] = {"", "at most ", "at least ", "as analysed (not bounded) "};
    return prefix[c];
}

static void ck_budget_peak_sx(ck_ctx *cx, const an_func_report *f, int64_t budget, int budget_line)
{
    sx_int b = {budget, 0};
    int n = f->n_peak_cands > 0 ? f->n_peak_cands : 1;
    for (int k = 0; k < n; k++) {
        sx_int peak = f->n_peak_cands > 0 ? f->peak_cand[k] : f->peak_sx;
        int line = f->n_peak_cands > 0 ? f->peak_cand_line[k] : f->peak_line;
        bool over;
        if (sx_prove(peak, SX_GT, b, &over) && !over)
            continue; /* within the budget for every value */
        char cond[256] = "", c2[200];
        if (!sx_prove(peak, SX_GT, b, &over))
            snprintf(cond, sizeof cond, " (when %s)", sx_cond_str(peak, SX_GT, b, c2, sizeof c2));
        char *p = sx_strdup(peak), *excess = sx_strdup(sx_sub(peak, b));
        char *where = budget_line > 0 ? ck_line_word(cx, budget_line)
                                      : tl_xasprintf("%s", "--budget");
        an_diag *d = ck_diag_add(cx, CK_over_budget, line, ck_call_col(cx, f, line),
                                 "peak of '%s' is %s%s B, over its budget of %s (%s) by %s B%s",
                                 f->name, ck_claim_prefix(f->claim[AN_TOTAL_PEAK]), p,
                                 ck_bytes(budget).s, where, excess, cond);
        if (budget_line > 0)
            ck_note(d, budget_line, 1, "the budget is set here");
        free(p);
        free(excess);
        free(where);
    }
}

static void ck_budget_peak(ck_ctx *cx, const an_func_report *f, int64_t budget, int budget_line)
{
    if (f->symbolic) {
        ck_budget_peak_sx(cx, f, budget, budget_line);
        return;
    }
    if (f->peak_live_bytes <= budget)
        return;
    char *live = ck_live_list(cx, f);
    char *where = budget_line > 0 ? ck_line_word(cx, budget_line)
                                  : tl_xasprintf("%s", "--budget");
    an_diag *d = ck_diag_add(cx, CK_over_budget, f->peak_line, ck_call_col(cx, f, f->peak_line),
                             "peak of '%s' is %s%s, over its budget of %s (%s) by %s%s; live "
                             "here: %s", f->name, ck_claim_prefix(f->claim[AN_TOTAL_PEAK]),
                             ck_bytes(f->peak_live_bytes).s, ck_bytes(budget).s, where,
                             ck_bytes(f->peak_live_bytes - budget).s,
                             f->claim[AN_TOTAL_PEAK] == AN_CLAIM_LOWER && f->sizes_unknown
                                 ? " (a storage's size is unknown: the peak is a lower bound)"
                                 : "", live);
    bool in_then = false;
    const ir_stmt *br = ck_unknown_branch(cx, f, cx->r->unit->funcs[f->func]->body,
                                          f->peak_line, &in_then);
    if (br)
        ck_note(d, br->loc.line, br->loc.col, "the peak is reached on the %s arm of this branch, "
                "whose condition is not known statically: the budget is exceeded when that arm "
                "runs (the analysis keeps the heavier arm; the other arm's own peak is not "
                "reported)", in_then ? "first (if)" : "second (else)");
    else
        ck_budget_arm_storages(cx, f, d);
    if (budget_line > 0)
        ck_note(d, budget_line, 1, "the budget is set here");
    free(live);
    free(where);
}

/* ---- bytes moved ---- */

static int ck_cmp_moved(const void *a, const void *b, void *r)
{
    const an_value *v = ((const an_report *)r)->values;
    const an_value *x = &v[*(const int *)a], *y = &v[*(const int *)b];
    double mx = (double)x->bytes_moved * (double)x->n_exec;
    double my = (double)y->bytes_moved * (double)y->n_exec;
    return mx < my ? 1 : mx > my ? -1 : *(const int *)a - *(const int *)b;
}

static char *ck_movers(const ck_ctx *cx, const an_func_report *f)
{
    int *ids = tl_xcalloc((size_t)f->n_values + 1, sizeof *ids);
    memcpy(ids, f->values, sizeof *ids * (size_t)f->n_values);
    qsort_r(ids, (size_t)f->n_values, sizeof *ids, ck_cmp_moved, cx->r);
    char *s = tl_xasprintf("%s", "");
    for (int k = 0; k < f->n_values && k < CK_BUDGET_SHOWN; k++) {
        const an_value *v = &cx->r->values[ids[k]];
        if (v->bytes_moved <= 0)
            break;
        char *at = ck_line_text(cx, v->line);
        char *t = tl_xasprintf("%s%stl_%s%s%s%s (line %s) %s", s, k ? ", " : "", mt_ops[v->op].name,
                               v->name ? " '" : "", v->name ? v->name : "", v->name ? "'" : "",
                               at, ck_bytes(v->bytes_moved * (v->n_exec > 0 ? v->n_exec : 1)).s);
        free(at);
        free(s);
        s = t;
    }
    free(ids);
    return s;
}

static void ck_budget_moved(ck_ctx *cx, const an_func_report *f, int64_t budget, int budget_line)
{
    sx_int moved = sx_add(f->moved_sx, (sx_int){f->moved_bytes, 0}), b = {budget, 0};
    bool over;
    if (moved.e != 0) { /* over sizes known at run time: when it exceeds, as a condition */
        if (sx_prove(moved, SX_GT, b, &over) && !over)
            return;
        char cond[256] = "", c2[200];
        if (!sx_prove(moved, SX_GT, b, &over))
            snprintf(cond, sizeof cond, " (when %s)", sx_cond_str(moved, SX_GT, b, c2, sizeof c2));
        const ir_func *fn = cx->r->unit->funcs[f->func];
        char *m = sx_strdup(moved), *excess = sx_strdup(sx_sub(moved, b));
        char *at = ck_line_text(cx, budget_line);
        an_diag *d = ck_diag_add(cx, CK_over_budget, fn->loc.line, fn->loc.col,
                                 "'%s' moves %s%s B, over its budget of %s (line %s) by %s B%s",
                                 f->name, ck_claim_prefix(f->claim[AN_TOTAL_MOVED]), m,
                                 ck_bytes(budget).s, at, excess, cond);
        free(at);
        ck_note(d, budget_line, 1, "the budget is set here");
        free(m);
        free(excess);
        return;
    }
    if (f->moved_bytes <= budget)
        return;
    const ir_func *fn = cx->r->unit->funcs[f->func];
    char *movers = ck_movers(cx, f);
    char *at = ck_line_text(cx, budget_line);
    an_diag *d = ck_diag_add(cx, CK_over_budget, fn->loc.line, fn->loc.col,
                             "'%s' moves %s%s, over its budget of %s (line %s) by %s%s%s",
                             f->name, ck_claim_prefix(f->claim[AN_TOTAL_MOVED]),
                             ck_bytes(f->moved_bytes).s, ck_bytes(budget).s, at,
                             ck_bytes(f->moved_bytes - budget).s,
                             movers[0] ? "; the calls that move most: " : "", movers);
    ck_note(d, budget_line, 1, "the budget is set here");
    free(movers);
    free(at);
}

/* ---- the rule ---- */

static void ck_budget_misplaced(ck_ctx *cx, const ck_budget_mark *m, const char *why)
{
    an_diag *d = ck_diag_add(cx, CK_over_budget, m->line, m->col, "budget comment '%s' %s",
                             m->text, why);
    if (d)
        d->severity = AN_WARNING;
}

/* The command line's peak budget of function name, or NULL. */
static const ck_budget *ck_budget_option(const ck_ctx *cx, const char *name)
{
    for (int k = cx->o->n_budgets - 1; k >= 0; k--)
        if (strcmp(cx->o->budgets[k].function, name) == 0)
            return &cx->o->budgets[k];
    return NULL;
}

static void ck_budget_from_comment(ck_ctx *cx, const ck_budget_mark *m)
{
    if (!m->ok) {
        ck_budget_misplaced(cx, m, "is not understood: write `tensorlint: budget peak BYTES` "
                                   "or `tensorlint: budget moved BYTES` (BYTES like 512MiB)");
        return;
    }
    int fn = ck_budget_target(cx, m->line);
    const an_func_report *f = fn >= 0 ? an_report_func(cx->r, cx->r->unit->funcs[fn]->name)
                                      : NULL;
    if (fn < 0) {
        ck_budget_misplaced(cx, m, "is not directly above a function definition: it sets no "
                                   "budget");
        return;
    }
    if (!f || !f->executed)
        return; /* no tensor code, or never run: nothing is live, the budget holds */
    if (m->kind == CK_BUDGET_MOVED)
        ck_budget_moved(cx, f, m->bytes, m->line);
    else if (!ck_budget_option(cx, f->name))
        ck_budget_peak(cx, f, m->bytes, m->line);
}

void ck_rule_over_budget(ck_ctx *cx)
{
    ck_budget_scan sc = {0, 0, NULL};
    ck_src_comments(ck_source(cx), ck_budget_comment, &sc);
    for (int k = 0; k < sc.n; k++) {
        ck_budget_from_comment(cx, &sc.marks[k]);
        free(sc.marks[k].text);
    }
    free(sc.marks);
    for (int k = 0; k < cx->r->n_funcs; k++) {
        const an_func_report *f = &cx->r->funcs[k];
        const ck_budget *b = ck_budget_option(cx, f->name);
        if (b && f->executed)
            ck_budget_peak(cx, f, b->peak_bytes, 0);
    }
}
