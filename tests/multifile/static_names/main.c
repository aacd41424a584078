/* Each unit's make_* calls its own static make. */
#include <tensorlint/tensor.h>

tl_tensor *make_a(void);
tl_tensor *make_b(void);

int main(void) // expected-func: peak=136 end=0 calls=2
{
    tl_tensor *a = make_a();
    tl_tensor *b = make_b();
    tl_release(a);
    tl_release(b);
    return 0;
}
