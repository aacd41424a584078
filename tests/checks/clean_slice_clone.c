/* Clean: keep a small slice of a big buffer by cloning it, then free the
 * buffer. */
#include <tensorlint/tensor.h>

static tl_tensor *first_rows(tl_tensor *data, int n)
{
    tl_tensor *view = tl_narrow(data, 0, 0, n);
    tl_tensor *rows = tl_clone(view);
    tl_release(view);
    return rows;
}

int main(void)
{
    tl_tensor *data = tl_randn(TL_SHAPE(100000, 64), TL_F16, TL_CPU);
    tl_tensor *rows = first_rows(data, 100);
    tl_release(data);
    tl_tensor *total = tl_sum(rows, 0, false);
    tl_release(total);
    tl_release(rows);
    return 0;
}
