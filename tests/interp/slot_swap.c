/* Pointers to handles: a swap of two slots, and a slot replaced through tl_tensor **. */
#include <tensorlint/tensor.h>

static void swap(tl_tensor **a, tl_tensor **b)
{
    tl_tensor *t = *a;
    *a = *b;
    *b = t;
}

static void replace(tl_tensor **slot, tl_tensor *with)
{
    tl_release(*slot);
    *slot = with;
}

int main(void) // expected-func: peak=108 end=0 moved=132 peak-line=24 calls=5
{
    tl_tensor *cur = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: cur bytes=64 freed=13
    tl_tensor *next = tl_zeros(TL_SHAPE(2, 4), TL_F32, TL_CPU); // expected: next bytes=32 freed=27
    swap(&cur, &next);
    tl_tensor *r = tl_view(cur, TL_SHAPE(8)); // expected: r shape=(8,) strides=(1,) kind=view view-of=next@20 bytes=32
    tl_tensor **slot = &next;
    replace(slot, tl_ones(TL_SHAPE(3), TL_F32, TL_CPU)); // expected: op=ones shape=(3,) bytes=12 freed=28
    tl_tensor *y = tl_add_scalar(next, 1.0); // expected: y shape=(3,) kind=new bytes=12 moved=24 freed=29
    tl_release(r);
    tl_release(cur);
    tl_release(next);
    tl_release(y);
    return 0;
}
