/*
 * rt_trace.c: the allocation trace, JSON lines written with Jansson.
 *
 * One record per event, in execution order:
 *   {"ev":"call","seq":n,"file":f,"line":l,"op":"view","handle":h,"storage":s,
 *    "kind":"view|new|inplace|none","shape":[..],"strides":[..],"offset":o,
 *    "dtype":"f32","device":"cpu","storage_nbytes":b,"read_bytes":r,
 *    "written_bytes":w,"live_bytes":L,"peak_bytes":P}
 *   {"ev":"alloc","storage":s,"nbytes":b,"block_bytes":k,"segment":g,"device":d,"file":f,"line":l}
 *     (segment: the CUDA caching allocator's segment id, null on the CPU; "external":
 *     true for a tl_from_blob storage: the caller's memory, counted in no live bytes)
 *   {"ev":"free","storage":s,"nbytes":b,"device":d,"file":f,"line":l}  (line 0: reclaimed at exit)
 *   {"ev":"error","file":f,"line":l,"op":o,"status":"invalid-view","message":m}
 *   {"ev":"exit","live_bytes":L,"peak_bytes":P,"n_live":n,"cuda_allocated_peak":A,
 *    "cuda_reserved_peak":R,"cuda_backend":b}
 * live/peak bytes count both devices together; the cuda_ peaks are the
 * caching allocator's (tl_memory_stats_of(TL_CUDA)); cuda_backend is what ran
 * TL_CUDA work ("cuda", "emulation", ...), null when the program never asked
 * for a device.  The trace starts with
 * tl_trace_open or the environment variable TL_TRACE (a path; "-" is stderr).
 */
#include "rt_internal.h"
#include "cuda_rt.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static FILE *trace;
static bool trace_is_stderr;
static int64_t seq;

bool tl_trace_open(const char *path)
{
    tl_trace_close();
    trace_is_stderr = strcmp(path, "-") == 0;
    trace = trace_is_stderr ? stderr : fopen(path, "w");
    if (trace) /* a record per line reaches the file even if the program then crashes */
        setvbuf(trace, NULL, _IOLBF, 0);
    return trace != NULL;
}

void tl_trace_close(void)
{
    if (trace && !trace_is_stderr)
        fclose(trace);
    trace = NULL;
}

void rt_trace_autostart(void)
{
    const char *path = getenv("TL_TRACE");
    if (path && *path && !trace && !tl_trace_open(path))
        fprintf(stderr, "tensorlint runtime: cannot open trace file %s\n", path);
}

static void emit(json_t *rec)
{
    if (trace && rec) {
        json_dumpf(rec, trace, JSON_COMPACT | JSON_PRESERVE_ORDER);
        fputc('\n', trace);
    }
    json_decref(rec);
}

static json_t *ints(int n, const int64_t *v)
{
    json_t *a = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(a, json_integer(v[k]));
    return a;
}

static json_t *site_file(const rt_site *site)
{
    return site->file ? json_string(site->file) : json_null();
}



static const char *kind_name(mt_kind k)
{
    static const char *names[] = {"new", "view", "inplace", "none"};
    return names[k];
}

void rt_trace_call(const rt_site *site, const mt_result *r, const tl_tensor *t)
{
    if (!trace)
        return;
    const mt_layout *l = t ? &t->l : &r->out;
    emit(json_pack("{s:s,s:I,s:o,s:i,s:s,s:I,s:I,s:s,s:o,s:o,s:I,s:s,s:s,s:I,s:I,s:I,s:I,s:I}",
                   "ev", "call", "seq", (json_int_t)seq++, "file", site_file(site), "line",
                   site->line, "op", mt_ops[site->op].name, "handle",
                   (json_int_t)(t ? t->id : -1), "storage",
                   (json_int_t)(t ? t->storage->id : -1), "kind", kind_name(r->kind), "shape",
                   ints(l->ndim, l->shape), "strides", ints(l->ndim, l->strides), "offset",
                   (json_int_t)l->offset, "dtype", mt_dtype_name(l->dtype), "device",
                   mt_device_name(l->device), "storage_nbytes",
                   (json_int_t)(t ? t->storage->nbytes : 0), "read_bytes",
                   (json_int_t)r->read_bytes, "written_bytes", (json_int_t)r->written_bytes,
                   "live_bytes", (json_int_t)rt_live_total(), "peak_bytes",
                   (json_int_t)rt_peak_total()));
}

void rt_trace_alloc(const rt_site *site, const rt_storage *s)
{
    if (!trace)
        return;
    json_t *segment = s->device == TL_CUDA ? json_integer(s->segment) : json_null();
    emit(json_pack("{s:s,s:I,s:I,s:I,s:o,s:s,s:o,s:i,s:b}", "ev", "alloc", "storage",
                   (json_int_t)s->id, "nbytes", (json_int_t)s->nbytes, "block_bytes",
                   (json_int_t)s->block_bytes, "segment", segment, "device",
                   mt_device_name(s->device), "file", site_file(site), "line", site->line,
                   "external", s->external));
}

void rt_trace_free(const rt_site *site, const rt_storage *s)
{
    if (!trace)
        return;
    emit(json_pack("{s:s,s:I,s:I,s:s,s:o,s:i}", "ev", "free", "storage", (json_int_t)s->id,
                   "nbytes", (json_int_t)s->nbytes, "device", mt_device_name(s->device), "file",
                   site_file(site), "line", site->line));
}

void rt_trace_error(const rt_site *site, tl_status status, const char *message)
{
    if (!trace)
        return;
    emit(json_pack("{s:s,s:o,s:i,s:s,s:s,s:s}", "ev", "error", "file", site_file(site), "line",
                   site->line, "op", site->op < MT_N_OPS ? mt_ops[site->op].name : "?", "status",
                   tl_status_name(status), "message", message));
}

void rt_trace_exit(void)
{
    if (!trace)
        return;
    tl_memory_stats cuda = tl_memory_stats_of(TL_CUDA);
    const char *backend = cu_backend_asked();
    emit(json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:o}", "ev", "exit", "live_bytes",
                   (json_int_t)rt_live_total(), "peak_bytes", (json_int_t)rt_peak_total(),
                   "n_live", (json_int_t)(rt_stats(TL_CPU)->n_live + rt_stats(TL_CUDA)->n_live),
                   "cuda_allocated_peak", (json_int_t)cuda.peak_allocated_bytes,
                   "cuda_reserved_peak", (json_int_t)cuda.peak_reserved_bytes, "cuda_backend",
                   backend ? json_string(backend) : json_null()));
    fflush(trace);
}
