/*
 * an_text.c: the report a person reads: per function, the seed worksheet's
 * table (one row per call site), the storages with their lifetimes, live
 * bytes at the end, the peak with its line and the storages live there,
 * bytes moved; then the diagnostics, clang style.
 * Column widths are computed from the cells, so the table stays aligned.
 */
#include "an_report.h"

#include <inttypes.h>
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

typedef struct cell_row { char *c[N_COLS]; } cell_row;

static char *tuple(int n, const int64_t *v)
{
    size_t cap = 16 + 24 * (size_t)n, len = 0;
    char *s = malloc(cap);
    if (!s)
        abort();
    len += (size_t)snprintf(s, cap, "(");
    for (int k = 0; k < n; k++)
        len += (size_t)snprintf(s + len, cap - len, "%s%" PRId64, k ? ", " : "", v[k]);
    snprintf(s + len, cap - len, n == 1 ? ",)" : ")");
    return s;
}

static char *dupf(const char *fmt, const char *a)
{
    size_t n = strlen(fmt) + (a ? strlen(a) : 0) + 1;
    char *s = malloc(n);
    if (!s)
        abort();
    snprintf(s, n, fmt, a ? a : "");
    return s;
}

static char *bytes_cell(int64_t b)
{
    char buf[32];
    return dupf("%s", an_format_bytes(buf, sizeof buf, b));
}

static void fill_known(cell_row *row, const an_report *r, const an_value *v)
{
    char buf[64];
    const an_storage *s = v->storage >= 0 ? &r->storages[v->storage] : NULL;
    row->c[COL_SHAPE] = tuple(v->l.ndim, v->l.shape);
    row->c[COL_STRIDES] = tuple(v->l.ndim, v->l.strides);
    snprintf(buf, sizeof buf, "%" PRId64, v->l.offset);
    row->c[COL_OFFSET] = dupf("%s", buf);
    row->c[COL_DTYPE] = dupf("%s", mt_dtype_name(v->l.dtype));
    row->c[COL_DEVICE] = dupf("%s", mt_device_name(v->l.device));
    if (v->kind == MT_KIND_VIEW && s) {
        const an_value *base = v->view_of >= 0 ? &r->values[v->view_of] : NULL;
        row->c[COL_KIND] = dupf("view of %s", base && base->name ? base->name : "its input");
        char b2[32];
        snprintf(buf, sizeof buf, "S%d (%s)", s->id, an_format_bytes(b2, sizeof b2, s->nbytes));
        row->c[COL_ALIVE] = dupf("%s", buf);
        row->c[COL_BYTES] = dupf("%s", "0");
    } else {
        row->c[COL_KIND] = dupf("%s", "new");
        row->c[COL_ALIVE] = dupf("%s", "-");
        row->c[COL_BYTES] = bytes_cell(s ? s->nbytes : -1);
    }
}

static void fill_row(cell_row *row, const an_report *r, int id)
{
    const an_value *v = &r->values[id];
    char buf[64];
    memset(row, 0, sizeof *row);
    snprintf(buf, sizeof buf, "%d", v->line);
    row->c[COL_LINE] = dupf("%s", buf);
    row->c[COL_NAME] = dupf("%s", v->name ? v->name : "-");
    row->c[COL_OP] = dupf("%s", mt_ops[v->op].name);
    if (v->executed && v->known && !v->error) {
        fill_known(row, r, v);
    } else {
        for (int c = COL_SHAPE; c <= COL_ALIVE; c++)
            row->c[c] = dupf("%s", "?");
        free(row->c[COL_KIND]);
        row->c[COL_KIND] = dupf("%s", !v->executed ? "not run" : v->error ? "error" : "?");
    }
    if (v->storage >= 0) {
        snprintf(buf, sizeof buf, "S%d", v->storage);
        free(row->c[COL_STORAGE]);
        row->c[COL_STORAGE] = dupf("%s", buf);
    }
    free(row->c[COL_MOVED]);
    row->c[COL_MOVED] = bytes_cell(v->bytes_moved);
    row->c[COL_REASON] = dupf("%s", v->reason ? v->reason : "");
}

static void print_row(FILE *out, char *const *cells, const int *w)
{
    for (int c = 0; c < N_COLS - 1; c++)
        fprintf(out, "%-*s  ", w[c], cells[c] ? cells[c] : "");
    fprintf(out, "%s\n", cells[N_COLS - 1] ? cells[N_COLS - 1] : "");
}

static void print_table(FILE *out, const an_report *r, const an_func_report *f)
{
    cell_row *rows = calloc((size_t)f->n_values + 1, sizeof *rows);
    int w[N_COLS];
    for (int c = 0; c < N_COLS; c++)
        w[c] = (int)strlen(headers[c]);
    for (int k = 0; k < f->n_values; k++) {
        fill_row(&rows[k], r, f->values[k]);
        for (int c = 0; c < N_COLS; c++)
            if (rows[k].c[c] && (int)strlen(rows[k].c[c]) > w[c])
                w[c] = (int)strlen(rows[k].c[c]);
    }
    print_row(out, (char *const *)headers, w);
    for (int k = 0; k < f->n_values; k++) {
        print_row(out, rows[k].c, w);
        for (int c = 0; c < N_COLS; c++)
            free(rows[k].c[c]);
    }
    free(rows);
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
