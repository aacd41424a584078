/* A growing array of handles, as C libraries write one: realloc doubles
 * the capacity when the array is full (2, 4, 8).  The handles move to the
 * new block at the same indices, so each is found again; realloc's result
 * is followed like malloc's. */
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(void) // expected-func: peak=144 end=0 moved=176 peak-line=27 calls=9
{
    int cap = 2, n = 0;
    tl_tensor **arr = malloc((size_t)cap * sizeof *arr);
    for (int i = 0; i < 7; i++) {
        if (n == cap) {
            cap *= 2;
            tl_tensor **grown = realloc(arr, (size_t)cap * sizeof *arr);
            if (!grown) {
                free(arr);
                return 1;
            }
            arr = grown;
        }
        arr[n++] = tl_ones(TL_SHAPE(i + 1), TL_F32, TL_CPU); // expected: arr[n++] exec=7 freed=31
    }
    if (cap != 8)
        return 2;
    tl_tensor *first = tl_clone(arr[0]); // expected: first shape=(1,) bytes=4 freed=29
    tl_tensor *last = tl_clone(arr[n - 1]); // expected: last shape=(7,) bytes=28 freed=28
    tl_release(last);
    tl_release(first);
    for (int i = 0; i < n; i++)
        tl_release(arr[i]);
    free(arr);
    return 0;
}
