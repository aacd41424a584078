/* A size from the environment: width = atoi(getenv("TL_WIDTH")). */
// bind: width
// values: 1 | 5 | 96
// env: TL_WIDTH
#include <tensorlint/tensor.h>
#include <stdlib.h>

int main(void)
{
    const char *s = getenv("TL_WIDTH");
    int width = s ? atoi(s) : 8;
    tl_tensor *a = tl_zeros(TL_SHAPE(16, width), TL_F16, TL_CPU);
    tl_tensor *b = tl_to(a, TL_F32);            /* an upcast: twice the bytes */
    tl_tensor *c = tl_narrow(b, 1, 0, width);   /* a view of all of it */
    tl_tensor *d = tl_cat(TL_LIST(b, c), 0);    /* (32, width) */
    tl_release(a);
    tl_release(c);
    tl_release(b);
    tl_release(d);
    return 0;
}
