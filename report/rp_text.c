/*
 * rp_text.c: the report a person reads: per function, the seed worksheet's
 * table (one row per call site), the storages with their lifetimes, live
 * bytes at the end, the peak with its line and the storages live there,
 * bytes moved; then the diagnostics, clang style.
 * Column widths are computed from the cells, so the table stays aligned.
 *
 * Approach: the table and the storage list are most of a big report's
 * output, so they are formatted directly, without printf: strings are
 * copied with memcpy and integers go through put_int, a small int64 to
 * decimal routine.  Only a fractional byte count ("1.50 MiB") still uses
 * snprintf.  Cells are appended to one growing buffer (a row holds their
 * offsets and lengths), lines to another that is written in large chunks;
 * both buffers are reused for every function of the report.  The few
 * per-function lines (totals) and the diagnostics keep fprintf.
 */
#include "rp_report.h"
#include "rp_textbuf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum {
    INT_CHARS = 20,     /* "-9223372036854775808" */
    BYTES_CHARS = 32,   /* room for any rp_format_bytes text (11 bytes at most) */
};

/* Writes v in decimal at p; returns the end.  The magnitude is taken as
 * unsigned, so INT64_MIN needs no special case. */
static char *put_int(char *p, int64_t v)
{
    char digits[INT_CHARS];
    char *d = digits + sizeof digits;
    uint64_t m = v < 0 ? UINT64_C(0) - (uint64_t)v : (uint64_t)v;
    do {
        *--d = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (v < 0)
        *--d = '-';
    size_t n = (size_t)(digits + sizeof digits - d);
    memcpy(p, d, n);
    return p + n;
}

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

/* rp_format_bytes's text at p (at most BYTES_CHARS bytes, no NUL); returns the end. */
static char *put_bytes(char *p, int64_t bytes)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    if (bytes < 0)
        return put_str(p, "?");
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u > 0 && v != (double)(int64_t)v && bytes < (INT64_C(1) << 20)) {
        p = put_int(p, bytes); /* 4000 B, not 3.91 KiB */
        return put_str(p, " B");
    }
    if (u == 0 || v == (double)(int64_t)v) {
        p = put_int(p, u == 0 ? bytes : (int64_t)v);
        *p++ = ' ';
        return put_str(p, units[u]);
    }
    return p + snprintf(p, BYTES_CHARS, "%.2f %s", v, units[u]);
}

const char *rp_format_bytes(char *buf, size_t size, int64_t bytes)
{
    char text[BYTES_CHARS];
    size_t n = (size_t)(put_bytes(text, bytes) - text);
    if (size == 0)
        return buf;
    n = n < size ? n : size - 1; /* truncated as snprintf would */
    memcpy(buf, text, n);
    buf[n] = '\0';
    return buf;
}

static void tb_int(rp_textbuf *b, int64_t v)
{
    rp_tb_commit(b, put_int(rp_tb_room(b, INT_CHARS), v));
}

static void tb_bytes(rp_textbuf *b, int64_t bytes)
{
    rp_tb_commit(b, put_bytes(rp_tb_room(b, BYTES_CHARS), bytes));
}

/* The buffers one report is formatted with. */
typedef struct text_writer {
    FILE *out;
    rp_textbuf cells; /* one table's cells */
    rp_textbuf lines; /* lines not yet written */
} text_writer;

enum { COL_LINE, COL_NAME, COL_OP, COL_SHAPE, COL_STRIDES, COL_OFFSET, COL_DTYPE, COL_DEVICE,
       COL_KIND, COL_STORAGE, COL_BYTES, COL_MOVED, COL_ALIVE, COL_REASON, N_COLS };

static const char *const headers[N_COLS] = {
    "line", "name", "op", "shape", "strides", "offset", "dtype", "device",
    "view/copy", "storage", "bytes", "moved", "keeps alive", "why"};

/* A cell's text in the cells buffer; offsets stay valid when it grows. */
typedef struct cell {
    size_t at;
    int len;
} cell;

typedef struct cell_row { cell col[N_COLS]; } cell_row;

/* The cell of everything appended to c since offset at. */
static cell cell_since(const rp_textbuf *c, size_t at) { return (cell){at, (int)(c->len - at)}; }

static cell cell_str(rp_textbuf *c, const char *s)
{
    size_t at = c->len;
    rp_tb_str(c, s);
    return cell_since(c, at);
}

/* prefix, then v in decimal. */
static cell cell_int(rp_textbuf *c, const char *prefix, int64_t v)
{
    size_t at = c->len;
    rp_tb_str(c, prefix);
    tb_int(c, v);
    return cell_since(c, at);
}

static cell cell_bytes(rp_textbuf *c, int64_t bytes)
{
    size_t at = c->len;
    tb_bytes(c, bytes);
    return cell_since(c, at);
}

/* Python's tuple: "()", "(4,)", "(4, 8)". */
static cell cell_tuple(rp_textbuf *c, int n, const int64_t *v)
{
    size_t at = c->len;
    rp_tb_str(c, "(");
    for (int k = 0; k < n; k++) {
        if (k)
            rp_tb_str(c, ", ");
        tb_int(c, v[k]);
    }
    rp_tb_str(c, n == 1 ? ",)" : ")");
    return cell_since(c, at);
}

static void fill_known(rp_textbuf *c, cell_row *row, const an_report *r, const an_value *v)
{
    const an_storage *s = v->storage >= 0 ? &r->storages[v->storage] : NULL;
    row->col[COL_SHAPE] = cell_tuple(c, v->l.ndim, v->l.shape);
    row->col[COL_STRIDES] = cell_tuple(c, v->l.ndim, v->l.strides);
    row->col[COL_OFFSET] = v->offset_unknown ? cell_str(c, "?") : cell_int(c, "", v->l.offset);
    row->col[COL_DTYPE] = cell_str(c, mt_dtype_name(v->l.dtype));
    row->col[COL_DEVICE] = cell_str(c, mt_device_name(v->l.device));
    if (v->kind == MT_KIND_VIEW && s) {
        const an_value *base = v->view_of >= 0 ? &r->values[v->view_of] : NULL;
        size_t at = c->len;
        rp_tb_str(c, "view of ");
        rp_tb_str(c, base && base->name ? base->name : "its input");
        row->col[COL_KIND] = cell_since(c, at);
        at = c->len;
        rp_tb_str(c, "S");
        tb_int(c, s->id);
        rp_tb_str(c, " (");
        tb_bytes(c, s->nbytes);
        rp_tb_str(c, ")");
        row->col[COL_ALIVE] = cell_since(c, at);
        row->col[COL_BYTES] = cell_str(c, "0");
    } else {
        row->col[COL_KIND] = cell_str(c, s && s->external ? "external" : "new");
        row->col[COL_ALIVE] = cell_str(c, "-");
        row->col[COL_BYTES] = cell_bytes(c, s ? s->nbytes : -1);
    }
}

/* A size that may be a formula: "4096" or "4*config.dim". */
static void tb_sx(rp_textbuf *c, sx_int v)
{
    if (v.e == 0) {
        tb_int(c, v.c);
        return;
    }
    char *text = sx_strdup(v);
    rp_tb_str(c, text);
    free(text);
}

/* Bytes that may be a formula: "1 MiB", or "4*B*S bytes". */
static void tb_sx_bytes(rp_textbuf *c, sx_int v)
{
    if (v.e == 0) {
        tb_bytes(c, v.c);
        return;
    }
    tb_sx(c, v);
    rp_tb_str(c, " B");
}

static cell cell_sx_tuple(rp_textbuf *c, int n, const sx_int *v)
{
    size_t at = c->len;
    rp_tb_str(c, "(");
    for (int k = 0; k < n; k++) {
        if (k)
            rp_tb_str(c, ", ");
        tb_sx(c, v[k]);
    }
    rp_tb_str(c, n == 1 ? ",)" : ")");
    return cell_since(c, at);
}

/* A row whose layout is over run-time symbols (formulas). */
static void fill_symbolic(rp_textbuf *c, cell_row *row, const an_report *r, const an_value *v)
{
    const an_slayout *l = &r->slayouts[v->sl - 1];
    const an_storage *s = v->storage >= 0 ? &r->storages[v->storage] : NULL;
    size_t at;
    row->col[COL_SHAPE] = cell_sx_tuple(c, l->ndim, l->shape);
    row->col[COL_STRIDES] = cell_sx_tuple(c, l->ndim, l->strides);
    at = c->len;
    tb_sx(c, l->offset);
    row->col[COL_OFFSET] = cell_since(c, at);
    row->col[COL_DTYPE] = cell_str(c, mt_dtype_name(l->dtype));
    row->col[COL_DEVICE] = cell_str(c, mt_device_name(l->device));
    if (v->kind == MT_KIND_VIEW && s) {
        const an_value *base = v->view_of >= 0 ? &r->values[v->view_of] : NULL;
        at = c->len;
        rp_tb_str(c, "view of ");
        rp_tb_str(c, base && base->name ? base->name : "its input");
        row->col[COL_KIND] = cell_since(c, at);
        at = c->len;
        rp_tb_str(c, "S");
        tb_int(c, s->id);
        rp_tb_str(c, " (");
        if (s->symbolic)
            tb_sx_bytes(c, s->nbytes_sx);
        else
            tb_bytes(c, s->nbytes);
        rp_tb_str(c, ")");
        row->col[COL_ALIVE] = cell_since(c, at);
        row->col[COL_BYTES] = cell_str(c, "0");
    } else {
        row->col[COL_KIND] = cell_str(c, s && s->external ? "external" : "new");
        row->col[COL_ALIVE] = cell_str(c, "-");
        at = c->len;
        if (s && s->symbolic)
            tb_sx_bytes(c, s->nbytes_sx);
        else
            tb_bytes(c, s ? s->nbytes : -1);
        row->col[COL_BYTES] = cell_since(c, at);
    }
}

static void fill_row(rp_textbuf *c, cell_row *row, const an_report *r, int id)
{
    const an_value *v = &r->values[id];
    for (int k = 0; k < N_COLS; k++)
        row->col[k] = (cell){0, 0};
    row->col[COL_LINE] = cell_int(c, "", ir_unit_line_at(r->unit, v->line));
    row->col[COL_NAME] = cell_str(c, v->name ? v->name : "-");
    row->col[COL_OP] = cell_str(c, mt_ops[v->op].name);
    if (v->executed && v->known && !v->error) {
        fill_known(c, row, r, v);
    } else if (v->executed && !v->error && v->sl > 0) {
        fill_symbolic(c, row, r, v);
    } else {
        cell q = cell_str(c, "?");
        for (int k = COL_SHAPE; k <= COL_ALIVE; k++)
            row->col[k] = q;
        row->col[COL_KIND] = cell_str(c, !v->executed ? "not run" : v->error ? "error" : "?");
    }
    if (v->storage >= 0)
        row->col[COL_STORAGE] = cell_int(c, "S", v->storage);
    if (v->sl > 0 && v->bytes_moved_sx.e) {
        size_t at = c->len;
        tb_sx_bytes(c, v->bytes_moved_sx);
        row->col[COL_MOVED] = cell_since(c, at);
    } else {
        row->col[COL_MOVED] = cell_bytes(c, v->bytes_moved);
    }
    row->col[COL_REASON] = cell_str(c, v->reason ? v->reason : "");
}

/* One line: each cell padded to its column's width, two spaces apart. */
static void append_row(text_writer *tw, const cell_row *row, const int *w)
{
    for (int k = 0; k < N_COLS; k++) {
        const cell *x = &row->col[k];
        rp_tb_mem(&tw->lines, tw->cells.buf + x->at, (size_t)x->len);
        if (k < N_COLS - 1)
            rp_tb_spaces(&tw->lines, w[k] - x->len + 2);
    }
    rp_tb_str(&tw->lines, "\n");
    if (tw->lines.len >= RP_TB_FLUSH_AT)
        rp_tb_flush(&tw->lines, tw->out);
}

/* The header row first, then one row per call site. */
static void print_table(text_writer *tw, const an_report *r, const an_func_report *f)
{
    int n_rows = f->n_values + 1, w[N_COLS] = {0};
    cell_row *rows = tl_xreallocarray(NULL, (size_t)n_rows, sizeof *rows);
    tw->cells.len = 0;
    for (int k = 0; k < N_COLS; k++)
        rows[0].col[k] = cell_str(&tw->cells, headers[k]);
    for (int j = 1; j < n_rows; j++)
        fill_row(&tw->cells, &rows[j], r, f->values[j - 1]);
    for (int j = 0; j < n_rows; j++)
        for (int k = 0; k < N_COLS; k++)
            w[k] = rows[j].col[k].len > w[k] ? rows[j].col[k].len : w[k];
    for (int j = 0; j < n_rows; j++)
        append_row(tw, &rows[j], w);
    rp_tb_flush(&tw->lines, tw->out);
    free(rows);
}

/* A line of u as the text prints it: in a program, with its file's name
 * ("12 in layers.c"; a name too long for buf is cut). */
enum { LINE_TEXT_CHARS = 512 };

static const char *line_text(char *buf, size_t size, const ir_unit *u, int line)
{
    const ir_file *f = ir_unit_file_at(u, line);
    const char *base = f ? strrchr(f->path, '/') : NULL;
    if (f)
        snprintf(buf, size, "%d in %s", line - f->line_base, base ? base + 1 : f->path);
    else
        snprintf(buf, size, "%d", line);
    return buf;
}

static void tb_line(rp_textbuf *b, const ir_unit *u, int line)
{
    char at[LINE_TEXT_CHARS];
    rp_tb_str(b, line_text(at, sizeof at, u, line));
}

/* "  S5        1 MiB  cpu   allocated line 35 (matmul q)  freed line 61":
 * printf's "  S%-3d %10s  %-4s  allocated line %d (%s%s%s)  ", then the end. */
static void append_storage(rp_textbuf *b, const an_report *r, const an_storage *s)
{
    const an_value *v = s->value >= 0 ? &r->values[s->value] : NULL;
    char known[64], *bytes = known;
    size_t n_bytes;
    if (s->symbolic) { /* the formula, whole */
        char *f = sx_strdup(s->nbytes_sx);
        n_bytes = strlen(f) + 2;
        bytes = tl_xmalloc(n_bytes + 1);
        snprintf(bytes, n_bytes + 1, "%s B", f);
        free(f);
    } else {
        n_bytes = (size_t)(put_bytes(known, s->nbytes) - known);
    }
    rp_tb_str(b, "  S");
    size_t at = b->len;
    tb_int(b, s->id);
    rp_tb_spaces(b, 3 - (int)(b->len - at)); /* %-3d */
    rp_tb_str(b, " ");
    rp_tb_spaces(b, 10 - (int)n_bytes); /* %10s */
    rp_tb_mem(b, bytes, n_bytes);
    rp_tb_str(b, "  ");
    at = b->len;
    rp_tb_str(b, mt_device_name(s->device));
    rp_tb_spaces(b, 4 - (int)(b->len - at)); /* %-4s */
    rp_tb_str(b, s->external ? "  external, made line " : "  allocated line ");
    tb_line(b, r->unit, s->alloc_line);
    rp_tb_str(b, " (");
    rp_tb_str(b, v ? mt_ops[v->op].name : "?");
    if (v && v->name) {
        rp_tb_str(b, " ");
        rp_tb_str(b, v->name);
    }
    rp_tb_str(b, ")  ");
    if (s->external) {
        rp_tb_str(b, "the caller's ");
        if (s->external_nbytes >= 0) {
            tb_bytes(b, s->external_nbytes);
        } else {
            char *f = sx_strdup(s->external_sx);
            rp_tb_str(b, f);
            rp_tb_str(b, " B");
            free(f);
        }
        rp_tb_str(b, ", never allocated or freed by the runtime");
    } else if (s->discarded) {
        rp_tb_str(b, "on the branch arm not kept");
    } else if (s->free_line > 0) {
        rp_tb_str(b, "freed line ");
        tb_line(b, r->unit, s->free_line);
    } else {
        rp_tb_str(b, "never freed");
    }
    if (s->device == TL_CUDA) {
        rp_tb_str(b, "  block ");
        tb_bytes(b, s->alloc_bytes);
    }
    rp_tb_str(b, "\n");
    if (bytes != known)
        free(bytes);
}

static void print_storages(text_writer *tw, const an_report *r, const an_func_report *f)
{
    rp_tb_str(&tw->lines, "storages:\n");
    for (int k = 0; k < f->n_storages; k++) {
        append_storage(&tw->lines, r, &r->storages[f->storages[k]]);
        if (tw->lines.len >= RP_TB_FLUSH_AT)
            rp_tb_flush(&tw->lines, tw->out);
    }
    rp_tb_flush(&tw->lines, tw->out);
}

static void print_storage_list(FILE *out, const an_report *r, int n, const int *ids)
{
    char b[BYTES_CHARS];
    for (int k = 0; k < n; k++) {
        const an_storage *s = &r->storages[ids[k]];
        fprintf(out, "%sS%d %s", k ? ", " : "", s->id, rp_format_bytes(b, sizeof b, s->nbytes));
    }
}

/* Whether storage x comes before y at the peak (rp_peak_order). */
#define RP_PEAK_NAMES 4 /* names the text lists per storage; the rest are counted */

static bool peak_before(const an_storage *x, const an_storage *y)
{
    if (x->symbolic != y->symbolic)
        return x->symbolic;
    if (!x->symbolic && x->nbytes != y->nbytes)
        return x->nbytes > y->nbytes;
    return x->id < y->id;
}

int *rp_peak_order(const an_report *r, const an_func_report *f)
{
    int *order = tl_xmalloc(sizeof(int) * ((size_t)f->n_peak_storages + 1));
    for (int j = 0; j < f->n_peak_storages; j++) { /* (insertion: stable, no context needed) */
        int i = j;
        const an_storage *s = &r->storages[f->peak_storages[j]];
        for (; i > 0 && peak_before(s, &r->storages[f->peak_storages[order[i - 1]]]); i--)
            order[i] = order[i - 1];
        order[i] = j;
    }
    return order;
}

/* The names of peak entry k, ", " between them, the first RP_PEAK_NAMES of them, to out. */
static void put_peak_names(FILE *out, const an_func_report *f, int k)
{
    const char *n = f->peak_names ? f->peak_names[k] : NULL;
    if (!n) {
        fputs("(no name: a temporary or a copy in memory)", out);
        return;
    }
    int shown = 1, more = 0;
    for (; *n; n++) {
        if (*n == AN_NAME_SEP && shown == RP_PEAK_NAMES)
            more++;
        else if (*n == AN_NAME_SEP)
            shown++, fputs(", ", out);
        else if (!more)
            fputc(*n, out);
    }
    if (more)
        fprintf(out, " and %d more name%s", more, more > 1 ? "s" : "");
}

static void put_sx(FILE *out, sx_int v);

/* Under the peak line: the storages live there, largest first, each with
 * its bytes, the line that made it and the names that keep it alive there. */
static void print_peak_listing(FILE *out, const an_report *r, const an_func_report *f,
                               const char *where)
{
    if (f->n_peak_storages == 0)
        return;
    char b[BYTES_CHARS], at[LINE_TEXT_CHARS];
    int *order = rp_peak_order(r, f);
    bool any_sx = false;
    for (int j = 0; j < f->n_peak_storages; j++)
        any_sx = any_sx || r->storages[f->peak_storages[j]].symbolic;
    fprintf(out, "  live at %s, %s:\n", where,
            any_sx ? "sizes that are formulas first (in the order made), then largest first"
                   : "largest first");
    int64_t rest = 0;
    bool rest_sx = false, rest_unknown = false;
    for (int j = 0; j < f->n_peak_storages; j++) {
        const an_storage *s = &r->storages[f->peak_storages[order[j]]];
        if (j >= RP_PEAK_LISTED) {
            rest += s->nbytes > 0 ? s->nbytes : 0;
            rest_sx = rest_sx || s->symbolic;
            rest_unknown = rest_unknown || (s->nbytes < 0 && !s->symbolic);
            continue;
        }
        fprintf(out, "    S%-6d ", s->id);
        if (s->symbolic) {
            put_sx(out, s->nbytes_sx);
            fputs(" B", out);
        } else {
            fprintf(out, "%9s", s->nbytes < 0 ? "unknown" : rp_format_bytes(b, sizeof b, s->nbytes));
        }
        fprintf(out, "  made line %-5s  ", line_text(at, sizeof at, r->unit, s->alloc_line));
        put_peak_names(out, f, order[j]);
        fputc('\n', out);
    }
    if (f->n_peak_storages > RP_PEAK_LISTED)
        fprintf(out, "    and %d more (%s%s)\n", f->n_peak_storages - RP_PEAK_LISTED,
                rest_sx || rest_unknown ? "at least " : "", rp_format_bytes(b, sizeof b, rest));
    free(order);
}

/* A byte total and its claim: "64 B" (exact), "at most 64 B", "at least
 * 64 B", "64 B (not bounded)"; "unknown" when nothing of a lower bound was
 * counted (every size it depends on is not known). */
static const char *total_text(char *b, size_t size, int64_t bytes, an_claim claim, bool sizes_unknown)
{
    char n[BYTES_CHARS];
    if (claim == AN_CLAIM_EXACT)
        return rp_format_bytes(b, size, bytes);
    if (bytes == 0 && sizes_unknown && claim != AN_CLAIM_UPPER)
        snprintf(b, size, "unknown");
    else if (claim == AN_CLAIM_NONE)
        snprintf(b, size, "%s (%s)", rp_format_bytes(n, sizeof n, bytes), an_claim_words(claim));
    else
        snprintf(b, size, "%s %s", an_claim_words(claim), rp_format_bytes(n, sizeof n, bytes));
    return b;
}

/* A formula total and its claim, to out: "at most 4*n B", "4*n B (not bounded)". */
static void put_total_sx(FILE *out, sx_int v, an_claim claim)
{
    if (claim == AN_CLAIM_UPPER || claim == AN_CLAIM_LOWER)
        fprintf(out, "%s ", an_claim_words(claim));
    put_sx(out, v);
    fprintf(out, " B");
    if (claim == AN_CLAIM_NONE)
        fprintf(out, " (%s)", an_claim_words(claim));
}

char *rp_total_str(const an_func_report *f, an_total t)
{
    char *text = NULL, b[BYTES_CHARS * 2];
    size_t len = 0;
    if (!f->symbolic) {
        int64_t v[] = {f->peak_live_bytes, f->end_live_bytes, f->moved_bytes};
        return tl_xasprintf("%s", total_text(b, sizeof b, v[t], f->claim[t], f->sizes_unknown));
    }
    FILE *out = tl_xmemstream(&text, &len);
    sx_int v[] = {f->peak_sx, f->end_sx, f->moved_sx};
    put_total_sx(out, v[t], f->claim[t]);
    tl_xmemstream_close(out);
    return text;
}

/* The note below the totals when one is not exact. */
static void print_claims_note(FILE *out, const an_func_report *f)
{
    if (!an_func_all_exact(f))
        fprintf(out, "note: the totals said 'at most', 'at least' or 'not bounded' depend on what "
                     "the analysis could not follow exactly (the notes say where)\n");
}

/* Totals over run-time symbols: formulas, the peak as a max of candidates. */
const char *rp_peak_when(const an_func_report *f, int k, char *buf, size_t size)
{
    size_t len = 0;
    static _Thread_local char c[1 << 14];
    buf[0] = 0;
    for (int j = 0; j < f->n_peak_cands && len < size; j++) {
        if (j == k)
            continue;
        sx_cond_str(f->peak_cand[k], SX_GE, f->peak_cand[j], c, sizeof c);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " and " : "", c);
    }
    return buf;
}

/* The formula, whole, to out. */
static void put_sx(FILE *out, sx_int v)
{
    char *text = sx_strdup(v);
    fputs(text, out);
    free(text);
}

static void print_totals_sx(FILE *out, const an_report *r, const an_func_report *f)
{
    char at[LINE_TEXT_CHARS];
    fputs("live at end: ", out);
    put_total_sx(out, f->end_sx, f->claim[AN_TOTAL_END]);
    fputs("\npeak: ", out);
    put_total_sx(out, f->peak_sx, f->claim[AN_TOTAL_PEAK]);
    if (f->n_peak_cands > 1) {
        static _Thread_local char when[1 << 16];
        fprintf(out, ", the largest of:\n");
        for (int k = 0; k < f->n_peak_cands; k++) {
            fputs("  ", out);
            put_sx(out, f->peak_cand[k]);
            fprintf(out, " B at line %s, when %s\n", line_text(at, sizeof at, r->unit, f->peak_cand_line[k]),
                    rp_peak_when(f, k, when, sizeof when));
        }
    } else if (f->peak_line > 0) {
        fprintf(out, " at line %s\n", line_text(at, sizeof at, r->unit, f->peak_line));
    } else {
        fprintf(out, "\n");
    }
    if (f->n_peak_cands > 1 && f->peak_line > 0) { /* the live set is one candidate's */
        char where[LINE_TEXT_CHARS + 96];
        snprintf(where, sizeof where, "line %s (the candidate reached last; the others' "
                 "live sets are not listed)", line_text(at, sizeof at, r->unit, f->peak_line));
        print_peak_listing(out, r, f, where);
    } else if (f->peak_line > 0) {
        print_peak_listing(out, r, f, "the peak");
    }
    fputs("moved: ", out);
    put_total_sx(out, f->moved_sx, f->claim[AN_TOTAL_MOVED]);
    fputs(" in ", out);
    put_sx(out, f->calls_sx);
    fputs(" calls\n", out);
    print_claims_note(out, f);
}

static void print_totals(FILE *out, const an_report *r, const an_func_report *f)
{
    char at[LINE_TEXT_CHARS];
    if (f->symbolic) {
        print_totals_sx(out, r, f);
        return;
    }
    char b[BYTES_CHARS * 2];
    int n_live = 0, *live = tl_xreallocarray(NULL, (size_t)f->n_storages + 1, sizeof(int));
    for (int k = 0; k < f->n_storages; k++)
        if (r->storages[f->storages[k]].free_line == 0 && r->storages[f->storages[k]].nbytes > 0 &&
            !r->storages[f->storages[k]].discarded)
            live[n_live++] = f->storages[k];
    fprintf(out, "live at end: %s", total_text(b, sizeof b, f->end_live_bytes, f->claim[AN_TOTAL_END], f->sizes_unknown));
    if (n_live) {
        fprintf(out, " (never freed: ");
        print_storage_list(out, r, n_live, live);
        fprintf(out, ")");
    }
    fprintf(out, "\npeak: %s", total_text(b, sizeof b, f->peak_live_bytes, f->claim[AN_TOTAL_PEAK], f->sizes_unknown));
    if (f->peak_line > 0 && f->n_peak_storages > 0) {
        fprintf(out, " at line %s, live there: ", line_text(at, sizeof at, r->unit, f->peak_line));
        print_storage_list(out, r, f->n_peak_storages, f->peak_storages);
    }
    fputc('\n', out);
    print_peak_listing(out, r, f, "the peak");
    fprintf(out, "moved: %s in %" PRId64 " calls\n",
            total_text(b, sizeof b, f->moved_bytes, f->claim[AN_TOTAL_MOVED], f->sizes_unknown), f->n_calls);
    if (f->cuda_reserved_peak > 0) {
        char b2[BYTES_CHARS];
        fprintf(out, "cuda: peak %s in blocks, %s reserved by the caching allocator "
                "(PyTorch's rules: 512-byte blocks, 2/20 MiB segments)\n",
                rp_format_bytes(b, sizeof b, f->cuda_allocated_peak),
                rp_format_bytes(b2, sizeof b2, f->cuda_reserved_peak));
    }
    print_claims_note(out, f);
    free(live);
}

/* The functions f's calls through pointers reached, one line per call. */
static void print_indirect(FILE *out, const an_report *r, const an_func_report *f)
{
    bool any = false;
    for (int k = 0; k < r->n_indirect; k++) {
        const an_indirect *x = &r->indirect[k];
        bool first = x->func == f->func;
        for (int j = 0; j < k && first; j++) /* the call's first entry prints its line */
            first = r->indirect[j].line != x->line || r->indirect[j].col != x->col;
        if (!first)
            continue;
        char at[LINE_TEXT_CHARS];
        fprintf(out, "%s  line %s, through %s:", any ? "" : "calls through pointers:\n",
                line_text(at, sizeof at, r->unit, x->line), x->through);
        any = true;
        for (int j = k, n = 0; j < r->n_indirect; j++) {
            const an_indirect *y = &r->indirect[j];
            if (y->line != x->line || y->col != x->col)
                continue;
            fprintf(out, "%s %s%s", n++ ? "," : "", y->name ? y->name : "(not resolved)",
                    y->callee == AN_CALLEE_EXTERNAL ? " (not defined in the file)" : "");
        }
        fputc('\n', out);
    }
}

void rp_diag_write_text(FILE *out, const an_diag *d)
{
    fprintf(out, "%s:%d:%d: %s: %s [%s]\n", d->file, d->line, d->col,
            an_severity_name(d->severity), d->message, d->check);
    for (int k = 0; k < d->n_notes; k++)
        fprintf(out, "%s:%d:%d: note: %s\n", d->notes[k].file ? d->notes[k].file : d->file,
                d->notes[k].line, d->notes[k].col, d->notes[k].message);
}

/* d of the report of u: its lines (program lines in a program) in their files. */
static void diag_write_in(FILE *out, const ir_unit *u, const an_diag *d)
{
    fprintf(out, "%s:%d:%d: %s: %s [%s]\n", d->file, ir_unit_line_at(u, d->line), d->col,
            an_severity_name(d->severity), d->message, d->check);
    for (int k = 0; k < d->n_notes; k++) {
        const an_note *n = &d->notes[k];
        fprintf(out, "%s:%d:%d: note: %s\n", u->n_files ? ir_unit_path_at(u, n->line) : d->file,
                ir_unit_line_at(u, n->line), n->col, n->message);
    }
}


/* The symbols the printed numbers of f use, marked for the list below them. */
static void mark_symbols(const an_report *r, const an_func_report *f)
{
    for (int k = 0; k < f->n_values; k++) {
        const an_value *v = &r->values[f->values[k]];
        if (v->sl <= 0)
            continue;
        const an_slayout *l = &r->slayouts[v->sl - 1];
        for (int d = 0; d < l->ndim; d++) {
            sx_symbols_of(l->shape[d], NULL);
            sx_symbols_of(l->strides[d], NULL);
        }
        sx_symbols_of(l->offset, NULL);
        sx_symbols_of(v->bytes_moved_sx, NULL);
    }
    for (int k = 0; k < f->n_storages; k++)
        sx_symbols_of(r->storages[f->storages[k]].nbytes_sx, NULL);
    if (f->symbolic) {
        sx_symbols_of(f->peak_sx, NULL);
        sx_symbols_of(f->end_sx, NULL);
        sx_symbols_of(f->moved_sx, NULL);
        sx_symbols_of(f->calls_sx, NULL);
    }
}

/* An assumption on the run's path, as the assumptions list shows it (a
 * program's lines with their file). */
static void print_path(FILE *out, const ir_unit *u, const an_path *p)
{
    char at[LINE_TEXT_CHARS], leave[LINE_TEXT_CHARS];
    line_text(at, sizeof at, u, p->line);
    line_text(leave, sizeof leave, u, p->leave_line);
    if (!p->named)
        fprintf(out, "\n  %s: %s (line %s)", p->condition, p->leave, at);
    else
        fprintf(out, "\n  %s (line %s; else the run leaves at line %s: %s)", p->condition,
                at, leave, p->leave);
}

/* "NAME (line L, WHY)" of a symbol, L with its file in a program. */
static void print_symbol(FILE *out, const ir_unit *u, const char *sep, int k, const char *why)
{
    char at[LINE_TEXT_CHARS];
    fprintf(out, "%s%s (line %s, %s)", sep, sx_symbol_name(k),
            line_text(at, sizeof at, u, sx_symbol_line(k)), why);
}

/* Where the formulas' symbols come from, and what the analysis assumed: of
 * the sizes, and of the run's path. */
static void print_symbols(FILE *out, const an_report *r)
{
    int n = 0, others = 0;
    for (int k = 0; k < sx_n_symbols(); k++) {
        if (!sx_symbol_used(k))
            continue;
        if (!sx_symbol_is_size(k)) {
            others++;
            continue;
        }
        print_symbol(out, r->unit, n++ ? ", " : "\nsizes known at run time: ", k,
                     sx_symbol_origin(k));
    }
    for (int k = 0, m = 0; others && k < sx_n_symbols(); k++) /* no sizes, no assumption */
        if (sx_symbol_used(k) && !sx_symbol_is_size(k))
            print_symbol(out, r->unit, m++ ? ", " : "\nother values in formulas: ", k,
                         strcmp(sx_symbol_origin(k), "loop") == 0
                             ? "a loop's counter in one iteration" : sx_symbol_origin(k));
    if (!n && !others && !r->n_paths)
        return;
    fprintf(out, n ? "\nassumed (each size >= 1, and):" : "\nassumed:");
    int shown = 0;
    for (int k = 0; k < sx_n_assumptions(); k++) {
        bool seen = !sx_assumption_listed(k);
        for (int j = 0; j < k && !seen; j++)
            seen = sx_assumption_line(j) == sx_assumption_line(k) &&
                   strcmp(sx_assumption_text(j), sx_assumption_text(k)) == 0;
        if (!seen) {
            char at[LINE_TEXT_CHARS];
            fprintf(out, "\n  %s (line %s)", sx_assumption_text(k),
                    line_text(at, sizeof at, r->unit, sx_assumption_line(k)));
        }
        shown += !seen;
    }
    for (int k = 0; k < r->n_paths; k++)
        print_path(out, r->unit, &r->paths[k]);
    fprintf(out, "%s\n", shown || r->n_paths ? "" : n ? " nothing else" : " nothing");
}

void rp_report_write_text(FILE *out, const an_report *r, const rp_text_options *opt)
{
    text_writer tw = {out, {0}, {0}};
    for (int k = 0; k < r->n_funcs; k++) {
        const an_func_report *f = &r->funcs[k];
        if (opt && opt->function && strcmp(opt->function, f->name) != 0)
            continue;
        fprintf(out, "%sfunction %s (%s)%s\n", k ? "\n" : "", f->name,
                ir_unit_path_at(r->unit, r->unit->funcs[f->func]->loc.line),
                f->executed ? "" : " -- never executed from a root");
        print_table(&tw, r, f);
        fputc('\n', out);
        print_storages(&tw, r, f);
        print_totals(out, r, f);
        print_indirect(out, r, f);
        mark_symbols(r, f);
    }
    print_symbols(out, r);
    rp_tb_free(&tw.cells);
    rp_tb_free(&tw.lines);
    if (r->n_diags)
        fputc('\n', out);
    for (int k = 0; k < r->n_diags; k++)
        diag_write_in(out, r->unit, &r->diags[k]);
}
