/* expanded-element-write: tl_set on a tensor with a stride-0 dim. */
// CHECK-OPTIONS: --checks=-*,expanded-element-write,materialized-broadcast,write-through-view
#include <tensorlint/tensor.h>

int main(void)
{
    tl_tensor *b = tl_randn(TL_SHAPE(1, 16), TL_F32, TL_CPU);
    tl_tensor *e = tl_expand(b, TL_SHAPE(8, 16)); // expected-note {{come from tl_expand here}}
    tl_set(e, TL_DIMS(0, 0), 5.0); // expected-warning {{[expanded-element-write]}}
    /* near misses: the unexpanded tensor, and a clone of the expanded one */
    tl_set(b, TL_DIMS(0, 1), 5.0);
    tl_tensor *own = tl_clone(e); // expected-warning {{[materialized-broadcast]}}
    tl_set(own, TL_DIMS(0, 0), 5.0);
    tl_release(own);
    tl_release(e);
    tl_release(b);
    return 0;
}
