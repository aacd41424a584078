/*
 * fuzz_rules.c: the shared layout rules (rules/, mt_run) on random op
 * sequences, checked against their invariants.
 *
 * The input is a little program: it creates a few tensors from shapes the
 * bytes choose, then runs ops on them, each byte picking the op, its
 * operands and its arguments from a table of interesting values (0, 1, -1,
 * sizes near 2^31, 2^62 and 2^63, INT64_MIN ...).  After every call:
 *   - an error has a status and a message, and moves no bytes;
 *   - a result is a valid layout (mt_layout_valid: no size, stride, offset
 *     or byte count beyond 64 bits);
 *   - a view stays inside the storage it views, and names a real operand;
 *   - a new storage is numel x element size bytes and starts at offset 0;
 *   - an in-place result is its first operand's layout.
 * A broken invariant aborts (a crash for libFuzzer); UBSan and ASan watch
 * the arithmetic and the memory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta_impl.h"

enum { POOL = 8, MAX_STEPS = 64 };

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t next(reader *r)
{
    if (r->n == 0)
        return 0;
    r->n--;
    return *r->p++;
}

static int64_t value(reader *r)
{
    static const int64_t table[] = {
        0, 1, 2, 3, 4, -1, -2, 5, 7, 8, 16, 64, 1000, INT64_C(1) << 31, (INT64_C(1) << 31) - 1,
        INT64_C(1) << 32, INT64_C(1) << 40, INT64_C(1) << 61, INT64_C(1) << 62, INT64_MAX,
        INT64_MIN, INT64_MIN + 1, INT64_MAX - 1, -(INT64_C(1) << 62), 6, 9, 12, 24,
    };
    uint8_t b = next(r);
    if (b < 200)
        return table[b % (sizeof table / sizeof table[0])];
    uint64_t v = (uint64_t)next(r) << 56 | (uint64_t)next(r) << 40 | (uint64_t)next(r) << 8 | next(r);
    return (int64_t)(v - (b & 1 ? UINT64_C(1) << 62 : 0)); /* wraps, defined, in uint64_t */
}

static tl_ints ints(reader *r, bool small)
{
    tl_ints s = {next(r) % (TL_MAX_DIMS + 1), {0}};
    for (int k = 0; k < s.n; k++)
        s.v[k] = small && next(r) < 192 ? next(r) % 5 : value(r);
    return s;
}

static void check(bool ok, const char *what, const mt_call *c, const mt_result *res)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz_rules: invariant broken: %s (op %s, status %d, msg '%s')\n", what,
            mt_ops[c->op].name, (int)res->status, res->msg);
    abort();
}

/* The fields of a layout that mean something (not the unused tail of shape). */
static bool same_layout(const mt_layout *a, const mt_layout *b)
{
    if (a->ndim != b->ndim || a->offset != b->offset || a->dtype != b->dtype ||
        a->device != b->device || a->storage_nbytes != b->storage_nbytes)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return false;
    return true;
}

/* An out= form writes into its out operand and may resize it (PyTorch's
 * resize_output: contiguous at the same offset, the storage grown). */
static bool is_out_form(mt_op op)
{
    const char *name = mt_ops[op].name;
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, "_out") == 0;
}

static void check_result(const mt_call *c, const mt_result *res)
{
    int64_t reach, n;
    if (res->status != TL_OK) {
        check(res->msg[0] != '\0', "an error without a message", c, res);
        check(res->read_bytes == 0 && res->written_bytes == 0 && res->alloc_nbytes == 0,
              "a failed call moves bytes", c, res);
        return;
    }
    check(res->read_bytes >= 0 && res->written_bytes >= 0 &&
          !__builtin_add_overflow(res->read_bytes, res->written_bytes, &n), "byte counts", c, res);
    if (res->kind == MT_KIND_NONE)
        return;
    check(mt_layout_valid(&res->out), "an invalid result layout", c, res);
    mt_layout_reach(&res->out, &reach);
    if (res->kind == MT_KIND_VIEW) {
        check(res->view_of >= 0 && res->view_of < c->n_in, "view_of out of range", c, res);
        check(reach <= c->in[res->view_of]->storage_nbytes, "a view past its storage", c, res);
        check(res->out.storage_nbytes == c->in[res->view_of]->storage_nbytes,
              "a view with other storage bytes", c, res);
    } else if (res->kind == MT_KIND_NEW && res->external) { /* from_blob: the caller's memory */
        check(res->alloc_nbytes == 0 && reach <= res->out.storage_nbytes,
              "an external storage that allocates, or is read past its end", c, res);
    } else if (res->kind == MT_KIND_NEW) {
        check(res->out.offset == 0 && res->alloc_nbytes == mt_nbytes(&res->out) &&
              reach <= res->alloc_nbytes && res->out.storage_nbytes == res->alloc_nbytes,
              "a new storage of the wrong size", c, res);
    } else if (res->kind == MT_KIND_INPLACE && !is_out_form(c->op)) {
        check(same_layout(&res->out, c->in[0]), "in place changed the layout", c, res);
    } else if (res->kind == MT_KIND_INPLACE) { /* out=: resized at its offset, or kept */
        check(res->out.offset == c->in[0]->offset &&
                  res->out.storage_nbytes >= c->in[0]->storage_nbytes,
              "an out= result moved or shrank its storage", c, res);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    mt_layout pool[POOL];
    int n_pool = 0;
    while (n_pool < 2) { /* two dense tensors to start from */
        mt_call c;
        mt_result res;
        memset(&c, 0, sizeof c);
        c.op = MT_OP_empty;
        c.s[0] = ints(&r, true);
        c.dtype = (tl_dtype)(next(&r) % (TL_F64 + 1));
        if (mt_run(&c, &res) == TL_OK)
            pool[n_pool] = res.out;
        else
            mt_layout_dense(&pool[n_pool], 1, (int64_t[]){3}, TL_F32, TL_CPU);
        n_pool++;
    }
    for (int step = 0; step < MAX_STEPS && r.n > 0; step++) {
        mt_call c;
        mt_result res;
        memset(&c, 0, sizeof c);
        c.op = (mt_op)(next(&r) % MT_N_OPS);
        const char *sig = mt_ops[c.op].signature;
        int ni = 0, ns = 0;
        for (; *sig; sig++) {
            switch (*sig) {
            case 't': c.in[c.n_in++] = &pool[next(&r) % n_pool]; break;
            case 'L': {
                int n = 1 + next(&r) % 4;
                for (int k = 0; k < n && c.n_in < TL_MAX_LIST; k++)
                    c.in[c.n_in++] = &pool[next(&r) % n_pool];
                break;
            }
            case 'S': c.s[ns++] = ints(&r, next(&r) < 128); break;
            case 'i': c.i[ni++] = value(&r); break;
            case 'b': c.b = next(&r) & 1; break;
            case 'f': c.f = (double)value(&r) / (next(&r) + 1); break;
            case 'y': c.dtype = (tl_dtype)(next(&r) % (TL_F64 + 2)); break;
            case 'v': c.device = (tl_device)(next(&r) % 3); break;
            case 'm': c.format = (tl_format)(next(&r) % 3); break;
            }
        }
        c.has_storage_ids = next(&r) & 1;
        for (int k = 0; k < c.n_in; k++)
            c.storage[k] = c.in[k] - pool;
        mt_run(&c, &res);
        check_result(&c, &res);
        if (res.status == TL_OK && res.kind != MT_KIND_NONE && res.kind != MT_KIND_INPLACE) {
            int slot = n_pool < POOL ? n_pool++ : next(&r) % POOL;
            pool[slot] = res.out;
        }
    }
    return 0;
}
