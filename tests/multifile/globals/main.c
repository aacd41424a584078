/* Uses the globals state.c defines: the size read here is state.c's. */
#include "state.h"

int main(void) // expected-func: peak=1056 end=0 calls=3
{
    state_init();
    tl_tensor *row = tl_ones(TL_SHAPE(1, g_dim), TL_F32, TL_CPU); // expected: row op=ones shape=(1, 24) bytes=96 freed=main.c:9
    tl_tensor *first = tl_slice(g_table, 0, 0, 1, 1); // expected: first op=slice shape=(1, 24) kind=view
    tl_release(row);
    tl_release(first);
    state_free();
    return 0;
}
