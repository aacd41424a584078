/* What the memory model cannot follow is one note at the construct, and the
 * totals that depend on it are bounds: a handle in a union, a handle behind a
 * pointer an external function returned, a store at an index not known
 * statically.  A cast through void * and back is followed. */
#include <stdlib.h>
#include <tensorlint/tensor.h>

typedef union { tl_tensor *t; long bits; } boxed;

static tl_tensor **table(void) { return (tl_tensor **)(void *)getenv("NO_SUCH_VARIABLE"); }

int main(int argc, char **argv) // expected-func: peak~=256 end~=128
{
    (void)argv;
    tl_tensor *x = tl_zeros(TL_SHAPE(4, 4), TL_F32, TL_CPU); // expected: x bytes=64 freed=27
    void *opaque = &x;
    tl_tensor **back = (tl_tensor **)opaque;
    tl_tensor *y = tl_relu(*back); // expected: y shape=(4, 4) bytes=64 freed=26
    boxed u;
    u.t = tl_clone(y); // expected-note {{a member of a union}} {{[unsupported]}}
    tl_tensor *slots[4] = {NULL, NULL, NULL, NULL};
    slots[argc % 4] = tl_clone(x); // expected-note {{at an index not known statically}} {{[unsupported]}}
    tl_tensor **far = table();
    tl_tensor *z = tl_neg(*far); // expected-note {{cannot follow}} {{[unsupported]}}
    (void)z;
    tl_release(y);
    tl_release(x);
    return 0;
}
// no-verify: the program leaks on purpose and reads through a null pointer
