/* Helpers that take ownership of their arguments: they release them. */
#ifndef HELPERS_H
#define HELPERS_H
#include <tensorlint/tensor.h>

void drop(tl_tensor *t);
tl_tensor *relu_take(tl_tensor *t);
#endif
