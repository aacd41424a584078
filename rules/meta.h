/*
 * meta.h: the layout algebra.  One pure function per op (mt_<op>) maps the
 * metadata of its inputs to the metadata of its output: shape, strides and
 * offset in elements, dtype, device, whether the output is a view of an
 * input's storage or a new storage of N bytes, and the bytes the call reads
 * and writes.  PyTorch's rules live here and only here; the runtime runs
 * these functions and then a kernel, the analyzer runs them with no data.
 *
 * Invariants: a meta function never allocates and never touches data; on
 * success r->status is TL_OK and r->msg says why the call viewed or copied;
 * on failure r->status names the error and r->msg carries PyTorch's meaning.
 * Sizes, strides, offsets and byte counts never overflow silently: every
 * operand and every result of mt_run is a valid layout (meta_limits.c), and
 * a result that would not be one is PyTorch's overflow error
 * (TL_ERR_OUT_OF_MEMORY).
 */
#if defined(MT_SYMBOLIC) ? !defined(TL_META_SYM_H) : !defined(TL_META_H)
#ifdef MT_SYMBOLIC
#define TL_META_SYM_H
#include "meta_sym_names.h" /* the symbolic build's names: ms_layout, ms_run ... */
#else
#define TL_META_H
#endif

#include <tensorlint/tensor.h>

#include "mt_int.h"

/* A list of integers (a shape, dims, indices): tl_ints of mt_int. */
#ifdef MT_SYMBOLIC
typedef struct mt_ints {
    int n;
    mt_int v[TL_MAX_DIMS];
} mt_ints;
#else
typedef tl_ints mt_ints;
#endif

/* ---- the op table ---- */

typedef enum mt_family {
    MT_CREATE, MT_VIEW, MT_VIEW_OR_COPY, MT_COPY, MT_COMPUTE, MT_INPLACE, MT_ACCESS, MT_RELEASE
} mt_family;

typedef enum mt_op {
#define TL_OP(name, family, sig) MT_OP_##name,
#include "ops.def"
#undef TL_OP
    MT_N_OPS
} mt_op;

typedef struct mt_opinfo {
    const char *name;      /* API name without "tl_", e.g. "add_" */
    mt_family family;
    const char *signature; /* argument kinds, see ops.def */
} mt_opinfo;

extern const mt_opinfo mt_ops[MT_N_OPS];

/* The op named name ("add", "tl_add" or "tl_add_at"), or MT_N_OPS. */
mt_op mt_op_lookup(const char *name);

/* ---- dtypes ---- */

int mt_dtype_size(tl_dtype d);            /* bytes */
const char *mt_dtype_name(tl_dtype d);    /* "f16" */
bool mt_dtype_parse(const char *name, tl_dtype *out); /* "f16" or "TL_F16" */
bool mt_is_floating(tl_dtype d);
bool mt_is_integral(tl_dtype d, bool include_bool);
/* torch.promote_types(a, b) */
tl_dtype mt_promote_types(tl_dtype a, tl_dtype b);
const char *mt_device_name(tl_device d); /* "cpu", "cuda" */

/* ---- layouts ---- */

typedef struct mt_layout {
    int ndim;
    mt_int shape[TL_MAX_DIMS];    /* elements */
    mt_int strides[TL_MAX_DIMS];  /* elements */
    mt_int offset;                /* elements */
    tl_dtype dtype;
    tl_device device;
    mt_int storage_nbytes;        /* bytes of the storage the layout views */
} mt_layout;

/* Exact for a valid layout (see below); INT64_MAX, never undefined, otherwise. */
mt_int mt_numel(const mt_layout *l);
mt_int mt_nbytes(const mt_layout *l); /* numel x element size */
bool mt_is_contiguous(const mt_layout *l);
bool mt_is_channels_last(const mt_layout *l);           /* is_contiguous(channels_last) */
bool mt_is_contiguous_format(const mt_layout *l, tl_format f);
bool mt_is_non_overlapping_and_dense(const mt_layout *l);
bool mt_has_internal_overlap(const mt_layout *l);       /* a dim of size > 1 and stride 0 */
/* Row-major strides for shape (size-0 and size-1 dims count as 1). */
void mt_contiguous_strides(int ndim, const mt_int *shape, mt_int *strides);
/* Channels-last strides for a 4-D shape (raw sizes: a size-0 dim is not clamped to 1). */
void mt_channels_last_strides(const mt_int *shape, mt_int *strides);
/* suggest_memory_format(): TL_CHANNELS_LAST when the strides look channels-last. */
tl_format mt_suggest_format(const mt_layout *l);
/* Wrap a possibly negative dim into [0, ndim); false when out of range. */
bool mt_wrap_dim(int64_t dim, int ndim, int64_t *out);
/* Element offset, in elements from the storage start, of a multi-index. */
mt_int mt_element_offset(const mt_layout *l, const int64_t *index);

/* ---- 64-bit limits (meta_limits.c), as PyTorch checks them ---- */

/* safe_compute_numel: false (numel = INT64_MAX) when the product overflows. */
bool mt_shape_numel(int ndim, const mt_int *shape, mt_int *numel);
/* computeStorageNbytesContiguous: numel x element size; false when it overflows. */
bool mt_shape_nbytes(int ndim, const mt_int *shape, tl_dtype dtype, mt_int *nbytes);
/* computeStorageNbytes: bytes from the storage start through the last element reached. */
bool mt_layout_reach(const mt_layout *l, mt_int *nbytes);
/* Dims in range, sizes >= 0, numel, bytes and reach within int64 (see meta_limits.c). */
bool mt_layout_valid(const mt_layout *l);

/* ---- calls and results ---- */

/* The arguments of one call, packed by the op's signature: tensors in in[],
 * integers in i[], tl_ints in s[], in the order they appear. */
typedef struct mt_call {
    mt_op op;
    int n_in;                         /* tensor operands (the list entries for cat) */
    const mt_layout *in[TL_MAX_LIST];
    mt_int i[4];
    mt_ints s[2];
    double f;
    bool b;
    tl_dtype dtype;
    tl_device device;
    tl_format format;
    bool has_storage_ids;             /* storage[] is filled: in-place overlap checks run */
    int64_t storage[TL_MAX_LIST];     /* identity of each operand's storage */
    bool external[TL_MAX_LIST];       /* the operand's storage is the caller's (from_blob): it
                                       * cannot grow */
    const void *ptr;                  /* p: host memory (from_data, from_blob, copy_to_host) */
} mt_call;

typedef enum mt_kind {
    MT_KIND_NEW,     /* a new storage of alloc_nbytes */
    MT_KIND_VIEW,    /* shares the storage of in[view_of] */
    MT_KIND_INPLACE, /* wrote into in[0]; out is in[0] */
    MT_KIND_NONE     /* no tensor result (tl_get, tl_release) */
} mt_kind;

#define MT_MSG_MAX 240 /* longest message; longer ones are cut, never overrun */

typedef struct mt_result {
    tl_status status;
    mt_kind kind;
    mt_layout out;          /* the result's layout (INPLACE: the written tensor) */
    int view_of;            /* VIEW: index of the operand whose storage is shared */
    mt_int alloc_nbytes;    /* NEW: bytes of the new storage */
    mt_int read_bytes;      /* bytes the call reads */
    mt_int written_bytes;   /* bytes the call writes */
    bool external;          /* NEW: the storage is the caller's memory (from_blob): 0 bytes
                             * allocated, never freed by the runtime */
    bool resized;           /* INPLACE (out=): the written tensor took a new shape (resize_);
                             * out is its new layout */
    mt_int grow_nbytes;     /* INPLACE (out=): bytes its storage grew by (0: none) */
    mt_int temp_nbytes;     /* bytes PyTorch allocates during the call and frees before it
                             * returns (cross_entropy's log_softmax, an input cast to the
                             * common dtype): on top of what is live, counted in the peak
                             * once, never in what the call leaves live */
    bool not_symbolic;      /* symbolic build: the rule needs a known value where a symbol
                             * is (status TL_ERR_BAD_ARGUMENT, msg says which) */
    char msg[MT_MSG_MAX];   /* why it viewed or copied; on error PyTorch's message */
} mt_result;

/* Run the meta function of c->op.  Every operand must be a valid layout
 * (TL_ERR_BAD_ARGUMENT otherwise); the result's layout is valid. */
tl_status mt_run(const mt_call *c, mt_result *r);

#define TL_OP(name, family, sig) tl_status mt_##name(const mt_call *c, mt_result *r);
#include "ops.def"
#undef TL_OP

/* ---- building blocks shared by the meta functions and the tests ---- */

/* computeStride: strides viewing (shape, strides) as newshape, or false. */
bool mt_compute_stride(int ndim, const mt_int *shape, const mt_int *strides, int new_ndim,
                       const mt_int *newshape, mt_int *newstrides);
/* infer_size: resolve one -1 in shape for numel elements; the error status otherwise. */
tl_status mt_infer_size(const mt_ints *shape, mt_int numel, mt_ints *out, char *msg);
/* Broadcast shapes a and b into out; false on mismatch. */
bool mt_broadcast_shapes(int na, const mt_int *a, int nb, const mt_int *b, int *n_out,
                         mt_int *out);
/* TensorIterator's output strides for operands already broadcast to shape. */
void mt_iter_out_strides(int ndim, const mt_int *shape, int n_ops, const mt_layout *const *ops,
                         mt_int *out_strides);
/* empty_like(preserve_format) strides: kept when dense, else infer_dense_strides. */
void mt_preserve_strides(const mt_layout *l, mt_int *out_strides);
/* An elementwise kernel's iteration space (meta_plan.c): operands broadcast
 * to operand 0's shape, size-1 dims dropped, dims sorted by operand 0's
 * strides (outermost first) and merged where every operand allows.  A 0-dim
 * or all-size-1 shape becomes one dim of size 1. */
#ifndef MT_SYMBOLIC /* the kernels' iteration space: concrete only */
enum { MT_PLAN_MAX_OPS = 3 };
typedef struct mt_plan {
    int n_ops;                                /* operand 0 is written */
    int nd;                                   /* >= 1 */
    int64_t shape[TL_MAX_DIMS];               /* elements, outermost first */
    int64_t st[MT_PLAN_MAX_OPS][TL_MAX_DIMS]; /* elements; 0 on broadcast dims */
    int64_t offset[MT_PLAN_MAX_OPS];          /* elements */
    int64_t numel;
} mt_plan;
/* False when operand 0 has no elements.  Every operand must broadcast to it. */
bool mt_plan_init(mt_plan *p, int n_ops, const mt_layout *const *ls);
#endif

/* TensorIterator's device rule (compute_types): the common device is the
 * first operand's that is not the CPU, else the CPU, and every operand must
 * be on it, except that one 0-dim CPU input may join a CUDA op (a "CPU
 * scalar").  ops lists the n_out outputs first (an in-place op's self),
 * then the inputs; *common gets the device. */
tl_status mt_check_iter_devices(mt_result *r, int n, const mt_layout *const *ops, int n_out,
                                tl_device *common);
/* torch.result_type over tensor operands (0-dim ones take part only across categories). */
tl_dtype mt_result_type(int n, const mt_layout *const *ops);

#endif /* TL_META_H / TL_META_SYM_H */
