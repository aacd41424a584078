/* The definitions: g_dim initialised here, g_table made by state_init. */
#include "state.h"

int g_dim = 24;
tl_tensor *g_table;

void state_init(void)
{
    g_table = tl_zeros(TL_SHAPE(10, g_dim), TL_F32, TL_CPU); // expected: op=zeros shape=(10, 24) bytes=960 freed=state.c:14
}

void state_free(void)
{
    tl_release(g_table);
}
