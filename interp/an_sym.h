/*
 * an_sym.h: layouts over symbolic integers, as the analyzer keeps them, and
 * the one entry into the rules' symbolic build (an_sym.c).
 *
 * The analyzer keeps known layouts as mt_layout (rules/meta.h) and runs the
 * concrete rules on them, exactly as the runtime does.  A call whose sizes
 * depend on run-time symbols runs the same rules compiled over sx_int
 * (MT_SYMBOLIC): its operands and result are an_slayouts.
 */
#ifndef TL_AN_SYM_H
#define TL_AN_SYM_H

#include <tensorlint/tensor.h>

#include "sym.h"

typedef struct an_slayout {
    int ndim;
    sx_int shape[TL_MAX_DIMS];
    sx_int strides[TL_MAX_DIMS];
    sx_int offset;
    tl_dtype dtype;
    tl_device device;
    sx_int storage_nbytes;
    bool contiguous;        /* is_contiguous(), under the recorded assumptions */
} an_slayout;

typedef struct an_sints {
    int n;
    sx_int v[TL_MAX_DIMS];
} an_sints;

/* One call over symbolic operands: the fields of mt_call, sizes as sx_int. */
typedef struct an_scall {
    int op;                 /* mt_op */
    int n_in;
    an_slayout in[TL_MAX_LIST];
    sx_int i[4];
    an_sints s[2];
    double f;
    bool b;
    tl_dtype dtype;
    tl_device device;
    tl_format format;
    bool has_storage_ids;
    int64_t storage[TL_MAX_LIST];
    bool external[TL_MAX_LIST];
} an_scall;

typedef struct an_sresult {
    tl_status status;
    int kind;               /* mt_kind */
    an_slayout out;
    int view_of;
    sx_int alloc_nbytes, read_bytes, written_bytes, grow_nbytes;
    sx_int temp_nbytes;     /* allocated and freed within the call (mt_result's) */
    bool external, resized;
    bool not_symbolic;      /* the rule needs a value that is a symbol here */
    char msg[240];
} an_sresult;

/* Run the symbolic build of c->op's rule (assumptions it makes are recorded
 * at line).  Returns r->status. */
tl_status an_sym_run(const an_scall *c, an_sresult *r, int line);

#endif /* TL_AN_SYM_H */
