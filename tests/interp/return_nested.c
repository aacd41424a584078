/* A return inside an arm of another unknown branch, in a helper called
 * twice: the return is joined at the helper's end, the outer branch's arms
 * as any two arms.  The run (no arguments: a = 3, b = 5, from argc, which
 * the analysis does not know) returns early from both calls,
 * past the work the other paths do: verify follows it through the
 * alternative the join leaves at the inner branch, not the outer one's,
 * and the counts of the calls it skips are upper bounds. */
#include <tensorlint/tensor.h>

static tl_tensor *step(tl_tensor *x, int a, int b) // expected-func: peak<=384 end=256 moved<=1536
{
    tl_tensor *y = tl_relu(x); // expected: y bytes=128 moved=256 exec=2
    if (a > 2) { // expected-note {{its arms reach different peaks}} {{[unknown-branch]}}
        if (b > 3) // expected-note {{one arm returns (line 15) while the other goes on}} {{[unknown-branch]}}
            return y;
        tl_tensor *z = tl_exp(y); /* not in the run */
        tl_release(y);
        y = z;
    }
    tl_tensor *w = tl_neg(y); /* not in the run */
    tl_release(y);
    return w;
}

int main(int argc, char **argv) // expected-func: peak<=384 end=0 moved<=1664
{
    (void)argv;
    int a = 4 - argc, b = 6 - argc;
    tl_tensor *x = tl_ones(TL_SHAPE(8, 4), TL_F32, TL_CPU); // expected: x bytes=128 freed=34
    for (int i = 0; i < 2; i++) {
        tl_tensor *s = step(x, a + i, b);
        tl_release(s);
    }
    tl_release(x);
    return 0;
}
