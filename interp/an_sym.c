/*
 * an_sym.c: the bridge into the rules' symbolic build.  This file alone is
 * compiled against the symbolic rules (MT_SYMBOLIC: mt_layout here is the
 * layout over sx_int, mt_run is ms_run); the rest of the analyzer sees only
 * an_sym.h.
 */
#define MT_SYMBOLIC
#include "meta.h"

#include "an_sym.h"

#include <string.h>

static void to_layout(const an_slayout *s, mt_layout *l)
{
    memset(l, 0, sizeof *l);
    l->ndim = s->ndim;
    for (int d = 0; d < s->ndim && d < TL_MAX_DIMS; d++) {
        l->shape[d] = s->shape[d];
        l->strides[d] = s->strides[d];
    }
    l->offset = s->offset;
    l->dtype = s->dtype;
    l->device = s->device;
    l->storage_nbytes = s->storage_nbytes;
}

static void from_layout(const mt_layout *l, an_slayout *s)
{
    memset(s, 0, sizeof *s);
    s->ndim = l->ndim;
    for (int d = 0; d < l->ndim && d < TL_MAX_DIMS; d++) {
        s->shape[d] = l->shape[d];
        s->strides[d] = l->strides[d];
    }
    s->offset = l->offset;
    s->dtype = l->dtype;
    s->device = l->device;
    s->storage_nbytes = l->storage_nbytes;
    s->contiguous = mt_is_contiguous(l);
}

tl_status an_sym_run(const an_scall *c, an_sresult *r, int line)
{
    mt_layout in[TL_MAX_LIST]; /* (one per call: check -j runs calls on several threads) */
    mt_call mc;
    mt_result mr;
    memset(&mc, 0, sizeof mc);
    memset(r, 0, sizeof *r);
    sx_set_site(line);
    mc.op = (mt_op)c->op;
    mc.n_in = c->n_in;
    for (int k = 0; k < c->n_in && k < TL_MAX_LIST; k++) {
        to_layout(&c->in[k], &in[k]);
        mc.in[k] = &in[k];
        mc.storage[k] = c->storage[k];
        mc.external[k] = c->external[k];
    }
    for (int k = 0; k < 4; k++)
        mc.i[k] = c->i[k];
    for (int k = 0; k < 2; k++) {
        mc.s[k].n = c->s[k].n;
        for (int j = 0; j < c->s[k].n && j < TL_MAX_DIMS; j++)
            mc.s[k].v[j] = c->s[k].v[j];
    }
    mc.f = c->f;
    mc.b = c->b;
    mc.dtype = c->dtype;
    mc.device = c->device;
    mc.format = c->format;
    mc.has_storage_ids = c->has_storage_ids;
    r->status = mt_run(&mc, &mr);
    r->kind = mr.kind;
    from_layout(&mr.out, &r->out);
    r->view_of = mr.view_of;
    r->alloc_nbytes = mr.alloc_nbytes;
    r->read_bytes = mr.read_bytes;
    r->written_bytes = mr.written_bytes;
    r->temp_nbytes = mr.temp_nbytes;
    r->grow_nbytes = mr.grow_nbytes;
    r->external = mr.external;
    r->resized = mr.resized;
    r->not_symbolic = mr.not_symbolic;
    memcpy(r->msg, mr.msg, sizeof r->msg < sizeof mr.msg ? sizeof r->msg : sizeof mr.msg);
    r->msg[sizeof r->msg - 1] = 0;
    return r->status;
}
