/*
 * kernels.h: the CPU kernels.  A kernel gets buffers whose layouts the meta
 * functions already computed and checked; it only moves and computes data.
 * Element (i0, i1, ...) of a buffer lives at
 *     base + (l->offset + i0*l->strides[0] + i1*l->strides[1] + ...) * element size.
 * Kernels trust their inputs (shapes agree, dims are wrapped, dtypes are the
 * ones the meta function chose); a broken precondition is an assert.
 *
 * Arithmetic follows PyTorch's CPU semantics: inputs are converted to the
 * output's dtype (the promoted dtype) before the operation; f16 and bf16
 * are computed in f32 and rounded to nearest even on store; integer
 * overflow wraps; float to integer conversion truncates toward zero.
 */
#ifndef TL_KERNELS_H
#define TL_KERNELS_H

#include "meta.h"

/* A tensor's data: its layout and the start of its storage. */
typedef struct rt_buf {
    const mt_layout *l;
    void *base; /* storage start; may be NULL when the layout has no elements */
} rt_buf;

/* The element count of a valid layout that is contiguous (row-major over
 * its dims of size > 1) and not empty, else 0.  Inline, without the meta
 * functions' overflow checks (a valid layout's sizes multiply within
 * int64): the small-tensor paths ask it of every operand. */
static inline int64_t rt_dense_numel(const mt_layout *l)
{
    int64_t expected = 1;
    for (int d = l->ndim - 1; d >= 0; d--) {
        if (l->shape[d] == 0 || (l->shape[d] != 1 && l->strides[d] != expected))
            return 0;
        expected *= l->shape[d];
    }
    return expected;
}

/* ---- threads ---- */

typedef void (*rt_range_fn)(void *ctx, int64_t begin, int64_t end);
/* fn(ctx, begin, end) over [0, n) in one chunk per thread (chunks of at least
 * grain iterations); returns when all are done. */
void rt_parallel_for(int64_t n, int64_t grain, rt_range_fn fn, void *ctx);
/* OMP_NUM_THREADS when set, else the online cores. */
int rt_num_threads(void);

/* ---- scratch memory ---- */

/* nbytes of host scratch memory for a kernel (at least 1), or NULL when the
 * host has none: the failure is then recorded as the pending error
 * (TL_ERR_OUT_OF_MEMORY, cuda_rt.h's cu_fail), the kernel returns without
 * finishing, and the runtime raises the error for the call (releasing its
 * new storage).  A kernel never exits or aborts the program for memory.
 * what names the buffer in the message (a static string). */
void *rt_scratch_new(size_t nbytes, const char *what);

/* ---- scalar conversions (round to nearest even, NaN preserved) ---- */

uint16_t rt_f32_to_f16(float f);
float rt_f16_to_f32(uint16_t h);
uint16_t rt_f32_to_bf16(float f);
float rt_bf16_to_f32(uint16_t h);
/* Read / write one element as double (PyTorch's conversion rules). */
double rt_load(tl_dtype d, const void *p);
void rt_store(tl_dtype d, void *p, double v);

/* ---- data movement ---- */

/* dst[...] = src[...] with src broadcast to dst's shape and cast to dst's
 * dtype.  Fast paths: contiguous-to-contiguous memcpy / cast loops, and
 * blocked (tiled) copies for permuted layouts. */
void rt_copy(const rt_buf *dst, const rt_buf *src);
/* Every element of dst = v (cast to dst's dtype). */
void rt_fill(const rt_buf *dst, double v);
/* dst = 0, 1, 2, ... in row-major order. */
void rt_arange(const rt_buf *dst);

/* A small deterministic generator (seeded by tl_manual_seed). */
typedef struct rt_rng { uint64_t state; } rt_rng;
/* Standard normal values (floating dst). */
void rt_randn(const rt_buf *dst, rt_rng *rng);
/* Uniform integers in [low, high) (I64 dst). */
void rt_randint(const rt_buf *dst, int64_t low, int64_t high, rt_rng *rng);

/* ---- compute ---- */

typedef enum rt_binop { RT_ADD, RT_SUB, RT_MUL, RT_DIV } rt_binop;
typedef enum rt_unop { RT_NEG, RT_EXP, RT_RELU } rt_unop;
typedef enum rt_redop { RT_SUM, RT_MEAN } rt_redop;

/* out = a op b, a and b broadcast to out's shape, computed in out's dtype. */
void rt_binary(rt_binop op, const rt_buf *out, const rt_buf *a, const rt_buf *b);
/* out = a op s (add and mul only), computed in out's dtype. */
void rt_binary_scalar(rt_binop op, const rt_buf *out, const rt_buf *a, double s);
/* out = op(a), computed in out's dtype. */
void rt_unary(rt_unop op, const rt_buf *out, const rt_buf *a);
/* out = reduce(a) over dim (out has a's shape with dim removed, or 1 when keepdim). */
void rt_reduce(rt_redop op, const rt_buf *out, const rt_buf *a, int dim, bool keepdim);
/* out = softmax(a) along dim (floating dtypes; f16/bf16 computed in f32). */
void rt_softmax(const rt_buf *out, const rt_buf *a, int dim);
/* out = a @ b with torch.matmul's 1-D / 2-D / batched broadcasting; f32 and f64
 * through OpenBLAS, f16 and bf16 accumulated in f32, integers exactly. */
void rt_matmul(const rt_buf *out, const rt_buf *a, const rt_buf *b);
/* out = conv2d(x, w) with the same stride and padding on H and W, no bias. */
void rt_conv2d(const rt_buf *out, const rt_buf *x, const rt_buf *w, int64_t stride, int64_t padding);

/* ---- indexing ---- */

/* out = t.index_select(dim, idx) (idx 1-D I64 or I32, indices already checked). */
void rt_index_select(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx);
/* out = torch.gather(t, dim, idx). */
void rt_gather(const rt_buf *out, const rt_buf *t, int dim, const rt_buf *idx);
/* out = t[idx] (gather rows along dim 0; out shape idx.shape + t.shape[1:]). */
void rt_index(const rt_buf *out, const rt_buf *t, const rt_buf *idx);
/* out = torch.cat(parts, dim). */
void rt_cat(const rt_buf *out, int n, const rt_buf *parts, int dim);

/* ---- in place ---- */

/* t = t op other (add and sub), other broadcast to t, computed in t's dtype. */
void rt_binary_inplace(rt_binop op, const rt_buf *t, const rt_buf *other);
/* t = t * s. */
void rt_mul_scalar_inplace(const rt_buf *t, double s);

/* ---- f32 functions, vectorized (kernel_simd.c, simd_math.h) ---- */

typedef enum rt_f32_fn {
    RT_F32_EXP,
    RT_F32_SIGMOID,
    RT_F32_SILU,
    RT_F32_TANH,
    RT_F32_GELU, /* the erf form */
    RT_F32_RSQRT,
} rt_f32_fn;

/* o[i] = fn(x[i]) for i in [0, n), in f32 (within a few ulp of the exact
 * value; simd_math.h); a value gives the same bits at every position of
 * the array.  o may be x. */
void rt_f32_map(rt_f32_fn fn, float *o, const float *x, int64_t n);

/* The instruction sets rt_f32_map runs on, each a superset of the one
 * before: BASE is SSE2 on x86-64 (plain C elsewhere), AVX2 is AVX2 with FMA,
 * AVX512 is AVX-512F. */
typedef enum rt_simd { RT_SIMD_BASE, RT_SIMD_AVX2, RT_SIMD_AVX512 } rt_simd;
/* Its name: "base", "avx2", "avx512". */
const char *rt_simd_name(rt_simd s);
/* The widest variant this build has and the CPU runs. */
rt_simd rt_simd_best(void);
/* The one in use: rt_simd_best() from the first call on, until rt_simd_use. */
rt_simd rt_simd_active(void);
/* Use s from now on (s <= rt_simd_best(); not while kernels run): the unit
 * tests run every variant the CPU has on one machine. */
void rt_simd_use(rt_simd s);

typedef void (*rt_f32_map_fn)(rt_f32_fn fn, float *o, const float *x, int64_t n);
/* kernel_simd_avx2.c's and kernel_simd_avx512.c's rt_f32_map; NULL where
 * the file was compiled without its instruction set (not x86, or a compiler
 * without the flag). */
rt_f32_map_fn rt_simd_avx2_map(void);
rt_f32_map_fn rt_simd_avx512_map(void);

/* ---- f32 matrix-vector products (simd_dot.h, kernel_gemv.c) ---- */

/* y[r * incy] = w[r * ld + 0 .. n) . x[0 .. n), r in [r0, r1): one row's
 * sum in llama2.c's vectorised order (simd_dot.h). */
void rt_f32_rows(const float *w, int64_t ld, const float *x, int64_t n, float *y, int64_t incy,
                 int64_t r0, int64_t r1);
/* y[0 .. n) = sum over r < rows of x[r * incx] w[r * ld + 0 .. n), rows in order. */
void rt_f32_cols(const float *w, int64_t ld, const float *x, int64_t incx, int64_t rows, float *y,
                 int64_t n);
typedef void (*rt_f32_rows_fn)(const float *w, int64_t ld, const float *x, int64_t n, float *y,
                               int64_t incy, int64_t r0, int64_t r1);
typedef void (*rt_f32_cols_fn)(const float *w, int64_t ld, const float *x, int64_t incx,
                               int64_t rows, float *y, int64_t n);
/* The AVX2 and AVX-512 variants (NULL where not compiled), as rt_simd_*_map. */
rt_f32_rows_fn rt_simd_avx2_rows(void);
rt_f32_rows_fn rt_simd_avx512_rows(void);
rt_f32_cols_fn rt_simd_avx2_cols(void);
rt_f32_cols_fn rt_simd_avx512_cols(void);
/* y = M x, or M^T x when trans, for an f32 matrix M of rows x cols stored
 * row-major with leading dimension ld (elements), x and y strided
 * (elements): y = M x in parallel over the rows when the matrix is large
 * enough, each thread its own rows (llama2.c's matmul).  False, with
 * nothing written, when it cannot (then BLAS runs). */
bool rt_f32_gemv(const float *m, int64_t rows, int64_t cols, int64_t ld, bool trans,
                 const float *x, int64_t incx, float *y, int64_t incy);

/* ---- ops for real models (kernel_model.c) ---- */

/* The result of c->op (an op of meta_model.c that computes: activations,
 * scalar pow/div, maximum/minimum, eq/lt, where, masked_fill, triu/tril,
 * amax/argmax, stack) into out from in[0..n); for mul_, div_ and
 * add_scalar_ out is in[0], written in place.  c gives the op and its
 * scalars and dims; the layouts are the buffers'. */
void rt_model(const mt_call *c, const rt_buf *out, int n, const rt_buf *in);
/* The ops for training (kernel_train.c): rt_model hands them to rt_train.
 * In place (sqrt_, addcmul_, addcdiv_, lerp_, index_add_) out is in[0]. */
bool rt_train_op(mt_op op);
void rt_train(const mt_call *c, const rt_buf *out, int n, const rt_buf *in);

#endif /* TL_KERNELS_H */
