/*
 * an_text.c: the report a person reads: per function, the seed worksheet's
 * table (one row per call site), the storages with their lifetimes, live
 * bytes at the end, the peak with its line and the storages live there,
 * bytes moved; then the diagnostics, clang style.
 * Column widths are computed from the cells, so the table stays aligned.
 */
#include "an_report.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *an_format_bytes(char *buf, size_t size, int64_t bytes)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    if (bytes < 0) {
        snprintf(buf, size, "?");
        return buf;
    }
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u > 0 && v != (double)(int64_t)v && bytes < (INT64_C(1) << 20))
        snprintf(buf, size, "%" PRId64 " B", bytes); /* 4000 B, not 3.91 KiB */
    else if (u == 0 || v == (double)(int64_t)v)
        snprintf(buf, size, "%" PRId64 " %s", u == 0 ? bytes : (int64_t)v, units[u]);
    else
        snprintf(buf, size, "%.2f %s", v, units[u]);
    return buf;
}

enum { COL_LINE, COL_NAME, COL_OP, COL_SHAPE, COL_STRIDES, COL_OFFSET, COL_DTYPE, COL_DEVICE,
       COL_KIND, COL_STORAGE, COL_BYTES, COL_MOVED, COL_ALIVE, COL_REASON, N_COLS };

static const char *const headers[N_COLS] = {
    "line", "name", "op", "shape", "strides", "offset", "dtype", "device",
    "view/copy", "storage", "bytes", "moved", "keeps alive", "why"};

/* The table's cells live in one growing buffer: a row is N_COLS offsets
 * into it.  One allocation per table instead of one per cell, and one write
 * per line: the table is most of a big report's output time. */
typedef struct cells {
    char *buf;
    size_t len, cap;
} cells;

typedef struct cell_row { size_t at[N_COLS]; int w[N_COLS]; } cell_row;

static void cells_reserve(cells *c, size_t more)
{
    if (c->len + more <= c->cap)
        return;
    size_t cap = c->cap ? c->cap : 4096;
    while (cap < c->len + more)
        cap *= 2;
    char *buf = realloc(c->buf, cap);
    if (!buf)
        abort();
    c->buf = buf;
    c->cap = cap;
}

/* Appends a formatted cell; returns its offset. */
static size_t cell_fmt(cells *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t cell_fmt(cells *c, const char *fmt, ...)
{
    va_list ap;
    size_t at = c->len;
    cells_reserve(c, 128);
    va_start(ap, fmt);
    int n = vsnprintf(c->buf + at, c->cap - at, fmt, ap);
    va_end(ap);
    if ((size_t)n >= c->cap - at) {
        cells_reserve(c, (size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(c->buf + at, c->cap - at, fmt, ap);
        va_end(ap);
    }
    c->len = at + (size_t)n + 1;
    return at;
}

static size_t cell_tuple(cells *c, int n, const int64_t *v)
{
    size_t at = c->len;
    cells_reserve(c, 8 + 22 * (size_t)n);
    char *p = c->buf + at;
    *p++ = '(';
    for (int k = 0; k < n; k++)
        p += sprintf(p, "%s%" PRId64, k ? ", " : "", v[k]);
    p += sprintf(p, n == 1 ? ",)" : ")");
    c->len = (size_t)(p - c->buf) + 1;
    return at;
}

static size_t cell_bytes(cells *c, int64_t b)
{
    char buf[32];
    return cell_fmt(c, "%s", an_format_bytes(buf, sizeof buf, b));
}

static void fill_known(cells *c, cell_row *row, const an_report *r, const an_value *v)
{
    const an_storage *s = v->storage >= 0 ? &r->storages[v->storage] : NULL;
    row->at[COL_SHAPE] = cell_tuple(c, v->l.ndim, v->l.shape);
    row->at[COL_STRIDES] = cell_tuple(c, v->l.ndim, v->l.strides);
    row->at[COL_OFFSET] = cell_fmt(c, "%" PRId64, v->l.offset);
    row->at[COL_DTYPE] = cell_fmt(c, "%s", mt_dtype_name(v->l.dtype));
    row->at[COL_DEVICE] = cell_fmt(c, "%s", mt_device_name(v->l.device));
    if (v->kind == MT_KIND_VIEW && s) {
        const an_value *base = v->view_of >= 0 ? &r->values[v->view_of] : NULL;
        char b2[32];
        row->at[COL_KIND] = cell_fmt(c, "view of %s",
                                     base && base->name ? base->name : "its input");
        row->at[COL_ALIVE] = cell_fmt(c, "S%d (%s)", s->id,
                                      an_format_bytes(b2, sizeof b2, s->nbytes));
        row->at[COL_BYTES] = cell_fmt(c, "0");
    } else {
        row->at[COL_KIND] = cell_fmt(c, "new");
        row->at[COL_ALIVE] = cell_fmt(c, "-");
        row->at[COL_BYTES] = cell_bytes(c, s ? s->nbytes : -1);
    }
}

static void fill_row(cells *c, cell_row *row, const an_report *r, int id)
{
    const an_value *v = &r->values[id];
    size_t empty = cell_fmt(c, "%s", "");
    for (int k = 0; k < N_COLS; k++)
        row->at[k] = empty;
    row->at[COL_LINE] = cell_fmt(c, "%d", v->line);
    row->at[COL_NAME] = cell_fmt(c, "%s", v->name ? v->name : "-");
    row->at[COL_OP] = cell_fmt(c, "%s", mt_ops[v->op].name);
    if (v->executed && v->known && !v->error) {
        fill_known(c, row, r, v);
    } else {
        size_t q = cell_fmt(c, "?");
        for (int k = COL_SHAPE; k <= COL_ALIVE; k++)
            row->at[k] = q;
        row->at[COL_KIND] = cell_fmt(c, "%s", !v->executed ? "not run" : v->error ? "error" : "?");
    }
    if (v->storage >= 0)
        row->at[COL_STORAGE] = cell_fmt(c, "S%d", v->storage);
    row->at[COL_MOVED] = cell_bytes(c, v->bytes_moved);
    row->at[COL_REASON] = cell_fmt(c, "%s", v->reason ? v->reason : "");
}

/* One line: each cell padded to its column's width, two spaces apart. */
static void print_row(FILE *out, const char *const *cell, const int *len, const int *w,
                      cells *line)
{
    line->len = 0;
    for (int k = 0; k < N_COLS; k++) {
        int pad = k == N_COLS - 1 ? 0 : w[k] - len[k] + 2;
        cells_reserve(line, (size_t)(len[k] + pad + 2));
        memcpy(line->buf + line->len, cell[k], (size_t)len[k]);
        memset(line->buf + line->len + len[k], ' ', (size_t)pad);
        line->len += (size_t)(len[k] + pad);
    }
    line->buf[line->len++] = '\n';
    fwrite(line->buf, 1, line->len, out);
}

static void print_table(FILE *out, const an_report *r, const an_func_report *f)
{
    cells c = {0}, line = {0};
    cell_row *rows = malloc(sizeof *rows * ((size_t)f->n_values + 1));
    int w[N_COLS], hl[N_COLS];
    if (!rows)
        abort();
    for (int k = 0; k < N_COLS; k++)
        w[k] = hl[k] = (int)strlen(headers[k]);
    for (int j = 0; j < f->n_values; j++) {
        fill_row(&c, &rows[j], r, f->values[j]);
        for (int k = 0; k < N_COLS; k++) {
            rows[j].w[k] = (int)strlen(c.buf + rows[j].at[k]);
            w[k] = rows[j].w[k] > w[k] ? rows[j].w[k] : w[k];
        }
    }
    print_row(out, headers, hl, w, &line);
    for (int j = 0; j < f->n_values; j++) {
        const char *cell[N_COLS];
        for (int k = 0; k < N_COLS; k++)
            cell[k] = c.buf + rows[j].at[k];
        print_row(out, cell, rows[j].w, w, &line);
    }
    free(rows);
    free(c.buf);
    free(line.buf);
}

static void print_storage_list(FILE *out, const an_report *r, int n, const int *ids)
{
    char b[32];
    for (int k = 0; k < n; k++) {
        const an_storage *s = &r->storages[ids[k]];
        fprintf(out, "%sS%d %s", k ? ", " : "", s->id, an_format_bytes(b, sizeof b, s->nbytes));
    }
}

static void print_storages(FILE *out, const an_report *r, const an_func_report *f)
{
    char b[32], b2[32];
    fprintf(out, "storages:\n");
    for (int k = 0; k < f->n_storages; k++) {
        const an_storage *s = &r->storages[f->storages[k]];
        const an_value *v = s->value >= 0 ? &r->values[s->value] : NULL;
        fprintf(out, "  S%-3d %10s  %-4s  allocated line %d (%s%s%s)  ", s->id,
                an_format_bytes(b, sizeof b, s->nbytes), mt_device_name(s->device), s->alloc_line,
                v ? mt_ops[v->op].name : "?", v && v->name ? " " : "", v && v->name ? v->name : "");
        if (s->discarded)
            fprintf(out, "on the branch arm not kept");
        else if (s->free_line > 0)
            fprintf(out, "freed line %d", s->free_line);
        else
            fprintf(out, "never freed");
        if (s->device == TL_CUDA)
            fprintf(out, "  block %s", an_format_bytes(b2, sizeof b2, s->alloc_bytes));
        fputc('\n', out);
    }
}

static void print_totals(FILE *out, const an_report *r, const an_func_report *f)
{
    char b[32];
    int n_live = 0, *live = malloc(sizeof(int) * ((size_t)f->n_storages + 1));
    for (int k = 0; k < f->n_storages; k++)
        if (r->storages[f->storages[k]].free_line == 0 && r->storages[f->storages[k]].nbytes > 0 &&
            !r->storages[f->storages[k]].discarded)
            live[n_live++] = f->storages[k];
    fprintf(out, "live at end: %s", an_format_bytes(b, sizeof b, f->end_live_bytes));
    if (n_live) {
        fprintf(out, " (never freed: ");
        print_storage_list(out, r, n_live, live);
        fprintf(out, ")");
    }
    fprintf(out, "\npeak: %s", an_format_bytes(b, sizeof b, f->peak_live_bytes));
    if (f->peak_line > 0 && f->n_peak_storages > 0) {
        fprintf(out, " at line %d, live there: ", f->peak_line);
        print_storage_list(out, r, f->n_peak_storages, f->peak_storages);
    }
    fprintf(out, "\nmoved: %s in %" PRId64 " calls\n", an_format_bytes(b, sizeof b, f->moved_bytes),
            f->n_calls);
    if (f->cuda_reserved_peak > 0) {
        char b2[32];
        fprintf(out, "cuda: peak %s in blocks, %s reserved by the caching allocator "
                "(PyTorch's rules: 512-byte blocks, 2/20 MiB segments)\n",
                an_format_bytes(b, sizeof b, f->cuda_allocated_peak),
                an_format_bytes(b2, sizeof b2, f->cuda_reserved_peak));
    }
    if (f->unknown_bytes)
        fprintf(out, "note: some storage sizes are unknown; byte totals are lower bounds\n");
    free(live);
}

void an_diag_write_text(FILE *out, const an_diag *d)
{
    fprintf(out, "%s:%d:%d: %s: %s [%s]\n", d->file, d->line, d->col,
            an_severity_name(d->severity), d->message, d->check);
    for (int k = 0; k < d->n_notes; k++)
        fprintf(out, "%s:%d:%d: note: %s\n", d->file, d->notes[k].line, d->notes[k].col,
                d->notes[k].message);
}

void an_report_write_text(FILE *out, const an_report *r, const an_text_options *opt)
{
    for (int k = 0; k < r->n_funcs; k++) {
        const an_func_report *f = &r->funcs[k];
        if (opt && opt->function && strcmp(opt->function, f->name) != 0)
            continue;
        fprintf(out, "%sfunction %s (%s)%s\n", k ? "\n" : "", f->name, r->unit->path,
                f->executed ? "" : " -- never executed from a root");
        print_table(out, r, f);
        fputc('\n', out);
        print_storages(out, r, f);
        print_totals(out, r, f);
    }
    if (r->n_diags)
        fputc('\n', out);
    for (int k = 0; k < r->n_diags; k++)
        an_diag_write_text(out, &r->diags[k]);
}
