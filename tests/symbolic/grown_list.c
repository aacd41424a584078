/* A list grown row by row, its first row kept as it is (an arm taken in
 * the first iteration only): the summary's value for tl_cat has a shape
 * over the loop's counter at one iteration, (i + 1, 4).  That counter is
 * no size read at run time: the report lists it apart, and assumes nothing
 * of it (the JSON listed "i >= 1" among the assumptions, which no run's
 * values can check). */
// bind: n
// values: 2 | 3 | 40
#include <stdlib.h>
#include <tensorlint/tensor.h>
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    (void)argc;
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU);
    tl_tensor *h = NULL;
    for (int i = 0; i < n; i++) {
        tl_tensor *row = tl_zeros(TL_SHAPE(1, 4), TL_F32, TL_CPU);
        if (!h) {
            h = row;
        } else {
            tl_tensor *c = tl_cat(TL_LIST(h, row), 0);
            tl_release(h);
            tl_release(row);
            h = c;
        }
    }
    tl_tensor *big = tl_zeros(TL_SHAPE(300), TL_F32, TL_CPU);
    tl_release(big);
    tl_release(h);
    tl_release(x);
    return 0;
}
