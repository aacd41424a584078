/*
 * tensorlint/tensor.h: the tensor API that user programs include.
 *
 * One contract, three readers: user programs written in C, the static
 * analyzer that reads them (tensorlint report/check), and the CPU/CUDA
 * runtime that runs them.  Every op follows the PyTorch function named in
 * its comment: shape, strides (in elements), storage offset, dtype and
 * whether the result shares storage with an input are exactly PyTorch's.
 *
 * Ownership: every function returning tl_tensor * returns a NEW handle the
 * caller owns and releases with tl_release(), even when the result aliases
 * an input.  A storage is freed when the last handle into it is released.
 * In-place functions return void and create no handle.
 *
 * Call sites: each API function is also a macro that passes __FILE__ and
 * __LINE__ to its tl_*_at twin, so that errors and the allocation trace
 * name the user's line.  The plain function exists too: (tl_add)(a, b).
 */
#ifndef TENSORLINT_TENSOR_H
#define TENSORLINT_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TL_MAX_DIMS 8  /* most dimensions a tensor may have */
#define TL_MAX_LIST 16 /* most tensors a tl_list may hold */
#define TL_END INT64_MAX /* "to the end" for tl_slice, like an omitted Python bound */

/* Element types; the order is the ABI.  Sizes 1,1,1,2,4,8,2,2,4,8 bytes. */
typedef enum tl_dtype {
    TL_BOOL, TL_U8, TL_I8, TL_I16, TL_I32, TL_I64, TL_F16, TL_BF16, TL_F32, TL_F64
} tl_dtype;

typedef enum tl_device { TL_CPU, TL_CUDA } tl_device;

typedef enum tl_format { TL_CONTIGUOUS, TL_CHANNELS_LAST } tl_format;

/* Opaque handle: a view (shape, strides, offset, dtype, device) over a refcounted storage. */
typedef struct tl_tensor tl_tensor;

/* A shape, a list of dims or an index: n integers (0 <= n <= TL_MAX_DIMS). */
typedef struct tl_ints {
    int n;
    int64_t v[TL_MAX_DIMS];
} tl_ints;

/* A list of tensors for tl_cat (borrowed handles; the list owns nothing). */
typedef struct tl_list {
    int n;
    tl_tensor *v[TL_MAX_LIST];
} tl_list;

/* Argument counting for the builders below (1 to 16 arguments). */
#define TL__NARG(...) TL__NARG_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TL__NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N

/* TL_SHAPE(16, 1024, 4096): a tl_ints of 1 to 8 integer expressions.
 * TL_SHAPE() does not compile ("expected expression"): a 0-dim shape is
 * TL_SHAPE0.  (The "0 ? 0 :" is what rejects it; it leaves a value as it is.) */
#define TL_SHAPE(...) ((tl_ints){TL__NARG(__VA_ARGS__), {0 ? 0 : __VA_ARGS__}})
/* TL_DIMS(0, 2, 1): the same builder, for dimension lists and indices. */
#define TL_DIMS(...) TL_SHAPE(__VA_ARGS__)
/* The empty tl_ints: the shape of a 0-dim tensor. */
#define TL_SHAPE0 ((tl_ints){0, {0}})
/* TL_LIST(a, b, c): a tl_list of 1 to 16 tensors.  TL_LIST() does not compile
 * ("expected expression"), as torch.cat([]) is an error ("0 ? 0 :" rejects it). */
#define TL_LIST(...) ((tl_list){TL__NARG(__VA_ARGS__), {0 ? 0 : __VA_ARGS__}})

/* ---- errors ------------------------------------------------------------ */

typedef enum tl_status {
    TL_OK = 0,
    TL_ERR_INVALID_VIEW,      /* view cannot be expressed over the input's strides */
    TL_ERR_BAD_DIM,           /* dim or index out of range */
    TL_ERR_SHAPE_MISMATCH,    /* broadcast, matmul, cat, conv or numel mismatch */
    TL_ERR_DTYPE_MISMATCH,    /* dtypes that must agree do not, or an unsupported dtype */
    TL_ERR_OVERLAPPING_WRITE, /* in-place write into a tensor with a stride-0 dim */
    TL_ERR_RELEASED,          /* use or release of a released handle */
    TL_ERR_BAD_ARGUMENT,      /* any other invalid argument (negative size, bad step ...) */
    TL_ERR_DEVICE,            /* device not available or devices differ */
    TL_ERR_OUT_OF_MEMORY,     /* allocation failed or byte count overflows */
    TL_N_STATUS
} tl_status;

/* What a failed call reports. */
typedef struct tl_error {
    tl_status status;
    const char *op;      /* API name, e.g. "tl_view" */
    const char *file;    /* user's file, or NULL when called without the macro */
    int line;            /* user's line, or 0 */
    const char *message; /* PyTorch's meaning, valid until the next error */
} tl_error;

typedef void (*tl_error_handler)(const tl_error *err, void *user);

/* Install a handler: failing calls then return NULL (void calls return, tl_get
 * returns NaN) after calling it.  NULL restores the default: print and exit(1). */
void tl_set_error_handler(tl_error_handler handler, void *user);
/* The last error (status TL_OK when none since tl_clear_error). */
const tl_error *tl_last_error(void);
/* Forget the last error. */
void tl_clear_error(void);
/* Stable name of a status, e.g. "invalid-view". */
const char *tl_status_name(tl_status status);

/* ---- creation: always a new contiguous storage of numel x element size bytes ---- */

/* torch.empty(shape, dtype, device); contents are zero-filled by this runtime. */
tl_tensor *tl_empty(tl_ints shape, tl_dtype dtype, tl_device device);
/* torch.zeros */
tl_tensor *tl_zeros(tl_ints shape, tl_dtype dtype, tl_device device);
/* torch.ones */
tl_tensor *tl_ones(tl_ints shape, tl_dtype dtype, tl_device device);
/* torch.randn (floating dtypes only); seeded by tl_manual_seed. */
tl_tensor *tl_randn(tl_ints shape, tl_dtype dtype, tl_device device);
/* torch.full(shape, value, dtype) */
tl_tensor *tl_full(tl_ints shape, double value, tl_dtype dtype, tl_device device);
/* torch.arange(n, dtype) */
tl_tensor *tl_arange(int64_t n, tl_dtype dtype, tl_device device);
/* torch.randint(low, high, shape) with dtype I64 */
tl_tensor *tl_randint(int64_t low, int64_t high, tl_ints shape, tl_device device);
/* torch.tensor(value, dtype): a 0-dim tensor */
tl_tensor *tl_scalar(double value, tl_dtype dtype, tl_device device);

/* ---- views: never allocate; the result shares the input's storage ---- */

/* t.view(shape), one -1 allowed; incompatible strides are an error */
tl_tensor *tl_view(tl_tensor *t, tl_ints shape);
/* t.transpose(d0, d1) */
tl_tensor *tl_transpose(tl_tensor *t, int64_t d0, int64_t d1);
/* t.t() (ndim <= 2) */
tl_tensor *tl_t(tl_tensor *t);
/* t.permute(dims) */
tl_tensor *tl_permute(tl_tensor *t, tl_ints dims);
/* t[..., start:end:step, ...] on dim, step > 0, bounds clamped as in Python */
tl_tensor *tl_slice(tl_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step);
/* t.narrow(dim, start, length) */
tl_tensor *tl_narrow(tl_tensor *t, int64_t dim, int64_t start, int64_t length);
/* t.select(dim, index) */
tl_tensor *tl_select(tl_tensor *t, int64_t dim, int64_t index);
/* t.unsqueeze(dim) */
tl_tensor *tl_unsqueeze(tl_tensor *t, int64_t dim);
/* t.squeeze(dim) */
tl_tensor *tl_squeeze(tl_tensor *t, int64_t dim);
/* t.expand(shape), -1 keeps a size; broadcast dims get stride 0 */
tl_tensor *tl_expand(tl_tensor *t, tl_ints shape);
/* t.as_strided(shape, strides, offset) */
tl_tensor *tl_as_strided(tl_tensor *t, tl_ints shape, tl_ints strides, int64_t offset);

/* ---- view when the stride algebra allows, copy otherwise ---- */

/* t.reshape(shape) */
tl_tensor *tl_reshape(tl_tensor *t, tl_ints shape);
/* t.flatten(start_dim, end_dim) */
tl_tensor *tl_flatten(tl_tensor *t, int64_t start_dim, int64_t end_dim);
/* t.contiguous() */
tl_tensor *tl_contiguous(tl_tensor *t);
/* t.to(dtype); same dtype: alias, no copy */
tl_tensor *tl_to(tl_tensor *t, tl_dtype dtype);
/* t.to(device); same device: alias, no copy */
tl_tensor *tl_to_device(tl_tensor *t, tl_device device);
/* t.contiguous(memory_format=format); channels-last needs a 4-D tensor */
tl_tensor *tl_to_format(tl_tensor *t, tl_format format);

/* ---- copies: always a new storage ---- */

/* t.clone() (preserve_format: dense non-overlapping inputs keep their strides) */
tl_tensor *tl_clone(tl_tensor *t);
/* t[idx] with an integer tensor idx (gather along dim 0) */
tl_tensor *tl_index(tl_tensor *t, tl_tensor *idx);
/* t.index_select(dim, idx) */
tl_tensor *tl_index_select(tl_tensor *t, int64_t dim, tl_tensor *idx);
/* torch.gather(t, dim, idx) */
tl_tensor *tl_gather(tl_tensor *t, int64_t dim, tl_tensor *idx);
/* torch.cat(list, dim) */
tl_tensor *tl_cat(tl_list list, int64_t dim);

/* ---- compute: a new storage; broadcasting and torch.result_type promotion ---- */

/* a + b */
tl_tensor *tl_add(tl_tensor *a, tl_tensor *b);
/* a - b */
tl_tensor *tl_sub(tl_tensor *a, tl_tensor *b);
/* a * b */
tl_tensor *tl_mul(tl_tensor *a, tl_tensor *b);
/* a / b (true division: integer operands give F32) */
tl_tensor *tl_div(tl_tensor *a, tl_tensor *b);
/* t + s with s a Python float: float tensors keep their dtype, others give F32 */
tl_tensor *tl_add_scalar(tl_tensor *t, double s);
/* t * s with s a Python float: float tensors keep their dtype, others give F32 */
tl_tensor *tl_mul_scalar(tl_tensor *t, double s);
/* -t */
tl_tensor *tl_neg(tl_tensor *t);
/* t.exp() */
tl_tensor *tl_exp(tl_tensor *t);
/* t.relu() */
tl_tensor *tl_relu(tl_tensor *t);
/* t.sum(dim, keepdim) */
tl_tensor *tl_sum(tl_tensor *t, int64_t dim, bool keepdim);
/* t.mean(dim, keepdim) */
tl_tensor *tl_mean(tl_tensor *t, int64_t dim, bool keepdim);
/* t.softmax(dim) */
tl_tensor *tl_softmax(tl_tensor *t, int64_t dim);
/* a @ b (torch.matmul's 1-D, 2-D and batched broadcasting rules) */
tl_tensor *tl_matmul(tl_tensor *a, tl_tensor *b);
/* torch.nn.functional.conv2d(x, w, None, stride, padding), same stride/padding on H and W */
tl_tensor *tl_conv2d(tl_tensor *x, tl_tensor *w, int64_t stride, int64_t padding);

/* ---- in-place: write through the handle, and so into every view of its storage ---- */

/* t += other */
void tl_add_(tl_tensor *t, tl_tensor *other);
/* t -= other */
void tl_sub_(tl_tensor *t, tl_tensor *other);
/* t *= s */
void tl_mul_scalar_(tl_tensor *t, double s);
/* t.fill_(v) */
void tl_fill_(tl_tensor *t, double v);
/* t.zero_() */
void tl_zero_(tl_tensor *t);
/* dst.copy_(src): broadcast src to dst, cast to dst's dtype */
void tl_copy_(tl_tensor *dst, tl_tensor *src);
/* t[index] = value (one element; no overlap check, as in PyTorch) */
void tl_set(tl_tensor *t, tl_ints index, double value);
/* t[index].item() */
double tl_get(tl_tensor *t, tl_ints index);

/* ---- ops for real models (same rules: PyTorch decides every answer) ---- */

/* t.sqrt(), t.rsqrt(), t.log(), t.sin(), t.cos(), t.tanh(), t.sigmoid():
 * integer and bool inputs give F32 */
tl_tensor *tl_sqrt(tl_tensor *t);
tl_tensor *tl_rsqrt(tl_tensor *t);
tl_tensor *tl_log(tl_tensor *t);
tl_tensor *tl_sin(tl_tensor *t);
tl_tensor *tl_cos(tl_tensor *t);
tl_tensor *tl_tanh(tl_tensor *t);
tl_tensor *tl_sigmoid(tl_tensor *t);
/* F.silu(t), F.gelu(t) (the exact erf form); floating inputs only */
tl_tensor *tl_silu(tl_tensor *t);
tl_tensor *tl_gelu(tl_tensor *t);
/* t ** s, t / s with s a Python float: integer and bool tensors give F32 */
tl_tensor *tl_pow_scalar(tl_tensor *t, double s);
tl_tensor *tl_div_scalar(tl_tensor *t, double s);
/* torch.maximum(a, b), torch.minimum(a, b) */
tl_tensor *tl_maximum(tl_tensor *a, tl_tensor *b);
tl_tensor *tl_minimum(tl_tensor *a, tl_tensor *b);
/* t.amax(dim, keepdim) */
tl_tensor *tl_max(tl_tensor *t, int64_t dim, bool keepdim);
/* t.argmax(dim, keepdim): I64 indices */
tl_tensor *tl_argmax(tl_tensor *t, int64_t dim, bool keepdim);
/* torch.where(cond, a, b): cond is BOOL */
tl_tensor *tl_where(tl_tensor *cond, tl_tensor *a, tl_tensor *b);
/* t.masked_fill(mask, value): a contiguous copy of t (broadcast to mask's shape) */
tl_tensor *tl_masked_fill(tl_tensor *t, tl_tensor *mask, double value);
/* t.triu(diagonal), t.tril(diagonal) (at least 2 dims) */
tl_tensor *tl_triu(tl_tensor *t, int64_t diagonal);
tl_tensor *tl_tril(tl_tensor *t, int64_t diagonal);
/* torch.stack(list, dim) */
tl_tensor *tl_stack(tl_list list, int64_t dim);
/* a == b, a < b: BOOL results */
tl_tensor *tl_eq(tl_tensor *a, tl_tensor *b);
tl_tensor *tl_lt(tl_tensor *a, tl_tensor *b);
/* t *= other, t /= other (other broadcasts; the result must cast back to t's dtype) */
void tl_mul_(tl_tensor *t, tl_tensor *other);
void tl_div_(tl_tensor *t, tl_tensor *other);
/* t += s */
void tl_add_scalar_(tl_tensor *t, double s);
/* torch.matmul(a, b, out=out): a wrong-shaped out is resized (contiguous at its
 * offset, its storage grows and never shrinks); a right-shaped one is written in place */
void tl_matmul_out(tl_tensor *out, tl_tensor *a, tl_tensor *b);
/* torch.softmax(t, dim, out=out), resized as tl_matmul_out */
void tl_softmax_out(tl_tensor *out, tl_tensor *t, int64_t dim);
/* A new storage holding a copy of numel(shape) elements of dtype read from ptr
 * (torch.frombuffer(...).reshape(shape).to(device).clone()) */
tl_tensor *tl_from_data(const void *ptr, tl_ints shape, tl_dtype dtype, tl_device device);
/* A CPU tensor over the caller's memory, no copy (torch.from_numpy): its storage
 * is external: 0 bytes allocated, never freed by the runtime; ptr must outlive it */
tl_tensor *tl_from_blob(void *ptr, tl_ints shape, tl_dtype dtype);
/* t.contiguous().cpu().numpy().tobytes() into ptr; fails when nbytes < tl_nbytes(t) */
void tl_copy_to_host(tl_tensor *t, void *ptr, int64_t nbytes);

/* ---- ops for training (a hand-written forward, backward and optimizer step) ---- */

/* t.index_add_(dim, index, source): t.select(dim, index[i]) += source.select(dim, i);
 * index is a vector of I64 or I32, source has t's dtype; nothing is allocated */
void tl_index_add_(tl_tensor *t, int64_t dim, tl_tensor *index, tl_tensor *source);
/* torch.index_add(t, dim, index, source): a contiguous copy of t, then index_add_ */
tl_tensor *tl_index_add(tl_tensor *t, int64_t dim, tl_tensor *index, tl_tensor *source);
/* F.gelu(t, approximate="tanh") (GPT-2's gelu); floating inputs only */
tl_tensor *tl_gelu_tanh(tl_tensor *t);
/* t.sqrt_(); floating t only */
void tl_sqrt_(tl_tensor *t);
/* t.addcmul_(a, b, value=value): t += value * a * b */
void tl_addcmul_(tl_tensor *t, tl_tensor *a, tl_tensor *b, double value);
/* t.addcdiv_(a, b, value=value): t += value * a / b */
void tl_addcdiv_(tl_tensor *t, tl_tensor *a, tl_tensor *b, double value);
/* t.lerp_(end, weight): t += weight * (end - t); end has t's dtype */
void tl_lerp_(tl_tensor *t, tl_tensor *end, double weight);
/* t.log_softmax(dim): a contiguous result */
tl_tensor *tl_log_softmax(tl_tensor *t, int64_t dim);
/* F.cross_entropy(logits, targets, ignore_index=ignore_index): logits (N, C), (C,) or
 * (N, C, d1, ...), targets the class indices (N,), () or (N, d1, ...) of I64 (or U8;
 * the class dim is 1, 0 for 1-dim logits); the mean over the targets
 * not ignored, a 0-dim tensor (NaN when every target is ignored) */
tl_tensor *tl_cross_entropy(tl_tensor *logits, tl_tensor *targets, int64_t ignore_index);

/* ---- lifetime and queries: no allocation ---- */

/* del t: the storage is freed when its last handle goes; NULL is ignored */
void tl_release(tl_tensor *t);
/* t.dim() */
int tl_ndim(const tl_tensor *t);
/* t.size(d), d may be negative */
int64_t tl_size(const tl_tensor *t, int64_t d);
/* t.stride(d) in elements, d may be negative */
int64_t tl_stride(const tl_tensor *t, int64_t d);
/* t.numel() */
int64_t tl_numel(const tl_tensor *t);
/* t.nbytes: numel x element size */
int64_t tl_nbytes(const tl_tensor *t);
/* t.storage_offset() in elements */
int64_t tl_storage_offset(const tl_tensor *t);
/* t.untyped_storage().nbytes() */
int64_t tl_storage_nbytes(const tl_tensor *t);
/* t.is_contiguous() */
bool tl_is_contiguous(const tl_tensor *t);
/* t.is_contiguous(memory_format=f) */
bool tl_is_contiguous_format(const tl_tensor *t, tl_format f);
/* t.dtype */
tl_dtype tl_dtype_of(const tl_tensor *t);
/* t.device */
tl_device tl_device_of(const tl_tensor *t);
/* element size in bytes of a dtype */
int tl_element_size(tl_dtype dtype);
/* a and b use the same storage (untyped_storage().data_ptr() equal) */
bool tl_shares_storage(const tl_tensor *a, const tl_tensor *b);
/* print(t): shape, strides, dtype, device and up to 64 values, on stdout */
void tl_print(const tl_tensor *t);
/* short name of a dtype: "f16", "i64" ... */
const char *tl_dtype_name(tl_dtype dtype);

/* ---- randomness, memory statistics and the allocation trace ---- */

/* Seed tl_randn and tl_randint (default seed 0). */
void tl_manual_seed(uint64_t seed);

typedef struct tl_memory_stats {
    int64_t live_bytes;     /* bytes of storages some handle points into */
    int64_t peak_bytes;     /* max of live_bytes since start or tl_reset_peak */
    int64_t n_live;         /* storages alive */
    int64_t n_allocs;       /* storages ever allocated */
    int64_t allocated_bytes; /* CUDA: block bytes (512-rounded); CPU: live_bytes */
    int64_t reserved_bytes;  /* CUDA: segment bytes held by the caching allocator; CPU: live_bytes */
    int64_t peak_allocated_bytes; /* max of allocated_bytes since start or tl_reset_peak */
    int64_t peak_reserved_bytes;  /* max of reserved_bytes since start or tl_reset_peak */
} tl_memory_stats;

/* Memory statistics of one device. */
tl_memory_stats tl_memory_stats_of(tl_device device);
/* Restart the peaks from the current values. */
void tl_reset_peak(tl_device device);
/* Whether this runtime can run tensors on the device (CUDA: built in and a GPU found). */
bool tl_device_available(tl_device device);

/* Write the allocation trace (JSON lines: one per call, allocation and free) to
 * path ("-" for stderr).  The environment variable TL_TRACE=path starts it too.
 * Returns false when the file cannot be opened. */
bool tl_trace_open(const char *path);
/* Flush and close the trace. */
void tl_trace_close(void);

/* ---- call-site macros: each function above, with the user's file and line ---- */

tl_tensor *tl_empty_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device);
tl_tensor *tl_zeros_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device);
tl_tensor *tl_ones_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device);
tl_tensor *tl_randn_at(const char *file, int line, tl_ints shape, tl_dtype dtype, tl_device device);
tl_tensor *tl_full_at(const char *file, int line, tl_ints shape, double value, tl_dtype dtype,
                      tl_device device);
tl_tensor *tl_arange_at(const char *file, int line, int64_t n, tl_dtype dtype, tl_device device);
tl_tensor *tl_randint_at(const char *file, int line, int64_t low, int64_t high, tl_ints shape,
                         tl_device device);
tl_tensor *tl_scalar_at(const char *file, int line, double value, tl_dtype dtype, tl_device device);
tl_tensor *tl_view_at(const char *file, int line, tl_tensor *t, tl_ints shape);
tl_tensor *tl_transpose_at(const char *file, int line, tl_tensor *t, int64_t d0, int64_t d1);
tl_tensor *tl_t_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_permute_at(const char *file, int line, tl_tensor *t, tl_ints dims);
tl_tensor *tl_slice_at(const char *file, int line, tl_tensor *t, int64_t dim, int64_t start,
                       int64_t end, int64_t step);
tl_tensor *tl_narrow_at(const char *file, int line, tl_tensor *t, int64_t dim, int64_t start,
                        int64_t length);
tl_tensor *tl_select_at(const char *file, int line, tl_tensor *t, int64_t dim, int64_t index);
tl_tensor *tl_unsqueeze_at(const char *file, int line, tl_tensor *t, int64_t dim);
tl_tensor *tl_squeeze_at(const char *file, int line, tl_tensor *t, int64_t dim);
tl_tensor *tl_expand_at(const char *file, int line, tl_tensor *t, tl_ints shape);
tl_tensor *tl_as_strided_at(const char *file, int line, tl_tensor *t, tl_ints shape, tl_ints strides,
                            int64_t offset);
tl_tensor *tl_reshape_at(const char *file, int line, tl_tensor *t, tl_ints shape);
tl_tensor *tl_flatten_at(const char *file, int line, tl_tensor *t, int64_t start_dim, int64_t end_dim);
tl_tensor *tl_contiguous_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_to_at(const char *file, int line, tl_tensor *t, tl_dtype dtype);
tl_tensor *tl_to_device_at(const char *file, int line, tl_tensor *t, tl_device device);
tl_tensor *tl_to_format_at(const char *file, int line, tl_tensor *t, tl_format format);
tl_tensor *tl_clone_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_index_at(const char *file, int line, tl_tensor *t, tl_tensor *idx);
tl_tensor *tl_index_select_at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *idx);
tl_tensor *tl_gather_at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *idx);
tl_tensor *tl_cat_at(const char *file, int line, tl_list list, int64_t dim);
tl_tensor *tl_add_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_sub_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_mul_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_div_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_add_scalar_at(const char *file, int line, tl_tensor *t, double s);
tl_tensor *tl_mul_scalar_at(const char *file, int line, tl_tensor *t, double s);
tl_tensor *tl_neg_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_exp_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_relu_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_sum_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim);
tl_tensor *tl_mean_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim);
tl_tensor *tl_softmax_at(const char *file, int line, tl_tensor *t, int64_t dim);
tl_tensor *tl_matmul_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_conv2d_at(const char *file, int line, tl_tensor *x, tl_tensor *w, int64_t stride,
                        int64_t padding);
void tl_add__at(const char *file, int line, tl_tensor *t, tl_tensor *other);
void tl_sub__at(const char *file, int line, tl_tensor *t, tl_tensor *other);
void tl_mul_scalar__at(const char *file, int line, tl_tensor *t, double s);
void tl_fill__at(const char *file, int line, tl_tensor *t, double v);
void tl_zero__at(const char *file, int line, tl_tensor *t);
void tl_copy__at(const char *file, int line, tl_tensor *dst, tl_tensor *src);
void tl_set_at(const char *file, int line, tl_tensor *t, tl_ints index, double value);
double tl_get_at(const char *file, int line, tl_tensor *t, tl_ints index);
tl_tensor *tl_sqrt_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_rsqrt_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_log_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_sin_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_cos_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_tanh_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_sigmoid_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_silu_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_gelu_at(const char *file, int line, tl_tensor *t);
tl_tensor *tl_pow_scalar_at(const char *file, int line, tl_tensor *t, double s);
tl_tensor *tl_div_scalar_at(const char *file, int line, tl_tensor *t, double s);
tl_tensor *tl_maximum_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_minimum_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_max_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim);
tl_tensor *tl_argmax_at(const char *file, int line, tl_tensor *t, int64_t dim, bool keepdim);
tl_tensor *tl_where_at(const char *file, int line, tl_tensor *cond, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_masked_fill_at(const char *file, int line, tl_tensor *t, tl_tensor *mask, double value);
tl_tensor *tl_triu_at(const char *file, int line, tl_tensor *t, int64_t diagonal);
tl_tensor *tl_tril_at(const char *file, int line, tl_tensor *t, int64_t diagonal);
tl_tensor *tl_stack_at(const char *file, int line, tl_list list, int64_t dim);
tl_tensor *tl_eq_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
tl_tensor *tl_lt_at(const char *file, int line, tl_tensor *a, tl_tensor *b);
void tl_mul__at(const char *file, int line, tl_tensor *t, tl_tensor *other);
void tl_div__at(const char *file, int line, tl_tensor *t, tl_tensor *other);
void tl_add_scalar__at(const char *file, int line, tl_tensor *t, double s);
void tl_matmul_out_at(const char *file, int line, tl_tensor *out, tl_tensor *a, tl_tensor *b);
void tl_softmax_out_at(const char *file, int line, tl_tensor *out, tl_tensor *t, int64_t dim);
tl_tensor *tl_from_data_at(const char *file, int line, const void *ptr, tl_ints shape, tl_dtype dtype,
                           tl_device device);
tl_tensor *tl_from_blob_at(const char *file, int line, void *ptr, tl_ints shape, tl_dtype dtype);
void tl_copy_to_host_at(const char *file, int line, tl_tensor *t, void *ptr, int64_t nbytes);
void tl_index_add__at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *index,
                      tl_tensor *source);
tl_tensor *tl_index_add_at(const char *file, int line, tl_tensor *t, int64_t dim, tl_tensor *index,
                           tl_tensor *source);
tl_tensor *tl_gelu_tanh_at(const char *file, int line, tl_tensor *t);
void tl_sqrt__at(const char *file, int line, tl_tensor *t);
void tl_addcmul__at(const char *file, int line, tl_tensor *t, tl_tensor *a, tl_tensor *b,
                    double value);
void tl_addcdiv__at(const char *file, int line, tl_tensor *t, tl_tensor *a, tl_tensor *b,
                    double value);
void tl_lerp__at(const char *file, int line, tl_tensor *t, tl_tensor *end, double weight);
tl_tensor *tl_log_softmax_at(const char *file, int line, tl_tensor *t, int64_t dim);
tl_tensor *tl_cross_entropy_at(const char *file, int line, tl_tensor *logits, tl_tensor *targets,
                               int64_t ignore_index);
void tl_release_at(const char *file, int line, tl_tensor *t);

#ifndef TL_NO_CALLSITE_MACROS
#define TL__HERE __FILE__, __LINE__
#define tl_empty(shape, dtype, device) tl_empty_at(TL__HERE, shape, dtype, device)
#define tl_zeros(shape, dtype, device) tl_zeros_at(TL__HERE, shape, dtype, device)
#define tl_ones(shape, dtype, device) tl_ones_at(TL__HERE, shape, dtype, device)
#define tl_randn(shape, dtype, device) tl_randn_at(TL__HERE, shape, dtype, device)
#define tl_full(shape, value, dtype, device) tl_full_at(TL__HERE, shape, value, dtype, device)
#define tl_arange(n, dtype, device) tl_arange_at(TL__HERE, n, dtype, device)
#define tl_randint(low, high, shape, device) tl_randint_at(TL__HERE, low, high, shape, device)
#define tl_scalar(value, dtype, device) tl_scalar_at(TL__HERE, value, dtype, device)
#define tl_view(t, shape) tl_view_at(TL__HERE, t, shape)
#define tl_transpose(t, d0, d1) tl_transpose_at(TL__HERE, t, d0, d1)
#define tl_t(t) tl_t_at(TL__HERE, t)
#define tl_permute(t, dims) tl_permute_at(TL__HERE, t, dims)
#define tl_slice(t, dim, start, end, step) tl_slice_at(TL__HERE, t, dim, start, end, step)
#define tl_narrow(t, dim, start, length) tl_narrow_at(TL__HERE, t, dim, start, length)
#define tl_select(t, dim, index) tl_select_at(TL__HERE, t, dim, index)
#define tl_unsqueeze(t, dim) tl_unsqueeze_at(TL__HERE, t, dim)
#define tl_squeeze(t, dim) tl_squeeze_at(TL__HERE, t, dim)
#define tl_expand(t, shape) tl_expand_at(TL__HERE, t, shape)
#define tl_as_strided(t, shape, strides, offset) tl_as_strided_at(TL__HERE, t, shape, strides, offset)
#define tl_reshape(t, shape) tl_reshape_at(TL__HERE, t, shape)
#define tl_flatten(t, start_dim, end_dim) tl_flatten_at(TL__HERE, t, start_dim, end_dim)
#define tl_contiguous(t) tl_contiguous_at(TL__HERE, t)
#define tl_to(t, dtype) tl_to_at(TL__HERE, t, dtype)
#define tl_to_device(t, device) tl_to_device_at(TL__HERE, t, device)
#define tl_to_format(t, format) tl_to_format_at(TL__HERE, t, format)
#define tl_clone(t) tl_clone_at(TL__HERE, t)
#define tl_index(t, idx) tl_index_at(TL__HERE, t, idx)
#define tl_index_select(t, dim, idx) tl_index_select_at(TL__HERE, t, dim, idx)
#define tl_gather(t, dim, idx) tl_gather_at(TL__HERE, t, dim, idx)
#define tl_cat(list, dim) tl_cat_at(TL__HERE, list, dim)
#define tl_add(a, b) tl_add_at(TL__HERE, a, b)
#define tl_sub(a, b) tl_sub_at(TL__HERE, a, b)
#define tl_mul(a, b) tl_mul_at(TL__HERE, a, b)
#define tl_div(a, b) tl_div_at(TL__HERE, a, b)
#define tl_add_scalar(t, s) tl_add_scalar_at(TL__HERE, t, s)
#define tl_mul_scalar(t, s) tl_mul_scalar_at(TL__HERE, t, s)
#define tl_neg(t) tl_neg_at(TL__HERE, t)
#define tl_exp(t) tl_exp_at(TL__HERE, t)
#define tl_relu(t) tl_relu_at(TL__HERE, t)
#define tl_sum(t, dim, keepdim) tl_sum_at(TL__HERE, t, dim, keepdim)
#define tl_mean(t, dim, keepdim) tl_mean_at(TL__HERE, t, dim, keepdim)
#define tl_softmax(t, dim) tl_softmax_at(TL__HERE, t, dim)
#define tl_matmul(a, b) tl_matmul_at(TL__HERE, a, b)
#define tl_conv2d(x, w, stride, padding) tl_conv2d_at(TL__HERE, x, w, stride, padding)
#define tl_add_(t, other) tl_add__at(TL__HERE, t, other)
#define tl_sub_(t, other) tl_sub__at(TL__HERE, t, other)
#define tl_mul_scalar_(t, s) tl_mul_scalar__at(TL__HERE, t, s)
#define tl_fill_(t, v) tl_fill__at(TL__HERE, t, v)
#define tl_zero_(t) tl_zero__at(TL__HERE, t)
#define tl_copy_(dst, src) tl_copy__at(TL__HERE, dst, src)
#define tl_set(t, index, value) tl_set_at(TL__HERE, t, index, value)
#define tl_get(t, index) tl_get_at(TL__HERE, t, index)
#define tl_sqrt(t) tl_sqrt_at(TL__HERE, t)
#define tl_rsqrt(t) tl_rsqrt_at(TL__HERE, t)
#define tl_log(t) tl_log_at(TL__HERE, t)
#define tl_sin(t) tl_sin_at(TL__HERE, t)
#define tl_cos(t) tl_cos_at(TL__HERE, t)
#define tl_tanh(t) tl_tanh_at(TL__HERE, t)
#define tl_sigmoid(t) tl_sigmoid_at(TL__HERE, t)
#define tl_silu(t) tl_silu_at(TL__HERE, t)
#define tl_gelu(t) tl_gelu_at(TL__HERE, t)
#define tl_pow_scalar(t, s) tl_pow_scalar_at(TL__HERE, t, s)
#define tl_div_scalar(t, s) tl_div_scalar_at(TL__HERE, t, s)
#define tl_maximum(a, b) tl_maximum_at(TL__HERE, a, b)
#define tl_minimum(a, b) tl_minimum_at(TL__HERE, a, b)
#define tl_max(t, dim, keepdim) tl_max_at(TL__HERE, t, dim, keepdim)
#define tl_argmax(t, dim, keepdim) tl_argmax_at(TL__HERE, t, dim, keepdim)
#define tl_where(cond, a, b) tl_where_at(TL__HERE, cond, a, b)
#define tl_masked_fill(t, mask, value) tl_masked_fill_at(TL__HERE, t, mask, value)
#define tl_triu(t, diagonal) tl_triu_at(TL__HERE, t, diagonal)
#define tl_tril(t, diagonal) tl_tril_at(TL__HERE, t, diagonal)
#define tl_stack(list, dim) tl_stack_at(TL__HERE, list, dim)
#define tl_eq(a, b) tl_eq_at(TL__HERE, a, b)
#define tl_lt(a, b) tl_lt_at(TL__HERE, a, b)
#define tl_mul_(t, other) tl_mul__at(TL__HERE, t, other)
#define tl_div_(t, other) tl_div__at(TL__HERE, t, other)
#define tl_add_scalar_(t, s) tl_add_scalar__at(TL__HERE, t, s)
#define tl_matmul_out(out, a, b) tl_matmul_out_at(TL__HERE, out, a, b)
#define tl_softmax_out(out, t, dim) tl_softmax_out_at(TL__HERE, out, t, dim)
#define tl_from_data(ptr, shape, dtype, device) tl_from_data_at(TL__HERE, ptr, shape, dtype, device)
#define tl_from_blob(ptr, shape, dtype) tl_from_blob_at(TL__HERE, ptr, shape, dtype)
#define tl_copy_to_host(t, ptr, nbytes) tl_copy_to_host_at(TL__HERE, t, ptr, nbytes)
#define tl_index_add_(t, dim, index, source) tl_index_add__at(TL__HERE, t, dim, index, source)
#define tl_index_add(t, dim, index, source) tl_index_add_at(TL__HERE, t, dim, index, source)
#define tl_gelu_tanh(t) tl_gelu_tanh_at(TL__HERE, t)
#define tl_sqrt_(t) tl_sqrt__at(TL__HERE, t)
#define tl_addcmul_(t, a, b, value) tl_addcmul__at(TL__HERE, t, a, b, value)
#define tl_addcdiv_(t, a, b, value) tl_addcdiv__at(TL__HERE, t, a, b, value)
#define tl_lerp_(t, end, weight) tl_lerp__at(TL__HERE, t, end, weight)
#define tl_log_softmax(t, dim) tl_log_softmax_at(TL__HERE, t, dim)
#define tl_cross_entropy(logits, targets, ignore_index) \
    tl_cross_entropy_at(TL__HERE, logits, targets, ignore_index)
#define tl_release(t) tl_release_at(TL__HERE, t)
#endif /* TL_NO_CALLSITE_MACROS */

#ifdef __cplusplus
}
#endif

#endif /* TENSORLINT_TENSOR_H */
