/* ... and here too: two external definitions of one name do not link. */
#include <tensorlint/tensor.h>

tl_tensor *scale(tl_tensor *t) // expected-link-error {{function 'scale' is defined in two units of the program}}
{
    return tl_add_scalar(t, 1.0);
}
