/*
 * Lab 1, the stride discovery set (seeds/tensor-memory-chapter.txt):
 * t = torch.arange(24, dtype=torch.float32).reshape(2,3,4) and nine views
 * or copies of it; for each, its shape, strides, storage offset and
 * whether it shares t's buffer.  The surprise: t.transpose(0,1).flatten()
 * is a NEW buffer.
 */
#include <stdio.h>
#include <tensorlint/tensor.h>

/* A Python tuple: (2, 3, 4), (24,). */
static void print_tuple(const char *label, int n, const long long *v)
{
    printf("%s(", label);
    for (int d = 0; d < n; d++)
        printf("%s%lld", d ? ", " : "", v[d]);
    printf(n == 1 ? ",)" : ")");
}

static void show(const char *name, tl_tensor *x, tl_tensor *t)
{
    long long shape[8], strides[8];
    int n = tl_ndim(x);
    for (int d = 0; d < n; d++) {
        shape[d] = tl_size(x, d);
        strides[d] = tl_stride(x, d);
    }
    printf("%-28s", name);
    print_tuple(" shape=", n, shape);
    print_tuple(" strides=", n, strides);
    printf(" offset=%lld same_buffer=%s\n", (long long)tl_storage_offset(x),
           tl_shares_storage(x, t) ? "True" : "False");
}

int main(void)
{
    tl_tensor *r = tl_arange(24, TL_F32, TL_CPU);
    tl_tensor *t = tl_reshape(r, TL_SHAPE(2, 3, 4));
    tl_tensor *t01 = tl_transpose(t, 0, 1);
    tl_tensor *t12 = tl_transpose(t, 1, 2);
    tl_tensor *rows = tl_slice(t, 1, 1, TL_END, 1);
    tl_tensor *step = tl_slice(t, 2, 0, TL_END, 2);
    tl_tensor *flat = tl_flatten(t, 0, -1);
    tl_tensor *r46 = tl_reshape(t, TL_SHAPE(4, 6));
    tl_tensor *t01_flat = tl_flatten(t01, 0, -1);
    tl_tensor *perm = tl_permute(t, TL_DIMS(0, 2, 1));
    tl_tensor *cont = tl_contiguous(t);
    show("t", t, t);
    show("t.transpose(0,1)", t01, t);
    show("t.transpose(1,2)", t12, t);
    show("t[:, 1:, :]", rows, t);
    show("t[:, :, ::2]", step, t);
    show("t.flatten()", flat, t);
    show("t.reshape(4,6)", r46, t);
    show("t.transpose(0,1).flatten()", t01_flat, t);
    show("t.permute(0,2,1)", perm, t);
    show("t.contiguous()", cont, t);
    tl_release(cont);
    tl_release(perm);
    tl_release(t01_flat);
    tl_release(r46);
    tl_release(flat);
    tl_release(step);
    tl_release(rows);
    tl_release(t12);
    tl_release(t01);
    tl_release(t);
    tl_release(r);
    return 0;
}
