/* realloc that shrinks a block: the elements before the new end stay where
 * they were (the same handles at the same indices); those past it are gone
 * with the old block, so they are released first. */
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=80 end=0 moved=120 peak-line=11 calls=5
{
    tl_tensor **arr = malloc(4 * sizeof *arr);
    for (int i = 0; i < 4; i++)
        arr[i] = tl_zeros(TL_SHAPE(2, i + 1), TL_F32, TL_CPU); // expected: arr[i] exec=4
    tl_release(arr[3]);
    tl_release(arr[2]);
    arr = realloc(arr, 2 * sizeof *arr);
    tl_tensor *a = arr[0], *b = arr[1];
    tl_tensor *y = tl_add(a, b); // expected: y shape=(2, 2) bytes=16 moved=40 freed=17
    tl_release(y);
    tl_release(arr[1]);
    tl_release(arr[0]);
    free(arr);
    return 0;
}
