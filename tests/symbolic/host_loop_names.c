/* What the report's numbers rest on, listed once each: a loop that touches
 * no tensor and whose trip count is not known is analysed for one iteration
 * and its writes forgotten, and so are the symbols it made (a strlen each
 * iteration, decided >= 1 there): they are listed no more (was: `w`, and a
 * second `w` for the next read the name was given again to, as llama2.c's
 * tokenizer loops gave `len` and `id` twice).  A status joined from
 * EXIT_SUCCESS and EXIT_FAILURE is no size: `status != EXIT_SUCCESS` is
 * not taken for every run (as status >= 1 did), it is an assumption on the
 * run's path. */
// bind: n d
// values: 2 3 | 5 1 | 4 7
// symbols: n d
#include <tensorlint/tensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[1]);
    int d = atoi(argv[2]);
    const char *word = argc > 3 ? argv[3] : "banana";
    int vowels = 0;
    for (const char *p = word; *p; p++) {
        int w = (int)strlen(p);
        if (w <= 0)
            break;
        vowels += *p == 'a';
    }
    int status = EXIT_SUCCESS;
    tl_tensor *x = tl_ones(TL_SHAPE(n, d), TL_F32, TL_CPU);
    if (vowels > 2)
        puts("a word of many a's");
    else
        status = EXIT_FAILURE;
    tl_release(x);
    if (status != EXIT_SUCCESS)
        return status;
    tl_tensor *z = tl_zeros(TL_SHAPE(d, n), TL_F32, TL_CPU);
    tl_release(z);
    return 0;
}
