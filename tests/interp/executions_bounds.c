/* Counts that are not exact: a call in an arm of a condition not known
 * statically runs at most as often as counted (the run may take the other
 * arm), and so does a call in a loop that an unknown branch may leave early;
 * a call in a loop whose condition is not known is counted for the
 * iterations analysed. */
#include <stdint.h>
#include <tensorlint/tensor.h>

int main(int argc, char **argv)
{
    (void)argv;
    tl_tensor *x = tl_ones(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: x exec=1
    tl_tensor *y;
    if (argc > 1)
        y = tl_relu(x); // expected: y exec<=1
    else
        y = tl_exp(x); // expected: y exec<=1
    tl_release(y);
    int64_t first[4];
    for (int i = 0; i < 3; i++) {
        tl_tensor *a = tl_argmax(x, 1, false); // expected: a exec<=3
        tl_copy_to_host(a, first, sizeof first);
        tl_release(a);
        if (first[0] != 0) // expected-note {{leaves the loop}} {{[unknown-branch]}}
            break;
        tl_tensor *b = tl_sqrt(x); // expected: b exec<=3
        tl_release(b);
    }
    int64_t more = 1;
    while (more != 0) { // expected-note {{not known statically}} {{[unknown-trip-count]}}
        tl_tensor *c = tl_argmax(x, 0, false); // expected: c exec~=2
        tl_copy_to_host(c, first, sizeof first);
        more = first[0];
        tl_release(c);
    }
    tl_tensor *z = tl_clone(x); // expected: z exec=1
    tl_release(z);
    tl_release(x);
    return 0;
}
