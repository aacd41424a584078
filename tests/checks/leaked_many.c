/* leaked-tensor: more handles lost at once than any fixed table of them
 * would hold; every one counts (a memset over 70 of them). */
// CHECK-OPTIONS: --checks=-*,leaked-tensor
#include <string.h>
#include <tensorlint/tensor.h>

struct many {
    tl_tensor *t[70];
};

int main(void)
{
    struct many m;
    for (int i = 0; i < 70; i++)
        m.t[i] = tl_zeros(TL_SHAPE(2), TL_F32, TL_CPU);
    memset(&m, 0, sizeof m); // expected-warning {{(70 times here, 560 B in all) [leaked-tensor]}}
    return 0;
}
