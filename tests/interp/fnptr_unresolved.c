/* Function pointers the analysis cannot resolve: a branch it cannot decide
 * leaves one of two functions in each.  Each call is one note; the handles
 * passed escape (their releases are not followed), what the call returns
 * is not known, and the totals that depend on them are bounds. */
#include <stdint.h>
#include <tensorlint/tensor.h>

typedef int64_t (*measure)(tl_tensor *x);
typedef tl_tensor *(*chooser)(tl_tensor *a, tl_tensor *b);

static int64_t rows(tl_tensor *x) { return tl_size(x, 0); }
static int64_t cols(tl_tensor *x) { return tl_size(x, 1); }
static tl_tensor *first(tl_tensor *a, tl_tensor *b) { (void)b; return a; }
static tl_tensor *second(tl_tensor *a, tl_tensor *b) { (void)a; return b; }

int main(int argc, char **argv) // expected-func: peak~=256 end~=256 moved~=256
{
    (void)argv;
    measure m = rows;
    chooser pick = first;
    if (argc > 1) {
        m = cols;
        pick = second;
    }
    tl_tensor *x = tl_ones(TL_SHAPE(4, 8), TL_F32, TL_CPU); // expected: x bytes=128
    tl_tensor *w = tl_ones(TL_SHAPE(8, 4), TL_F32, TL_CPU); // expected: w bytes=128
    int64_t n = m(x); // expected-note {{not analysed: the call through 'm' (which function it points to is not known here); the tensors passed to it are not followed}} {{[unsupported]}}
    (void)n;
    tl_tensor *y = pick(x, w); // expected-note {{the call through 'pick'}} {{[unsupported]}}
    tl_print(y);
    tl_release(w);
    tl_release(x);
    return 0;
}
