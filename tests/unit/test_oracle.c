/*
 * test_oracle.c: replays the PyTorch oracle (the JSON files of tests/fixtures,
 * written by tests/oracle/gen_fixtures.py) through the meta functions and
 * through the public runtime, and compares every step with what torch answered.
 *
 * Approach: one cmocka test per fixture file.  Each case runs twice.
 * The meta path keeps an mt_layout and a storage id per variable, packs an
 * mt_call per step by the op's signature and checks mt_run's status, kind,
 * layout, storage id and storage bytes.  A variable's layout is then taken
 * from the fixture, not from mt_run, so each step is checked on exactly the
 * inputs torch saw and one wrong answer is reported once, not in every later
 * step.  The runtime path (cases with "values": true on the CPU) calls the
 * tl_*_at functions with an error handler installed, checks the same
 * metadata through the query functions and the values through tl_get, and
 * releases every handle it made.  Both paths go on after a mismatch; an
 * error step ends its case, and on the runtime path so does an unexpected
 * error (the handle is missing).  An error marked "data_dependent" (an index
 * value out of range) is the runtime's to find: the meta path accepts ok.
 * Cases on two devices ("devices": "mixed", devices.json) name each
 * result's device; their runtime path runs on the emulated CUDA device
 * (TL_CUDA_EMULATION=auto unless the environment sets it), without values.
 *
 * Output: one line per mismatching field, "oracle: FAIL <case> [meta|rt]
 * step <k> <op>: <field>: expected <x>, got <y>", then the summary line
 * "oracle: N cases, M steps, K failures" (K counts failing steps of either
 * path).  A file with a failure fails its test; the final test fails when
 * fewer than TL_ORACLE_MIN_CASES cases were read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"

#define TL_ORACLE_MIN_CASES 400
#define ORACLE_MAX_FILES 64

/* ---- totals over all files ---- */

static long n_cases_total;
static long n_gaps_total; /* steps where torch's CPU backend lacks a kernel this project has */

/* torch 1.13's CPU backend lacks some kernels (f16 matmul, softmax, conv2d,
 * exp, relu; bool matmul/conv2d): the generator marks those steps
 * "backend_gap".  They are gaps of one backend, not PyTorch's semantics (its
 * CUDA backend has most of them, and so does this runtime, which
 * tensorlint's CUDA programs need): the case ends there, counted. */
static bool oc_backend_gap(const json_t *e)
{
    if (!json_is_true(json_object_get(e, "backend_gap")))
        return false;
    n_gaps_total++;
    return true;
}
static long n_steps_total;
static long n_failures_total;

/* ---- one case while it runs ---- */

typedef struct oc_var {
    const char *name; /* points into the fixture's JSON */
    mt_layout l;      /* the layout torch reported */
    int sid;          /* storage id, numbered as the fixture numbers them */
    tl_tensor *h;     /* runtime path: the handle (NULL on the meta path) */
    bool external;    /* its storage is a from_blob buffer (cannot grow) */
} oc_var;

typedef struct oc_case {
    const char *name;
    const char *path;  /* "meta" or "rt" */
    oc_var *vars;
    int n_vars;
    int cap_vars;
    int n_sids;        /* distinct storages seen so far */
    tl_device device;
    int step;          /* index of the step being checked */
    void **host;       /* runtime path: host buffers made for from_data / from_blob */
    int n_host;
    const char *op;
    bool step_failed;
    long n_failed_steps;
} oc_case;

/* The arguments of one step, decoded by the op's signature. */
typedef struct oc_args {
    int n_t;
    int t[TL_MAX_LIST]; /* variable indices: the t arguments, then the L list */
    bool has_list;
    int n_s;
    tl_ints s[2];
    int n_i;
    int64_t i[4];
    double f;
    bool b;
    tl_dtype dtype;
    tl_device device;
    tl_format format;
    const json_t *host; /* p: the values the host buffer holds (an array), or null */
} oc_args;

static void oc_fail(oc_case *c, const char *field, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    printf("oracle: FAIL %s [%s] step %d %s: %s: %s\n", c->name, c->path, c->step, c->op, field, detail);
    if (!c->step_failed) {
        c->step_failed = true;
        c->n_failed_steps++;
    }
}

static int oc_find_var(const oc_case *c, const char *name)
{
    for (int k = c->n_vars - 1; k >= 0; k--)
        if (strcmp(c->vars[k].name, name) == 0)
            return k;
    return -1;
}

static oc_var *oc_add_var(oc_case *c, const char *name)
{
    if (c->n_vars == c->cap_vars) {
        c->cap_vars = c->cap_vars ? 2 * c->cap_vars : 64;
        c->vars = realloc(c->vars, (size_t)c->cap_vars * sizeof *c->vars);
        assert_non_null(c->vars);
    }
    oc_var *v = &c->vars[c->n_vars++];
    memset(v, 0, sizeof *v);
    v->name = name;
    return v;
}

/* ---- decoding ---- */

/* A fixture number: a JSON number or "nan", "inf", "-inf". */
static bool oc_number(const json_t *j, double *out)
{
    if (json_is_number(j)) {
        *out = json_number_value(j);
        return true;
    }
    const char *s = json_string_value(j);
    if (!s)
        return false;
    if (strcmp(s, "nan") == 0)
        *out = NAN;
    else if (strcmp(s, "inf") == 0)
        *out = INFINITY;
    else if (strcmp(s, "-inf") == 0)
        *out = -INFINITY;
    else
        return false;
    return true;
}

static bool oc_ints(const json_t *j, tl_ints *out)
{
    if (!json_is_array(j) || json_array_size(j) > TL_MAX_DIMS)
        return false;
    memset(out, 0, sizeof *out);
    out->n = (int)json_array_size(j);
    for (int k = 0; k < out->n; k++) {
        const json_t *e = json_array_get(j, (size_t)k);
        if (!json_is_integer(e))
            return false;
        out->v[k] = json_integer_value(e);
    }
    return true;
}

static bool oc_device(const char *s, tl_device *out)
{
    if (s && strcmp(s, "cpu") == 0)
        *out = TL_CPU;
    else if (s && strcmp(s, "cuda") == 0)
        *out = TL_CUDA;
    else
        return false;
    return true;
}

static bool oc_format(const char *s, tl_format *out)
{
    if (s && strcmp(s, "contiguous") == 0)
        *out = TL_CONTIGUOUS;
    else if (s && strcmp(s, "channels_last") == 0)
        *out = TL_CHANNELS_LAST;
    else
        return false;
    return true;
}

/* Decodes one argument of kind k; false (and a failure) on a malformed fixture. */
static bool oc_arg(oc_case *c, char k, const json_t *j, oc_args *a)
{
    switch (k) {
    case 't': {
        int v = json_is_string(j) ? oc_find_var(c, json_string_value(j)) : -1;
        if (v < 0 || a->n_t == TL_MAX_LIST)
            return false;
        a->t[a->n_t++] = v;
        return true;
    }
    case 'L':
        if (!json_is_array(j) || json_array_size(j) == 0)
            return false;
        a->has_list = true;
        for (size_t e = 0; e < json_array_size(j); e++)
            if (!oc_arg(c, 't', json_array_get(j, e), a))
                return false;
        return true;
    case 'S':
        return a->n_s < 2 && oc_ints(j, &a->s[a->n_s++]);
    case 'i':
        if (!json_is_integer(j) || a->n_i == 4)
            return false;
        a->i[a->n_i++] = json_integer_value(j);
        return true;
    case 'b':
        if (!json_is_boolean(j))
            return false;
        a->b = json_is_true(j);
        return true;
    case 'f':
        return oc_number(j, &a->f);
    case 'y':
        return mt_dtype_parse(json_string_value(j), &a->dtype);
    case 'v':
        return oc_device(json_string_value(j), &a->device);
    case 'm':
        return oc_format(json_string_value(j), &a->format);
    case 'p':
        a->host = j;
        return json_is_array(j) || json_is_null(j);
    default:
        return false;
    }
}

static bool oc_decode(oc_case *c, mt_op op, const json_t *args, oc_args *a)
{
    const char *sig = mt_ops[op].signature;
    memset(a, 0, sizeof *a);
    if (!json_is_array(args) || json_array_size(args) != strlen(sig)) {
        oc_fail(c, "fixture", "%s takes %zu arguments (%s)", mt_ops[op].name, strlen(sig), sig);
        return false;
    }
    for (size_t k = 0; sig[k]; k++) {
        if (!oc_arg(c, sig[k], json_array_get(args, k), a)) {
            oc_fail(c, "fixture", "argument %zu (kind %c) is malformed or names an unknown variable", k,
                    sig[k]);
            return false;
        }
    }
    return true;
}

/* The layout and storage id a successful step's "expect" describes. */
static bool oc_expected_layout(oc_case *c, const json_t *e, mt_layout *l, int *sid)
{
    tl_ints shape, strides;
    tl_dtype dt;
    memset(l, 0, sizeof *l);
    if (!oc_ints(json_object_get(e, "shape"), &shape) || !oc_ints(json_object_get(e, "strides"), &strides) ||
        shape.n != strides.n || !mt_dtype_parse(json_string_value(json_object_get(e, "dtype")), &dt) ||
        !json_is_integer(json_object_get(e, "storage"))) {
        oc_fail(c, "fixture", "malformed expect");
        return false;
    }
    l->ndim = shape.n;
    memcpy(l->shape, shape.v, sizeof l->shape);
    memcpy(l->strides, strides.v, sizeof l->strides);
    l->offset = json_integer_value(json_object_get(e, "offset"));
    l->dtype = dt;
    if (!oc_device(json_string_value(json_object_get(e, "device")), &l->device))
        l->device = c->device; /* one device per case: the case's */
    l->storage_nbytes = json_integer_value(json_object_get(e, "storage_nbytes"));
    *sid = (int)json_integer_value(json_object_get(e, "storage"));
    return true;
}

static void oc_format_ints(char *buf, size_t n, int nd, const int64_t *v)
{
    size_t used = (size_t)snprintf(buf, n, "[");
    for (int k = 0; k < nd && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%" PRId64, k ? ", " : "", v[k]);
    if (used < n)
        snprintf(buf + used, n - used, "]");
}

/* Compares a layout (what the code answered) with the expected one. */
static void oc_check_layout(oc_case *c, const mt_layout *want, const mt_layout *got)
{
    char a[160], b[160];
    bool same_shape = want->ndim == got->ndim &&
                      memcmp(want->shape, got->shape, (size_t)want->ndim * sizeof(int64_t)) == 0;
    bool same_strides = want->ndim == got->ndim &&
                        memcmp(want->strides, got->strides, (size_t)want->ndim * sizeof(int64_t)) == 0;
    if (!same_shape) {
        oc_format_ints(a, sizeof a, want->ndim, want->shape);
        oc_format_ints(b, sizeof b, got->ndim, got->shape);
        oc_fail(c, "shape", "expected %s, got %s", a, b);
    }
    if (!same_strides) {
        oc_format_ints(a, sizeof a, want->ndim, want->strides);
        oc_format_ints(b, sizeof b, got->ndim, got->strides);
        oc_fail(c, "strides", "expected %s, got %s", a, b);
    }
    if (want->offset != got->offset)
        oc_fail(c, "offset", "expected %" PRId64 ", got %" PRId64, want->offset, got->offset);
    if (want->dtype != got->dtype)
        oc_fail(c, "dtype", "expected %s, got %s", mt_dtype_name(want->dtype), mt_dtype_name(got->dtype));
    if (want->device != got->device)
        oc_fail(c, "device", "expected %s, got %s", mt_device_name(want->device),
                mt_device_name(got->device));
}

static const char *oc_kind_name(mt_kind k)
{
    switch (k) {
    case MT_KIND_NEW: return "new";
    case MT_KIND_VIEW: return "view";
    case MT_KIND_INPLACE: return "inplace";
    case MT_KIND_NONE: return "none";
    }
    return "?";
}

/* ---- the meta path ---- */

/* Checks one step through mt_run; false when the case ends here. */
static bool oc_meta_step(oc_case *c, mt_op op, const json_t *step)
{
    const json_t *e = json_object_get(step, "expect");
    const char *want_err = json_string_value(json_object_get(e, "error"));
    oc_args a;
    if (!oc_decode(c, op, json_object_get(step, "args"), &a))
        return false;
    if (want_err && oc_backend_gap(e))
        return false;
    mt_call call;
    memset(&call, 0, sizeof call);
    call.op = op;
    call.n_in = a.n_t;
    call.has_storage_ids = true;
    for (int k = 0; k < a.n_t; k++) {
        call.in[k] = &c->vars[a.t[k]].l;
        call.storage[k] = c->vars[a.t[k]].sid;
        call.external[k] = c->vars[a.t[k]].external;
    }
    memcpy(call.i, a.i, sizeof call.i);
    memcpy(call.s, a.s, sizeof call.s);
    call.f = a.f;
    call.b = a.b;
    call.dtype = a.dtype;
    call.device = a.device;
    call.format = a.format;
    mt_result r;
    memset(&r, 0, sizeof r);
    mt_run(&call, &r);
    if (want_err) {
        /* An index value out of range: only the runtime sees the values. */
        bool data_dependent = json_is_true(json_object_get(e, "data_dependent"));
        if (r.status == TL_OK) {
            if (!data_dependent)
                oc_fail(c, "status", "expected %s (%s), got ok (%s)", want_err,
                        json_string_value(json_object_get(e, "message")), oc_kind_name(r.kind));
        } else if (strcmp(tl_status_name(r.status), want_err) != 0)
            oc_fail(c, "status", "expected %s (%s), got %s (%s)", want_err,
                    json_string_value(json_object_get(e, "message")), tl_status_name(r.status), r.msg);
        return false;
    }
    if (r.status != TL_OK)
        oc_fail(c, "status", "expected ok, got %s (%s)", tl_status_name(r.status), r.msg);
    const char *want_kind = json_string_value(json_object_get(e, "kind"));
    if (r.status == TL_OK && (!want_kind || strcmp(want_kind, oc_kind_name(r.kind)) != 0))
        oc_fail(c, "kind", "expected %s, got %s", want_kind ? want_kind : "?", oc_kind_name(r.kind));
    if (want_kind && strcmp(want_kind, "none") == 0)
        return true;
    mt_layout want;
    int want_sid;
    if (!oc_expected_layout(c, e, &want, &want_sid))
        return false;
    if (r.status == TL_OK) {
        oc_check_layout(c, &want, &r.out);
        int sid = -1;
        int64_t nbytes = -1;
        if (r.kind == MT_KIND_VIEW && r.view_of >= 0 && r.view_of < a.n_t) {
            sid = c->vars[a.t[r.view_of]].sid;
            nbytes = c->vars[a.t[r.view_of]].l.storage_nbytes;
        } else if (r.kind == MT_KIND_NEW) {
            sid = c->n_sids;
            nbytes = r.external ? r.out.storage_nbytes : r.alloc_nbytes; /* from_blob: 0 allocated */
        } else if (r.kind == MT_KIND_INPLACE && a.n_t > 0) {
            sid = c->vars[a.t[0]].sid;
            nbytes = r.out.storage_nbytes; /* an out= resize may grow it */
        }
        if (sid != want_sid)
            oc_fail(c, "storage", "expected %d, got %d", want_sid, sid);
        if (nbytes != want.storage_nbytes)
            oc_fail(c, "storage_nbytes", "expected %" PRId64 ", got %" PRId64, want.storage_nbytes, nbytes);
        if (r.out.storage_nbytes != want.storage_nbytes)
            oc_fail(c, "out.storage_nbytes", "expected %" PRId64 ", got %" PRId64, want.storage_nbytes,
                    r.out.storage_nbytes);
    }
    const char *var = json_string_value(json_object_get(step, "var"));
    if (var) {
        oc_var *v = oc_add_var(c, var);
        v->l = want;
        v->sid = want_sid;
        v->external = op == MT_OP_from_blob;
        for (int k = 0; k + 1 < c->n_vars; k++)
            v->external = v->external || (c->vars[k].sid == want_sid && c->vars[k].external);
    }
    if (r.kind == MT_KIND_INPLACE && a.n_t > 0) { /* out=: the written tensor's new layout */
        c->vars[a.t[0]].l = want;
        for (int k = 0; k < c->n_vars; k++)
            if (c->vars[k].sid == want_sid)
                c->vars[k].l.storage_nbytes = want.storage_nbytes;
    }
    if (want_sid >= c->n_sids)
        c->n_sids = want_sid + 1;
    return true;
}

/* ---- the runtime path ---- */

static void oc_on_error(const tl_error *err, void *user)
{
    (void)err;
    (void)user;
}

static tl_ints oc_index_of(int64_t flat, const mt_layout *l)
{
    tl_ints ix;
    ix.n = l->ndim;
    for (int d = l->ndim - 1; d >= 0; d--) {
        int64_t n = l->shape[d] ? l->shape[d] : 1;
        ix.v[d] = flat % n;
        flat /= n;
    }
    return ix;
}

static double oc_decode_bits(int64_t bits, tl_dtype dt)
{
    if (dt == TL_F64) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    if (dt == TL_F32 || dt == TL_BF16) {
        uint32_t u = dt == TL_F32 ? (uint32_t)bits : (uint32_t)(uint16_t)bits << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    uint16_t h = (uint16_t)bits; /* f16 */
    int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
    double v = exp == 0 ? ldexp(man, -24) : exp == 31 ? (man ? NAN : INFINITY) : ldexp(man + 1024, exp - 25);
    return sign ? -v : v;
}

/* |got - want| within the dtype's tolerance; NaN matches NaN; exact compares sign of zero too. */
static bool oc_value_ok(double want, double got, tl_dtype dt, bool exact)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (exact || !mt_is_floating(dt) || isinf(want))
        return want == got && signbit(want) == signbit(got);
    double tol = dt == TL_F64 ? 1e-6 : dt == TL_F32 ? 1e-5 : 1e-2;
    return fabs(got - want) <= tol * fmax(1.0, fabs(want));
}

static void oc_check_values(oc_case *c, tl_tensor *t, const mt_layout *l, const json_t *e)
{
    const json_t *vals = json_object_get(e, "values");
    const json_t *bits = json_object_get(e, "bits");
    bool exact = json_is_true(json_object_get(e, "exact")) || bits;
    if (!vals)
        return;
    int64_t n = mt_numel(l);
    if ((int64_t)json_array_size(vals) != n || (bits && (int64_t)json_array_size(bits) != n)) {
        oc_fail(c, "fixture", "values hold %zu of %" PRId64 " elements", json_array_size(vals), n);
        return;
    }
    for (int64_t k = 0; k < n; k++) {
        double want;
        if (bits)
            want = oc_decode_bits(json_integer_value(json_array_get(bits, (size_t)k)), l->dtype);
        else if (!oc_number(json_array_get(vals, (size_t)k), &want)) {
            oc_fail(c, "fixture", "value %" PRId64 " is malformed", k);
            return;
        }
        tl_clear_error();
        double got = tl_get_at(c->name, c->step + 1, t, oc_index_of(k, l));
        if (tl_last_error()->status != TL_OK) {
            oc_fail(c, "values", "tl_get failed: %s", tl_last_error()->message);
            return;
        }
        if (!oc_value_ok(want, got, l->dtype, exact)) {
            oc_fail(c, "values", "[%" PRId64 "] expected %.17g, got %.17g (%s%s)", k, want, got,
                    mt_dtype_name(l->dtype), exact ? ", exact" : "");
            return; /* the first wrong element is enough */
        }
    }
}

/* Checks the runtime's answer against the expected metadata, storage identity and values. */
static void oc_check_tensor(oc_case *c, tl_tensor *t, const json_t *e, const char *kind)
{
    mt_layout want, got;
    int want_sid;
    if (!oc_expected_layout(c, e, &want, &want_sid))
        return;
    memset(&got, 0, sizeof got);
    got.ndim = tl_ndim(t);
    for (int d = 0; d < got.ndim && d < TL_MAX_DIMS; d++) {
        got.shape[d] = tl_size(t, d);
        got.strides[d] = tl_stride(t, d);
    }
    got.offset = tl_storage_offset(t);
    got.dtype = tl_dtype_of(t);
    got.device = tl_device_of(t);
    oc_check_layout(c, &want, &got);
    int64_t nbytes = tl_storage_nbytes(t);
    if (nbytes != want.storage_nbytes)
        oc_fail(c, "storage_nbytes", "expected %" PRId64 ", got %" PRId64, want.storage_nbytes, nbytes);
    /* Storage identity through tl_shares_storage; an empty storage has no address to compare. */
    if (want.storage_nbytes > 0 && strcmp(kind, "inplace") != 0) {
        int shared = -1;
        for (int k = 0; k < c->n_vars; k++) {
            if (c->vars[k].h && c->vars[k].l.storage_nbytes > 0 && tl_shares_storage(t, c->vars[k].h)) {
                shared = c->vars[k].sid;
                break;
            }
        }
        bool is_view = strcmp(kind, "view") == 0;
        if (is_view && shared != want_sid)
            oc_fail(c, "storage", "expected a view of storage %d, got %s %d", want_sid,
                    shared < 0 ? "a new storage" : "storage", shared);
        if (!is_view && shared >= 0)
            oc_fail(c, "storage", "expected a new storage, got a view of storage %d", shared);
    }
    if (want.ndim == got.ndim && memcmp(want.shape, got.shape, (size_t)want.ndim * sizeof(int64_t)) == 0)
        oc_check_values(c, t, &want, e);
}

static tl_list oc_list(const oc_case *c, const oc_args *a)
{
    tl_list l;
    memset(&l, 0, sizeof l);
    l.n = a->n_t;
    for (int k = 0; k < a->n_t; k++)
        l.v[k] = c->vars[a->t[k]].h;
    return l;
}

/* A host buffer holding the fixture's values in dtype dt (freed when the case ends). */
static void *oc_host_buffer(oc_case *c, const json_t *vals, tl_dtype dt, int64_t nbytes)
{
    size_t n = json_is_array(vals) ? json_array_size(vals) : 0, es = (size_t)mt_dtype_size(dt);
    size_t size = n * es > (size_t)nbytes ? n * es : (size_t)nbytes;
    char *p = calloc(size ? size : 1, 1);
    assert_non_null(p);
    for (size_t k = 0; k < n; k++) {
        double v = 0;
        oc_number(json_array_get(vals, k), &v);
        switch (dt) {
        case TL_BOOL: case TL_U8: p[k] = (char)(uint8_t)v; break;
        case TL_I8: ((int8_t *)p)[k] = (int8_t)v; break;
        case TL_I16: ((int16_t *)p)[k] = (int16_t)v; break;
        case TL_I32: ((int32_t *)p)[k] = (int32_t)v; break;
        case TL_I64: ((int64_t *)p)[k] = (int64_t)v; break;
        case TL_F32: ((float *)p)[k] = (float)v; break;
        case TL_F64: ((double *)p)[k] = v; break;
        case TL_F16: { /* the values the fixtures use are exact halves: sign, exponent, 10 bits */
            float f = (float)v;
            uint32_t u;
            memcpy(&u, &f, sizeof u);
            uint16_t h = (uint16_t)((u >> 16) & 0x8000u);
            if (f != 0)
                h |= (uint16_t)((((u >> 23) & 0xff) - 112) << 10 | ((u >> 13) & 0x3ff));
            ((uint16_t *)p)[k] = h;
            break;
        }
        default: fail_msg("host data of dtype %s is not generated", mt_dtype_name(dt));
        }
    }
    c->host = realloc(c->host, sizeof *c->host * (size_t)(c->n_host + 1));
    assert_non_null(c->host);
    c->host[c->n_host++] = p;
    return p;
}

/* Calls the public function of op; *value gets tl_get's answer. */
static tl_tensor *oc_call(oc_case *c, mt_op op, const oc_args *a, double *value)
{
    const char *f = c->name;
    int ln = c->step + 1;
    tl_tensor *t0 = a->n_t > 0 ? c->vars[a->t[0]].h : NULL;
    tl_tensor *t1 = a->n_t > 1 ? c->vars[a->t[1]].h : NULL;
    switch (op) {
    case MT_OP_empty: return tl_empty_at(f, ln, a->s[0], a->dtype, a->device);
    case MT_OP_zeros: return tl_zeros_at(f, ln, a->s[0], a->dtype, a->device);
    case MT_OP_ones: return tl_ones_at(f, ln, a->s[0], a->dtype, a->device);
    case MT_OP_randn: return tl_randn_at(f, ln, a->s[0], a->dtype, a->device);
    case MT_OP_full: return tl_full_at(f, ln, a->s[0], a->f, a->dtype, a->device);
    case MT_OP_arange: return tl_arange_at(f, ln, a->i[0], a->dtype, a->device);
    case MT_OP_randint: return tl_randint_at(f, ln, a->i[0], a->i[1], a->s[0], a->device);
    case MT_OP_scalar: return tl_scalar_at(f, ln, a->f, a->dtype, a->device);
    case MT_OP_view: return tl_view_at(f, ln, t0, a->s[0]);
    case MT_OP_transpose: return tl_transpose_at(f, ln, t0, a->i[0], a->i[1]);
    case MT_OP_t: return tl_t_at(f, ln, t0);
    case MT_OP_permute: return tl_permute_at(f, ln, t0, a->s[0]);
    case MT_OP_slice: return tl_slice_at(f, ln, t0, a->i[0], a->i[1], a->i[2], a->i[3]);
    case MT_OP_narrow: return tl_narrow_at(f, ln, t0, a->i[0], a->i[1], a->i[2]);
    case MT_OP_select: return tl_select_at(f, ln, t0, a->i[0], a->i[1]);
    case MT_OP_unsqueeze: return tl_unsqueeze_at(f, ln, t0, a->i[0]);
    case MT_OP_squeeze: return tl_squeeze_at(f, ln, t0, a->i[0]);
    case MT_OP_expand: return tl_expand_at(f, ln, t0, a->s[0]);
    case MT_OP_as_strided: return tl_as_strided_at(f, ln, t0, a->s[0], a->s[1], a->i[0]);
    case MT_OP_reshape: return tl_reshape_at(f, ln, t0, a->s[0]);
    case MT_OP_flatten: return tl_flatten_at(f, ln, t0, a->i[0], a->i[1]);
    case MT_OP_contiguous: return tl_contiguous_at(f, ln, t0);
    case MT_OP_to: return tl_to_at(f, ln, t0, a->dtype);
    case MT_OP_to_device: return tl_to_device_at(f, ln, t0, a->device);
    case MT_OP_to_format: return tl_to_format_at(f, ln, t0, a->format);
    case MT_OP_clone: return tl_clone_at(f, ln, t0);
    case MT_OP_index: return tl_index_at(f, ln, t0, t1);
    case MT_OP_index_select: return tl_index_select_at(f, ln, t0, a->i[0], t1);
    case MT_OP_gather: return tl_gather_at(f, ln, t0, a->i[0], t1);
    case MT_OP_cat: return tl_cat_at(f, ln, oc_list(c, a), a->i[0]);
    case MT_OP_add: return tl_add_at(f, ln, t0, t1);
    case MT_OP_sub: return tl_sub_at(f, ln, t0, t1);
    case MT_OP_mul: return tl_mul_at(f, ln, t0, t1);
    case MT_OP_div: return tl_div_at(f, ln, t0, t1);
    case MT_OP_add_scalar: return tl_add_scalar_at(f, ln, t0, a->f);
    case MT_OP_mul_scalar: return tl_mul_scalar_at(f, ln, t0, a->f);
    case MT_OP_neg: return tl_neg_at(f, ln, t0);
    case MT_OP_exp: return tl_exp_at(f, ln, t0);
    case MT_OP_relu: return tl_relu_at(f, ln, t0);
    case MT_OP_sum: return tl_sum_at(f, ln, t0, a->i[0], a->b);
    case MT_OP_mean: return tl_mean_at(f, ln, t0, a->i[0], a->b);
    case MT_OP_softmax: return tl_softmax_at(f, ln, t0, a->i[0]);
    case MT_OP_matmul: return tl_matmul_at(f, ln, t0, t1);
    case MT_OP_conv2d: return tl_conv2d_at(f, ln, t0, t1, a->i[0], a->i[1]);
    case MT_OP_add_: tl_add__at(f, ln, t0, t1); return t0;
    case MT_OP_sub_: tl_sub__at(f, ln, t0, t1); return t0;
    case MT_OP_mul_scalar_: tl_mul_scalar__at(f, ln, t0, a->f); return t0;
    case MT_OP_fill_: tl_fill__at(f, ln, t0, a->f); return t0;
    case MT_OP_zero_: tl_zero__at(f, ln, t0); return t0;
    case MT_OP_copy_: tl_copy__at(f, ln, t0, t1); return t0;
    case MT_OP_set: tl_set_at(f, ln, t0, a->s[0], a->f); return t0;
    case MT_OP_get: *value = tl_get_at(f, ln, t0, a->s[0]); return NULL;
    case MT_OP_sqrt: return tl_sqrt_at(f, ln, t0);
    case MT_OP_rsqrt: return tl_rsqrt_at(f, ln, t0);
    case MT_OP_log: return tl_log_at(f, ln, t0);
    case MT_OP_sin: return tl_sin_at(f, ln, t0);
    case MT_OP_cos: return tl_cos_at(f, ln, t0);
    case MT_OP_tanh: return tl_tanh_at(f, ln, t0);
    case MT_OP_sigmoid: return tl_sigmoid_at(f, ln, t0);
    case MT_OP_silu: return tl_silu_at(f, ln, t0);
    case MT_OP_gelu: return tl_gelu_at(f, ln, t0);
    case MT_OP_pow_scalar: return tl_pow_scalar_at(f, ln, t0, a->f);
    case MT_OP_div_scalar: return tl_div_scalar_at(f, ln, t0, a->f);
    case MT_OP_maximum: return tl_maximum_at(f, ln, t0, t1);
    case MT_OP_minimum: return tl_minimum_at(f, ln, t0, t1);
    case MT_OP_max: return tl_max_at(f, ln, t0, a->i[0], a->b);
    case MT_OP_argmax: return tl_argmax_at(f, ln, t0, a->i[0], a->b);
    case MT_OP_where: return tl_where_at(f, ln, t0, t1, c->vars[a->t[2]].h);
    case MT_OP_masked_fill: return tl_masked_fill_at(f, ln, t0, t1, a->f);
    case MT_OP_triu: return tl_triu_at(f, ln, t0, a->i[0]);
    case MT_OP_tril: return tl_tril_at(f, ln, t0, a->i[0]);
    case MT_OP_stack: return tl_stack_at(f, ln, oc_list(c, a), a->i[0]);
    case MT_OP_eq: return tl_eq_at(f, ln, t0, t1);
    case MT_OP_lt: return tl_lt_at(f, ln, t0, t1);
    case MT_OP_mul_: tl_mul__at(f, ln, t0, t1); return t0;
    case MT_OP_div_: tl_div__at(f, ln, t0, t1); return t0;
    case MT_OP_add_scalar_: tl_add_scalar__at(f, ln, t0, a->f); return t0;
    case MT_OP_matmul_out: tl_matmul_out_at(f, ln, t0, t1, c->vars[a->t[2]].h); return t0;
    case MT_OP_softmax_out: tl_softmax_out_at(f, ln, t0, t1, a->i[0]); return t0;
    case MT_OP_from_data:
        return tl_from_data_at(f, ln, oc_host_buffer(c, a->host, a->dtype, 0), a->s[0], a->dtype,
                               a->device);
    case MT_OP_from_blob:
        return tl_from_blob_at(f, ln, oc_host_buffer(c, a->host, a->dtype, 0), a->s[0], a->dtype);
    case MT_OP_copy_to_host:
        tl_copy_to_host_at(f, ln, t0, oc_host_buffer(c, NULL, TL_U8, a->i[0]), a->i[0]);
        return NULL;
    case MT_OP_index_add_: tl_index_add__at(f, ln, t0, a->i[0], t1, c->vars[a->t[2]].h); return t0;
    case MT_OP_index_add: return tl_index_add_at(f, ln, t0, a->i[0], t1, c->vars[a->t[2]].h);
    case MT_OP_gelu_tanh: return tl_gelu_tanh_at(f, ln, t0);
    case MT_OP_sqrt_: tl_sqrt__at(f, ln, t0); return t0;
    case MT_OP_addcmul_: tl_addcmul__at(f, ln, t0, t1, c->vars[a->t[2]].h, a->f); return t0;
    case MT_OP_addcdiv_: tl_addcdiv__at(f, ln, t0, t1, c->vars[a->t[2]].h, a->f); return t0;
    case MT_OP_lerp_: tl_lerp__at(f, ln, t0, t1, a->f); return t0;
    case MT_OP_log_softmax: return tl_log_softmax_at(f, ln, t0, a->i[0]);
    case MT_OP_cross_entropy: return tl_cross_entropy_at(f, ln, t0, t1, a->i[0]);
    case MT_OP_release:
    case MT_N_OPS: break;
    }
    return NULL;
}

/* Runs one step through the public API; false when the case ends here. */
static bool oc_rt_step(oc_case *c, mt_op op, const json_t *step)
{
    const json_t *e = json_object_get(step, "expect");
    const char *want_err = json_string_value(json_object_get(e, "error"));
    const char *kind = json_string_value(json_object_get(e, "kind"));
    oc_args a;
    if (!oc_decode(c, op, json_object_get(step, "args"), &a))
        return false;
    if (want_err && oc_backend_gap(e))
        return false;
    double value = 0;
    tl_clear_error();
    tl_tensor *t = oc_call(c, op, &a, &value);
    const tl_error *err = tl_last_error();
    bool returns = mt_ops[op].family != MT_INPLACE && mt_ops[op].family != MT_ACCESS;
    if (want_err) {
        if (err->status == TL_OK)
            oc_fail(c, "status", "expected %s (%s), got ok", want_err,
                    json_string_value(json_object_get(e, "message")));
        else if (strcmp(tl_status_name(err->status), want_err) != 0)
            oc_fail(c, "status", "expected %s (%s), got %s (%s)", want_err,
                    json_string_value(json_object_get(e, "message")), tl_status_name(err->status),
                    err->message ? err->message : "");
        if (returns && t)
            tl_release_at(c->name, c->step + 1, t);
        return false;
    }
    if (err->status != TL_OK) {
        oc_fail(c, "status", "expected ok, got %s (%s)", tl_status_name(err->status),
                err->message ? err->message : "");
        if (returns && t)
            tl_release_at(c->name, c->step + 1, t);
        return false;
    }
    if (op == MT_OP_copy_to_host)
        return true;
    if (op == MT_OP_get) {
        double want;
        const json_t *jv = json_object_get(e, "value");
        tl_dtype dt = c->vars[a.t[0]].l.dtype;
        bool exact = !mt_is_floating(dt) || json_is_true(json_object_get(e, "exact"));
        if (jv && oc_number(jv, &want) && !oc_value_ok(want, value, dt, exact))
            oc_fail(c, "value", "expected %.17g, got %.17g", want, value);
        return true;
    }
    if (!t) {
        oc_fail(c, "result", "NULL without an error");
        return false;
    }
    oc_check_tensor(c, t, e, kind ? kind : "?");
    const char *var = json_string_value(json_object_get(step, "var"));
    if (returns) {
        mt_layout l;
        int sid;
        if (!var || !oc_expected_layout(c, e, &l, &sid)) {
            tl_release_at(c->name, c->step + 1, t);
            return false;
        }
        oc_var *v = oc_add_var(c, var);
        v->h = t;
        v->l = l;
        v->sid = sid;
    }
    return true;
}

/* ---- cases and files ---- */

static bool oc_case_on_cpu(const json_t *steps)
{
    for (size_t k = 0; k < json_array_size(steps); k++) {
        const json_t *s = json_array_get(steps, k);
        mt_op op = mt_op_lookup(json_string_value(json_object_get(s, "op")));
        if (op == MT_N_OPS)
            continue;
        const char *sig = mt_ops[op].signature;
        const json_t *args = json_object_get(s, "args");
        for (size_t j = 0; sig[j] && j < json_array_size(args); j++) {
            const char *d = json_string_value(json_array_get(args, j));
            if (sig[j] == 'v' && d && strcmp(d, "cpu") != 0)
                return false;
        }
    }
    return true;
}

/* Runs one path ("meta" or "rt") over a case; returns its failing steps. */
static long oc_run_path(const char *name, const json_t *steps, tl_device dev, bool rt)
{
    oc_case c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.path = rt ? "rt" : "meta";
    c.device = dev;
    for (size_t k = 0; k < json_array_size(steps); k++) {
        const json_t *s = json_array_get(steps, k);
        c.step = (int)k;
        c.op = json_string_value(json_object_get(s, "op"));
        c.step_failed = false;
        mt_op op = mt_op_lookup(c.op ? c.op : "");
        if (!c.op || op == MT_N_OPS || mt_ops[op].family == MT_RELEASE) {
            c.op = c.op ? c.op : "?";
            oc_fail(&c, "fixture", "unknown op");
            break;
        }
        bool go_on = rt ? oc_rt_step(&c, op, s) : oc_meta_step(&c, op, s);
        if (!go_on)
            break;
    }
    for (int k = c.n_vars - 1; k >= 0; k--)
        if (c.vars[k].h)
            tl_release_at(name, 0, c.vars[k].h);
    for (int k = 0; k < c.n_host; k++) /* after the handles: from_blob storages point here */
        free(c.host[k]);
    free(c.host);
    free(c.vars);
    return c.n_failed_steps;
}

static bool oc_mixed(const json_t *cs)
{
    const char *d = json_string_value(json_object_get(cs, "devices"));
    return d && strcmp(d, "mixed") == 0;
}

static int oc_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *oc_fixture_dir(void)
{
    static char buf[4096];
    const char *d = getenv("TL_FIXTURES");
    if (d && *d)
        return d;
    const char *src = getenv("TL_SOURCE_DIR");
    snprintf(buf, sizeof buf, "%s/tests/fixtures", src && *src ? src : ".");
    return buf;
}

static void test_fixture_file(void **state)
{
    const char *path = *state;
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root) {
        printf("oracle: FAIL %s: line %d: %s\n", path, jerr.line, jerr.text);
        n_failures_total++;
        fail();
    }
    const json_t *cases = json_object_get(root, "cases");
    if (json_integer_value(json_object_get(root, "schema")) != 1 || !json_is_array(cases)) {
        printf("oracle: FAIL %s: not a schema-1 fixture\n", path);
        json_decref(root);
        n_failures_total++;
        fail();
    }
    long failures = 0;
    tl_set_error_handler(oc_on_error, NULL);
    for (size_t k = 0; k < json_array_size(cases); k++) {
        const json_t *cs = json_array_get(cases, k);
        const char *name = json_string_value(json_object_get(cs, "name"));
        const json_t *steps = json_object_get(cs, "steps");
        name = name ? name : "?";
        bool cpu = oc_case_on_cpu(steps);
        n_cases_total++;
        n_steps_total += (long)json_array_size(steps);
        failures += oc_run_path(name, steps, cpu ? TL_CPU : TL_CUDA, false);
        if (cpu && json_is_true(json_object_get(cs, "values")))
            failures += oc_run_path(name, steps, TL_CPU, true);
        else if (oc_mixed(cs) && tl_device_available(TL_CUDA))
            failures += oc_run_path(name, steps, TL_CUDA, true);
    }
    tl_set_error_handler(NULL, NULL);
    json_decref(root);
    n_failures_total += failures;
    if (failures)
        fail_msg("%s: %ld failing steps", path, failures);
}

static void test_totals(void **state)
{
    (void)state;
    printf("oracle: %ld cases, %ld steps, %ld failures\n", n_cases_total, n_steps_total, n_failures_total);
    printf("oracle: %ld case paths end where torch's CPU backend lacks a kernel (not compared)\n",
           n_gaps_total);
    if (n_cases_total < TL_ORACLE_MIN_CASES)
        fail_msg("only %ld oracle cases read from %s (at least %d expected)", n_cases_total,
                 oc_fixture_dir(), TL_ORACLE_MIN_CASES);
    assert_int_equal(n_failures_total, 0);
}

int main(void)
{
    static char *paths[ORACLE_MAX_FILES];
    static char *names[ORACLE_MAX_FILES];
    struct CMUnitTest tests[ORACLE_MAX_FILES + 1];
    const char *dir = oc_fixture_dir();
    int n = 0;
    setenv("TL_CUDA_EMULATION", "auto", 0); /* the mixed cases' runtime path */
    DIR *dp = opendir(dir);
    if (dp) {
        struct dirent *de;
        while ((de = readdir(dp)) != NULL) {
            size_t len = strlen(de->d_name);
            if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
                continue;
            if (n == ORACLE_MAX_FILES) {
                fprintf(stderr, "oracle: more than %d fixture files in %s\n", ORACLE_MAX_FILES, dir);
                closedir(dp);
                return 1;
            }
            names[n++] = strdup(de->d_name);
        }
        closedir(dp);
    }
    qsort(names, (size_t)n, sizeof *names, oc_cmp_str);
    memset(tests, 0, sizeof tests);
    for (int k = 0; k < n; k++) {
        size_t len = strlen(dir) + strlen(names[k]) + 2;
        paths[k] = malloc(len);
        snprintf(paths[k], len, "%s/%s", dir, names[k]);
        tests[k].name = names[k];
        tests[k].test_func = test_fixture_file;
        tests[k].initial_state = paths[k];
    }
    tests[n].name = "totals";
    tests[n].test_func = test_totals;
    int rc = _cmocka_run_group_tests("oracle", tests, (size_t)n + 1, NULL, NULL);
    for (int k = 0; k < n; k++) {
        free(paths[k]);
        free(names[k]);
    }
    return rc;
}
