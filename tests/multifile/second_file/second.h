#ifndef SECOND_H
#define SECOND_H
#include <tensorlint/tensor.h>
tl_tensor *second_head(void);
tl_tensor *second_roundtrip(tl_tensor *x);
#endif
