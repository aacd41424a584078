/* realloc that shrinks a block: a handle held only past the new end is
 * gone with the old block, as C has it (leaked-tensor); the ones before the
 * end move to the new block and are released from it. */
// CHECK-OPTIONS: --checks=-*,leaked-tensor
#include <stdlib.h>
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor **arr = malloc(3 * sizeof *arr);
    for (int i = 0; i < 3; i++)
        arr[i] = tl_zeros(TL_SHAPE(16), TL_F32, TL_CPU);
    arr = realloc(arr, 2 * sizeof *arr); // expected-warning {{[leaked-tensor]}}
    tl_release(arr[0]);
    tl_release(arr[1]);
    free(arr);
    return 0;
}
