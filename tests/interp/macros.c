/* Macros of every form lowered as the same code written out: assignments,
 * compound assignments and increments in a macro's body, statement macros,
 * do { } while (0), nested macros, macros that expand to tl_ calls,
 * arguments with side effects, macros in conditions and loop headers. */
#include <stdint.h>
#include <tensorlint/tensor.h>

#define ASSIGN(var, val) var = val
#define TWICE(x) ((x) + (x))
#define SQUARE(x) ((x) * (x))
#define GROW(var, k) var *= k
#define BUMP(var) var++
#define PRE_BUMP(var) ++var
#define NEXT(var) (var += 1, var)
#define DOUBLE_ASSIGN(var, val) ASSIGN(var, TWICE(val))
#define SWAP_IN(h, e) do { tl_tensor *t_ = (e); tl_release(h); h = t_; } while (0)
#define ONES(r, c) tl_ones(TL_SHAPE(r, c), TL_F32, TL_CPU)
#define RELEASE_AND_NULL(h) do { tl_release(h); h = NULL; } while (0)
#define IS_BIG(x) ((x) > 10)
#define FOR_TIMES(i, k) for (int i = 0; i < (k); i++)
#define NOT(x) !(x)
#define NEG(x) -x
#define KEEP(x) (x)
#define SET(var, val) ((var) = (val))

int main(void) // expected-func: peak=32KiB end=0 calls=5 peak-line=31
{
    int n = 4;
    ASSIGN(n, 64);
    tl_tensor *t = tl_ones(TL_SHAPE(n, n), TL_F32, TL_CPU); // expected: t shape=(64, 64) bytes=16KiB freed=31
    SWAP_IN(t, tl_relu(t)); // expected: t_ op=relu shape=(64, 64) bytes=16KiB freed=32
    RELEASE_AND_NULL(t);
    int m = 1;
    DOUBLE_ASSIGN(m, 3);            /* m = 6 */
    GROW(m, 2);                     /* m = 12 */
    BUMP(m);                        /* m = 13 */
    PRE_BUMP(m);                    /* m = 14 */
    int k = NEXT(m);                /* m = 15, k = 15 */
    int s = SQUARE(k - 13);         /* 4 */
    tl_tensor *a = ONES(s, k); // expected: a shape=(4, 15) bytes=240 freed=50
    int j = 0;
    int w = KEEP(j++);              /* j = 1, w = 0 */
    w += KEEP(++j);                 /* j = 2, w = 2 */
    if (IS_BIG(k))
        m = 100;
    if (NOT(IS_BIG(s)))
        s = NEG(s) + 10;            /* s = 6 */
    FOR_TIMES(i, 2)
        s += 1;                     /* s = 8 */
    tl_release(a);
    tl_tensor *b = ONES(s, m - 90); // expected: b shape=(8, 10) bytes=320 freed=52
    tl_release(b);
    int e = 0;
    while (SET(e, e + w - 1) < 3)
        ;
    tl_tensor *c = ONES(e, 2); // expected: c shape=(3, 2) bytes=24 freed=57
    tl_release(c);
    return 0;
}
