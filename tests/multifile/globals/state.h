/* Program-wide state: a size and a tensor defined in state.c, used elsewhere. */
#ifndef STATE_H
#define STATE_H
#include <tensorlint/tensor.h>

extern int g_dim;
extern tl_tensor *g_table;

void state_init(void);
void state_free(void);
#endif
