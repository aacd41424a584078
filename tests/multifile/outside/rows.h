#ifndef ROWS_H
#define ROWS_H
#include <tensorlint/tensor.h>
tl_tensor *rows_make(int n, int d);
#endif
