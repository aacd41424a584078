/*
 * meta_plan.c: the iteration space of an elementwise kernel (mt_plan), as
 * TensorIterator reorders and coalesces dimensions: operands right-aligned
 * to operand 0's shape with stride 0 on broadcast dims, size-1 dims
 * dropped, dims sorted by operand 0's strides (larger outer, so a permuted
 * output is walked in memory order; the sort is stable), and adjacent dims
 * merged wherever every operand steps through them as one.
 *
 * One plan for the CPU kernels (kernel_compute.c) and for the CUDA
 * kernels' host-side decisions (cuda/src/cuda_plan.c).
 */
#include "meta_impl.h"

#include <string.h>

/* Stride of out-dim i in l, l right-aligned to out_ndim dims (0 when broadcast). */
static int64_t bcast_stride(const mt_layout *l, int out_ndim, int i)
{
    int j = i - (out_ndim - l->ndim);
    return (j >= 0 && l->shape[j] != 1) ? l->strides[j] : 0;
}

static void plan_swap(mt_plan *p, int i, int j)
{
    int64_t n = p->shape[i];
    p->shape[i] = p->shape[j], p->shape[j] = n;
    for (int o = 0; o < p->n_ops; o++) {
        int64_t s = p->st[o][i];
        p->st[o][i] = p->st[o][j], p->st[o][j] = s;
    }
}

static void plan_sort(mt_plan *p)
{
    for (int i = 1; i < p->nd; i++)
        for (int j = i; j > 0 && p->st[0][j] > p->st[0][j - 1]; j--)
            plan_swap(p, j, j - 1);
}

static bool mergeable(const mt_plan *p, int outer, int inner)
{
    for (int o = 0; o < p->n_ops; o++)
        if (p->st[o][outer] != mt_mul_wrap(p->st[o][inner], p->shape[inner]))
            return false;
    return true;
}

static void plan_coalesce(mt_plan *p)
{
    int k = 0;
    for (int i = 1; i < p->nd; i++) {
        if (mergeable(p, k, i)) {
            p->shape[k] *= p->shape[i];
        } else {
            k++;
            p->shape[k] = p->shape[i];
        }
        for (int o = 0; o < p->n_ops; o++)
            p->st[o][k] = p->st[o][i];
    }
    p->nd = k + 1;
}

bool mt_plan_init(mt_plan *p, int n_ops, const mt_layout *const *ls)
{
    const mt_layout *ol = ls[0];
    memset(p, 0, sizeof *p);
    p->n_ops = n_ops, p->numel = 1;
    for (int i = 0; i < ol->ndim; i++) {
        if (ol->shape[i] == 0)
            return false;
        if (ol->shape[i] == 1)
            continue;
        p->shape[p->nd] = ol->shape[i];
        for (int o = 0; o < n_ops; o++)
            p->st[o][p->nd] = bcast_stride(ls[o], ol->ndim, i);
        p->numel *= ol->shape[i];
        p->nd++;
    }
    for (int o = 0; o < n_ops; o++)
        p->offset[o] = ls[o]->offset;
    if (p->nd == 0) {
        p->nd = 1, p->shape[0] = 1;
        return true;
    }
    plan_sort(p);
    plan_coalesce(p);
    return true;
}
