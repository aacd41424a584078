/* Host memory written at indices the analysis cannot tell apart: an int
 * array edited at an index read at run time (a pair merged, the tail
 * shifted down, as a tokenizer merges), and an array of pointers to
 * strings filled at such an index.  No tensor is held there, so the
 * stores need no note: the tensors' totals are exact. */
#include <tensorlint/tensor.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) // expected-func: peak=192 end=0 moved=288 calls=4
{
    int tokens[8] = {5, 6, 7, 8, 9, 10, 11, 12};
    int n = 8;
    int at = argc > 1 ? atoi(argv[1]) : 2;
    tokens[at] = 42;
    for (int i = at + 1; i < n - 1; i++)
        tokens[i] = tokens[i + 1];
    n--;
    char *names[4] = {NULL, NULL, NULL, NULL};
    names[at % 4] = malloc(8);
    if (names[at % 4])
        strcpy(names[at % 4], "pair");
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x shape=(4, 8) bytes=128
    tl_tensor *row = tl_select(x, 0, 1); // expected: row shape=(8,) kind=view
    tl_tensor *y = tl_mul_scalar(row, 2.0); // expected: y shape=(8,) bytes=32
    tl_tensor *z = tl_add(y, y); // expected: z shape=(8,) bytes=32
    tl_release(z);
    tl_release(y);
    tl_release(row);
    tl_release(x);
    for (int k = 0; k < 4; k++)
        free(names[k]);
    return n > 8 ? tokens[0] : 0;
}
