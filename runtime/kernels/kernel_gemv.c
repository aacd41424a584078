/*
 * kernel_gemv.c: f32 matrix-vector products for small and medium
 * matrices, as llama2.c computes them: one parallel loop over the output's
 * elements (rows of a row-major matrix), each a dot product in simd_dot.h's
 * order.  Through BLAS (sgemv) these cost a thread hand-off per call in
 * OpenBLAS's own pool and a summation order of its own; here the rows
 * are cut into one block per thread of the runtime's pool
 * (kernel_parallel.c) when the matrix has at least RT_GEMV_PARALLEL
 * elements, else run on the calling thread.
 *
 * A matrix whose columns are contiguous (y = W^T x with W row-major: the
 * attention weights times the values) is summed row by row into y on the
 * calling thread (its sizes are a position count times a head size).  A
 * strided x is gathered first (at most RT_GEMV_STACK elements on the stack,
 * more from the heap); a strided y is written element by element.
 */
#include <stdlib.h>

#include "kernels.h"

#define RT_GEMV_PARALLEL 32768 /* elements of the matrix */
#define RT_GEMV_STACK 4096     /* elements of x gathered on the stack */

typedef struct gemv_job {
    const float *m, *x;
    int64_t cols, ld, incy;
    float *y;
} gemv_job;

static void gemv_range(void *ctx, int64_t begin, int64_t end)
{
    const gemv_job *j = ctx;
    rt_f32_rows(j->m, j->ld, j->x, j->cols, j->y, j->incy, begin, end);
}

/* Rows of 16 or more per thread: a block of rows shares nothing with another. */
static void gemv_rows(const gemv_job *j, int64_t rows)
{
    if (rows * j->cols < RT_GEMV_PARALLEL || rt_num_threads() < 2) {
        gemv_range((void *)j, 0, rows);
        return;
    }
    rt_parallel_for(rows, 16, gemv_range, (void *)j);
}

bool rt_f32_gemv(const float *m, int64_t rows, int64_t cols, int64_t ld, bool trans,
                 const float *x, int64_t incx, float *y, int64_t incy)
{
    int64_t nx = trans ? rows : cols;
    float stack[RT_GEMV_STACK], *heap = NULL;
    const float *xd = x;
    if (incx != 1) {
        float *g = nx <= RT_GEMV_STACK ? stack : (heap = malloc(sizeof(float) * (size_t)nx));
        if (!g)
            return false; /* BLAS takes it, and needs no scratch */
        for (int64_t k = 0; k < nx; k++)
            g[k] = x[k * incx];
        xd = g;
    }
    if (!trans) {
        gemv_job j = {m, xd, cols, ld, incy, y};
        gemv_rows(&j, rows);
    } else if (incy == 1) {
        rt_f32_cols(m, ld, xd, 1, rows, y, cols);
    } else {
        free(heap);
        return false;
    }
    free(heap);
    return true;
}
