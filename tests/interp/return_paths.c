/* Returns that normal runs take, on conditions the analysis cannot decide:
 * each is a path to its function's end, joined there with the others, not
 * an assumption that the run never takes it.  A sampler's loop returning
 * from inside and a helper returning early touch no tensor on the way: the
 * join is exact.  A helper returning a tensor early, before the work its
 * other path does, reaches a lower peak and moves fewer bytes there: those
 * totals are upper bounds, with a note.  A helper that ends the program
 * (die) is still an assumption: the report describes runs that go on.
 * The run (no arguments: n = 3, k = 6, from argc, which the analysis does
 * not know) returns from the loop's last iteration, from rows_kept early,
 * and from doubled early: verify follows it there. */
#include <stdio.h>
#include <stdlib.h>
#include <tensorlint/tensor.h>

_Noreturn static void die(const char *why)
{
    fprintf(stderr, "%s\n", why);
    exit(3);
}

static int sample_index(const float *p, int n, float r)
{
    float cdf = 0;
    for (int i = 0; i < n; i++) {
        cdf += p[i];
        if (r < cdf)
            return i;
    }
    return n - 1;
}

static int rows_kept(int n, int k)
{
    if (k >= n)
        return n;
    return n / 2 > k ? n / 2 : k;
}

static tl_tensor *doubled(tl_tensor *x, int k) // expected-func: peak<=512 end=384 moved<=640
{
    tl_tensor *t = tl_mul_scalar(x, 2.0); // expected: t bytes=128 moved=256
    if (k > 4) // expected-note {{one arm returns (line 44) while the other goes on}} {{[unknown-branch]}}
        return t;
    tl_tensor *u = tl_add(t, t); /* not in the run (k > 4) */
    tl_release(t);
    return u;
}

static void check(int n, int k)
{
    if (n * k > 1000) // expected-assumption {{die() ends the program}}
        die("too large");
}

int main(int argc, char **argv) // expected-func: peak<=512 end=0 moved<=1056
{
    (void)argv;
    if (argc > 3) // expected-assumption {{argc > 3 is false}}
        return 2;
    int n = 4 * argc - 1, k = 7 - argc;
    check(n, k);
    tl_tensor *x = tl_ones(TL_SHAPE(8, 4), TL_F32, TL_CPU); // expected: x bytes=128 freed=75
    tl_tensor *p = tl_softmax(x, 1); // expected: p bytes=128 moved=256 freed=74
    float probs[4];
    tl_tensor *row = tl_select(p, 0, 0); // expected: row kind=view view-of=p freed=74
    tl_copy_to_host(row, probs, sizeof probs);
    int idx = sample_index(probs, 4, (float)n / 4);
    int rows = rows_kept(n, k);
    tl_tensor *y = doubled(p, k);
    printf("%d %d\n", idx, rows);
    tl_release(y);
    tl_release(row);
    tl_release(p);
    tl_release(x);
    return 0;
}
