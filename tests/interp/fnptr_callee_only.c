/* Functions reached only through a pointer are callees: the function that
 * calls through the pointer has tensor code through them (though it touches
 * no tensor itself), and they run at each call with its arguments, never
 * as roots of their own. */
#include <tensorlint/tensor.h>

static tl_tensor *cache[3];

static void fill(int i)
{
    cache[i] = tl_zeros(TL_SHAPE(i + 1, 2), TL_F32, TL_CPU); // expected: cache[i] exec=3 freed=14
}

static void drop(int i) { tl_release(cache[i]); }

static void each(void (*visit)(int), int n) // expected-func: peak=48 end=48 moved=48 calls=3
{
    for (int i = 0; i < n; i++)
        visit(i);
}

int main(void) // expected-func: peak=48 end=0 moved=48 peak-line=24 calls=3
{
    each(fill, 3);
    each(&drop, 3);
    return 0;
}
