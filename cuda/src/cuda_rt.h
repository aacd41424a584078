/*
 * cuda_rt.h: the CUDA runtime's plain-C interface (prefix cu_).
 *
 * The runtime (rt_*.c) never calls CUDA itself.  It talks to a *backend*:
 * a table of device operations (count devices, allocate and free raw device
 * memory, copy bytes, synchronize) and a table of kernels with exactly the
 * signatures of kernels.h.  The built-in backend is CUDA's (cuda_device.cu)
 * when the build found nvcc, else "none" (no device, every TL_CUDA tensor is
 * a TL_ERR_DEVICE error).  TL_CUDA_EMULATION=1 replaces it by the emulated
 * device (cuda_emulation.c), host memory and host kernels with the CUDA
 * kernels' results, so that CUDA programs run without a GPU.  Unit tests
 * may install a fake backend whose "device" memory is host memory and whose
 * kernels are the CPU kernels behind checks, and which can be told to fail.
 *
 * Storages on the device come from the caching allocator: the policy
 * (alloc_policy.h) places each request in a block of a segment, and a
 * segment is one backend allocation (cudaMalloc).  A block's address is its
 * segment's base plus its offset.
 *
 * Errors: CUDA work reports failure through one pending-error record
 * (cu_fail keeps the first failure; cu_error_take hands it to the runtime,
 * which raises TL_ERR_DEVICE or TL_ERR_OUT_OF_MEMORY with the CUDA message).
 * The kernels keep kernels.h's void signatures for that reason.  Messages
 * are static strings (cudaGetErrorString, cublasGetStatusString): nothing
 * is formatted here.  The runtime is single-threaded, and so is this module.
 */
#ifndef TL_CUDA_RT_H
#define TL_CUDA_RT_H

#include "alloc_policy.h"
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ---- */

typedef struct cu_error {
    tl_status status;   /* TL_ERR_DEVICE or TL_ERR_OUT_OF_MEMORY */
    const char *call;   /* what failed: "cudaMalloc", "copy kernel launch" ... (static) */
    const char *detail; /* the CUDA / cuBLAS message (static) */
} cu_error;

/* Record a failure; the first one since the last cu_error_take is kept. */
void cu_fail(tl_status status, const char *call, const char *detail);
/* The pending failure, if any: copies it to *out, clears it, returns true. */
bool cu_error_take(cu_error *out);
/* Whether a failure is pending (kernels skip work after one). */
bool cu_error_pending(void);

/* ---- the kernel table: kernels.h, one table per device ---- */

typedef struct cu_kernels {
    void (*copy)(const rt_buf *dst, const rt_buf *src);
    void (*fill)(const rt_buf *dst, double v);
    void (*arange)(const rt_buf *dst);
    void (*randn)(const rt_buf *dst, rt_rng *rng);
    void (*randint)(const rt_buf *dst, int64_t low, int64_t high, rt_rng *rng);
    void (*binary)(rt_binop op, const rt_buf *out, const rt_buf *a, const rt_buf *b);
    void (*binary_scalar)(rt_binop op, const rt_buf *out, const rt_buf *a, double s);
    void (*unary)(rt_unop op, const rt_buf *out, const rt_buf *a);
    void (*reduce)(rt_redop op, const rt_buf *out, const rt_buf *a, int dim, bool keepdim);
    void (*softmax)(const rt_buf *out, const rt_buf *a, int dim);
    void (*matmul)(const rt_buf *out, const rt_buf *a, const rt_buf *b);
    void (*conv2d)(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride,
                   int64_t padding);
    void (*index_select)(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx);
    void (*gather)(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx);
    void (*index)(const rt_buf *out, const rt_buf *t, const rt_buf *idx);
    void (*cat)(const rt_buf *out, int n, const rt_buf *parts, int dim);
    void (*binary_inplace)(rt_binop op, const rt_buf *t, const rt_buf *other);
    void (*mul_scalar_inplace)(const rt_buf *t, double s);
    /* the ops for real models, as rt_model (kernels.h); NULL: the backend has none */
    void (*model)(const mt_call *c, const rt_buf *out, int n, const rt_buf *in);
} cu_kernels;

/* ---- backends ---- */

typedef enum cu_copy_kind {
    CU_HOST_TO_DEVICE, CU_DEVICE_TO_HOST, CU_DEVICE_TO_DEVICE
} cu_copy_kind;

typedef struct cu_backend {
    const char *name;
    /* Devices usable (0 when none); with 0, *why says why (static string). */
    int (*device_count)(const char **why);
    /* Raw device memory of nbytes > 0 into *ptr: TL_OK, TL_ERR_OUT_OF_MEMORY
     * (the device is full; nothing is left pending, the caller may free cached
     * segments and retry) or TL_ERR_DEVICE; *detail gets the message. */
    tl_status (*mem_alloc)(int64_t nbytes, void **ptr, const char **detail);
    void (*mem_free)(void *ptr);
    /* nbytes from src to dst, ordered after all earlier work; false on failure (recorded). */
    bool (*copy)(void *dst, const void *src, int64_t nbytes, cu_copy_kind kind);
    /* Wait for all device work; false when it failed (recorded). */
    bool (*synchronize)(void);
    /* Release library handles (cuBLAS); the device memory is already freed. */
    void (*shutdown)(void);
    const cu_kernels *kernels;
} cu_backend;

/* The backend this build carries: CUDA's, or "none". */
const cu_backend *cu_backend_builtin(void);
/* The emulated device (cuda_emulation.c): host memory, host kernels. */
extern const cu_backend cu_backend_emulation;
/* The backend TL_CUDA_EMULATION picks (read once): the built-in one, the
 * emulated device ("1", or "auto" when the built-in one finds no device), or
 * one without a device that says the value is wrong. */
const cu_backend *cu_backend_default(void);
/* Install b (NULL: the default one, TL_CUDA_EMULATION read again).  Only
 * while no device memory is held: for tests, before their first TL_CUDA
 * tensor or after cu_shutdown. */
void cu_backend_use(const cu_backend *b);
const cu_backend *cu_backend_current(void);
/* TL_CUDA work runs on the emulated device. */
bool cu_emulated(void);
/* The current backend's name once the program asked for a device, else NULL
 * (the allocation trace records it). */
const char *cu_backend_asked(void);
/* Bytes of segments the emulated device holds (its cudaMemGetInfo). */
int64_t cu_emulation_held(void);

/* ---- the device ---- */

/* A device is usable: the backend reports at least one (asked once). */
bool cu_available(void);
/* Why not, when cu_available() is false (a static string). */
const char *cu_unavailable_reason(void);
/* Wait for the device; false (and the failure recorded) when work failed. */
bool cu_synchronize(void);
/* Free every block, segment and scratch buffer, release the backend's
 * handles and forget the device answer.  The runtime calls it at exit after
 * releasing every storage; afterwards the module starts afresh. */
void cu_shutdown(void);

/* ---- storage blocks: the caching allocator ---- */

typedef struct cu_block {
    void *ptr;             /* segment base + offset; NULL for 0 bytes */
    ca_block_id block;     /* the policy's block id (0: none) */
    ca_segment_id segment;
    int64_t block_bytes;   /* bytes: the block size allocated_bytes counts */
    int64_t segment_bytes; /* bytes of its segment; on failure, the segment refused */
} cu_block;

/* A block for a storage of nbytes >= 0; false with the failure recorded. */
bool cu_block_alloc(int64_t nbytes, cu_block *out);
/* Return a block to its pool (its segment stays cached). */
void cu_block_free(ca_block_id block);
/* The policy's statistics over both pools (all zero before the first block). */
void cu_alloc_stats(ca_stats *out);
void cu_alloc_reset_peak(void);
/* Release every cached segment (emptyCache); returns how many. */
int64_t cu_empty_cache(void);
/* Segments the backend holds now (for tests: equals the policy's count). */
int64_t cu_segments_held(void);
/* Free every segment and the policy's tables (cu_shutdown's part). */
void cu_alloc_shutdown(void);

/* ---- scratch: temporary device memory outside the caching allocator ---- */

/* Staging buffers of transfers and packed operands of matmul; never counted
 * in the statistics.  NULL with the failure recorded. */
void *cu_scratch_new(int64_t nbytes);
/* Waits for the device (it may still read p), then frees p; NULL is ignored. */
void cu_scratch_free(void *p);
/* Scratch buffers alive (for tests: 0 between API calls). */
int64_t cu_scratch_live(void);

/* ---- moving data between the host and the device (cuda_stage.c) ---- */

/* dst = src with broadcasting and casting (rt_copy's meaning) where the two
 * live on different devices (or both on the device).  Staging buffers are
 * host memory and scratch.  False with the failure recorded. */
bool cu_transfer(const rt_buf *dst, tl_device dst_dev, const rt_buf *src, tl_device src_dev);
/* One element of a device buffer at a multi-index into the 8-byte cell. */
bool cu_element_read(const rt_buf *b, const int64_t *index, void *cell);
bool cu_element_write(const rt_buf *b, const int64_t *index, const void *cell);
/* A host copy of the bytes a device layout spans: *host_l is l rebased on it.
 * Caller frees the returned memory; NULL with the failure recorded. */
void *cu_host_mirror(const rt_buf *b, mt_layout *host_l);

/* ---- iteration plans (cuda_plan.c): pure functions, tested on the host ---- */

enum { CU_MAX_OPS = MT_PLAN_MAX_OPS };

/* The CPU kernels' iteration plan (meta.h's mt_plan, made by mt_plan_init). */
typedef mt_plan cu_plan;
/* Operand k is walked with stride 1 over the whole plan. */
bool cu_plan_dense(const cu_plan *p, int k);
/* Every element index and offset of the plan fits 32-bit arithmetic. */
bool cu_plan_fits_i32(const cu_plan *p);

typedef enum cu_copy_path {
    CU_COPY_MEMCPY,    /* same dtype, both dense: one device memcpy */
    CU_COPY_CONTIG,    /* both dense, dtypes differ: a vectorized cast */
    CU_COPY_TRANSPOSE, /* dst dense inner dim, src stride 1 on another dim: shared-memory tiles */
    CU_COPY_STRIDED,   /* anything else that broadcasts */
    CU_COPY_RESHAPE    /* same numel, shapes that do not broadcast: row-major order on both */
} cu_copy_path;

typedef struct cu_copy_plan {
    cu_copy_path path;
    cu_plan p;       /* operand 0 dst, 1 src (not filled for RESHAPE) */
    int tile_dim;    /* TRANSPOSE: the plan dim where src has stride 1 (dst's is nd - 1) */
} cu_copy_plan;

/* How the device copy of src into dst runs.  False when dst is empty. */
bool cu_copy_plan_make(cu_copy_plan *cp, const mt_layout *dst, const mt_layout *src);

/* Blocks for n work items of `per_block` each, at most max_blocks (>= 1). */
int64_t cu_blocks_for(int64_t n, int64_t per_block, int64_t max_blocks);

/* A batch of 2-D products for matmul (column-major cuBLAS on row-major data). */
typedef struct cu_mm_operand {
    int64_t rows, cols;   /* elements */
    int64_t rs, cs;       /* strides of the 2-D slice, elements */
    int64_t offset;       /* elements */
    bool blas_ok;         /* readable in place by cuBLAS (dtype and strides allow it) */
    bool trans;           /* stored column-major (rs == 1) */
    int64_t ld;           /* leading dimension when blas_ok */
} cu_mm_operand;

typedef struct cu_mm_plan {
    cu_mm_operand c, a, b;
    int nbd;                              /* batch dims after merging */
    int64_t bshape[TL_MAX_DIMS];
    int64_t bst[CU_MAX_OPS][TL_MAX_DIMS]; /* batch strides of c, a, b; 0: broadcast */
    int64_t n_batch;                      /* product of bshape */
    int64_t m, n, k;
} cu_mm_plan;

/* torch.matmul's batching for out = a @ b (kernels.h's rt_matmul rules).
 * False when the output is empty.  blas_dtype: whether the operands' dtype
 * goes through cuBLAS (else an integer kernel reads them as they are). */
bool cu_mm_plan_make(cu_mm_plan *mp, const mt_layout *out, const mt_layout *a,
                     const mt_layout *b, bool blas_dtype);

/* l with dim moved last (the reduced or softmax dim); a 0-dim l becomes [1]. */
mt_layout cu_dim_last(const mt_layout *l, int dim);

#ifdef __cplusplus
}
#endif

#endif /* TL_CUDA_RT_H */
